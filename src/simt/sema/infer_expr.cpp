// Expression typing: names, attributes, subscripts, calls, operators, with constant folding
// of literals and frozen globals (so shapes like (N, 2 * N) stay compile-time constants).
#include <algorithm>
#include <cmath>
#include "frontend/parser.h"
#include "sema/eager.h"
#include "sema/sema.h"
#include "sema/tile.h"
#include "support/error.h"
#include "types/promote.h"
#include "types/signature_match.h"

namespace simt {

Resolved& Sema::resolved(Expr& e) {
    if (!e.resolved) e.resolved = std::make_shared<Resolved>();
    return *e.resolved;
}

const ConstValue* Sema::constant(const Expr& e) const {
    return e.resolved && e.resolved->is_constant ? &e.resolved->constant : nullptr;
}

void Sema::set_constant(Expr& e, ConstValue v) {
    Resolved& r = resolved(e);
    r.is_constant = true;
    r.constant = std::move(v);
}

void Sema::fail(Loc loc, const std::string& message) const {
    throw Error(ErrorKind::Typing, describe_source_error(fn_.source, loc, fn_.name, "TypingError: " + message));
}

void Sema::unsupported(Loc loc, const std::string& message) const {
    throw Error(ErrorKind::Unsupported, describe_source_error(fn_.source, loc, fn_.name, "UnsupportedError: " + message));
}

std::string Sema::expr_text(const Expr& e) const {
    switch (e.kind) {
        case ExprKind::Name: return e.text;
        case ExprKind::Attribute: return expr_text(*e.children[0]) + "." + e.text;
        case ExprKind::Int: return e.text;
        case ExprKind::Subscript: return expr_text(*e.children[0]) + "[" + expr_text(*e.children[1]) + "]";
        case ExprKind::Tuple: {  // the parts of an index
            std::string s;
            for (const ExprPtr& c : e.children) s += (s.empty() ? "" : ", ") + expr_text(*c);
            return s;
        }
        case ExprKind::Slice: {
            std::string s;
            for (size_t k = 0; k < 3; ++k) {
                if (k) s += k == 2 && !e.children[2] ? "" : ":";
                if (e.children[k]) s += expr_text(*e.children[k]);
            }
            return s;
        }
        case ExprKind::BinOp:
            return expr_text(*e.children[0]) + " " + binop_symbol(e.binop) + " " + expr_text(*e.children[1]);
        case ExprKind::UnaryOp: return e.unop == UnaryOpKind::Neg ? "-" + expr_text(*e.children[0]) : dump(e);
        default: return dump(e);
    }
}

const Type* Sema::type_of(Expr& e) {
    const Type* t = infer(e);
    e.type = t;
    return t;
}

int64_t Sema::constant_int(Expr& e, const std::string& what) {
    type_of(e);
    const ConstValue* c = constant(e);
    if (!c || !c->is_int()) fail(e.loc, what + " must be a constant integer");
    return c->as_int();
}

std::vector<Expr*> Sema::bind(Expr& call, const std::string& fname, const std::vector<const char*>& params,
                              size_t required) {
    std::string error;
    std::vector<const Expr*> matched = match_call_args(call, params, required, error);
    if (!error.empty()) fail(call.loc, fname + "() " + error);
    std::vector<Expr*> out;
    for (const Expr* e : matched) out.push_back(const_cast<Expr*>(e));
    return out;
}

const Type* Sema::infer(Expr& e) {
    switch (e.kind) {
        case ExprKind::Int:
            if (e.big_int) { set_constant(e, ConstValue::integer(e.int_value, DType::UInt64)); return scalar_type(DType::UInt64); }
            set_constant(e, ConstValue::integer(e.int_value));
            return int64_type();
        case ExprKind::Float:
            set_constant(e, ConstValue::real(e.float_value));
            return float64_type();
        case ExprKind::Imag:
            set_constant(e, ConstValue::complex(0, e.float_value));
            return scalar_type(DType::Complex128);
        case ExprKind::Bool:
            set_constant(e, ConstValue::boolean(e.bool_value));
            return bool_type();
        case ExprKind::None:
            set_constant(e, ConstValue::none());
            return none_type();
        case ExprKind::String:
            set_constant(e, ConstValue::string(e.text));
            return string_type();
        case ExprKind::Ellipsis:
            unsupported(e.loc, "'...' is not supported in kernels");
        case ExprKind::Name: return infer_name(e);
        case ExprKind::Attribute: return infer_attribute(e);
        case ExprKind::Subscript: return infer_subscript(e);
        case ExprKind::Call: return infer_call(e);
        case ExprKind::BinOp: return infer_binop(e);
        case ExprKind::UnaryOp: return infer_unary(e);
        case ExprKind::Compare: return infer_compare(e);
        case ExprKind::BoolOp: {
            const Type* u = nullptr;
            bool all_bool = true, incomplete = false;
            for (ExprPtr& c : e.children) {
                const Type* t = type_of(*c);
                if (!t) { incomplete = true; continue; }
                if (!t->is_scalar()) fail(c->loc, std::string("operands of '") + (e.boolop == BoolOpKind::And ? "and" : "or") +
                                                      "' must be numbers or booleans, not " + t->str());
                all_bool = all_bool && t->is_bool();
                u = u ? unify(u, t) : t;
            }
            if (incomplete) return nullptr;
            if (all_bool) {  // constant truth values fold (an `if` on them keeps one branch)
                bool known = true, value = e.boolop == BoolOpKind::And;
                for (ExprPtr& c : e.children) {
                    const ConstValue* v = constant(*c);
                    if (!v) { known = false; break; }
                    value = e.boolop == BoolOpKind::And ? value && v->as_int() != 0 : value || v->as_int() != 0;
                }
                if (known) set_constant(e, ConstValue::boolean(value));
            }
            return all_bool ? bool_type() : u;
        }
        case ExprKind::IfExp: {
            check_condition(*e.children[0]);
            if (const ConstValue* c = e.children[0]->type ? constant(*e.children[0]) : nullptr) {
                // Known when compiling: the other branch is not compiled (nor need it type-check).
                Expr& chosen = *e.children[c->truthy() ? 1 : 2];
                const Type* t = type_of(chosen);
                if (const ConstValue* v = t ? constant(chosen) : nullptr) set_constant(e, *v);
                return t;
            }
            const Type* a = type_of(*e.children[1]);
            const Type* b = type_of(*e.children[2]);
            if (!a || !b) return nullptr;
            const Type* u = unify(a, b);
            if (!u) fail(e.loc, "the branches of a conditional expression have incompatible types " + a->str() + " and " + b->str());
            return u;
        }
        case ExprKind::Tuple: {
            std::vector<const Type*> elems;
            std::vector<ConstValue> values;
            bool all_const = true;
            for (ExprPtr& c : e.children) {
                const Type* t = type_of(*c);
                if (!t) return nullptr;
                if (t->kind != TypeKind::Scalar && t->kind != TypeKind::Tuple && t->kind != TypeKind::Array &&
                    t->kind != TypeKind::String && t->kind != TypeKind::NoneType && t->kind != TypeKind::Tile &&
                    t->kind != TypeKind::TiledView)
                    fail(c->loc, "a tuple cannot hold a value of type " + t->str());
                elems.push_back(t);
                const ConstValue* cv = constant(*c);
                if (cv) values.push_back(*cv); else all_const = false;
            }
            if (all_const) set_constant(e, ConstValue::tuple(values));
            return tuple_type(elems);
        }
        case ExprKind::List:
            unsupported(e.loc, "lists are not supported in kernels; use a tuple");
        case ExprKind::Slice:
            unsupported(e.loc, "a slice is only allowed inside an index");
    }
    return nullptr;
}

const Type* Sema::infer_name(Expr& e) {
    if (local_names_.count(e.text)) {
        auto str = constant_strings_.find(e.text);
        if (str != constant_strings_.end()) {  // read as its value: no variable exists in the code
            resolved(e).is_local = false;
            set_constant(e, str->second);
            return string_type();
        }
        resolved(e).is_local = true;
        auto it = local_types_.find(e.text);
        if (it == local_types_.end() || !it->second) {
            if (final_) fail(e.loc, "local variable '" + e.text + "' is used before it is assigned");
            incomplete_ = true;
            return nullptr;
        }
        read_local_constant(e);
        return it->second;
    }
    auto inner = inner_functions_.find(e.text);
    if (inner != inner_functions_.end()) return infer_inner_function_name(e, inner->second);
    auto it = globals_.find(e.text);
    if (it == globals_.end()) it = globals_.emplace(e.text, resolve_(e.text)).first;
    return from_global(e, it->second);
}

const Type* Sema::from_global(Expr& e, const GlobalValue& g) {
    Resolved& r = resolved(e);
    switch (g.kind) {
        case GlobalValue::Kind::Undefined:
            fail(e.loc, "name '" + e.text + "' is not defined");
        case GlobalValue::Kind::Unsupported:
            fail(e.loc, "'" + e.text + "' is " + g.name + ", which kernels cannot use");
        case GlobalValue::Kind::Module:
            r.builtin = g.name;
            return module_type(g.name);
        case GlobalValue::Kind::Function:
            if (!builtin_exception_class(g.name).empty()) {  // only `raise` takes it
                r.builtin = g.name;
                return function_type(g.name);
            }
            if (!builtins().function(g.name)) fail(e.loc, "'" + g.name + "' is not supported in kernels");
            r.builtin = g.name;
            return function_type(g.name);
        case GlobalValue::Kind::Member: {
            size_t dot = g.name.rfind('.');
            std::string module = g.name.substr(0, dot), attr = g.name.substr(dot + 1);
            const ModuleMember* m = dot == std::string::npos ? nullptr : builtins().member(module, attr);
            if (!m) fail(e.loc, "'" + g.name + "' is not supported in kernels");
            return from_member(e, *m, module, attr);
        }
        case GlobalValue::Kind::DTypeObj:
            return dtype_obj_type(g.dtype);
        case GlobalValue::Kind::Constant:
            set_constant(e, g.value);
            return g.value.type();
        case GlobalValue::Kind::DeviceFunction:
            r.device_function = g.device_function;
            return device_function_type(g.device_function->key);
        case GlobalValue::Kind::Foreign:
            r.foreign = g.foreign;
            return device_function_type("foreign:" + g.foreign->name);
        case GlobalValue::Kind::HostArray:
            return frozen_host_array(*this, e, g);
    }
    return nullptr;
}

const Type* Sema::from_member(Expr& e, const ModuleMember& m, const std::string& module, const std::string& attr) {
    Resolved& r = resolved(e);
    switch (m.kind) {
        case ModuleMember::Kind::Module: r.builtin = m.target; return module_type(m.target);
        case ModuleMember::Kind::Function: r.builtin = m.target; return function_type(m.target);
        case ModuleMember::Kind::Dim3: r.builtin = m.target; return dim3_type(m.target);
        case ModuleMember::Kind::DTypeObj: return dtype_obj_type(m.dtype);
        case ModuleMember::Kind::Constant: set_constant(e, m.value); return m.value.type();
        case ModuleMember::Kind::Value: r.builtin = m.target; return scalar_type(m.dtype);
    }
    fail(e.loc, "module '" + module + "' has no attribute '" + attr + "'");
}

const Type* Sema::infer_attribute(Expr& e) {
    const Type* base = type_of(*e.children[0]);
    if (!base) return nullptr;
    const std::string& attr = e.text;
    switch (base->kind) {
        case TypeKind::Module: {
            const ModuleMember* m = builtins().member(base->name, attr);
            if (!m) fail(e.loc, "'" + base->name + "." + attr + "' is not supported in kernels");
            return from_member(e, *m, base->name, attr);
        }
        case TypeKind::Tile:
            if (is_tile_method(attr)) {  // t.astype(...): the call passes t first
                resolved(e).builtin = "tilemethod." + attr;
                return function_type("tilemethod." + attr);
            }
            return infer_tile_attribute(*this, e);
        case TypeKind::TiledView:
            if (attr == "load" || attr == "store" || attr == "num_tiles") {  // methods: the call passes the view first
                resolved(e).builtin = "tiledview." + attr;
                return function_type("tiledview." + attr);
            }
            return infer_tiled_view_attribute(*this, e);
        case TypeKind::Dim3:
            if (attr == "x" || attr == "y" || attr == "z") {
                resolved(e).builtin = base->name + "." + attr;
                return scalar_type(DType::Int32);
            }
            fail(e.loc, "'" + base->name + "' has no attribute '" + attr + "' (use .x, .y or .z)");
        case TypeKind::Array:
            if (attr == "shape" || attr == "strides")
                return tuple_type(std::vector<const Type*>(size_t(base->ndim), int64_type()));
            if (attr == "size") return int64_type();
            if (attr == "dtype") return dtype_obj_type(base->dtype);
            if (attr == "ndim") { set_constant(e, ConstValue::integer(base->ndim)); return int64_type(); }
            if (attr == "itemsize") { set_constant(e, ConstValue::integer(dtype_size(base->dtype))); return int64_type(); }
            if ((attr == "slice" || attr == "tiled_view") && unit_.options.tile_kernel) {  // cuda.tile's Array methods
                resolved(e).builtin = "arraymethod." + attr;
                return function_type("arraymethod." + attr);
            }
            if (attr == "T") {  // a view with the axes reversed
                Layout l = base->layout == Layout::C ? Layout::F : base->layout == Layout::F ? Layout::C : Layout::A;
                return array_type(base->dtype, base->ndim, l, base->readonly);
            }
            fail(e.loc, "array attribute '" + attr + "' is not supported in kernels");
        case TypeKind::Tuple:
            if (!base->fields.empty()) {  // a named tuple's field: from here on, p.x is p[0]
                auto field = std::find(base->fields.begin(), base->fields.end(), attr);
                if (field == base->fields.end()) {
                    std::string names;
                    for (const std::string& f : base->fields) names += (names.empty() ? "" : ", ") + f;
                    fail(e.loc, "'" + base->name + "' has no field '" + attr + "' (its fields: " + names + ")");
                }
                auto index = std::make_unique<Expr>(ExprKind::Int, e.loc);
                index->int_value = field - base->fields.begin();
                index->text = std::to_string(index->int_value);
                e.kind = ExprKind::Subscript;
                e.text.clear();
                e.children.push_back(std::move(index));
                return infer_subscript(e);
            }
            fail(e.loc, "a value of type " + base->str() + " has no attribute '" + attr + "'");
        case TypeKind::Scalar:
            if (attr == "real" || attr == "imag") {
                if (base->is_complex()) return scalar_type(base->dtype == DType::Complex64 ? DType::Float32 : DType::Float64);
                return base;
            }
            if (builtins().function("number." + attr)) {  // a method such as z.conjugate()
                resolved(e).builtin = "number." + attr;
                return function_type("number." + attr);
            }
            fail(e.loc, "'" + base->str() + "' has no attribute '" + attr + "'");
        default:
            fail(e.loc, "a value of type " + base->str() + " has no attribute '" + attr + "'");
    }
}

const Type* Sema::infer_subscript(Expr& e) {
    const Type* base = type_of(*e.children[0]);
    Expr& index = *e.children[1];
    if (base && base->is_tuple() && index.kind == ExprKind::Slice) return infer_tuple_slice(e, base);
    std::vector<Expr*> parts;
    if (index.kind == ExprKind::Tuple) for (ExprPtr& c : index.children) parts.push_back(c.get());
    else parts.push_back(&index);
    bool incomplete = !base;
    if (base && base->is_tile()) {
        for (Expr* p : parts) if (p->kind != ExprKind::Slice && !type_of(*p)) return nullptr;
        return infer_tile_subscript(*this, e, parts);
    }
    bool slices = false;
    for (Expr* p : parts) slices = slices || p->kind == ExprKind::Slice;
    if (base && base->is_array() && (slices || (index.kind == ExprKind::Tuple && int(parts.size()) < base->ndim)))
        return infer_array_view(e, base, parts);
    if (slices) {
        if (!base) return nullptr;
        fail(index.loc, "only arrays and tuples can be sliced, not " + base->str());
    }
    for (Expr* p : parts)
        if (!type_of(*p)) incomplete = true;
    if (index.kind == ExprKind::Tuple && !incomplete) type_of(index);
    if (incomplete) return nullptr;
    if (base->is_array()) {
        // A tuple-valued variable as the index: A[idx] with idx = (i, j).
        std::vector<const Type*> index_types;
        if (parts.size() == 1 && parts[0]->type->is_tuple()) index_types = parts[0]->type->elems;
        else for (Expr* p : parts) index_types.push_back(p->type);
        for (size_t k = 0; k < index_types.size(); ++k) {
            const Type* t = index_types[k];
            if (!t->is_integer()) {
                Loc loc = parts.size() == index_types.size() ? parts[k]->loc : index.loc;
                fail(loc, "array index must be an integer, not " + t->str());
            }
        }
        if (int(index_types.size()) > base->ndim)
            fail(index.loc, "too many indices for array: array is " + std::to_string(base->ndim) +
                                "-dimensional, but " + std::to_string(index_types.size()) + " were indexed");
        if (int(index_types.size()) < base->ndim) {
            if (parts.size() == index_types.size()) return infer_array_view(e, base, parts);  // A[i] of a 2-D A
            unsupported(index.loc, "a tuple of " + std::to_string(index_types.size()) + " indices into a " +
                                       std::to_string(base->ndim) + "-D array would give a view; write the indices out (A[i, j])");
        }
        if (final_ && resolved(e).site < 0) {
            resolved(e).site = int(unit_.bounds_sites.size());
            unit_.bounds_sites.push_back({fn_.name, fn_.source.filename, e.loc.line, expr_text(*e.children[0]), "", ""});
        }
        return scalar_type(base->dtype);
    }
    if (base->is_tuple()) {
        const ConstValue* c = parts.size() == 1 ? constant(*parts[0]) : nullptr;
        if (!c || !c->is_int()) {
            bool uniform = !base->elems.empty();
            for (const Type* t : base->elems) uniform = uniform && t == base->elems[0];
            if (uniform && parts.size() == 1 && parts[0]->type->is_integer()) return base->elems[0];
            fail(index.loc, "a tuple of type " + base->str() + " can only be indexed by a constant integer");
        }
        int64_t i = c->as_int();
        int64_t n = int64_t(base->elems.size());
        if (i < 0) i += n;
        if (i < 0 || i >= n) fail(index.loc, "tuple index out of range");
        if (const ConstValue* tc = constant(*e.children[0])) set_constant(e, tc->elems[size_t(i)]);
        return base->elems[size_t(i)];
    }
    fail(e.children[0]->loc, "cannot index a " + base->str());
}

const Type* Sema::infer_call(Expr& e) {
    callee_name_ = e.children[0].get();
    const Type* callee = type_of(*e.children[0]);
    callee_name_ = nullptr;
    bool incomplete = !callee;
    // Builtins that call a function they are given may be given an inner function (or lambda).
    const bool takes_functions = callee && callee->kind == TypeKind::Function && builtins().function(callee->name) &&
                                 builtins().function(callee->name)->takes_functions;
    if (takes_functions) {
        for (size_t i = 1; i < e.children.size(); ++i) function_values_.insert(e.children[i].get());
        for (Keyword& k : e.keywords) function_values_.insert(k.value.get());
    }
    for (size_t i = 1; i < e.children.size(); ++i) if (!type_of(*e.children[i])) incomplete = true;
    for (Keyword& k : e.keywords) if (!type_of(*k.value)) incomplete = true;
    if (incomplete) return nullptr;
    switch (callee->kind) {
        case TypeKind::Function: {
            const BuiltinFunction* f = builtins().function(callee->name);
            const std::string exception = f ? std::string() : builtin_exception_class(callee->name);
            if (!exception.empty())
                fail(e.loc, exception + " can only be raised in a kernel (raise " + exception + "(\"message\"))");
            if (!f) fail(e.loc, "'" + callee->name + "' is not supported in kernels");
            if ((callee->name.rfind("tile.", 0) == 0 || callee->name.rfind("tilemethod.", 0) == 0) &&
                callee->name != "tile.cdiv" && !unit_.options.tile_kernel)
                fail(e.loc, callee->name.substr(callee->name.find('.') + 1) + "() works on tiles, in @tile.kernel functions "
                            "launched with tile.launch() (their blocks are the tiles' threads), not in @cuda.jit kernels");
            resolved(e).builtin = callee->name;
            return f->infer(*this, e);
        }
        case TypeKind::DTypeObj: {
            std::vector<Expr*> args = bind(e, dtype_name(callee->dtype), {"value"}, 1);
            const Type* t = args[0]->type;
            if (!t->is_scalar()) fail(e.loc, std::string("cannot convert ") + t->str() + " to " + dtype_name(callee->dtype));
            if (t->is_complex() && !dtype_is_complex(callee->dtype))
                fail(e.loc, std::string("cannot convert complex to ") + dtype_name(callee->dtype) + " (use .real)");
            resolved(e).builtin = std::string("cast.") + dtype_name(callee->dtype);
            return scalar_type(callee->dtype);
        }
        case TypeKind::DeviceFunction:
            if (e.children[0]->resolved->foreign) return infer_foreign_call(e, e.children[0]->resolved->foreign);
            return infer_device_call(e, e.children[0]->resolved->device_function);
        case TypeKind::Dim3:
            fail(e.loc, "'" + callee->name + "' is not callable (use its .x, .y or .z)");
        default:
            fail(e.loc, "a value of type " + callee->str() + " is not callable");
    }
}

const Type* Sema::infer_device_call(Expr& e, const std::shared_ptr<DeviceFunctionRef>& ref) {
    const bool inner = ref->inner != nullptr;  // a nested def or lambda (sema/inner_functions.cpp)
    std::string frame = inner ? ref->key : ref->source.filename + ":" + ref->name;
    if (std::find(call_stack_.begin(), call_stack_.end(), frame) != call_stack_.end()) {
        std::string chain;
        for (const std::string& f : call_stack_) chain += f.substr(f.rfind(':') + 1) + " -> ";
        fail(e.loc, "recursive device function calls are not supported (" + chain + ref->name + ")");
    }
    FunctionDef def = inner ? clone(*ref->inner) : parse_function(ref->source);
    // Positional and keyword arguments in the callee's parameter order; defaults must be constants.
    std::vector<const char*> names;
    for (const Param& p : def.params) names.push_back(p.name.c_str());
    std::string error;
    std::vector<const Expr*> args = match_call_args(e, names, 0, error);
    // (a lambda written inside an expression has a made-up name: messages say where it is)
    const std::string called = ref->inner && ref->inner->is_lambda && ref->name.rfind("lambda_at_", 0) == 0
                                   ? "the lambda on line " + std::to_string(ref->inner->loc.line)
                                   : ref->name + "()";
    if (!error.empty()) fail(e.loc, called + " " + error);
    std::vector<const Type*> types;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i]) { types.push_back(args[i]->type); continue; }
        if (!def.params[i].default_value) fail(e.loc, called + " missing required argument '" + def.params[i].name + "'");
        Sema probe(unit_, fn_, inner ? ref->resolve : resolve_, call_stack_);
        const Type* t = probe.type_of(*def.params[i].default_value);
        if (!probe.constant(*def.params[i].default_value))
            fail(e.loc, "default value of parameter '" + def.params[i].name + "' of " + ref->name + " must be a constant");
        types.push_back(t);
    }
    for (size_t i = 0; i < types.size(); ++i) {
        const Type* t = types[i];
        if (!t->is_scalar() && !t->is_array() && !t->is_tuple() && !t->is_tile() && t->kind != TypeKind::TiledView)
            fail(args[i] ? args[i]->loc : e.loc, "cannot pass a value of type " + t->str() + " to device function " + ref->name);
    }
    if (inner && !inner_call_arguments(e, *ref, types)) return nullptr;
    const Signature* declared = nullptr;
    if (!ref->signatures.empty()) {
        // Eagerly compiled: the call uses the declared signature its arguments fit best.
        declared = pick_signature(ref->signatures, types);
        if (!declared) {
            std::string list;
            for (const Signature& sig : ref->signatures) list += (list.empty() ? "" : ", ") + signature_string(sig);
            fail(e.loc, "device function '" + ref->name + "' has no signature matching argument types " +
                            type_list_string(types) + "; declared: " + list);
        }
        types = declared->args;
    }
    std::string key = ref->key + "(";
    for (const Type* t : types) key += t->str() + ",";
    key += ")";
    TypedFunction* callee = nullptr;
    for (const auto& f : unit_.functions)
        // (by dispatcher, not by name: two closures from one factory share a name and a file)
        if (!f->is_kernel && f->device_key == ref->key && f->param_types == types) callee = f.get();
    if (!callee) {
        auto fn = std::make_unique<TypedFunction>();
        fn->source = ref->source;
        fn->def = std::move(def);
        fn->name = ref->name;
        fn->device_key = ref->key;
        fn->param_types = types;
        fn->c_name = c_identifier(ref->name) + "_" + std::to_string(unit_.functions.size());
        // (an inner function may share its name with the function it is nested in, whose
        // specialization is not in the unit yet: the depth of the call keeps their names apart)
        if (inner) fn->c_name = c_identifier(ref->name) + "_in" + std::to_string(unit_.functions.size()) + "_" + std::to_string(call_stack_.size());
        fn->force_inline = ref->inline_always;
        fn->hidden_params = ref->captures.size();
        for (const std::string& c : ref->captures) fn->def.params.push_back({c, fn->def.loc, nullptr});
        call_stack_.push_back(frame);
        try {
            Sema sub(unit_, *fn, ref->resolve, call_stack_);
            sub.inherit_inner_functions(*ref);
            sub.run();
            if (declared && declared->return_type) enforce_return_type(*fn, declared->return_type);
        } catch (...) {
            call_stack_.pop_back();
            throw;
        }
        call_stack_.pop_back();
        callee = fn.get();
        unit_.functions.push_back(std::move(fn));
    }
    resolved(e).callee = callee;
    if (final_ && std::find(fn_.callees.begin(), fn_.callees.end(), callee) == fn_.callees.end())
        fn_.callees.push_back(callee);
    return callee->return_type == void_type() ? none_type() : callee->return_type;
}

namespace {
bool fold_int(BinOpKind op, int64_t a, int64_t b, int64_t& out) {
    switch (op) {
        case BinOpKind::Add: out = int64_t(uint64_t(a) + uint64_t(b)); return true;
        case BinOpKind::Sub: out = int64_t(uint64_t(a) - uint64_t(b)); return true;
        case BinOpKind::Mul: out = int64_t(uint64_t(a) * uint64_t(b)); return true;
        case BinOpKind::FloorDiv:
            if (b == 0) return false;
            out = a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
            return true;
        case BinOpKind::Mod:
            if (b == 0) return false;
            out = a % b;
            if (out != 0 && ((out < 0) != (b < 0))) out += b;
            return true;
        case BinOpKind::Pow: {
            if (b < 0) return false;
            int64_t r = 1;
            for (int64_t k = 0; k < b && k < 64; ++k) r = int64_t(uint64_t(r) * uint64_t(a));
            out = r;
            return true;
        }
        case BinOpKind::LShift: if (b < 0 || b > 63) return false; out = int64_t(uint64_t(a) << b); return true;
        case BinOpKind::RShift: if (b < 0 || b > 63) return false; out = a >> b; return true;
        case BinOpKind::BitAnd: out = a & b; return true;
        case BinOpKind::BitOr: out = a | b; return true;
        case BinOpKind::BitXor: out = a ^ b; return true;
        default: return false;
    }
}
}  // namespace

const Type* Sema::infer_binop(Expr& e) {
    const Type* a = type_of(*e.children[0]);
    const Type* b = type_of(*e.children[1]);
    if (!a || !b) return nullptr;
    const char* sym = binop_symbol(e.binop);
    if (a->is_tile() || b->is_tile()) {
        check_weak_integer(*this, *e.children[0], b);
        check_weak_integer(*this, *e.children[1], a);
        return tile_binop_type(*this, e.loc, e.binop, a, b);
    }
    if (a->is_tuple() && b->is_tuple() && e.binop == BinOpKind::Add) {
        std::vector<const Type*> elems = a->elems;
        elems.insert(elems.end(), b->elems.begin(), b->elems.end());
        const ConstValue* ca = constant(*e.children[0]);
        const ConstValue* cb = constant(*e.children[1]);
        if (ca && cb) {
            std::vector<ConstValue> v = ca->elems;
            v.insert(v.end(), cb->elems.begin(), cb->elems.end());
            set_constant(e, ConstValue::tuple(v));
        }
        return tuple_type(elems);
    }
    if (!a->is_scalar() || !b->is_scalar()) {
        if (a->is_array() || b->is_array())
            fail(e.loc, std::string("whole-array arithmetic ('") + sym + "' on " + a->str() + " and " + b->str() +
                            ") is not supported inside kernels; compute element by element");
        fail(e.loc, std::string("unsupported operand types for ") + sym + ": " + a->str() + " and " + b->str());
    }
    DType out;
    if (!binop_result(e.binop, a->dtype, b->dtype, out))
        fail(e.loc, std::string("unsupported operand types for ") + sym + ": " + a->str() + " and " + b->str());
    const ConstValue* ca = constant(*e.children[0]);
    const ConstValue* cb = constant(*e.children[1]);
    if (ca && cb && ca->is_int() && cb->is_int() && e.binop == BinOpKind::Pow && cb->as_int() < 0 && integer_literal(e)) {
        // Python folds it to a float when it compiles the function (2 ** -2 is 0.25), and numba
        // sees that float (check_integer_literals has ruled out 0 ** -n).
        set_constant(e, ConstValue::real(std::pow(double(ca->as_int()), double(cb->as_int()))));
        return float64_type();
    }
    if (ca && cb && ca->is_int() && cb->is_int() && dtype_is_integer(out)) {
        int64_t v;
        if (fold_int(e.binop, ca->as_int(), cb->as_int(), v)) set_constant(e, ConstValue::integer(v, out));
    }
    return scalar_type(out);
}

const Type* Sema::infer_unary(Expr& e) {
    const Type* a = type_of(*e.children[0]);
    if (!a) return nullptr;
    if (a->is_tile()) return infer_tile_unary(*this, e);
    if (e.unop == UnaryOpKind::Not) {
        if (!a->is_scalar() && a->kind != TypeKind::NoneType) fail(e.loc, "cannot apply 'not' to a value of type " + a->str());
        if (const ConstValue* c = constant(*e.children[0]))
            if (c->is_int() || c->kind == ConstValue::Kind::Float)
                set_constant(e, ConstValue::boolean(c->is_int() ? c->as_int() == 0 : c->f == 0));
        return bool_type();
    }
    DType out;
    if (!a->is_scalar() || !unop_result(e.unop, a->dtype, out))
        fail(e.loc, std::string("bad operand type for unary ") + (e.unop == UnaryOpKind::Neg ? "-" : e.unop == UnaryOpKind::Pos ? "+" : "~") + ": " + a->str());
    if (const ConstValue* c = constant(*e.children[0])) {
        if (c->is_int() && dtype_is_integer(out)) {
            int64_t v = c->as_int();
            if (e.unop == UnaryOpKind::Neg) v = int64_t(0 - uint64_t(v));
            if (e.unop == UnaryOpKind::Invert) v = ~v;
            set_constant(e, ConstValue::integer(v, out));
        } else if (c->kind == ConstValue::Kind::Float) {
            set_constant(e, ConstValue::real(e.unop == UnaryOpKind::Neg ? -c->f : c->f, c->dtype));
        }
    }
    return scalar_type(out);
}

const Type* Sema::infer_compare(Expr& e) {
    bool incomplete = false;
    for (ExprPtr& c : e.children) if (!type_of(*c)) incomplete = true;
    if (incomplete) return nullptr;
    for (ExprPtr& c : e.children)
        if (c->type->is_tile()) return infer_tile_compare(*this, e);
    if (e.cmpops.size() == 1 && (e.cmpops[0] == CmpOpKind::Eq || e.cmpops[0] == CmpOpKind::Ne) &&
        e.children[0]->type->kind == TypeKind::DTypeObj && e.children[1]->type->kind == TypeKind::DTypeObj) {
        // `a.dtype == np.float32`: decided when compiling
        bool same = e.children[0]->type == e.children[1]->type;
        set_constant(e, ConstValue::boolean(e.cmpops[0] == CmpOpKind::Eq ? same : !same));
        return bool_type();
    }
    for (size_t i = 0; i < e.cmpops.size(); ++i) {
        const Type* a = e.children[i]->type;
        const Type* b = e.children[i + 1]->type;
        CmpOpKind op = e.cmpops[i];
        if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
            if (a->kind == TypeKind::NoneType || b->kind == TypeKind::NoneType) continue;
            fail(e.loc, "'is' is only supported for comparisons with None");
        }
        if (op == CmpOpKind::In || op == CmpOpKind::NotIn) {
            if (!b->is_tuple()) fail(e.loc, "'in' is only supported with a tuple on the right, not " + b->str());
            if (!a->is_scalar()) fail(e.loc, "'in' needs a number on the left, not " + a->str());
            for (const Type* t : b->elems) if (!t->is_scalar()) fail(e.loc, "'in' needs a tuple of numbers");
            continue;
        }
        if (a->is_tuple() && b->is_tuple() && (op == CmpOpKind::Eq || op == CmpOpKind::Ne)) {
            if (a->elems.size() != b->elems.size()) continue;  // constant result
            for (size_t k = 0; k < a->elems.size(); ++k)
                if (!a->elems[k]->is_scalar() || !b->elems[k]->is_scalar()) fail(e.loc, "tuples compared with == must hold numbers");
            continue;
        }
        if (!a->is_scalar() || !b->is_scalar())
            fail(e.loc, std::string("cannot compare ") + a->str() + " " + cmpop_symbol(op) + " " + b->str());
        if ((a->is_complex() || b->is_complex()) && op != CmpOpKind::Eq && op != CmpOpKind::Ne)
            fail(e.loc, std::string("complex numbers cannot be ordered with ") + cmpop_symbol(op));
    }
    fold_comparison(e);
    return bool_type();
}

// Comparisons of real constants (a tile.Constant against a literal, say) fold to a constant, so
// that `if` statements on them keep one branch.
void Sema::fold_comparison(Expr& e) {
    bool result = true;
    for (size_t i = 0; i < e.cmpops.size(); ++i) {
        const ConstValue* x = constant(*e.children[i]);
        const ConstValue* y = constant(*e.children[i + 1]);
        auto real = [](const ConstValue* c) { return c && (c->is_int() || c->kind == ConstValue::Kind::Float); };
        if (!real(x) || !real(y)) return;
        bool ints = x->is_int() && y->is_int();
        double u = x->is_int() ? double(x->as_int()) : x->f, v = y->is_int() ? double(y->as_int()) : y->f;
        int order = ints ? (x->as_int() < y->as_int() ? -1 : x->as_int() > y->as_int())
                         : (u < v ? -1 : u > v ? 1 : u == v ? 0 : 2);  // 2: unordered (NaN)
        bool r = false;
        switch (e.cmpops[i]) {
            case CmpOpKind::Lt: r = order == -1; break;
            case CmpOpKind::Le: r = order == -1 || order == 0; break;
            case CmpOpKind::Gt: r = order == 1; break;
            case CmpOpKind::Ge: r = order == 1 || order == 0; break;
            case CmpOpKind::Eq: r = order == 0; break;
            case CmpOpKind::Ne: r = order != 0; break;
            default: return;
        }
        result = result && r;
    }
    set_constant(e, ConstValue::boolean(result));
}

}  // namespace simt
