// Host-memory and pool accounting entry points behind simt.cuda's pinned_array, pinned(),
// alloc_pinned_memory, mapped_array, mapped(), managed_array and MemoryPool's accounting.
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include "array/pool_usage.h"
#include "bindings.h"

namespace simt::py {

void bind_host_memory(nb::module_& m) {
    // A NumPy uint8 array over newly allocated page-locked memory, freed with the array.
    m.def("_alloc_pinned", [](size_t bytes) {
        void* p = backend().allocate_host(bytes);
        nb::capsule owner(p, [](void* q) noexcept { backend().release_host(q); });
        return nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>>(p, {bytes}, owner);
    });
    // Page-locked memory mapped into the device's address space: (the array, the address kernels use).
    m.def("_alloc_mapped", [](size_t bytes) {
        void* p = backend().allocate_mapped_host(bytes);
        nb::capsule owner(p, [](void* q) noexcept { backend().release_host(q); });
        nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>> array(p, {bytes}, owner);
        return nb::make_tuple(array, backend().mapped_device_pointer(p));
    });
    // Managed (unified) memory: one address on the host and in kernels.
    m.def("_alloc_managed", [](size_t bytes) {
        void* p = backend().allocate_managed(bytes);
        nb::capsule owner(p, [](void* q) noexcept { backend().release_managed(q); });
        return nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>>(p, {bytes}, owner);
    });
    // (the address kernels use, whether this call registered the range: unregister it later)
    m.def("_register_mapped_host", [](uintptr_t ptr, size_t bytes) {
        void* p = reinterpret_cast<void*>(ptr);
        bool registered = backend().register_mapped_host(p, bytes);
        return std::make_pair(backend().mapped_device_pointer(p), registered);
    });
    m.def("_register_host", [](uintptr_t ptr, size_t bytes) { backend().register_host(reinterpret_cast<void*>(ptr), bytes); });
    m.def("_unregister_host", [](uintptr_t ptr) { backend().unregister_host(reinterpret_cast<void*>(ptr)); });

    m.def("_memory_info", [](int device) { return backend().memory_info(device); });
    m.def("_pool_used_bytes", [](int device) { return pool_used_bytes(device); });
    m.def("_pool_reserved_bytes", [](int device) { return backend().pool_reserved_bytes(device); });
    m.def("_set_pool_limit", [](int device, size_t bytes) { set_pool_limit(device, bytes); });
    m.def("_pool_limit", [](int device) { return pool_limit(device); });
    // CuPy's set_allocator(None): whether the pool keeps freed memory for reuse (which memory new
    // arrays get: bind_allocator.cpp).
    m.def("_set_keep_freed_memory", [](bool keep) { backend().set_keep_freed_memory(keep); });
}

}  // namespace simt::py
