// simt arrays ↔ DLPack tensors, and views of foreign memory.
#include "array/dlpack.h"
#include "support/error.h"

namespace simt {

namespace {

// What an exported tensor owns: a view of the array (keeping its memory alive) and the
// shape/stride storage the DLPack struct points into.
template <class Managed>
struct ExportContext {
    Managed managed{};
    NdArray array;
    int64_t shape[kMaxDims] = {};
    int64_t strides[kMaxDims] = {};
};

template <class Managed>
void delete_export(Managed* m) {
    delete static_cast<ExportContext<Managed>*>(m->manager_ctx);
}

template <class Managed>
ExportContext<Managed>* make_export(const NdArray& a, dlpack::Device device) {
    auto* ctx = new ExportContext<Managed>();
    ctx->array = a;
    dlpack::Tensor& t = ctx->managed.dl_tensor;
    t.data = a.data;
    t.device = device;
    t.ndim = a.ndim;
    t.dtype = dtype_to_dlpack(a.dtype);
    for (int i = 0; i < a.ndim; ++i) {
        ctx->shape[i] = a.shape[i];
        ctx->strides[i] = a.strides[i] / a.itemsize();  // DLPack strides count elements
    }
    t.shape = ctx->shape;
    t.strides = ctx->strides;
    t.byte_offset = 0;
    ctx->managed.manager_ctx = ctx;
    ctx->managed.deleter = &delete_export<Managed>;
    return ctx;
}

}  // namespace

dlpack::DataType dtype_to_dlpack(DType d) {
    uint8_t bits = uint8_t(dtype_size(d) * 8);
    if (d == DType::Bool) return {dlpack::kBool, 8, 1};
    if (dtype_is_complex(d)) return {dlpack::kComplex, bits, 1};
    if (dtype_is_float(d)) return {dlpack::kFloat, bits, 1};
    return {dtype_is_signed(d) ? uint8_t(dlpack::kInt) : uint8_t(dlpack::kUInt), bits, 1};
}

DType dtype_from_dlpack(dlpack::DataType t) {
    if (t.lanes == 1) {
        for (int i = 0; i < kNumDTypes; ++i) {
            dlpack::DataType c = dtype_to_dlpack(DType(i));
            if (c.code == t.code && c.bits == t.bits) return DType(i);
        }
        if (t.code == dlpack::kUInt && t.bits == 1) return DType::Bool;  // some producers spell bool this way
    }
    static const char* const kCodes[] = {"int", "uint", "float", "opaque handle", "bfloat", "complex", "bool"};
    std::string name = t.code < 7 ? kCodes[t.code] : "code " + std::to_string(t.code);
    raise(ErrorKind::Type, "simt does not support the DLPack data type %s%d%s", name.c_str(), int(t.bits),
          t.lanes == 1 ? "" : format(" with %d lanes", int(t.lanes)).c_str());
}

dlpack::ManagedTensor* to_dlpack(const NdArray& a, dlpack::Device device) {
    return &make_export<dlpack::ManagedTensor>(a, device)->managed;
}

dlpack::ManagedTensorVersioned* to_dlpack_versioned(const NdArray& a, dlpack::Device device, uint64_t flags) {
    auto* ctx = make_export<dlpack::ManagedTensorVersioned>(a, device);
    ctx->managed.version = {dlpack::kMajorVersion, dlpack::kMinorVersion};
    ctx->managed.flags = flags;
    return &ctx->managed;
}

NdArray foreign_array(void* data, DType dtype, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                      std::shared_ptr<void> owner) {
    if (shape.size() > size_t(kMaxDims))
        raise(ErrorKind::Value, "a foreign array has %zu dimensions; simt supports at most %d", shape.size(), kMaxDims);
    if (!strides.empty() && strides.size() != shape.size())
        raise(ErrorKind::Value, "a foreign array has %zu strides for %zu dimensions", strides.size(), shape.size());
    NdArray a;
    a.owner = std::move(owner);
    a.data = static_cast<char*>(data);
    a.dtype = dtype;
    a.ndim = int(shape.size());
    int64_t stride = dtype_size(dtype);
    for (int i = a.ndim - 1; i >= 0; --i) {
        if (shape[size_t(i)] < 0) raise(ErrorKind::Value, "a foreign array has a negative extent (%lld)", (long long)shape[size_t(i)]);
        a.shape[i] = shape[size_t(i)];
        a.strides[i] = strides.empty() ? stride : strides[size_t(i)];
        if (a.strides[i] % dtype_size(dtype) != 0)
            raise(ErrorKind::Value, "a foreign array has a stride of %lld bytes, not a multiple of its %d-byte elements",
                  (long long)a.strides[i], dtype_size(dtype));
        stride *= shape[size_t(i)] > 0 ? shape[size_t(i)] : 1;
    }
    if (!a.data && a.size() > 0) raise(ErrorKind::Value, "a foreign array of %lld elements has a null data pointer", (long long)a.size());
    return a;
}

NdArray array_from_dlpack(const dlpack::Tensor& t, std::shared_ptr<void> owner) {
    if (t.ndim < 0) raise(ErrorKind::Value, "a DLPack tensor has a negative ndim (%d)", int(t.ndim));
    DType dtype = dtype_from_dlpack(t.dtype);
    std::vector<int64_t> shape(t.shape, t.shape + t.ndim), strides;
    if (t.strides)
        for (int i = 0; i < t.ndim; ++i) strides.push_back(t.strides[i] * dtype_size(dtype));
    return foreign_array(static_cast<char*>(t.data) + t.byte_offset, dtype, shape, strides, std::move(owner));
}

}  // namespace simt
