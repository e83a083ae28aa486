// numba.cuda.random's in-kernel functions (simt.cuda.random): xoroshiro128+ streams kept in a
// uint64 array of shape (n, 2), one row per stream (see prelude/random.h and
// python/simt/cuda/random.py).
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

struct RandomFunction {
    const char* name;
    const Type* (*result)();
    bool takes_seed;
};

const Type* uint64_result() { return scalar_type(DType::UInt64); }
const Type* float32_result() { return scalar_type(DType::Float32); }
const Type* float64_result() { return float64_type(); }
const Type* no_result() { return none_type(); }

const RandomFunction kRandom[] = {
    {"xoroshiro128p_next", uint64_result, false},
    {"xoroshiro128p_jump", no_result, false},
    {"xoroshiro128p_uniform_float32", float32_result, false},
    {"xoroshiro128p_uniform_float64", float64_result, false},
    {"xoroshiro128p_normal_float32", float32_result, false},
    {"xoroshiro128p_normal_float64", float64_result, false},
    {"init_xoroshiro128p_state", no_result, true},
};

const RandomFunction& find(const std::string& canonical) {
    std::string name = canonical.substr(canonical.rfind('.') + 1);
    for (const RandomFunction& f : kRandom) if (name == f.name) return f;
    return kRandom[0];
}

const Type* infer_random(Sema& s, Expr& call) {
    const std::string& canonical = call.resolved->builtin;
    const RandomFunction& f = find(canonical);
    std::vector<const char*> params = {"states", "index"};
    if (f.takes_seed) params.push_back("seed");
    std::vector<Expr*> a = s.bind(call, f.name, params, params.size());
    const Type* states = a[0]->type;
    if (!states->is_array() || states->dtype != DType::UInt64 || states->ndim != 2 || states->readonly)
        s.fail(a[0]->loc, std::string(f.name) + "() needs the states array from create_xoroshiro128p_states() "
                          "(uint64, shape (n, 2)), not " + states->str());
    for (size_t i = 1; i < a.size(); ++i)
        if (!a[i]->type->is_integer())
            s.fail(a[i]->loc, std::string(f.name) + "() argument '" + params[i] + "' must be an integer, not " + a[i]->type->str());
    return f.result();
}

std::string emit_random(Emitter& em, const Expr& call) {
    const RandomFunction& f = find(call.resolved->builtin);
    std::vector<const char*> params = {"states", "index"};
    if (f.takes_seed) params.push_back("seed");
    std::string error;
    std::vector<const Expr*> a = match_call_args(call, params, params.size(), error);
    std::string s = std::string("simt_") + f.name + "(" + em.expr(*a[0]) + ", " + em.expr_as(*a[1], int64_type());
    if (f.takes_seed) s += ", " + em.expr_as(*a[2], scalar_type(DType::UInt64));
    return s + ")";
}

}  // namespace

void register_random_builtins(BuiltinRegistry& r) {
    r.add_member("cuda", "random", member_module("cuda.random"));
    for (const RandomFunction& f : kRandom) {
        std::string canonical = std::string("cuda.random.") + f.name;
        r.add_function({canonical, infer_random, emit_random});
        r.add_member("cuda.random", f.name, member_function(canonical));
    }
}

}  // namespace simt
