// Interop with other array libraries: DLPack capsules in both directions, views of foreign
// memory (__cuda_array_interface__), native stream handles, foreign arrays as kernel
// arguments, and the checked re-striding the array algorithms use.
#include <mutex>
#include "array/dlpack.h"
#include "array/restride.h"
#include "bindings.h"
#include "support/error.h"

namespace simt::py {

namespace {

// Foreign memory may be released on a backend worker thread (kernel arguments are kept alive
// until the launch has run) while the main thread waits for that work holding Python's lock.
// Releases that need Python therefore run later on a Python thread, never by taking the lock.
struct PendingRelease {
    void (*fn)(void*);
    void* arg;
};
std::mutex g_pending_mutex;
std::vector<PendingRelease>* g_pending = new std::vector<PendingRelease>();  // never destroyed
bool g_drain_scheduled = false;

int drain_pending(void*) {
    std::vector<PendingRelease> work;
    {
        std::lock_guard<std::mutex> lock(g_pending_mutex);
        work.swap(*g_pending);
        g_drain_scheduled = false;
    }
    for (const PendingRelease& r : work) r.fn(r.arg);
    return 0;
}

}  // namespace

void release_with_python(void (*fn)(void*), void* arg) {
    if (!Py_IsInitialized()) return;  // interpreter gone: nothing left to release into
    if (PyGILState_Check()) {
        fn(arg);
        return;
    }
    std::lock_guard<std::mutex> lock(g_pending_mutex);
    g_pending->push_back({fn, arg});
    if (!g_drain_scheduled) g_drain_scheduled = Py_AddPendingCall(&drain_pending, nullptr) == 0;
}

void decref_with_python(void* obj) {
    release_with_python([](void* o) { Py_DECREF(static_cast<PyObject*>(o)); }, obj);
}

namespace {

// Keeps a Python object alive for as long as an array views its memory.
std::shared_ptr<void> python_owner(nb::handle obj) {
    Py_INCREF(obj.ptr());
    return std::shared_ptr<void>(obj.ptr(), &decref_with_python);
}

std::vector<int64_t> int_list(nb::handle seq, const char* what) {
    std::vector<int64_t> out;
    for (nb::handle v : nb::iter(seq)) {
        if (!PyLong_Check(v.ptr()) && !PyIndex_Check(v.ptr()))
            throw Error(ErrorKind::Type, std::string(what) + " entries must be integers");
        out.push_back(nb::cast<int64_t>(nb::steal(PyNumber_Index(v.ptr()))));
    }
    return out;
}

dlpack::Device backend_device() {
    if (backend().target() == Target::Cpu) return {dlpack::kCPU, 0};
    return {dlpack::kCUDA, backend().current_device()};
}

bool device_usable(int32_t type, int32_t id) {
    if (backend().target() == Target::Cpu) return type == dlpack::kCPU;
    if (type == dlpack::kCUDAHost) return true;  // pinned host memory: mapped into every device
    return (type == dlpack::kCUDA || type == dlpack::kCUDAManaged) && id == backend().current_device();
}

const char* kLegacy = "dltensor";
const char* kLegacyUsed = "used_dltensor";
const char* kVersioned = "dltensor_versioned";
const char* kVersionedUsed = "used_dltensor_versioned";

// A capsule nobody consumed still owns its tensor.
void legacy_capsule_destructor(PyObject* cap) {
    if (!PyCapsule_IsValid(cap, kLegacy)) return;
    auto* m = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(cap, kLegacy));
    if (m && m->deleter) m->deleter(m);
}
void versioned_capsule_destructor(PyObject* cap) {
    if (!PyCapsule_IsValid(cap, kVersioned)) return;
    auto* m = static_cast<dlpack::ManagedTensorVersioned*>(PyCapsule_GetPointer(cap, kVersioned));
    if (m && m->deleter) m->deleter(m);
}

nb::object export_capsule(const NdArray& a, bool versioned, bool copied) {
    dlpack::Device device = backend_device();
    PyObject* cap;
    if (versioned) {
        dlpack::ManagedTensorVersioned* m = to_dlpack_versioned(a, device, copied ? dlpack::kFlagIsCopied : 0);
        cap = PyCapsule_New(m, kVersioned, &versioned_capsule_destructor);
        if (!cap) { m->deleter(m); throw nb::python_error(); }
    } else {
        dlpack::ManagedTensor* m = to_dlpack(a, device);
        cap = PyCapsule_New(m, kLegacy, &legacy_capsule_destructor);
        if (!cap) { m->deleter(m); throw nb::python_error(); }
    }
    return nb::steal(cap);
}

template <class Managed>
void call_deleter(void* m) {
    auto* managed = static_cast<Managed*>(m);
    if (managed->deleter) managed->deleter(managed);
}

// Consumes a DLPack capsule: a simt array viewing its memory, plus whether the producer marked
// it read-only. The producer's deleter runs when the last view goes away.
nb::tuple import_capsule(nb::handle capsule) {
    PyObject* cap = capsule.ptr();
    bool versioned = PyCapsule_IsValid(cap, kVersioned);
    if (!versioned && !PyCapsule_IsValid(cap, kLegacy))
        throw Error(ErrorKind::Type, "expected a DLPack capsule named 'dltensor' or 'dltensor_versioned' (was it already consumed?)");
    void* managed = PyCapsule_GetPointer(cap, versioned ? kVersioned : kLegacy);
    const dlpack::Tensor* tensor;
    bool readonly = false;
    if (versioned) {
        auto* m = static_cast<dlpack::ManagedTensorVersioned*>(managed);
        if (m->version.major != dlpack::kMajorVersion)
            throw Error(ErrorKind::Value, "unsupported DLPack major version " + std::to_string(m->version.major) +
                                              " (simt reads version 1)");
        tensor = &m->dl_tensor;
        readonly = (m->flags & dlpack::kFlagReadOnly) != 0;
    } else {
        tensor = &static_cast<dlpack::ManagedTensor*>(managed)->dl_tensor;
    }
    // Checked before the capsule is consumed: a rejected capsule still frees its tensor.
    if (!device_usable(tensor->device.device_type, tensor->device.device_id))
        throw Error(ErrorKind::Type, "the DLPack tensor is on device type " + std::to_string(tensor->device.device_type) +
                                         " (id " + std::to_string(tensor->device.device_id) + "), which the " +
                                         backend().name() + " backend cannot access");
    dtype_from_dlpack(tensor->dtype);  // raises on unsupported element types, before consuming
    std::shared_ptr<void> owner =
        versioned ? std::shared_ptr<void>(managed, [](void* p) { release_with_python(&call_deleter<dlpack::ManagedTensorVersioned>, p); })
                  : std::shared_ptr<void>(managed, [](void* p) { release_with_python(&call_deleter<dlpack::ManagedTensor>, p); });
    PyCapsule_SetName(cap, versioned ? kVersionedUsed : kLegacyUsed);
    NdArray a = array_from_dlpack(*tensor, std::move(owner));
    return nb::make_tuple(nb::cast(std::move(a)), readonly);
}

nb::object* g_argument_hook = nullptr;  // simt._interop.kernel_argument; never released (outlives Python)

}  // namespace

bool foreign_kernel_argument(nb::handle arg, const std::string& where, ArgumentPack& pack, const Type*& type) {
    if (!g_argument_hook) return false;
    // (_simt_device_view: simt's mapped and managed host arrays, simt.cuda._mapped_memory)
    if (!nb::hasattr(arg, "__cuda_array_interface__") && !nb::hasattr(arg, "__dlpack__") &&
        !nb::hasattr(arg, "_simt_device_view"))
        return false;
    nb::object view = (*g_argument_hook)(arg, where);
    const NdArray* a = nb::inst_ptr<NdArray>(view);
    a->pack_into(pack);
    type = a->kernel_type();
    return true;
}

void bind_interop(nb::module_& m) {
    m.def("_restride", [](const NdArray& a, nb::handle shape, nb::handle strides, int64_t offset) {
        return restrided_view(a, int_list(shape, "shape"), int_list(strides, "strides"), offset);
    });
    m.def("_foreign_array", [](uintptr_t ptr, nb::handle shape, nb::handle strides, nb::handle dtype, nb::handle owner) {
        std::vector<int64_t> st;
        if (!strides.is_none()) st = int_list(strides, "strides");
        return foreign_array(reinterpret_cast<void*>(ptr), dtype_from_object(dtype), int_list(shape, "shape"), st,
                             python_owner(owner));
    }, nb::arg("ptr"), nb::arg("shape"), nb::arg("strides").none(), nb::arg("dtype"), nb::arg("owner"));
    // a.data's memory: (start, bytes) of the pool allocation `a` views, else of the bytes it spans.
    m.def("_memory_extent", [](const NdArray& a) {
        if (const DeviceBuffer* b = pool_buffer(a)) return nb::make_tuple(reinterpret_cast<uintptr_t>(b->data()), b->size());
        int64_t lo = 0, hi = 0;
        if (a.size()) byte_span(a.shape, a.strides, a.ndim, a.itemsize(), lo, hi);
        return nb::make_tuple(reinterpret_cast<uintptr_t>(a.data + lo), size_t(hi - lo));
    });
    m.def("_dlpack_export", [](const NdArray& a, bool versioned, bool copied) { return export_capsule(a, versioned, copied); });
    m.def("_dlpack_import", &import_capsule);
    m.def("_dlpack_device", [] {
        dlpack::Device d = backend_device();
        return nb::make_tuple(d.device_type, d.device_id);
    });
    m.def("_dlpack_device_usable", [](int32_t type, int32_t id) { return device_usable(type, id); });
    m.def("_native_stream", [](nb::handle stream) { return backend().native_stream(stream_from_object(stream)); },
          nb::arg("stream").none());
    m.def("_native_stream_wait", [](uintptr_t waiter, uintptr_t producer) { backend().native_stream_wait(waiter, producer); });
    m.def("_set_foreign_argument_hook", [](nb::object hook) {
        delete g_argument_hook;
        g_argument_hook = new nb::object(std::move(hook));
    });
}

}  // namespace simt::py
