// assert and raise statements. As in numba, they report only in kernels compiled with
// debug=True: the first failing thread's report (its message, line, thread and block) becomes
// AssertionError (or the raised builtin exception) on the host at the next synchronize. Messages
// must be constant strings, as numba requires; an assert without one quotes the failing line.
// A raise also ends the thread (in a device function: returns from it), with or without debug.
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
    report_site(s, "", text);
}

void Sema::report_site(Stmt& s, const std::string& exception, const std::string& text) {
    if (!final_ || !unit_.options.debug || s.site >= 0) return;
    s.site = int(unit_.bounds_sites.size());
    BoundsSite site{fn_.name, fn_.source.filename, s.loc.line, "", "", ""};
    site.assertion = text;
    site.exception = exception;
    unit_.bounds_sites.push_back(site);
}

std::string builtin_exception_class(const std::string& builtin) {
    static const std::string kPrefix = "exception.";
    return builtin.compare(0, kPrefix.size(), kPrefix) == 0 ? builtin.substr(kPrefix.size()) : std::string();
}

void Sema::raise_statement(Stmt& s) {
    if (!s.value) unsupported(s.loc, "a bare 'raise' (re-raising) is not supported in kernels; raise an exception class");
    Expr* cls = s.value.get();
    Expr* message = nullptr;
    if (cls->kind == ExprKind::Call) {
        if (!cls->keywords.empty() || cls->children.size() > 2)
            fail(cls->loc, "an exception raised in a kernel takes at most one argument, a constant string");
        if (cls->children.size() == 2) message = cls->children[1].get();
        cls = cls->children[0].get();
    }
    const Type* t = type_of(*cls);
    if (!t) return;
    const std::string exception = t->kind == TypeKind::Function ? builtin_exception_class(t->name) : std::string();
    if (exception.empty())
        fail(cls->loc, "kernels can raise builtin exception classes (ValueError, IndexError, ...), not " + t->str());
    std::string text;
    if (message) {
        type_of(*message);
        const ConstValue* c = constant(*message);
        if (!c || c->kind != ConstValue::Kind::String)
            fail(message->loc, "the message of an exception raised in a kernel must be a constant string");
        text = c->s;
    }
    report_site(s, exception, text);
}

}  // namespace simt
