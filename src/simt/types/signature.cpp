// Parser for numba-style type and signature strings.
#include "types/signature.h"
#include <cctype>
#include "support/error.h"

namespace simt {

namespace {

class SignatureParser {
public:
    explicit SignatureParser(const std::string& s) : s_(s) {}

    Signature signature() {
        Signature sig;
        skip();
        size_t open = s_.find('(');
        bool has_return = open != std::string::npos && open > pos_ && s_.substr(pos_, open - pos_).find_first_not_of(" \t") != std::string::npos &&
                          word_before(open);
        if (has_return) {
            sig.return_type = type();
            expect('(');
            sig.args = type_list(')');
            expect(')');
        } else if (peek() == '(') {
            ++pos_;
            sig.args = type_list(')');
            expect(')');
        } else {
            sig.args = type_list('\0');
        }
        skip();
        if (pos_ != s_.size()) fail("unexpected text");
        return sig;
    }

    const Type* single() {
        const Type* t = type();
        skip();
        if (pos_ != s_.size()) fail("unexpected text");
        return t;
    }

private:
    // True when the text before '(' at `open` is a plain type name (a return type), not
    // UniTuple(...)/Tuple(...) which are argument types themselves.
    bool word_before(size_t open) const {
        std::string head = s_.substr(pos_, open - pos_);
        while (!head.empty() && std::isspace((unsigned char)head.back())) head.pop_back();
        return head != "UniTuple" && head != "Tuple";
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw Error(ErrorKind::Type, "invalid signature '" + s_ + "': " + what + " at position " + std::to_string(pos_));
    }
    void skip() { while (pos_ < s_.size() && std::isspace((unsigned char)s_[pos_])) ++pos_; }
    char peek() { skip(); return pos_ < s_.size() ? s_[pos_] : '\0'; }
    void expect(char c) {
        if (peek() != c) fail(std::string("expected '") + c + "'");
        ++pos_;
    }
    std::string word() {
        skip();
        size_t start = pos_;
        while (pos_ < s_.size() && (std::isalnum((unsigned char)s_[pos_]) || s_[pos_] == '_')) ++pos_;
        if (start == pos_) fail("expected a type name");
        return s_.substr(start, pos_ - start);
    }

    std::vector<const Type*> type_list(char close) {
        std::vector<const Type*> out;
        if (peek() == close) return out;
        while (true) {
            out.push_back(type());
            if (peek() != ',') break;
            ++pos_;
            if (peek() == close) break;
        }
        return out;
    }

    const Type* scalar(const std::string& name) {
        static const std::pair<const char*, DType> kShort[] = {
            {"b1", DType::Bool}, {"boolean", DType::Bool}, {"bool", DType::Bool}, {"i1", DType::Int8},
            {"i2", DType::Int16}, {"i4", DType::Int32}, {"i8", DType::Int64}, {"u1", DType::UInt8},
            {"u2", DType::UInt16}, {"u4", DType::UInt32}, {"u8", DType::UInt64}, {"f2", DType::Float16},
            {"f4", DType::Float32}, {"f8", DType::Float64}, {"c8", DType::Complex64}, {"c16", DType::Complex128},
            {"int_", DType::Int64}, {"byte", DType::UInt8}, {"char", DType::Int8}};
        for (const auto& [n, d] : kShort) if (name == n) return scalar_type(d);
        DType d;
        if (dtype_from_name(name, d)) return scalar_type(d);
        fail("unknown type '" + name + "'");
    }

    const Type* type() {
        std::string name = word();
        if (name == "void" || name == "none") return void_type();
        if (name == "UniTuple") {
            expect('(');
            const Type* elem = type();
            expect(',');
            skip();
            size_t start = pos_;
            while (pos_ < s_.size() && std::isdigit((unsigned char)s_[pos_])) ++pos_;
            if (start == pos_) fail("expected a count");
            int count = std::stoi(s_.substr(start, pos_ - start));
            expect(')');
            return tuple_type(std::vector<const Type*>(size_t(count), elem));
        }
        if (name == "Tuple") {
            expect('(');
            std::vector<const Type*> elems = type_list(')');
            expect(')');
            return tuple_type(elems);
        }
        const Type* base = scalar(name);
        if (peek() != '[') return base;
        ++pos_;
        // Dimensions: ':' (any stride) or '::1' (unit stride). Unit stride on the last
        // dimension means C order, on the first (of several) F order.
        int ndim = 0;
        int unit_at = -1;
        while (true) {
            expect(':');
            if (peek() == ':') {
                ++pos_;
                skip();
                if (pos_ >= s_.size() || s_[pos_] != '1') fail("expected '::1'");
                ++pos_;
                if (unit_at >= 0) fail("only one dimension can have unit stride");
                unit_at = ndim;
            }
            ++ndim;
            if (peek() == ',') { ++pos_; continue; }
            break;
        }
        expect(']');
        Layout layout = Layout::A;
        if (unit_at == ndim - 1) layout = Layout::C;
        else if (unit_at == 0) layout = Layout::F;
        else if (unit_at >= 0) fail("unit stride must be on the first or last dimension");
        return array_type(base->dtype, ndim, layout);
    }

    const std::string& s_;
    size_t pos_ = 0;
};

}  // namespace

Signature parse_signature(const std::string& text) { return SignatureParser(text).signature(); }
const Type* parse_type(const std::string& text) { return SignatureParser(text).single(); }

}  // namespace simt
