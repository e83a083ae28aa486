// numba.cuda.fp16: float16 intrinsics (hadd, hmul, hfma, hsin, heq, hmax, ...). Arguments convert
// to float16; each result is computed in float (hfma: in double) and rounded once to float16:
// that gives cuda_fp16's correctly rounded results (float carries 2 * 11 + 2 bits, enough for
// + - * / and sqrt of halves to round correctly through it).
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

enum class Kind { Arith, Unary, Compare };

struct Fp16Function {
    const char* name;
    int arity;
    Kind kind;
    const char* code;  // Arith/Compare: the operator or function; Unary: the float function
};

const Fp16Function kFp16[] = {
    {"hadd", 2, Kind::Arith, "+"},      {"hsub", 2, Kind::Arith, "-"},      {"hmul", 2, Kind::Arith, "*"},
    {"hdiv", 2, Kind::Arith, "/"},      {"hmax", 2, Kind::Arith, "fmaxf"},  {"hmin", 2, Kind::Arith, "fminf"},
    {"hfma", 3, Kind::Arith, "simt_hfma_exact"},   {"hneg", 1, Kind::Unary, "-"},      {"habs", 1, Kind::Unary, "fabsf"},
    {"hsin", 1, Kind::Unary, "sinf"},   {"hcos", 1, Kind::Unary, "cosf"},   {"hlog", 1, Kind::Unary, "logf"},
    {"hlog10", 1, Kind::Unary, "log10f"}, {"hlog2", 1, Kind::Unary, "log2f"}, {"hexp", 1, Kind::Unary, "expf"},
    {"hexp10", 1, Kind::Unary, "simt_exp10f"}, {"hexp2", 1, Kind::Unary, "exp2f"}, {"hsqrt", 1, Kind::Unary, "sqrtf"},
    {"hrsqrt", 1, Kind::Unary, "simt_rsqrtf"}, {"hrcp", 1, Kind::Unary, "simt_rcpf"}, {"hceil", 1, Kind::Unary, "ceilf"},
    {"hfloor", 1, Kind::Unary, "floorf"}, {"htrunc", 1, Kind::Unary, "truncf"}, {"hrint", 1, Kind::Unary, "rintf"},
    {"heq", 2, Kind::Compare, "=="},    {"hne", 2, Kind::Compare, "!="},    {"hgt", 2, Kind::Compare, ">"},
    {"hge", 2, Kind::Compare, ">="},    {"hlt", 2, Kind::Compare, "<"},     {"hle", 2, Kind::Compare, "<="},
};

const Fp16Function& find(const std::string& canonical) {
    std::string name = canonical.substr(canonical.rfind('.') + 1);
    for (const Fp16Function& f : kFp16) if (name == f.name) return f;
    return kFp16[0];
}

const Type* infer_fp16(Sema& s, Expr& call) {
    const Fp16Function& f = find(call.resolved->builtin);
    static const std::vector<const char*> kParams = {"a", "b", "c"};
    std::vector<Expr*> a = s.bind(call, std::string("cuda.fp16.") + f.name,
                                  std::vector<const char*>(kParams.begin(), kParams.begin() + f.arity), size_t(f.arity));
    for (Expr* e : a)
        if (!e->type->is_scalar() || e->type->is_complex())
            s.fail(e->loc, std::string("cuda.fp16.") + f.name + "() needs real numbers, not " + e->type->str());
    return f.kind == Kind::Compare ? bool_type() : scalar_type(DType::Float16);
}

std::string emit_fp16(Emitter& em, const Expr& call) {
    const Fp16Function& f = find(call.resolved->builtin);
    const Type* half = scalar_type(DType::Float16);
    std::vector<std::string> args;  // each argument rounded to float16, then widened to float
    for (size_t i = 1; i < call.children.size(); ++i) args.push_back("(float)" + em.expr_as(*call.children[i], half));
    for (const Keyword& k : call.keywords) args.push_back("(float)" + em.expr_as(*k.value, half));
    std::string code = f.code;
    if (f.kind == Kind::Compare) return "(" + args[0] + " " + code + " " + args[1] + ")";
    std::string value;
    if (f.kind == Kind::Unary) value = code == "-" ? "-" + args[0] : code + "(" + args[0] + ")";
    else if (code.size() == 1) value = args[0] + " " + code + " " + args[1];
    else {
        value = code + "(";
        for (size_t i = 0; i < args.size(); ++i) value += (i ? ", " : "") + args[i];
        value += ")";
    }
    return "simt_half(" + value + ")";
}

}  // namespace

void register_fp16_builtins(BuiltinRegistry& r) {
    r.add_member("cuda", "fp16", member_module("cuda.fp16"));
    for (const Fp16Function& f : kFp16) {
        std::string canonical = std::string("cuda.fp16.") + f.name;
        r.add_function({canonical, infer_fp16, emit_fp16});
        r.add_member("cuda.fp16", f.name, member_function(canonical));
    }
}

}  // namespace simt
