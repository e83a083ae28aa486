// DLPack: the tensor exchange ABI (versions 0.x and 1.x) declared from its specification, and
// conversion between simt arrays and DLPack tensors in both directions.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include "array/ndarray.h"

namespace simt {

namespace dlpack {

// Device types (DLDeviceType) that simt produces or accepts.
enum DeviceType : int32_t {
    kCPU = 1,
    kCUDA = 2,
    kCUDAHost = 3,     // pinned host memory, readable by the GPU
    kCUDAManaged = 13, // unified memory
};

// Element type codes (DLDataTypeCode).
enum TypeCode : uint8_t { kInt = 0, kUInt = 1, kFloat = 2, kOpaque = 3, kBfloat = 4, kComplex = 5, kBool = 6 };

struct Device {
    int32_t device_type;
    int32_t device_id;
};

struct DataType {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
};

struct Tensor {
    void* data;
    Device device;
    int32_t ndim;
    DataType dtype;
    int64_t* shape;
    int64_t* strides;  // in elements; null means compact row-major
    uint64_t byte_offset;
};

// The 0.x managed tensor (capsule name "dltensor").
struct ManagedTensor {
    Tensor dl_tensor;
    void* manager_ctx;
    void (*deleter)(ManagedTensor* self);
};

struct PackVersion {
    uint32_t major;
    uint32_t minor;
};

constexpr uint64_t kFlagReadOnly = 1ull << 0;
constexpr uint64_t kFlagIsCopied = 1ull << 1;

// The 1.x managed tensor (capsule name "dltensor_versioned").
struct ManagedTensorVersioned {
    PackVersion version;
    void* manager_ctx;
    void (*deleter)(ManagedTensorVersioned* self);
    uint64_t flags;
    Tensor dl_tensor;
};

constexpr uint32_t kMajorVersion = 1;
constexpr uint32_t kMinorVersion = 1;

}  // namespace dlpack

// Exports a view of `a` on `device`; the tensor keeps the array's memory alive until its
// deleter runs. `flags` go into the versioned form (e.g. kFlagIsCopied).
dlpack::ManagedTensor* to_dlpack(const NdArray& a, dlpack::Device device);
dlpack::ManagedTensorVersioned* to_dlpack_versioned(const NdArray& a, dlpack::Device device, uint64_t flags);

// The simt dtype of a DLPack element type; raises TypeError naming the type when unsupported.
DType dtype_from_dlpack(dlpack::DataType t);
dlpack::DataType dtype_to_dlpack(DType d);

// A simt array viewing a DLPack tensor's memory; `owner` keeps that memory alive (it calls the
// producer's deleter when the last view goes away).
NdArray array_from_dlpack(const dlpack::Tensor& t, std::shared_ptr<void> owner);

// A simt array viewing foreign memory (__cuda_array_interface__, DLPack): `strides` in bytes
// (empty: C-contiguous). Raises ValueError on inconsistent shapes or strides.
NdArray foreign_array(void* data, DType dtype, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                      std::shared_ptr<void> owner);

}  // namespace simt
