// Lexer for the kernel subset of Python: names, numbers, strings, operators, and the
// NEWLINE/INDENT/DEDENT structure (implicit joining inside brackets, backslash continuation).
#include "frontend/lexer.h"
#include <cctype>
#include <cstring>
#include "support/error.h"

namespace simt {

namespace {

class Lexer {
public:
    explicit Lexer(const SourceText& src) : src_(src), s_(src.text) {}

    std::vector<Token> run() {
        indents_.push_back(0);
        bool at_line_start = true;
        while (pos_ < s_.size()) {
            if (at_line_start) {
                // Inside brackets, line starts carry no indentation meaning.
                if (depth_ == 0 && !handle_indentation()) continue;  // blank or comment-only line consumed
                at_line_start = false;
            }
            char c = s_[pos_];
            if (c == '\n') {
                if (depth_ == 0) emit(Tok::Newline, "\n", here());
                advance_newline();
                at_line_start = true;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f') { ++pos_; ++col_; continue; }
            if (c == '#') { skip_comment(); continue; }
            if (c == '\\' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '\n' || s_[pos_ + 1] == '\r')) {
                ++pos_;
                if (s_[pos_] == '\r') ++pos_;
                if (pos_ < s_.size() && s_[pos_] == '\n') advance_newline();
                continue;
            }
            if (std::isalpha((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80) {
                if (is_string_prefix()) { lex_string(); continue; }
                lex_name();
                continue;
            }
            if (std::isdigit((unsigned char)c) || (c == '.' && pos_ + 1 < s_.size() && std::isdigit((unsigned char)s_[pos_ + 1]))) {
                lex_number();
                continue;
            }
            if (c == '"' || c == '\'') { lex_string(); continue; }
            lex_operator();
        }
        if (!tokens_.empty() && tokens_.back().kind != Tok::Newline) emit(Tok::Newline, "\n", here());
        while (indents_.size() > 1) { indents_.pop_back(); emit(Tok::Dedent, "", here()); }
        emit(Tok::End, "", here());
        return std::move(tokens_);
    }

private:
    Loc here() const { return src_.file_loc(line_, col_); }

    [[noreturn]] void fail(const std::string& msg) {
        throw Error(ErrorKind::Unsupported, describe_source_error(src_, here(), "", "SyntaxError: " + msg));
    }

    void emit(Tok kind, std::string text, Loc loc) { tokens_.push_back({kind, std::move(text), loc}); }

    void advance_newline() { ++pos_; ++line_; col_ = 1; }

    void skip_comment() {
        while (pos_ < s_.size() && s_[pos_] != '\n') { ++pos_; ++col_; }
    }

    // Measures the indentation of a new logical line; returns false when the line is blank.
    bool handle_indentation() {
        int width = 0;
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\f')) {
            width = s_[pos_] == '\t' ? (width / 8 + 1) * 8 : width + 1;
            ++pos_; ++col_;
        }
        if (pos_ >= s_.size()) return false;
        char c = s_[pos_];
        if (c == '#') { skip_comment(); return false; }
        if (c == '\r') { ++pos_; return false; }
        if (c == '\n') { advance_newline(); return false; }
        if (width > indents_.back()) {
            indents_.push_back(width);
            emit(Tok::Indent, "", here());
        } else {
            while (width < indents_.back()) {
                indents_.pop_back();
                emit(Tok::Dedent, "", here());
            }
            if (width != indents_.back()) fail("unindent does not match any outer indentation level");
        }
        return true;
    }

    void lex_name() {
        Loc loc = here();
        size_t start = pos_;
        while (pos_ < s_.size()) {
            unsigned char c = (unsigned char)s_[pos_];
            if (std::isalnum(c) || c == '_' || c >= 0x80) { ++pos_; if ((c & 0xC0) != 0x80) ++col_; }
            else break;
        }
        emit(Tok::Name, s_.substr(start, pos_ - start), loc);
    }

    bool is_string_prefix() const {
        size_t p = pos_;
        size_t n = 0;
        while (p < s_.size() && n < 2 && std::strchr("rRbBuUfF", s_[p]) && s_[p] != '\0') { ++p; ++n; }
        return n > 0 && p < s_.size() && (s_[p] == '"' || s_[p] == '\'');
    }

    void lex_number() {
        Loc loc = here();
        size_t start = pos_;
        auto digits = [&](auto pred) {
            while (pos_ < s_.size() && (pred((unsigned char)s_[pos_]) || s_[pos_] == '_')) { ++pos_; ++col_; }
        };
        bool is_float = false;
        if (s_[pos_] == '0' && pos_ + 1 < s_.size() && std::strchr("xXoObB", s_[pos_ + 1]) && s_[pos_ + 1] != '\0') {
            char base = (char)std::tolower((unsigned char)s_[pos_ + 1]);
            pos_ += 2; col_ += 2;
            if (base == 'x') digits([](unsigned char c) { return std::isxdigit(c) != 0; });
            else if (base == 'o') digits([](unsigned char c) { return c >= '0' && c <= '7'; });
            else digits([](unsigned char c) { return c == '0' || c == '1'; });
        } else {
            digits([](unsigned char c) { return std::isdigit(c) != 0; });
            if (pos_ < s_.size() && s_[pos_] == '.') {
                is_float = true; ++pos_; ++col_;
                digits([](unsigned char c) { return std::isdigit(c) != 0; });
            }
            if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
                size_t save = pos_; int save_col = col_;
                ++pos_; ++col_;
                if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) { ++pos_; ++col_; }
                if (pos_ < s_.size() && std::isdigit((unsigned char)s_[pos_])) {
                    is_float = true;
                    digits([](unsigned char c) { return std::isdigit(c) != 0; });
                } else {
                    pos_ = save; col_ = save_col;
                }
            }
        }
        std::string text;
        for (size_t i = start; i < pos_; ++i) if (s_[i] != '_') text += s_[i];
        if (pos_ < s_.size() && (s_[pos_] == 'j' || s_[pos_] == 'J')) {
            ++pos_; ++col_;
            emit(Tok::Imag, text, loc);
            return;
        }
        if (pos_ < s_.size() && (std::isalpha((unsigned char)s_[pos_]) || s_[pos_] == '_')) fail("invalid number literal");
        emit(is_float ? Tok::Float : Tok::Int, text, loc);
    }

    void lex_string() {
        Loc loc = here();
        bool raw = false;
        while (s_[pos_] != '"' && s_[pos_] != '\'') {
            char p = (char)std::tolower((unsigned char)s_[pos_]);
            if (p == 'r') raw = true;
            if (p == 'f') fail("f-strings are not supported in kernels");
            if (p == 'b') fail("bytes literals are not supported in kernels");
            ++pos_; ++col_;
        }
        char quote = s_[pos_];
        bool triple = pos_ + 2 < s_.size() && s_[pos_ + 1] == quote && s_[pos_ + 2] == quote;
        size_t qlen = triple ? 3 : 1;
        pos_ += qlen; col_ += int(qlen);
        std::string value;
        while (true) {
            if (pos_ >= s_.size()) fail("unterminated string literal");
            char c = s_[pos_];
            if (c == quote && (!triple || (pos_ + 2 < s_.size() && s_[pos_ + 1] == quote && s_[pos_ + 2] == quote))) {
                pos_ += qlen; col_ += int(qlen);
                break;
            }
            if (c == '\n') {
                if (!triple) fail("unterminated string literal");
                value += c;
                advance_newline();
                continue;
            }
            if (c == '\\' && !raw && pos_ + 1 < s_.size()) {
                char e = s_[pos_ + 1];
                pos_ += 2; col_ += 2;
                switch (e) {
                    case 'n': value += '\n'; break;
                    case 't': value += '\t'; break;
                    case 'r': value += '\r'; break;
                    case '0': value += '\0'; break;
                    case '\\': value += '\\'; break;
                    case '\'': value += '\''; break;
                    case '"': value += '"'; break;
                    case '\n': ++line_; col_ = 1; break;
                    default: value += '\\'; value += e; break;
                }
                continue;
            }
            value += c;
            ++pos_; ++col_;
        }
        emit(Tok::String, value, loc);
    }

    void lex_operator() {
        static const char* const kOps[] = {
            "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=",
            "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
            "+", "-", "*", "/", "%", "&", "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}",
            ",", ":", ".", ";", "=", "@"};
        Loc loc = here();
        for (const char* op : kOps) {
            size_t n = std::strlen(op);
            if (s_.compare(pos_, n, op) == 0) {
                if (std::strchr("([{", op[0]) && n == 1) ++depth_;
                if (std::strchr(")]}", op[0]) && n == 1) { if (depth_ == 0) fail(std::string("unmatched '") + op + "'"); --depth_; }
                pos_ += n; col_ += int(n);
                emit(Tok::Op, op, loc);
                return;
            }
        }
        fail(std::string("invalid character '") + s_[pos_] + "'");
    }

    const SourceText& src_;
    const std::string& s_;
    size_t pos_ = 0;
    int line_ = 1, col_ = 1;
    int depth_ = 0;
    std::vector<int> indents_;
    std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(const SourceText& src) { return Lexer(src).run(); }

}  // namespace simt
