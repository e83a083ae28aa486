// Operator spellings and an S-expression dump of the AST for tests and debugging.
#include "frontend/ast.h"
#include <cstdio>

namespace simt {

const char* binop_symbol(BinOpKind op) {
    switch (op) {
        case BinOpKind::Add: return "+";
        case BinOpKind::Sub: return "-";
        case BinOpKind::Mul: return "*";
        case BinOpKind::Div: return "/";
        case BinOpKind::FloorDiv: return "//";
        case BinOpKind::Mod: return "%";
        case BinOpKind::Pow: return "**";
        case BinOpKind::MatMul: return "@";
        case BinOpKind::LShift: return "<<";
        case BinOpKind::RShift: return ">>";
        case BinOpKind::BitOr: return "|";
        case BinOpKind::BitXor: return "^";
        case BinOpKind::BitAnd: return "&";
    }
    return "?";
}

const char* cmpop_symbol(CmpOpKind op) {
    switch (op) {
        case CmpOpKind::Lt: return "<";
        case CmpOpKind::Le: return "<=";
        case CmpOpKind::Gt: return ">";
        case CmpOpKind::Ge: return ">=";
        case CmpOpKind::Eq: return "==";
        case CmpOpKind::Ne: return "!=";
        case CmpOpKind::Is: return "is";
        case CmpOpKind::IsNot: return "is not";
        case CmpOpKind::In: return "in";
        case CmpOpKind::NotIn: return "not in";
    }
    return "?";
}

static const char* unop_symbol(UnaryOpKind op) {
    switch (op) {
        case UnaryOpKind::Neg: return "neg";
        case UnaryOpKind::Pos: return "pos";
        case UnaryOpKind::Invert: return "~";
        case UnaryOpKind::Not: return "not";
    }
    return "?";
}

static std::string dump_children(const Expr& e, size_t from = 0) {
    std::string out;
    for (size_t i = from; i < e.children.size(); ++i) {
        out += " ";
        out += e.children[i] ? dump(*e.children[i]) : "_";
    }
    return out;
}

std::string dump(const Expr& e) {
    switch (e.kind) {
        case ExprKind::Name: return e.text;
        case ExprKind::Int: return e.text;
        case ExprKind::Float: {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.17g", e.float_value);
            return std::string(buf) + "f";
        }
        case ExprKind::Imag: return e.text + "j";
        case ExprKind::Bool: return e.bool_value ? "True" : "False";
        case ExprKind::None: return "None";
        case ExprKind::String: return "'" + e.text + "'";
        case ExprKind::Ellipsis: return "...";
        case ExprKind::BinOp: return std::string("(") + binop_symbol(e.binop) + dump_children(e) + ")";
        case ExprKind::UnaryOp: return std::string("(") + unop_symbol(e.unop) + dump_children(e) + ")";
        case ExprKind::BoolOp: return std::string("(") + (e.boolop == BoolOpKind::And ? "and" : "or") + dump_children(e) + ")";
        case ExprKind::Compare: {
            std::string out = "(cmp " + dump(*e.children[0]);
            for (size_t i = 0; i < e.cmpops.size(); ++i) out += std::string(" ") + cmpop_symbol(e.cmpops[i]) + " " + dump(*e.children[i + 1]);
            return out + ")";
        }
        case ExprKind::IfExp: return "(ifexp" + dump_children(e) + ")";
        case ExprKind::Call: {
            std::string out = "(call" + dump_children(e);
            for (const Keyword& k : e.keywords) out += " " + k.name + "=" + dump(*k.value);
            return out + ")";
        }
        case ExprKind::Attribute: return "(. " + dump(*e.children[0]) + " " + e.text + ")";
        case ExprKind::Subscript: return "([]" + dump_children(e) + ")";
        case ExprKind::Tuple: return "(tuple" + dump_children(e) + ")";
        case ExprKind::List: return "(list" + dump_children(e) + ")";
        case ExprKind::Slice: return "(slice" + dump_children(e) + ")";
    }
    return "?";
}

static void dump_block(const std::vector<StmtPtr>& body, int depth, std::string& out);

static void dump_stmt(const Stmt& s, int depth, std::string& out) {
    std::string pad(size_t(depth) * 2, ' ');
    switch (s.kind) {
        case StmtKind::Expr: out += pad + dump(*s.value) + "\n"; break;
        case StmtKind::Assign: {
            out += pad + "(=";
            for (const ExprPtr& t : s.targets) out += " " + dump(*t);
            out += " " + dump(*s.value) + ")\n";
            break;
        }
        case StmtKind::AugAssign:
            out += pad + "(" + binop_symbol(s.op) + "= " + dump(*s.target) + " " + dump(*s.value) + ")\n";
            break;
        case StmtKind::If:
            out += pad + "(if " + dump(*s.test) + "\n";
            dump_block(s.body, depth + 1, out);
            if (!s.orelse.empty()) { out += pad + " else\n"; dump_block(s.orelse, depth + 1, out); }
            out += pad + ")\n";
            break;
        case StmtKind::For:
            out += pad + "(for " + dump(*s.target) + " in " + dump(*s.iter) + "\n";
            dump_block(s.body, depth + 1, out);
            if (!s.orelse.empty()) { out += pad + " else\n"; dump_block(s.orelse, depth + 1, out); }
            out += pad + ")\n";
            break;
        case StmtKind::While:
            out += pad + "(while " + dump(*s.test) + "\n";
            dump_block(s.body, depth + 1, out);
            if (!s.orelse.empty()) { out += pad + " else\n"; dump_block(s.orelse, depth + 1, out); }
            out += pad + ")\n";
            break;
        case StmtKind::Break: out += pad + "break\n"; break;
        case StmtKind::Continue: out += pad + "continue\n"; break;
        case StmtKind::Pass: out += pad + "pass\n"; break;
        case StmtKind::Return: out += pad + "(return" + (s.value ? " " + dump(*s.value) : "") + ")\n"; break;
        case StmtKind::Assert: out += pad + "(assert " + dump(*s.value) + ")\n"; break;
        case StmtKind::Raise: out += pad + "(raise" + (s.value ? " " + dump(*s.value) : "") + ")\n"; break;
        case StmtKind::FunctionDef: {
            std::string inner = dump(*s.def);
            for (size_t at = 0; at < inner.size();) {  // indent the nested definition's lines
                size_t end = inner.find('\n', at);
                out += pad + inner.substr(at, end - at) + "\n";
                at = end + 1;
            }
            break;
        }
    }
}

static void dump_block(const std::vector<StmtPtr>& body, int depth, std::string& out) {
    for (const StmtPtr& s : body) dump_stmt(*s, depth, out);
}

ExprPtr clone_expr(const Expr* e) {
    if (!e) return nullptr;
    auto c = std::make_unique<Expr>(e->kind, e->loc);
    c->text = e->text;
    c->int_value = e->int_value;
    c->big_int = e->big_int;
    c->float_value = e->float_value;
    c->bool_value = e->bool_value;
    c->binop = e->binop;
    c->unop = e->unop;
    c->boolop = e->boolop;
    c->cmpops = e->cmpops;
    for (const ExprPtr& child : e->children) c->children.push_back(clone_expr(child.get()));
    for (const Keyword& k : e->keywords) c->keywords.push_back({k.name, clone_expr(k.value.get())});
    return c;
}

std::vector<StmtPtr> clone_block(const std::vector<StmtPtr>& body) {
    std::vector<StmtPtr> out;
    for (const StmtPtr& s : body) {
        auto c = std::make_unique<Stmt>(s->kind, s->loc);
        for (const ExprPtr& t : s->targets) c->targets.push_back(clone_expr(t.get()));
        c->value = clone_expr(s->value.get());
        c->target = clone_expr(s->target.get());
        c->test = clone_expr(s->test.get());
        c->iter = clone_expr(s->iter.get());
        c->message = clone_expr(s->message.get());
        c->op = s->op;
        c->body = clone_block(s->body);
        c->orelse = clone_block(s->orelse);
        if (s->def) c->def = std::make_shared<FunctionDef>(clone(*s->def));
        out.push_back(std::move(c));
    }
    return out;
}

FunctionDef clone(const FunctionDef& f) {
    FunctionDef c;
    c.name = f.name;
    c.loc = f.loc;
    for (const Param& p : f.params) c.params.push_back({p.name, p.loc, clone_expr(p.default_value.get())});
    c.body = clone_block(f.body);
    c.is_lambda = f.is_lambda;
    return c;
}

std::string dump(const FunctionDef& f) {
    std::string out = std::string(f.is_lambda ? "lambda " : "def ") + f.name + "(";
    for (size_t i = 0; i < f.params.size(); ++i) out += (i ? ", " : "") + f.params[i].name;
    out += ")\n";
    dump_block(f.body, 1, out);
    return out;
}

}  // namespace simt
