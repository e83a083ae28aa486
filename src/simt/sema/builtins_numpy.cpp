// NumPy names usable in kernels: scalar types (np.float32(x) casts, dtype arguments), the
// scalar math functions that mirror `math`, and constants; simt's and simt.compat's numba's.
#include <cmath>
#include "sema/builtins.h"

namespace simt {

void register_numpy_builtins(BuiltinRegistry& r) {
    auto add_dtype = [&r](const char* module, const std::string& name, DType d) {
        ModuleMember m{ModuleMember::Kind::DTypeObj, "", DType::Int64, {}};
        m.dtype = d;
        r.add_member(module, name, m);
    };
    for (int i = 0; i < kNumDTypes; ++i) add_dtype("numpy", dtype_name(DType(i)), DType(i));
    for (auto [alias, d] : {std::pair{"bool_", DType::Bool}, {"double", DType::Float64}, {"single", DType::Float32},
                            {"half", DType::Float16}, {"intp", DType::Int64}, {"uintp", DType::UInt64},
                            {"int_", DType::Int64}, {"float_", DType::Float64}, {"complex_", DType::Complex128}})
        add_dtype("numpy", alias, d);
    // Scalar ufuncs that have a math-module twin.
    const std::pair<const char*, const char*> kAliases[] = {
        {"sin", "math.sin"}, {"cos", "math.cos"}, {"tan", "math.tan"}, {"arcsin", "math.asin"},
        {"arccos", "math.acos"}, {"arctan", "math.atan"}, {"arctan2", "math.atan2"}, {"sinh", "math.sinh"},
        {"cosh", "math.cosh"}, {"tanh", "math.tanh"}, {"arcsinh", "math.asinh"}, {"arccosh", "math.acosh"},
        {"arctanh", "math.atanh"}, {"exp", "math.exp"}, {"expm1", "math.expm1"}, {"exp2", "math.exp2"},
        {"log", "math.log"}, {"log2", "math.log2"}, {"log10", "math.log10"}, {"log1p", "math.log1p"},
        {"sqrt", "math.sqrt"}, {"cbrt", "math.cbrt"}, {"fabs", "math.fabs"}, {"hypot", "math.hypot"},
        {"isnan", "math.isnan"}, {"isinf", "math.isinf"}, {"isfinite", "math.isfinite"},
        {"copysign", "math.copysign"}, {"fmod", "math.fmod"}, {"power", "pow"},
        {"abs", "abs"}, {"absolute", "abs"}, {"minimum", "min"}, {"maximum", "max"},
        {"deg2rad", "math.radians"}, {"rad2deg", "math.degrees"}, {"radians", "math.radians"}, {"degrees", "math.degrees"},
    };
    for (const auto& [name, target] : kAliases) r.add_member("numpy", name, member_function(target));
    // `import simt` gives simt.cuda and simt's dtype names (simt.float32 is np.float32).
    r.add_member("simt", "cuda", member_module("cuda"));
    for (int i = 0; i < kNumDTypes; ++i) {
        ModuleMember m{ModuleMember::Kind::DTypeObj, "", DType(i), {}};
        r.add_member("simt", dtype_name(DType(i)), m);
    }
    // simt.compat's `numba` (python/simt/compat/_numba.py): numba.cuda, and numba's type names as casts.
    r.add_member("numba", "cuda", member_module("cuda"));
    for (int i = 0; i < kNumDTypes; ++i) add_dtype("numba", dtype_name(DType(i)), DType(i));
    for (auto [alias, d] : {std::pair{"boolean", DType::Bool}, {"bool_", DType::Bool}, {"double", DType::Float64},
                            {"single", DType::Float32}, {"half", DType::Float16}, {"intp", DType::Int64},
                            {"uintp", DType::UInt64}, {"int_", DType::Int64}, {"float_", DType::Float64},
                            {"byte", DType::UInt8}, {"intc", DType::Int32}, {"uintc", DType::UInt32},
                            {"f2", DType::Float16}, {"f4", DType::Float32}, {"f8", DType::Float64},
                            {"c8", DType::Complex64}, {"c16", DType::Complex128}, {"i1", DType::Int8},
                            {"i2", DType::Int16}, {"i4", DType::Int32}, {"i8", DType::Int64}, {"u1", DType::UInt8},
                            {"u2", DType::UInt16}, {"u4", DType::UInt32}, {"u8", DType::UInt64}})
        add_dtype("numba", alias, d);
    r.add_member("numba", "types", member_module("numba"));  // numba.types.float32: the same names
    r.add_member("numpy", "pi", member_constant(ConstValue::real(M_PI)));
    r.add_member("numpy", "e", member_constant(ConstValue::real(M_E)));
    r.add_member("numpy", "inf", member_constant(ConstValue::real(HUGE_VAL)));
    r.add_member("numpy", "nan", member_constant(ConstValue::real(std::nan(""))));
}

}  // namespace simt
