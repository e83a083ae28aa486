// cuda.declare_device: parsing the declared signature, and reading the files kernels link.
#include "sema/foreign.h"
#include <cctype>
#include <fstream>
#include <sstream>
#include "support/error.h"
#include "types/signature.h"

namespace simt {

namespace {

std::string trimmed(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The arguments between the outer parentheses, split at top-level commas.
std::vector<std::string> split_arguments(const std::string& inside) {
    std::vector<std::string> parts;
    std::string cur;
    int depth = 0;
    for (char c : inside) {
        if (c == '(' || c == '[') ++depth;
        if (c == ')' || c == ']') --depth;
        if (c == ',' && depth == 0) {
            parts.push_back(trimmed(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!trimmed(cur).empty() || !parts.empty()) parts.push_back(trimmed(cur));
    return parts;
}

// Types numba's ABI passes by value and simt can hand to C++: bool, integers, float32/64.
bool foreign_scalar(DType d) { return !dtype_is_complex(d) && d != DType::Float16; }

}  // namespace

std::shared_ptr<const ForeignFunction> declare_foreign_function(const std::string& name, const std::string& signature,
                                                                std::vector<std::string> link) {
    auto f = std::make_shared<ForeignFunction>();
    f->name = name;
    f->signature = signature;
    f->link = std::move(link);
    auto fail = [&](const std::string& why) -> void {
        throw Error(ErrorKind::Type, "cuda.declare_device('" + name + "', '" + signature + "'): " + why);
    };
    bool identifier = !name.empty() && !std::isdigit((unsigned char)name[0]);
    for (char c : name) identifier = identifier && (std::isalnum((unsigned char)c) || c == '_');
    if (!identifier) fail("the name must be a C identifier (the function's name in the linked CUDA C++)");
    size_t open = signature.find('('), close = signature.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open || !trimmed(signature.substr(close + 1)).empty())
        fail("the signature must read 'return_type(argument types)', e.g. 'float32(float32, CPointer(float32))'");
    const std::string ret = trimmed(signature.substr(0, open));
    if (ret.empty()) fail("the signature names no return type (write 'void(...)' for none)");
    if (ret == "void" || ret == "none") {
        f->return_type = void_type();
    } else {
        const Type* t = parse_type(ret);
        if (!t->is_scalar() || !foreign_scalar(t->dtype))
            fail("the return type " + t->str() + " cannot be passed to or from CUDA C++ (use bool, an integer, "
                 "float32 or float64)");
        f->return_type = t;
    }
    for (const std::string& arg : split_arguments(signature.substr(open + 1, close - open - 1))) {
        ForeignParam p;
        if (arg.empty()) fail("an argument type is missing");
        if (arg == "voidptr") {
            p.kind = ForeignParam::Kind::VoidPointer;
        } else if (arg.rfind("CPointer(", 0) == 0 && arg.back() == ')') {
            const Type* t = parse_type(trimmed(arg.substr(9, arg.size() - 10)));
            if (!t->is_scalar()) fail("CPointer takes a scalar type, not " + t->str());
            p.kind = ForeignParam::Kind::Pointer;
            p.dtype = t->dtype;
        } else {
            const Type* t = parse_type(arg);
            if (t->is_array()) fail("the argument type " + t->str() + " is an array: declare CPointer(" +
                                    dtype_name(t->dtype) + ") and pass the array (or ffi.from_buffer(array))");
            if (!t->is_scalar() || !foreign_scalar(t->dtype))
                fail("the argument type " + t->str() + " cannot be passed to CUDA C++ (use bool, an integer, float32, "
                     "float64, CPointer(type) or voidptr)");
            p.dtype = t->dtype;
        }
        f->params.push_back(p);
    }
    return f;
}

void read_included_files(std::vector<LinkedSource>& sources) {
    std::vector<std::string> linked_dirs;
    for (const LinkedSource& s : sources) linked_dirs.push_back(directory_of(s.path));
    for (LinkedSource& s : sources) s.included = read_included_files(s.text, directory_of(s.path), linked_dirs);
}

LinkedSource read_linked_source(const std::string& path) {
    size_t dot = path.rfind('.'), slash = path.find_last_of('/');
    std::string ext = dot == std::string::npos || (slash != std::string::npos && dot < slash) ? "" : path.substr(dot + 1);
    for (char& c : ext) c = char(std::tolower((unsigned char)c));
    for (const char* binary : {"ptx", "cubin", "fatbin", "o", "obj", "a", "lib", "ltoir"})
        if (ext == binary)
            throw Error(ErrorKind::Compiler, "link=['" + path + "']: simt compiles the CUDA C++ a kernel links together with the "
                                             "kernel, on both backends, so it links source files (.cu, .cuh, .cpp, .h); ." +
                                             ext + " files cannot be linked: link the CUDA C++ they were built from");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorKind::Compiler, "link=['" + path + "']: cannot read the file (no such file, or not readable)");
    std::ostringstream text;
    text << in.rdbuf();
    LinkedSource source;
    source.path = path;
    source.text = text.str();
    return source;
}

}  // namespace simt
