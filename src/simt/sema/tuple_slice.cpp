// Tuple slicing: Python's slice-index rules, and the typing of tuple[a:b:c].
#include "sema/tuple_slice.h"
#include "sema/sema.h"
#include "sema/typed_function.h"

namespace simt {

namespace {
// A slice bound: absent/None, or a constant integer; false for anything else.
bool bound(const Expr* e, bool& present, int64_t& value) {
    present = false;
    if (!e) return true;
    if (!e->resolved || !e->resolved->is_constant) return false;
    const ConstValue& c = e->resolved->constant;
    if (c.kind == ConstValue::Kind::None) return true;
    if (!c.is_int()) return false;
    present = true;
    value = c.as_int();
    return true;
}
}  // namespace

bool tuple_slice_indices(const Expr& slice, size_t n, std::vector<size_t>& out, std::string& error) {
    bool has[3];
    int64_t v[3] = {0, 0, 1};
    for (int k = 0; k < 3; ++k) {
        if (!bound(slice.children[size_t(k)].get(), has[k], v[k])) {
            error = "a tuple can only be sliced with constant integer bounds";
            return false;
        }
    }
    int64_t step = has[2] ? v[2] : 1;
    if (step == 0) { error = "slice step cannot be zero"; return false; }
    int64_t len = int64_t(n);
    auto clamp = [&](bool present, int64_t x, int64_t if_absent) {
        if (!present) return if_absent;
        if (x < 0) x += len;
        if (x < 0) return step < 0 ? int64_t(-1) : int64_t(0);
        if (x >= len) return step < 0 ? len - 1 : len;
        return x;
    };
    int64_t start = clamp(has[0], v[0], step < 0 ? len - 1 : 0);
    int64_t stop = clamp(has[1], v[1], step < 0 ? -1 : len);
    out.clear();
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.push_back(size_t(i));
    return true;
}

const Type* Sema::infer_tuple_slice(Expr& e, const Type* tuple) {
    Expr& slice = *e.children[1];
    for (ExprPtr& c : slice.children)
        if (c && !type_of(*c)) return nullptr;
    std::vector<size_t> picked;
    std::string error;
    if (!tuple_slice_indices(slice, tuple->elems.size(), picked, error)) fail(slice.loc, error);
    std::vector<const Type*> elems;
    for (size_t i : picked) elems.push_back(tuple->elems[i]);
    if (const ConstValue* c = constant(*e.children[0])) {
        std::vector<ConstValue> values;
        for (size_t i : picked) values.push_back(c->elems[i]);
        set_constant(e, ConstValue::tuple(values));
    }
    return tuple_type(elems);
}

}  // namespace simt
