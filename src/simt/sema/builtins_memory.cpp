// numba.cuda's memory spaces in kernels: cuda.shared.array (fixed size, or dynamic with shape
// 0, sized by the launch's sharedmem), cuda.local.array, cuda.const.array_like, and NumPy
// arrays read from globals, which are frozen into constant memory at compile time.
#include <cstdio>
#include "codegen/emitter.h"
#include "sema/builtins.h"
#include "sema/sema.h"
#include "support/error.h"
#include "types/signature.h"

namespace simt {

namespace {

constexpr int64_t kMaxLocalBytes = int64_t(512) << 10;  // CUDA's local memory per thread
constexpr int64_t kMaxStaticSharedBytes = int64_t(48) << 10;  // static shared memory per block
constexpr int64_t kMaxConstBytes = int64_t(64) << 10;   // CUDA's constant memory

int64_t dtype_alignment(DType d) {
    if (d == DType::Complex64) return 4;
    if (d == DType::Complex128) return 8;
    return dtype_size(d);
}

int64_t align_up(int64_t n, int64_t a) { return (n + a - 1) / a * a; }

// A shape argument: a constant integer or a tuple of constant integers, as numba requires.
std::vector<int64_t> shape_argument(Sema& s, Expr& arg, const std::string& fname) {
    const std::string rule = fname + "() shape must be a constant integer or a tuple of constant integers";
    const ConstValue* c = s.constant(arg);
    if (!c) s.fail(arg.loc, rule + ", not a value computed at run time (" + arg.type->str() + ")");
    std::vector<int64_t> shape;
    auto add = [&](const ConstValue& v) {
        if (v.kind != ConstValue::Kind::Int) s.fail(arg.loc, rule + ", not " + v.str());
        if (v.i < 0) s.fail(arg.loc, fname + "() shape cannot be negative (" + v.str() + ")");
        shape.push_back(v.i);
    };
    if (c->kind == ConstValue::Kind::Tuple) {
        if (c->elems.empty()) s.fail(arg.loc, fname + "() shape cannot be an empty tuple");
        for (const ConstValue& e : c->elems) add(e);
    } else {
        add(*c);
    }
    return shape;
}

// A dtype argument: a NumPy scalar type (np.float32, simt.float32), a numba type name
// ('float32', 'f4'), or one of Python's int, float, bool, complex.
DType dtype_argument(Sema& s, Expr& arg, const std::string& fname) {
    const Type* t = arg.type;
    if (t->kind == TypeKind::DTypeObj) return t->dtype;
    if (t->kind == TypeKind::String) {
        const ConstValue* c = s.constant(arg);
        try {
            const Type* parsed = parse_type(c->s);
            if (parsed->is_scalar()) return parsed->dtype;
        } catch (const Error&) {
        }
        s.fail(arg.loc, fname + "() dtype '" + c->s + "' is not the name of a scalar type (such as 'float32' or 'int64')");
    }
    if (t->kind == TypeKind::Function) {
        if (t->name == "float") return DType::Float64;
        if (t->name == "int") return DType::Int64;
        if (t->name == "bool") return DType::Bool;
        if (t->name == "complex") return DType::Complex128;
    }
    s.fail(arg.loc, fname + "() dtype must be a NumPy scalar type such as np.float32 (or its name), not " + t->str());
}

int64_t alignment_argument(Sema& s, Expr* arg, const std::string& fname) {
    if (!arg || arg->type->kind == TypeKind::NoneType) return 0;
    const ConstValue* c = s.constant(*arg);
    if (!c || c->kind != ConstValue::Kind::Int) s.fail(arg->loc, fname + "() alignment must be a constant integer");
    int64_t a = c->i;
    if (a <= 0 || (a & (a - 1)) != 0) s.fail(arg->loc, fname + "() alignment must be a power of two, not " + std::to_string(a));
    return a;
}

int64_t element_count(Sema& s, const Expr& call, const std::vector<int64_t>& shape, DType d, const std::string& fname) {
    int64_t n = 1;
    for (int64_t e : shape) {
        if (e != 0 && n > (int64_t(1) << 40) / e) s.fail(call.loc, fname + "() array is too large");
        n *= e;
    }
    if (n > (int64_t(1) << 40) / dtype_size(d)) s.fail(call.loc, fname + "() array is too large");
    return n;
}

void add_memory_array(Sema& s, Expr& call, MemoryArray m) {
    CompileUnit& u = s.unit();
    u.memory_arrays.push_back(std::move(m));
    call.resolved->memory_slot = int(u.memory_arrays.size()) - 1;
}

const Type* infer_array_decl(Sema& s, Expr& call, bool shared) {
    const std::string fname = shared ? "cuda.shared.array" : "cuda.local.array";
    std::vector<Expr*> a = s.bind(call, fname, {"shape", "dtype", "alignment"}, 2);
    std::vector<int64_t> shape = shape_argument(s, *a[0], fname);
    DType dtype = dtype_argument(s, *a[1], fname);
    int64_t alignment = alignment_argument(s, a[2], fname);
    bool dynamic = shared && shape.size() == 1 && shape[0] == 0;
    for (int64_t e : shape)
        if (e == 0 && !dynamic)
            s.fail(a[0]->loc, shared ? fname + "() shape has a zero extent; only cuda.shared.array(0, dtype) is allowed, "
                                               "which is the launch's dynamic shared memory (k[grid, block, stream, sharedmem])"
                                     : fname + "() shape must be positive");
    int64_t bytes = element_count(s, call, shape, dtype, fname) * dtype_size(dtype);
    if (s.final_pass() && call.resolved->memory_slot < 0) {
        CompileUnit& u = s.unit();
        MemoryArray m;
        m.space = dynamic ? MemoryArray::Space::DynamicShared : shared ? MemoryArray::Space::Shared : MemoryArray::Space::Local;
        m.dtype = dtype;
        m.shape = shape;
        m.bytes = bytes;
        m.alignment = alignment > dtype_alignment(dtype) ? alignment : dtype_alignment(dtype);
        if (m.space == MemoryArray::Space::Shared) {
            m.offset = align_up(u.static_shared_bytes, m.alignment);
            u.static_shared_bytes = m.offset + bytes;
            // ptxas rejects this on the GPU, so every backend rejects it at compile time.
            if (u.static_shared_bytes > kMaxStaticSharedBytes)
                s.fail(call.loc, "cuda.shared.array() storage of this kernel reaches " + std::to_string(u.static_shared_bytes) +
                                     " bytes; a block can have at most 49152 bytes (48 KiB) of static shared memory");
        } else if (m.space == MemoryArray::Space::Local) {
            u.local_bytes = align_up(u.local_bytes, m.alignment) + bytes;
            if (u.local_bytes > kMaxLocalBytes)
                s.fail(call.loc, "cuda.local.array() storage of this kernel reaches " + std::to_string(u.local_bytes) +
                                     " bytes per thread; CUDA allows at most 512 KiB of local memory per thread");
        }
        add_memory_array(s, call, std::move(m));
    }
    return array_type(dtype, int(shape.size()), Layout::C);
}

const Type* infer_shared_array(Sema& s, Expr& call) { return infer_array_decl(s, call, true); }
const Type* infer_local_array(Sema& s, Expr& call) { return infer_array_decl(s, call, false); }

std::string dims_code(const MemoryArray& m) {
    std::string s;
    for (int64_t e : m.shape) s += ", " + std::to_string(e) + "L";
    return s;
}

int64_t element_total(const MemoryArray& m) {
    int64_t n = 1;
    for (int64_t e : m.shape) n *= e;
    return n;
}

std::string emit_array_decl(Emitter& em, const Expr& call) {
    int slot = call.resolved->memory_slot;
    const MemoryArray& m = em.unit().memory_arrays[size_t(slot)];
    const std::string T = dtype_c_name(m.dtype);
    const std::string count = std::to_string(element_total(m) > 0 ? element_total(m) : 1);
    switch (m.space) {
        case MemoryArray::Space::DynamicShared:
            // Dynamic shared memory starts after the static arrays, 16-byte aligned.
            return "simt_dynamic_shared_array<" + T + ">(ctx, " + std::to_string(align_up(em.unit().static_shared_bytes, 16)) + "L)";
        case MemoryArray::Space::Shared: {
            if (em.target() == Target::Cpu)
                return "simt_make_array((" + T + "*)(ctx.shared + " + std::to_string(m.offset) + ")" + dims_code(m) + ")";
            // Raw bytes: a __shared__ variable may not have a constructor, and float16 and complex
            // elements have one (NVRTC: "dynamic initialization is not supported").
            std::string name = "simt_shared_" + std::to_string(slot);
            em.add_global(name, "__shared__ __align__(" + std::to_string(m.alignment) + ") unsigned char " + name + "[" + count +
                                    " * sizeof(" + T + ")];");
            return "simt_make_array((" + T + "*)" + name + dims_code(m) + ")";
        }
        case MemoryArray::Space::Local: {
            std::string name = "simt_local_" + std::to_string(slot);
            em.hoist_local("alignas(" + std::to_string(m.alignment) + ") " + T + " " + name + "[" + count + "];");
            return "simt_make_array(" + name + dims_code(m) + ")";
        }
        case MemoryArray::Space::Const: break;
    }
    throw Error(ErrorKind::Typing, "internal: constant array emitted as a declaration");
}

// cuda.const.array_like(a): `a` must be a NumPy array from a global or closure variable,
// which is already frozen into constant memory (only those arrays are read-only in kernels).
const Type* infer_const_array_like(Sema& s, Expr& call) {
    std::vector<Expr*> a = s.bind(call, "cuda.const.array_like", {"ndarray"}, 1);
    Expr& arg = *a[0];
    if (!arg.type->is_array() || !arg.type->readonly)
        s.fail(arg.loc, "cuda.const.array_like() needs a NumPy array defined outside the kernel (a global or closure "
                        "variable), which is copied into constant memory when the kernel is compiled; got " +
                            arg.type->str());
    return arg.type;
}
std::string emit_const_array_like(Emitter& em, const Expr& call) { return em.expr(*call.children[1]); }

std::string hex_words(const std::string& bytes, int word) {
    std::string out;
    char buf[32];
    size_t n = bytes.size() / size_t(word);
    for (size_t i = 0; i < n; ++i) {
        unsigned long long w = 0;
        for (int b = word - 1; b >= 0; --b) w = (w << 8) | (unsigned char)bytes[i * size_t(word) + size_t(b)];
        std::snprintf(buf, sizeof buf, "%s0x%llx%s", i ? (i % 8 ? ", " : ",\n    ") : "", w, word == 8 ? "ull" : "u");
        out += buf;
    }
    return out.empty() ? "0" : out;
}

}  // namespace

const Type* frozen_host_array(Sema& s, Expr& e, const GlobalValue& g) {
    int64_t bytes = int64_t(g.bytes.size());
    if (bytes > kMaxConstBytes)
        s.fail(e.loc, "the NumPy array '" + e.text + "' (" + std::to_string(bytes) + " bytes) is too large for constant memory "
                      "(64 KiB); pass it to the kernel as an argument instead (simt.asarray)");
    if (g.shape.empty()) s.fail(e.loc, "the NumPy array '" + e.text + "' is 0-dimensional; use a scalar constant instead");
    if (s.final_pass() && e.resolved->memory_slot < 0) {
        CompileUnit& u = s.unit();
        // The same array read in several places is stored once.
        for (size_t i = 0; i < u.memory_arrays.size() && e.resolved->memory_slot < 0; ++i) {
            const MemoryArray& m = u.memory_arrays[i];
            if (m.space == MemoryArray::Space::Const && m.dtype == g.dtype && m.shape == g.shape && m.data == g.bytes)
                e.resolved->memory_slot = int(i);
        }
        if (e.resolved->memory_slot < 0) {
            if (u.const_bytes + bytes > kMaxConstBytes)
                s.fail(e.loc, "the NumPy arrays this kernel reads need " + std::to_string(u.const_bytes + bytes) +
                                  " bytes of constant memory; CUDA has 64 KiB");
            MemoryArray m;
            m.space = MemoryArray::Space::Const;
            m.dtype = g.dtype;
            m.shape = g.shape;
            m.bytes = bytes;
            m.alignment = 16;
            m.data = g.bytes;
            u.const_bytes += bytes;
            u.memory_arrays.push_back(std::move(m));
            e.resolved->memory_slot = int(u.memory_arrays.size()) - 1;
        }
    }
    return array_type(g.dtype, int(g.shape.size()), Layout::C, true);
}

std::string emit_frozen_array(Emitter& em, const Expr& e) {
    int slot = e.resolved->memory_slot;
    const MemoryArray& m = em.unit().memory_arrays[size_t(slot)];
    const std::string name = "simt_const_" + std::to_string(slot);
    int size = dtype_size(m.dtype);
    int word = size >= 8 ? 8 : size;
    const char* word_type = word == 8 ? "uint64_t" : word == 4 ? "uint32_t" : word == 2 ? "uint16_t" : "uint8_t";
    std::string decl = em.target() == Target::Cuda ? std::string("__constant__ __align__(16) ") + word_type
                                                   : std::string("alignas(16) static const ") + word_type;
    em.add_global(name, "// frozen NumPy array '" + e.text + "': " + dtype_name(m.dtype) + ", " + std::to_string(m.bytes) +
                            " bytes\n" + decl + " " + name + "[] = {\n    " + hex_words(m.data, word) + "};");
    std::string T = dtype_c_name(m.dtype);
    return "simt_make_array((" + T + "*)" + name + dims_code(m) + ")";
}

void register_memory_builtins(BuiltinRegistry& r) {
    r.add_member("cuda", "shared", member_module("cuda.shared"));
    r.add_member("cuda.shared", "array", member_function("cuda.shared.array"));
    r.add_function({"cuda.shared.array", infer_shared_array, emit_array_decl});
    r.add_member("cuda", "local", member_module("cuda.local"));
    r.add_member("cuda.local", "array", member_function("cuda.local.array"));
    r.add_function({"cuda.local.array", infer_local_array, emit_array_decl});
    r.add_member("cuda", "const", member_module("cuda.const"));
    r.add_member("cuda.const", "array_like", member_function("cuda.const.array_like"));
    r.add_function({"cuda.const.array_like", infer_const_array_like, emit_const_array_like});
}

}  // namespace simt
