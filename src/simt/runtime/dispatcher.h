// A @cuda.jit function: its source, resolver and options, and its compiled specializations
// (one per tuple of argument types), compiled on first use and cached in memory and on disk.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>
#include "runtime/backend.h"
#include "sema/sema.h"

namespace simt {

struct KernelDefinition {
    std::string name;
    SourceText source;
    GlobalResolver resolve;
    CompileOptions options;
    bool device = false;  // a device function: callable from kernels only
    bool force_inline = false;  // device function: inline=True / "always"
    // Eager compilation: the declared signatures (@cuda.jit("void(float32[:])")). Launches whose
    // types match none exactly use the best declared one their arguments convert to.
    std::vector<Signature> signatures;
};

struct CompiledKernel {
    std::vector<const Type*> param_types;
    std::unique_ptr<CompileUnit> unit;
    GeneratedSource source;               // for the target it was generated for
    std::shared_ptr<LoadedKernel> loaded; // null until loaded by the backend
};

struct TypeListHash {
    size_t operator()(const std::vector<const Type*>& v) const {
        size_t h = 1469598103934665603ull;
        for (const Type* t : v) h = (h ^ reinterpret_cast<size_t>(t)) * 1099511628211ull;
        return h;
    }
};

class Dispatcher {
public:
    explicit Dispatcher(KernelDefinition def);
    Dispatcher(const Dispatcher&) = delete;
    Dispatcher& operator=(const Dispatcher&) = delete;
    const KernelDefinition& definition() const { return def_; }

    // The loaded specialization for these argument types, or null if not compiled yet.
    CompiledKernel* find(const std::vector<const Type*>& types) const {
        if (last_ && last_->param_types == types) return last_;  // the common case: same types again
        auto it = cache_.find(types);
        return it == cache_.end() ? nullptr : it->second.get();
    }
    // Front end: analysis and code generation for `target` (calls the resolver).
    std::unique_ptr<CompiledKernel> generate(const std::vector<const Type*>& types, Target target) const;
    // Back end: compiles and loads through the active backend (no resolver calls: may run
    // without Python's lock).
    void load(CompiledKernel& kernel) const;
    // Stores a loaded specialization and returns it.
    CompiledKernel& insert(std::unique_ptr<CompiledKernel> kernel);
    // All of the above for callers that need no lock juggling (tests, C++ users).
    CompiledKernel& specialize(const std::vector<const Type*>& types);

    std::vector<const CompiledKernel*> specializations() const;

    // --- eager compilation (runtime/dispatcher_eager.cpp) ------------------------------------
    bool eager() const { return !def_.signatures.empty(); }
    // Raises TypeError for a kernel signature that declares a return value.
    void validate_signatures() const;
    // Type-checks a device function against each declared signature (numba compiles them at
    // decoration); raises TypingError/TypeError on the first that fails.
    void check_device_signatures() const;
    // The compiled declared specialization these argument types convert to best, or null.
    CompiledKernel* match_declared(const std::vector<const Type*>& types) const;
    // The TypeError text for argument types that match no declared signature.
    std::string no_match_message(const std::vector<const Type*>& types) const;
    // The device-function handle kernels use to call this function.
    std::shared_ptr<DeviceFunctionRef> device_ref() const { return device_ref_; }

private:
    KernelDefinition def_;
    std::shared_ptr<DeviceFunctionRef> device_ref_;
    std::unordered_map<std::vector<const Type*>, std::unique_ptr<CompiledKernel>, TypeListHash> cache_;
    mutable CompiledKernel* last_ = nullptr;
    // Argument types already matched to a declared specialization (eager dispatchers).
    mutable std::unordered_map<std::vector<const Type*>, CompiledKernel*, TypeListHash> matched_;
};

}  // namespace simt
