// The items of iterables (see iteration.h), and the errors for values a for loop cannot iterate.
#include "sema/iteration.h"
#include "sema/sema.h"
#include "types/promote.h"

namespace simt {

const Type* iteration_type(const Type* it) {
    switch (it->kind) {
        case TypeKind::Range: return scalar_type(it->dtype);
        case TypeKind::Array:  // an N-d array gives its rows: views, as A[k] is
            if (it->ndim == 1) return scalar_type(it->dtype);
            if (it->ndim == 0) return nullptr;
            return array_type(it->dtype, it->ndim - 1, it->layout == Layout::C ? Layout::C : Layout::A, it->readonly);
        case TypeKind::Tuple: {
            const Type* u = it->elems.empty() ? nullptr : it->elems[0];
            for (const Type* e : it->elems) u = u ? unify(u, e) : nullptr;
            return u;
        }
        case TypeKind::Iterator: {
            std::vector<const Type*> items;
            if (it->name == "enumerate") items.push_back(int64_type());  // numba's counter is an intp
            for (const Type* source : it->elems) {
                const Type* item = iteration_type(source);
                if (!item) return nullptr;
                items.push_back(item);
            }
            return tuple_type(items);
        }
        default: return nullptr;
    }
}

const Type* Sema::item_type(Expr& iterable) {
    const Type* t = iterable.type;
    // The emitter reads range()'s bounds and enumerate()'s and zip()'s arguments from the call.
    if ((t->kind == TypeKind::Range || t->kind == TypeKind::Iterator) && iterable.kind != ExprKind::Call)
        unsupported(iterable.loc, "a " + t->str() + " can only be iterated where it is made: call range(), "
                                  "enumerate() or zip() in the for statement itself");
    if (const Type* item = iteration_type(t)) return item;
    if (t->is_array() && t->ndim == 0) fail(iterable.loc, "iteration over a 0-d array");  // NumPy's TypeError
    if (t->is_tuple() && t->elems.empty()) fail(iterable.loc, "cannot iterate over an empty tuple");
    if (t->is_tuple()) fail(iterable.loc, "iterating over a heterogeneous tuple " + t->str() + " is not supported");
    fail(iterable.loc, "cannot iterate over a value of type " + t->str() + " (use range(...))");
}

}  // namespace simt
