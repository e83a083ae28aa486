// compile_ptx and PTX for inspection.
#include "backend/cuda/ptx_compiler.h"
#include "backend/cuda/nvrtc_compile.h"
#include "frontend/parser.h"
#include "sema/sema.h"
#include "support/error.h"
#include "types/signature.h"

namespace simt {

namespace {

// As analyze_kernel, for a device function at the root of the unit: its body gets an internal
// name so the exported C symbol can carry the Python name.
std::unique_ptr<CompileUnit> analyze_device_root(const KernelDefinition& def, const std::vector<const Type*>& types) {
    auto unit = std::make_unique<CompileUnit>();
    unit->options = def.options;
    auto fn = std::make_unique<TypedFunction>();
    fn->source = def.source;
    fn->def = parse_function(def.source);
    fn->name = fn->def.name;
    fn->c_name = "simt_device_" + c_identifier(fn->def.name);
    fn->is_kernel = false;
    if (types.size() != fn->def.params.size())
        throw Error(ErrorKind::Type, "device function '" + fn->name + "' takes " + std::to_string(fn->def.params.size()) +
                                         " argument(s) but the signature gives " + std::to_string(types.size()));
    fn->param_types = types;
    TypedFunction* root = fn.get();
    std::vector<std::string> call_stack{def.source.filename + ":" + fn->name};
    Sema sema(*unit, *root, def.resolve, call_stack);
    unit->functions.push_back(std::move(fn));
    sema.run();
    unit->kernel = root;
    read_linked_sources(*unit);
    return unit;
}

NvrtcRequest request_for(const GeneratedSource& g, const CompileUnit& unit, int arch) {
    NvrtcRequest req;
    req.source = g.full_source;
    req.name = std::string(unit.kernel->is_kernel ? "kernel '" : "device function '") + unit.kernel->name + "'";
    req.options = unit.options;
    req.arch = arch;
    req.minimal = !g.raw_cuda && !g.toolkit_headers;  // (linked CUDA C++ compiles with the toolkit's headers)
    req.extra = g.compiler_options;
    return req;
}

}  // namespace

PtxResult compile_ptx(const KernelDefinition& def, const std::string& signature, bool device, int arch, bool optimize) {
    Signature sig = parse_signature(signature);
    std::unique_ptr<CompileUnit> unit;
    if (device) {
        unit = analyze_device_root(def, sig.args);
        if (sig.return_type && sig.return_type != void_type() && sig.return_type != unit->kernel->return_type)
            throw Error(ErrorKind::Type, "device function '" + def.name + "' returns " + unit->kernel->return_type->str() +
                                             " but the signature says " + sig.return_type->str());
    } else {
        if (sig.return_type && sig.return_type != void_type())
            throw Error(ErrorKind::Type, "kernel '" + def.name + "' cannot return " + sig.return_type->str() +
                                             "; a kernel signature returns void");
        unit = analyze_kernel(def.source, def.resolve, sig.args, def.options);
    }
    GeneratedSource g = emit_unit(*unit, Target::Cuda);
    NvrtcRequest req = request_for(g, *unit, arch);
    req.relocatable = device;  // keeps the exported device function in the PTX
    req.optimize = optimize;
    PtxResult r;
    r.ptx = compile_ptx_text(req);
    r.return_type = device ? unit->kernel->return_type->str() : "void";
    return r;
}

std::string cuda_ptx_of_unit(const CompileUnit& unit, int arch) {
    GeneratedSource g = emit_unit(unit, Target::Cuda);
    return compile_ptx_text(request_for(g, unit, arch));
}

}  // namespace simt
