// Conversion fitness between kernel types and best-signature selection.
#include "types/signature_match.h"
#include "types/promote.h"

namespace simt {

Fit conversion_fit(const Type* from, const Type* to) {
    if (from == to) return Fit::Exact;
    if (from->is_scalar() && to->is_scalar()) {
        if (from->is_complex() && !to->is_complex()) return Fit::None;
        if (to->is_bool()) return Fit::Unsafe;
        return promote(from->dtype, to->dtype) == to->dtype ? Fit::Safe : Fit::Unsafe;
    }
    if (from->is_array() && to->is_array()) {
        if (from->dtype != to->dtype || from->ndim != to->ndim) return Fit::None;
        if (from->readonly && !to->readonly) return Fit::None;
        if (from->layout != to->layout && to->layout != Layout::A) return Fit::None;
        return Fit::Safe;
    }
    if (from->is_tuple() && to->is_tuple() && from->elems.size() == to->elems.size()) {
        Fit worst = Fit::Exact;
        for (size_t i = 0; i < from->elems.size(); ++i) {
            Fit f = conversion_fit(from->elems[i], to->elems[i]);
            if (f > worst) worst = f;
        }
        return worst;
    }
    return Fit::None;
}

int best_signature(const std::vector<std::vector<const Type*>>& candidates, const std::vector<const Type*>& actual) {
    int best = -1;
    int best_unsafe = 0, best_safe = 0;
    for (size_t c = 0; c < candidates.size(); ++c) {
        const std::vector<const Type*>& params = candidates[c];
        if (params.size() != actual.size()) continue;
        int unsafe = 0, safe = 0;
        bool fits = true;
        for (size_t i = 0; i < params.size() && fits; ++i) {
            Fit f = conversion_fit(actual[i], params[i]);
            fits = f != Fit::None;
            unsafe += f == Fit::Unsafe;
            safe += f == Fit::Safe;
        }
        if (!fits) continue;
        if (best < 0 || unsafe < best_unsafe || (unsafe == best_unsafe && safe < best_safe)) {
            best = int(c);
            best_unsafe = unsafe;
            best_safe = safe;
        }
    }
    return best;
}

std::string type_list_string(const std::vector<const Type*>& types) {
    std::string s = "(";
    for (size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + types[i]->str();
    return s + ")";
}

}  // namespace simt
