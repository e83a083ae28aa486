// Registry of builtin names kernels can use: members of modules (math.sin, cuda.threadIdx,
// np.float32) and how each builtin function is typed and turned into code. The builtins of
// each domain are registered by their own file (builtins_*.cpp).
#pragma once
#include <string>
#include <vector>
#include "frontend/ast.h"
#include "sema/constant.h"

namespace simt {

class Sema;
class Emitter;

struct BuiltinFunction {
    std::string name;  // canonical, e.g. "math.sin"
    // Types a call (arguments are already typed); raises a TypingError through Sema on misuse.
    const Type* (*infer)(Sema& sema, Expr& call);
    // C++ code for a typed call.
    std::string (*emit)(Emitter& em, const Expr& call);
    // Takes a function as an argument (tile.reduce): inner functions and lambdas may be passed.
    bool takes_functions = false;
};

// What `module.attr` denotes.
struct ModuleMember {
    enum class Kind { Module, Function, Dim3, DTypeObj, Constant, Value } kind;
    std::string target;  // canonical name (Module/Function/Dim3) or code (Value: e.g. "simt_laneid(ctx)")
    DType dtype = DType::Int64;  // DTypeObj; Value's type
    ConstValue value;            // Constant
};

class BuiltinRegistry {
public:
    void add_function(BuiltinFunction f);
    void add_member(const std::string& module, const std::string& attr, ModuleMember m);
    const BuiltinFunction* function(const std::string& name) const;
    const ModuleMember* member(const std::string& module, const std::string& attr) const;
private:
    std::vector<BuiltinFunction> functions_;
    std::vector<std::pair<std::string, ModuleMember>> members_;  // key "module.attr"
};

// The registry with every domain's builtins registered.
const BuiltinRegistry& builtins();

// Convenience for registration.
ModuleMember member_module(const std::string& canonical);
ModuleMember member_function(const std::string& canonical);
ModuleMember member_constant(ConstValue v);
ModuleMember member_value(const std::string& code, DType type);

// Matches a call's positional and keyword arguments to parameter names. Returns one entry per
// parameter (null where omitted); `error` is set (and the result empty) on a mismatch.
std::vector<const Expr*> match_call_args(const Expr& call, const std::vector<const char*>& params,
                                         size_t required, std::string& error);

// Registration entry points, one per domain file.
void register_python_builtins(BuiltinRegistry& r);
void register_math_builtins(BuiltinRegistry& r);
void register_cuda_builtins(BuiltinRegistry& r);
void register_numpy_builtins(BuiltinRegistry& r);
void register_memory_builtins(BuiltinRegistry& r);
void register_sync_builtins(BuiltinRegistry& r);
void register_cg_builtins(BuiltinRegistry& r);
void register_atomic_builtins(BuiltinRegistry& r);
void register_warp_builtins(BuiltinRegistry& r);
void register_bit_builtins(BuiltinRegistry& r);
void register_print_builtins(BuiltinRegistry& r);

struct GlobalValue;
// A NumPy array global read by a kernel: typed as a read-only array frozen into constant memory.
const Type* frozen_host_array(Sema& sema, Expr& name, const GlobalValue& value);
// The code of a frozen array (a Name with Resolved::memory_slot set).
std::string emit_frozen_array(Emitter& em, const Expr& name);
// Barriers and warp operations: marks the unit as needing fibers (barrier or warp) and records
// the call's source location for the cpu backend's reports; site_code() is its site argument.
void note_sync_site(Sema& sema, Expr& call, bool warp);
std::string site_code(const Expr& call);
void register_cmath_builtins(BuiltinRegistry& r);
void register_complex_builtins(BuiltinRegistry& r);
void register_random_builtins(BuiltinRegistry& r);
void register_fp16_builtins(BuiltinRegistry& r);
void register_elementwise_builtins(BuiltinRegistry& r);
void register_iteration_builtins(BuiltinRegistry& r);
void register_operator_builtins(BuiltinRegistry& r);
void register_cffi_builtins(BuiltinRegistry& r);
void register_libdevice_builtins(BuiltinRegistry& r);
void register_tile_builtins(BuiltinRegistry& r);
void register_tile_named_builtins(BuiltinRegistry& r);  // (sema/builtins_tile_named.cpp; called by the above)
void register_tile_scan_builtins(BuiltinRegistry& r);   // (sema/builtins_tile_scan.cpp; likewise)
void register_tile_custom_builtins(BuiltinRegistry& r); // (sema/builtins_tile_custom.cpp; likewise)
void register_tile_static_builtins(BuiltinRegistry& r); // (sema/static_iter.cpp; likewise)
void register_tile_view_builtins(BuiltinRegistry& r);   // (sema/builtins_tile_view.cpp; likewise)
void register_tile_select_builtins(BuiltinRegistry& r); // (sema/builtins_tile_select.cpp; likewise)

}  // namespace simt
