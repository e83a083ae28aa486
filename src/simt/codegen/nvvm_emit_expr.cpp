// NVVM IR emitter: expressions, builtin calls and array element access. Element access follows
// the prelude's masked rules: a negative index wraps once (unless it is unsigned or provably
// non-negative), an index outside its extent makes a load give 0 and a store do nothing.
#include "codegen/nonnegative.h"
#include "codegen/nvvm_emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "types/promote.h"

namespace simt {

namespace {
bool is_constant(const Expr& e) { return e.resolved && e.resolved->is_constant && !e.resolved->is_local; }
const std::string& builtin_of(const Expr& e) {
    static const std::string none;
    return e.resolved ? e.resolved->builtin : none;
}

// math functions computed by libdevice (__nv_<name>, __nv_<name>f for float32), as CUDA C++'s
// <math.h> names them (codegen's builtins_math.cpp maps Python's names onto these).
struct MathEntry {
    const char* python;
    const char* c_name;
    int arity;
};
const MathEntry kLibdeviceMath[] = {
    {"sin", "sin", 1},     {"cos", "cos", 1},     {"tan", "tan", 1},       {"asin", "asin", 1},   {"acos", "acos", 1},
    {"atan", "atan", 1},   {"sinh", "sinh", 1},   {"cosh", "cosh", 1},     {"tanh", "tanh", 1},   {"asinh", "asinh", 1},
    {"acosh", "acosh", 1}, {"atanh", "atanh", 1}, {"exp", "exp", 1},       {"expm1", "expm1", 1}, {"exp2", "exp2", 1},
    {"log2", "log2", 1},   {"log10", "log10", 1}, {"log1p", "log1p", 1},   {"cbrt", "cbrt", 1},   {"erf", "erf", 1},
    {"erfc", "erfc", 1},   {"gamma", "tgamma", 1}, {"lgamma", "lgamma", 1}, {"atan2", "atan2", 2}, {"pow", "pow", 2},
    {"fmod", "fmod", 2},   {"hypot", "hypot", 2}, {"copysign", "copysign", 2}, {"remainder", "remainder", 2},
    {"nextafter", "nextafter", 2},
};
}  // namespace

IrValue NvvmEmitter::expr(const Expr& e) {
    if (is_constant(e) && e.type && (e.type->is_scalar() || e.type->is_tuple())) return constant(e.resolved->constant, e.type);
    switch (e.kind) {
        case ExprKind::Name: {
            if (!e.resolved || !e.resolved->is_local) not_covered("the name '" + e.text + "' as a value");
            const Local& l = local(e.text);
            return unpacked(assign("load " + ir_type(l.type) + ", " + ir_type(l.type) + "* " + l.slot), l.type);
        }
        case ExprKind::Attribute: return attribute(e);
        case ExprKind::Subscript: return subscript(e);
        case ExprKind::Call: return call(e);
        case ExprKind::BinOp: {
            IrValue left = expr(*e.children[0]);  // Python's order: left, then right
            return binop(e.binop, left, expr(*e.children[1]));
        }
        case ExprKind::UnaryOp: return unary(e);
        case ExprKind::Compare: return chained_compare(e);
        case ExprKind::BoolOp: return bool_op(e);
        case ExprKind::IfExp: return if_expression(e);
        case ExprKind::Tuple: {
            IrValue v{"", e.type, {}};
            for (const ExprPtr& c : e.children) v.parts.push_back(expr(*c));
            return v;
        }
        default: not_covered("this kind of expression");
    }
}

std::vector<IrValue> NvvmEmitter::tuple_parts(const Expr& e) {
    IrValue v = expr(e);
    if (!e.type->is_tuple() || v.parts.size() != e.type->elems.size()) not_covered("this tuple value");
    return v.parts;
}

IrValue NvvmEmitter::unary(const Expr& e) {
    IrValue a = expr(*e.children[0]);
    switch (e.unop) {
        case UnaryOpKind::Not: {
            IrValue b = convert(a, bool_type());
            return {assign("xor i1 " + b.ref + ", true"), bool_type(), {}};
        }
        case UnaryOpKind::Pos: return convert(a, e.type);
        case UnaryOpKind::Neg: {
            IrValue x = convert(a, e.type);
            if (e.type->dtype == DType::Float16) return half_bits(x, "xor", "-32768");  // the sign bit flipped
            if (e.type->is_complex()) return complex_negate(x);
            if (e.type->is_float()) return negate_float(x);
            return {assign("sub " + ir_type(e.type) + " 0, " + x.ref), e.type, {}};
        }
        case UnaryOpKind::Invert: {
            if (e.type->is_bool()) return {assign("xor i1 " + a.ref + ", true"), e.type, {}};
            IrValue x = convert(a, e.type);
            return {assign("xor " + ir_type(e.type) + " " + x.ref + ", -1"), e.type, {}};
        }
    }
    not_covered("this unary operator");
}

// a < b < c: each operand evaluated once, left to right, stopping at the first false test.
IrValue NvvmEmitter::chained_compare(const Expr& e) {
    if (e.cmpops.size() == 1) {
        IrValue left = expr(*e.children[0]);
        return compare(e.cmpops[0], left, expr(*e.children[1]));
    }
    std::string done = fresh_label("cmp.done");
    std::vector<std::pair<std::string, std::string>> incoming;  // (value, block)
    IrValue left = expr(*e.children[0]);
    for (size_t i = 0; i < e.cmpops.size(); ++i) {
        IrValue right = expr(*e.children[i + 1]);
        IrValue test = compare(e.cmpops[i], left, right);
        incoming.push_back({test.ref, current_});
        if (i + 1 < e.cmpops.size()) {
            std::string next = fresh_label("cmp.next");
            cond_branch(test.ref, next, done);
            open_block(next);
        } else {
            branch(done);
        }
        left = right;
    }
    open_block(done);
    std::string phi = "phi i1 ";
    for (size_t i = 0; i < incoming.size(); ++i)
        phi += (i ? ", [ " : "[ ") + (i + 1 < incoming.size() ? std::string("false") : incoming[i].first) + ", %" + incoming[i].second + " ]";
    return {assign(phi), bool_type(), {}};
}

// `and` / `or` of booleans, short-circuiting (Python's value-returning form on other types is
// left to the CUDA C++ path).
IrValue NvvmEmitter::bool_op(const Expr& e) {
    if (!e.type->is_bool()) not_covered("and/or of non-boolean values");
    for (const ExprPtr& c : e.children)
        if (!c->type->is_bool()) not_covered("and/or of non-boolean values");
    const bool is_and = e.boolop == BoolOpKind::And;
    std::string done = fresh_label(is_and ? "and.done" : "or.done");
    std::vector<std::pair<std::string, std::string>> incoming;
    for (size_t i = 0; i < e.children.size(); ++i) {
        IrValue v = expr(*e.children[i]);
        incoming.push_back({v.ref, current_});
        if (i + 1 < e.children.size()) {
            std::string next = fresh_label("bool.next");
            if (is_and) cond_branch(v.ref, next, done);
            else cond_branch(v.ref, done, next);
            open_block(next);
        } else {
            branch(done);
        }
    }
    open_block(done);
    std::string phi = "phi i1 ";
    for (size_t i = 0; i < incoming.size(); ++i) {
        bool last = i + 1 == incoming.size();
        std::string value = last ? incoming[i].first : is_and ? "false" : "true";
        phi += (i ? ", [ " : "[ ") + value + ", %" + incoming[i].second + " ]";
    }
    return {assign(phi), bool_type(), {}};
}

IrValue NvvmEmitter::if_expression(const Expr& e) {
    if (!e.type->is_scalar() && !e.type->is_array()) not_covered("a conditional expression of type " + e.type->str());
    if (is_constant(*e.children[0])) return expr_as(*e.children[e.children[0]->resolved->constant.truthy() ? 1 : 2], e.type);
    IrValue test = convert(expr(*e.children[0]), bool_type());
    std::string yes = fresh_label("if.yes"), no = fresh_label("if.no"), done = fresh_label("if.done");
    cond_branch(test.ref, yes, no);
    open_block(yes);
    IrValue a = expr_as(*e.children[1], e.type);
    std::string from_yes = current_;
    branch(done);
    open_block(no);
    IrValue b = expr_as(*e.children[2], e.type);
    std::string from_no = current_;
    branch(done);
    open_block(done);
    return {assign("phi " + ir_type(e.type) + " [ " + a.ref + ", %" + from_yes + " ], [ " + b.ref + ", %" + from_no + " ]"),
            e.type, {}};
}

IrValue NvvmEmitter::special_register(const std::string& reg, char axis) {
    std::string name = std::string("llvm.nvvm.read.ptx.sreg.") + reg + "." + axis;
    declare("declare i32 @" + name + "()");
    return {assign("call i32 @" + name + "()"), scalar_type(DType::Int32), {}};
}

IrValue NvvmEmitter::grid_axis(bool size, int axis) {
    // simt_grid: blockIdx * blockDim + threadIdx; simt_gridsize: blockDim * gridDim (int64).
    const char a = "xyz"[axis];
    IrValue block = convert(special_register(size ? "ntid" : "ctaid", a), scalar_type(DType::UInt32));
    IrValue other = convert(special_register(size ? "nctaid" : "ntid", a), scalar_type(DType::UInt32));
    std::string b64 = assign("zext i32 " + block.ref + " to i64");
    std::string o64 = assign("zext i32 " + other.ref + " to i64");
    std::string product = assign("mul i64 " + b64 + ", " + o64);
    if (size) return {product, int64_type(), {}};
    IrValue t = special_register("tid", a);
    std::string t64 = assign("zext i32 " + t.ref + " to i64");
    return {assign("add i64 " + product + ", " + t64), int64_type(), {}};
}

IrValue NvvmEmitter::array_field(const IrValue& array, int field, int k) {
    return {assign("extractvalue " + ir_type(array.type) + " " + array.ref + ", " + std::to_string(field) + ", " +
                   std::to_string(k)),
            int64_type(), {}};
}

IrValue NvvmEmitter::attribute(const Expr& e) {
    const Expr& base = *e.children[0];
    const Type* bt = base.type;
    if (bt->kind == TypeKind::Dim3) {
        std::string reg = bt->name.substr(bt->name.rfind('.') + 1);
        const char* sreg = reg == "threadIdx" ? "tid" : reg == "blockIdx" ? "ctaid" : reg == "blockDim" ? "ntid" : "nctaid";
        if (e.text.size() != 1 || (e.text[0] != 'x' && e.text[0] != 'y' && e.text[0] != 'z')) not_covered("this attribute");
        return convert(special_register(sreg, e.text[0]), e.type);
    }
    if (bt->kind == TypeKind::Module && bt->name == "cuda" && e.text == "laneid") {
        declare("declare i32 @llvm.nvvm.read.ptx.sreg.laneid()");
        return convert({assign("call i32 @llvm.nvvm.read.ptx.sreg.laneid()"), scalar_type(DType::Int32), {}}, e.type);
    }
    if (bt->is_array() && (e.text == "size" || e.text == "shape" || e.text == "strides")) {
        IrValue a = expr(base);
        if (e.text == "size") {
            IrValue n = int_constant(1, int64_type());
            for (int k = 0; k < bt->ndim; ++k) n = {assign("mul i64 " + n.ref + ", " + array_field(a, 1, k).ref), int64_type(), {}};
            return n;
        }
        IrValue t{"", e.type, {}};
        for (int k = 0; k < bt->ndim; ++k) t.parts.push_back(array_field(a, e.text == "shape" ? 1 : 2, k));
        return t;
    }
    if (bt->is_array() && e.text == "T") return transpose(expr(base), e.type);
    if (bt->is_scalar() && (e.text == "real" || e.text == "imag")) {
        IrValue a = expr(base);
        if (bt->is_complex()) return complex_part(a, e.text == "real" ? 0 : 1);
        return e.text == "real" ? a : int_constant(0, bt);
    }
    not_covered("the attribute '" + e.text + "'");
}

// ---- arrays ------------------------------------------------------------------------------------

std::vector<const Expr*> NvvmEmitter::index_parts(const Expr& index, int ndim) {
    std::vector<const Expr*> parts;
    if (index.kind == ExprKind::Tuple) {
        for (const ExprPtr& c : index.children) parts.push_back(c.get());
    } else if (!index.type->is_tuple()) {
        parts.push_back(&index);
    } else {
        not_covered("indexing by a tuple variable");
    }
    if (int(parts.size()) != ndim) not_covered("this element access");
    return parts;
}

NvvmEmitter::Element NvvmEmitter::element(const Expr& sub) {
    const Expr& base = *sub.children[0];
    if (!base.type->is_array()) not_covered("this subscript");
    IrValue array = expr(base);
    return element_of(array, index_parts(*sub.children[1], base.type->ndim), proven_.count(&sub) > 0, false);
}

// `proven`: a test before the loop showed the element exists on every iteration (no wrap, no
// test); `as_int64`: every index is converted to int64 first, as the prelude's simt_ref is
// called for atomics (so an unsigned index of 2**63 or more wraps like a negative one).
NvvmEmitter::Element NvvmEmitter::element_of(const IrValue& array, const std::vector<const Expr*>& parts, bool proven,
                                             bool as_int64) {
    const Type* at = array.type;
    const bool masked = unit_.options.bounds == BoundsMode::Masked && !proven;
    std::string ok = "true";
    std::vector<std::string> ix;
    for (int k = 0; k < at->ndim; ++k) {
        const Expr& c = *parts[size_t(k)];
        if (!c.type->is_integer()) not_covered("an index of type " + c.type->str());
        IrValue v = expr(c);
        auto ranged = c.kind == ExprKind::Name ? ranged_vars_.find(c.text) : ranged_vars_.end();
        const bool wraps = !proven && ranged == ranged_vars_.end() && (as_int64 || dtype_is_signed(c.type->dtype)) &&
                           !nonnegative(c, nonnegative_);
        IrValue i = convert(v, wraps ? int64_type() : scalar_type(DType::UInt64));
        std::string extent = array_field(array, 1, k).ref;
        std::string idx = i.ref;
        if (wraps) {
            std::string negative = assign("icmp slt i64 " + idx + ", 0");
            std::string moved = assign("add i64 " + idx + ", " + extent);
            idx = assign("select i1 " + negative + ", i64 " + moved + ", i64 " + idx);
        }
        if (masked) {
            std::string inside = assign("icmp ult i64 " + idx + ", " + extent);
            if (ranged != ranged_vars_.end()) {  // stop <= extent holds for the whole loop: hoisted by libNVVM
                const std::string& stop = ranged->second;
                std::string known = assign("icmp sge i64 " + stop + ", 0");
                std::string within = assign("icmp sle i64 " + stop + ", " + extent);
                std::string whole = assign("and i1 " + known + ", " + within);
                inside = assign("or i1 " + whole + ", " + inside);
            }
            ok = ok == "true" ? inside : assign("and i1 " + ok + ", " + inside);
        }
        ix.push_back(idx);
    }
    const std::string E = mem_type(at->dtype), A = ir_type(at);
    std::string data = assign("extractvalue " + A + " " + array.ref + ", 0");
    std::string ptr;
    if (at->ndim == 0) {
        ptr = data;
    } else if (at->layout == Layout::A) {
        std::string offset = "0";
        for (int k = 0; k < at->ndim; ++k) {
            std::string term = assign("mul i64 " + ix[size_t(k)] + ", " + array_field(array, 2, k).ref);
            offset = offset == "0" ? term : assign("add i64 " + offset + ", " + term);
        }
        std::string bytes = assign("bitcast " + E + "* " + data + " to i8*");
        std::string at_byte = assign("getelementptr i8, i8* " + bytes + ", i64 " + offset);
        ptr = assign("bitcast i8* " + at_byte + " to " + E + "*");
    } else {
        const bool c_order = at->layout == Layout::C;
        int first = c_order ? 0 : at->ndim - 1;
        std::string offset = ix[size_t(first)];
        for (int step = 1; step < at->ndim; ++step) {
            int k = c_order ? step : at->ndim - 1 - step;
            std::string scaled = assign("mul i64 " + offset + ", " + array_field(array, 1, k).ref);
            offset = assign("add i64 " + scaled + ", " + ix[size_t(k)]);
        }
        ptr = assign("getelementptr " + E + ", " + E + "* " + data + ", i64 " + offset);
    }
    return {ok, ptr, at->dtype};
}

IrValue NvvmEmitter::load(const Element& el) {
    const Type* T = scalar_type(el.dtype);
    const std::string E = mem_type(el.dtype);
    auto read = [&]() {
        std::string raw = assign("load " + E + ", " + E + "* " + el.ptr);
        return el.dtype == DType::Bool ? assign("icmp ne i8 " + raw + ", 0") : raw;
    };
    if (el.ok == "true") return {read(), T, {}};
    std::string before = current_, in = fresh_label("load"), done = fresh_label("load.done");
    cond_branch(el.ok, in, done);
    open_block(in);
    std::string value = read();
    std::string from = current_;
    branch(done);
    open_block(done);
    return {assign("phi " + ir_type(T) + " [ " + value + ", %" + from + " ], [ " + int_constant(0, T).ref + ", %" + before + " ]"),
            T, {}};
}

void NvvmEmitter::store(const Element& el, const IrValue& v) {
    const std::string E = mem_type(el.dtype);
    IrValue x = convert(v, scalar_type(el.dtype));
    std::string bits = el.dtype == DType::Bool ? assign("zext i1 " + x.ref + " to i8") : x.ref;
    if (el.ok == "true") {
        emit("store " + E + " " + bits + ", " + E + "* " + el.ptr);
        return;
    }
    std::string in = fresh_label("store"), done = fresh_label("store.done");
    cond_branch(el.ok, in, done);
    open_block(in);
    emit("store " + E + " " + bits + ", " + E + "* " + el.ptr);
    branch(done);
    open_block(done);
}

IrValue NvvmEmitter::subscript(const Expr& e) {
    const Expr& base = *e.children[0];
    const Expr& index = *e.children[1];
    if (base.type->is_array()) {
        if (e.type->is_array()) return view(e);
        if (!e.type->is_scalar()) not_covered("array views");
        return load(element(e));
    }
    if (base.type->is_tuple() && is_constant(index) && index.resolved->constant.is_int()) {
        std::vector<IrValue> parts = tuple_parts(base);
        int64_t i = index.resolved->constant.as_int();
        if (i < 0) i += int64_t(parts.size());
        if (i < 0 || i >= int64_t(parts.size())) not_covered("this tuple index");
        return parts[size_t(i)];
    }
    not_covered("this subscript");
}

// ---- calls -------------------------------------------------------------------------------------

IrValue NvvmEmitter::libdevice(const std::string& name, const std::vector<IrValue>& args, const Type* t) {
    const std::string T = ir_type(t);
    std::string params, values;
    for (size_t i = 0; i < args.size(); ++i) {
        params += (i ? ", " : "") + T;
        values += (i ? ", " : "") + T + " " + convert(args[i], t).ref;
    }
    declare("declare " + T + " @" + name + "(" + params + ")");
    uses_libdevice_ = true;
    return {assign("call " + T + " @" + name + "(" + values + ")"), t, {}};
}

std::string NvvmEmitter::call_intrinsic(const std::string& ret, const std::string& name, const std::string& args) {
    std::string types;
    for (size_t at = 0; at < args.size();) {  // the argument types: each "type value" pair's first word
        size_t comma = args.find(", ", at);
        std::string arg = args.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        types += (types.empty() ? "" : ", ") + arg.substr(0, arg.find(' '));
        if (comma == std::string::npos) break;
        at = comma + 2;
    }
    declare("declare " + ret + " @" + name + "(" + types + ")");
    std::string text = "call " + ret + " @" + name + "(" + args + ")";
    if (ret == "void") {
        emit(text);
        return "";
    }
    return assign(text);
}

IrValue NvvmEmitter::min_max(const std::vector<IrValue>& values, const Type* R, bool is_min) {
    // simt_min(a, b) = b < a ? b : a (the first wins ties and NaN); simt_max with >.
    IrValue acc = convert(values[0], R);
    for (size_t i = 1; i < values.size(); ++i) {
        IrValue b = convert(values[i], R);
        IrValue test = compare(is_min ? CmpOpKind::Lt : CmpOpKind::Gt, b, acc);
        acc = select(test.ref, b, acc);
    }
    return acc;
}

IrValue NvvmEmitter::float_abs(const IrValue& x) {
    const std::string T = ir_type(x.type);
    return {call_intrinsic(T, x.type->dtype == DType::Float32 ? "llvm.fabs.f32" : "llvm.fabs.f64", T + " " + x.ref), x.type, {}};
}

IrValue NvvmEmitter::half_bits(const IrValue& h, const char* op, const char* mask) {
    std::string bits = assign("bitcast half " + h.ref + " to i16");
    std::string changed = assign(std::string(op) + " i16 " + bits + ", " + mask);
    return {assign("bitcast i16 " + changed + " to half"), h.type, {}};
}

IrValue NvvmEmitter::math_call(const Expr& e, const std::string& name) {
    // float16 arguments compute in float32 (builtins_math.cpp); a float16 result rounds once.
    IrValue r = math_value(e, name);
    return e.type->dtype == DType::Float16 ? convert(r, e.type) : r;
}

IrValue NvvmEmitter::math_value(const Expr& e, const std::string& name) {
    std::vector<IrValue> args;
    for (size_t i = 1; i < e.children.size(); ++i) {
        IrValue a = expr(*e.children[i]);
        if (a.type->is_complex()) not_covered("math." + name + " of a complex value");
        args.push_back(a.type->dtype == DType::Float16 ? convert(a, scalar_type(DType::Float32)) : a);
    }
    if (!e.keywords.empty()) not_covered("keyword arguments to math functions");
    if (name == "isnan" || name == "isinf" || name == "isfinite") {
        const Type* t = args[0].type;
        if (!t->is_float()) return {name == "isfinite" ? "true" : "false", bool_type(), {}};
        const std::string T = ir_type(t);
        if (name == "isnan") return {assign("fcmp uno " + T + " " + args[0].ref + ", " + args[0].ref), bool_type(), {}};
        std::string magnitude = float_abs(args[0]).ref;
        return {assign(std::string("fcmp ") + (name == "isinf" ? "oeq " : "one ") + T + " " + magnitude + ", 0x7FF0000000000000"),
                bool_type(), {}};
    }
    if (name == "frexp" || name == "modf") return frexp_modf(args[0], e.type, name == "frexp");
    if (name == "ldexp") {  // ldexp(x, (int)i) in the call's float type
        const Type* W = e.type;
        const std::string T = ir_type(W), fn = W->dtype == DType::Float32 ? "__nv_ldexpf" : "__nv_ldexp";
        IrValue x = convert(args[0], W), n = convert(args[1], scalar_type(DType::Int32));
        declare("declare " + T + " @" + fn + "(" + T + ", i32)");
        uses_libdevice_ = true;
        return {assign("call " + T + " @" + fn + "(" + T + " " + x.ref + ", i32 " + n.ref + ")"), W, {}};
    }
    // The float type the call computes in (builtins_math.cpp's compute_type): float32 when every
    // argument is float32, and for pow(float32, integer); else float64.
    bool single = true;
    for (const IrValue& a : args) single = single && a.type->dtype == DType::Float32;
    if (name == "pow" && args.size() == 2 && args[0].type->dtype == DType::Float32 && args[1].type->is_integer()) single = true;
    const Type* W = scalar_type(single ? DType::Float32 : DType::Float64);
    const std::string T = ir_type(W);
    const char* sfx = single ? "f" : "d";
    if (name == "floor" || name == "ceil" || name == "trunc") {  // (int64_t)floor(x)
        std::string r = call_intrinsic(T, "llvm.nvvm." + name + "." + sfx, T + " " + convert(args[0], W).ref);
        return convert(IrValue{r, W, {}}, e.type);
    }
    if (name == "sqrt")
        return {call_intrinsic(T, std::string("llvm.nvvm.sqrt.rn.") + sfx, T + " " + convert(args[0], W).ref), W, {}};
    if (name == "fabs")
        return float_abs(convert(args[0], W));
    if (name == "log") {  // log(x) or log(x) / log(base)
        IrValue x = libdevice(single ? "__nv_logf" : "__nv_log", {args[0]}, W);
        if (args.size() == 1) return x;
        IrValue b = libdevice(single ? "__nv_logf" : "__nv_log", {args[1]}, W);
        return {assign("fdiv " + T + " " + x.ref + ", " + b.ref), W, {}};
    }
    if (name == "radians" || name == "degrees") {
        IrValue factor = constant(ConstValue::real(name == "radians" ? 0.017453292519943295 : 57.295779513082323), W);
        return {assign("fmul " + T + " " + convert(args[0], W).ref + ", " + factor.ref), W, {}};
    }
    for (const MathEntry& m : kLibdeviceMath)
        if (name == m.python && int(args.size()) == m.arity)
            return libdevice(std::string("__nv_") + m.c_name + (single ? "f" : ""), args, W);
    not_covered("math." + name);
}

// math.frexp(x) -> (mantissa, int32 exponent), math.modf(x) -> (fraction, integral part), with
// Python's conventions for non-finite values as the prelude's simt_frexp / simt_modf:
// frexp(inf) = (inf, 0), modf(inf) = (copysign(0, inf), inf), modf(nan) = (nan, nan).
IrValue NvvmEmitter::frexp_modf(const IrValue& arg, const Type* result, bool frexp) {
    const Type* W = result->elems[0];
    const std::string T = ir_type(W), f = W->dtype == DType::Float32 ? "f" : "";
    IrValue x = convert(arg, W);
    std::string difference = assign("fsub " + T + " " + x.ref + ", " + x.ref);
    std::string finite = assign("fcmp oeq " + T + " " + difference + ", " + constant(ConstValue::real(0.0), W).ref);
    uses_libdevice_ = true;
    const std::string out = "%out" + std::to_string(labels_++);
    if (frexp) {
        allocas_ += "  " + out + " = alloca i32\n";
        declare("declare " + T + " @__nv_frexp" + f + "(" + T + ", i32*)");
        std::string m = assign("call " + T + " @__nv_frexp" + f + "(" + T + " " + x.ref + ", i32* " + out + ")");
        std::string e = assign("load i32, i32* " + out);
        return {"", result, {{assign("select i1 " + finite + ", " + T + " " + m + ", " + T + " " + x.ref), W, {}},
                             {assign("select i1 " + finite + ", i32 " + e + ", i32 0"), result->elems[1], {}}}};
    }
    allocas_ += "  " + out + " = alloca " + T + "\n";
    declare("declare " + T + " @__nv_modf" + f + "(" + T + ", " + T + "*)");
    std::string frac = assign("call " + T + " @__nv_modf" + f + "(" + T + " " + x.ref + ", " + T + "* " + out + ")");
    std::string whole = assign("load " + T + ", " + T + "* " + out);
    IrValue signed_zero = libdevice("__nv_copysign" + f, {constant(ConstValue::real(0.0), W), x}, W);
    // not finite: (nan, nan) for a nan, (copysign(0, x), x) for an infinity (x itself is both)
    std::string is_nan = assign("fcmp uno " + T + " " + x.ref + ", " + x.ref);
    std::string special = assign("select i1 " + is_nan + ", " + T + " " + x.ref + ", " + T + " " + signed_zero.ref);
    return {"", result, {{assign("select i1 " + finite + ", " + T + " " + frac + ", " + T + " " + special), W, {}},
                         {assign("select i1 " + finite + ", " + T + " " + whole + ", " + T + " " + x.ref), W, {}}}};
}

// The elementwise kernels' rounding functions (sema/builtins_elementwise.cpp): the argument's
// type is kept, integers and bools are already whole, float16 rounds through float32.
IrValue NvvmEmitter::rounding(const Expr& e, const std::string& name) {
    IrValue x = expr(*e.children[1]);
    if (!x.type->is_float()) return x;
    if (name != "floor" && name != "ceil" && name != "trunc" && name != "rint") not_covered("elementwise." + name);
    const Type* W = x.type->dtype == DType::Float16 ? scalar_type(DType::Float32) : x.type;
    const std::string T = ir_type(W), sfx = W->dtype == DType::Float32 ? "f" : "d";
    const std::string intrinsic = name == "rint" ? "llvm.rint." + std::string(sfx == "f" ? "f32" : "f64") : "llvm.nvvm." + name + "." + sfx;
    return convert({call_intrinsic(T, intrinsic, T + " " + convert(x, W).ref), W, {}}, x.type);
}

// A device function's call: arguments by position or keyword (constant defaults filled in),
// converted to its parameter types; an inner function's hidden parameters are the caller's
// variables of the same names.
IrValue NvvmEmitter::device_call(const Expr& e) {
    const TypedFunction& f = *e.resolved->callee;
    std::vector<const char*> names;
    const size_t visible = f.def.params.size() - f.hidden_params;
    for (size_t i = 0; i < visible; ++i) names.push_back(f.def.params[i].name.c_str());
    std::string error;
    std::vector<const Expr*> args = match_call_args(e, names, 0, error);
    if (!error.empty() || args.size() != visible) not_covered("this call");
    std::string list;
    for (size_t i = 0; i < f.def.params.size(); ++i) {
        const Type* t = f.param_types[i];
        IrValue v;
        if (i >= visible) {
            const Local& l = local(f.def.params[i].name);
            v = unpacked(assign("load " + ir_type(l.type) + ", " + ir_type(l.type) + "* " + l.slot), l.type);
        } else if (args[i]) {
            v = expr(*args[i]);
        } else {
            const Expr& d = *f.def.params[i].default_value;
            if (!d.resolved || !d.resolved->is_constant) not_covered("this default argument");
            v = constant(d.resolved->constant, t);
        }
        v = convert(v, t);
        list += (i ? ", " : "") + ir_type(t) + " " + packed(v);
    }
    const Type* R = f.return_type;
    if (!R || R->kind == TypeKind::Void || R->kind == TypeKind::NoneType) {
        emit("call void @" + f.c_name + "(" + list + ")");
        return {"", void_type(), {}};
    }
    return unpacked(assign("call " + ir_type(R) + " @" + f.c_name + "(" + list + ")"), R);
}

IrValue NvvmEmitter::call(const Expr& e) {
    const Resolved* r = e.resolved.get();
    if (r && r->callee) return device_call(e);
    const std::string& b = builtin_of(e);
    if (b.rfind("cast.", 0) == 0 || b == "int" || b == "float" || b == "bool") {
        if (e.children.size() != 2 || !e.keywords.empty()) not_covered("this conversion");
        return expr_as(*e.children[1], e.type);
    }
    if (b == "cuda.grid" || b == "cuda.gridsize") {
        const bool size = b == "cuda.gridsize";
        if (e.type->is_scalar()) return grid_axis(size, 0);
        IrValue t{"", e.type, {}};
        for (size_t k = 0; k < e.type->elems.size(); ++k) t.parts.push_back(grid_axis(size, int(k)));
        return t;
    }
    if (b == "cuda.syncthreads") {
        call_intrinsic("void", "llvm.nvvm.barrier0", "");
        return {"", void_type(), {}};
    }
    if (b == "len") {
        const Expr& a = *e.children[1];
        if (a.type->is_tuple()) return int_constant(int64_t(a.type->elems.size()), int64_type());
        if (!a.type->is_array() || a.type->ndim < 1) not_covered("len() of this value");
        return array_field(expr(a), 1, 0);
    }
    if (b == "divmod") {  // (a // b, a % b), each operand evaluated once
        if (e.children.size() != 3 || !e.type->is_tuple() || e.type->elems.size() != 2) not_covered("this divmod()");
        IrValue x = expr(*e.children[1]), y = expr(*e.children[2]);
        return {"", e.type, {convert(binop(BinOpKind::FloorDiv, x, y), e.type->elems[0]),
                             convert(binop(BinOpKind::Mod, x, y), e.type->elems[1])}};
    }
    if (b == "min" || b == "max") {
        if (!e.keywords.empty()) not_covered("min/max with keywords");
        std::vector<IrValue> values;
        if (e.children.size() == 2) values = tuple_parts(*e.children[1]);
        else for (size_t i = 1; i < e.children.size(); ++i) values.push_back(expr(*e.children[i]));
        return min_max(values, e.type, b == "min");
    }
    if (b == "abs") {
        const Expr& a = *e.children[1];
        const Type* t = a.type->is_bool() ? int64_type() : a.type;
        IrValue x = convert(expr(a), t);
        const std::string T = ir_type(t);
        if (t->dtype == DType::Float16) return convert(half_bits(x, "and", "32767"), e.type);  // simt_abs: sign bit cleared
        if (t->is_complex()) return convert(complex_abs(x), e.type);
        if (t->is_float())
            return convert(float_abs(x), e.type);
        if (!dtype_is_signed(t->dtype)) return convert(x, e.type);
        std::string negative = assign("icmp slt " + T + " " + x.ref + ", 0");
        IrValue negated{assign("sub " + T + " 0, " + x.ref), t, {}};
        return convert(select(negative, negated, x), e.type);
    }
    if (b.rfind("math.", 0) == 0) return math_call(e, b.substr(5));
    if (b.rfind("elementwise.", 0) == 0) return rounding(e, b.substr(12));
    if (b == "complex") {  // complex(re=0, im=0) as complex128; complex(z) converts z
        std::string error;
        std::vector<const Expr*> a = match_call_args(e, {"real", "imag"}, 0, error);
        if (!error.empty()) not_covered("this call of complex()");
        if (a[0] && !a[1] && a[0]->type->is_complex()) return expr_as(*a[0], e.type);
        const Type* P = complex_part_type(e.type);
        IrValue re = a[0] ? expr_as(*a[0], P) : int_constant(0, P);
        IrValue im = a[1] ? expr_as(*a[1], P) : int_constant(0, P);
        return make_complex(re, im, e.type);
    }
    if (b == "number.conjugate") {  // a complex's conjugate; a real number is its own
        IrValue x = expr(*e.children[0]->children[0]);
        if (!x.type->is_complex()) return convert(x, e.type);
        return make_complex(complex_part(x, 0), negate_float(complex_part(x, 1)), x.type);
    }
    if (b == "number.view") {  // simt_bit_cast: the same bits as another type of the same size
        IrValue x = expr(*e.children[0]->children[0]);
        if (!x.type->is_scalar() || !e.type->is_scalar()) not_covered("this view()");
        const std::string F = ir_type(x.type), T = ir_type(e.type);
        return {F == T ? x.ref : assign("bitcast " + F + " " + x.ref + " to " + T), e.type, {}};
    }
    if (b == "cuda.shared.array" || b == "cuda.local.array") return memory_array(e);
    if (b.rfind("cuda.atomic.", 0) == 0) return atomic(e, b.substr(12));
    static const char* const kWarp[] = {"shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync", "all_sync",
                                        "any_sync", "eq_sync", "ballot_sync", "match_any_sync", "activemask",
                                        "lanemask_lt", "syncthreads_count", "syncthreads_and", "syncthreads_or",
                                        "syncwarp", "threadfence", "threadfence_block", "threadfence_system",
                                        "nanosleep", "popc", "clz", "ffs", "brev", "fma", "cbrt", "selp"};
    for (const char* w : kWarp)
        if (b == std::string("cuda.") + w) return warp_call(e, w);
    not_covered(b.empty() ? "this call" : "the builtin " + b);
}

}  // namespace simt
