// The builtin registry and argument matching shared by all builtin domains.
#include "sema/builtins.h"
#include <mutex>

namespace simt {

void BuiltinRegistry::add_function(BuiltinFunction f) { functions_.push_back(std::move(f)); }

void BuiltinRegistry::add_member(const std::string& module, const std::string& attr, ModuleMember m) {
    members_.emplace_back(module + "." + attr, std::move(m));
}

const BuiltinFunction* BuiltinRegistry::function(const std::string& name) const {
    for (const BuiltinFunction& f : functions_) if (f.name == name) return &f;
    return nullptr;
}

const ModuleMember* BuiltinRegistry::member(const std::string& module, const std::string& attr) const {
    std::string key = module + "." + attr;
    for (const auto& [k, m] : members_) if (k == key) return &m;
    return nullptr;
}

const BuiltinRegistry& builtins() {
    static const BuiltinRegistry* registry = [] {
        auto* r = new BuiltinRegistry();
        register_python_builtins(*r);
        register_math_builtins(*r);
        register_cuda_builtins(*r);
        register_numpy_builtins(*r);
        register_memory_builtins(*r);
        register_sync_builtins(*r);
        register_cg_builtins(*r);
        register_atomic_builtins(*r);
        register_warp_builtins(*r);
        register_bit_builtins(*r);
        register_print_builtins(*r);
        register_cmath_builtins(*r);
        register_complex_builtins(*r);
        register_random_builtins(*r);
        register_fp16_builtins(*r);
        register_elementwise_builtins(*r);
        register_iteration_builtins(*r);
        register_operator_builtins(*r);
        register_cffi_builtins(*r);
        register_libdevice_builtins(*r);
        register_tile_builtins(*r);
        return r;
    }();
    return *registry;
}

ModuleMember member_module(const std::string& canonical) { return {ModuleMember::Kind::Module, canonical, DType::Int64, {}}; }
ModuleMember member_function(const std::string& canonical) { return {ModuleMember::Kind::Function, canonical, DType::Int64, {}}; }
ModuleMember member_constant(ConstValue v) {
    ModuleMember m{ModuleMember::Kind::Constant, "", DType::Int64, {}};
    m.value = std::move(v);
    return m;
}
ModuleMember member_value(const std::string& code, DType type) {
    ModuleMember m{ModuleMember::Kind::Value, code, DType::Int64, {}};
    m.dtype = type;
    return m;
}

std::vector<const Expr*> match_call_args(const Expr& call, const std::vector<const char*>& params,
                                         size_t required, std::string& error) {
    std::vector<const Expr*> out(params.size(), nullptr);
    size_t npos = call.children.size() - 1;
    if (npos > params.size()) {
        error = "takes at most " + std::to_string(params.size()) + " argument" + (params.size() == 1 ? "" : "s") +
                " (" + std::to_string(npos) + " given)";
        return {};
    }
    for (size_t i = 0; i < npos; ++i) out[i] = call.children[i + 1].get();
    for (const Keyword& k : call.keywords) {
        size_t idx = params.size();
        for (size_t i = 0; i < params.size(); ++i) if (k.name == params[i]) idx = i;
        if (idx == params.size()) { error = "got an unexpected keyword argument '" + k.name + "'"; return {}; }
        if (out[idx]) { error = "got multiple values for argument '" + k.name + "'"; return {}; }
        out[idx] = k.value.get();
    }
    for (size_t i = 0; i < required; ++i)
        if (!out[i]) { error = std::string("missing required argument '") + params[i] + "'"; return {}; }
    return out;
}

}  // namespace simt
