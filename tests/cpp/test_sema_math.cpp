// Typing of math, cmath, complex, float16 and tuple expressions (numba's rules), and device
// functions compiled from declared signatures.
#include <gtest/gtest.h>
#include "sema/eager.h"
#include "sema/sema.h"
#include "support/error.h"
#include "test_helpers.h"
#include "types/signature.h"

using namespace simt;

namespace {

GlobalValue names(const std::string& name) {
    if (name == "cmath") return GlobalValue::module("cmath");
    return test::standard_names(name);
}

// The type of local `r` after analyzing `r = <expr>` with parameters x, y of the given types.
const Type* type_of_expr(const std::string& expr, const Type* x, const Type* y = nullptr) {
    std::string text = y ? "def k(x, y):\n    r = " + expr + "\n" : "def k(x):\n    r = " + expr + "\n";
    std::vector<const Type*> args = {x};
    if (y) args.push_back(y);
    auto u = analyze_kernel(test::source(text), names, args, CompileOptions{});
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

const Type* f16() { return scalar_type(DType::Float16); }
const Type* f32() { return scalar_type(DType::Float32); }
const Type* f64() { return float64_type(); }
const Type* c64() { return scalar_type(DType::Complex64); }
const Type* c128() { return scalar_type(DType::Complex128); }
const Type* i32() { return scalar_type(DType::Int32); }

}  // namespace

TEST(SemaMath, RealFunctionsFollowNumbasCudaTyping) {
    EXPECT_EQ(type_of_expr("math.sin(x)", f32()), f32());
    EXPECT_EQ(type_of_expr("math.sin(x)", f64()), f64());
    EXPECT_EQ(type_of_expr("math.sin(x)", int64_type()), f64());
    EXPECT_EQ(type_of_expr("math.sin(x)", i32()), f64());
    EXPECT_EQ(type_of_expr("math.sin(x)", f16()), f16());   // cuda_fp16 has hsin
    EXPECT_EQ(type_of_expr("math.tan(x)", f16()), f32());   // no half tan: float32
    EXPECT_EQ(type_of_expr("math.atan2(x, y)", f32(), f32()), f32());
    EXPECT_EQ(type_of_expr("math.atan2(x, y)", f32(), int64_type()), f64());
    EXPECT_EQ(type_of_expr("math.pow(x, y)", f32(), i32()), f32());
    EXPECT_EQ(type_of_expr("math.log(x, y)", f32(), f32()), f32());
    EXPECT_EQ(type_of_expr("math.floor(x)", f32()), int64_type());
    EXPECT_EQ(type_of_expr("math.isnan(x)", f32()), bool_type());
    EXPECT_EQ(type_of_expr("math.ldexp(x, y)", f32(), i32()), f32());
    EXPECT_EQ(type_of_expr("math.frexp(x)", f32()), tuple_type({f32(), i32()}));
    EXPECT_EQ(type_of_expr("math.frexp(x)", int64_type()), tuple_type({f64(), i32()}));
    EXPECT_EQ(type_of_expr("math.modf(x)", f64()), tuple_type({f64(), f64()}));
}

TEST(SemaMath, CmathFunctionsKeepTheComplexPrecision) {
    EXPECT_EQ(type_of_expr("cmath.sqrt(x)", c64()), c64());
    EXPECT_EQ(type_of_expr("cmath.sqrt(x)", c128()), c128());
    EXPECT_EQ(type_of_expr("cmath.sqrt(x)", f32()), c64());
    EXPECT_EQ(type_of_expr("cmath.sqrt(x)", int64_type()), c128());
    EXPECT_EQ(type_of_expr("cmath.log(x, y)", c64(), f32()), c64());
    EXPECT_EQ(type_of_expr("cmath.phase(x)", c64()), f32());
    EXPECT_EQ(type_of_expr("cmath.polar(x)", c128()), tuple_type({f64(), f64()}));
    EXPECT_EQ(type_of_expr("cmath.rect(x, y)", f32(), f32()), c64());
    EXPECT_EQ(type_of_expr("cmath.isinf(x)", c64()), bool_type());
}

TEST(SemaMath, ComplexAndHalfArithmetic) {
    EXPECT_EQ(type_of_expr("x * y", c64(), f32()), c64());
    EXPECT_EQ(type_of_expr("x * y", c64(), f64()), c128());
    EXPECT_EQ(type_of_expr("x ** y", c64(), int64_type()), c128());
    EXPECT_EQ(type_of_expr("x / y", c128(), int64_type()), c128());
    EXPECT_EQ(type_of_expr("abs(x)", c64()), f32());
    EXPECT_EQ(type_of_expr("x.conjugate()", c64()), c64());
    EXPECT_EQ(type_of_expr("x.conjugate()", f32()), f32());
    EXPECT_EQ(type_of_expr("x.imag", c128()), f64());
    EXPECT_EQ(type_of_expr("complex(x)", c64()), c128());
    EXPECT_EQ(type_of_expr("x + y", f16(), f16()), f16());
    EXPECT_EQ(type_of_expr("x + y", f16(), f32()), f32());
    EXPECT_EQ(type_of_expr("x + y", f16(), int64_type()), f64());
    EXPECT_EQ(type_of_expr("x == y", c64(), f64()), bool_type());
}

TEST(SemaMath, TupleSlicingAndConcatenation) {
    const Type* t = tuple_type({int64_type(), f32(), c128(), f64()});
    EXPECT_EQ(type_of_expr("x[1:3]", t), tuple_type({f32(), c128()}));
    EXPECT_EQ(type_of_expr("x[::-1]", t), tuple_type({f64(), c128(), f32(), int64_type()}));
    EXPECT_EQ(type_of_expr("x[-2:]", t), tuple_type({c128(), f64()}));
    EXPECT_EQ(type_of_expr("x[::2] + x[5:9]", t), tuple_type({int64_type(), c128()}));
    EXPECT_EQ(type_of_expr("len(x[1:])", t), int64_type());
    EXPECT_NE(typing_error("x[len(x) - x[0]:]", tuple_type({int64_type(), int64_type()})).find("constant integer bounds"),
              std::string::npos);
    EXPECT_NE(typing_error("x[::0]", t).find("slice step cannot be zero"), std::string::npos);
}

TEST(SemaMath, ErrorsNameTheFunctionAndSuggestCmath) {
    std::string e = typing_error("math.sin(x)", c128());
    EXPECT_NE(e.find("math.sin() needs a real number, not complex128 (use cmath"), std::string::npos) << e;
    EXPECT_NE(e.find("r = math.sin(x)"), std::string::npos) << e;  // the source line
    EXPECT_NE(typing_error("math.ldexp(x, 1.5)", f64()).find("exponent must be an integer"), std::string::npos);
    EXPECT_NE(typing_error("cmath.rect(x, 1.0)", c64()).find("needs a real number"), std::string::npos);
    EXPECT_NE(typing_error("x < 1j", c64()).find("cannot be ordered"), std::string::npos);
    EXPECT_NE(typing_error("math.hypot(x)", f64()).find("takes exactly 2 arguments"), std::string::npos);
}

TEST(SemaMath, DeviceFunctionSignaturesConvertArgumentsAndEnforceTheReturnType) {
    auto scale = std::make_shared<DeviceFunctionRef>();
    scale->key = "scale@1";
    scale->name = "scale";
    scale->source = test::source("def scale(a, b):\n    return a * b\n", "/tmp/scale.py");
    scale->resolve = test::standard_names;
    scale->signatures = {parse_signature("int32(float64, float64)"), parse_signature("float32(float32, float32)")};
    auto resolve = [scale](const std::string& n) {
        if (n == "scale") {
            GlobalValue g;
            g.kind = GlobalValue::Kind::DeviceFunction;
            g.device_function = scale;
            return g;
        }
        return names(n);
    };
    auto u = analyze_kernel(test::source("def k(x, y):\n    r = scale(x, y)\n    s = scale(1, 2)\n"), resolve, {f32(), f32()},
                            CompileOptions{});
    for (const auto& [n, t] : u->kernel->locals) {
        if (n == "r") EXPECT_EQ(t, f32());
        if (n == "s") EXPECT_EQ(t, i32());  // ints fit (float64, float64) better than (float32, float32)
    }
    try {
        analyze_kernel(test::source("def k(x, y):\n    r = scale(x, y)\n"), resolve, {c64(), f32()}, CompileOptions{});
        FAIL() << "complex does not convert to a declared real parameter";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("no signature matching argument types (complex64, float32)"), std::string::npos) << e.what();
    }
    // Checked at decoration: a body that returns nothing cannot satisfy a declared float32.
    try {
        check_device_signature("noret", test::source("def noret(a):\n    a + 1\n"), test::standard_names,
                               parse_signature("float32(float32)"), CompileOptions{});
        FAIL() << "missing return must be reported";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Typing);
        EXPECT_NE(std::string(e.what()).find("declared to return float32 but returns nothing"), std::string::npos) << e.what();
    }
    try {
        check_device_signature("two", test::source("def two(a, b):\n    return a\n"), test::standard_names,
                               parse_signature("float32(float32)"), CompileOptions{});
        FAIL() << "arity mismatch must be reported";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Type);
    }
}
