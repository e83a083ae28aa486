// simt._simt.ndarray: the array core exposed to Python (the methods users see are added in
// simt/_ndarray.py), plus host transfers and random fills.
#include <cstring>
#include <nanobind/stl/pair.h>
#include "array/random.h"
#include "array/views.h"
#include "bindings.h"
#include "support/error.h"

namespace simt::py {

namespace {
// Owned references, deliberately never released: static Python objects must not be destroyed
// by C++ static destructors after the interpreter has shut down.
nb::list* g_dtype_objects = nullptr;  // DType → numpy dtype
nb::dict* g_dtype_codes = nullptr;    // numpy dtype → DType code

// A contiguous host buffer from the buffer protocol (NumPy arrays), released on destruction.
struct HostBuffer {
    Py_buffer view{};
    bool ok = false;
    HostBuffer(nb::handle obj, bool writable) {
        int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(obj.ptr(), &view, flags) != 0) throw nb::python_error();
        ok = true;
    }
    ~HostBuffer() { if (ok) PyBuffer_Release(&view); }
};

// One dimension of a shape: an integer (anything with __index__ but bool), as NumPy takes it.
int64_t dimension_from(nb::handle d) {
    if (PyBool_Check(d.ptr()) || !PyIndex_Check(d.ptr()))
        throw Error(ErrorKind::Type, std::string("shape entries must be integers, not ") + nb::type_name(d.type()).c_str());
    nb::object index = nb::steal(PyNumber_Index(d.ptr()));
    if (!index.is_valid()) throw nb::python_error();
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow) throw Error(ErrorKind::Value, "array is too big: a dimension of " + nb::cast<std::string>(nb::str(index)));
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    return v;
}

std::vector<int64_t> shape_from(nb::handle shape) {
    std::vector<int64_t> out;
    // An integer, or a sequence of them (a 0-d NumPy array is a sequence without a length).
    if (shape.is_none()) throw Error(ErrorKind::Type, "a shape must be an int or a tuple of ints, not None (() is the shape of a 0-d array)");
    bool sequence = PySequence_Check(shape.ptr()) && !PyUnicode_Check(shape.ptr());
    if (sequence && PySequence_Size(shape.ptr()) < 0) {
        PyErr_Clear();
        sequence = false;
    }
    if (!sequence) {
        if (!PyIndex_Check(shape.ptr()))
            throw Error(ErrorKind::Type, std::string("a shape must be an int or a tuple of ints, not ") + nb::type_name(shape.type()).c_str());
        out.push_back(dimension_from(shape));
        return out;
    }
    for (nb::handle d : nb::iter(shape)) out.push_back(dimension_from(d));
    return out;
}

nb::tuple to_tuple(const int64_t* v, int n) {
    PyObject* t = PyTuple_New(n);
    if (!t) throw nb::python_error();
    for (int i = 0; i < n; ++i) {
        PyObject* item = PyLong_FromLongLong(v[i]);
        if (!item) {
            Py_DECREF(t);
            throw nb::python_error();
        }
        PyTuple_SET_ITEM(t, i, item);
    }
    return nb::steal<nb::tuple>(t);
}
}  // namespace

nb::object dtype_object(DType d) { return (*g_dtype_objects)[size_t(d)]; }

DType dtype_from_object(nb::handle obj) {
    for (size_t i = 0; i < g_dtype_objects->size(); ++i)  // the dtypes simt hands out: no hashing
        if ((*g_dtype_objects)[i].ptr() == obj.ptr()) return DType(i);
    if (g_dtype_codes->contains(obj)) return DType(nb::cast<int>((*g_dtype_codes)[obj]));
    nb::object np = nb::module_::import_("numpy");
    nb::object dt;
    try {
        dt = np.attr("dtype")(obj);
    } catch (nb::python_error&) {
        throw Error(ErrorKind::Type, "data type " + nb::cast<std::string>(nb::repr(obj)) + " not understood");
    }
    if (!g_dtype_codes->contains(dt))
        throw Error(ErrorKind::Type, "simt does not support the data type " + nb::cast<std::string>(nb::str(dt)));
    nb::object code = (*g_dtype_codes)[dt];
    if (PyType_Check(obj.ptr())) (*g_dtype_codes)[obj] = code;  // np.float32 and friends: found directly next time
    return DType(nb::cast<int>(code));
}

void bind_array(nb::module_& m) {
    m.def("_set_dtypes", [](nb::list objects) {
        g_dtype_objects = new nb::list(objects);
        g_dtype_codes = new nb::dict();
        for (size_t i = 0; i < objects.size(); ++i) (*g_dtype_codes)[objects[i]] = int(i);
    });

    nb::class_<NdArray>(m, "ndarray", nb::dynamic_attr(), nb::is_weak_referenceable(), nb::type_slots(ndarray_type_slots()))
        .def("__init__", [](NdArray* self, nb::handle shape, nb::handle dtype, nb::handle memptr, nb::handle strides,
                            const std::string& order) {
            if (order != "C" && order != "F") throw Error(ErrorKind::Value, "order must be 'C' or 'F'");
            if (memptr.is_none() && strides.is_none()) {
                new (self) NdArray(empty_array(dtype_from_object(dtype), shape_from(shape), order == "F"));
                return;
            }
            // CuPy's array over existing memory: checked and made in Python (a view with a foreign owner)
            nb::object view = nb::module_::import_("simt.cuda._memory_views").attr("array_over")(shape, dtype, memptr, strides, order);
            new (self) NdArray(nb::cast<const NdArray&>(view));
        }, nb::arg("shape").none(), nb::arg("dtype").none() = nb::none(), nb::arg("memptr").none() = nb::none(),
           nb::arg("strides").none() = nb::none(), nb::arg("order") = "C")
        .def_prop_rw("shape", [](const NdArray& a) { return to_tuple(a.shape, a.ndim); },
                     [](NdArray& a, nb::handle shape) {
            // NumPy's a.shape = ...: the array itself takes the new shape, which must be a view
            // of its memory in C order (a reshape that would copy is NumPy's AttributeError).
            NdArray view;
            if (!reshape_view(a, reshape_shape(a.size(), shape_from(shape)), false, view))
                throw nb::attribute_error("Incompatible shape for in-place modification. Use `.reshape()` to make a copy "
                                          "with the desired shape.");
            a = std::move(view);
        })
        .def_prop_ro("strides", [](const NdArray& a) { return to_tuple(a.strides, a.ndim); })
        .def_prop_ro("dtype", [](const NdArray& a) { return dtype_object(a.dtype); })
        .def_prop_ro("size", &NdArray::size)
        .def_prop_ro("ndim", [](const NdArray& a) { return a.ndim; })
        .def_prop_ro("nbytes", &NdArray::nbytes)
        .def_prop_ro("itemsize", &NdArray::itemsize)
        .def_prop_ro("_c_contiguous", &NdArray::c_contiguous)
        .def_prop_ro("_f_contiguous", &NdArray::f_contiguous)
        .def_prop_ro("_ptr", [](const NdArray& a) { return reinterpret_cast<uintptr_t>(a.data); })
        .def("__len__", [](const NdArray& a) {
            if (a.ndim == 0) throw Error(ErrorKind::Type, "len() of unsized object");
            return a.shape[0];
        })
        .def("_copy_to_host", [](const NdArray& a, nb::handle host) {
            HostBuffer buf(host, true);
            if (int64_t(buf.view.len) != a.nbytes()) throw Error(ErrorKind::Value, "host buffer size does not match the array");
            if (!a.c_contiguous()) throw Error(ErrorKind::NotImplemented, "copying a non-contiguous array to the host");
            nb::gil_scoped_release release;
            copy_to_host(a, buf.view.buf);
        })
        .def("_copy_from_host", [](NdArray& a, nb::handle host) {
            HostBuffer buf(host, false);
            if (int64_t(buf.view.len) != a.nbytes()) throw Error(ErrorKind::Value, "host buffer size does not match the array");
            if (!a.c_contiguous()) throw Error(ErrorKind::NotImplemented, "copying into a non-contiguous array from the host");
            nb::gil_scoped_release release;
            copy_from_host(a, buf.view.buf);
        })
        .def("_fill_bytes", [](NdArray& a, nb::bytes value) {
            if (value.size() != size_t(a.itemsize())) throw Error(ErrorKind::Value, "fill value has the wrong size");
            fill_array(a, value.c_str());
        })
        .def("_copy", [](const NdArray& a) {
            if (!a.c_contiguous() && !a.f_contiguous()) throw Error(ErrorKind::NotImplemented, "copying a non-contiguous array");
            return copy_array(a);
        });

    m.def("random_seed", [](uint64_t seed) { random_seed(seed); });
    m.def("random_state", [] {
        RandomState s = random_state();
        return std::make_pair(s.seed, s.offset);
    });
    m.def("set_random_state", [](uint64_t seed, uint64_t offset) { set_random_state({seed, offset}); });
    m.def("random_reserve", [](uint64_t counters) {
        RandomState s = random_reserve(counters);
        return std::make_pair(s.seed, s.offset);
    });
    m.def("random_fill", [](NdArray& a, const std::string& dist, double p1, double p2) {
        RandomDistribution d = dist == "uniform" ? RandomDistribution::Uniform
                             : dist == "normal" ? RandomDistribution::Normal
                             : throw Error(ErrorKind::Value, "unknown distribution " + dist);
        if (a.dtype != DType::Float32 && a.dtype != DType::Float64)
            throw Error(ErrorKind::Type, std::string("random floats must be float32 or float64, not ") + dtype_name(a.dtype));
        random_fill(a, d, p1, p2);
    });
    m.def("random_integers", [](NdArray& a, uint64_t low_bits, uint64_t range) {
        if (!dtype_is_integer(a.dtype))
            throw Error(ErrorKind::Type, std::string("random integers need an integer dtype, not ") + dtype_name(a.dtype));
        random_integers(a, low_bits, range);
    });
}

}  // namespace simt::py
