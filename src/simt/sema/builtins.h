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
void register_elementwise_builtins(BuiltinRegistry& r);

}  // namespace simt
