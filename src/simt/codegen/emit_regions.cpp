// Emitter, cpu target: region mode. When a kernel's only synchronization is cuda.syncthreads()
// statements in the kernel itself, reached through if/while/for-range statements, the code
// between two barriers runs as one loop over the block's threads: no fiber switches, and the
// compiler sees the threads as independent loop iterations. Per-thread variables live in an
// array of structs between barriers. Conditions that decide whether threads reach a barrier are
// evaluated by every thread and must agree (CUDA requires it); a barrier that some threads
// returned before is reported like the fiber runtime reports it. Other kernels use fibers.
#include <functional>
#include "codegen/ast_walk.h"
#include "codegen/raw_module.h"
#include "codegen/emitter.h"
#include "codegen/nonnegative.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

bool is_barrier_statement(const Stmt& s) {
    return s.kind == StmtKind::Expr && s.value && s.value->kind == ExprKind::Call && s.value->resolved &&
           s.value->resolved->builtin == "cuda.syncthreads";
}

int count_sync_calls(const Expr& e) {
    int n = e.kind == ExprKind::Call && e.resolved && e.resolved->sync_site >= 0 ? 1 : 0;
    for (const ExprPtr& c : e.children) if (c) n += count_sync_calls(*c);
    for (const Keyword& k : e.keywords) n += count_sync_calls(*k.value);
    return n;
}

template <class F> void each_expr(const Stmt& s, F f) {
    for (const ExprPtr& t : s.targets) f(*t);
    for (const Expr* e : {s.value.get(), s.target.get(), s.test.get(), s.iter.get()}) if (e) f(*e);
}

// break/continue that would leave a loop from inside a thread loop.
bool leaves_loop(const std::vector<StmtPtr>& body) {
    for (const StmtPtr& s : body) {
        if (s->kind == StmtKind::Break || s->kind == StmtKind::Continue) return true;
        if (s->kind == StmtKind::If && (leaves_loop(s->body) || leaves_loop(s->orelse))) return true;
    }
    return false;
}

const Expr* first_barrier(const std::vector<StmtPtr>& body) {
    for (const StmtPtr& s : body) {
        if (is_barrier_statement(*s)) return s->value.get();
        if (const Expr* b = first_barrier(s->body)) return b;
        if (const Expr* b = first_barrier(s->orelse)) return b;
    }
    return nullptr;
}

}  // namespace

bool Emitter::region_eligible(const TypedFunction& k) {
    const CompileUnit& u = unit_;
    if (!u.uses_barrier || u.uses_warp || u.local_bytes > 0 || u.uses_grid_sync || linked_code_waits(u.linked_sources))
        return false;
    // Every synchronization call is a plain syncthreads statement of the kernel itself.
    int all = 0, plain = 0;
    each_statement(k.def.body, [&](const Stmt& s) {
        each_expr(s, [&](const Expr& e) { all += count_sync_calls(e); });
        if (is_barrier_statement(s)) ++plain;
    });
    if (all != plain || size_t(plain) != u.sync_sites.size()) return false;
    // Barriers only inside if / while / for-range statements that no break or continue leaves.
    bool ok = true;
    std::function<bool(const std::vector<StmtPtr>&)> mark = [&](const std::vector<StmtPtr>& body) {
        bool any = false;
        for (const StmtPtr& s : body) {
            bool inner = mark(s->body) | mark(s->orelse);
            bool has = is_barrier_statement(*s) || inner;
            if (!has) continue;
            any = true;
            region_barriers_.insert(s.get());
            switch (s->kind) {
                case StmtKind::Expr: case StmtKind::If: break;
                case StmtKind::While: ok = ok && s->orelse.empty() && !leaves_loop(s->body); break;
                case StmtKind::For:
                    ok = ok && s->orelse.empty() && !leaves_loop(s->body) && s->iter->type &&
                         s->iter->type->kind == TypeKind::Range && s->target->kind == ExprKind::Name;
                    break;
                default: ok = false;
            }
        }
        return any;
    };
    mark(k.def.body);
    // Parameters are shared by the block's threads: a kernel that assigns one keeps fibers.
    each_statement(k.def.body, [&](const Stmt& s) {
        std::vector<std::string> names;
        for (const ExprPtr& t : s.targets) assigned_names(*t, names);
        if (s.target) assigned_names(*s.target, names);
        for (const std::string& n : names)
            for (const Param& p : k.def.params) ok = ok && n != p.name;
    });
    if (!ok) region_barriers_.clear();
    return ok;
}

void Emitter::region_function(const TypedFunction& k) {
    fn_ = &k;
    nonnegative_ = nonnegative_locals(k);
    out_.clear();
    temp_counter_ = 0;
    last_line_ = -1;
    regions_ = true;
    // Array variables assigned once from shared or constant memory hold the same value in every
    // thread: they become block variables, set once, and stay visible to the compiler as such.
    std::map<std::string, int> assignments;
    std::map<std::string, const Stmt*> uniform;
    each_statement(k.def.body, [&](const Stmt& s) {
        std::vector<std::string> names;
        for (const ExprPtr& t : s.targets) assigned_names(*t, names);
        if (s.target) assigned_names(*s.target, names);
        for (const std::string& n : names) ++assignments[n];
        if (s.kind == StmtKind::Assign && s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Name && s.value->type &&
            s.value->type->is_array()) {
            const Expr& v = *s.value;
            bool from_memory = (v.kind == ExprKind::Call && v.resolved &&
                                (v.resolved->builtin == "cuda.shared.array" || v.resolved->builtin == "cuda.const.array_like")) ||
                               (v.kind == ExprKind::Name && v.resolved && v.resolved->memory_slot >= 0);
            if (from_memory) uniform[s.targets[0]->text] = &s;
        }
    });
    std::vector<std::pair<std::string, const Type*>> block_locals;
    region_locals_.clear();
    for (const auto& [name, type] : k.locals) {
        auto it = uniform.find(name);
        if (it != uniform.end() && assignments[name] == 1) block_locals.emplace_back(name, type);
        else region_locals_.emplace_back(name, type);
    }
    std::string state = "simt_locals_" + k.c_name;
    std::string fields;
    for (const auto& [name, type] : region_locals_) fields += " " + c_type(type) + " " + c_identifier(name) + ";";
    structs_ += "// Per-thread variables of kernel '" + k.name + "' between barriers (region mode).\nstruct " + state + " {" +
                (fields.empty() ? std::string(" char simt_unused;") : fields) + " };\n";

    std::string sig = "static SIMT_DEVICE_FN bool simt_regions_" + k.c_name + "(simt_ctx& ctx, const simt_fiber_kernel* simt_k, " +
                      state + "* simt_S, bool* simt_done";
    for (size_t i = 0; i < k.def.params.size(); ++i) sig += ", " + c_type(k.param_types[i]) + " " + c_identifier(k.def.params[i].name);
    out_ += "\n";
    line_directive(k.def.loc);
    line(sig + ") {");
    ++indent_;
    line("const int32_t simt_n = ctx.bdim.x * ctx.bdim.y * ctx.bdim.z;");
    line("int32_t simt_live = simt_n;  // threads that have not returned");
    for (const auto& [name, type] : block_locals) {
        line(c_type(type) + " " + c_identifier(name) + " = {};");
        const Stmt* s = uniform[name];
        statement(*s);
        region_skip_.insert(s);
    }
    region_sequence(k.def.body);
    line("return true;");
    --indent_;
    line("}");
    functions_ += out_;
    out_.clear();
}

void Emitter::region_sequence(const std::vector<StmtPtr>& body) {
    std::vector<const Stmt*> run;
    for (const StmtPtr& s : body) {
        if (region_skip_.count(s.get())) continue;
        if (!region_barriers_.count(s.get())) {
            run.push_back(s.get());
            continue;
        }
        region_threads(run);
        run.clear();
        region_statement(*s);
    }
    region_threads(run);
}

// Opens a loop over the block's threads that have not returned, with a block `{` holding copies
// of the thread's variables (closed by the caller with two `}`).
void Emitter::open_thread_loop(bool writable) {
    line("simt_first_thread(ctx);");
    line("for (int32_t simt_t = 0; simt_t < simt_n; ++simt_t, simt_next_thread(ctx)) {");
    ++indent_;
    line("if (simt_done[simt_t]) continue;");
    line(std::string(writable ? "" : "const ") + "simt_locals_" + fn_->c_name + "& simt_L = simt_S[simt_t];");
    line("{");
    ++indent_;
    for (const auto& [name, type] : region_locals_) line(c_type(type) + " " + c_identifier(name) + " = simt_L." + c_identifier(name) + ";");
}

// The statements of `run` (no barriers) for every thread of the block that has not returned.
void Emitter::region_threads(const std::vector<const Stmt*>& run) {
    if (run.empty()) return;
    std::string next = temp("next");
    open_thread_loop(true);
    thread_exit_ = "{ simt_done[simt_t] = true; --simt_live; goto " + next + "; }";
    int saved_line = last_line_;
    for (const Stmt* s : run) statement(*s);
    last_line_ = saved_line;
    thread_exit_.clear();
    for (const auto& [name, type] : region_locals_) line("simt_L." + c_identifier(name) + " = " + c_identifier(name) + ";");
    --indent_;
    line("}");
    line(next + ":;");
    --indent_;
    line("}");
}

// Evaluates `values` in every live thread; they must agree. Returns the name of a local array
// holding the agreed values (index i for values[i]).
std::string Emitter::region_uniform(const std::vector<const Expr*>& values, const std::vector<const Type*>& types,
                                    const Stmt& s) {
    std::string agreed = temp("agreed"), seen = temp("seen"), differ = temp("differ");
    for (size_t i = 0; i < values.size(); ++i) line(c_type(types[i]) + " " + agreed + "_" + std::to_string(i) + " = {};");
    line("bool " + seen + " = false, " + differ + " = false;");
    open_thread_loop(false);
    std::string same;
    for (size_t i = 0; i < values.size(); ++i) {
        std::string v = temp("v");
        line(c_type(types[i]) + " " + v + " = " + expr_as(*values[i], types[i]) + ";");
        line("if (!" + seen + ") " + agreed + "_" + std::to_string(i) + " = " + v + ";");
        same += (i ? " && " : "") + v + " == " + agreed + "_" + std::to_string(i);
    }
    line("if (" + seen + " && !(" + same + ")) " + differ + " = true;");
    line(seen + " = true;");
    --indent_;
    line("}");
    --indent_;
    line("}");
    line("if (simt_live == 0) return true;  // every thread returned: the block is done");
    const Expr* barrier = first_barrier(s.body);
    if (!barrier) barrier = first_barrier(s.orelse);  // an if whose barrier is in the else branch
    line("if (" + differ + ") { simt_region_error(ctx, simt_k, " + site_code(*barrier) + ", " + std::to_string(s.loc.line) +
         ", simt_live); return false; }");
    return agreed;
}

void Emitter::region_statement(const Stmt& s) {
    line_directive(s.loc);
    switch (s.kind) {
        case StmtKind::Expr:  // the barrier: every thread that has not returned is here
            line("if (simt_live != simt_n) {");
            ++indent_;
            line("if (simt_live == 0) return true;");
            line("simt_region_error(ctx, simt_k, " + site_code(*s.value) + ", -1, simt_live);");
            line("return false;");
            --indent_;
            line("}");
            return;
        case StmtKind::If: {
            line("{");
            ++indent_;
            std::string c = region_uniform({s.test.get()}, {bool_type()}, s);
            line("if (" + c + "_0) {");
            ++indent_;
            region_sequence(s.body);
            --indent_;
            line("} else {");
            ++indent_;
            region_sequence(s.orelse);
            --indent_;
            line("}");
            --indent_;
            line("}");
            return;
        }
        case StmtKind::While: {
            line("while (true) {");
            ++indent_;
            std::string c = region_uniform({s.test.get()}, {bool_type()}, s);
            line("if (!" + c + "_0) break;");
            region_sequence(s.body);
            --indent_;
            line("}");
            return;
        }
        case StmtKind::For: {
            // range(stop) / range(start, stop) / range(start, stop, step), agreed by all threads.
            const Expr& call = *s.iter;
            size_t n = call.children.size() - 1;
            const Type* var = s.target->type && s.target->type->is_scalar() ? s.target->type : int64_type();
            std::vector<const Expr*> args;
            for (size_t i = 1; i <= n; ++i) args.push_back(call.children[i].get());
            line("{");
            ++indent_;
            std::string r = region_uniform(args, std::vector<const Type*>(n, var), s);
            std::string start = n >= 2 ? r + "_0" : "0", stop = n >= 2 ? r + "_1" : r + "_0", step = n == 3 ? r + "_2" : "1";
            std::string i = temp("i");
            std::string vt = c_type(var);
            line("for (" + vt + " " + i + " = " + start + "; " + step + " > 0 ? " + i + " < " + stop + " : " + step + " < 0 && " +
                 i + " > " + stop + "; " + i + " += " + step + ") {");
            ++indent_;
            line("for (int32_t simt_t = 0; simt_t < simt_n; ++simt_t) simt_S[simt_t]." + c_identifier(s.target->text) + " = " +
                 i + ";");
            region_sequence(s.body);
            --indent_;
            line("}");
            --indent_;
            line("}");
            return;
        }
        default:
            break;
    }
}

}  // namespace simt
