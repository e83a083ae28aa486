#include <gtest/gtest.h>
#include "types/promote.h"

using namespace simt;

TEST(Promote, MatchesNumPyResultType) {
    EXPECT_EQ(promote(DType::Int32, DType::Int64), DType::Int64);
    EXPECT_EQ(promote(DType::UInt8, DType::Int8), DType::Int16);
    EXPECT_EQ(promote(DType::UInt32, DType::Int32), DType::Int64);
    EXPECT_EQ(promote(DType::UInt64, DType::Int64), DType::Float64);
    EXPECT_EQ(promote(DType::Int16, DType::Float16), DType::Float32);
    EXPECT_EQ(promote(DType::Int8, DType::Float16), DType::Float16);
    EXPECT_EQ(promote(DType::Int32, DType::Float32), DType::Float64);
    EXPECT_EQ(promote(DType::Float32, DType::Float64), DType::Float64);
    EXPECT_EQ(promote(DType::Complex64, DType::Float64), DType::Complex128);
    EXPECT_EQ(promote(DType::Complex64, DType::Int16), DType::Complex64);
    EXPECT_EQ(promote(DType::Bool, DType::UInt8), DType::UInt8);
}

TEST(Promote, NumbaArithmeticWidensIntegers) {
    DType out;
    ASSERT_TRUE(binop_result(BinOpKind::Add, DType::Int32, DType::Int32, out));
    EXPECT_EQ(out, DType::Int64);
    ASSERT_TRUE(binop_result(BinOpKind::Mul, DType::UInt32, DType::UInt8, out));
    EXPECT_EQ(out, DType::UInt64);
    ASSERT_TRUE(binop_result(BinOpKind::Div, DType::Int64, DType::Int64, out));
    EXPECT_EQ(out, DType::Float64);
    ASSERT_TRUE(binop_result(BinOpKind::Div, DType::Float32, DType::Float32, out));
    EXPECT_EQ(out, DType::Float32);
    ASSERT_TRUE(binop_result(BinOpKind::Add, DType::Float32, DType::Int64, out));
    EXPECT_EQ(out, DType::Float64);
    ASSERT_TRUE(binop_result(BinOpKind::BitAnd, DType::Bool, DType::Bool, out));
    EXPECT_EQ(out, DType::Bool);
    ASSERT_TRUE(binop_result(BinOpKind::Add, DType::Bool, DType::Bool, out));
    EXPECT_EQ(out, DType::Int64);
    EXPECT_FALSE(binop_result(BinOpKind::BitOr, DType::Float64, DType::Int64, out));
    EXPECT_FALSE(binop_result(BinOpKind::Mod, DType::Complex128, DType::Int64, out));
}

TEST(Promote, UnifyNumbersAndTuples) {
    EXPECT_EQ(unify(int64_type(), float64_type()), float64_type());
    const Type* t1 = tuple_type({int64_type(), int64_type()});
    const Type* t2 = tuple_type({float64_type(), int64_type()});
    EXPECT_EQ(unify(t1, t2), tuple_type({float64_type(), int64_type()}));
    EXPECT_EQ(unify(t1, int64_type()), nullptr);
    EXPECT_EQ(unify(array_type(DType::Float32, 2, Layout::C), array_type(DType::Float32, 2, Layout::A)),
              array_type(DType::Float32, 2, Layout::A));
}

TEST(Types, InternedAndSpelledLikeNumba) {
    EXPECT_EQ(array_type(DType::Float64, 1, Layout::C), array_type(DType::Float64, 1, Layout::C));
    EXPECT_EQ(array_type(DType::Float64, 1, Layout::C)->str(), "array(float64, 1d, C)");
    EXPECT_EQ(tuple_type({int64_type(), int64_type()})->str(), "UniTuple(int64 x 2)");
    EXPECT_EQ(tuple_type({int64_type(), float64_type()})->str(), "Tuple(int64, float64)");
}
