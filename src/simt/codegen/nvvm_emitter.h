// The NVVM IR emitter (see nvvm_ir.h): a kernel and the device functions it calls, as SSA text. Locals live
// in allocas that libNVVM's optimizer promotes to registers; control flow is explicit blocks.
// Anything outside the covered subset throws NotCovered and the kernel goes to NVRTC instead.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>
#include "codegen/loop_bounds.h"
#include "codegen/nvvm_ir.h"
#include "sema/typed_function.h"

namespace simt {

struct NotCovered {
    std::string what;
};

// A value in registers: a scalar (or an array's aggregate) named `ref` ("%v3", or a constant), or
// a tuple's elements in `parts`.
struct IrValue {
    std::string ref;
    const Type* type = nullptr;
    std::vector<IrValue> parts;
};

class NvvmEmitter {
public:
    explicit NvvmEmitter(const CompileUnit& unit) : unit_(unit), fn_(unit.kernel) {}
    NvvmModule run();

private:
    // ---- text (nvvm_emit_unit.cpp) ----
    [[noreturn]] void not_covered(const std::string& what) const { throw NotCovered{what}; }
    std::string fresh();                       // a new register name
    std::string fresh_label(const char* hint);
    void emit(const std::string& instruction); // into the current block (opening one after a terminator)
    std::string assign(const std::string& rhs) { std::string r = fresh(); emit(r + " = " + rhs); return r; }
    void open_block(const std::string& label);
    void branch(const std::string& label);
    void cond_branch(const std::string& test, const std::string& yes, const std::string& no);
    void declare(const std::string& declaration) { declarations_.insert(declaration); }
    std::string call_intrinsic(const std::string& ret, const std::string& name, const std::string& args);

    // ---- types and values (nvvm_emit_values.cpp) ----
    std::string ir_type(const Type* t) const;  // scalar in registers (bool: i1), array or tuple aggregate
    std::string mem_type(DType d) const;       // an element in memory (bool: i8)
    IrValue constant(const ConstValue& c, const Type* t) const;
    IrValue int_constant(int64_t v, const Type* t) const;
    IrValue complex_constant(double re, double im, const Type* t) const;
    IrValue convert(const IrValue& v, const Type* to);
    std::string packed(const IrValue& v);                    // a tuple's aggregate (other values: their ref)
    IrValue unpacked(const std::string& ref, const Type* t);  // ... and back, with a tuple's parts
    IrValue binop(BinOpKind op, const IrValue& a, const IrValue& b);
    IrValue compare(CmpOpKind op, const IrValue& a, const IrValue& b);
    IrValue float_to_int(const IrValue& v, const Type* to);
    IrValue int_divmod(BinOpKind op, const IrValue& a, const IrValue& b);
    IrValue float_divmod(BinOpKind op, const IrValue& a, const IrValue& b);
    IrValue shift(BinOpKind op, const IrValue& a, const IrValue& b);
    IrValue power(const IrValue& a, const IrValue& b, const Type* rhs_type);
    IrValue select(const std::string& test, const IrValue& yes, const IrValue& no);

    // ---- complex values (nvvm_emit_complex.cpp) ----
    const Type* complex_part_type(const Type* t) const;  // float32 for complex64, float64 for complex128
    IrValue complex_part(const IrValue& z, int k);        // 0: real, 1: imaginary
    IrValue make_complex(const IrValue& re, const IrValue& im, const Type* t);
    IrValue complex_convert(const IrValue& v, const Type* to);  // to or from a complex type
    IrValue complex_binop(BinOpKind op, const IrValue& a, const IrValue& b);
    IrValue complex_equal(CmpOpKind op, const IrValue& a, const IrValue& b);
    IrValue complex_negate(const IrValue& z);
    IrValue complex_abs(const IrValue& z);
    IrValue negate_float(const IrValue& x);

    // ---- expressions (nvvm_emit_expr.cpp) ----
    IrValue expr(const Expr& e);
    IrValue expr_as(const Expr& e, const Type* t) { return convert(expr(e), t); }
    std::vector<IrValue> tuple_parts(const Expr& e);
    IrValue attribute(const Expr& e);
    IrValue subscript(const Expr& e);
    IrValue call(const Expr& e);
    IrValue math_call(const Expr& e, const std::string& name);
    IrValue math_value(const Expr& e, const std::string& name);
    IrValue rounding(const Expr& e, const std::string& name);  // elementwise.floor/ceil/trunc/rint  // math_call before a float16 result's rounding
    IrValue half_bits(const IrValue& h, const char* op, const char* mask);  // h's bits `op` mask (i16)
    IrValue float_abs(const IrValue& x);  // llvm.fabs of a float32 or float64
    IrValue unary(const Expr& e);
    IrValue chained_compare(const Expr& e);
    IrValue bool_op(const Expr& e);
    IrValue if_expression(const Expr& e);
    IrValue special_register(const std::string& reg, char axis);
    IrValue grid_axis(bool size, int axis);
    IrValue array_field(const IrValue& array, int field, int k);  // field 1: shape, 2: strides
    IrValue min_max(const std::vector<IrValue>& values, const Type* R, bool is_min);
    IrValue libdevice(const std::string& name, const std::vector<IrValue>& args, const Type* t);
    IrValue frexp_modf(const IrValue& x, const Type* result, bool frexp);  // math.frexp / math.modf

    // ---- arrays (nvvm_emit_expr.cpp) ----
    struct Element {
        std::string ok;   // i1: the element exists ("true" when unchecked)
        std::string ptr;  // its address (computed from the wrapped indices; dereferenced only when ok)
        DType dtype;
    };
    Element element(const Expr& subscript);
    Element element_of(const IrValue& array, const std::vector<const Expr*>& indices, bool proven, bool as_int64);
    std::vector<const Expr*> index_parts(const Expr& index, int ndim);
    // ---- views (nvvm_emit_view.cpp) ----
    IrValue view(const Expr& subscript);  // a[i], a[i, a:b], a[::2]: an array value
    IrValue transpose(const IrValue& array, const Type* t);  // a.T, of type t
    IrValue make_array(const Type* t, const std::string& data, const std::vector<std::string>& shape,
                       const std::vector<std::string>& strides);
    std::string slice_bound(const std::string& x, const std::string& len, const std::string& negative_step);

    // ---- warp operations, fences and bit intrinsics (nvvm_emit_warp.cpp) ----
    IrValue warp_call(const Expr& call, const std::string& name);  // cuda.<name>(...)
    IrValue warp_value(const Expr& e);
    IrValue per_word(const IrValue& v, const std::function<std::string(const std::string&)>& op);

    // ---- array storage and atomics (nvvm_emit_memory.cpp) ----
    IrValue memory_array(const Expr& call);  // cuda.shared.array / cuda.local.array
    IrValue atomic(const Expr& call, const std::string& op);
    IrValue load(const Element& el);
    void store(const Element& el, const IrValue& v);

    // ---- statements (nvvm_emit_stmt.cpp) ----
    void block(const std::vector<StmtPtr>& body);
    void statement(const Stmt& s);
    void assign_to(const Expr& target, const IrValue& v);
    void for_range(const Stmt& s);
    std::string range_more(const Type* var, int sign, const std::string& i, const std::string& stop, const std::string& step);
    // ---- for loops over arrays, tuples, enumerate() and zip() (nvvm_emit_iterate.cpp) ----
    struct Cursor {
        const Type* type = nullptr;                 // what the loop binds each iteration
        std::function<std::string()> more;          // emits the test that another item exists (i1)
        std::function<IrValue()> item;              // emits the current item
        std::function<void()> advance;              // emits the step
        std::vector<Cursor> parts;                  // enumerate() / zip(): the items are tuples of these
    };
    Cursor cursor(const Expr& iterable);
    Cursor range_cursor(const Expr& call, const Type* var);
    IrValue cursor_item(const Cursor& c);
    std::string cursor_more(const Cursor& c);
    void cursor_advance(const Cursor& c);
    void bind_item(const Expr& target, const Cursor& c);
    void for_each(const Stmt& s);
    std::string hoisted_test(const std::vector<HoistedAccess>& accesses, const IrValue& start, const IrValue& stop);
    void while_loop(const Stmt& s);
    void if_statement(const Stmt& s);
    void aug_assign(const Stmt& s);
    void check_unit() const;
    std::string function_text(const TypedFunction& f);  // one `define`, kernel or device function
    IrValue device_call(const Expr& e);

    struct Local {
        std::string slot;  // alloca
        const Type* type;
    };
    const Local& local(const std::string& name) const;
    struct Loop {
        std::string next, exit;  // continue and break targets
    };

    const CompileUnit& unit_;
    const TypedFunction* fn_;  // the function being emitted
    std::string body_;        // instructions of the function
    std::string allocas_;     // entry-block allocas
    std::string current_;     // label of the block being written
    bool terminated_ = false;
    int registers_ = 0, labels_ = 0;
    std::map<std::string, Local> locals_;
    std::vector<Loop> loops_;
    std::set<std::string> declarations_;
    std::set<std::string> nonnegative_;
    // Element accesses a test before their loop proved in range (codegen/loop_bounds.h): untested.
    std::set<const Expr*> proven_;
    // range() variables known to lie in [0, stop) in the loop being emitted: name -> that stop
    // (i64; -1 when unknown), as the CUDA C++ emission's simt_ranged_index.
    std::map<std::string, std::string> ranged_vars_;
    std::set<int> local_arrays_;  // cuda.local.array slots with an alloca in the function being emitted
    bool uses_libdevice_ = false;
};

}  // namespace simt
