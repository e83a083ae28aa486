// simt.cuda.libdevice (numba.cuda.libdevice): CUDA's libdevice math library called by its names
// without the `__nv_` prefix. Each function has one fixed signature, numba's: arguments are
// converted to the parameter types, the result type is fixed, and libdevice's pointer
// out-parameters come back as a tuple (sincosf(x) -> (sin, cos), frexpf(x) -> (m, e)). On the
// cuda target a call is a call of `__nv_<name>` (declared in the generated code; NVRTC links
// libdevice itself); on the cpu target of `simt_ld_<name>` (prelude/libdevice_cpu.h), which has
// the same C signature; that prelude part is added to units that call libdevice.
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

// Type codes: f float32, d float64, h int16, i int32, l int64 (numba's libdevice types: unsigned
// libdevice parameters are typed as the signed integer of their width, as numba does).
struct LibdeviceFunction {
    std::string name;
    std::string result;  // C return type code ("" for void), then '|' and out-parameter codes
    std::string params;  // one code per parameter
};

// Families: each name in `names` with both the float64 (name) and float32 (name + "f") version.
struct Family {
    const char* params_d;  // parameters of the float64 version; 'F' is the family's float type
    const char* result_d;
    std::vector<const char*> names;
};

const Family kFamilies[] = {
    {"F", "F", {"acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos", "cosh", "cospi",
                "cyl_bessel_i0", "cyl_bessel_i1", "erf", "erfc", "erfcinv", "erfcx", "erfinv", "exp", "exp10",
                "exp2", "expm1", "fabs", "floor", "j0", "j1", "lgamma", "log", "log10", "log1p", "log2", "logb",
                "nearbyint", "normcdf", "normcdfinv", "rcbrt", "rint", "round", "rsqrt", "sin", "sinh", "sinpi",
                "sqrt", "tan", "tanh", "tgamma", "trunc", "y0", "y1"}},
    {"FF", "F", {"atan2", "copysign", "fdim", "fmax", "fmin", "fmod", "hypot", "nextafter", "pow", "remainder",
                 "rhypot"}},
    {"FFF", "F", {"fma", "norm3d", "rnorm3d"}},
    {"FFFF", "F", {"norm4d", "rnorm4d"}},
    {"Fi", "F", {"ldexp", "powi", "scalbn"}},
    {"iF", "F", {"jn", "yn"}},
    {"F", "i", {"ilogb"}},
    {"F", "l", {"llrint", "llround"}},
    {"F", "F|i", {"frexp"}},
    {"F", "F|F", {"modf"}},
    {"FF", "F|i", {"remquo"}},
    {"F", "|FF", {"sincos", "sincospi"}},
};

// The rest, spelled out: name, result, parameters.
const char* const kSingles[][3] = {
    // Classification (the float64 versions end in d; isfinite of float32 is finitef).
    {"isnand", "i", "d"}, {"isnanf", "i", "f"}, {"isinfd", "i", "d"}, {"isinff", "i", "f"},
    {"isfinited", "i", "d"}, {"finitef", "i", "f"}, {"signbitd", "i", "d"}, {"signbitf", "i", "f"},
    // Fast (approximate on the GPU) float32 functions.
    {"fast_cosf", "f", "f"}, {"fast_exp10f", "f", "f"}, {"fast_expf", "f", "f"}, {"fast_fdividef", "f", "ff"},
    {"fast_log10f", "f", "f"}, {"fast_log2f", "f", "f"}, {"fast_logf", "f", "f"}, {"fast_powf", "f", "ff"},
    {"fast_sincosf", "|ff", "f"}, {"fast_sinf", "f", "f"}, {"fast_tanf", "f", "f"},
    {"saturatef", "f", "f"}, {"frsqrt_rn", "f", "f"},
    // Integer functions.
    {"abs", "i", "i"}, {"llabs", "l", "l"}, {"brev", "i", "i"}, {"brevll", "l", "l"}, {"byte_perm", "i", "iii"},
    {"clz", "i", "i"}, {"clzll", "i", "l"}, {"ffs", "i", "i"}, {"ffsll", "i", "l"}, {"popc", "i", "i"},
    {"popcll", "i", "l"}, {"hadd", "i", "ii"}, {"rhadd", "i", "ii"}, {"uhadd", "i", "ii"}, {"urhadd", "i", "ii"},
    {"mulhi", "i", "ii"}, {"umulhi", "i", "ii"}, {"mul64hi", "l", "ll"}, {"umul64hi", "l", "ll"},
    {"mul24", "i", "ii"}, {"umul24", "i", "ii"}, {"sad", "i", "iii"}, {"usad", "i", "iii"},
    {"max", "i", "ii"}, {"min", "i", "ii"}, {"umax", "i", "ii"}, {"umin", "i", "ii"}, {"llmax", "l", "ll"},
    {"llmin", "l", "ll"}, {"ullmax", "l", "ll"}, {"ullmin", "l", "ll"},
    // Reinterpretation and halves of a double.
    {"float_as_int", "i", "f"}, {"int_as_float", "f", "i"}, {"double_as_longlong", "l", "d"},
    {"longlong_as_double", "d", "l"}, {"hiloint2double", "d", "ii"}, {"double2hiint", "i", "d"},
    {"double2loint", "i", "d"}, {"float2half_rn", "h", "f"}, {"half2float", "f", "h"},
    {"int2double_rn", "d", "i"}, {"uint2double_rn", "d", "i"},
};

// Rounding-mode families: each name gets the suffixes _rn, _rz, _ru, _rd.
const char* const kRounded[][3] = {
    {"fadd", "f", "ff"}, {"fsub", "f", "ff"}, {"fmul", "f", "ff"}, {"fdiv", "f", "ff"}, {"frcp", "f", "f"},
    {"fsqrt", "f", "f"}, {"fmaf", "f", "fff"}, {"dadd", "d", "dd"}, {"dsub", "d", "dd"}, {"dmul", "d", "dd"},
    {"ddiv", "d", "dd"}, {"drcp", "d", "d"}, {"dsqrt", "d", "d"}, {"fma", "d", "ddd"},
    {"float2int", "i", "f"}, {"float2uint", "i", "f"}, {"float2ll", "l", "f"}, {"float2ull", "l", "f"},
    {"double2int", "i", "d"}, {"double2uint", "i", "d"}, {"double2ll", "l", "d"}, {"double2ull", "l", "d"},
    {"double2float", "f", "d"}, {"int2float", "f", "i"}, {"uint2float", "f", "i"}, {"ll2float", "f", "l"},
    {"ull2float", "f", "l"}, {"ll2double", "d", "l"}, {"ull2double", "d", "l"},
};

const std::vector<LibdeviceFunction>& table() {
    static const std::vector<LibdeviceFunction> t = [] {
        std::vector<LibdeviceFunction> out;
        auto with = [](std::string s, char f) {
            for (char& c : s) if (c == 'F') c = f;
            return s;
        };
        for (const Family& fam : kFamilies)
            for (const char* n : fam.names) {
                out.push_back({n, with(fam.result_d, 'd'), with(fam.params_d, 'd')});
                out.push_back({std::string(n) + "f", with(fam.result_d, 'f'), with(fam.params_d, 'f')});
            }
        for (const auto& s : kSingles) out.push_back({s[0], s[1], s[2]});
        for (const auto& r : kRounded)
            for (const char* mode : {"_rn", "_rz", "_ru", "_rd"}) out.push_back({std::string(r[0]) + mode, r[1], r[2]});
        return out;
    }();
    return t;
}

const LibdeviceFunction& find(const std::string& canonical) {
    std::string name = canonical.substr(canonical.rfind('.') + 1);
    for (const LibdeviceFunction& f : table()) if (f.name == name) return f;
    return table()[0];  // only registered names reach here
}

const Type* code_type(char c) {
    switch (c) {
        case 'f': return scalar_type(DType::Float32);
        case 'd': return float64_type();
        case 'h': return scalar_type(DType::Int16);
        case 'i': return scalar_type(DType::Int32);
        default: return int64_type();
    }
}
const char* code_c_type(char c) {
    switch (c) {
        case 'f': return "float";
        case 'd': return "double";
        case 'h': return "int16_t";
        case 'i': return "int32_t";
        default: return "int64_t";
    }
}

std::string returned(const LibdeviceFunction& f) { return f.result.substr(0, f.result.find('|')); }
std::string outs(const LibdeviceFunction& f) {
    size_t bar = f.result.find('|');
    return bar == std::string::npos ? "" : f.result.substr(bar + 1);
}

const Type* infer_libdevice(Sema& s, Expr& call) {
    const std::string& canonical = call.resolved->builtin;
    const LibdeviceFunction& f = find(canonical);
    if (!call.keywords.empty()) s.fail(call.loc, canonical + "() takes positional arguments only");
    size_t n = call.children.size() - 1;
    if (n != f.params.size())
        s.fail(call.loc, canonical + "() takes " + std::to_string(f.params.size()) + " argument" +
                             (f.params.size() == 1 ? "" : "s") + " (" + std::to_string(n) + " given)");
    for (size_t i = 0; i < n; ++i) {
        const Expr& a = *call.children[i + 1];
        const Type* t = a.type;
        const Type* want = code_type(f.params[i]);
        if (!t->is_scalar() || t->is_complex())
            s.fail(a.loc, canonical + "() argument " + std::to_string(i + 1) + " must be a real number (" +
                              want->str() + "), not " + t->str());
        if (want->is_integer() && t->is_float())
            s.fail(a.loc, canonical + "() argument " + std::to_string(i + 1) + " must be an integer (" + want->str() +
                              "), not " + t->str());
    }
    std::string results = returned(f) + outs(f);
    if (results.size() == 1) return code_type(results[0]);
    std::vector<const Type*> elems;
    for (char c : results) elems.push_back(code_type(c));
    return tuple_type(elems);
}

// The C declaration of the function under `prefix` (libdevice's shape: out-parameters as pointers).
std::string declaration(const LibdeviceFunction& f, const std::string& prefix) {
    std::string r = returned(f), o = outs(f);
    std::string d = std::string(r.empty() ? "void" : code_c_type(r[0])) + " " + prefix + f.name + "(";
    for (size_t i = 0; i < f.params.size(); ++i) d += std::string(i ? ", " : "") + code_c_type(f.params[i]);
    for (size_t i = 0; i < o.size(); ++i) d += std::string(i || !f.params.empty() ? ", " : "") + code_c_type(o[i]) + "*";
    return d + ")";
}

std::string emit_libdevice(Emitter& em, const Expr& call) {
    const LibdeviceFunction& f = find(call.resolved->builtin);
    bool cuda = em.target() == Target::Cuda;
    std::string prefix = cuda ? "__nv_" : "simt_ld_";
    if (cuda) em.add_global("__nv_" + f.name, "extern \"C\" __device__ " + declaration(f, prefix) + ";");
    else em.use_libdevice();
    std::string args;
    for (size_t i = 0; i < f.params.size(); ++i)
        args += (i ? ", " : "") + em.expr_as(*call.children[i + 1], code_type(f.params[i]));
    std::string o = outs(f);
    if (o.empty()) return prefix + f.name + "(" + args + ")";
    // Out-parameters: a small wrapper returning the tuple, defined once per unit.
    std::string r = returned(f), wrapper = "simt_ld_tuple_" + f.name;
    std::string def = "template <class T> SIMT_DEVICE_FN T " + wrapper + "(";
    for (size_t i = 0; i < f.params.size(); ++i) def += std::string(i ? ", " : "") + code_c_type(f.params[i]) + " a" + std::to_string(i);
    def += ") {\n";
    std::string call_args, elems;
    for (size_t i = 0; i < f.params.size(); ++i) call_args += (i ? ", " : "") + std::string("a") + std::to_string(i);
    if (!r.empty()) { def += std::string("    ") + code_c_type(r[0]) + " r = "; elems = "r"; }
    else def += "    ";
    std::string locals;
    for (size_t i = 0; i < o.size(); ++i) {
        std::string name = "o" + std::to_string(i);
        locals += std::string("    ") + code_c_type(o[i]) + " " + name + ";\n";
        call_args += std::string(call_args.empty() ? "" : ", ") + "&" + name;
        elems += (elems.empty() ? "" : ", ") + name;
    }
    def = def.substr(0, def.find("{\n") + 2) + locals + def.substr(def.find("{\n") + 2);
    def += prefix + f.name + "(" + call_args + ");\n    return T{" + elems + "};\n}";
    em.add_global(wrapper, def);
    return wrapper + "<" + em.c_type(call.type) + ">(" + args + ")";
}

}  // namespace

void register_libdevice_builtins(BuiltinRegistry& r) {
    r.add_member("cuda", "libdevice", member_module("cuda.libdevice"));
    for (const LibdeviceFunction& f : table()) {
        std::string canonical = "cuda.libdevice." + f.name;
        r.add_function({canonical, infer_libdevice, emit_libdevice});
        r.add_member("cuda.libdevice", f.name, member_function(canonical));
    }
}

}  // namespace simt
