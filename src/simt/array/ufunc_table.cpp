// The ufunc definitions: for each NumPy ufunc simt provides, its loops in NumPy's search
// order and the kernel-language statements one element is computed with. Inputs are x0, x1,
// x2 (already converted to the loop's type, spelled {T}); the result is y0; temporaries are
// named t_* (simt.fuse renames these names when it inlines a body).
#include <map>
#include <set>
#include "array/ufunc.h"

namespace simt {

namespace {

DType from_code(char c) {
    switch (c) {
        case '?': return DType::Bool;
        case 'b': return DType::Int8;
        case 'h': return DType::Int16;
        case 'i': return DType::Int32;
        case 'q': return DType::Int64;
        case 'B': return DType::UInt8;
        case 'H': return DType::UInt16;
        case 'I': return DType::UInt32;
        case 'Q': return DType::UInt64;
        case 'e': return DType::Float16;
        case 'f': return DType::Float32;
        case 'd': return DType::Float64;
        case 'F': return DType::Complex64;
        default: return DType::Complex128;  // 'D'
    }
}

// Type groups in NumPy's loop order (signed and unsigned interleaved by size).
const char* const INTS = "bBhHiIqQ";
const char* const FLOATS = "efd";
const char* const COMPLEX = "FD";

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
    return s;
}

class Definer {
public:
    explicit Definer(Ufunc* u) : u_(u) {}
    // Loops whose inputs and output all have one type, for each type code in `types`.
    Definer& same(const std::string& types, const std::string& body) {
        for (char c : types) add(std::string(size_t(u_->nin), c), c, body);
        return *this;
    }
    // Loops with inputs of one type and a bool result.
    Definer& to_bool(const std::string& types, const std::string& body) {
        for (char c : types) add(std::string(size_t(u_->nin), c), '?', body);
        return *this;
    }
    // One loop with explicit types: "qQ->?".
    Definer& sig(const std::string& signature, const std::string& body) {
        size_t arrow = signature.find("->");
        add(signature.substr(0, arrow), signature[arrow + 2], body);
        return *this;
    }
    Definer& bool_error(const char* message) {
        u_->all_bool_error = message;
        return *this;
    }
    Definer& doc(const char* text) {
        u_->doc = text;
        return *this;
    }

private:
    void add(const std::string& ins, char out, const std::string& body) {
        UfuncLoop loop;
        for (int k = 0; k < u_->nin; ++k) loop.in[k] = from_code(ins[size_t(k)]);
        loop.out = from_code(out);
        std::string text = replace_all(replace_all(body, "{T}", dtype_name(loop.in[u_->nin - 1])), "{R}", dtype_name(loop.out));
        loop.kernel.in_types.assign(loop.in, loop.in + u_->nin);
        for (int k = 0; k < u_->nin; ++k) loop.kernel.in_uncast.push_back((u_->any_dtype_inputs >> k) & 1);
        loop.kernel.out_types = {loop.out};
        loop.kernel.body = text;
        u_->loops.push_back(std::move(loop));
    }
    Ufunc* u_;
};

struct Table {
    std::vector<Ufunc*> all;
    std::map<std::string, Ufunc*> by_name;

    Definer define(const std::string& name, int nin, uint8_t any_dtype_inputs = 0) {
        auto* u = new Ufunc();  // lives for the process, like NumPy's ufunc objects
        u->name = name;
        u->nin = nin;
        u->any_dtype_inputs = any_dtype_inputs;
        u->family = std::make_unique<ElementwiseFamily>(name);
        size_t combinations = 1;
        for (int k = 0; k < nin; ++k) combinations *= kNumDTypes;
        u->loop_cache.reset(new std::atomic<int16_t>[combinations]);
        for (size_t i = 0; i < combinations; ++i) u->loop_cache[i].store(-2, std::memory_order_relaxed);
        all.push_back(u);
        by_name[name] = u;
        return Definer(u);
    }
    void alias(const std::string& name, const std::string& target) { by_name[name] = by_name.at(target); }
};

std::string cat(std::initializer_list<const char*> parts) {
    std::string s;
    for (const char* p : parts) s += p;
    return s;
}

void define_arithmetic(Table& t) {
    const std::string num = cat({INTS, FLOATS, COMPLEX});
    t.define("add", 2).same("?", "y0 = x0 or x1").same(num, "y0 = x0 + x1").doc("Add arguments elementwise.");
    t.define("subtract", 2).same(num, "y0 = x0 - x1").doc("Subtract arguments elementwise.")
        .bool_error("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, "
                    "or the logical_xor function instead.");
    t.define("multiply", 2).same("?", "y0 = x0 and x1").same(num, "y0 = x0 * x1").doc("Multiply arguments elementwise.");
    Definer div = t.define("true_divide", 2);
    div.sig("?" "?->d", "y0 = float64(x0) / float64(x1)");
    for (char c : std::string(INTS)) div.sig(std::string(2, c) + "->d", "y0 = float64(x0) / float64(x1)");
    div.same(cat({FLOATS, COMPLEX}), "y0 = x0 / x1").doc("Divide arguments elementwise (true division).");
    t.by_name["true_divide"]->divides = true;  // int8 array / 300 is float64, as NumPy gives (no overflow)
    t.alias("divide", "true_divide");
    // Python's floor division and modulo; float16 computes in float32.
    t.define("floor_divide", 2).same(INTS, "y0 = x0 // x1").sig("ee->e", "y0 = float32(x0) // float32(x1)")
        .same("fd", "y0 = x0 // x1").doc("Largest integer smaller or equal to the division of the inputs.");
    t.define("remainder", 2).same(INTS, "y0 = x0 % x1").sig("ee->e", "y0 = float32(x0) % float32(x1)")
        .same("fd", "y0 = x0 % x1").doc("Remainder of division with the sign of the divisor (Python's %).");
    t.alias("mod", "remainder");
    t.define("fmod", 2)
        .same(INTS, "t_r = x0 % x1\ny0 = t_r - x1 if (t_r != 0 and ((x0 < 0) != (x1 < 0))) else t_r")
        .same(FLOATS, "y0 = math.fmod(x0, x1)").doc("Remainder of division with the sign of the dividend (C's fmod).");
    // Complex powers as exp(b log a), in complex128; 0 ** b is 1, 0 or nan as in NumPy.
    const char* complex_power =
        "t_a = complex128(x0)\nt_b = complex128(x1)\n"
        "t_lr = math.log(abs(t_a))\nt_th = math.atan2(t_a.imag, t_a.real)\n"
        "t_wr = t_b.real * t_lr - t_b.imag * t_th\nt_wi = t_b.real * t_th + t_b.imag * t_lr\nt_m = math.exp(t_wr)\n"
        "t_zero = complex(1.0, 0.0) if t_b == 0 else (complex(0.0, 0.0) if t_b.real > 0 else complex(math.nan, math.nan))\n"
        "y0 = complex(t_m * math.cos(t_wi), t_m * math.sin(t_wi)) if t_a != 0 else t_zero";
    t.define("power", 2).same(INTS, "y0 = x0 ** x1").sig("ee->e", "y0 = float32(x0) ** float32(x1)")
        .same("fd", "y0 = x0 ** x1").same(COMPLEX, complex_power)
        .doc("First array elements raised to powers from the second, elementwise.");
    t.define("float_power", 2).sig("dd->d", "y0 = x0 ** x1").doc("Powers computed in float64.");
    t.define("negative", 1).same(num, "y0 = -x0").doc("Numerical negative, elementwise.")
        .bool_error("The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the "
                    "logical_not function instead.");
    t.define("positive", 1).same(num, "y0 = +x0").doc("Numerical positive, elementwise.")
        .bool_error("ufunc 'positive' did not contain a loop with signature matching types bool");
    t.define("absolute", 1).same("?", "y0 = x0").same(INTS, "y0 = abs(x0)").same(FLOATS, "y0 = math.fabs(x0)")
        .sig("F->f", "y0 = abs(x0)").sig("D->d", "y0 = abs(x0)").doc("Absolute value, elementwise.");
    t.alias("abs", "absolute");
    t.define("fabs", 1).same(FLOATS, "y0 = math.fabs(x0)").doc("Absolute value of real numbers, elementwise.");
    t.define("square", 1).same(num, "y0 = x0 * x0").doc("The elementwise square of the input.");
    t.define("reciprocal", 1).same(INTS, "y0 = x0 if (x0 == 1 or x0 == -1) else {T}(0)")
        .same(cat({FLOATS, COMPLEX}), "y0 = {T}(1) / x0")
        .doc("The reciprocal of the argument, elementwise.");
    t.define("sign", 1).same(INTS, "y0 = (x0 > 0) - (x0 < 0)")
        .same(FLOATS, "y0 = {T}(1) if x0 > 0 else ({T}(-1) if x0 < 0 else ({T}(0) if x0 == 0 else x0))")
        .same(COMPLEX, "t_m = abs(x0)\ny0 = x0 / {T}(t_m) if t_m != 0 else {T}(0)").doc("An elementwise indication of the sign.")
        .bool_error("ufunc 'sign' did not contain a loop with signature matching types bool");
    t.define("conjugate", 1).same(cat({INTS, FLOATS}), "y0 = x0").same(COMPLEX, "y0 = complex(x0.real, -x0.imag)")
        .doc("The complex conjugate, elementwise.");
    t.alias("conj", "conjugate");
}

void define_extrema(Table& t) {
    // maximum/minimum propagate NaNs (x0 != x0 keeps a NaN x0; a NaN x1 loses every test);
    // fmax/fmin ignore them (a NaN x1 is never chosen). Complex numbers order lexicographically.
    struct Extremum { const char* name; bool greater; bool propagate; const char* doc; };
    const Extremum kinds[] = {{"maximum", true, true, "Elementwise maximum (NaNs propagate)."},
                              {"minimum", false, true, "Elementwise minimum (NaNs propagate)."},
                              {"fmax", true, false, "Elementwise maximum (NaNs ignored)."},
                              {"fmin", false, false, "Elementwise minimum (NaNs ignored)."}};
    for (const Extremum& k : kinds) {
        std::string ge = k.greater ? " >= " : " <= ", gt = k.greater ? " > " : " < ";
        std::string nan = k.propagate ? "x0 != x0" : "x1 != x1";
        t.define(k.name, 2).same("?", k.greater ? "y0 = x0 or x1" : "y0 = x0 and x1")
            .same(INTS, "y0 = x0 if x0" + ge + "x1 else x1")
            .same(FLOATS, "y0 = x0 if (x0" + ge + "x1 or " + nan + ") else x1")
            .same(COMPLEX, "y0 = x0 if (x0.real" + gt + "x1.real or (x0.real == x1.real and x0.imag" + ge + "x1.imag) or " +
                               nan + ") else x1")
            .doc(k.doc);
    }
    // clip(a, lo, hi) = minimum(maximum(a, lo), hi), NaN anywhere giving NaN.
    t.define("clip", 3).same(cat({"?", INTS, FLOATS}), "t_lo = x0 if (x0 >= x1 or x0 != x0) else x1\ny0 = t_lo if (t_lo <= x2 or t_lo != t_lo) else x2")
        .doc("Clip (limit) the values in an array.");
    std::string all = cat({"?", INTS, FLOATS, COMPLEX});
    t.define("where", 3, 1).same(all, "y0 = x1 if x0 != 0 else x2").doc("Elements chosen from x or y depending on condition.");
}

void define_bitwise_and_logic(Table& t) {
    const std::string ints = cat({"?", INTS});
    t.define("bitwise_and", 2).same(ints, "y0 = x0 & x1").doc("Bitwise AND, elementwise.");
    t.define("bitwise_or", 2).same(ints, "y0 = x0 | x1").doc("Bitwise OR, elementwise.");
    t.define("bitwise_xor", 2).same(ints, "y0 = x0 ^ x1").doc("Bitwise XOR, elementwise.");
    t.define("invert", 1).same("?", "y0 = not x0").same(INTS, "y0 = ~x0").doc("Bitwise NOT, elementwise.");
    t.alias("bitwise_not", "invert");
    t.define("left_shift", 2).same(INTS, "y0 = x0 << x1").doc("Shift the bits of an integer to the left.");
    t.define("right_shift", 2).same(INTS, "y0 = x0 >> x1").doc("Shift the bits of an integer to the right.");
    const std::string all = cat({"?", INTS, FLOATS, COMPLEX});
    t.define("logical_and", 2).to_bool(all, "y0 = (x0 != 0) and (x1 != 0)").doc("Truth value of x1 AND x2, elementwise.");
    t.define("logical_or", 2).to_bool(all, "y0 = (x0 != 0) or (x1 != 0)").doc("Truth value of x1 OR x2, elementwise.");
    t.define("logical_xor", 2).to_bool(all, "y0 = (x0 != 0) != (x1 != 0)").doc("Truth value of x1 XOR x2, elementwise.");
    t.define("logical_not", 1).to_bool(all, "y0 = x0 == 0").doc("Truth value of NOT x, elementwise.");
}

void define_comparisons(Table& t) {
    // Comparisons between int64 and uint64 are exact (NumPy's mixed loops).
    struct Cmp { const char* name; const char* op; const char* signed_unsigned; const char* unsigned_signed; const char* complex; };
    const Cmp cmps[] = {
        {"less", "<", "y0 = x0 < 0 or uint64(x0) < x1", "y0 = x1 >= 0 and x0 < uint64(x1)",
         "y0 = x0.real < x1.real or (x0.real == x1.real and x0.imag < x1.imag)"},
        {"less_equal", "<=", "y0 = x0 < 0 or uint64(x0) <= x1", "y0 = x1 >= 0 and x0 <= uint64(x1)",
         "y0 = x0.real < x1.real or (x0.real == x1.real and x0.imag <= x1.imag)"},
        {"greater", ">", "y0 = x0 >= 0 and uint64(x0) > x1", "y0 = x1 < 0 or x0 > uint64(x1)",
         "y0 = x0.real > x1.real or (x0.real == x1.real and x0.imag > x1.imag)"},
        {"greater_equal", ">=", "y0 = x0 >= 0 and uint64(x0) >= x1", "y0 = x1 < 0 or x0 >= uint64(x1)",
         "y0 = x0.real > x1.real or (x0.real == x1.real and x0.imag >= x1.imag)"},
        {"equal", "==", "y0 = x0 >= 0 and uint64(x0) == x1", "y0 = x1 >= 0 and x0 == uint64(x1)", "y0 = x0 == x1"},
        {"not_equal", "!=", "y0 = x0 < 0 or uint64(x0) != x1", "y0 = x1 < 0 or x0 != uint64(x1)", "y0 = x0 != x1"},
    };
    for (const Cmp& c : cmps) {
        std::string body = std::string("y0 = x0 ") + c.op + " x1";
        Definer d = t.define(c.name, 2);
        d.to_bool(cat({"?", INTS}), body.c_str()).sig("qQ->?", c.signed_unsigned).sig("Qq->?", c.unsigned_signed)
            .to_bool(FLOATS, body.c_str()).to_bool(COMPLEX, c.complex).doc("Elementwise comparison.");
        t.by_name[c.name]->comparison = true;
    }
}

void define_floating(Table& t) {
    const char* const unary[][2] = {
        {"sqrt", "sqrt"}, {"cbrt", "cbrt"}, {"exp", "exp"}, {"exp2", "exp2"}, {"expm1", "expm1"}, {"log", "log"},
        {"log2", "log2"}, {"log10", "log10"}, {"log1p", "log1p"}, {"sin", "sin"}, {"cos", "cos"}, {"tan", "tan"},
        {"arcsin", "asin"}, {"arccos", "acos"}, {"arctan", "atan"}, {"sinh", "sinh"}, {"cosh", "cosh"},
        {"tanh", "tanh"}, {"arcsinh", "asinh"}, {"arccosh", "acosh"}, {"arctanh", "atanh"},
        {"deg2rad", "radians"}, {"rad2deg", "degrees"},
    };
    // Those cmath also has take complex arguments (principal branches, as NumPy's).
    const std::set<std::string> in_cmath = {"sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
                                            "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"};
    for (const auto& f : unary) {
        std::string body = std::string("y0 = math.") + f[1] + "(x0)";
        Definer d = t.define(f[0], 1);
        d.same(FLOATS, body.c_str());
        if (in_cmath.count(f[1])) d.same(COMPLEX, (std::string("y0 = cmath.") + f[1] + "(x0)").c_str());
        d.doc("Elementwise math function.");
    }
    t.alias("radians", "deg2rad");
    t.alias("degrees", "rad2deg");
    for (const char* name : {"floor", "ceil", "trunc"}) {
        std::string body = std::string("y0 = ew.") + name + "(x0)";
        t.define(name, 1).same(cat({"?", INTS}), "y0 = x0").same(FLOATS, body.c_str()).doc("Elementwise rounding.");
    }
    t.define("rint", 1).same(FLOATS, "y0 = ew.rint(x0)").doc("Round to the nearest integer (halves to even).");
    t.define("arctan2", 2).same(FLOATS, "y0 = math.atan2(x0, x1)").doc("Elementwise arc tangent of x1/x2.");
    t.define("hypot", 2).same(FLOATS, "y0 = math.hypot(x0, x1)").doc("Elementwise hypotenuse.");
    t.define("copysign", 2).same(FLOATS, "y0 = math.copysign(x0, x1)").doc("x1 with the sign of x2, elementwise.");
    // float16 computes in float32, as NumPy does: near log(2**-k) the half-precision steps cancel.
    t.define("logaddexp", 2)
        .sig("ee->e", "t_a = float32(x0)\nt_b = float32(x1)\n"
                      "y0 = t_a + float32(0.6931471805599453) if t_a == t_b else max(t_a, t_b) + math.log1p(math.exp(-abs(t_a - t_b)))")
        .same("fd", "y0 = x0 + {T}(0.6931471805599453) if x0 == x1 else max(x0, x1) + math.log1p(math.exp(-abs(x0 - x1)))")
        .doc("Logarithm of the sum of exponentiations of the inputs.");
    t.define("heaviside", 2)
        .same(FLOATS, "y0 = x1 if x0 == 0 else ({T}(0) if x0 < 0 else ({T}(1) if x0 > 0 else x0))")
        .doc("Heaviside step function.");
    t.define("isnan", 1).to_bool(cat({"?", INTS}), "y0 = False").to_bool(cat({FLOATS, COMPLEX}), "y0 = x0 != x0")
        .doc("Test elementwise for NaN.");
    t.define("isinf", 1).to_bool(cat({"?", INTS}), "y0 = False").to_bool(FLOATS, "y0 = math.isinf(x0)")
        .to_bool(COMPLEX, "y0 = math.isinf(x0.real) or math.isinf(x0.imag)").doc("Test elementwise for infinity.");
    t.define("isfinite", 1).to_bool(cat({"?", INTS}), "y0 = True").to_bool(FLOATS, "y0 = math.isfinite(x0)")
        .to_bool(COMPLEX, "y0 = math.isfinite(x0.real) and math.isfinite(x0.imag)").doc("Test elementwise for finiteness.");
    t.define("signbit", 1).to_bool(FLOATS, "y0 = math.copysign(1.0, x0) < 0").doc("True where the sign bit is set.");
}

void define_integer_math(Table& t) {
    // Euclid's algorithm on magnitudes (NumPy's gcd is never negative; lcm is |a| / gcd * |b|,
    // wrapping in the loop's type as NumPy's does). No bool loops, as in NumPy.
    const char* gcd = "t_a = abs(x0)\nt_b = abs(x1)\nwhile t_b != 0:\n    t_r = t_a % t_b\n    t_a = t_b\n    t_b = t_r\n";
    t.define("gcd", 2).same(INTS, std::string(gcd) + "y0 = t_a")
        .bool_error("ufunc 'gcd' did not contain a loop with signature matching types (bool, bool)")
        .doc("Greatest common divisor of |x1| and |x2|, elementwise.");
    t.define("lcm", 2).same(INTS, std::string(gcd) + "y0 = {T}(0) if t_a == 0 else abs(x0) // t_a * abs(x1)")
        .bool_error("ufunc 'lcm' did not contain a loop with signature matching types (bool, bool)")
        .doc("Lowest common multiple of |x1| and |x2|, elementwise.");
    // NumPy's loops: a float mantissa with an int32 or int64 exponent (int64 ones clamped to the
    // int range C's ldexp takes; beyond it every finite result is 0 or inf anyway).
    const char* clamped = "y0 = math.ldexp(x0, max(min(x1, 2147483647), -2147483648))";
    t.define("ldexp", 2).sig("ei->e", "y0 = math.ldexp(x0, x1)").sig("fi->f", "y0 = math.ldexp(x0, x1)")
        .sig("eq->e", clamped).sig("fq->f", clamped).sig("di->d", "y0 = math.ldexp(x0, x1)").sig("dq->d", clamped)
        .doc("x1 * 2**x2, elementwise.");
    t.by_name["ldexp"]->int_inputs = 2;  // ldexp(float32 array, 3) stays float32, as NumPy's
}

const Table& table() {
    static const Table* t = [] {
        auto* table = new Table();
        define_arithmetic(*table);
        define_extrema(*table);
        define_bitwise_and_logic(*table);
        define_comparisons(*table);
        define_floating(*table);
        define_integer_math(*table);
        return table;
    }();
    return *t;
}

}  // namespace

const std::vector<Ufunc*>& all_ufuncs() { return table().all; }

Ufunc* find_ufunc(const std::string& name) {
    const auto& m = table().by_name;
    auto it = m.find(name);
    return it == m.end() ? nullptr : it->second;
}

}  // namespace simt
