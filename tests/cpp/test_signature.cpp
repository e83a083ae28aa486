#include <gtest/gtest.h>
#include "support/error.h"
#include "types/signature.h"

using namespace simt;

TEST(Signature, NumbaSpellings) {
    Signature s = parse_signature("void(float32[:], float32[::1], int64)");
    EXPECT_EQ(s.return_type, void_type());
    ASSERT_EQ(s.args.size(), 3u);
    EXPECT_EQ(s.args[0], array_type(DType::Float32, 1, Layout::A));  // ":" is any stride
    EXPECT_EQ(s.args[1], array_type(DType::Float32, 1, Layout::C));
    EXPECT_EQ(s.args[2], int64_type());
    Signature t = parse_signature("f8(f8, i4)");
    EXPECT_EQ(t.return_type, float64_type());
    EXPECT_EQ(t.args[1], scalar_type(DType::Int32));
    EXPECT_EQ(parse_type("float64[:, ::1]"), array_type(DType::Float64, 2, Layout::C));
    EXPECT_EQ(parse_type("float64[::1, :]"), array_type(DType::Float64, 2, Layout::F));
    EXPECT_EQ(parse_type("int8[:, :, :]"), array_type(DType::Int8, 3, Layout::A));
    EXPECT_EQ(parse_type("UniTuple(int64, 3)")->str(), "UniTuple(int64 x 3)");
    EXPECT_EQ(parse_type("Tuple(int64, float32)")->str(), "Tuple(int64, float32)");
    EXPECT_EQ(parse_signature("(int32, complex128)").args.size(), 2u);
    EXPECT_EQ(parse_signature("(int32, complex128)").return_type, nullptr);
}

TEST(Signature, ErrorsNameThePart) {
    EXPECT_THROW(parse_signature("void(float33[:])"), Error);
    EXPECT_THROW(parse_signature("void(float32[:)"), Error);
    try {
        parse_type("float32[:, ::1, :]");
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("unit stride"), std::string::npos);
    }
}
