// The array core: an n-dimensional view of device memory (data pointer, dtype, shape, byte
// strides) that shares ownership of the allocation it views.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "array/device_buffer.h"
#include "runtime/backend.h"
#include "types/type.h"

namespace simt {

constexpr int kMaxDims = 32;

struct NdArray {
    std::shared_ptr<void> owner;  // keeps the memory alive: a DeviceBuffer or a foreign owner
    char* data = nullptr;         // device address of element (0, ..., 0)
    DType dtype = DType::Float64;
    int ndim = 0;
    int64_t shape[kMaxDims] = {};
    int64_t strides[kMaxDims] = {};  // bytes
    // The owner is a DeviceBuffer, whose free is ordered after work already queued on the default
    // stream (cpu: queued; cuda: cuMemFreeAsync on the legacy stream): such launches need not hold it.
    // (Set only by empty_array, for pool and managed memory: pool_buffer() relies on it.)
    bool owner_frees_in_stream_order = false;

    // (size and c_contiguous inline: every array operation asks)
    int64_t size() const {
        int64_t n = 1;
        for (int i = 0; i < ndim; ++i) n *= shape[i];
        return n;
    }
    int itemsize() const { return dtype_size(dtype); }
    int64_t nbytes() const { return size() * itemsize(); }
    bool c_contiguous() const {
        int64_t expected = itemsize();
        for (int i = ndim - 1; i >= 0; --i) {
            if (shape[i] == 1) continue;
            if (shape[i] == 0) return true;
            if (strides[i] != expected) return false;
            expected *= shape[i];
        }
        return true;
    }
    bool f_contiguous() const;
    std::vector<int64_t> shape_vector() const { return {shape, shape + ndim}; }
    // The kernel-argument type of this array (layout C when C-contiguous, else A).
    const Type* kernel_type() const;
    // Appends the kernel-argument bytes (data, shape, strides) to `pack`, and the owner to its
    // keep-alive list unless the launch is on the default stream and the owner frees in stream order.
    void pack_into(ArgumentPack& pack, bool default_stream = false) const;
};

// The pool or managed allocation `a` views (its start and size), or null for other memory.
inline const DeviceBuffer* pool_buffer(const NdArray& a) {
    return a.owner_frees_in_stream_order ? static_cast<const DeviceBuffer*>(a.owner.get()) : nullptr;
}

// A new C-ordered (or F-ordered) array; contents uninitialized. Raises on bad shapes.
NdArray empty_array(DType dtype, const std::vector<int64_t>& shape, bool fortran_order = false);
NdArray empty_array(DType dtype, const int64_t* shape, int ndim, bool fortran_order = false);
// Writes `value` (itemsize bytes) into every element of a contiguous array.
void fill_array(NdArray& a, const void* value);
// Host → device copy of a whole contiguous array; `host` holds nbytes() bytes.
void copy_from_host(NdArray& a, const void* host);
// Device → host copy of a whole contiguous array into `host` (waits for pending work).
void copy_to_host(const NdArray& a, void* host);
// A new array with the same contents (contiguous arrays).
NdArray copy_array(const NdArray& a);

std::string shape_string(const std::vector<int64_t>& shape);

}  // namespace simt
