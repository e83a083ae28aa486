// Integer literal arithmetic as Python folds it. CPython evaluates `2 ** 70`, `1 << 64` or
// `-2 ** 63` exactly when it compiles a function, and numba types the folded value: one that no
// int64 holds is an error there, not a wrapped number. The same expressions are checked here
// before typing (which then folds them in int64, where they fit); `a ** -n` becomes a float in
// infer_binop.
#include <cctype>
#include <functional>
#include "sema/sema.h"

namespace simt {

bool integer_literal(const Expr& e) {
    if (e.kind == ExprKind::Int) return true;
    if (e.kind == ExprKind::UnaryOp && e.unop != UnaryOpKind::Not) return integer_literal(*e.children[0]);
    if (e.kind == ExprKind::BinOp && e.binop != BinOpKind::Div && e.binop != BinOpKind::MatMul)
        return integer_literal(*e.children[0]) && integer_literal(*e.children[1]);
    return false;
}

namespace {
using Wide = __int128;
constexpr Wide kLimit = Wide(1) << 120;  // beyond any int64 result a further step could bring back

enum class Exact { Int, Float, TooLarge, ZeroToNegative };

// A Python integer literal's value (0x / 0o / 0b prefixes, underscores), while below 2**120.
bool literal_value(const std::string& text, Wide& v) {
    int base = 10;
    size_t i = 0;
    if (text.size() > 2 && text[0] == '0') {
        char p = char(std::tolower((unsigned char)text[1]));
        base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 10;
        if (base != 10) i = 2;
    }
    v = 0;
    for (; i < text.size(); ++i) {
        char c = char(std::tolower((unsigned char)text[i]));
        if (c == '_') continue;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 99;
        if (d >= base) return false;
        v = v * base + d;
        if (v >= kLimit) return false;
    }
    return true;
}

// Python's value of a literal expression, while it stays an integer within +-2**120.
Exact evaluate(const Expr& e, Wide& v) {
    if (e.kind == ExprKind::Int) {
        if (!e.big_int) {
            v = e.int_value;
            return Exact::Int;
        }
        return literal_value(e.text, v) ? Exact::Int : Exact::TooLarge;  // e.g. the 2**63 of -9223372036854775808
    }
    Wide a = 0, b = 0;
    Exact ka = evaluate(*e.children[0], a);
    if (ka != Exact::Int) return ka;
    if (e.kind == ExprKind::UnaryOp) {
        v = e.unop == UnaryOpKind::Neg ? -a : e.unop == UnaryOpKind::Invert ? ~a : a;
        return Exact::Int;
    }
    Exact kb = evaluate(*e.children[1], b);
    if (kb != Exact::Int) return kb;
    auto bounded = [&](Wide x) {
        v = x;
        return x > -kLimit && x < kLimit ? Exact::Int : Exact::TooLarge;
    };
    switch (e.binop) {
        case BinOpKind::Add: return bounded(a + b);
        case BinOpKind::Sub: return bounded(a - b);
        case BinOpKind::Mul: {
            Wide r;
            if (__builtin_mul_overflow(a, b, &r)) return Exact::TooLarge;
            return bounded(r);
        }
        case BinOpKind::FloorDiv: case BinOpKind::Mod: {
            if (b == 0) return Exact::Int;  // left to typing, as before (Python raises at run time)
            Wide q = a / b, r = a % b;
            if (r != 0 && ((r < 0) != (b < 0))) { q -= 1; r += b; }
            v = e.binop == BinOpKind::FloorDiv ? q : r;
            return Exact::Int;
        }
        case BinOpKind::Pow: {
            if (b < 0) return a == 0 ? Exact::ZeroToNegative : Exact::Float;
            if (a == 0 || a == 1) { v = b == 0 ? 1 : a; return Exact::Int; }
            if (a == -1) { v = b % 2 ? -1 : 1; return Exact::Int; }
            Wide r = 1;  // |a| >= 2: at most 120 rounds before the bound stops it
            for (Wide k = 0; k < b; ++k)
                if (__builtin_mul_overflow(r, a, &r) || r <= -kLimit || r >= kLimit) return Exact::TooLarge;
            v = r;
            return Exact::Int;
        }
        case BinOpKind::LShift:
            if (b < 0) return Exact::Int;  // a ValueError in Python; left to typing
            if (a == 0) { v = 0; return Exact::Int; }
            if (b >= 120) return Exact::TooLarge;
            if (a >= kLimit >> b || a <= -(kLimit >> b)) return Exact::TooLarge;
            return bounded(a * (Wide(1) << b));
        case BinOpKind::RShift:
            if (b < 0) return Exact::Int;
            v = b >= 127 ? (a < 0 ? -1 : 0) : a >> b;
            return Exact::Int;
        case BinOpKind::BitAnd: v = a & b; return Exact::Int;
        case BinOpKind::BitOr: v = a | b; return Exact::Int;
        case BinOpKind::BitXor: v = a ^ b; return Exact::Int;
        default: return Exact::Int;
    }
}
}  // namespace

void Sema::check_integer_literals(const std::vector<StmtPtr>& body) const {
    std::function<void(const Expr*)> visit = [&](const Expr* e) {
        if (!e) return;
        if (e->kind != ExprKind::Int && integer_literal(*e)) {  // the whole folded expression at once
            Wide v = 0;
            Exact k = evaluate(*e, v);
            if (k == Exact::ZeroToNegative)
                fail(e->loc, "ZeroDivisionError: 0 cannot be raised to a negative power");
            if (k == Exact::TooLarge || (k == Exact::Int && (v < INT64_MIN || v > INT64_MAX)))
                fail(e->loc, "this integer constant does not fit in 64 bits (Python computes it exactly); write it as a "
                             "float (2.0 ** 70) or with smaller values");
            return;
        }
        for (const ExprPtr& c : e->children) visit(c.get());
        for (const Keyword& k : e->keywords) visit(k.value.get());
    };
    std::function<void(const std::vector<StmtPtr>&)> walk = [&](const std::vector<StmtPtr>& stmts) {
        for (const StmtPtr& s : stmts) {
            for (const ExprPtr& t : s->targets) visit(t.get());
            visit(s->value.get());
            visit(s->target.get());
            visit(s->test.get());
            visit(s->iter.get());
            walk(s->body);
            walk(s->orelse);
        }
    };
    walk(body);
}

}  // namespace simt
