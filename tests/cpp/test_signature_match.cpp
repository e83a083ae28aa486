// Best-signature selection and argument conversion for eagerly compiled kernels.
#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include "runtime/argument_convert.h"
#include "types/signature.h"
#include "types/signature_match.h"

using namespace simt;

TEST(SignatureMatch, ConversionFit) {
    EXPECT_EQ(conversion_fit(int64_type(), int64_type()), Fit::Exact);
    EXPECT_EQ(conversion_fit(scalar_type(DType::Int32), int64_type()), Fit::Safe);
    EXPECT_EQ(conversion_fit(int64_type(), scalar_type(DType::Int32)), Fit::Unsafe);
    EXPECT_EQ(conversion_fit(float64_type(), scalar_type(DType::Float32)), Fit::Unsafe);
    EXPECT_EQ(conversion_fit(scalar_type(DType::Complex128), float64_type()), Fit::None);
    EXPECT_EQ(conversion_fit(int64_type(), bool_type()), Fit::Unsafe);
    EXPECT_EQ(conversion_fit(parse_type("float32[::1]"), parse_type("float32[:]")), Fit::Safe);
    EXPECT_EQ(conversion_fit(parse_type("float32[:]"), parse_type("float32[::1]")), Fit::None);
    EXPECT_EQ(conversion_fit(parse_type("float64[::1]"), parse_type("float32[:]")), Fit::None);
    EXPECT_EQ(conversion_fit(parse_type("float32[:, ::1]"), parse_type("float32[:]")), Fit::None);
}

TEST(SignatureMatch, BestSignaturePrefersFewestUnsafeConversions) {
    std::vector<std::vector<const Type*>> sigs = {parse_signature("(float32, float32)").args,
                                                  parse_signature("(float64, float64)").args,
                                                  parse_signature("(int32[:],)").args};
    EXPECT_EQ(best_signature(sigs, {scalar_type(DType::Float32), scalar_type(DType::Float32)}), 0);
    EXPECT_EQ(best_signature(sigs, {int64_type(), int64_type()}), 1);
    EXPECT_EQ(best_signature(sigs, {float64_type(), scalar_type(DType::Float32)}), 1);
    EXPECT_EQ(best_signature(sigs, {parse_type("int32[::1]")}), 2);
    EXPECT_EQ(best_signature(sigs, {parse_type("int64[::1]")}), -1);
    EXPECT_EQ(best_signature(sigs, {scalar_type(DType::Complex64), float64_type()}), -1);
}

TEST(SignatureMatch, ArgumentsConvertLikeCCasts) {
    ArgumentPack in;
    int64_t big = 300, neg = -1;
    double real = -3.75;
    double z[2] = {1.5, -2.0};
    in.add(&big, 8, 8);
    in.add(&neg, 8, 8);
    in.add(&real, 8, 8);
    in.add(&real, 8, 8);
    in.add(z, 16, 8);
    in.add(&real, 8, 8);
    std::vector<const Type*> from = {int64_type(), int64_type(), float64_type(), float64_type(),
                                     scalar_type(DType::Complex128), float64_type()};
    std::vector<const Type*> to = {scalar_type(DType::Int8), scalar_type(DType::UInt16), scalar_type(DType::Int32),
                                   scalar_type(DType::Float16), scalar_type(DType::Complex64), bool_type()};
    ArgumentPack out = convert_arguments(in, from, to);
    ASSERT_EQ(out.offsets.size(), 6u);
    const unsigned char* p = out.data.data();
    EXPECT_EQ(int8_t(p[out.offsets[0]]), int8_t(44));  // 300 wraps
    uint16_t u16;
    std::memcpy(&u16, p + out.offsets[1], 2);
    EXPECT_EQ(u16, 65535);
    int32_t i32;
    std::memcpy(&i32, p + out.offsets[2], 4);
    EXPECT_EQ(i32, -3);  // truncation toward zero
    uint16_t h;
    std::memcpy(&h, p + out.offsets[3], 2);
    EXPECT_EQ(half_to_double(h), -3.75);
    float c[2];
    std::memcpy(c, p + out.offsets[4], 8);
    EXPECT_EQ(c[0], 1.5f);
    EXPECT_EQ(c[1], -2.0f);
    EXPECT_EQ(p[out.offsets[5]], 1);
}

TEST(SignatureMatch, TupleArgumentsLayOutAsStructsAndConvertElementwise) {
    // Tuple(int8, Tuple(float32, int64)): the generated struct {int8 f0; {float f0; long f1;} f1;}
    const Type* inner = tuple_type({scalar_type(DType::Float32), int64_type()});
    const Type* from = tuple_type({scalar_type(DType::Int8), inner});
    EXPECT_EQ(argument_alignment(from), 8u);
    EXPECT_EQ(argument_size(inner), 16u);  // float at 0, int64 at 8
    EXPECT_EQ(argument_size(from), 24u);   // int8 at 0, the inner struct at 8
    EXPECT_EQ(argument_size(tuple_type({scalar_type(DType::Int16), bool_type()})), 4u);  // tail padding
    unsigned char bytes[24] = {};
    bytes[0] = uint8_t(-5);
    float f = 2.75f;
    int64_t i = 7;
    std::memcpy(bytes + 8, &f, 4);
    std::memcpy(bytes + 16, &i, 8);
    ArgumentPack in;
    in.add(bytes, sizeof bytes, 8);
    const Type* to = tuple_type({float64_type(), tuple_type({float64_type(), scalar_type(DType::Int32)})});
    ArgumentPack out = convert_arguments(in, {from}, {to});
    ASSERT_EQ(out.data.size(), 24u);  // double at 0, {double at 8, int32 at 16, padding}
    double d0, d1;
    int32_t i32;
    std::memcpy(&d0, out.data.data(), 8);
    std::memcpy(&d1, out.data.data() + 8, 8);
    std::memcpy(&i32, out.data.data() + 16, 4);
    EXPECT_EQ(d0, -5.0);
    EXPECT_EQ(d1, 2.75);
    EXPECT_EQ(i32, 7);
}

TEST(SignatureMatch, HalfConversionRoundsToNearestEven) {
    EXPECT_EQ(half_from_double(1.0), 0x3c00);
    EXPECT_EQ(half_from_double(-2.0), 0xc000);
    EXPECT_EQ(half_from_double(65504.0), 0x7bff);
    EXPECT_EQ(half_from_double(65520.0), 0x7c00);             // rounds up to infinity
    EXPECT_EQ(half_from_double(1.0 + 1.0 / 2048), 0x3c00);    // halfway: to even
    EXPECT_EQ(half_from_double(1.0 + 3.0 / 2048), 0x3c02);    // halfway: to even (up)
    EXPECT_EQ(half_from_double(std::ldexp(1.0, -24)), 0x0001);  // smallest subnormal
    EXPECT_EQ(half_from_double(std::ldexp(1.0, -26)), 0x0000);
    EXPECT_EQ(half_from_double(std::ldexp(1023.5, -24)), 0x0400);  // rounds into the normals
    EXPECT_TRUE(std::isnan(half_to_double(half_from_double(std::nan("")))));
    for (uint32_t bits = 0; bits < 0x7c00; bits += 7)
        EXPECT_EQ(half_from_double(half_to_double(uint16_t(bits))), bits);
}
