// Dispatchers compiled eagerly from declared signatures: validation at decoration, and the
// launch-time choice of a declared specialization (no new ones are compiled).
#include "runtime/dispatcher.h"
#include "sema/eager.h"
#include "support/error.h"
#include "types/signature_match.h"

namespace simt {

void Dispatcher::validate_signatures() const {
    if (def_.device) return;
    for (const Signature& sig : def_.signatures)
        if (sig.return_type && sig.return_type != void_type())
            throw Error(ErrorKind::Type, "kernel '" + def_.name + "' cannot have the signature " + signature_string(sig) +
                                             ": kernels return nothing (declare void(...), or use device=True for a device function)");
}

void Dispatcher::check_device_signatures() const {
    for (const Signature& sig : def_.signatures)
        check_device_signature(def_.name, def_.source, def_.resolve, sig, def_.options);
}

CompiledKernel* Dispatcher::match_declared(const std::vector<const Type*>& types) const {
    if (auto it = matched_.find(types); it != matched_.end()) return it->second;
    std::vector<std::vector<const Type*>> candidates;
    std::vector<CompiledKernel*> kernels;
    for (const Signature& sig : def_.signatures) {
        auto it = cache_.find(sig.args);
        if (it == cache_.end()) continue;
        candidates.push_back(sig.args);
        kernels.push_back(it->second.get());
    }
    int best = best_signature(candidates, types);
    if (best < 0) return nullptr;
    matched_[types] = kernels[size_t(best)];
    return kernels[size_t(best)];
}

std::string Dispatcher::no_match_message(const std::vector<const Type*>& types) const {
    std::string declared;
    for (const Signature& sig : def_.signatures) declared += (declared.empty() ? "" : ", ") + signature_string(sig);
    std::string args = type_list_string(types);
    return "No matching definition for argument type(s) " + args.substr(1, args.size() - 2) + ": kernel '" + def_.name +
           "' was compiled eagerly for " + declared +
           ", and these arguments do not convert to any of them (an eagerly compiled kernel compiles no new "
           "specializations; pass matching types, or declare another signature)";
}

}  // namespace simt
