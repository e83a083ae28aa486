// cuda.atomic in kernels: add, sub, and_, or_, xor, inc, dec, exch, max, min, nanmax, nanmin,
// compare_and_swap and cas, on the element types numba allows, with a 1-D integer index or a
// tuple index. The element is located with the same bounds rules as loads and stores.
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"

namespace simt {

namespace {

enum class Allowed { Numbers, Integers, Unsigned };

struct AtomicOp {
    const char* name;  // attribute of cuda.atomic
    const char* c_name;
    Allowed allowed;
};

const AtomicOp kAtomics[] = {
    {"add", "simt_atomic_add", Allowed::Numbers},     {"sub", "simt_atomic_sub", Allowed::Numbers},
    {"max", "simt_atomic_max", Allowed::Numbers},     {"min", "simt_atomic_min", Allowed::Numbers},
    {"nanmax", "simt_atomic_nanmax", Allowed::Numbers}, {"nanmin", "simt_atomic_nanmin", Allowed::Numbers},
    {"and_", "simt_atomic_and", Allowed::Integers},   {"or_", "simt_atomic_or", Allowed::Integers},
    {"xor", "simt_atomic_xor", Allowed::Integers},    {"exch", "simt_atomic_exch", Allowed::Integers},
    {"inc", "simt_atomic_inc", Allowed::Unsigned},    {"dec", "simt_atomic_dec", Allowed::Unsigned},
    {"compare_and_swap", "simt_atomic_cas", Allowed::Integers}, {"cas", "simt_atomic_cas", Allowed::Integers},
};

const AtomicOp& find_op(const std::string& canonical) {
    std::string name = canonical.substr(canonical.rfind('.') + 1);
    for (const AtomicOp& op : kAtomics) if (name == op.name) return op;
    return kAtomics[0];
}

bool allows(Allowed a, DType d) {
    bool integer32or64 = d == DType::Int32 || d == DType::Int64 || d == DType::UInt32 || d == DType::UInt64;
    switch (a) {
        case Allowed::Numbers: return integer32or64 || d == DType::Float32 || d == DType::Float64;
        case Allowed::Integers: return integer32or64;
        case Allowed::Unsigned: return d == DType::UInt32 || d == DType::UInt64;
    }
    return false;
}

const char* allowed_text(Allowed a) {
    switch (a) {
        case Allowed::Numbers: return "int32, int64, uint32, uint64, float32 and float64";
        case Allowed::Integers: return "int32, int64, uint32 and uint64";
        case Allowed::Unsigned: return "uint32 and uint64";
    }
    return "";
}

const Type* check_array(Sema& s, Expr& ary, const std::string& fname, const AtomicOp& op) {
    const Type* t = ary.type;
    if (!t->is_array()) s.fail(ary.loc, fname + "() needs an array as its first argument, not " + t->str());
    if (t->readonly) s.fail(ary.loc, fname + "() cannot modify a read-only (constant) array");
    if (!allows(op.allowed, t->dtype))
        s.fail(ary.loc, fname + "() is not supported on " + std::string(dtype_name(t->dtype)) + " arrays; it supports " +
                            allowed_text(op.allowed));
    return t;
}

void check_index(Sema& s, Expr& idx, const Type* ary, const std::string& fname) {
    std::vector<const Type*> parts = idx.type->is_tuple() ? idx.type->elems : std::vector<const Type*>{idx.type};
    for (const Type* p : parts)
        if (!p->is_integer()) s.fail(idx.loc, fname + "() index must be an integer or a tuple of integers, not " + idx.type->str());
    if (int(parts.size()) != ary->ndim)
        s.fail(idx.loc, fname + "() on a " + std::to_string(ary->ndim) + "-D array needs " +
                            (ary->ndim == 1 ? std::string("an integer index") : std::to_string(ary->ndim) + " indices") + ", got " +
                            std::to_string(parts.size()));
}

void check_value(Sema& s, Expr& v, const Type* ary, const std::string& fname, const char* what) {
    const Type* t = v.type;
    if (!t->is_scalar() || (t->is_complex() && !dtype_is_complex(ary->dtype)))
        s.fail(v.loc, fname + "() " + what + " must be a real number or an integer, not " + t->str());
}

void note_bounds_site(Sema& s, Expr& call, Expr& ary) {
    if (!s.final_pass() || call.resolved->site >= 0) return;
    CompileUnit& u = s.unit();
    call.resolved->site = int(u.bounds_sites.size());
    u.bounds_sites.push_back({s.function().name, s.function().source.filename, call.loc.line,
                              ary.kind == ExprKind::Name ? ary.text : std::string("array"), "", ""});
}

const Type* infer_atomic(Sema& s, Expr& call) {
    const std::string& fname = call.resolved->builtin;
    const AtomicOp& op = find_op(fname);
    std::string opname = op.name;
    std::vector<Expr*> a;
    if (opname == "compare_and_swap") a = s.bind(call, fname, {"ary", "old", "val"}, 3);
    else if (opname == "cas") a = s.bind(call, fname, {"ary", "idx", "old", "val"}, 4);
    else a = s.bind(call, fname, {"ary", "idx", "val"}, 3);
    if (!call.keywords.empty()) s.fail(call.loc, fname + "() takes positional arguments only");
    const Type* ary = check_array(s, *a[0], fname, op);
    if (opname == "compare_and_swap") {
        if (ary->ndim != 1) s.fail(a[0]->loc, fname + "() works on the first element of a 1-D array; use cuda.atomic.cas for others");
        check_value(s, *a[1], ary, fname, "old value");
        check_value(s, *a[2], ary, fname, "new value");
    } else {
        check_index(s, *a[1], ary, fname);
        for (size_t i = 2; i < a.size(); ++i) check_value(s, *a[i], ary, fname, i + 1 < a.size() ? "old value" : "value");
    }
    note_bounds_site(s, call, *a[0]);
    return scalar_type(ary->dtype);
}

std::string emit_atomic(Emitter& em, const Expr& call) {
    const AtomicOp& op = find_op(call.resolved->builtin);
    const Expr& ary = *call.children[1];
    const Type* elem = scalar_type(ary.type->dtype);
    std::string site = std::to_string(call.resolved->site);
    std::string head = "simt_ref(ctx, " + em.expr(ary) + ", " + site;
    std::vector<std::string> values;
    size_t first_value = std::string(op.name) == "compare_and_swap" ? 2 : 3;
    for (size_t i = first_value; i < call.children.size(); ++i) values.push_back(em.expr_as(*call.children[i], elem));
    auto finish = [&](const std::string& ref) {
        std::string s = std::string(op.c_name) + "(" + ref;
        for (const std::string& v : values) s += ", " + v;
        return s + ")";
    };
    if (first_value == 2) return finish(head + ", 0L)");
    const Expr& idx = *call.children[2];
    if (idx.kind == ExprKind::Tuple) {
        for (const ExprPtr& c : idx.children) head += ", " + em.cast(em.expr(*c), c->type, int64_type());
        return finish(head + ")");
    }
    if (idx.type->is_tuple()) {  // a tuple value: evaluate it once
        std::string tmp = em.temp("idx");
        std::string ref = head;
        for (size_t i = 0; i < idx.type->elems.size(); ++i)
            ref += ", " + em.cast(tmp + ".f" + std::to_string(i), idx.type->elems[i], int64_type());
        return "([&]() { auto " + tmp + " = " + em.expr(idx) + "; return " + finish(ref + ")") + "; }())";
    }
    return finish(head + ", " + em.cast(em.expr(idx), idx.type, int64_type()) + ")");
}

}  // namespace

void register_atomic_builtins(BuiltinRegistry& r) {
    r.add_member("cuda", "atomic", member_module("cuda.atomic"));
    for (const AtomicOp& op : kAtomics) {
        std::string canonical = std::string("cuda.atomic.") + op.name;
        r.add_function({canonical, infer_atomic, emit_atomic});
        r.add_member("cuda.atomic", op.name, member_function(canonical));
    }
}

}  // namespace simt
