// Code generation: a typed CompileUnit → readable C++ (cpu) or CUDA C++ (cuda) source with
// #line directives pointing at the user's Python file. One emitter serves both targets; the
// target-specific parts live in the preludes and in the kernel entry point.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>
#include "codegen/guards.h"
#include "codegen/loop_bounds.h"
#include "codegen/nvvm_ir.h"
#include "sema/typed_function.h"

namespace simt {

// The prelude's name of an array layout (SIMT_C, SIMT_F, SIMT_A).
inline const char* layout_name(Layout l) { return l == Layout::C ? "SIMT_C" : l == Layout::F ? "SIMT_F" : "SIMT_A"; }

enum class Target { Cpu, Cuda };

struct GeneratedSource {
    std::string user_code;    // the kernel's code, as shown by inspect_source()
    std::string full_source;  // prelude + user code: what the compiler sees
    std::string entry_name;   // symbol of the kernel entry point
    int64_t static_shared_bytes = 0;  // cuda.shared.array storage with a fixed size
    int64_t local_bytes = 0;          // cuda.local.array storage per thread
    int64_t const_bytes = 0;          // NumPy arrays frozen into constant memory
    bool prints = false;              // calls print()
    CompileOptions options;   // what it was generated with; backends map them to compiler flags
    // Raw CUDA C++ (codegen/raw_module.h): the user's own options (NVRTC's, or the host
    // compiler's for the cpu backend); NVRTC compiles it without --minimal.
    bool raw_cuda = false;
    std::vector<std::string> compiler_options;
    // Generated code with the user's CUDA C++ linked in (cuda.declare_device): NVRTC compiles it
    // with the toolkit's headers (not --minimal), as raw CUDA C++.
    bool toolkit_headers = false;
    // cuda.cg grid barriers: launched cooperatively, every block resident at once.
    bool grid_sync = false;
    std::string parameter_table;  // cpu: exported function giving each parameter's byte size
    bool entry_is_name_expression = false;  // cuda: entry_name is a C++ name such as "k<float>"
    // cuda, raw CUDA C++: all of the module's name expressions (its kernels share one module).
    std::vector<std::string> module_name_expressions;
    // cuda: the same kernel as NVVM IR, where the IR emission covers it (the backend's fast path).
    std::optional<NvvmModule> nvvm;
    std::string nvvm_not_covered;  // ... else the first construct the IR emission does not cover
};

GeneratedSource emit_unit(const CompileUnit& unit, Target target);

// The prelude for a target (embedded at build time from codegen/prelude/*.h).
const std::string& prelude_source(Target target);
const std::string& libdevice_cpu_prelude();  // for units using simt.cuda.libdevice (cpu)
const std::string& tile_prelude();           // for units using simt.tile (both targets)

class Emitter {
public:
    Emitter(const CompileUnit& unit, Target target);
    GeneratedSource run();

    // --- services for builtins ----------------------------------------------------------------
    std::string expr(const Expr& e);                                   // code of a typed expression
    std::string expr_as(const Expr& e, const Type* to);               // ... converted to `to`
    std::string cast(const std::string& code, const Type* from, const Type* to);
    std::string c_type(const Type* t);
    std::string literal(const ConstValue& v, const Type* t);
    std::string temp(const char* hint = "t");                        // a fresh local name
    Target target() const { return target_; }
    const CompileUnit& unit() const { return unit_; }
    // Code of `lhs op rhs` on scalars; its type is binop_type(op, lt, rt).
    std::string binop_code(BinOpKind op, const std::string& lhs, const Type* lt, const std::string& rhs,
                           const Type* rt);
    static const Type* binop_type(BinOpKind op, const Type* lt, const Type* rt);
    // Whether arithmetic of type t is written with the prelude's simt_wrap_* helpers.
    bool wraps_explicitly(const Type* t) const;
    // Declarations builtins need: a local at the top of the function being emitted, or a
    // file-scope declaration emitted once per key (before all functions).
    void hoist_local(const std::string& declaration);
    void add_global(const std::string& key, const std::string& declaration);
    // The unit calls libdevice functions: the cpu target joins their host versions to its prelude.
    void use_libdevice() { uses_libdevice_ = true; }

private:
    void function(const TypedFunction& f);
    void entry_point(const TypedFunction& k);
    void block(const std::vector<StmtPtr>& body);
    void statement(const Stmt& s);
    void assign_to(const Expr& target, const std::string& value_code, const Type* value_type);
    void for_statement(const Stmt& s);
    std::string hoisted_bounds_test(const std::vector<HoistedAccess>& accesses, const std::string& start,
                                    const std::string& stop);
    // A loop and its `else:` block; `body` writes the loop body (default: the statement's body).
    void loop_with_else(const Stmt& s, const std::string& header, const std::function<void()>& body = {});
    struct Loop { std::string broke_flag; };
    void loop_else(const Stmt& s, const Loop& loop);
    // range(...)'s bounds, evaluated once into locals of the loop variable's type `var`.
    struct RangeBounds {
        std::string type, start, stop, step;
        int step_sign = 0;  // known at compile time: 1 or -1; 0: tested when the loop runs
        std::string more(const std::string& i) const;  // whether i has not reached the stop
    };
    RangeBounds range_bounds(const Expr& call, const Type* var);
    // for loops over arrays, tuples, enumerate() and zip() (emit_iterate.cpp): each iterable is a
    // cursor declared before the loop, tested and advanced by the loop header.
    struct Cursor {
        const Type* type = nullptr;  // the item's type (sema/iteration.h)
        std::string more, advance, item;
        std::string count;           // how many items, where known before the loop ("" otherwise)
        std::vector<Cursor> parts;   // enumerate: counter and source; zip: one per iterable
    };
    Cursor cursor(const Expr& iterable);
    Cursor enumerate_cursor(const Expr& call);
    Cursor zip_cursor(const Expr& call);
    std::string item_code(const Cursor& c);
    void bind_item(const Expr& target, const Cursor& c);
    void for_each_item(const Stmt& s);
    void line(const std::string& text);
    void line_directive(Loc loc);
    std::string name_expr(const Expr& e);
    std::string attribute_expr(const Expr& e);
    std::string subscript_expr(const Expr& e);
    std::string call_expr(const Expr& e);
    std::string foreign_call(const Expr& e, const ForeignFunction& f);  // codegen/emit_foreign.cpp
    std::string foreign_thunk_head(const ForeignFunction& f);
    std::string linked_code();                                          // ... the linked CUDA C++ itself
    std::vector<std::string> linked_include_options() const;            // ... and where its includes are
    std::string compare_expr(const Expr& e);
    std::string boolop_expr(const Expr& e);
    std::string element_access(const char* fn, const Expr& subscript, const std::string& extra);
    std::string tuple_struct(const Type* t);
    std::string cpu_runner(const std::string& body_call);  // emit_runner.cpp
    // cpu, emit_regions.cpp: a kernel whose barriers sit in block-uniform structured control
    // flow runs the code between barriers as loops over the block's threads (no fibers).
    bool region_eligible(const TypedFunction& k);
    void region_function(const TypedFunction& k);
    void region_sequence(const std::vector<StmtPtr>& body);
    void region_threads(const std::vector<const Stmt*>& run);
    void open_thread_loop(bool writable);
    void region_statement(const Stmt& s);
    std::string region_uniform(const std::vector<const Expr*>& values, const std::vector<const Type*>& types,
                               const Stmt& s);
    std::string tuple_concat_expr(const Expr& e);  // a + b on tuples (emit_tuple.cpp)
    std::string tuple_slice_expr(const Expr& e);   // t[a:b:c] with constant bounds (emit_tuple.cpp)
    std::string view_expr(const Expr& e);          // A[i] of a 2-D A, A[a:b] (emit_view.cpp)
    static std::string view_call(const Type* view, const std::string& array, int site);  // simt_view<...>(ctx, array, site
    void view_store(const Expr& target, const std::string& value_code, const Type* value_type);  // A[a:b] = x
    std::string options_header() const;            // kernel options as generated-code comments/defines

    const CompileUnit& unit_;
    Target target_;
    const TypedFunction* fn_ = nullptr;
    std::string out_;          // current function body being written
    std::string functions_;    // finished functions
    std::string structs_;      // tuple struct definitions
    std::map<const Type*, std::string> tuple_names_;
    std::string hoisted_;      // hoist_local() declarations of the current function
    std::string globals_;      // add_global() declarations
    bool uses_libdevice_ = false;
    std::vector<std::string> global_keys_;
    // region mode (emit_regions.cpp)
    bool regions_ = false;                       // the kernel runs in region mode
    std::string thread_exit_;                    // what `return` emits inside a thread loop
    std::set<const Stmt*> region_skip_;          // uniform array assignments hoisted to the block
    std::set<const Stmt*> region_barriers_;      // statements that contain a barrier
    std::vector<std::pair<std::string, const Type*>> region_locals_;  // per-thread locals
    int indent_ = 0;
    int temp_counter_ = 0;
    int last_line_ = -1;
    std::vector<Loop> loops_;
    // range() loop variables known to lie in [0, stop) while their loop body is emitted: name ->
    // the C++ expression of the stop (see simt_ranged_index in prelude/common.h).
    std::map<std::string, std::string> ranged_vars_;
    // Integer locals of the function being emitted that are never negative (nonnegative.h).
    std::set<std::string> nonnegative_;
    std::string index_code(const Expr& index);  // an index component, tagged with its known range
    // Element accesses a test before their loop has proven in range (loop_bounds.h), while that
    // loop's checked copy is emitted: they run without the bounds test.
    std::set<const Expr*> proven_;
    // What the tests of the if statements around the code being emitted keep in range (guards.h).
    std::vector<GuardFact> guards_;
    bool guarded(const Expr& subscript) const;  // every index of the access is kept in range
};

}  // namespace simt
