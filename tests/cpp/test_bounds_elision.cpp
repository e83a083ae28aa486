// Bounds tests left out where they are proven elsewhere: hoisted out of range() loops
// (codegen/loop_bounds.h: which accesses qualify, the test emitted before the loop, the two copies
// of the loop) and kept by an enclosing if (codegen/guards.h).
#include <gtest/gtest.h>
#include "codegen/emitter.h"
#include "sema/sema.h"
#include "test_helpers.h"

using namespace simt;

namespace {

const Type* f32_1d() { return array_type(DType::Float32, 1, Layout::C); }
const Type* f32_2d() { return array_type(DType::Float32, 2, Layout::C); }

std::string user_code(const std::string& text, std::vector<const Type*> args, BoundsMode mode = BoundsMode::Masked) {
    CompileOptions options;
    options.bounds = mode;
    auto unit = analyze_kernel(test::source(text), test::standard_names, args, options);
    return emit_unit(*unit, Target::Cuda).user_code;
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST(LoopBounds, InvariantAndAffineIndicesAreTestedOnceBeforeTheLoop) {
    std::string code = user_code(
        "def k(A, out, r, j):\n"
        "    acc = 0.0\n"
        "    for k in range(A.shape[1]):\n"
        "        acc += A[r, 2 * k + j + 1]\n"
        "        out[k] = acc\n",
        {f32_2d(), f32_1d(), int64_type(), int64_type()});
    EXPECT_NE(code.find("simt_invariant_in_range(r, A.shape[0])"), std::string::npos) << code;
    EXPECT_NE(code.find("simt_affine_in_range(2L, simt_start0, simt_stop1, A.shape[1], j, 1L)"), std::string::npos) << code;
    EXPECT_NE(code.find("simt_affine_in_range(1, simt_start0, simt_stop1, out.shape[0])"), std::string::npos) << code;
    EXPECT_EQ(count(code, "for (int64_t simt_i3"), 2u) << code;  // the untested copy and the original
    EXPECT_EQ(count(code, "simt_load_proven(ctx, A, "), 1u) << code;
    EXPECT_EQ(count(code, "simt_load(ctx, A, "), 1u) << code;
    EXPECT_EQ(count(code, "simt_store_proven(ctx, out, "), 1u) << code;
    EXPECT_EQ(count(code, "simt_store(ctx, out, "), 1u) << code;
    // A start the analysis proves non-negative is checked once at run time before the loop's range
    // is trusted (an int64 overflow could make it negative).
    std::string from_m = user_code("def k(A, m, n):\n    for k in range(cuda.threadIdx.x * 4, n):\n        A[k] = 1\n",
                                   {f32_1d(), int64_type(), int64_type()});
    EXPECT_NE(from_m.find("const int64_t simt_known_stop"), std::string::npos) << from_m;
    EXPECT_NE(from_m.find("simt_affine_in_range(1, simt_start"), std::string::npos) << from_m;
}

TEST(LoopBounds, OnlyTheDefaultMaskedModeWritesLoopsTwice) {
    const std::string text = "def k(A, n):\n    for k in range(n):\n        A[k] = 1\n";
    EXPECT_NE(user_code(text, {f32_1d(), int64_type()}).find("simt_store_proven"), std::string::npos);
    for (BoundsMode mode : {BoundsMode::Checked, BoundsMode::Unchecked}) {
        std::string code = user_code(text, {f32_1d(), int64_type()}, mode);
        EXPECT_EQ(code.find("_proven"), std::string::npos) << code;
        EXPECT_EQ(count(code, "for ("), 1u) << code;
    }
}

TEST(LoopBounds, IndicesThatAreNotAffineInTheLoopVariableKeepTheirTest) {
    auto hoisted = [&](const std::string& index) {
        std::string code = user_code("def k(A, B, n, m):\n    for k in range(n):\n        A[" + index + "] = 1\n",
                                     {f32_1d(), f32_1d(), int64_type(), int64_type()});
        return code.find("simt_store_proven") != std::string::npos;
    };
    EXPECT_TRUE(hoisted("k"));
    EXPECT_TRUE(hoisted("m + k"));
    EXPECT_TRUE(hoisted("k * m + 3"));
    EXPECT_TRUE(hoisted("m * m + k"));              // an invariant product as the offset
    EXPECT_TRUE(hoisted("cuda.threadIdx.x + k * 16"));
    EXPECT_TRUE(hoisted("A.shape[0] - 1"));         // invariant: A.shape[0] - 1 as a whole
    EXPECT_FALSE(hoisted("k - 1"));                 // may be -1: wraps
    EXPECT_FALSE(hoisted("m - k"));
    EXPECT_FALSE(hoisted("k * k"));
    EXPECT_FALSE(hoisted("(k + 1) * m"));
    EXPECT_FALSE(hoisted("k // 2"));
    EXPECT_FALSE(hoisted("m // 2"));                // division is not evaluated ahead of the body
    EXPECT_FALSE(hoisted("m << 2"));
    EXPECT_FALSE(hoisted("int(B[0])"));             // memory the loop could change
}

TEST(LoopBounds, LoopsThatMustNotBeDuplicatedAreWrittenOnce) {
    auto copies = [&](const std::string& body) {
        std::string code = user_code("def k(A, B, n):\n    for k in range(n):\n" + body, {f32_1d(), f32_1d(), int64_type()});
        return count(code, "_proven(");
    };
    EXPECT_EQ(copies("        A[k] = 1\n"), 1u);
    EXPECT_EQ(copies("        A[k] = 1\n        cuda.syncthreads()\n"), 0u);
    EXPECT_EQ(copies("        A[k] = cuda.shfl_down_sync(0xffffffff, A[k], 1)\n"), 0u);
    EXPECT_EQ(copies("        A[k] = 1\n    else:\n        A[0] = 2\n"), 0u);
    EXPECT_EQ(copies("        A[k] = 1\n        A = B\n"), 0u);               // the array is rebound
    EXPECT_EQ(copies("        j = 0\n        while j < 2:\n            A[k] = j\n            j += 1\n"), 0u);
    // Nested loops: only the innermost one is written twice.
    std::string nested = user_code("def k(A, n):\n    for k in range(n):\n        for q in range(4):\n            A[q] = k\n",
                                   {f32_1d(), int64_type()});
    EXPECT_EQ(count(nested, "simt_store_proven(ctx, A, "), 1u) << nested;
    EXPECT_EQ(count(nested, "for (int64_t"), 3u) << nested;
}

TEST(Guards, AnAccessTheEnclosingIfKeepsBelowTheExtentsOnlyTestsItsSign) {
    auto store = [&](const std::string& test, const std::string& body, BoundsMode mode = BoundsMode::Masked) {
        std::string code = user_code("def k(A, B):\n    i, j = cuda.grid(2)\n    if " + test + ":\n" + body, {f32_2d(), f32_2d()},
                                     mode);
        return code.find("simt_store_nonneg(ctx, A, ") != std::string::npos;
    };
    const std::string plain = "        A[i, j] = 1\n";
    EXPECT_TRUE(store("i < A.shape[0] and j < A.shape[1]", plain));
    EXPECT_TRUE(store("A.shape[1] > j and i < len(A)", plain));
    EXPECT_TRUE(store("0 <= i < A.shape[0] and j < A.shape[-1]", plain));
    EXPECT_TRUE(store("i < A.shape[0] and j < A.shape[1]", "        if i > 2:\n            A[i, j] = 1\n"));  // nested
    EXPECT_FALSE(store("i < A.shape[0]", plain));                           // j untested
    EXPECT_FALSE(store("i < B.shape[0] and j < B.shape[1]", plain));        // another array
    EXPECT_FALSE(store("i < A.shape[0] or j < A.shape[1]", plain));
    EXPECT_FALSE(store("i <= A.shape[0] and j < A.shape[1]", plain));
    EXPECT_FALSE(store("i < A.shape[1] and j < A.shape[0]", plain));        // dimensions swapped
    EXPECT_FALSE(store("i < A.shape[0] and j < A.shape[1]", "        j += 1\n" + plain));  // changed after the test
    EXPECT_FALSE(store("i < A.shape[0] and j < A.shape[1]", "        A = B\n" + plain));
    EXPECT_FALSE(store("i - 1 < A.shape[0] and j < A.shape[1]", "        A[i - 1, j] = 1\n"));  // may be -1
    EXPECT_TRUE(store("0 <= i - 1 < A.shape[0] and j < A.shape[1]", "        A[i - 1, j] = 1\n"));  // ... unless tested
    EXPECT_TRUE(store("i - 1 >= 0 and A.shape[0] > i - 1 and j < A.shape[1]", "        A[i - 1, j] = 1\n"));
    EXPECT_FALSE(store("i - 1 >= 1 and i - 1 < A.shape[0] and j < A.shape[1]", "        A[i - 1, j] = 1\n"));
    EXPECT_FALSE(store("0 <= i - 2 and i - 1 < A.shape[0] and j < A.shape[1]", "        A[i - 1, j] = 1\n"));
    EXPECT_FALSE(store("i < A.shape[0] and j < A.shape[1]", "        pass\n    else:\n" + plain));
    EXPECT_FALSE(store("i < A.shape[0] and j < A.shape[1]", plain, BoundsMode::Checked));
}
