// Semantic analysis of kernel functions: name resolution and numba-compatible type inference.
#pragma once
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>
#include "sema/builtins.h"
#include "sema/globals.h"
#include "sema/typed_function.h"

namespace simt {

// The identifier a Python name gets in generated code (avoids C++ keywords and prelude names).
std::string c_identifier(const std::string& python_name);

// An integer literal, or arithmetic on integer literals only (sema/integer_literals.cpp). Python
// folds these exactly when it compiles the function, and numba sees the result.
bool integer_literal(const Expr& e);

// The names an assignment target binds: a name, or those of a tuple or list, not an element's
// array or index (sema/analyze.cpp).
void collect_targets(const Expr& target, std::set<std::string>& out);
// How often each name is bound in `body`: assignments, augmented assignments, loop targets and
// nested definitions (sema/local_constants.cpp).
void count_bindings(const std::vector<StmtPtr>& body, std::map<std::string, int>& count);

// A slice with no start, stop or step (`:`) (sema/array_view.cpp).
bool is_whole_slice(const Expr& slice);
// A slice's start (k = 0), stop (1) or step (2) when given, null when absent or None.
const Expr* given_slice_bound(const Expr& slice, size_t k);

// The class a builtin exception's name denotes ("exception.ValueError" -> "ValueError"), or ""
// for any other builtin: the resolver names builtin exception classes so, for `raise`.
std::string builtin_exception_class(const std::string& builtin);

// Reads the CUDA C++ a unit compiles with (cuda.declare_device): the files of its options' link=
// and of the declarations it calls, into unit.linked_sources (sema/analyze.cpp).
void read_linked_sources(CompileUnit& unit);

// Analyzes a kernel for concrete argument types. Raises Error(Typing) / Error(Unsupported)
// with file:line, the source line and a caret.
std::unique_ptr<CompileUnit> analyze_kernel(const SourceText& source, const GlobalResolver& resolve,
                                            const std::vector<const Type*>& arg_types,
                                            const CompileOptions& options);

// Analyzes one function body. Builtins call back into this for argument types and errors.
class Sema {
public:
    Sema(CompileUnit& unit, TypedFunction& fn, const GlobalResolver& resolve, std::vector<std::string>& call_stack);

    void run();  // infers types until they stop changing, then a final strict pass

    // --- services for builtins --------------------------------------------------------------
    const Type* type_of(Expr& e);                   // infers and records the type of `e`
    const ConstValue* constant(const Expr& e) const;  // folded constant value, or null
    void set_constant(Expr& e, ConstValue v);         // `e` is known while compiling: this value
    [[noreturn]] void fail(Loc loc, const std::string& message) const;         // TypingError
    [[noreturn]] void unsupported(Loc loc, const std::string& message) const;  // UnsupportedError
    // Matches call arguments to parameter names, typing each; errors name the builtin.
    std::vector<Expr*> bind(Expr& call, const std::string& fname, const std::vector<const char*>& params,
                            size_t required);
    // An argument that must be a compile-time integer (e.g. the n of cuda.grid(n)).
    int64_t constant_int(Expr& e, const std::string& what);
    // What a for loop binds on each iteration over typed expression `iterable`; an error naming
    // its line when it cannot be iterated (sema/iteration.cpp).
    const Type* item_type(Expr& iterable);
    CompileUnit& unit() { return unit_; }
    TypedFunction& function() { return fn_; }
    bool final_pass() const { return final_; }
    // The inner functions an inner function's body can name (its enclosing scopes' ones).
    void inherit_inner_functions(const DeviceFunctionRef& ref);
    // A builtin that takes a function (tile.reduce's `func`): the call `func(v0, v1, ...)` with
    // values of `types`, built once into site's Resolved::synthetic and typed; its return type, or
    // null while an argument's type is still unknown (sema/function_arguments.cpp).
    const Type* type_function_argument_call(Expr& site, const Expr& func, const std::vector<const Type*>& types);
    // The names the values of that call have in the generated code, v0, v1, ...
    static std::vector<std::string> function_argument_names(const Expr& site, size_t count);

private:
    // statements
    void block(std::vector<StmtPtr>& body);
    void statement(Stmt& s);
    void assign(Expr& target, const Type* value_type, Expr* value, Loc loc);
    void assign_local(const std::string& name, const Type* t, Loc loc);
    void check_condition(Expr& test);
    void assert_statement(Stmt& s);  // sema/assertions.cpp
    // `for v in tile.static_iter(...)` becomes the unrolled body (sema/static_iter.cpp); false
    // where the loop is another kind.
    bool unroll_static_iter(Stmt& s);
    int static_iter_count_ = 0;  // loops unrolled so far: their variables' suffixes
    void raise_statement(Stmt& s);   // sema/assertions.cpp
    void report_site(Stmt& s, const std::string& exception, const std::string& text);
    // expressions
    const Type* infer(Expr& e);
    const Type* infer_name(Expr& e);
    const Type* infer_attribute(Expr& e);
    const Type* infer_subscript(Expr& e);
    const Type* infer_call(Expr& e);
    const Type* infer_binop(Expr& e);
    const Type* infer_unary(Expr& e);
    const Type* infer_compare(Expr& e);
    const Type* infer_device_call(Expr& e, const std::shared_ptr<DeviceFunctionRef>& ref);
    const Type* infer_foreign_call(Expr& e, const std::shared_ptr<const ForeignFunction>& f);  // sema/foreign_call.cpp
    const Type* infer_tuple_slice(Expr& e, const Type* tuple);  // tuple[a:b:c], constant bounds (sema/tuple_slice.cpp)
    const Type* infer_array_view(Expr& e, const Type* base, const std::vector<Expr*>& parts);  // sema/array_view.cpp
    const Type* from_global(Expr& e, const GlobalValue& g);
    const Type* from_member(Expr& e, const ModuleMember& m, const std::string& module, const std::string& attr);
    Resolved& resolved(Expr& e);
    void fold_comparison(Expr& e);  // a comparison of real constants -> a bool constant
    std::string expr_text(const Expr& e) const;
    bool is_frame_array(const Expr& e) const;
    void check_integer_literals(const std::vector<StmtPtr>& body) const;  // sema/integer_literals.cpp
    // sema/inner_functions.cpp
    void collect_inner_functions();
    // Drops the untaken branch of an `if` decided when compiling (sema/inner_functions.cpp).
    void prune(std::vector<StmtPtr>& branch);
    const Type* infer_inner_function_name(Expr& e, const std::shared_ptr<DeviceFunctionRef>& ref);
    bool inner_call_arguments(Expr& e, const DeviceFunctionRef& ref, std::vector<const Type*>& types);

    CompileUnit& unit_;
    TypedFunction& fn_;
    const GlobalResolver& resolve_;
    std::vector<std::string>& call_stack_;
    std::set<std::string> local_names_;              // names assigned anywhere in the function
    std::map<std::string, const Type*> local_types_;  // current best type of each local
    std::set<std::string> frame_arrays_;  // locals bound to a cuda.local.array of this function's frame
    std::map<std::string, GlobalValue> globals_;      // resolver answers, asked once per name
    // Locals that exist only while compiling: a dtype (`dt = a.dtype`) or a string constant
    // (`pad = tile.PaddingMode.ZERO`). Reads are the value; no variable is emitted.
    std::map<std::string, ConstValue> constant_strings_;
    // Locals assigned once, by a top-level statement, a number or tuple of numbers known while
    // compiling: their reads after that statement are that constant (sema/local_constants.cpp).
    std::map<std::string, const Stmt*> single_assignments_;
    std::map<std::string, std::pair<ConstValue, Loc>> local_constants_;
    void find_single_assignments();
    void note_local_constants(const Stmt& s);
    void read_local_constant(Expr& e);
    std::vector<std::string> local_order_;
    std::map<std::string, std::shared_ptr<DeviceFunctionRef>> inner_functions_;  // nested defs/lambdas by name
    const Expr* callee_name_ = nullptr;  // the Name a Call being typed calls (an inner function may only be called)
    std::set<const Expr*> function_values_;  // arguments of builtins that take functions: may name inner functions
    bool changed_ = false;
    bool final_ = false;
    bool incomplete_ = false;   // a read of a local whose type is not known yet
    const Type* return_type_ = nullptr;
    int loop_depth_ = 0;
};

}  // namespace simt
