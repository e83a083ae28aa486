// Elementwise operations from Python: the ndarray's operator slots (all C++, no Python code
// between `x + y` and the launch), simt's ufunc objects, and the kernels of simt.fuse and
// vectorize.
#include <map>
#include "bindings.h"
#include "support/error.h"
#include "types/signature.h"

namespace simt::py {

namespace {
PyTypeObject* g_ndarray_type = nullptr;
PyObject* g_numpy_generic = nullptr;
PyObject* g_numpy_ndarray = nullptr;

// The ufuncs behind Python's operators, looked up once.
struct OperatorUfuncs {
    Ufunc *add, *subtract, *multiply, *true_divide, *floor_divide, *remainder, *power, *lshift, *rshift, *band, *bor,
        *bxor, *negative, *positive, *absolute, *invert, *lt, *le, *gt, *ge, *eq, *ne;
} g_ops;

std::string type_name_of(nb::handle v) {
    nb::handle t = v.type();
    return nb::cast<std::string>(t.attr("__module__")) + "." + nb::cast<std::string>(t.attr("__qualname__"));
}

// Classifies two operands of a binary operator; null means NotImplemented.
PyObject* binary(Ufunc* u, PyObject* a, PyObject* b, bool in_place) {
    return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
        UfuncOperand ops[2];
        PyObject* args[2] = {a, b};
        for (int i = 0; i < 2; ++i) {
            OperandClass c = classify_operand(args[i], ops[i]);
            if (c == OperandClass::HostData) raise_host_data(args[i], "an operand of '" + u->name + "'");
            if (c == OperandClass::Unsupported) Py_RETURN_NOTIMPLEMENTED;
        }
        if (in_place) {
            NdArray& target = ndarray_of(a);
            call_ufunc(*u, ops, 2, &target, std::nullopt);
            Py_INCREF(a);
            return a;
        }
        return wrap_ndarray(call_ufunc(*u, ops, 2, nullptr, std::nullopt)).release().ptr();
    });
}

PyObject* unary(Ufunc* u, PyObject* a) {
    return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
        UfuncOperand op;
        op.kind = UfuncOperand::Kind::Array;
        op.array = &ndarray_of(a);
        return wrap_ndarray(call_ufunc(*u, &op, 1, nullptr, std::nullopt)).release().ptr();
    });
}

#define SIMT_BINARY_SLOTS(NAME, UFUNC)                                                                   \
    PyObject* slot_##NAME(PyObject* a, PyObject* b) { return binary(g_ops.UFUNC, a, b, false); }        \
    PyObject* slot_inplace_##NAME(PyObject* a, PyObject* b) {                                            \
        if (!is_ndarray(a)) Py_RETURN_NOTIMPLEMENTED;                                                    \
        return binary(g_ops.UFUNC, a, b, true);                                                          \
    }
SIMT_BINARY_SLOTS(add, add)
SIMT_BINARY_SLOTS(subtract, subtract)
SIMT_BINARY_SLOTS(multiply, multiply)
SIMT_BINARY_SLOTS(true_divide, true_divide)
SIMT_BINARY_SLOTS(floor_divide, floor_divide)
SIMT_BINARY_SLOTS(remainder, remainder)
SIMT_BINARY_SLOTS(lshift, lshift)
SIMT_BINARY_SLOTS(rshift, rshift)
SIMT_BINARY_SLOTS(and, band)
SIMT_BINARY_SLOTS(or, bor)
SIMT_BINARY_SLOTS(xor, bxor)
#undef SIMT_BINARY_SLOTS

// Sets TypeError and returns true when pow() got a modulus.
bool modulus_given(PyObject* mod) {
    if (mod == Py_None) return false;
    PyErr_SetString(PyExc_TypeError, "pow() with a modulus is not supported for simt arrays");
    return true;
}
PyObject* slot_power(PyObject* a, PyObject* b, PyObject* mod) {
    if (modulus_given(mod)) return nullptr;
    return binary(g_ops.power, a, b, false);
}
PyObject* slot_inplace_power(PyObject* a, PyObject* b, PyObject* mod) {
    if (modulus_given(mod)) return nullptr;
    if (!is_ndarray(a)) Py_RETURN_NOTIMPLEMENTED;
    return binary(g_ops.power, a, b, true);
}
PyObject* slot_divmod(PyObject* a, PyObject* b) {
    nb::object q = nb::steal(binary(g_ops.floor_divide, a, b, false));
    if (!q.is_valid() || q.ptr() == Py_NotImplemented) return q.release().ptr();
    nb::object r = nb::steal(binary(g_ops.remainder, a, b, false));
    if (!r.is_valid()) return nullptr;
    return PyTuple_Pack(2, q.ptr(), r.ptr());
}

PyObject* slot_negative(PyObject* a) { return unary(g_ops.negative, a); }
PyObject* slot_positive(PyObject* a) { return unary(g_ops.positive, a); }
PyObject* slot_absolute(PyObject* a) { return unary(g_ops.absolute, a); }
PyObject* slot_invert(PyObject* a) { return unary(g_ops.invert, a); }

PyObject* slot_richcompare(PyObject* a, PyObject* b, int op) {
    Ufunc* u = op == Py_LT ? g_ops.lt : op == Py_LE ? g_ops.le : op == Py_GT ? g_ops.gt
             : op == Py_GE ? g_ops.ge : op == Py_EQ ? g_ops.eq : g_ops.ne;
    return binary(u, a, b, false);
}

PyType_Slot g_slots[] = {
    {Py_nb_add, (void*)slot_add}, {Py_nb_inplace_add, (void*)slot_inplace_add},
    {Py_nb_subtract, (void*)slot_subtract}, {Py_nb_inplace_subtract, (void*)slot_inplace_subtract},
    {Py_nb_multiply, (void*)slot_multiply}, {Py_nb_inplace_multiply, (void*)slot_inplace_multiply},
    {Py_nb_true_divide, (void*)slot_true_divide}, {Py_nb_inplace_true_divide, (void*)slot_inplace_true_divide},
    {Py_nb_floor_divide, (void*)slot_floor_divide}, {Py_nb_inplace_floor_divide, (void*)slot_inplace_floor_divide},
    {Py_nb_remainder, (void*)slot_remainder}, {Py_nb_inplace_remainder, (void*)slot_inplace_remainder},
    {Py_nb_power, (void*)slot_power}, {Py_nb_inplace_power, (void*)slot_inplace_power},
    {Py_nb_lshift, (void*)slot_lshift}, {Py_nb_inplace_lshift, (void*)slot_inplace_lshift},
    {Py_nb_rshift, (void*)slot_rshift}, {Py_nb_inplace_rshift, (void*)slot_inplace_rshift},
    {Py_nb_and, (void*)slot_and}, {Py_nb_inplace_and, (void*)slot_inplace_and},
    {Py_nb_or, (void*)slot_or}, {Py_nb_inplace_or, (void*)slot_inplace_or},
    {Py_nb_xor, (void*)slot_xor}, {Py_nb_inplace_xor, (void*)slot_inplace_xor},
    {Py_nb_divmod, (void*)slot_divmod},
    {Py_nb_negative, (void*)slot_negative}, {Py_nb_positive, (void*)slot_positive},
    {Py_nb_absolute, (void*)slot_absolute}, {Py_nb_invert, (void*)slot_invert},
    {Py_tp_richcompare, (void*)slot_richcompare},
    {Py_mp_subscript, (void*)ndarray_subscript}, {Py_mp_ass_subscript, (void*)ndarray_ass_subscript},
    {0, nullptr},
};

// ---- ufunc objects -----------------------------------------------------------------------------
struct UfuncObject {
    Ufunc* ufunc;
    std::string name;  // the name it is reached by (aliases such as divide keep theirs)
};

std::optional<DType> optional_dtype(nb::handle h) {
    if (h.is_none()) return std::nullopt;
    return dtype_from_object(h);
}

// Whether the str `text` (a keyword, or a keyword's value) is `name`.
bool text_is(PyObject* text, const char* name) { return PyUnicode_CompareWithASCIIString(text, name) == 0; }

// simt.add(x, y[, out], out=..., dtype=...): a raw call slot, so a call costs no method lookup
// and no conversion of its arguments beyond what the ufunc reads.
PyObject* call_ufunc_object(PyObject* self_object, PyObject* args, PyObject* kwargs) {
    return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
        UfuncObject& self = *nb::inst_ptr<UfuncObject>(self_object);
        Ufunc& u = *self.ufunc;
        size_t n = size_t(PyTuple_GET_SIZE(args));
        PyObject* out = Py_None;
        if (n == size_t(u.nin) + 1) out = PyTuple_GET_ITEM(args, --n);
        if (n != size_t(u.nin))
            throw Error(ErrorKind::Type, self.name + "() takes " + std::to_string(u.nin) + " positional argument" +
                                             (u.nin == 1 ? "" : "s") + " but " + std::to_string(n) + " were given");
        std::optional<DType> dtype;
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (kwargs && PyDict_Next(kwargs, &pos, &key, &value)) {
            if (text_is(key, "out")) {
                out = value;
                if (PyTuple_Check(out)) {
                    if (PyTuple_GET_SIZE(out) != 1) throw Error(ErrorKind::Value, self.name + "() has 1 output; out must hold one array");
                    out = PyTuple_GET_ITEM(out, 0);
                }
            } else if (text_is(key, "dtype")) {
                dtype = optional_dtype(value);
            } else if (text_is(key, "casting")) {
                if (!PyUnicode_Check(value) || !text_is(value, "same_kind"))
                    throw Error(ErrorKind::NotImplemented, "simt ufuncs only support casting='same_kind'");
            } else if (text_is(key, "where")) {
                if (value != Py_True) throw Error(ErrorKind::NotImplemented, "the where= argument of ufuncs is not supported; use simt.where");
            } else if (!text_is(key, "order") && !text_is(key, "subok")) {
                throw Error(ErrorKind::Type, self.name + "() got an unexpected keyword argument '" +
                                                 nb::cast<std::string>(nb::handle(key)) + "'");
            }
        }
        UfuncOperand ops[kMaxUfuncInputs];
        for (size_t i = 0; i < n; ++i) {
            nb::handle arg = PyTuple_GET_ITEM(args, Py_ssize_t(i));
            OperandClass c = classify_operand(arg.ptr(), ops[i]);
            if (c == OperandClass::HostData) raise_host_data(arg, "argument " + std::to_string(i + 1) + " of simt." + self.name);
            if (c == OperandClass::Unsupported) {
                // Values being traced by simt.fuse record the call instead.
                if (nb::hasattr(arg, "_simt_fusion_trace")) {
                    nb::object all_kwargs = kwargs ? nb::borrow(kwargs) : nb::object(nb::dict());
                    return arg.attr("_simt_fusion_trace")(self.name, nb::handle(args), all_kwargs).release().ptr();
                }
                throw Error(ErrorKind::Type, "simt." + self.name + "(): argument " + std::to_string(i + 1) + " has type " +
                                                 type_name_of(arg) + "; expected a simt array or a number");
            }
        }
        if (out != Py_None) {
            if (!is_ndarray(out)) {
                if (PyObject_TypeCheck(out, (PyTypeObject*)g_numpy_ndarray))
                    raise_host_data(nb::handle(out), "the out= argument of simt." + self.name);
                throw Error(ErrorKind::Type, "out= must be a simt array, not " + type_name_of(nb::handle(out)));
            }
            call_ufunc(u, ops, int(n), &ndarray_of(out), dtype);
            Py_INCREF(out);
            return out;
        }
        return wrap_ndarray(call_ufunc(u, ops, int(n), nullptr, dtype)).release().ptr();
    });
}

PyType_Slot g_ufunc_slots[] = {{Py_tp_call, (void*)call_ufunc_object}, {0, nullptr}};

nb::list loop_signatures(const Ufunc& u) {
    nb::list out;
    for (const UfuncLoop& l : u.loops) {
        std::string s;
        for (int k = 0; k < u.nin; ++k) s += std::string(k ? "," : "") + dtype_name(l.in[k]);
        out.append(s + "->" + dtype_name(l.out));
    }
    return out;
}

// What simt.fuse needs to inline one ufunc application: the loop NumPy's rules pick for
// operands given as dtypes (strong) or as "int"/"float"/"complex" (weak Python scalars).
nb::tuple resolve_for_fusion(const std::string& name, nb::list specs) {
    Ufunc* u = find_ufunc(name);
    if (!u) throw Error(ErrorKind::Value, "simt has no ufunc named '" + name + "'");
    if (specs.size() != size_t(u->nin))
        throw Error(ErrorKind::Type, name + "() takes " + std::to_string(u->nin) + " arguments, got " + std::to_string(specs.size()));
    UfuncOperand ops[kMaxUfuncInputs];
    for (size_t i = 0; i < specs.size(); ++i) {
        nb::handle s = specs[i];
        if (PyUnicode_Check(s.ptr())) {
            std::string kind = nb::cast<std::string>(s);
            ops[i].kind = kind == "int" ? UfuncOperand::Kind::WeakInt
                        : kind == "float" ? UfuncOperand::Kind::WeakFloat
                        : kind == "complex" ? UfuncOperand::Kind::WeakComplex
                        : throw Error(ErrorKind::Value, "unknown weak scalar kind '" + kind + "'");
        } else {
            ops[i].kind = UfuncOperand::Kind::Scalar;
            ops[i].scalar.dtype = dtype_from_object(s);
        }
    }
    std::vector<DType> dtypes = resolve_operand_dtypes(*u, ops, u->nin);
    const UfuncLoop* loop = select_loop(*u, dtypes.data(), std::nullopt);
    if (!loop) {
        std::string list;
        for (DType d : dtypes) list += std::string(list.empty() ? "" : ", ") + dtype_name(d);
        throw Error(ErrorKind::Type, "ufunc '" + name + "' not supported for the input types (" + list + ")");
    }
    nb::list in_types, uncast;
    for (int k = 0; k < u->nin; ++k) {
        in_types.append(dtype_object(loop->in[k]));
        uncast.append(bool((u->any_dtype_inputs >> k) & 1));
    }
    return nb::make_tuple(in_types, uncast, dtype_object(loop->out), loop->kernel.body);
}

// ---- kernels of simt.fuse and vectorize ----------------------------------------------------------
struct CustomKernel {
    std::unique_ptr<ElementwiseFamily> family;
    GlobalResolver resolve;
    std::map<int, ElementwiseLoop> loops;
};

ElementwiseLoop loop_from(nb::list in_types, nb::list in_uncast, nb::list out_types, const std::string& body) {
    ElementwiseLoop loop;
    for (nb::handle t : in_types) loop.in_types.push_back(dtype_from_object(t));
    for (nb::handle u : in_uncast) loop.in_uncast.push_back(nb::cast<bool>(u));
    for (nb::handle t : out_types) loop.out_types.push_back(dtype_from_object(t));
    loop.body = body;
    return loop;
}

nb::object run_custom(CustomKernel& k, int loop_id, nb::list in_types, nb::list in_uncast, nb::list out_types,
                      const std::string& body, nb::list args, nb::object out, const std::string& casting) {
    if (casting != "same_kind" && casting != "unsafe") throw Error(ErrorKind::Value, "casting must be 'same_kind' or 'unsafe'");
    auto it = k.loops.find(loop_id);
    if (it == k.loops.end()) it = k.loops.emplace(loop_id, loop_from(in_types, in_uncast, out_types, body)).first;
    const ElementwiseLoop& loop = it->second;
    size_t nin = loop.in_types.size(), nout = loop.out_types.size();
    if (args.size() != nin)
        throw Error(ErrorKind::Type, k.family->name() + "() takes " + std::to_string(nin) + " arguments but " +
                                         std::to_string(args.size()) + " were given");
    if (nin + nout > size_t(kMaxElementwiseOperands))
        raise(ErrorKind::Value, "%s() has too many operands (at most %d)", k.family->name().c_str(), kMaxElementwiseOperands);
    std::vector<ElementwiseInput> inputs(nin);
    bool all_fortran = false;
    for (size_t i = 0; i < nin; ++i) {
        nb::handle a = args[i];
        if (is_ndarray(a.ptr())) {
            inputs[i].array = &ndarray_of(a.ptr());
            const NdArray& arr = *inputs[i].array;
            all_fortran = (i == 0 || all_fortran) && arr.ndim > 1 && arr.f_contiguous() && !arr.c_contiguous();
        } else {
            inputs[i].scalar = scalar_from_python(a, loop.in_types[i]);
        }
    }
    std::vector<NdArray> outputs(nout);
    std::unique_ptr<bool[]> given(new bool[nout]());
    if (!out.is_none()) {
        nb::list outs = nb::list(out);
        if (outs.size() != nout) throw Error(ErrorKind::Value, k.family->name() + "() has " + std::to_string(nout) + " outputs");
        for (size_t j = 0; j < nout; ++j) {
            if (outs[j].is_none()) continue;  // (allocated as without out=: simt.fuse's in-place updates)
            if (!is_ndarray(outs[j].ptr())) throw Error(ErrorKind::Type, "out= must hold simt arrays");
            outputs[j] = ndarray_of(outs[j].ptr());
            given[j] = true;
        }
    }
    elementwise_call(*k.family, loop_id, loop, inputs.data(), int(nin), outputs.data(), given.get(), int(nout), "function",
                     all_fortran, casting == "unsafe");
    if (!out.is_none()) {
        bool all_given = true;
        for (size_t j = 0; j < nout; ++j) all_given = all_given && given[j];
        if (all_given) return out;
        nb::list outs = nb::list(out);
        for (size_t j = 0; j < nout; ++j)
            if (!given[j]) outs[j] = wrap_ndarray(std::move(outputs[j]));
        return outs;
    }
    nb::list result;
    for (NdArray& a : outputs) result.append(wrap_ndarray(std::move(a)));
    return result;
}

}  // namespace

// ---- shared helpers -------------------------------------------------------------------------------
bool is_ndarray(PyObject* o) { return Py_TYPE(o) == g_ndarray_type || PyType_IsSubtype(Py_TYPE(o), g_ndarray_type); }

NdArray& ndarray_of(PyObject* o) { return *nb::inst_ptr<NdArray>(o); }

nb::object wrap_ndarray(NdArray&& a) {
    nb::object o = nb::inst_alloc(nb::handle((PyObject*)g_ndarray_type));
    new (nb::inst_ptr<NdArray>(o)) NdArray(std::move(a));
    nb::inst_mark_ready(o);
    return o;
}

const PyType_Slot* ndarray_type_slots() { return g_slots; }

void raise_host_data(nb::handle value, const std::string& where) {
    throw Error(ErrorKind::Type, where + " is host data (" + type_name_of(value) +
                                     "); simt arrays never combine with host data implicitly. Copy it to the device with "
                                     "simt.asarray(x), or copy simt arrays to the host with .get() / simt.asnumpy()");
}

Scalar scalar_from_python(nb::handle value, DType dtype) {
    PyObject* o = value.ptr();
    if (dtype_is_complex(dtype)) {
        Py_complex c = PyComplex_AsCComplex(o);
        if (PyErr_Occurred()) throw nb::python_error();
        return Scalar::from_complex(c.real, c.imag, dtype);
    }
    if (PyComplex_Check(o)) throw Error(ErrorKind::Type, std::string("cannot convert a complex number to ") + dtype_name(dtype));
    if (dtype == DType::Bool) {
        int t = PyObject_IsTrue(o);
        if (t < 0) throw nb::python_error();
        return Scalar::from_bool(t != 0, dtype);
    }
    if (dtype_is_float(dtype)) {
        double v = PyFloat_AsDouble(o);
        if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
        return Scalar::from_double(v, dtype);
    }
    // Integers: Python ints must fit (NumPy 2 raises too); floats truncate.
    if (PyFloat_Check(o) || (g_numpy_generic && PyObject_TypeCheck(o, (PyTypeObject*)g_numpy_generic) && !PyIndex_Check(o))) {
        double v = PyFloat_AsDouble(o);
        if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
        return Scalar::from_double(v, dtype);
    }
    nb::object i = nb::steal(PyNumber_Index(o));
    if (!i.is_valid()) throw nb::python_error();
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    if (!overflow && int_fits(v, dtype)) return Scalar::from_int(v, dtype);
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(i.ptr());
        if (!PyErr_Occurred() && uint_fits(u, dtype)) return Scalar::from_uint(u, dtype);
        PyErr_Clear();
    }
    throw Error(ErrorKind::Overflow, "Python integer " + nb::cast<std::string>(nb::str(i)) + " out of bounds for " + dtype_name(dtype));
}

OperandClass classify_operand(PyObject* o, UfuncOperand& op) {
    if (is_ndarray(o)) {
        op.kind = UfuncOperand::Kind::Array;
        op.array = &ndarray_of(o);
        return OperandClass::Ok;
    }
    if (PyBool_Check(o)) {
        op.kind = UfuncOperand::Kind::Scalar;
        op.scalar = Scalar::from_bool(o == Py_True, DType::Bool);
        return OperandClass::Ok;
    }
    if (PyObject_TypeCheck(o, (PyTypeObject*)g_numpy_generic)) {  // NumPy scalars keep their dtype
        DType d = dtype_from_object(nb::handle(o).attr("dtype"));
        op.kind = UfuncOperand::Kind::Scalar;
        op.scalar = scalar_from_python(o, d);
        return OperandClass::Ok;
    }
    if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (!overflow) {
            op.kind = UfuncOperand::Kind::WeakInt;
            op.i = v;
            return OperandClass::Ok;
        }
        if (overflow > 0) {
            unsigned long long u = PyLong_AsUnsignedLongLong(o);
            if (!PyErr_Occurred()) {
                op.kind = UfuncOperand::Kind::WeakUInt;
                op.u = u;
                return OperandClass::Ok;
            }
            PyErr_Clear();
        }
        op.kind = UfuncOperand::Kind::WeakFloat;
        op.huge_int = true;
        op.re = PyLong_AsDouble(o);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            op.re = overflow > 0 ? HUGE_VAL : -HUGE_VAL;
        }
        return OperandClass::Ok;
    }
    if (PyFloat_Check(o)) {
        op.kind = UfuncOperand::Kind::WeakFloat;
        op.re = PyFloat_AS_DOUBLE(o);
        return OperandClass::Ok;
    }
    if (PyComplex_Check(o)) {
        op.kind = UfuncOperand::Kind::WeakComplex;
        op.re = PyComplex_RealAsDouble(o);
        op.im = PyComplex_ImagAsDouble(o);
        return OperandClass::Ok;
    }
    if (PyObject_TypeCheck(o, (PyTypeObject*)g_numpy_ndarray) || PyList_Check(o) || PyTuple_Check(o)) return OperandClass::HostData;
    return OperandClass::Unsupported;
}

void bind_elementwise(nb::module_& m) {
    g_ndarray_type = (PyTypeObject*)nb::type<NdArray>().ptr();
    nb::module_ np = nb::module_::import_("numpy");
    g_numpy_generic = nb::object(np.attr("generic")).release().ptr();  // owned for the process
    g_numpy_ndarray = nb::object(np.attr("ndarray")).release().ptr();
    auto get = [](const char* name) {
        Ufunc* u = find_ufunc(name);
        if (!u) throw Error(ErrorKind::Runtime, std::string("internal: no ufunc ") + name);
        return u;
    };
    g_ops = {get("add"), get("subtract"), get("multiply"), get("true_divide"), get("floor_divide"), get("remainder"),
             get("power"), get("left_shift"), get("right_shift"), get("bitwise_and"), get("bitwise_or"), get("bitwise_xor"),
             get("negative"), get("positive"), get("absolute"), get("invert"), get("less"), get("less_equal"),
             get("greater"), get("greater_equal"), get("equal"), get("not_equal")};

    nb::class_<UfuncObject>(m, "ufunc", nb::dynamic_attr(), nb::type_slots(g_ufunc_slots))
        .def_prop_ro("nin", [](UfuncObject& u) { return u.ufunc->nin; })
        .def_prop_ro("nout", [](UfuncObject&) { return 1; })
        .def_prop_ro("nargs", [](UfuncObject& u) { return u.ufunc->nin + 1; })
        .def_prop_ro("ntypes", [](UfuncObject& u) { return u.ufunc->loops.size(); })
        .def_prop_ro("types", [](UfuncObject& u) { return loop_signatures(*u.ufunc); })
        .def("_sources", [](UfuncObject& u) { return u.ufunc->family->sources(); })
        .def("__repr__", [](UfuncObject& u) { return "<ufunc '" + u.name + "'>"; });
    nb::dict ufuncs;
    auto make = [](Ufunc* u, const std::string& name) {
        nb::object o = nb::cast(UfuncObject{u, name});
        o.attr("__name__") = name;  // per instance, as NumPy's ufunc objects have
        o.attr("__doc__") = u->doc;
        return o;
    };
    for (Ufunc* u : all_ufuncs()) ufuncs[u->name.c_str()] = make(u, u->name);
    for (const char* alias : {"divide", "mod", "abs", "conj", "bitwise_not", "radians", "degrees"})
        ufuncs[alias] = make(find_ufunc(alias), alias);
    m.attr("ufuncs") = ufuncs;
    m.def("_resolve_for_fusion", &resolve_for_fusion);
    m.def("_parse_scalar_signature", [](const std::string& text) {
        // "float32(float32, int64)": the dtypes of a vectorize signature (scalars only).
        Signature sig = parse_signature(text);
        auto dtype_of = [&](const Type* t) {
            if (!t || !t->is_scalar())
                throw Error(ErrorKind::Type, "vectorize signature '" + text + "' must have scalar types only, like 'float32(float32, float32)'");
            return dtype_object(t->dtype);
        };
        if (!sig.return_type || sig.return_type == void_type())
            throw Error(ErrorKind::Type, "vectorize signature '" + text + "' needs a return type, like 'float32(float32, float32)'");
        nb::list args;
        for (const Type* t : sig.args) args.append(dtype_of(t));
        return nb::make_tuple(dtype_of(sig.return_type), args);
    });

    nb::class_<CustomKernel>(m, "ElementwiseKernel")
        .def("__init__", [](CustomKernel* self, const std::string& name, nb::object resolver) {
            new (self) CustomKernel();
            if (!resolver.is_none()) self->resolve = make_resolver(resolver);
            self->family = std::make_unique<ElementwiseFamily>(name, self->resolve);
        }, nb::arg("name"), nb::arg("resolver").none() = nb::none())
        .def("__call__", &run_custom, nb::arg("loop_id"), nb::arg("in_types"), nb::arg("in_uncast"), nb::arg("out_types"),
             nb::arg("body"), nb::arg("args"), nb::arg("out").none() = nb::none(), nb::arg("casting") = "same_kind")
        .def("infer_result_dtypes", [](CustomKernel& k, nb::list in_types, const std::string& body, int nout) {
            ElementwiseLoop loop = loop_from(in_types, nb::list(), nb::list(), body);
            nb::list out;
            for (DType d : infer_result_dtypes(loop, nout, k.resolve)) out.append(dtype_object(d));
            return out;
        })
        .def("sources", [](CustomKernel& k) { return k.family->sources(); });
}

}  // namespace simt::py
