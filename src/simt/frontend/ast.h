// Abstract syntax tree of one kernel or device function. Nodes carry their file location;
// semantic analysis fills in the `type` and `resolved` annotations in place.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "frontend/source.h"

namespace simt {

struct Type;
struct Resolved;

enum class ExprKind {
    Name, Int, Float, Imag, Bool, None, String, Ellipsis,
    BinOp, UnaryOp, BoolOp, Compare, IfExp, Call, Attribute, Subscript, Tuple, List, Slice,
};

enum class BinOpKind { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, BitOr, BitXor, BitAnd };
enum class UnaryOpKind { Neg, Pos, Invert, Not };
enum class BoolOpKind { And, Or };
enum class CmpOpKind { Lt, Le, Gt, Ge, Eq, Ne, Is, IsNot, In, NotIn };

const char* binop_symbol(BinOpKind op);
const char* cmpop_symbol(CmpOpKind op);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Keyword {
    std::string name;
    ExprPtr value;
};

struct Expr {
    ExprKind kind;
    Loc loc;
    std::string text;      // Name id, Attribute attr, String value, number spelling
    int64_t int_value = 0; // Int literal (values above int64 max keep only `text` and set `big_int`)
    bool big_int = false;
    double float_value = 0;
    bool bool_value = false;
    BinOpKind binop = BinOpKind::Add;   // BinOp
    UnaryOpKind unop = UnaryOpKind::Neg; // UnaryOp
    BoolOpKind boolop = BoolOpKind::And; // BoolOp
    std::vector<CmpOpKind> cmpops;       // Compare: between consecutive children
    // Children by kind: BinOp [lhs, rhs]; UnaryOp [operand]; BoolOp [values...];
    // Compare [left, comparators...]; IfExp [test, body, orelse]; Call [func, args...];
    // Attribute [value]; Subscript [value, index]; Tuple/List [elements...];
    // Slice [lower, upper, step] with null for an omitted part.
    std::vector<ExprPtr> children;
    std::vector<Keyword> keywords;       // Call keyword arguments

    // Filled by semantic analysis.
    const Type* type = nullptr;
    std::shared_ptr<Resolved> resolved;  // what a Name/Attribute/Call denotes, constants

    Expr(ExprKind k, Loc l) : kind(k), loc(l) {}
    Expr* child(size_t i) const { return children[i].get(); }
};

enum class StmtKind { Expr, Assign, AugAssign, If, For, While, Break, Continue, Return, Pass, Assert, Raise, FunctionDef };

struct FunctionDef;

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt {
    StmtKind kind;
    Loc loc;
    std::vector<ExprPtr> targets;  // Assign: one or more targets (a = b = v)
    ExprPtr value;                 // Assign/AugAssign value, Expr expression, Return value (may be null), Assert test
    ExprPtr target;                // AugAssign and For target
    ExprPtr test;                  // If/While condition
    ExprPtr iter;                  // For iterable
    ExprPtr message;               // Assert message (may be null); Raise message (a constant string, or null)
    BinOpKind op = BinOpKind::Add; // AugAssign operator
    std::vector<StmtPtr> body;
    std::vector<StmtPtr> orelse;   // If else/elif branch; For/While `else:` block

    std::shared_ptr<FunctionDef> def;  // FunctionDef: a nested `def`, or `name = lambda ...: ...`

    int site = -1;                 // Assert/Raise reported with debug=True: its CompileUnit::bounds_sites entry

    Stmt(StmtKind k, Loc l) : kind(k), loc(l) {}
};

struct Param {
    std::string name;
    Loc loc;
    ExprPtr default_value;  // may be null
};

struct FunctionDef {
    std::string name;
    Loc loc;
    std::vector<Param> params;
    std::vector<StmtPtr> body;
    bool is_lambda = false;  // `name = lambda ...: expr` (body: one return statement)
};

// A copy of a function's tree without the annotations of semantic analysis (an inner function is
// analyzed once per specialization, each on its own copy).
FunctionDef clone(const FunctionDef& f);
ExprPtr clone_expr(const Expr* e);  // a fresh copy of e and its children, without sema's annotations
std::vector<StmtPtr> clone_block(const std::vector<StmtPtr>& body);  // the same for statements

// Debug rendering of the tree as nested S-expressions (used by the parser tests).
std::string dump(const Expr& e);
std::string dump(const FunctionDef& f);

}  // namespace simt
