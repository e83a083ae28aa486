// Typing of simt.cuda.libdevice calls: numba's fixed libdevice signatures (arguments converted to
// the parameter types, fixed result types, out-parameters as tuples) and the misuse errors.
#include <gtest/gtest.h>
#include "sema/sema.h"
#include "support/error.h"
#include "test_helpers.h"

using namespace simt;

namespace {

GlobalValue names(const std::string& name) {
    if (name == "libdevice") return GlobalValue::module("cuda.libdevice");
    return test::standard_names(name);
}

// The type of local `r` after analyzing `r = <expr>` with parameter x of type `x`.
const Type* type_of_expr(const std::string& expr, const Type* x) {
    auto u = analyze_kernel(test::source("def k(x):\n    r = " + expr + "\n"), names, {x}, CompileOptions{});
    for (const auto& [n, t] : u->kernel->locals) if (n == "r") return t;
    return nullptr;
}

std::string typing_error(const std::string& expr, const Type* x) {
    try {
        type_of_expr(expr, x);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

const Type* f32() { return scalar_type(DType::Float32); }
const Type* f64() { return float64_type(); }
const Type* i32() { return scalar_type(DType::Int32); }

}  // namespace

TEST(SemaLibdevice, ResultTypesAreFixedBySignature) {
    EXPECT_EQ(type_of_expr("libdevice.sinf(x)", f64()), f32());       // float64 argument converted to float32
    EXPECT_EQ(type_of_expr("libdevice.sin(x)", f32()), f64());
    EXPECT_EQ(type_of_expr("libdevice.sinf(x)", int64_type()), f32());
    EXPECT_EQ(type_of_expr("libdevice.popc(x)", int64_type()), i32());  // int32 parameter and result
    EXPECT_EQ(type_of_expr("libdevice.popcll(x)", int64_type()), i32());
    EXPECT_EQ(type_of_expr("libdevice.brevll(x)", i32()), int64_type());
    EXPECT_EQ(type_of_expr("libdevice.float2int_rn(x)", f64()), i32());
    EXPECT_EQ(type_of_expr("libdevice.double2ull_rz(x)", f64()), int64_type());
    EXPECT_EQ(type_of_expr("libdevice.float2half_rn(x)", f32()), scalar_type(DType::Int16));
    EXPECT_EQ(type_of_expr("libdevice.isnand(x)", f64()), i32());
    EXPECT_EQ(type_of_expr("libdevice.ilogbf(x)", f32()), i32());
    EXPECT_EQ(type_of_expr("libdevice.llroundf(x)", f32()), int64_type());
    EXPECT_EQ(type_of_expr("libdevice.jnf(2, x)", f32()), f32());
    EXPECT_EQ(type_of_expr("libdevice.fadd_ru(x, x)", f64()), f32());
    EXPECT_EQ(type_of_expr("cuda.libdevice.fma_rz(x, x, x)", f32()), f64());
}

TEST(SemaLibdevice, OutParametersBecomeTuples) {
    EXPECT_EQ(type_of_expr("libdevice.sincosf(x)", f32()), tuple_type({f32(), f32()}));
    EXPECT_EQ(type_of_expr("libdevice.sincospi(x)", f32()), tuple_type({f64(), f64()}));
    EXPECT_EQ(type_of_expr("libdevice.frexpf(x)", f32()), tuple_type({f32(), i32()}));
    EXPECT_EQ(type_of_expr("libdevice.modf(x)", f64()), tuple_type({f64(), f64()}));
    EXPECT_EQ(type_of_expr("libdevice.remquof(x, x)", f32()), tuple_type({f32(), i32()}));
    EXPECT_EQ(type_of_expr("libdevice.fast_sincosf(x)", f32()), tuple_type({f32(), f32()}));
}

TEST(SemaLibdevice, MisuseIsATypingError) {
    EXPECT_NE(typing_error("libdevice.sinf(x, x)", f32()).find("cuda.libdevice.sinf() takes 1 argument (2 given)"), std::string::npos);
    EXPECT_NE(typing_error("libdevice.popc(x)", f32()).find("must be an integer (int32), not float32"), std::string::npos);
    EXPECT_NE(typing_error("libdevice.ldexpf(x, x)", f32()).find("argument 2 must be an integer"), std::string::npos);
    EXPECT_NE(typing_error("libdevice.sin(x)", scalar_type(DType::Complex128)).find("must be a real number"), std::string::npos);
    EXPECT_NE(typing_error("libdevice.nan(x)", f64()).find("not supported in kernels"), std::string::npos);  // __nv_nan: left out
}
