// Views from Python: indexing and assignment through indices (type slots), and the shape
// methods of simt.ndarray (reshape, transpose, squeeze, ravel, astype, copy, fill, ...).
#include "array/broadcast.h"
#include "array/views.h"
#include "bindings.h"
#include "support/error.h"
#include <cstdlib>

namespace simt::py {

namespace {

std::optional<int64_t> slice_part(PyObject* v) {
    if (v == Py_None) return std::nullopt;
    Py_ssize_t x = PyNumber_AsSsize_t(v, nullptr);  // clips huge values, as slice.indices() does
    if (x == -1 && PyErr_Occurred()) throw nb::python_error();
    return int64_t(x);
}

// Thrown by parse_item for a key that is not basic (arrays, lists, booleans, other objects):
// NumPy's advanced indexing and its error messages live in python/simt/_indexing.py.
struct AdvancedKey {};

[[noreturn]] void advanced_index() { throw AdvancedKey{}; }

nb::object advanced_indexing(const char* function) { return nb::module_::import_("simt._indexing").attr(function); }

IndexItem parse_item(PyObject* k) {
    if (k == Py_None) return IndexItem::new_axis();
    if (k == Py_Ellipsis) return IndexItem::ellipsis();
    if (PySlice_Check(k)) {
        auto* s = reinterpret_cast<PySliceObject*>(k);
        return IndexItem::slice(slice_part(s->start), slice_part(s->stop), slice_part(s->step));
    }
    if (PyUnicode_Check(k) || PyBytes_Check(k))
        throw Error(ErrorKind::Index, "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
                                      "or boolean arrays are valid indices");
    if (PyBool_Check(k)) advanced_index();
    if (is_ndarray(k) && (ndarray_of(k).ndim != 0 || !dtype_is_integer(ndarray_of(k).dtype))) advanced_index();
    if (PyIndex_Check(k) && !PySequence_Check(k)) {
        nb::object i = nb::steal(PyNumber_Index(k));
        if (!i.is_valid()) {  // e.g. numpy.bool_: a 0-d boolean index
            PyErr_Clear();
            advanced_index();
        }
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
        if (overflow) throw Error(ErrorKind::Index, "index " + nb::cast<std::string>(nb::str(i)) + " is out of bounds");
        return IndexItem::integer(v);
    }
    advanced_index();
}

std::vector<IndexItem> parse_index(PyObject* key) {
    std::vector<IndexItem> items;
    if (PyTuple_Check(key)) {
        Py_ssize_t n = PyTuple_GET_SIZE(key);
        items.reserve(size_t(n));
        for (Py_ssize_t i = 0; i < n; ++i) items.push_back(parse_item(PyTuple_GET_ITEM(key, i)));
    } else {
        items.push_back(parse_item(key));
    }
    return items;
}

// Assigns a Python value (array, number, or host data) to every element of `dst`.
void assign(NdArray& dst, nb::handle value) {
    if (is_ndarray(value.ptr())) {
        NdArray src = ndarray_of(value.ptr());
        while (src.ndim > dst.ndim && src.shape[0] == 1) src = index_view(src, {IndexItem::integer(0)});  // NumPy drops leading 1s
        copy_into(dst, src);
        return;
    }
    UfuncOperand op;
    OperandClass c = classify_operand(value.ptr(), op);
    if (c == OperandClass::HostData) {
        // An explicit assignment of host data (like .set()): copy it to the device first.
        nb::object device = nb::module_::import_("simt._creation").attr("asarray")(value);
        assign(dst, device);
        return;
    }
    if (c == OperandClass::Unsupported)
        throw Error(ErrorKind::Type, std::string("cannot assign a value of type ") + Py_TYPE(value.ptr())->tp_name + " to a simt array");
    fill_with(dst, scalar_from_python(value, dst.dtype));
}

std::vector<int64_t> int_sequence(nb::handle h, const char* what) {
    std::vector<int64_t> out;
    if (PyIndex_Check(h.ptr())) {
        out.push_back(nb::cast<int64_t>(nb::steal(PyNumber_Index(h.ptr()))));
        return out;
    }
    if (!PySequence_Check(h.ptr())) throw Error(ErrorKind::Type, std::string(what) + " must be an int or a sequence of ints");
    for (nb::handle x : nb::iter(h)) {
        nb::object i = nb::steal(PyNumber_Index(x.ptr()));
        if (!i.is_valid()) throw Error(ErrorKind::Type, std::string(what) + " must contain only integers");
        out.push_back(nb::cast<int64_t>(i));
    }
    return out;
}

// Arguments given either as one sequence or as separate ints: a.reshape(2, 3) or ((2, 3)).
std::vector<int64_t> varargs_ints(nb::args args, const char* what) {
    if (args.size() == 1) return int_sequence(args[0], what);
    std::vector<int64_t> out;
    for (nb::handle a : args) {
        std::vector<int64_t> one = int_sequence(a, what);
        if (one.size() != 1) throw Error(ErrorKind::Type, std::string(what) + " must be integers");
        out.push_back(one[0]);
    }
    return out;
}

bool fortran_for(const NdArray& a, const std::string& order) {
    if (order == "C") return false;
    if (order == "F") return true;
    if (order == "A") return a.ndim > 1 && a.f_contiguous() && !a.c_contiguous();
    if (order == "K") {  // keep the layout: Fortran order when the strides grow along the axes
        if (a.ndim < 2 || a.c_contiguous()) return false;
        if (a.f_contiguous()) return true;
        return std::abs(a.strides[0]) < std::abs(a.strides[a.ndim - 1]);
    }
    throw Error(ErrorKind::Value, "order must be one of 'C', 'F', 'A' or 'K' (got '" + order + "')");
}

NdArray reshaped(const NdArray& a, const std::vector<int64_t>& requested, const std::string& order) {
    if (order != "C" && order != "F" && order != "A") throw Error(ErrorKind::Value, "order must be 'C', 'F' or 'A'");
    bool fortran = fortran_for(a, order);
    std::vector<int64_t> shape = reshape_shape(a.size(), requested);
    NdArray view;
    if (reshape_view(a, shape, fortran, view)) return view;
    NdArray copy = astype(a, a.dtype, fortran);
    bool ok = reshape_view(copy, shape, fortran, view);
    SIMT_ASSERT(ok);
    return view;
}

std::vector<int64_t> axes_argument(nb::handle axis, bool& all) {
    all = axis.is_none();
    if (all) return {};
    return int_sequence(axis, "axis");
}

// NumPy's ndarray.base: a view remembers, in its `_base` attribute, the array that owns the
// memory it views (for a view of a view, that view's own base); an array with memory of its own
// has none. One dict entry per view made from Python: no tracking in the C++ core.
PyObject* base_name() {
    static PyObject* name = PyUnicode_InternFromString("_base");  // (never released: see bind_array.cpp)
    return name;
}

const NdArray& array_of(nb::handle self) {
    if (!is_ndarray(self.ptr())) throw Error(ErrorKind::Type, std::string("expected a simt array, not ") + Py_TYPE(self.ptr())->tp_name);
    return ndarray_of(self.ptr());
}

nb::object view_result(nb::handle self, NdArray&& v) {
    bool shares = v.owner == array_of(self).owner;  // false when a reshape had to copy
    nb::object out = wrap_ndarray(std::move(v));
    if (shares) {
        PyObject* base = self.ptr();
        PyObject** dict = _PyObject_GetDictPtr(self.ptr());
        if (dict && *dict) {
            PyObject* own = PyDict_GetItemWithError(*dict, base_name());
            if (own) base = own;
            else if (PyErr_Occurred()) throw nb::python_error();
        }
        if (PyObject_GenericSetAttr(out.ptr(), base_name(), base) < 0) throw nb::python_error();
    }
    return out;
}

template <class F, class... Extra>
void def_method(nb::handle cls, const char* name, F&& f, const Extra&... extra) {
    cls.attr(name) = nb::cpp_function(std::forward<F>(f), nb::is_method(), nb::scope(cls), nb::name(name), extra...);
}

template <class F>
void def_property(nb::handle cls, const char* name, F&& getter) {
    nb::object fget = nb::cpp_function(std::forward<F>(getter), nb::is_method(), nb::scope(cls), nb::name(name));
    cls.attr(name) = nb::module_::import_("builtins").attr("property")(fget);
}

}  // namespace

PyObject* ndarray_subscript(PyObject* self, PyObject* key) {
    return guarded<PyObject*>(nullptr, [&] {
        std::vector<IndexItem> items;
        try {
            items = parse_index(key);
        } catch (AdvancedKey&) {
            return advanced_indexing("getitem")(nb::handle(self), nb::handle(key)).release().ptr();
        }
        return view_result(self, index_view(ndarray_of(self), items)).release().ptr();
    });
}

int ndarray_ass_subscript(PyObject* self, PyObject* key, PyObject* value) {
    return guarded<int>(-1, [&] {
        if (!value) throw Error(ErrorKind::Value, "cannot delete array elements");
        std::vector<IndexItem> items;
        try {
            items = parse_index(key);
        } catch (AdvancedKey&) {
            advanced_indexing("setitem")(nb::handle(self), nb::handle(key), nb::handle(value));
            return 0;
        }
        NdArray view = index_view(ndarray_of(self), items);
        assign(view, value);
        return 0;
    });
}

void bind_views(nb::module_& m) {
    nb::handle cls = nb::type<NdArray>();
    def_method(cls, "reshape", [](nb::handle self, nb::args shape, const std::string& order) {
        return view_result(self, reshaped(array_of(self), varargs_ints(shape, "shape"), order));
    }, nb::arg("shape"), nb::kw_only(), nb::arg("order") = "C");
    def_method(cls, "transpose", [](nb::handle self, nb::args axes) {
        const NdArray& a = array_of(self);
        if (axes.size() == 1 && axes[0].is_none()) return view_result(self, transpose_view(a, {}));
        return view_result(self, transpose_view(a, axes.size() ? varargs_ints(axes, "axes") : std::vector<int64_t>{}));
    }, nb::arg("axes"));
    def_property(cls, "T", [](nb::handle self) { return view_result(self, transpose_view(array_of(self), {})); });
    def_method(cls, "swapaxes", [](nb::handle self, int64_t a1, int64_t a2) {
        return view_result(self, swapaxes_view(array_of(self), a1, a2));
    },
               nb::arg("axis1"), nb::arg("axis2"));
    def_method(cls, "squeeze", [](nb::handle self, nb::handle axis) {
        bool all;
        std::vector<int64_t> axes = axes_argument(axis, all);
        return view_result(self, squeeze_view(array_of(self), axes, all));
    }, nb::arg("axis").none() = nb::none());
    def_method(cls, "ravel", [](nb::handle self, const std::string& order) {
        return view_result(self, reshaped(array_of(self), {-1}, order));
    },
               nb::arg("order") = "C");
    def_method(cls, "flatten", [](const NdArray& a, const std::string& order) {
        NdArray copy = astype(a, a.dtype, fortran_for(a, order));
        return reshaped(copy, {-1}, copy.c_contiguous() ? "C" : "F");
    }, nb::arg("order") = "C");
    def_method(cls, "astype", [](nb::handle self, nb::handle dtype, const std::string& order, const std::string& casting,
                                 bool subok, bool copy) -> nb::object {
        const NdArray& a = ndarray_of(self.ptr());
        DType d = dtype_from_object(dtype);
        if (casting != "unsafe" && casting != "same_kind" && casting != "safe")
            throw Error(ErrorKind::Value, "casting must be 'unsafe', 'same_kind' or 'safe'");
        if ((casting == "safe" && !can_cast_safe(a.dtype, d)) || (casting == "same_kind" && !can_cast_same_kind(a.dtype, d)))
            throw Error(ErrorKind::Type, std::string("Cannot cast array data from dtype('") + dtype_name(a.dtype) +
                                             "') to dtype('" + dtype_name(d) + "') according to the rule '" + casting + "'");
        if (dtype_is_complex(a.dtype) && !dtype_is_complex(d)) {
            nb::object warning = nb::module_::import_("numpy.exceptions").attr("ComplexWarning");
            if (PyErr_WarnEx(warning.ptr(), "Casting complex values to real discards the imaginary part", 1) < 0)
                throw nb::python_error();
        }
        bool fortran = fortran_for(a, order);
        if (!copy && d == a.dtype && (fortran ? a.f_contiguous() : a.c_contiguous() || order == "K")) return nb::borrow(self);
        (void)subok;
        return wrap_ndarray(astype(a, d, fortran));
    }, nb::arg("dtype"), nb::arg("order") = "K", nb::arg("casting") = "unsafe", nb::arg("subok") = true, nb::arg("copy") = true);
    def_method(cls, "copy", [](const NdArray& a, const std::string& order) { return astype(a, a.dtype, fortran_for(a, order)); },
               nb::arg("order") = "C");
    def_method(cls, "fill", [](NdArray& a, nb::handle value) { assign(a, value); }, nb::arg("value"));
    def_method(cls, "diagonal", [](nb::handle self, int64_t offset, int64_t axis1, int64_t axis2) {
        return view_result(self, diagonal_view(array_of(self), offset, axis1, axis2));
    }, nb::arg("offset") = 0, nb::arg("axis1") = 0, nb::arg("axis2") = 1);
    def_property(cls, "real", [](nb::handle self) { return view_result(self, real_view(array_of(self))); });
    def_property(cls, "imag", [](nb::handle self) {
        const NdArray& a = array_of(self);
        if (dtype_is_complex(a.dtype)) return view_result(self, imag_view(a));
        NdArray zeros = empty_array(a.dtype, a.shape_vector());
        fill_with(zeros, Scalar::from_int(0, a.dtype));
        return wrap_ndarray(std::move(zeros));
    });

    m.def("_expand_dims", [](nb::handle self, nb::handle axis) {
        return view_result(self, expand_dims_view(array_of(self), int_sequence(axis, "axis")));
    });
    m.def("_broadcast_to", [](nb::handle self, nb::handle shape) {
        return view_result(self, broadcast_view(array_of(self), Shape::of(int_sequence(shape, "shape"))));
    });
    m.def("_broadcast_shapes", [](nb::list shapes) {
        std::vector<Shape> list;
        for (nb::handle s : shapes) list.push_back(Shape::of(int_sequence(s, "shape")));
        Shape b = broadcast_shapes(list);
        nb::list out;
        for (int i = 0; i < b.ndim; ++i) out.append(b.dims[i]);
        return nb::tuple(out);
    });
    m.def("_normalize_axis", [](int64_t axis, int ndim) { return normalize_axis(axis, ndim); });
}

}  // namespace simt::py
