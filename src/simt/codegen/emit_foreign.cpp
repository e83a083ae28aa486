// Emitter: calls of cuda.declare_device functions, and the CUDA C++ linked in for them. The
// linked files are compiled with the kernel, in its translation unit, before the generated code;
// a call goes through simt_foreign_call, which takes the function's own parameter types from its
// definition (so `long` and `long long`, `float*` and `const float*` all fit the declaration)
// and calls it with numba's ABI: int f(T* return_value, args...).
#include "codegen/emitter.h"
#include "codegen/raw_module.h"
#include "support/error.h"

namespace simt {

namespace {

// On the cpu, a linked function reads threadIdx & co. through the raw prelude's current thread.
const char* kCpuAdapter =
    "// Calls of cuda.declare_device functions (numba's ABI: int f(T* return_value, args...)).\n"
    "template <class T, class R, class... P, class... A>\n"
    "SIMT_INLINE T simt_foreign_call(simt_ctx& ctx, int (*f)(R*, P...), A... a) {\n"
    "    simt_raw::current = &ctx;\n"
    "    R r{};\n"
    "    f(&r, ((P)a)...);\n"
    "    return (T)r;\n"
    "}\n"
    "template <class T, class... P, class... A>\n"
    "SIMT_INLINE T simt_foreign_call(simt_ctx& ctx, int (*f)(void*, P...), A... a) {\n"
    "    simt_raw::current = &ctx;\n"
    "    unsigned long long r = 0;\n"
    "    f(&r, ((P)a)...);\n"
    "    return T();\n"
    "}";
const char* kCudaAdapter =
    "// Calls of cuda.declare_device functions (numba's ABI: int f(T* return_value, args...)).\n"
    "template <class T, class R, class... P, class... A>\n"
    "SIMT_INLINE T simt_foreign_call(int (*f)(R*, P...), A... a) {\n"
    "    R r{};\n"
    "    f(&r, ((P)a)...);\n"
    "    return (T)r;\n"
    "}\n"
    "template <class T, class... P, class... A>\n"
    "SIMT_INLINE T simt_foreign_call(int (*f)(void*, P...), A... a) {\n"
    "    unsigned long long r = 0;\n"
    "    f(&r, ((P)a)...);\n"
    "    return T();\n"
    "}";

}  // namespace

std::string Emitter::foreign_call(const Expr& e, const ForeignFunction& f) {
    add_global("simt_foreign_call", target_ == Target::Cpu ? kCpuAdapter : kCudaAdapter);
    const std::string ret = f.return_type == void_type() ? "void" : c_type(f.return_type);
    std::string s = "simt_foreign_call<" + ret + ">(" + (target_ == Target::Cpu ? "ctx, " : "") + "&" + f.name;
    for (size_t i = 0; i < f.params.size(); ++i) {
        const Expr& arg = *e.children[i + 1];
        const ForeignParam& p = f.params[i];
        if (p.kind == ForeignParam::Kind::Scalar) s += ", " + cast(expr(arg), arg.type, scalar_type(p.dtype));
        else if (p.kind == ForeignParam::Kind::Pointer) s += ", (" + c_type(scalar_type(p.dtype)) + "*)(" + expr(arg) + ").data";
        else s += ", (void*)(" + expr(arg) + ").data";
    }
    return s + ")";
}

std::string Emitter::linked_code() {
    const std::vector<LinkedSource>& sources = unit_.linked_sources;
    for (const auto& f : unit_.foreign_functions) {
        bool defined = false;
        for (const LinkedSource& s : sources) defined = defined || cuda_code_mentions(s.text, f->name);
        if (!defined) {
            std::string files;
            for (const LinkedSource& s : sources) files += (files.empty() ? "'" : ", '") + s.path + "'";
            throw Error(ErrorKind::Compiler,
                        "kernel '" + unit_.kernel->name + "' calls " + f->name + "(), declared with cuda.declare_device('" + f->name +
                            "', '" + f->signature + "'), but " +
                            (files.empty() ? std::string("links no CUDA C++: pass the file that defines it with "
                                                         "@cuda.jit(link=[...]) or cuda.declare_device(..., link=[...])")
                                           : "none of the files it links (" + files + ") defines it"));
        }
    }
    if (sources.empty()) return "";
    if (target_ == Target::Cpu) return linked_cpu_code(sources);
    std::string out;
    for (const LinkedSource& s : sources) out += "\n#line 1 \"" + s.path + "\"\n" + s.text + "\n";
    return out;
}

}  // namespace simt
