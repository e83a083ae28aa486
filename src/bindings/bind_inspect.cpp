// Generated source of a kernel for either target without compiling or loading it, so tests on
// a machine without a GPU can hand the CUDA C++ of simt's own kernels to NVRTC.
#include "bindings.h"
#include "runtime/dispatcher.h"
#include "support/error.h"

namespace simt::py {

namespace {
// Kernel types of sample arguments: simt arrays, ints (int64), floats (float64) and bools.
const Type* sample_type(nb::handle v) {
    if (is_ndarray(v.ptr())) return ndarray_of(v.ptr()).kernel_type();
    if (PyBool_Check(v.ptr())) return bool_type();
    if (PyLong_Check(v.ptr())) return int64_type();
    if (PyFloat_Check(v.ptr())) return float64_type();
    throw Error(ErrorKind::Type, std::string("cannot type a sample argument of type ") + nb::type_name(v.type()).c_str());
}
}  // namespace

void bind_inspect(nb::module_& m) {
    m.def("_generate_source", [](Dispatcher& d, const std::string& target, nb::args samples) {
        if (target != "cpu" && target != "cuda") throw Error(ErrorKind::Value, "target must be 'cpu' or 'cuda'");
        std::vector<const Type*> types;
        for (nb::handle s : samples) types.push_back(sample_type(s));
        return d.generate(types, target == "cuda" ? Target::Cuda : Target::Cpu)->source.full_source;
    });
    // What analysis typed in each compiled specialization's kernel (numba's inspect_types):
    // {"params": [(name, type)], "locals": [(name, type)], "return": type}.
    m.def("_specialization_types", [](Dispatcher& d) {
        return by_specialization(d, [](const CompiledKernel& k) {
            const TypedFunction& f = *k.unit->kernel;
            nb::list params, locals;
            for (size_t i = 0; i < f.def.params.size() && i < f.param_types.size(); ++i)
                params.append(nb::make_tuple(f.def.params[i].name, f.param_types[i]->str()));
            for (const auto& [name, type] : f.locals) locals.append(nb::make_tuple(name, type->str()));
            nb::dict out;
            out["params"] = params;
            out["locals"] = locals;
            out["return"] = f.return_type ? f.return_type->str() : std::string("none");
            return out;
        });
    });
}

}  // namespace simt::py
