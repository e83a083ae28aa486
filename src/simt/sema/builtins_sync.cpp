// Block synchronization in kernels: cuda.syncthreads and its _count/_and/_or forms,
// cuda.syncwarp, the memory fences cuda.threadfence, threadfence_block, threadfence_system, and
// cuda.nanosleep.
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

void note_sync_site(Sema& s, Expr& call, bool warp) {
    CompileUnit& u = s.unit();
    (warp ? u.uses_warp : u.uses_barrier) = true;
    if (!s.final_pass() || call.resolved->sync_site >= 0) return;
    const TypedFunction& f = s.function();
    std::string text = call.resolved->builtin + "() at " + f.source.filename + ":" + std::to_string(call.loc.line);
    if (!f.is_kernel) text += " (in device function '" + f.name + "')";
    call.resolved->sync_site = int(u.sync_sites.size());
    u.sync_sites.push_back(text);
}

std::string site_code(const Expr& call) { return std::to_string(call.resolved ? call.resolved->sync_site : -1); }

namespace {

const Type* infer_syncthreads(Sema& s, Expr& call) {
    s.bind(call, "cuda.syncthreads", {}, 0);
    note_sync_site(s, call, false);
    return none_type();
}
std::string emit_syncthreads(Emitter&, const Expr& call) { return "simt_syncthreads(ctx, " + site_code(call) + ")"; }

// syncthreads_count/_and/_or(predicate) -> int32, as numba types them.
const Type* infer_sync_predicate(Sema& s, Expr& call) {
    const std::string& name = call.resolved->builtin;
    std::vector<Expr*> a = s.bind(call, name, {"predicate"}, 1);
    const Type* t = a[0]->type;
    if (!t->is_scalar() || t->is_complex()) s.fail(a[0]->loc, name + "() predicate must be an integer or a boolean, not " + t->str());
    note_sync_site(s, call, false);
    return scalar_type(DType::Int32);
}
std::string emit_sync_predicate(Emitter& em, const Expr& call) {
    const std::string& name = call.resolved->builtin;
    const Expr& p = *call.children[1];
    std::string fn = "simt_" + name.substr(name.find('.') + 1);
    return fn + "(ctx, " + site_code(call) + ", " + em.cast(em.expr(p), p.type, bool_type()) + ")";
}

const Type* infer_syncwarp(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "cuda.syncwarp", {"mask"}, 0);
    if (a[0] && !a[0]->type->is_integer()) s.fail(a[0]->loc, "cuda.syncwarp() mask must be an integer, not " + a[0]->type->str());
    note_sync_site(s, call, true);
    return none_type();
}
std::string emit_syncwarp(Emitter& em, const Expr& call) {
    std::string mask = "0xffffffffu";
    if (call.children.size() > 1) mask = "(uint32_t)(" + em.expr(*call.children[1]) + ")";
    else if (!call.keywords.empty()) mask = "(uint32_t)(" + em.expr(*call.keywords[0].value) + ")";
    return "simt_syncwarp(ctx, " + site_code(call) + ", " + mask + ")";
}

const Type* infer_fence(Sema& s, Expr& call) {
    s.bind(call, call.resolved->builtin, {}, 0);
    return none_type();
}
std::string emit_fence(Emitter&, const Expr& call) {
    const std::string& name = call.resolved->builtin;
    return "simt_" + name.substr(name.find('.') + 1) + "()";
}

// cuda.nanosleep(ns): a hint to pause the thread about ns nanoseconds (CUDA's duration lies
// anywhere in [0, 2 ns]).
const Type* infer_nanosleep(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "cuda.nanosleep", {"ns"}, 1);
    if (!a[0]->type->is_integer())
        s.fail(a[0]->loc, "cuda.nanosleep() takes an integer number of nanoseconds, not " + a[0]->type->str());
    return none_type();
}
std::string emit_nanosleep(Emitter& em, const Expr& call) {
    const Expr& ns = call.children.size() > 1 ? *call.children[1] : *call.keywords[0].value;
    return "simt_nanosleep((uint32_t)(" + em.expr(ns) + "))";
}

}  // namespace

void register_sync_builtins(BuiltinRegistry& r) {
    r.add_function({"cuda.syncthreads", infer_syncthreads, emit_syncthreads});
    r.add_member("cuda", "syncthreads", member_function("cuda.syncthreads"));
    for (const char* name : {"syncthreads_count", "syncthreads_and", "syncthreads_or"}) {
        r.add_function({std::string("cuda.") + name, infer_sync_predicate, emit_sync_predicate});
        r.add_member("cuda", name, member_function(std::string("cuda.") + name));
    }
    r.add_function({"cuda.syncwarp", infer_syncwarp, emit_syncwarp});
    r.add_member("cuda", "syncwarp", member_function("cuda.syncwarp"));
    for (const char* name : {"threadfence", "threadfence_block", "threadfence_system"}) {
        r.add_function({std::string("cuda.") + name, infer_fence, emit_fence});
        r.add_member("cuda", name, member_function(std::string("cuda.") + name));
    }
    r.add_function({"cuda.nanosleep", infer_nanosleep, emit_nanosleep});
    r.add_member("cuda", "nanosleep", member_function("cuda.nanosleep"));
}

}  // namespace simt
