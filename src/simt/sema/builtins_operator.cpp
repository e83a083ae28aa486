// The operator module's functions (the ones numba-cuda supports): operator.add(a, b) is a + b.
// A call is rewritten in place into the expression it stands for, so that typing, constant
// folding, code generation and the emitter's analyses (non-negative indices, bounds tests) are
// those of the operator itself: promotion, wraparound and division rules cannot drift apart.
// The in-place forms (iadd, ...) are the binary ones: kernel numbers are immutable, so Python
// returns a + b for them too.
#include "sema/builtins.h"
#include "sema/sema.h"
#include "support/error.h"

namespace simt {

namespace {

struct OperatorForm {
    const char* name;
    ExprKind kind;  // BinOp, Compare or UnaryOp
    BinOpKind binop = BinOpKind::Add;
    CmpOpKind cmpop = CmpOpKind::Eq;
    UnaryOpKind unop = UnaryOpKind::Neg;
};

// Each binary operator with its in-place twin.
struct BinaryPair { const char* name; const char* inplace; BinOpKind op; };
const BinaryPair kBinary[] = {
    {"add", "iadd", BinOpKind::Add},          {"sub", "isub", BinOpKind::Sub},
    {"mul", "imul", BinOpKind::Mul},          {"truediv", "itruediv", BinOpKind::Div},
    {"floordiv", "ifloordiv", BinOpKind::FloorDiv}, {"mod", "imod", BinOpKind::Mod},
    {"pow", "ipow", BinOpKind::Pow},          {"lshift", "ilshift", BinOpKind::LShift},
    {"rshift", "irshift", BinOpKind::RShift}, {"and_", "iand", BinOpKind::BitAnd},
    {"or_", "ior", BinOpKind::BitOr},         {"xor", "ixor", BinOpKind::BitXor},
};
const std::pair<const char*, CmpOpKind> kCompare[] = {
    {"eq", CmpOpKind::Eq}, {"ne", CmpOpKind::Ne}, {"lt", CmpOpKind::Lt},
    {"le", CmpOpKind::Le}, {"gt", CmpOpKind::Gt}, {"ge", CmpOpKind::Ge},
};
const std::pair<const char*, UnaryOpKind> kUnary[] = {
    {"neg", UnaryOpKind::Neg}, {"pos", UnaryOpKind::Pos}, {"invert", UnaryOpKind::Invert}, {"not_", UnaryOpKind::Not},
};

const std::vector<OperatorForm>& forms() {
    static const std::vector<OperatorForm> all = [] {
        std::vector<OperatorForm> v;
        for (const BinaryPair& p : kBinary) {
            v.push_back({p.name, ExprKind::BinOp, p.op});
            v.push_back({p.inplace, ExprKind::BinOp, p.op});
        }
        for (const auto& [name, op] : kCompare) v.push_back({name, ExprKind::Compare, BinOpKind::Add, op});
        for (const auto& [name, op] : kUnary) v.push_back({name, ExprKind::UnaryOp, BinOpKind::Add, CmpOpKind::Eq, op});
        return v;
    }();
    return all;
}

const OperatorForm& form_of(const std::string& builtin) {
    for (const OperatorForm& f : forms())
        if (builtin == std::string("operator.") + f.name) return f;
    throw Error(ErrorKind::Typing, "internal: unknown operator function " + builtin);
}

const Type* infer_operator(Sema& s, Expr& call) {
    const std::string name = call.resolved->builtin;
    const OperatorForm& f = form_of(name);
    size_t arity = f.kind == ExprKind::UnaryOp ? 1 : 2, given = call.children.size() - 1;
    if (!call.keywords.empty()) s.fail(call.loc, name + "() takes no keyword arguments");
    if (given != arity)
        s.fail(call.loc, name + "() takes exactly " + std::to_string(arity) + " argument" + (arity == 1 ? "" : "s") + " (" +
                             std::to_string(given) + " given)");
    call.children.erase(call.children.begin());  // the callee; the arguments become the operands
    call.resolved.reset();
    call.kind = f.kind;
    call.binop = f.binop;
    call.unop = f.unop;
    if (f.kind == ExprKind::Compare) call.cmpops = {f.cmpop};
    return s.type_of(call);
}

std::string emit_operator(Emitter&, const Expr&) {
    throw Error(ErrorKind::Typing, "internal: an operator function call was not rewritten into its operator");
}

}  // namespace

void register_operator_builtins(BuiltinRegistry& r) {
    for (const OperatorForm& f : forms()) {
        std::string canonical = std::string("operator.") + f.name;
        r.add_function({canonical, infer_operator, emit_operator});
        r.add_member("operator", f.name, member_function(canonical));
    }
}

}  // namespace simt
