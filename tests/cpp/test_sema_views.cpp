// Typing of views inside kernels: how many axes a view keeps and which layout it may claim
// (row-major only where the index makes that certain; otherwise strided).
#include <gtest/gtest.h>
#include "sema/sema.h"
#include "support/error.h"
#include "test_helpers.h"

using namespace simt;

namespace {

// The type of local `r` after analyzing `r = <expr>` with parameter A of type `a` and int64 i.
const Type* view_type(const std::string& expr, const Type* a) {
    std::string text = "def k(A, i):\n    r = " + expr + "\n";
    auto u = analyze_kernel(test::source(text), test::standard_names, {a, int64_type()}, CompileOptions{});
    for (const auto& [n, t] : u->kernel->locals) if (n == "r") return t;
    return nullptr;
}

std::string view_error(const std::string& expr, const Type* a) {
    try {
        view_type(expr, a);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

const Type* c2() { return array_type(DType::Float32, 2, Layout::C); }
const Type* c3() { return array_type(DType::Float32, 3, Layout::C); }
const Type* arr(int ndim, Layout l) { return array_type(DType::Float32, ndim, l); }

}  // namespace

TEST(SemaViews, IntegersDropAxesAndRowsStayContiguous) {
    EXPECT_EQ(view_type("A[i]", c2()), arr(1, Layout::C));
    EXPECT_EQ(view_type("A[i, :]", c2()), arr(1, Layout::C));
    EXPECT_EQ(view_type("A[i, 2:5]", c2()), arr(1, Layout::C));
    EXPECT_EQ(view_type("A[1:i]", c2()), arr(2, Layout::C));
    EXPECT_EQ(view_type("A[1:i, :]", c2()), arr(2, Layout::C));
    EXPECT_EQ(view_type("A[i, 1]", c3()), arr(1, Layout::C));
    EXPECT_EQ(view_type("A[i][2]", c2()), scalar_type(DType::Float32));
}

TEST(SemaViews, AnythingNotCertainlyContiguousIsStrided) {
    EXPECT_EQ(view_type("A[:, i]", c2()), arr(1, Layout::A));       // a column
    EXPECT_EQ(view_type("A[:, 1:3]", c2()), arr(2, Layout::A));     // a block of columns
    EXPECT_EQ(view_type("A[::2]", c2()), arr(2, Layout::A));        // a step
    EXPECT_EQ(view_type("A[i, ::-1]", c2()), arr(1, Layout::A));
    EXPECT_EQ(view_type("A[i]", arr(2, Layout::F)), arr(1, Layout::A));
    EXPECT_EQ(view_type("A[:, :]", arr(2, Layout::F)), arr(2, Layout::F));  // the whole array keeps its layout
    EXPECT_EQ(view_type("A[i]", arr(2, Layout::A)), arr(1, Layout::A));
    EXPECT_EQ(view_type("A.T", c2()), arr(2, Layout::F));
    EXPECT_EQ(view_type("A.T[i]", c2()), arr(1, Layout::A));
}

TEST(SemaViews, ConstantArraysGiveReadOnlyViews) {
    const Type* ro = array_type(DType::Float64, 2, Layout::C, true);
    EXPECT_EQ(view_type("A[i]", ro), array_type(DType::Float64, 1, Layout::C, true));
}

TEST(SemaViews, BadIndicesAreTypingErrors) {
    EXPECT_NE(view_error("A[1.5:]", c2()).find("slice start must be an integer or None, not float64"), std::string::npos);
    EXPECT_NE(view_error("A[::0]", c2()).find("slice step cannot be zero"), std::string::npos);
    EXPECT_NE(view_error("A[i, :, 1]", c2()).find("too many indices for array"), std::string::npos);
    EXPECT_NE(view_error("i[1:2]", c2()).find("only arrays and tuples can be sliced"), std::string::npos);
}
