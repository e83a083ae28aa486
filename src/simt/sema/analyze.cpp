// Analysis driver and statement typing: collects locals, iterates type inference to a fixed
// point (variables widen as numba unifies them), then runs a strict final pass.
#include <algorithm>
#include "frontend/parser.h"
#include "sema/sema.h"
#include "sema/tile.h"
#include "support/error.h"
#include "types/promote.h"

namespace simt {

void collect_targets(const Expr& e, std::set<std::string>& out) {
    if (e.kind == ExprKind::Name) out.insert(e.text);
    if (e.kind == ExprKind::Tuple || e.kind == ExprKind::List)
        for (const ExprPtr& c : e.children) collect_targets(*c, out);
}

namespace {

void collect_assigned(const std::vector<StmtPtr>& body, std::set<std::string>& out) {
    for (const StmtPtr& s : body) {
        for (const ExprPtr& t : s->targets) collect_targets(*t, out);
        if (s->target) collect_targets(*s->target, out);
        collect_assigned(s->body, out);
        collect_assigned(s->orelse, out);
    }
}

std::string mangle_identifier(const std::string& name) {
    static const char* const kReserved[] = {
        "alignas", "alignof", "asm", "auto", "bool", "case", "catch", "char", "class", "const", "constexpr",
        "default", "delete", "do", "double", "dynamic_cast", "enum", "explicit", "export", "extern", "float",
        "friend", "goto", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "operator",
        "private", "protected", "public", "register", "reinterpret_cast", "short", "signed", "sizeof",
        "static", "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
        "throw", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
        "char8_t", "char16_t", "char32_t", "wchar_t", "concept", "requires", "co_await", "co_return",
        "co_yield", "const_cast", "decltype", "nullptr", "true", "false", "main", "ctx", "and", "or", "not",
        "xor", "bitand", "bitor", "compl", "and_eq", "or_eq", "xor_eq", "not_eq", "NULL", "int8_t", "int16_t",
        "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t", "threadIdx",
        "blockIdx", "blockDim", "gridDim", "warpSize", "min", "max", "abs", "std", "printf", "malloc", "free",
        "memcpy", "memset", "assert",
        // the cpu entry point's own parameters
        "launch", "args", "block_begin", "block_end"};
    // C math functions generated code calls by name (also with an f suffix): a local or a kernel
    // of that name would hide or redeclare them.
    static const char* const kMath[] = {
        "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos", "cosh",
        "cospi", "erf", "erfc", "erfcinv", "erfinv", "exp", "exp10", "exp2", "expm1", "fabs", "fdim", "floor",
        "fma", "fmax", "fmin", "fmod", "frexp", "hypot", "ilogb", "isfinite", "isinf", "isnan", "ldexp", "lgamma",
        "llrint", "llround", "log", "log10", "log1p", "log2", "logb", "lrint", "lround", "modf", "nan", "nearbyint",
        "nextafter", "normcdf", "pow", "rcbrt", "remainder", "remquo", "rint", "round", "rsqrt", "scalbn", "signbit",
        "sin", "sincos", "sinh", "sinpi", "sqrt", "tan", "tanh", "tgamma", "trunc"};
    std::string out;
    for (unsigned char c : name) {
        if (c < 0x80) out += char(c);
        else { char buf[8]; std::snprintf(buf, sizeof buf, "x%02x", c); out += buf; }
    }
    // Names ending in '_' get one more, so that renaming stays one-to-one (new -> new_, new_ -> new__);
    // '_' alone stays (it is never produced by appending).
    bool clash = out.rfind("simt_", 0) == 0 || out.rfind("__", 0) == 0 || (out.size() > 1 && out[0] == '_' && std::isupper((unsigned char)out[1])) ||
                 (out.size() > 1 && out.back() == '_');
    for (const char* r : kReserved) clash = clash || out == r;
    const std::string stem = !out.empty() && out.back() == 'f' ? out.substr(0, out.size() - 1) : out;
    for (const char* m : kMath) clash = clash || out == m || stem == m;
    return clash ? out + "_" : out;
}

}  // namespace

std::string c_identifier(const std::string& python_name) { return mangle_identifier(python_name); }

Sema::Sema(CompileUnit& unit, TypedFunction& fn, const GlobalResolver& resolve, std::vector<std::string>& call_stack)
    : unit_(unit), fn_(fn), resolve_(resolve), call_stack_(call_stack) {}

void Sema::run() {
    FunctionDef& def = fn_.def;
    for (size_t i = 0; i < def.params.size(); ++i) {
        local_names_.insert(def.params[i].name);
        local_types_[def.params[i].name] = fn_.param_types[i];
    }
    check_integer_literals(def.body);
    std::set<std::string> assigned;
    collect_assigned(def.body, assigned);
    for (const std::string& n : assigned) local_names_.insert(n);
    find_single_assignments();
    collect_inner_functions();

    const int kMaxPasses = 64;
    for (int pass = 0; pass < kMaxPasses; ++pass) {
        changed_ = false;
        incomplete_ = false;
        block(def.body);
        if (!changed_) break;
    }
    final_ = true;
    incomplete_ = false;
    block(def.body);

    fn_.locals.clear();
    for (const std::string& name : local_order_) {
        bool is_param = false;
        for (const Param& p : def.params) is_param = is_param || p.name == name;
        if (!is_param) fn_.locals.emplace_back(name, local_types_[name]);
    }
    if (fn_.is_kernel) {
        if (return_type_ && return_type_->kind != TypeKind::NoneType && return_type_->kind != TypeKind::Void)
            fail(def.loc, "a kernel cannot return a value (it returns " + return_type_->str() + "); write results into an array argument");
        fn_.return_type = void_type();
    } else {
        fn_.return_type = return_type_ ? return_type_ : none_type();
        if (fn_.return_type->kind == TypeKind::NoneType) fn_.return_type = void_type();
    }
}

void Sema::block(std::vector<StmtPtr>& body) {
    for (StmtPtr& s : body) {
        if (final_) {
            statement(*s);
            continue;
        }
        // Early passes tolerate errors: types may still be widening. The final pass reports them.
        try {
            statement(*s);
        } catch (const Error&) {
            incomplete_ = true;
        }
    }
}

void Sema::check_condition(Expr& test) {
    const Type* t = type_of(test);
    if (!t) return;
    if (t->compile_time_only())
        fail(test.loc, "cannot use a value of type " + t->str() + " as a condition");
    if (!t->is_scalar() && t->kind != TypeKind::NoneType)
        fail(test.loc, "cannot use a value of type " + t->str() + " as a condition");
}

void Sema::assign_local(const std::string& name, const Type* t, Loc loc) {
    if (!t) return;
    if ((t->kind == TypeKind::Module && !t->is_grid_group()) || t->kind == TypeKind::Function || t->kind == TypeKind::Dim3 ||
        t->kind == TypeKind::DeviceFunction || t->kind == TypeKind::Range || t->kind == TypeKind::Iterator ||
        t->kind == TypeKind::Void)
        fail(loc, "cannot store a value of type " + t->str() + " in variable '" + name + "'");
    if (t->kind == TypeKind::NoneType) fail(loc, "cannot assign None to variable '" + name + "'");
    auto it = local_types_.find(name);
    if (std::find(local_order_.begin(), local_order_.end(), name) == local_order_.end()) local_order_.push_back(name);
    if (it == local_types_.end() || !it->second) {
        local_types_[name] = t;
        changed_ = true;
        return;
    }
    const Type* u = unify(it->second, t);
    if (!u) fail(loc, "cannot unify " + it->second->str() + " and " + t->str() + " for variable '" + name + "'");
    if (u != it->second) {
        // Parameters keep their types: a wider value is converted on assignment.
        bool is_param = false;
        for (const Param& p : fn_.def.params) is_param = is_param || p.name == name;
        if (is_param) {
            if (!can_convert(t, it->second))
                fail(loc, "cannot assign " + t->str() + " to parameter '" + name + "' of type " + it->second->str());
            return;
        }
        it->second = u;
        changed_ = true;
    }
}

// A cuda.local.array of this function, or a local bound to one: storage that ends with the
// call, so a device function must not return it.
bool Sema::is_frame_array(const Expr& e) const {
    if (e.kind == ExprKind::Name) return frame_arrays_.count(e.text) > 0;
    if ((e.kind == ExprKind::Subscript || (e.kind == ExprKind::Attribute && e.text == "T")) && e.type && e.type->is_array())
        return is_frame_array(*e.children[0]);  // a view of the frame's storage
    if (e.kind != ExprKind::Call || e.children.empty()) return false;
    const Expr& callee = *e.children[0];
    return callee.resolved && callee.resolved->builtin == "cuda.local.array";
}

void Sema::assign(Expr& target, const Type* vt, Expr* value, Loc loc) {
    switch (target.kind) {
        case ExprKind::Name:
            if (value && is_frame_array(*value)) frame_arrays_.insert(target.text);
            if (vt && vt->kind == TypeKind::String) {  // a compile-time string: one constant value
                const ConstValue* c = value ? constant(*value) : nullptr;
                auto known = constant_strings_.find(target.text);
                if (!c || (known != constant_strings_.end() && known->second.s != c->s))
                    fail(loc, "variable '" + target.text + "' holds a string: it must be given one constant value");
                constant_strings_[target.text] = *c;
            }
            resolved(target).is_local = true;
            assign_local(target.text, vt, loc);
            if (vt) target.type = local_types_[target.text];
            return;
        case ExprKind::Subscript: {
            const Type* container = type_of(*target.children[0]);
            if (!container || !vt) { type_of(*target.children[1]); return; }
            if (container->is_array()) {
                if (container->readonly) fail(target.loc, "cannot assign to an element of a read-only (constant) array");
                const Type* elem = infer_subscript(target);
                if (!elem) return;
                if (elem->is_array()) {  // A[a:b] = x: every element of the view
                    target.type = elem;
                    const Type* from = vt->is_array() ? scalar_type(vt->dtype) : vt;
                    if (vt->is_array() && vt->ndim > elem->ndim)
                        fail(loc, "cannot assign a " + std::to_string(vt->ndim) + "-D array to a " + std::to_string(elem->ndim) +
                                      "-D view of " + container->str());
                    if (!from->is_scalar() || !can_convert(from, scalar_type(elem->dtype)))
                        fail(loc, "cannot store a value of type " + vt->str() + " into a view of " + container->str());
                    return;
                }
                if (!can_convert(vt, elem))
                    fail(loc, "cannot store a value of type " + vt->str() + " into " + container->str());
                return;
            }
            if (container->is_tuple()) fail(target.loc, "tuples are immutable: cannot assign to a tuple element");
            fail(target.loc, "cannot assign to an element of a value of type " + container->str());
        }
        case ExprKind::Tuple: case ExprKind::List: {
            if (!vt) { for (ExprPtr& c : target.children) assign(*c, nullptr, nullptr, loc); return; }
            if (!vt->is_tuple())
                fail(loc, "cannot unpack a value of type " + vt->str() + " into " + std::to_string(target.children.size()) + " targets");
            if (vt->elems.size() != target.children.size())
                fail(loc, "cannot unpack a tuple of " + std::to_string(vt->elems.size()) + " values into " +
                              std::to_string(target.children.size()) + " targets");
            for (size_t i = 0; i < target.children.size(); ++i) assign(*target.children[i], vt->elems[i], nullptr, loc);
            target.type = vt;
            return;
        }
        case ExprKind::Attribute:
            fail(target.loc, "cannot assign to attribute '" + target.text + "' in a kernel");
        default:
            fail(target.loc, "cannot assign to this expression");
    }
    (void)value;
}

void Sema::statement(Stmt& s) {
    switch (s.kind) {
        case StmtKind::Expr: {
            if (s.value->kind == ExprKind::String || s.value->kind == ExprKind::Ellipsis) return;  // docstring, `...` body
            type_of(*s.value);
            return;
        }
        case StmtKind::Assign: {
            const Type* vt = type_of(*s.value);
            for (ExprPtr& t : s.targets) assign(*t, vt, s.value.get(), s.loc);
            note_local_constants(s);
            return;
        }
        case StmtKind::AugAssign: {
            const Type* tt = type_of(*s.target);
            const Type* vt = type_of(*s.value);
            if (!tt || !vt) { if (s.target->kind == ExprKind::Name) incomplete_ = true; return; }
            if (tt->is_tile() || vt->is_tile()) {  // t += x: a new tile bound to the same name
                if (s.target->kind != ExprKind::Name) fail(s.loc, "tiles cannot be stored into an element");
                check_weak_integer(*this, *s.value, tt);
                assign(*s.target, tile_binop_type(*this, s.loc, s.op, tt, vt), nullptr, s.loc);
                return;
            }
            if (tt->is_array())
                fail(s.loc, std::string("'") + binop_symbol(s.op) + "=' on a whole array (" + tt->str() +
                                ") is not supported inside kernels; update it element by element");
            if (!tt->is_scalar() || !vt->is_scalar())
                fail(s.loc, std::string("unsupported operand types for ") + binop_symbol(s.op) + "=: " + tt->str() + " and " + vt->str());
            DType result;
            if (!binop_result(s.op, tt->dtype, vt->dtype, result))
                fail(s.loc, std::string("unsupported operand types for ") + binop_symbol(s.op) + "=: " + tt->str() + " and " + vt->str());
            if (s.target->kind == ExprKind::Name) assign(*s.target, scalar_type(result), nullptr, s.loc);
            else assign(*s.target, scalar_type(result), nullptr, s.loc);
            return;
        }
        case StmtKind::If:
            check_condition(*s.test);
            // A condition known when compiling (a constant, a tile.Constant, a dtype test) keeps
            // only its taken branch, as numba prunes them: the other need not type-check.
            if (const ConstValue* c = s.test->type ? constant(*s.test) : nullptr) prune(c->truthy() ? s.orelse : s.body);
            block(s.body);
            block(s.orelse);
            return;
        case StmtKind::While:
            check_condition(*s.test);
            ++loop_depth_;
            block(s.body);
            --loop_depth_;
            block(s.orelse);
            return;
        case StmtKind::For: {
            if (s.iter->kind == ExprKind::Call && unroll_static_iter(s)) {  // (sema/static_iter.cpp)
                if (s.kind == StmtKind::If) statement(s);
                return;
            }
            if (type_of(*s.iter)) assign(*s.target, item_type(*s.iter), nullptr, s.loc);
            ++loop_depth_;
            block(s.body);
            --loop_depth_;
            block(s.orelse);
            return;
        }
        case StmtKind::Break:
        case StmtKind::Continue:
            if (loop_depth_ == 0) unsupported(s.loc, std::string("SyntaxError: '") + (s.kind == StmtKind::Break ? "break" : "continue") + "' outside loop");
            return;
        case StmtKind::Pass:
        case StmtKind::FunctionDef:  // typed at each call (sema/inner_functions.cpp)
            return;
        case StmtKind::Assert:
            check_condition(*s.value);
            assert_statement(s);
            return;
        case StmtKind::Raise:
            raise_statement(s);
            return;
        case StmtKind::Return: {
            const Type* t = s.value ? type_of(*s.value) : none_type();
            if (!t) return;
            if (s.value && !fn_.is_kernel) {
                bool frame = is_frame_array(*s.value);
                if (s.value->kind == ExprKind::Tuple)
                    for (const ExprPtr& item : s.value->children) frame = frame || is_frame_array(*item);
                if (frame)
                    fail(s.loc, "a device function cannot return its cuda.local.array: the array's storage ends when "
                                "the function returns (pass an array in as an argument and fill it instead)");
            }
            if (s.value && t->kind == TypeKind::NoneType) t = none_type();
            if (t->kind != TypeKind::NoneType && !t->is_scalar() && !t->is_tuple() && !t->is_array() && !t->is_tile() &&
                t->kind != TypeKind::TiledView)
                fail(s.loc, "cannot return a value of type " + t->str());
            if (!return_type_) { return_type_ = t; changed_ = true; return; }
            if (return_type_ == t) return;
            const Type* u = unify(return_type_, t);
            if (!u) fail(s.loc, "inconsistent return types: " + return_type_->str() + " and " + t->str());
            if (u != return_type_) { return_type_ = u; changed_ = true; }
            return;
        }
    }
}

void read_linked_sources(CompileUnit& unit) {
    // The unit's own link= files, then those its declared functions name, each once.
    std::vector<std::string> paths = unit.options.link;
    for (const auto& f : unit.foreign_functions) paths.insert(paths.end(), f->link.begin(), f->link.end());
    for (const std::string& path : paths) {
        bool seen = false;
        for (const LinkedSource& s : unit.linked_sources) seen = seen || s.path == path;
        if (!seen) unit.linked_sources.push_back(read_linked_source(path));
    }
    read_included_files(unit.linked_sources);
}

std::unique_ptr<CompileUnit> analyze_kernel(const SourceText& source, const GlobalResolver& resolve,
                                            const std::vector<const Type*>& arg_types,
                                            const CompileOptions& options) {
    auto unit = std::make_unique<CompileUnit>();
    unit->options = options;
    auto fn = std::make_unique<TypedFunction>();
    fn->source = source;
    fn->def = parse_function(source);
    fn->name = fn->def.name;
    fn->c_name = c_identifier(fn->def.name);
    fn->is_kernel = true;
    // tile.Constant parameters: dropped, so their names resolve (to values) as globals do.
    for (const std::string& name : options.constant_params) {
        auto& params = fn->def.params;
        auto it = std::find_if(params.begin(), params.end(), [&](const Param& p) { return p.name == name; });
        if (it == params.end()) throw Error(ErrorKind::Type, "kernel '" + fn->name + "' has no parameter '" + name + "'");
        params.erase(it);
    }
    if (arg_types.size() != fn->def.params.size())
        throw Error(ErrorKind::Type, "kernel '" + fn->name + "' takes " + std::to_string(fn->def.params.size()) +
                                         " argument" + (fn->def.params.size() == 1 ? "" : "s") + " but " +
                                         std::to_string(arg_types.size()) + " were given");
    fn->param_types = arg_types;
    TypedFunction* kernel = fn.get();
    std::vector<std::string> call_stack{source.filename + ":" + fn->name};
    Sema sema(*unit, *kernel, resolve, call_stack);
    unit->functions.push_back(std::move(fn));
    sema.run();
    // Keep the kernel last: code generation emits callees first.
    auto it = std::find_if(unit->functions.begin(), unit->functions.end(),
                           [&](const std::unique_ptr<TypedFunction>& f) { return f.get() == kernel; });
    std::rotate(it, it + 1, unit->functions.end());
    unit->kernel = kernel;
    read_linked_sources(*unit);
    return unit;
}

}  // namespace simt
