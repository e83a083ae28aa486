// Error formatting helpers.
#include "support/error.h"
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace simt {

static std::string vformat(const char* fmt, va_list args) {
    va_list copy;
    va_copy(copy, args);
    int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    std::string out(n > 0 ? size_t(n) : 0, '\0');
    if (n > 0) std::vsnprintf(out.data(), size_t(n) + 1, fmt, args);
    return out;
}

std::string format(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    std::string s = vformat(fmt, args);
    va_end(args);
    return s;
}

void raise(ErrorKind kind, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    std::string s = vformat(fmt, args);
    va_end(args);
    throw Error(kind, std::move(s));
}

void fail_internal(const char* file, int line, const char* what) {
    std::fprintf(stderr, "simt: internal error at %s:%d: %s\n", file, line, what);
    std::abort();
}

}  // namespace simt
