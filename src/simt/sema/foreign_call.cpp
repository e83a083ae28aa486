// Typing a call of a cuda.declare_device function: the arguments against its declaration.
#include "sema/sema.h"
#include "types/promote.h"

namespace simt {

const Type* Sema::infer_foreign_call(Expr& e, const std::shared_ptr<const ForeignFunction>& f) {
    const std::string called = f->name + "() (declared '" + f->signature + "')";
    if (!e.keywords.empty()) fail(e.loc, called + " takes its arguments by position only");
    const size_t n = e.children.size() - 1;
    if (n != f->params.size())
        fail(e.loc, called + " takes " + std::to_string(f->params.size()) + " argument" + (f->params.size() == 1 ? "" : "s") +
                        " but " + std::to_string(n) + (n == 1 ? " was" : " were") + " given");
    for (size_t i = 0; i < n; ++i) {
        const Expr& arg = *e.children[i + 1];
        const Type* t = arg.type;
        const ForeignParam& p = f->params[i];
        const std::string which = "argument " + std::to_string(i + 1) + " of " + called;
        if (p.kind == ForeignParam::Kind::Scalar) {
            if (!t->is_scalar() || t->is_complex() || !can_convert(t, scalar_type(p.dtype)))
                fail(arg.loc, which + " is " + dtype_name(p.dtype) + ", and a value of type " + t->str() + " does not convert to it");
            continue;
        }
        // A pointer: an array (or ffi.from_buffer(array), which is the array) passes its first element's address.
        if (!t->is_array())
            fail(arg.loc, which + " is a pointer: pass an array (or ffi.from_buffer(array)), not a value of type " + t->str());
        if (p.kind == ForeignParam::Kind::Pointer && t->dtype != p.dtype)
            fail(arg.loc, which + " points to " + dtype_name(p.dtype) + ", but the array holds " + dtype_name(t->dtype));
        if (t->readonly)
            fail(arg.loc, which + ": the array is a constant (frozen into the kernel); its address cannot be passed");
        if (t->layout == Layout::A)  // (C code walks a pointer through contiguous elements)
            fail(arg.loc, which + " is a pointer, and this array may not be contiguous (" + t->str() +
                              "): pass a C- or F-contiguous array or view, such as a row a[i] of a C-ordered array");
    }
    auto same_types = [](const ForeignFunction& a, const ForeignFunction& b) {
        if (a.return_type != b.return_type || a.params.size() != b.params.size()) return false;
        for (size_t i = 0; i < a.params.size(); ++i)
            if (a.params[i].kind != b.params[i].kind || a.params[i].dtype != b.params[i].dtype) return false;
        return true;
    };
    bool listed = false;
    for (const auto& known : unit_.foreign_functions) {
        if (known->name != f->name) continue;
        if (!same_types(*known, *f))
            fail(e.loc, "two declarations of '" + f->name + "' are called in one kernel: '" + known->signature + "' and '" +
                            f->signature + "' (a kernel calls one C function of a name)");
        listed = listed || known == f;
    }
    if (!listed) unit_.foreign_functions.push_back(f);  // (each declaration: their link= files all count)
    resolved(e).foreign = f;
    return f->return_type == void_type() ? none_type() : f->return_type;
}

}  // namespace simt
