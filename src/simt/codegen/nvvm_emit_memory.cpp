// NVVM IR emitter: cuda.shared.array and cuda.local.array storage, and atomics. Shared arrays
// are module globals in the shared address space (3), local arrays allocas of the function; both
// become the same array aggregate as parameters (C-order strides, constant extents).
#include "codegen/nvvm_emitter.h"
#include "sema/builtins.h"

namespace simt {

IrValue NvvmEmitter::memory_array(const Expr& call) {
    const int slot = call.resolved ? call.resolved->memory_slot : -1;
    if (slot < 0) not_covered("this array declaration");
    const MemoryArray& m = unit_.memory_arrays[size_t(slot)];
    if (m.space != MemoryArray::Space::Shared && m.space != MemoryArray::Space::Local) not_covered("dynamic shared memory");
    const std::string E = mem_type(m.dtype);
    int64_t count = 1;
    for (int64_t d : m.shape) count *= d;
    const std::string storage = "[" + std::to_string(count > 0 ? count : 1) + " x " + E + "]";
    const std::string align = std::to_string(m.alignment);
    std::string base;
    if (m.space == MemoryArray::Space::Shared) {
        const std::string name = "@simt_shared_" + std::to_string(slot);
        declare(name + " = internal addrspace(3) global " + storage + " undef, align " + align);
        base = assign("addrspacecast " + storage + " addrspace(3)* " + name + " to " + storage + "*");
    } else {
        base = "%simt_local_" + std::to_string(slot);
        if (local_arrays_.insert(slot).second) allocas_ += "  " + base + " = alloca " + storage + ", align " + align + "\n";
    }
    std::string data = assign("getelementptr " + storage + ", " + storage + "* " + base + ", i64 0, i64 0");
    const Type* t = call.type;
    const std::string A = ir_type(t);
    std::string v = assign("insertvalue " + A + " undef, " + E + "* " + data + ", 0");
    int64_t stride = dtype_size(m.dtype);
    for (int k = int(m.shape.size()) - 1; k >= 0; --k) {  // simt_make_array: C order
        v = assign("insertvalue " + A + " " + v + ", i64 " + std::to_string(m.shape[size_t(k)]) + ", 1, " + std::to_string(k));
        v = assign("insertvalue " + A + " " + v + ", i64 " + std::to_string(stride) + ", 2, " + std::to_string(k));
        stride *= m.shape[size_t(k)];
    }
    return {v, t, {}};
}

// cuda.atomic.<op>(ary, idx, val): the element's old value, or 0 when the index is out of range
// (nothing is written), as the prelude's simt_atomic_* through simt_ref. Integer add, sub, and,
// or, xor, exch, max, min and cas, and float add/sub; the other forms keep the CUDA C++ path.
IrValue NvvmEmitter::atomic(const Expr& call, const std::string& op) {
    if (!call.keywords.empty() || call.children.size() < 3) not_covered("this atomic");
    const Expr& ary = *call.children[1];
    const Type* at = ary.type;
    if (!at->is_array()) not_covered("this atomic");
    const Type* T = scalar_type(at->dtype);
    const bool fp = T->is_float();
    const bool narrow = T->is_integer() && dtype_size(at->dtype) < 4;
    if (narrow || T->is_bool() || T->is_complex() || at->dtype == DType::Float16 || (fp && op != "add" && op != "sub"))
        not_covered("cuda.atomic." + op + " on " + T->str());
    const std::string E = mem_type(at->dtype);
    IrValue array = expr(ary);
    Element el;
    size_t first_value = 3;
    if (op == "compare_and_swap") {  // the first element of a 1-D array: there when the extent is positive
        if (at->ndim != 1) not_covered("this atomic");
        first_value = 2;
        el.ok = unit_.options.bounds == BoundsMode::Masked ? assign("icmp sgt i64 " + array_field(array, 1, 0).ref + ", 0")
                                                          : "true";
        el.ptr = assign("extractvalue " + ir_type(at) + " " + array.ref + ", 0");
        el.dtype = at->dtype;
    } else {
        el = element_of(array, index_parts(*call.children[2], at->ndim), false, true);
    }
    std::vector<IrValue> values;
    for (size_t i = first_value; i < call.children.size(); ++i) values.push_back(expr_as(*call.children[i], T));
    const bool cas = op == "cas" || op == "compare_and_swap";
    if (cas ? values.size() != 2 : values.size() != 1) not_covered("this atomic");
    std::string before = current_, in = fresh_label("atomic"), done = fresh_label("atomic.done");
    cond_branch(el.ok, in, done);
    open_block(in);
    std::string old;
    if (cas) {
        std::string pair = assign("cmpxchg " + E + "* " + el.ptr + ", " + E + " " + values[0].ref + ", " + E + " " + values[1].ref +
                                  " monotonic monotonic");
        old = assign("extractvalue { " + E + ", i1 } " + pair + ", 0");
    } else if (fp) {
        IrValue v = values[0];
        if (op == "sub") v = {assign("fsub " + E + " -0.0, " + v.ref), T, {}};
        const std::string sfx = at->dtype == DType::Float32 ? "f32.p0f32" : "f64.p0f64";
        old = call_intrinsic(E, "llvm.nvvm.atomic.load.add." + sfx, E + "* " + el.ptr + ", " + E + " " + v.ref);
    } else {
        const bool sign = dtype_is_signed(at->dtype);
        std::string rmw = op == "add" ? "add" : op == "sub" ? "sub" : op == "and_" ? "and" : op == "or_" ? "or"
                        : op == "xor" ? "xor" : op == "exch" ? "xchg" : op == "max" ? (sign ? "max" : "umax")
                        : op == "min" ? (sign ? "min" : "umin") : "";
        if (rmw.empty()) not_covered("cuda.atomic." + op);
        old = assign("atomicrmw " + rmw + " " + E + "* " + el.ptr + ", " + E + " " + values[0].ref + " monotonic");
    }
    std::string from = current_;
    branch(done);
    open_block(done);
    return {assign("phi " + E + " [ " + old + ", %" + from + " ], [ " + int_constant(0, T).ref + ", %" + before + " ]"), T, {}};
}

}  // namespace simt
