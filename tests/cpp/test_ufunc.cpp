// Ufunc type resolution (NumPy's loop search, NEP 50 weak scalars) and the generated
// elementwise kernels: every loop of every ufunc type-checks and generates code for both
// targets, and runs on the cpu backend.
#include <gtest/gtest.h>
#include <cmath>
#include <cstdlib>
#include "array/ufunc.h"
#include "array/views.h"
#include "codegen/emitter.h"
#include "sema/sema.h"
#include "support/error.h"
#include "test_helpers.h"

using namespace simt;

namespace {

DType resolved_output(const char* name, std::vector<UfuncOperand> ops) {
    Ufunc& u = *find_ufunc(name);
    std::vector<DType> dtypes = resolve_operand_dtypes(u, ops.data(), u.nin);
    const UfuncLoop* loop = select_loop(u, dtypes.data(), std::nullopt);
    if (!loop) throw Error(ErrorKind::Type, "no loop");
    return loop->out;
}

UfuncOperand array_of(DType d) {
    static NdArray store[kNumDTypes];
    store[int(d)].dtype = d;
    UfuncOperand op;
    op.kind = UfuncOperand::Kind::Array;
    op.array = &store[int(d)];
    return op;
}

UfuncOperand weak_int(int64_t v) {
    UfuncOperand op;
    op.kind = UfuncOperand::Kind::WeakInt;
    op.i = v;
    return op;
}

UfuncOperand weak_float(double v) {
    UfuncOperand op;
    op.kind = UfuncOperand::Kind::WeakFloat;
    op.re = v;
    return op;
}

UfuncOperand weak_complex() {
    UfuncOperand op;
    op.kind = UfuncOperand::Kind::WeakComplex;
    op.re = 1;
    op.im = 1;
    return op;
}

}  // namespace

TEST(Casting, SafeAndSameKindMatchNumPy) {
    EXPECT_TRUE(can_cast_safe(DType::Int64, DType::Float64));
    EXPECT_FALSE(can_cast_safe(DType::Int32, DType::Float32));
    EXPECT_FALSE(can_cast_safe(DType::UInt64, DType::Int64));
    EXPECT_TRUE(can_cast_safe(DType::UInt8, DType::Int16));
    EXPECT_TRUE(can_cast_same_kind(DType::Float64, DType::Float16));
    EXPECT_TRUE(can_cast_same_kind(DType::UInt64, DType::Int8));
    EXPECT_FALSE(can_cast_same_kind(DType::Int8, DType::UInt8));
    EXPECT_FALSE(can_cast_same_kind(DType::Complex64, DType::Float64));
    EXPECT_FALSE(can_cast_same_kind(DType::Float32, DType::Int64));
}

TEST(UfuncResolution, ArraysFollowNumPysLoopSearch) {
    EXPECT_EQ(resolved_output("add", {array_of(DType::Int8), array_of(DType::UInt8)}), DType::Int16);
    EXPECT_EQ(resolved_output("add", {array_of(DType::Bool), array_of(DType::Bool)}), DType::Bool);
    EXPECT_EQ(resolved_output("true_divide", {array_of(DType::Int8), array_of(DType::Int8)}), DType::Float64);
    EXPECT_EQ(resolved_output("true_divide", {array_of(DType::Float16), array_of(DType::Float16)}), DType::Float16);
    EXPECT_EQ(resolved_output("sqrt", {array_of(DType::Int8)}), DType::Float16);
    EXPECT_EQ(resolved_output("sqrt", {array_of(DType::Int32)}), DType::Float64);
    EXPECT_EQ(resolved_output("arctan2", {array_of(DType::Int8), array_of(DType::UInt8)}), DType::Float16);
    EXPECT_EQ(resolved_output("arctan2", {array_of(DType::Int8), array_of(DType::Int16)}), DType::Float32);
    EXPECT_EQ(resolved_output("floor_divide", {array_of(DType::Bool), array_of(DType::Bool)}), DType::Int8);
    EXPECT_EQ(resolved_output("absolute", {array_of(DType::Complex64)}), DType::Float32);
    EXPECT_EQ(resolved_output("less", {array_of(DType::Int64), array_of(DType::UInt64)}), DType::Bool);
    EXPECT_THROW(resolved_output("bitwise_and", {array_of(DType::Float32), array_of(DType::Int8)}), Error);
    EXPECT_THROW(resolved_output("subtract", {array_of(DType::Bool), array_of(DType::Bool)}), Error);
}

TEST(UfuncResolution, PythonScalarsAreWeak) {
    EXPECT_EQ(resolved_output("add", {array_of(DType::Int8), weak_int(1)}), DType::Int8);
    EXPECT_EQ(resolved_output("multiply", {array_of(DType::Float32), weak_float(2.0)}), DType::Float32);
    EXPECT_EQ(resolved_output("add", {array_of(DType::Int8), weak_float(1.5)}), DType::Float64);
    EXPECT_EQ(resolved_output("add", {array_of(DType::Bool), weak_int(1)}), DType::Int64);
    EXPECT_EQ(resolved_output("add", {array_of(DType::Float16), weak_complex()}), DType::Complex64);
    EXPECT_EQ(resolved_output("add", {array_of(DType::Int8), weak_complex()}), DType::Complex128);
    EXPECT_EQ(resolved_output("add", {weak_int(1), weak_float(2)}), DType::Float64);
    try {
        resolved_output("add", {array_of(DType::Int8), weak_int(1000)});
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Overflow);
        EXPECT_STREQ(e.what(), "Python integer 1000 out of bounds for int8");
    }
    // Comparisons take out-of-range integers by value instead.
    EXPECT_EQ(resolved_output("less", {array_of(DType::UInt8), weak_int(-1)}), DType::Bool);
}

TEST(UfuncKernels, EveryLoopTypeChecksAndGeneratesBothTargets) {
    int loops = 0;
    for (Ufunc* u : all_ufuncs()) {
        for (size_t i = 0; i < u->loops.size(); ++i) {
            const UfuncLoop& loop = u->loops[i];
            std::vector<uint8_t> operands;
            for (int k = 0; k < u->nin; ++k) operands.push_back(uint8_t(loop.in[k]));
            operands.push_back(uint8_t(loop.out));
            for (int path : {0, 2}) {
                SourceText src;
                src.text = elementwise_source(u->name, loop.kernel, operands, path);
                src.filename = "<test>";
                std::vector<const Type*> types(4, scalar_type(DType::UInt64));
                for (uint8_t c : operands) types.push_back(array_type(DType(c), path ? path : 1, path ? Layout::A : Layout::C));
                try {
                    std::unique_ptr<CompileUnit> unit = analyze_kernel(src, elementwise_builtin_name, types, {});
                    EXPECT_FALSE(emit_unit(*unit, Target::Cpu).full_source.empty());
                    EXPECT_FALSE(emit_unit(*unit, Target::Cuda).full_source.empty());
                } catch (const Error& e) {
                    ADD_FAILURE() << u->name << " loop " << i << ": " << e.what() << "\n" << src.text;
                }
                ++loops;
            }
        }
    }
    EXPECT_GT(loops, 500);
}

namespace {
class ElementwiseOnCpu : public ::testing::Test {
protected:
    static void SetUpTestSuite() { test::use_cpu_backend_with_private_cache(); }
};

NdArray filled(std::vector<int64_t> shape, double start) {
    NdArray a = empty_array(DType::Float64, shape);
    std::vector<double> host(size_t(a.size()));
    for (size_t i = 0; i < host.size(); ++i) host[i] = start + double(i) * 0.5;
    copy_from_host(a, host.data());
    return a;
}

std::vector<double> host_of(const NdArray& a) {
    std::vector<double> out(size_t(a.size()));
    copy_to_host(a, out.data());
    return out;
}
}  // namespace

TEST_F(ElementwiseOnCpu, BroadcastStridedAndContiguousPathsAgree) {
    NdArray a = filled({3, 4}, 1.0), b = filled({4}, -2.0);
    UfuncOperand ops[2];
    ops[0].array = &a;
    ops[1].array = &b;
    NdArray sum = call_ufunc(*find_ufunc("add"), ops, 2, nullptr, std::nullopt);
    std::vector<double> ha = host_of(a), hb = host_of(b), hs = host_of(sum);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) EXPECT_EQ(hs[size_t(i * 4 + j)], ha[size_t(i * 4 + j)] + hb[size_t(j)]);
    // A transposed, reversed view into a preallocated output.
    NdArray t = index_view(transpose_view(a, {}), {IndexItem::slice({}, {}, -1)});
    NdArray out = empty_array(DType::Float64, {4, 3});
    ops[0].array = &t;
    ops[1] = weak_float(0.25);
    call_ufunc(*find_ufunc("multiply"), ops, 2, &out, std::nullopt);
    std::vector<double> ho = host_of(out);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(ho[size_t(i * 3 + j)], ha[size_t(j * 4 + (3 - i))] * 0.25);
}

TEST_F(ElementwiseOnCpu, AstypeAndFillsOfStridedViews) {
    NdArray a = filled({5, 2}, -1.5);
    NdArray col = index_view(a, {IndexItem::slice({}, {}, {}), IndexItem::integer(1)});
    NdArray as_int = astype(col, DType::Int32, false);
    std::vector<int32_t> hi(5);
    copy_to_host(as_int, hi.data());
    std::vector<double> ha = host_of(a);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(hi[size_t(i)], int32_t(ha[size_t(2 * i + 1)]));
    fill_with(col, Scalar::from_double(9.0, DType::Float64));
    std::vector<double> after = host_of(a);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(after[size_t(2 * i)], ha[size_t(2 * i)]);
        EXPECT_EQ(after[size_t(2 * i + 1)], 9.0);
    }
}
