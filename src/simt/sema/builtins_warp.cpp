// Warp-level operations in kernels, typed as numba.cuda types them: shfl_sync, shfl_up_sync,
// shfl_down_sync, shfl_xor_sync, all_sync, any_sync, eq_sync, ballot_sync, match_any_sync,
// match_all_sync, activemask and lanemask_lt.
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

std::string short_name(const Expr& call) {
    const std::string& name = call.resolved->builtin;
    return name.substr(name.find('.') + 1);
}

void check_mask(Sema& s, Expr& mask, const std::string& fname) {
    if (!mask.type->is_integer()) s.fail(mask.loc, fname + "() mask must be an integer, not " + mask.type->str());
}

// Shuffles and matches move 32- and 64-bit integers and floats (numba accepts int32, int64,
// float32, float64; their unsigned twins are accepted too).
void check_warp_value(Sema& s, Expr& value, const std::string& fname) {
    const Type* t = value.type;
    bool ok = t->is_scalar() && (t->dtype == DType::Int32 || t->dtype == DType::Int64 || t->dtype == DType::UInt32 ||
                                 t->dtype == DType::UInt64 || t->dtype == DType::Float32 || t->dtype == DType::Float64);
    if (!ok) s.fail(value.loc, fname + "() only moves 32- and 64-bit integers and floats, not " + t->str());
}

std::string mask_code(Emitter& em, const Expr& call) { return "(uint32_t)(" + em.expr(*call.children[1]) + ")"; }

const Type* infer_shfl(Sema& s, Expr& call) {
    const std::string& fname = call.resolved->builtin;
    const char* third = fname == "cuda.shfl_sync" ? "src_lane" : fname == "cuda.shfl_xor_sync" ? "lane_mask" : "delta";
    std::vector<Expr*> a = s.bind(call, fname, {"mask", "value", third}, 3);
    if (!call.keywords.empty()) s.fail(call.loc, fname + "() takes positional arguments only");
    check_mask(s, *a[0], fname);
    check_warp_value(s, *a[1], fname);
    if (!a[2]->type->is_integer()) s.fail(a[2]->loc, fname + "() " + third + " must be an integer, not " + a[2]->type->str());
    note_sync_site(s, call, true);
    return a[1]->type;
}
std::string emit_shfl(Emitter& em, const Expr& call) {
    return "simt_" + short_name(call) + "(ctx, " + site_code(call) + ", " + mask_code(em, call) + ", " +
           em.expr(*call.children[2]) + ", (int64_t)(" + em.expr(*call.children[3]) + "))";
}

// all_sync, any_sync, eq_sync -> bool; ballot_sync -> int32 (numba's vote intrinsic types).
const Type* infer_vote(Sema& s, Expr& call) {
    const std::string& fname = call.resolved->builtin;
    std::vector<Expr*> a = s.bind(call, fname, {"mask", "predicate"}, 2);
    if (!call.keywords.empty()) s.fail(call.loc, fname + "() takes positional arguments only");
    check_mask(s, *a[0], fname);
    const Type* p = a[1]->type;
    if (!p->is_scalar() || p->is_complex()) s.fail(a[1]->loc, fname + "() predicate must be a boolean or an integer, not " + p->str());
    note_sync_site(s, call, true);
    return fname == "cuda.ballot_sync" ? scalar_type(DType::Int32) : bool_type();
}
std::string emit_vote(Emitter& em, const Expr& call) {
    const Expr& p = *call.children[2];
    std::string code = "simt_" + short_name(call) + "(ctx, " + site_code(call) + ", " + mask_code(em, call) + ", " +
                       em.cast(em.expr(p), p.type, bool_type()) + ")";
    return call.type->is_bool() ? code : "(int32_t)" + code;
}

// match_any_sync -> int32; match_all_sync -> (int32, bool).
const Type* infer_match(Sema& s, Expr& call) {
    const std::string& fname = call.resolved->builtin;
    std::vector<Expr*> a = s.bind(call, fname, {"mask", "value"}, 2);
    if (!call.keywords.empty()) s.fail(call.loc, fname + "() takes positional arguments only");
    check_mask(s, *a[0], fname);
    check_warp_value(s, *a[1], fname);
    note_sync_site(s, call, true);
    if (fname == "cuda.match_any_sync") return scalar_type(DType::Int32);
    return tuple_type({scalar_type(DType::Int32), bool_type()});
}
std::string emit_match(Emitter& em, const Expr& call) {
    std::string args = "ctx, " + site_code(call) + ", " + mask_code(em, call) + ", " + em.expr(*call.children[2]);
    if (call.resolved->builtin == "cuda.match_any_sync") return "(int32_t)simt_match_any_sync(" + args + ")";
    std::string pred = em.temp("pred");
    return "([&]() { bool " + pred + " = false; int32_t simt_m = (int32_t)simt_match_all_sync(" + args + ", &" + pred +
           "); return " + em.c_type(call.type) + "{simt_m, " + pred + "}; }())";
}

const Type* infer_activemask(Sema& s, Expr& call) {
    s.bind(call, "cuda.activemask", {}, 0);
    note_sync_site(s, call, true);
    return scalar_type(DType::UInt32);
}
std::string emit_activemask(Emitter&, const Expr& call) { return "simt_activemask(ctx, " + site_code(call) + ")"; }

const Type* infer_lanemask_lt(Sema& s, Expr& call) {
    s.bind(call, "cuda.lanemask_lt", {}, 0);
    return scalar_type(DType::UInt32);
}
std::string emit_lanemask_lt(Emitter&, const Expr&) { return "simt_lanemask_lt(ctx)"; }

}  // namespace

void register_warp_builtins(BuiltinRegistry& r) {
    auto add = [&](const char* name, auto infer, auto emit) {
        r.add_function({std::string("cuda.") + name, infer, emit});
        r.add_member("cuda", name, member_function(std::string("cuda.") + name));
    };
    for (const char* name : {"shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"}) add(name, infer_shfl, emit_shfl);
    for (const char* name : {"all_sync", "any_sync", "eq_sync", "ballot_sync"}) add(name, infer_vote, emit_vote);
    for (const char* name : {"match_any_sync", "match_all_sync"}) add(name, infer_match, emit_match);
    add("activemask", infer_activemask, emit_activemask);
    add("lanemask_lt", infer_lanemask_lt, emit_lanemask_lt);
}

}  // namespace simt
