// Emitter: calls of cuda.declare_device functions, and the CUDA C++ linked in for them. The
// linked files are compiled with the kernel, in its translation unit, *after* the generated code
// (so their macros cannot touch it): the generated code calls a thunk per function, declared
// before it with the declared types and defined after the linked code, where simt_foreign_call
// takes the function's own parameter types from its definition (so `long` and `long long`,
// `float*` and `const float*` all fit the declaration) and calls it with numba's ABI:
// int f(T* return_value, args...).
#include <algorithm>
#include "codegen/emitter.h"
#include "codegen/raw_module.h"
#include "support/error.h"

namespace simt {

namespace {

// simt_foreign_call: calls f with numba's ABI, its own parameter types taken from its
// definition. On the cpu, a linked function reads threadIdx & co. through the raw prelude's
// current thread, set from the caller's context first.
std::string adapter(Target target) {
    const bool cpu = target == Target::Cpu;
    const std::string ctx = cpu ? "simt_ctx& ctx, " : "", enter = cpu ? "    simt_raw::current = &ctx;\n" : "";
    return "// Calls of cuda.declare_device functions (numba's ABI: int f(T* return_value, args...)).\n"
           "template <class T, class R, class... P, class... A>\n"
           "SIMT_INLINE T simt_foreign_call(" + ctx + "int (*f)(R*, P...), A... a) {\n" + enter +
           "    R r{};\n"
           "    f(&r, ((P)a)...);\n"
           "    return (T)r;\n"
           "}\n"
           "template <class T, class... P, class... A>\n"
           "SIMT_INLINE T simt_foreign_call(" + ctx + "int (*f)(void*, P...), A... a) {\n" + enter +
           "    unsigned long long r = 0;\n"
           "    f(&r, ((P)a)...);\n"
           "    return T();\n"
           "}\n";
}

std::string thunk_name(const ForeignFunction& f) { return "simt_foreign_" + f.name; }

}  // namespace

// "RET simt_foreign_NAME([simt_ctx& ctx, ]T0 a0, ...)": the thunk's head, in the declared types.
std::string Emitter::foreign_thunk_head(const ForeignFunction& f) {
    std::string s = "SIMT_DEVICE_FN " + (f.return_type == void_type() ? std::string("void") : c_type(f.return_type)) + " " +
                    thunk_name(f) + "(" + (target_ == Target::Cpu ? "simt_ctx& ctx" : "");
    for (size_t i = 0; i < f.params.size(); ++i) {
        const ForeignParam& p = f.params[i];
        std::string type = p.kind == ForeignParam::Kind::Scalar    ? c_type(scalar_type(p.dtype))
                           : p.kind == ForeignParam::Kind::Pointer ? c_type(scalar_type(p.dtype)) + "*"
                                                                    : std::string("void*");
        s += (i || target_ == Target::Cpu ? ", " : "") + type + " a" + std::to_string(i);
    }
    return s + ")";
}

std::string Emitter::foreign_call(const Expr& e, const ForeignFunction& f) {
    add_global("foreign:" + f.name, foreign_thunk_head(f) + ";  // defined after the linked CUDA C++");
    std::string s = thunk_name(f) + "(" + (target_ == Target::Cpu ? "ctx" : "");
    for (size_t i = 0; i < f.params.size(); ++i) {
        const Expr& arg = *e.children[i + 1];
        const ForeignParam& p = f.params[i];
        s += i || target_ == Target::Cpu ? ", " : "";
        if (p.kind == ForeignParam::Kind::Scalar) s += cast(expr(arg), arg.type, scalar_type(p.dtype));
        else if (p.kind == ForeignParam::Kind::Pointer) s += "(" + c_type(scalar_type(p.dtype)) + "*)(" + expr(arg) + ").data";
        else s += "(void*)(" + expr(arg) + ").data";
    }
    return s + ")";
}

std::string Emitter::linked_code() {
    const std::vector<LinkedSource>& sources = unit_.linked_sources;
    bool unfound = false;  // (what an unfound file would define is unseen: the compiler then decides)
    for (const LinkedSource& s : sources) unfound = unfound || s.included.unfound_quoted;
    for (const auto& f : unit_.foreign_functions) {
        bool defined = unfound;
        for (const LinkedSource& s : sources) {
            defined = defined || cuda_code_mentions(s.text, f->name);
            for (const IncludedFile& h : s.included.files) defined = defined || cuda_code_mentions(h.text, f->name);
        }
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
    std::string out = target_ == Target::Cpu ? linked_cpu_code(sources, int(unit_.sync_sites.size())) : "";
    if (target_ == Target::Cuda)
        for (const LinkedSource& s : sources) out += "\n#line 1 \"" + s.path + "\"\n" + s.text + "\n";
    for (const LinkedSource& s : sources) out += included_files_comment(s.included.files);
    if (unit_.foreign_functions.empty()) return out;
    out += "\n#line 1 \"simt-generated\"\n";
    out += adapter(target_);
    std::vector<std::string> done;
    for (const auto& f : unit_.foreign_functions) {
        if (std::find(done.begin(), done.end(), f->name) != done.end()) continue;
        done.push_back(f->name);
        std::string call = "simt_foreign_call<" + (f->return_type == void_type() ? std::string("void") : c_type(f->return_type)) +
                           ">(" + (target_ == Target::Cpu ? "ctx, " : "") + "&::" + f->name;
        for (size_t i = 0; i < f->params.size(); ++i) call += ", a" + std::to_string(i);
        out += foreign_thunk_head(*f) + " { return " + call + "); }\n";
    }
    return out;
}

// The directories of the linked files, searched for what they #include "..." (as nvcc and the
// host compiler search the including file's directory).
std::vector<std::string> Emitter::linked_include_options() const {
    std::vector<std::string> out;
    for (const LinkedSource& s : unit_.linked_sources) {
        std::string option = (target_ == Target::Cuda ? "--include-path=" : "-I") + directory_of(s.path);
        if (std::find(out.begin(), out.end(), option) == out.end()) out.push_back(option);
    }
    return out;
}

}  // namespace simt
