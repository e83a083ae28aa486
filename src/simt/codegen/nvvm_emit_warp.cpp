// NVVM IR emitter: numba.cuda's barriers with predicates, fences, warp operations (shuffles,
// votes, match_any, masks) and bit intrinsics, as the NVVM intrinsics CUDA's own headers lower
// __shfl_sync, __ballot_sync, __popc, ... to (prelude/cuda_sync.h has the CUDA C++ forms).
#include <functional>
#include "codegen/nvvm_emitter.h"
#include "sema/builtins.h"

namespace simt {

namespace {
const Type* u32() { return scalar_type(DType::UInt32); }
}  // namespace

IrValue NvvmEmitter::warp_value(const Expr& e) {
    // A 32- or 64-bit integer or float: 64-bit values travel as two 32-bit halves.
    IrValue v = expr(e);
    if (!v.type->is_scalar() || (dtype_size(v.type->dtype) != 4 && dtype_size(v.type->dtype) != 8) || v.type->is_bool() ||
        v.type->is_complex() || v.type->dtype == DType::Float16)
        not_covered("this warp value");
    return v;
}

// Applies `op` (a function of one i32) to the value's 32-bit words and puts them back together.
IrValue NvvmEmitter::per_word(const IrValue& v, const std::function<std::string(const std::string&)>& op) {
    const std::string T = ir_type(v.type);
    if (dtype_size(v.type->dtype) == 4) {
        std::string bits = v.type->is_float() ? assign("bitcast float " + v.ref + " to i32") : v.ref;
        std::string r = op(bits);
        return {v.type->is_float() ? assign("bitcast i32 " + r + " to float") : r, v.type, {}};
    }
    std::string bits = v.type->is_float() ? assign("bitcast double " + v.ref + " to i64") : v.ref;
    std::string lo = assign("trunc i64 " + bits + " to i32");
    std::string hi64 = assign("lshr i64 " + bits + ", 32");
    std::string hi = assign("trunc i64 " + hi64 + " to i32");
    std::string rlo = op(lo), rhi = op(hi);
    std::string wlo = assign("zext i32 " + rlo + " to i64");
    std::string whi = assign("zext i32 " + rhi + " to i64");
    std::string up = assign("shl i64 " + whi + ", 32");
    std::string joined = assign("or i64 " + up + ", " + wlo);
    return {v.type->is_float() ? assign("bitcast i64 " + joined + " to double") : joined, v.type, {}};
}

IrValue NvvmEmitter::warp_call(const Expr& e, const std::string& name) {
    if (!e.keywords.empty() && name != "syncwarp") not_covered("keyword arguments to cuda." + name);
    auto arg = [&](size_t i) -> const Expr& {
        if (i >= e.children.size()) not_covered("cuda." + name + " with these arguments");
        return *e.children[i];
    };
    auto mask = [&](size_t i) { return convert(expr(arg(i)), u32()).ref; };
    auto void_result = [&]() { return IrValue{"", void_type(), {}}; };
    if (name == "shfl_sync" || name == "shfl_up_sync" || name == "shfl_down_sync" || name == "shfl_xor_sync") {
        // CUDA's __shfl*_sync with width 32: c = 0x1f, except 0 for shfl_up.
        std::string m = mask(1);
        IrValue v = warp_value(arg(2));
        std::string lane = convert(expr(arg(3)), scalar_type(DType::Int32)).ref;
        const char* mode = name == "shfl_sync" ? "idx" : name == "shfl_up_sync" ? "up" : name == "shfl_down_sync" ? "down" : "bfly";
        const char* c = name == "shfl_up_sync" ? "0" : "31";
        IrValue r = per_word(v, [&](const std::string& w) {
            return call_intrinsic("i32", std::string("llvm.nvvm.shfl.sync.") + mode + ".i32",
                                  "i32 " + m + ", i32 " + w + ", i32 " + lane + ", i32 " + c);
        });
        return convert(r, e.type);
    }
    if (name == "all_sync" || name == "any_sync" || name == "eq_sync" || name == "ballot_sync") {
        std::string m = mask(1);
        std::string p = convert(expr(arg(2)), bool_type()).ref;
        if (name == "ballot_sync")
            return convert({call_intrinsic("i32", "llvm.nvvm.vote.ballot.sync", "i32 " + m + ", i1 " + p), u32(), {}}, e.type);
        const char* mode = name == "all_sync" ? "all" : name == "any_sync" ? "any" : "uni";
        return {call_intrinsic("i1", std::string("llvm.nvvm.vote.") + mode + ".sync", "i32 " + m + ", i1 " + p), bool_type(), {}};
    }
    if (name == "match_any_sync") {
        std::string m = mask(1);
        IrValue v = warp_value(arg(2));
        const bool wide = dtype_size(v.type->dtype) == 8;
        std::string bits = !v.type->is_float() ? v.ref : assign("bitcast " + ir_type(v.type) + " " + v.ref + (wide ? " to i64" : " to i32"));
        std::string r = call_intrinsic("i32", std::string("llvm.nvvm.match.any.sync.") + (wide ? "i64" : "i32"),
                                       "i32 " + m + (wide ? ", i64 " : ", i32 ") + bits);
        return convert({r, u32(), {}}, e.type);
    }
    if (name == "activemask") {
        std::string r = assign("call i32 asm sideeffect \"activemask.b32 $0;\", \"=r\"()");
        return convert({r, u32(), {}}, e.type);
    }
    if (name == "lanemask_lt") {
        declare("declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()");
        return convert({assign("call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()"), u32(), {}}, e.type);
    }
    if (name == "syncthreads_count" || name == "syncthreads_and" || name == "syncthreads_or") {
        std::string p = convert(expr(arg(1)), bool_type()).ref;
        std::string p32 = assign("zext i1 " + p + " to i32");
        const char* kind = name == "syncthreads_count" ? "popc" : name == "syncthreads_and" ? "and" : "or";
        return convert({call_intrinsic("i32", std::string("llvm.nvvm.barrier0.") + kind, "i32 " + p32),
                        scalar_type(DType::Int32), {}}, e.type);
    }
    if (name == "syncwarp") {
        std::string m = "-1";
        if (e.children.size() > 1) m = mask(1);
        else if (!e.keywords.empty()) m = convert(expr(*e.keywords[0].value), u32()).ref;
        call_intrinsic("void", "llvm.nvvm.bar.warp.sync", "i32 " + m);
        return void_result();
    }
    if (name == "threadfence" || name == "threadfence_block" || name == "threadfence_system") {
        const char* scope = name == "threadfence" ? "gl" : name == "threadfence_block" ? "cta" : "sys";
        call_intrinsic("void", std::string("llvm.nvvm.membar.") + scope, "");
        return void_result();
    }
    if (name == "nanosleep") {
        const Expr& ns = e.children.size() > 1 ? *e.children[1] : *e.keywords[0].value;
        emit("call void asm sideeffect \"nanosleep.u32 $0;\", \"r\"(i32 " + convert(expr(ns), u32()).ref + ")");
        return void_result();
    }
    if (name == "popc" || name == "clz" || name == "ffs" || name == "brev") {
        const Type* t = name == "brev" ? e.type : arg(1).type;  // brev works on the unsigned form
        IrValue x = convert(expr(arg(1)), t);
        const std::string T = ir_type(t);
        const std::string width = std::to_string(dtype_bits(t->dtype));
        if (name == "popc") return convert({call_intrinsic(T, "llvm.ctpop.i" + width, T + " " + x.ref), t, {}}, e.type);
        if (name == "clz") return convert({call_intrinsic(T, "llvm.ctlz.i" + width, T + " " + x.ref + ", i1 false"), t, {}}, e.type);
        if (name == "brev") return {call_intrinsic(T, "llvm.bitreverse.i" + width, T + " " + x.ref), t, {}};
        // ffs: the 1-based position of the lowest set bit, 0 for 0
        std::string zeros = call_intrinsic(T, "llvm.cttz.i" + width, T + " " + x.ref + ", i1 false");
        std::string one_based = assign("add " + T + " " + zeros + ", 1");
        std::string is_zero = assign("icmp eq " + T + " " + x.ref + ", 0");
        return convert(select(is_zero, int_constant(0, t), IrValue{one_based, t, {}}), e.type);  // (at most 64: any extension)
    }
    if ((name == "fma" || name == "cbrt") && e.type->dtype != DType::Float32 && e.type->dtype != DType::Float64)
        not_covered("cuda." + name + " on " + e.type->str());
    if (name == "fma") {
        const Type* t = e.type;
        const std::string T = ir_type(t), sfx = t->dtype == DType::Float32 ? "f" : "d";
        std::string a = expr_as(arg(1), t).ref, b = expr_as(arg(2), t).ref, c = expr_as(arg(3), t).ref;
        return {call_intrinsic(T, "llvm.nvvm.fma.rn." + sfx, T + " " + a + ", " + T + " " + b + ", " + T + " " + c), t, {}};
    }
    if (name == "cbrt") return libdevice(e.type->dtype == DType::Float32 ? "__nv_cbrtf" : "__nv_cbrt", {expr(arg(1))}, e.type);
    if (name == "selp") {
        if (e.children.size() != 4) not_covered("cuda.selp with keywords");
        IrValue test = convert(expr(arg(1)), bool_type());
        IrValue a = expr_as(arg(2), e.type);
        IrValue b = expr_as(arg(3), e.type);
        return select(test.ref, a, b);
    }
    not_covered("cuda." + name);
}

}  // namespace simt
