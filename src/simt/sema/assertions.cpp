// Assert statements. As in numba, they are checked only in kernels compiled with debug=True:
// the first failing thread's report (its message, line, thread and block) becomes
// AssertionError on the host at the next synchronize. The message must be a constant string,
// as numba requires; without one the report quotes the failing line.
#include <cctype>
#include "sema/sema.h"
#include "sema/typed_function.h"

namespace simt {

namespace {
std::string trimmed(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}
}  // namespace

void Sema::assert_statement(Stmt& s) {
    std::string text;
    if (s.message) {
        type_of(*s.message);
        const ConstValue* c = constant(*s.message);
        if (!c || c->kind != ConstValue::Kind::String)
            fail(s.message->loc, "the message of an assert in a kernel must be a constant string");
        text = c->s;
    } else {
        text = "assertion failed: " + trimmed(fn_.source.line_text(s.loc.line));
    }
    if (!final_ || !unit_.options.debug || s.site >= 0) return;
    s.site = int(unit_.bounds_sites.size());
    BoundsSite site{fn_.name, fn_.source.filename, s.loc.line, ""};
    site.assertion = text;
    unit_.bounds_sites.push_back(site);
}

}  // namespace simt
