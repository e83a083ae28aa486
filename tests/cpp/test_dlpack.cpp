// DLPack export/import of arrays, foreign-memory views, and checked re-striding (array/dlpack.h,
// array/restride.h), on the cpu backend.
#include <gtest/gtest.h>
#include <cstdlib>
#include "array/dlpack.h"
#include "array/restride.h"
#include "runtime/backend.h"
#include "support/error.h"

using namespace simt;

namespace {

class Interop : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        char dir[] = "/tmp/simt-cpp-dlpack-XXXXXX";
        ASSERT_NE(::mkdtemp(dir), nullptr);
        ::setenv("SIMT_CACHE_DIR", dir, 1);
        select_backend("cpu");
    }
};

TEST_F(Interop, EveryDTypeRoundTripsThroughItsDLPackCode) {
    for (int i = 0; i < kNumDTypes; ++i) {
        DType d = DType(i);
        dlpack::DataType t = dtype_to_dlpack(d);
        EXPECT_EQ(t.bits, dtype_size(d) * 8) << dtype_name(d);
        EXPECT_EQ(t.lanes, 1);
        EXPECT_EQ(dtype_from_dlpack(t), d) << dtype_name(d);
    }
    EXPECT_EQ(dtype_to_dlpack(DType::Bool).code, dlpack::kBool);
    EXPECT_EQ(dtype_to_dlpack(DType::UInt16).code, dlpack::kUInt);
    EXPECT_EQ(dtype_to_dlpack(DType::Complex64).code, dlpack::kComplex);
}

TEST_F(Interop, UnsupportedDLPackTypesAreNamed) {
    try {
        dtype_from_dlpack({dlpack::kBfloat, 16, 1});
        FAIL() << "bfloat16 accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Type);
        EXPECT_NE(std::string(e.what()).find("bfloat16"), std::string::npos) << e.what();
    }
    EXPECT_THROW(dtype_from_dlpack({dlpack::kFloat, 32, 4}), Error);  // vector lanes
}

TEST_F(Interop, ExportedTensorDescribesTheArrayAndKeepsItAlive) {
    NdArray a = empty_array(DType::Float32, {3, 4});
    std::weak_ptr<void> memory = a.owner;
    dlpack::ManagedTensorVersioned* m = to_dlpack_versioned(a, {dlpack::kCPU, 0}, dlpack::kFlagIsCopied);
    a = NdArray();  // the tensor alone keeps the memory now
    EXPECT_FALSE(memory.expired());
    EXPECT_EQ(m->version.major, 1u);
    EXPECT_EQ(m->flags, dlpack::kFlagIsCopied);
    const dlpack::Tensor& t = m->dl_tensor;
    EXPECT_EQ(t.ndim, 2);
    EXPECT_EQ(t.shape[0], 3);
    EXPECT_EQ(t.shape[1], 4);
    EXPECT_EQ(t.strides[0], 4);  // elements, not bytes
    EXPECT_EQ(t.strides[1], 1);
    EXPECT_EQ(t.device.device_type, dlpack::kCPU);
    EXPECT_EQ(t.dtype.code, dlpack::kFloat);
    m->deleter(m);
    EXPECT_TRUE(memory.expired());
}

TEST_F(Interop, ImportViewsTheProducersMemoryWithItsStrides) {
    float storage[12];
    for (int i = 0; i < 12; ++i) storage[i] = float(i);
    int64_t shape[2] = {4, 2}, strides[2] = {1, 6};  // a transposed, sliced view
    dlpack::Tensor t{storage, {dlpack::kCPU, 0}, 2, {dlpack::kFloat, 32, 1}, shape, strides, 4};
    bool released = false;
    auto owner = std::shared_ptr<void>(&released, [](void* p) { *static_cast<bool*>(p) = true; });
    {
        NdArray a = array_from_dlpack(t, owner);
        owner.reset();
        EXPECT_EQ(a.dtype, DType::Float32);
        EXPECT_EQ(a.data, reinterpret_cast<char*>(storage) + 4);
        EXPECT_EQ(a.strides[0], 4);
        EXPECT_EQ(a.strides[1], 24);
        EXPECT_FALSE(a.c_contiguous());
        EXPECT_FALSE(released);
    }
    EXPECT_TRUE(released);
}

TEST_F(Interop, NullStridesMeanCompactRowMajor) {
    double storage[6] = {};
    int64_t shape[3] = {1, 2, 3};
    dlpack::Tensor t{storage, {dlpack::kCPU, 0}, 3, {dlpack::kFloat, 64, 1}, shape, nullptr, 0};
    NdArray a = array_from_dlpack(t, nullptr);
    EXPECT_TRUE(a.c_contiguous());
    EXPECT_EQ(a.strides[0], 48);
    EXPECT_EQ(a.strides[2], 8);
}

TEST_F(Interop, ForeignArraysRejectInconsistentLayouts) {
    double storage[4] = {};
    EXPECT_THROW(foreign_array(storage, DType::Float64, {2, 2}, {8}, nullptr), Error);       // stride count
    EXPECT_THROW(foreign_array(storage, DType::Float64, {2, 2}, {12, 4}, nullptr), Error);   // misaligned stride
    EXPECT_THROW(foreign_array(storage, DType::Float64, {-1}, {}, nullptr), Error);          // negative extent
    EXPECT_THROW(foreign_array(nullptr, DType::Float64, {3}, {}, nullptr), Error);           // null data
    EXPECT_NO_THROW(foreign_array(nullptr, DType::Float64, {0, 3}, {}, nullptr));            // empty: any pointer
}

TEST_F(Interop, RestridedViewsStayInsideTheirArray) {
    NdArray a = empty_array(DType::Int32, {4, 6});
    NdArray t = restrided_view(a, {6, 4}, {4, 24}, 0);  // the transpose
    EXPECT_EQ(t.shape[0], 6);
    EXPECT_FALSE(t.c_contiguous());
    NdArray b = restrided_view(a, {3, 4, 6}, {0, 24, 4}, 0);  // broadcast along a new axis
    EXPECT_EQ(b.size(), 72);
    NdArray tail = restrided_view(a, {6}, {4}, 72);  // the last row
    EXPECT_EQ(tail.data, a.data + 72);
    NdArray rev = restrided_view(a, {6}, {-4}, 92);  // the last row reversed
    EXPECT_EQ(rev.data, a.data + 92);
    EXPECT_THROW(restrided_view(a, {25}, {4}, 0), Error);       // one element too many
    EXPECT_THROW(restrided_view(a, {6}, {4}, 76), Error);       // runs off the end
    EXPECT_THROW(restrided_view(a, {2}, {-4}, 0), Error);       // runs off the start
    EXPECT_THROW(restrided_view(a, {2, 2}, {4}, 0), Error);     // stride count
    EXPECT_NO_THROW(restrided_view(a, {0, 100}, {4, 4}, 0));    // empty views are always fine
}

}  // namespace
