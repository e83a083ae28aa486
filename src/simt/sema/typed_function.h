// The result of semantic analysis: typed functions (the kernel and the device functions it
// calls, each specialized for its argument types) ready for code generation.
#pragma once
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>
#include "frontend/ast.h"
#include "sema/constant.h"
#include "sema/globals.h"

namespace simt {

// How array element accesses are guarded (see SPEC.md, "Bounds").
enum class BoundsMode {
    Masked,     // out-of-range loads give 0 and stores are dropped (the default)
    Checked,    // as Masked, and the first out-of-range access is reported as IndexError
    Unchecked,  // raw access (negative indices still wrap once)
};

struct CompileOptions {
    BoundsMode bounds = BoundsMode::Masked;
    bool fastmath = false;
    bool debug = false;
    bool lineinfo = false;
    int max_registers = 0;
    // @cuda.jit(launch_bounds=...): the most threads a block of the kernel has, the fewest blocks
    // to keep resident per multiprocessor, the most blocks per cluster (0: not given).
    int launch_bounds[3] = {0, 0, 0};
    bool opt = true;  // optimize (numba's `opt`; off by default under debug=True)
    // simt.cuda.tile kernels: parameters annotated tile.Constant. They are not parameters of the
    // compiled kernel: the resolver gives their values, as it does a global's.
    std::vector<std::string> constant_params;
    bool tile_kernel = false;  // a @tile.kernel (or a function it calls): tile operations allowed
    // CUDA C++ files compiled with the kernel (@cuda.jit(link=[...])), for cuda.declare_device functions.
    std::vector<std::string> link;
};

// Per-expression facts found by analysis beyond the type.
struct TypedFunction;
struct Resolved {
    bool is_constant = false;
    ConstValue constant;
    bool is_local = false;                    // a Name bound to a local variable or parameter
    std::shared_ptr<DeviceFunctionRef> device_function;
    std::shared_ptr<const ForeignFunction> foreign;  // a Call of a cuda.declare_device function
    TypedFunction* callee = nullptr;          // device function specialization a Call invokes
    int site = -1;                            // bounds-check site id of an array access
    std::string builtin;                      // canonical builtin this Name/Attribute/Call denotes
    int memory_slot = -1;                     // array storage it declares: CompileUnit::memory_arrays index
    int sync_site = -1;                       // barrier or warp operation: CompileUnit::sync_sites index
    // A call sema built for a builtin that takes a function (tile.reduce's combine): `func(v0, v1)`
    // with Sema::function_argument_names() as its arguments (see sema/function_arguments.cpp).
    std::shared_ptr<Expr> synthetic;
};

struct TypedFunction {
    std::string name;        // Python name
    std::string c_name;      // name in generated code (unique within the unit)
    SourceText source;
    FunctionDef def;
    bool is_kernel = false;
    std::vector<const Type*> param_types;
    std::vector<std::pair<std::string, const Type*>> locals;  // non-parameter locals
    const Type* return_type = nullptr;
    std::vector<TypedFunction*> callees;  // device functions called (after the final pass)
    bool force_inline = false;  // a device function declared with inline=True / "always"
    std::string device_key;     // the device function's DeviceFunctionRef::key (one per dispatcher)
    size_t hidden_params = 0;   // an inner function: its last params are the enclosing variables it reads
    std::vector<StmtPtr> pruned;  // untaken branches of `if`s decided when compiling (kept alive, not compiled)
};

// The functions reachable from `f` (f included), callees before callers: the order code
// generation defines them in. `seen` holds those already placed.
inline void functions_in_call_order(const TypedFunction* f, std::vector<const TypedFunction*>& order,
                                    std::set<const TypedFunction*>& seen) {
    if (!seen.insert(f).second) return;
    for (const TypedFunction* c : f->callees) functions_in_call_order(c, order, seen);
    order.push_back(f);
}

// A bounds-check site: where an array access is in the user's source.
struct BoundsSite {
    std::string function;
    std::string filename;
    int line = 0;
    std::string array;  // source text of the array expression (usually its name)
    std::string assertion;  // an assert's or raise's report (debug=True): the failure's text
    std::string exception;  // the builtin exception class a raise names ("ValueError")
};

// Storage declared by cuda.shared.array / cuda.local.array, or a NumPy array frozen into
// constant memory (cuda.const.array_like, or a global array read by the kernel).
struct MemoryArray {
    enum class Space { Shared, DynamicShared, Local, Const } space = Space::Shared;
    DType dtype = DType::Float64;
    std::vector<int64_t> shape;
    int64_t bytes = 0;
    int64_t alignment = 1;
    int64_t offset = 0;  // Shared: byte offset in the block's static shared memory
    std::string data;    // Const: the elements' bytes in C order
};

// Everything code generation needs for one kernel specialization.
struct CompileUnit {
    CompileOptions options;
    std::vector<std::unique_ptr<TypedFunction>> functions;  // device functions, then the kernel
    TypedFunction* kernel = nullptr;
    std::vector<BoundsSite> bounds_sites;
    // Features the back end must provide for this kernel.
    bool uses_barrier = false;   // syncthreads and friends: threads of a block must run as fibers
    bool uses_warp = false;      // warp-synchronous operations
    bool uses_grid_sync = false; // cuda.cg grid barriers: a cooperative launch, all blocks resident
    bool uses_print = false;     // print(): output is written to stdout by the backend
    bool uses_tiles = false;     // simt.cuda.tile operations: the unit needs the tile prelude
    int64_t tile_scratch_bytes = 0;  // shared memory the tile operations exchange elements through
    std::vector<MemoryArray> memory_arrays;
    int64_t static_shared_bytes = 0;  // cuda.shared.array storage of fixed size, laid out in order
    int64_t local_bytes = 0;          // cuda.local.array storage per thread
    int64_t const_bytes = 0;          // frozen NumPy arrays
    std::vector<std::string> sync_sites;  // "cuda.syncthreads() at file.py:12", for error reports
    // cuda.declare_device functions called, and the CUDA C++ compiled with the kernel for them
    // (the kernel's link= files, then those of the declarations; read when analysis ends).
    std::vector<std::shared_ptr<const ForeignFunction>> foreign_functions;
    std::vector<LinkedSource> linked_sources;
};

}  // namespace simt
