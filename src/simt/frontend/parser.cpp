// Recursive-descent parser for the kernel subset of Python, following Python's grammar and
// operator precedence. Constructs outside the subset get a clear "unsupported ..." error.
#include "frontend/parser.h"
#include <cerrno>
#include <cstdlib>
#include "frontend/lexer.h"
#include "support/error.h"

namespace simt {

namespace {

bool is_keyword(const std::string& s) {
    static const char* const kKeywords[] = {
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
        "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
        "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
        "with", "yield"};
    for (const char* k : kKeywords) if (s == k) return true;
    return false;
}

class Parser {
public:
    Parser(const SourceText& src, std::vector<Token> tokens) : src_(src), toks_(std::move(tokens)) {}

    FunctionDef parse() {
        // Decorators are skipped unparsed: Python evaluated them (the dispatcher holds their
        // options), and they may use syntax kernels do not, such as @cuda.jit(**options).
        while (is_op("@")) {
            while (peek().kind != Tok::Newline && peek().kind != Tok::End) next();
            expect_newline();
        }
        if (!is_name("def")) {
            if (is_name("class")) fail(peek().loc, "unsupported statement: class (kernels are functions)");
            fail(peek().loc, "expected a function definition ('def')");
        }
        FunctionDef f = parse_def();
        while (peek().kind == Tok::Newline) next();
        if (peek().kind != Tok::End) fail(peek().loc, "unexpected text after the function body");
        return f;
    }

private:
    // `def name(params): body` (the kernel itself, or a function nested in it).
    FunctionDef parse_def() {
        FunctionDef f;
        f.loc = next().loc;
        f.name = expect_identifier("function name").text;
        expect_op("(");
        while (!is_op(")")) {
            if (is_op("*") || is_op("**")) fail(peek().loc, "unsupported parameter: *args/**kwargs in a kernel signature");
            if (is_op("/")) { next(); if (!is_op(")")) expect_op(","); continue; }
            Param p;
            Token name = expect_identifier("parameter name");
            p.name = name.text;
            p.loc = name.loc;
            if (is_op(":")) { next(); parse_test(); }  // annotations are ignored; types come from arguments
            if (is_op("=")) { next(); p.default_value = parse_default(); }
            f.params.push_back(std::move(p));
            if (!is_op(")")) expect_op(",");
        }
        expect_op(")");
        if (is_op("->")) { next(); parse_test(); }
        expect_op(":");
        f.body = parse_block();
        return f;
    }

    // `name = lambda params: expr`, the one place a lambda may appear: a function named `name`
    // whose body returns `expr`.
    StmtPtr parse_lambda_assignment() {
        Token name = next();
        next();  // '='
        return parse_lambda(name.text, name.loc);
    }

    // `lambda params: expr` (at the 'lambda'): a FunctionDef statement defining `name`.
    StmtPtr parse_lambda(const std::string& name, Loc stmt_loc) {
        auto f = std::make_shared<FunctionDef>();
        f->loc = next().loc;  // 'lambda'
        f->name = name;
        f->is_lambda = true;
        while (!is_op(":")) {
            if (is_op("*") || is_op("**")) fail(peek().loc, "unsupported parameter: *args/**kwargs in a lambda");
            Param p;
            Token pname = expect_identifier("parameter name");
            p.name = pname.text;
            p.loc = pname.loc;
            if (is_op("=")) { next(); p.default_value = parse_default(); }
            f->params.push_back(std::move(p));
            if (!is_op(":")) expect_op(",");
        }
        next();
        // Lambdas inside this one's expression are defined in its body, where its parameters are.
        std::vector<StmtPtr> enclosing = std::move(hoisted_);
        hoisted_.clear();
        auto ret = std::make_unique<Stmt>(StmtKind::Return, peek().loc);
        ret->value = parse_test();
        for (StmtPtr& inner : hoisted_) f->body.push_back(std::move(inner));
        f->body.push_back(std::move(ret));
        hoisted_ = std::move(enclosing);
        auto s = std::make_unique<Stmt>(StmtKind::FunctionDef, stmt_loc);
        s->def = std::move(f);
        return s;
    }

    // A parameter's default value: a constant expression (a lambda there would have no statement
    // to be defined before).
    ExprPtr parse_default() {
        const size_t before = hoisted_.size();
        ExprPtr e = parse_test();
        if (hoisted_.size() != before) fail(e->loc, "a parameter's default value must be a constant, not a lambda");
        return e;
    }

    // A lambda written inside an expression (`tile.reduce(t, 0, lambda a, b: a + b, 0)`) becomes
    // an inner function defined just before the statement it is in, and the expression names it.
    ExprPtr parse_inline_lambda() {
        Loc loc = peek().loc;
        std::string name = "lambda_at_" + std::to_string(loc.line) + "_" + std::to_string(loc.col);
        hoisted_.push_back(parse_lambda(name, loc));
        auto e = std::make_unique<Expr>(ExprKind::Name, loc);
        e->text = name;
        return e;
    }

    // --- token helpers -------------------------------------------------------------------
    const Token& peek(size_t ahead = 0) const {
        size_t i = pos_ + ahead;
        return toks_[i < toks_.size() ? i : toks_.size() - 1];
    }
    const Token& next() { const Token& t = toks_[pos_]; if (pos_ + 1 < toks_.size()) ++pos_; return t; }
    bool is_op(const char* op) const { return peek().kind == Tok::Op && peek().text == op; }
    bool is_name(const char* kw) const { return peek().kind == Tok::Name && peek().text == kw; }

    [[noreturn]] void fail(Loc loc, const std::string& msg) {
        throw Error(ErrorKind::Unsupported, describe_source_error(src_, loc, "", msg));
    }
    [[noreturn]] void fail_unexpected(const char* wanted) {
        const Token& t = peek();
        std::string got = t.kind == Tok::Newline ? "end of line" : t.kind == Tok::End ? "end of input"
                        : t.kind == Tok::Indent ? "indent" : t.kind == Tok::Dedent ? "dedent" : "'" + t.text + "'";
        fail(t.loc, std::string("SyntaxError: expected ") + wanted + ", got " + got);
    }
    void expect_op(const char* op) {
        if (!is_op(op)) fail_unexpected((std::string("'") + op + "'").c_str());
        next();
    }
    Token expect_identifier(const char* what) {
        if (peek().kind != Tok::Name || is_keyword(peek().text)) fail_unexpected(what);
        return next();
    }
    void expect_newline() {
        if (peek().kind == Tok::End) return;
        if (peek().kind != Tok::Newline) fail_unexpected("end of line");
        next();
    }

    // --- statements ----------------------------------------------------------------------
    std::vector<StmtPtr> parse_block() {
        std::vector<StmtPtr> body;
        if (peek().kind != Tok::Newline) {  // `if x: y = 1` on one line
            parse_simple_statements(body);
            return body;
        }
        next();
        if (peek().kind != Tok::Indent) fail_unexpected("an indented block");
        next();
        while (peek().kind != Tok::Dedent && peek().kind != Tok::End) parse_statement(body);
        if (peek().kind == Tok::Dedent) next();
        return body;
    }

    // One statement into `out`, preceded by the definitions of the lambdas its expressions hold.
    void parse_statement(std::vector<StmtPtr>& out) {
        std::vector<StmtPtr> enclosing = std::move(hoisted_);  // (a compound statement's header)
        hoisted_.clear();
        const size_t at = out.size();
        parse_statement_itself(out);
        out.insert(out.begin() + std::ptrdiff_t(at), std::make_move_iterator(hoisted_.begin()),
                   std::make_move_iterator(hoisted_.end()));
        hoisted_ = std::move(enclosing);
    }

    void parse_statement_itself(std::vector<StmtPtr>& out) {
        const Token& t = peek();
        if (t.kind == Tok::Name) {
            const std::string& w = t.text;
            if (w == "if") { out.push_back(parse_if()); return; }
            if (w == "for") { out.push_back(parse_for()); return; }
            if (w == "while") { out.push_back(parse_while()); return; }
            if (w == "def") {
                auto s = std::make_unique<Stmt>(StmtKind::FunctionDef, t.loc);
                s->def = std::make_shared<FunctionDef>(parse_def());
                out.push_back(std::move(s));
                return;
            }
            if (w == "class" || w == "try" || w == "with" || w == "async" || w == "match")
                if (w != "match" || (peek(1).kind == Tok::Name))
                    fail(t.loc, "unsupported statement: " + w);
        }
        if (is_op("@")) fail(t.loc, "unsupported statement: decorated definition inside a kernel");
        parse_simple_statements(out);
    }

    void parse_simple_statements(std::vector<StmtPtr>& out) {
        while (true) {
            out.push_back(parse_simple());
            if (is_op(";")) {
                next();
                if (peek().kind == Tok::Newline || peek().kind == Tok::End) break;
                continue;
            }
            break;
        }
        expect_newline();
    }

    StmtPtr parse_simple() {
        const Token& t = peek();
        Loc loc = t.loc;
        if (t.kind == Tok::Name) {
            const std::string& w = t.text;
            if (w == "pass") { next(); return std::make_unique<Stmt>(StmtKind::Pass, loc); }
            if (w == "break") { next(); return std::make_unique<Stmt>(StmtKind::Break, loc); }
            if (w == "continue") { next(); return std::make_unique<Stmt>(StmtKind::Continue, loc); }
            if (w == "return") {
                next();
                auto s = std::make_unique<Stmt>(StmtKind::Return, loc);
                if (peek().kind != Tok::Newline && !is_op(";") && peek().kind != Tok::End) s->value = parse_testlist();
                return s;
            }
            if (w == "assert") {
                next();
                auto s = std::make_unique<Stmt>(StmtKind::Assert, loc);
                s->value = parse_test();
                if (is_op(",")) { next(); s->message = parse_test(); }
                return s;
            }
            if (w == "raise") {  // raise, raise E, raise E(...): Stmt.value is what follows
                next();
                auto s = std::make_unique<Stmt>(StmtKind::Raise, loc);
                if (peek().kind != Tok::Newline && !is_op(";") && peek().kind != Tok::End) s->value = parse_test();
                if (is_name("from")) fail(loc, "unsupported statement: raise ... from");
                return s;
            }
            if (w == "nonlocal")
                fail(loc, "unsupported statement: nonlocal (an inner function cannot assign to a variable of the enclosing "
                          "function; return the new value instead)");
            if (w == "global") fail(loc, "unsupported statement: global (kernels cannot assign module-level variables)");
            if (w == "yield") fail(loc, "unsupported statement: yield (generators are not supported in kernels)");
            if (peek(1).kind == Tok::Op && peek(1).text == "=" && peek(2).kind == Tok::Name && peek(2).text == "lambda" &&
                !is_keyword(w))
                return parse_lambda_assignment();
            if (w == "del" || w == "import" || w == "from" || w == "lambda" || w == "await")
                fail(loc, "unsupported statement: " + w);
        }
        ExprPtr first = parse_testlist();
        if (is_op("=")) {
            auto s = std::make_unique<Stmt>(StmtKind::Assign, loc);
            s->targets.push_back(std::move(first));
            while (is_op("=")) {
                next();
                ExprPtr rhs = parse_testlist();
                s->targets.push_back(std::move(rhs));
            }
            s->value = std::move(s->targets.back());
            s->targets.pop_back();
            for (const ExprPtr& target : s->targets) check_target(*target);
            return s;
        }
        if (peek().kind == Tok::Op && peek().text.size() >= 2 && peek().text.back() == '=' &&
            peek().text != "==" && peek().text != "<=" && peek().text != ">=" && peek().text != "!=") {
            std::string op = next().text;
            op.pop_back();
            auto s = std::make_unique<Stmt>(StmtKind::AugAssign, loc);
            s->op = binop_from(op, loc);
            if (first->kind != ExprKind::Name && first->kind != ExprKind::Subscript && first->kind != ExprKind::Attribute)
                fail(first->loc, "SyntaxError: illegal target for augmented assignment");
            s->target = std::move(first);
            s->value = parse_testlist();
            return s;
        }
        if (is_op(":")) {  // annotated assignment `x: int32 = 1`: annotation is ignored
            next();
            parse_test();
            auto s = std::make_unique<Stmt>(StmtKind::Assign, loc);
            check_target(*first);
            s->targets.push_back(std::move(first));
            if (!is_op("=")) fail(loc, "unsupported statement: annotation without a value");
            next();
            s->value = parse_testlist();
            return s;
        }
        auto s = std::make_unique<Stmt>(StmtKind::Expr, loc);
        s->value = std::move(first);
        return s;
    }

    void check_target(const Expr& e) {
        switch (e.kind) {
            case ExprKind::Name: case ExprKind::Subscript: case ExprKind::Attribute: return;
            case ExprKind::Tuple: case ExprKind::List:
                for (const ExprPtr& c : e.children) check_target(*c);
                return;
            default: fail(e.loc, "SyntaxError: cannot assign to this expression");
        }
    }

    StmtPtr parse_if() {
        Loc loc = next().loc;  // 'if' or 'elif'
        auto s = std::make_unique<Stmt>(StmtKind::If, loc);
        s->test = parse_named_test();
        expect_op(":");
        s->body = parse_block();
        if (is_name("elif")) {
            s->orelse.push_back(parse_if());
        } else if (is_name("else")) {
            next();
            expect_op(":");
            s->orelse = parse_block();
        }
        return s;
    }

    StmtPtr parse_for() {
        Loc loc = next().loc;
        auto s = std::make_unique<Stmt>(StmtKind::For, loc);
        s->target = parse_target_list();
        check_target(*s->target);
        if (!is_name("in")) fail_unexpected("'in'");
        next();
        s->iter = parse_testlist();
        expect_op(":");
        s->body = parse_block();
        if (is_name("else")) { next(); expect_op(":"); s->orelse = parse_block(); }
        return s;
    }

    StmtPtr parse_while() {
        Loc loc = next().loc;
        auto s = std::make_unique<Stmt>(StmtKind::While, loc);
        s->test = parse_named_test();
        expect_op(":");
        s->body = parse_block();
        if (is_name("else")) { next(); expect_op(":"); s->orelse = parse_block(); }
        return s;
    }

    ExprPtr parse_named_test() {
        ExprPtr e = parse_test();
        if (is_op(":=")) fail(peek().loc, "unsupported expression: assignment expression (:=)");
        return e;
    }

    // A comma-separated target list for `for` (stops before 'in').
    ExprPtr parse_target_list() {
        Loc loc = peek().loc;
        ExprPtr first = parse_or_expr();
        if (!is_op(",")) return first;
        auto tuple = std::make_unique<Expr>(ExprKind::Tuple, loc);
        tuple->children.push_back(std::move(first));
        while (is_op(",")) {
            next();
            if (is_name("in")) break;
            tuple->children.push_back(parse_or_expr());
        }
        return tuple;
    }

    // --- expressions ---------------------------------------------------------------------
    BinOpKind binop_from(const std::string& op, Loc loc) {
        if (op == "+") return BinOpKind::Add;
        if (op == "-") return BinOpKind::Sub;
        if (op == "*") return BinOpKind::Mul;
        if (op == "/") return BinOpKind::Div;
        if (op == "//") return BinOpKind::FloorDiv;
        if (op == "%") return BinOpKind::Mod;
        if (op == "**") return BinOpKind::Pow;
        if (op == "@") return BinOpKind::MatMul;
        if (op == "<<") return BinOpKind::LShift;
        if (op == ">>") return BinOpKind::RShift;
        if (op == "|") return BinOpKind::BitOr;
        if (op == "^") return BinOpKind::BitXor;
        if (op == "&") return BinOpKind::BitAnd;
        fail(loc, "SyntaxError: unknown operator '" + op + "'");
    }

    // testlist: test (',' test)* [','] — a bare tuple when a comma appears.
    ExprPtr parse_testlist() {
        Loc loc = peek().loc;
        ExprPtr first = parse_test();
        if (!is_op(",")) return first;
        auto tuple = std::make_unique<Expr>(ExprKind::Tuple, loc);
        tuple->children.push_back(std::move(first));
        while (is_op(",")) {
            next();
            if (at_testlist_end()) break;
            tuple->children.push_back(parse_test());
        }
        return tuple;
    }

    bool at_testlist_end() const {
        const Token& t = peek();
        if (t.kind == Tok::Newline || t.kind == Tok::End) return true;
        if (t.kind == Tok::Op && (t.text == ")" || t.text == "]" || t.text == "=" || t.text == ";" || t.text == ":" ||
                                  (t.text.size() >= 2 && t.text.back() == '=' && t.text != "==" && t.text != "<=" &&
                                   t.text != ">=" && t.text != "!=")))
            return true;
        return false;
    }

    [[noreturn]] void fail_lambda(Loc loc) {
        fail(loc, "unsupported expression: lambda here (write it in parentheses, or as a call's argument)");
    }

    ExprPtr parse_test() {
        if (is_name("lambda")) return parse_inline_lambda();
        ExprPtr body = parse_or_test();
        if (is_name("if")) {
            Loc loc = next().loc;
            auto e = std::make_unique<Expr>(ExprKind::IfExp, loc);
            ExprPtr test = parse_or_test();
            if (!is_name("else")) fail_unexpected("'else' in conditional expression");
            next();
            ExprPtr orelse = parse_test();
            e->loc = body->loc;
            e->children.push_back(std::move(test));
            e->children.push_back(std::move(body));
            e->children.push_back(std::move(orelse));
            return e;
        }
        return body;
    }

    ExprPtr parse_boolop(BoolOpKind kind, const char* word, ExprPtr (Parser::*sub)()) {
        ExprPtr first = (this->*sub)();
        if (!is_name(word)) return first;
        auto e = std::make_unique<Expr>(ExprKind::BoolOp, first->loc);
        e->boolop = kind;
        e->children.push_back(std::move(first));
        while (is_name(word)) {
            next();
            e->children.push_back((this->*sub)());
        }
        return e;
    }
    ExprPtr parse_or_test() { return parse_boolop(BoolOpKind::Or, "or", &Parser::parse_and_test); }
    ExprPtr parse_and_test() { return parse_boolop(BoolOpKind::And, "and", &Parser::parse_not_test); }

    ExprPtr parse_not_test() {
        if (is_name("not")) {
            Loc loc = next().loc;
            auto e = std::make_unique<Expr>(ExprKind::UnaryOp, loc);
            e->unop = UnaryOpKind::Not;
            e->children.push_back(parse_not_test());
            return e;
        }
        return parse_comparison();
    }

    bool comparison_op(CmpOpKind& op, int& width) {
        const Token& t = peek();
        width = 1;
        if (t.kind == Tok::Op) {
            if (t.text == "<") { op = CmpOpKind::Lt; return true; }
            if (t.text == "<=") { op = CmpOpKind::Le; return true; }
            if (t.text == ">") { op = CmpOpKind::Gt; return true; }
            if (t.text == ">=") { op = CmpOpKind::Ge; return true; }
            if (t.text == "==") { op = CmpOpKind::Eq; return true; }
            if (t.text == "!=") { op = CmpOpKind::Ne; return true; }
            return false;
        }
        if (t.kind != Tok::Name) return false;
        if (t.text == "in") { op = CmpOpKind::In; return true; }
        if (t.text == "is") {
            if (peek(1).kind == Tok::Name && peek(1).text == "not") { op = CmpOpKind::IsNot; width = 2; }
            else op = CmpOpKind::Is;
            return true;
        }
        if (t.text == "not" && peek(1).kind == Tok::Name && peek(1).text == "in") {
            op = CmpOpKind::NotIn; width = 2;
            return true;
        }
        return false;
    }

    ExprPtr parse_comparison() {
        ExprPtr first = parse_or_expr();
        CmpOpKind op;
        int width;
        if (!comparison_op(op, width)) return first;
        auto e = std::make_unique<Expr>(ExprKind::Compare, first->loc);
        e->children.push_back(std::move(first));
        while (comparison_op(op, width)) {
            for (int i = 0; i < width; ++i) next();
            e->cmpops.push_back(op);
            e->children.push_back(parse_or_expr());
        }
        return e;
    }

    // Left-associative binary levels, lowest precedence first.
    ExprPtr parse_binary_level(int level) {
        static const std::vector<std::vector<const char*>> kLevels = {
            {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}};
        if (level == int(kLevels.size())) return parse_factor();
        ExprPtr lhs = parse_binary_level(level + 1);
        while (true) {
            const char* matched = nullptr;
            for (const char* op : kLevels[size_t(level)]) if (is_op(op)) matched = op;
            if (!matched) return lhs;
            Loc loc = next().loc;
            auto e = std::make_unique<Expr>(ExprKind::BinOp, loc);
            e->binop = binop_from(matched, loc);
            e->children.push_back(std::move(lhs));
            e->children.push_back(parse_binary_level(level + 1));
            lhs = std::move(e);
        }
    }
    ExprPtr parse_or_expr() { return parse_binary_level(0); }

    ExprPtr parse_factor() {
        if (is_op("-") || is_op("+") || is_op("~")) {
            const Token& t = next();
            auto e = std::make_unique<Expr>(ExprKind::UnaryOp, t.loc);
            e->unop = t.text == "-" ? UnaryOpKind::Neg : t.text == "+" ? UnaryOpKind::Pos : UnaryOpKind::Invert;
            e->children.push_back(parse_factor());
            return e;
        }
        return parse_power();
    }

    ExprPtr parse_power() {
        ExprPtr base = parse_primary();
        if (is_op("**")) {
            Loc loc = next().loc;
            auto e = std::make_unique<Expr>(ExprKind::BinOp, loc);
            e->binop = BinOpKind::Pow;
            e->children.push_back(std::move(base));
            e->children.push_back(parse_factor());  // right-associative, binds tighter than unary on the left
            return e;
        }
        return base;
    }

    ExprPtr parse_primary() {
        ExprPtr e = parse_atom();
        while (true) {
            if (is_op(".")) {
                next();
                Token name = expect_identifier("attribute name");
                auto a = std::make_unique<Expr>(ExprKind::Attribute, name.loc);
                a->text = name.text;
                a->children.push_back(std::move(e));
                e = std::move(a);
            } else if (is_op("(")) {
                Loc loc = next().loc;
                auto c = std::make_unique<Expr>(ExprKind::Call, e->loc);
                (void)loc;
                c->children.push_back(std::move(e));
                while (!is_op(")")) {
                    if (is_op("*") || is_op("**")) fail(peek().loc, "unsupported call syntax: argument unpacking");
                    if (peek().kind == Tok::Name && peek(1).kind == Tok::Op && peek(1).text == "=") {
                        Keyword k;
                        k.name = next().text;
                        next();
                        k.value = parse_test();
                        c->keywords.push_back(std::move(k));
                    } else {
                        if (!c->keywords.empty()) fail(peek().loc, "SyntaxError: positional argument follows keyword argument");
                        c->children.push_back(parse_test());
                        if (is_name("for")) fail(peek().loc, "unsupported expression: generator expression");
                    }
                    if (!is_op(")")) expect_op(",");
                }
                next();
                e = std::move(c);
            } else if (is_op("[")) {
                Loc loc = next().loc;
                auto s = std::make_unique<Expr>(ExprKind::Subscript, e->loc);
                (void)loc;
                s->children.push_back(std::move(e));
                s->children.push_back(parse_subscript_list());
                expect_op("]");
                e = std::move(s);
            } else {
                return e;
            }
        }
    }

    ExprPtr parse_subscript_list() {
        Loc loc = peek().loc;
        ExprPtr first = parse_subscript();
        if (!is_op(",")) return first;
        auto tuple = std::make_unique<Expr>(ExprKind::Tuple, loc);
        tuple->children.push_back(std::move(first));
        while (is_op(",")) {
            next();
            if (is_op("]")) break;
            tuple->children.push_back(parse_subscript());
        }
        return tuple;
    }

    ExprPtr parse_subscript() {
        Loc loc = peek().loc;
        ExprPtr lower;
        if (!is_op(":")) {
            lower = parse_test();
            if (!is_op(":")) return lower;
        }
        auto slice = std::make_unique<Expr>(ExprKind::Slice, loc);
        next();  // ':'
        ExprPtr upper, step;
        if (!is_op(":") && !is_op("]") && !is_op(",")) upper = parse_test();
        if (is_op(":")) {
            next();
            if (!is_op("]") && !is_op(",")) step = parse_test();
        }
        slice->children.push_back(std::move(lower));
        slice->children.push_back(std::move(upper));
        slice->children.push_back(std::move(step));
        return slice;
    }

    ExprPtr parse_atom() {
        const Token& t = peek();
        Loc loc = t.loc;
        switch (t.kind) {
            case Tok::Name: {
                if (t.text == "True" || t.text == "False") {
                    auto e = std::make_unique<Expr>(ExprKind::Bool, loc);
                    e->bool_value = next().text == "True";
                    return e;
                }
                if (t.text == "None") { next(); return std::make_unique<Expr>(ExprKind::None, loc); }
                if (t.text == "lambda") fail_lambda(loc);
                if (t.text == "yield") fail(loc, "unsupported expression: yield (generators are not supported in kernels)");
                if (t.text == "await") fail(loc, "unsupported expression: " + t.text);
                if (is_keyword(t.text)) fail_unexpected("an expression");
                auto e = std::make_unique<Expr>(ExprKind::Name, loc);
                e->text = next().text;
                return e;
            }
            case Tok::Int: {
                auto e = std::make_unique<Expr>(ExprKind::Int, loc);
                e->text = next().text;
                parse_int_literal(*e);
                return e;
            }
            case Tok::Float: {
                auto e = std::make_unique<Expr>(ExprKind::Float, loc);
                e->text = next().text;
                e->float_value = std::strtod(e->text.c_str(), nullptr);
                return e;
            }
            case Tok::Imag: {
                auto e = std::make_unique<Expr>(ExprKind::Imag, loc);
                e->text = next().text;
                e->float_value = std::strtod(e->text.c_str(), nullptr);
                return e;
            }
            case Tok::String: {
                auto e = std::make_unique<Expr>(ExprKind::String, loc);
                e->text = next().text;
                while (peek().kind == Tok::String) e->text += next().text;  // implicit concatenation
                return e;
            }
            case Tok::Op: {
                if (t.text == "(") {
                    next();
                    if (is_op(")")) { next(); return std::make_unique<Expr>(ExprKind::Tuple, loc); }
                    ExprPtr inner = parse_test();
                    if (is_name("for")) fail(peek().loc, "unsupported expression: generator expression");
                    if (is_op(":=")) fail(peek().loc, "unsupported expression: assignment expression (:=)");
                    if (is_op(",")) {
                        auto tuple = std::make_unique<Expr>(ExprKind::Tuple, loc);
                        tuple->children.push_back(std::move(inner));
                        while (is_op(",")) {
                            next();
                            if (is_op(")")) break;
                            tuple->children.push_back(parse_test());
                        }
                        inner = std::move(tuple);
                    }
                    expect_op(")");
                    return inner;
                }
                if (t.text == "[") {
                    next();
                    auto list = std::make_unique<Expr>(ExprKind::List, loc);
                    while (!is_op("]")) {
                        list->children.push_back(parse_test());
                        if (is_name("for")) fail(peek().loc, "unsupported expression: list comprehension");
                        if (!is_op("]")) expect_op(",");
                    }
                    next();
                    return list;
                }
                if (t.text == "{") fail(loc, "unsupported expression: dict or set display");
                if (t.text == "...") { next(); return std::make_unique<Expr>(ExprKind::Ellipsis, loc); }
                break;
            }
            default: break;
        }
        fail_unexpected("an expression");
    }

    void parse_int_literal(Expr& e) {
        const std::string& s = e.text;
        int base = 10;
        size_t start = 0;
        if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; start = 2; }
        else if (s.size() > 1 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) { base = 8; start = 2; }
        else if (s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) { base = 2; start = 2; }
        else if (s.size() > 1 && s[0] == '0') {
            for (char c : s) if (c != '0') fail(e.loc, "SyntaxError: leading zeros in decimal integer literals are not permitted");
        }
        errno = 0;
        unsigned long long v = std::strtoull(s.c_str() + start, nullptr, base);
        if (errno == ERANGE) fail(e.loc, "integer literal " + s + " does not fit in 64 bits");
        if (v > 0x7fffffffffffffffULL) { e.big_int = true; e.int_value = int64_t(v); }
        else e.int_value = int64_t(v);
    }

    const SourceText& src_;
    std::vector<Token> toks_;
    size_t pos_ = 0;
    std::vector<StmtPtr> hoisted_;  // lambdas of the statement being parsed (parse_inline_lambda)
};

}  // namespace

FunctionDef parse_function(const SourceText& src) {
    return Parser(src, tokenize(src)).parse();
}

}  // namespace simt
