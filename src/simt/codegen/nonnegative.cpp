// Non-negativity of integer values (see nonnegative.h).
#include "codegen/nonnegative.h"
#include <map>
#include <vector>
#include "codegen/ast_walk.h"
#include "sema/builtins.h"
#include "types/type.h"

namespace simt {

namespace {

bool signed_integer(const Type* t) { return t && t->is_integer() && dtype_is_signed(t->dtype); }
// uint8/16/32 values stay non-negative in signed arithmetic; a uint64 of 2**63 or more does not
// (uint64 op int64 is int64, and int() reinterprets it), so only the narrower ones count.
bool narrow_unsigned(const Type* t) { return t && t->is_integer() && !dtype_is_signed(t->dtype) && dtype_size(t->dtype) < 8; }

const std::string& builtin_of(const Expr& e) {
    static const std::string none;
    return e.resolved ? e.resolved->builtin : none;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// `lhs op rhs` is never negative when the operands' signs are as given.
bool binop_nonnegative(BinOpKind op, bool lhs, bool rhs) {
    switch (op) {
        case BinOpKind::Add:
        case BinOpKind::Mul:
        case BinOpKind::FloorDiv:
        case BinOpKind::Pow:
        case BinOpKind::BitOr:
        case BinOpKind::BitXor: return lhs && rhs;
        case BinOpKind::Mod: return rhs;  // Python's remainder takes the divisor's sign
        case BinOpKind::BitAnd: return lhs || rhs;
        case BinOpKind::LShift:
        case BinOpKind::RShift: return lhs;
        default: return false;
    }
}

bool call_nonnegative(const Expr& e, const std::set<std::string>& locals) {
    const std::string& b = builtin_of(e);
    if (b == "cuda.grid" || b == "cuda.gridsize" || b == "len") return true;
    if (!e.keywords.empty() || e.children.size() < 2) return false;
    auto arg = [&](size_t i) { return nonnegative(*e.children[i], locals); };
    if (b == "min") {
        if (e.children.size() < 3) return false;  // min of one iterable
        for (size_t i = 1; i < e.children.size(); ++i)
            if (!arg(i)) return false;
        return true;
    }
    if (b == "max") {
        for (size_t i = 1; i < e.children.size(); ++i)
            if (e.children[i]->type && e.children[i]->type->is_integer() && arg(i)) return true;
        return false;
    }
    // Conversions that keep a non-negative integer as it is (narrower signed ones could wrap).
    if (b == "int" || b == "cast.int64" || b == "cast.uint64") return e.children.size() == 2 && arg(1);
    return false;
}

}  // namespace

bool nonnegative(const Expr& e, const std::set<std::string>& locals) {
    if (e.resolved && e.resolved->is_constant) return e.resolved->constant.is_int() && e.resolved->constant.as_int() >= 0;
    if (narrow_unsigned(e.type)) return true;
    if (!signed_integer(e.type)) return false;
    switch (e.kind) {
        case ExprKind::Name: return e.resolved && e.resolved->is_local && locals.count(e.text) > 0;
        case ExprKind::Attribute: {
            const std::string& b = builtin_of(e);
            if (starts_with(b, "cuda.threadIdx.") || starts_with(b, "cuda.blockIdx.") || starts_with(b, "cuda.blockDim.") ||
                starts_with(b, "cuda.gridDim."))
                return true;
            return e.text == "size" && e.children[0]->type && e.children[0]->type->is_array();
        }
        case ExprKind::Subscript: {  // A.shape[k] (strides may be negative)
            const Expr& base = *e.children[0];
            return base.kind == ExprKind::Attribute && base.text == "shape" && base.children[0]->type &&
                   base.children[0]->type->is_array();
        }
        case ExprKind::Call: return call_nonnegative(e, locals);
        case ExprKind::BinOp:
            return binop_nonnegative(e.binop, nonnegative(*e.children[0], locals), nonnegative(*e.children[1], locals));
        case ExprKind::UnaryOp: return e.unop == UnaryOpKind::Pos && nonnegative(*e.children[0], locals);
        case ExprKind::IfExp: return nonnegative(*e.children[1], locals) && nonnegative(*e.children[2], locals);
        default: return false;
    }
}

namespace {

// One way a local gets a value.
struct Definition {
    enum class Kind { Value, Update, RangeLoop, Known, Unknown } kind;
    const Expr* value = nullptr;      // Value: the expression; Update: the right operand
    BinOpKind op = BinOpKind::Add;    // Update: `name op= value`
    const Stmt* loop = nullptr;       // RangeLoop: the for statement over range(...)
};

using Definitions = std::map<std::string, std::vector<Definition>>;

void bind_target(const Expr& target, const Expr* value, Definitions& defs) {
    if (target.kind == ExprKind::Name) {
        defs[target.text].push_back({Definition::Kind::Value, value});
        return;
    }
    if (target.kind != ExprKind::Tuple && target.kind != ExprKind::List) return;  // A[i] = v binds no name
    const bool literal_tuple = value && (value->kind == ExprKind::Tuple || value->kind == ExprKind::List) &&
                               value->children.size() == target.children.size();
    const std::string& b = value ? builtin_of(*value) : std::string();
    const bool grid = value && value->kind == ExprKind::Call && (b == "cuda.grid" || b == "cuda.gridsize");
    for (size_t i = 0; i < target.children.size(); ++i) {
        const Expr& t = *target.children[i];
        if (literal_tuple) {
            bind_target(t, value->children[i].get(), defs);
        } else if (grid && t.kind == ExprKind::Name) {
            defs[t.text].push_back({Definition::Kind::Known});
        } else {
            std::vector<std::string> names;
            assigned_names(t, names);
            for (const std::string& n : names) defs[n].push_back({Definition::Kind::Unknown});
        }
    }
}

// The names a for loop binds: a range() loop's variable, and enumerate()'s counter (start + k,
// never negative when its start is not); the others' values are unknown.
void bind_loop_target(const Stmt& s, Definitions& defs) {
    const Expr& iter = *s.iter;
    const Expr& target = *s.target;
    const std::string& b = iter.kind == ExprKind::Call ? builtin_of(iter) : std::string();
    if (b == "range" && target.kind == ExprKind::Name) {
        Definition d{Definition::Kind::RangeLoop};
        d.loop = &s;
        defs[target.text].push_back(d);
        return;
    }
    std::vector<std::string> names;
    assigned_names(target, names);
    size_t first_unknown = 0;
    if (b == "enumerate" && target.kind == ExprKind::Tuple && target.children[0]->kind == ExprKind::Name) {
        std::string error;
        const Expr* start = match_call_args(iter, {"iterable", "start"}, 1, error)[1];
        defs[names[0]].push_back(start ? Definition{Definition::Kind::Value, start} : Definition{Definition::Kind::Known});
        first_unknown = 1;
    }
    for (size_t i = first_unknown; i < names.size(); ++i) defs[names[i]].push_back({Definition::Kind::Unknown});
}

Definitions definitions(const TypedFunction& f) {
    Definitions defs;
    each_statement(f.def.body, [&](const Stmt& s) {
        switch (s.kind) {
            case StmtKind::Assign:
                for (const ExprPtr& t : s.targets) bind_target(*t, s.value.get(), defs);
                break;
            case StmtKind::AugAssign:
                if (s.target->kind == ExprKind::Name) defs[s.target->text].push_back({Definition::Kind::Update, s.value.get(), s.op});
                break;
            case StmtKind::For:
                bind_loop_target(s, defs);
                break;
            default:
                break;
        }
    });
    return defs;
}

}  // namespace

bool range_loop_nonnegative(const Stmt& loop, const std::set<std::string>& locals) {
    const Expr& call = *loop.iter;
    size_t n = call.children.size() - 1;
    if (n < 2) return true;
    if (!nonnegative(*call.children[1], locals)) return false;
    if (n < 3) return true;
    const Expr& step = *call.children[3];
    return step.resolved && step.resolved->is_constant && step.resolved->constant.is_int() &&
           step.resolved->constant.as_int() > 0;
}

namespace {

bool keeps_nonnegative(const Definition& d, const std::set<std::string>& locals) {
    switch (d.kind) {
        case Definition::Kind::Value: return nonnegative(*d.value, locals);
        case Definition::Kind::Update: return binop_nonnegative(d.op, true, nonnegative(*d.value, locals));
        case Definition::Kind::RangeLoop: return range_loop_nonnegative(*d.loop, locals);
        case Definition::Kind::Known: return true;
        case Definition::Kind::Unknown: return false;
    }
    return false;
}

}  // namespace

std::set<std::string> nonnegative_locals(const TypedFunction& f) {
    Definitions defs = definitions(f);
    // Start from every signed integer local and drop those with an assignment that could make
    // them negative, until none is dropped: what is left holds for every execution.
    std::set<std::string> locals;
    for (const auto& [name, type] : f.locals)
        if (signed_integer(type) && defs.count(name)) locals.insert(name);
    for (bool changed = true; changed;) {
        changed = false;
        for (auto it = locals.begin(); it != locals.end();) {
            bool keeps = true;
            for (const Definition& d : defs[*it]) keeps = keeps && keeps_nonnegative(d, locals);
            if (keeps) {
                ++it;
            } else {
                it = locals.erase(it);
                changed = true;
            }
        }
    }
    return locals;
}

}  // namespace simt
