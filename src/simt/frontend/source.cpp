// Source-line lookup and caret-style error text for kernel compile errors.
#include "frontend/source.h"

namespace simt {

std::string SourceText::line_text(int file_line) const {
    int want = file_line - first_line + 1;  // 1-based line within `text`
    if (want < 1) return {};
    size_t pos = 0;
    for (int line = 1; line < want; ++line) {
        pos = text.find('\n', pos);
        if (pos == std::string::npos) return {};
        ++pos;
    }
    size_t end = text.find('\n', pos);
    std::string line = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    return std::string(size_t(indent), ' ') + line;
}

std::string describe_source_error(const SourceText& src, Loc loc, const std::string& function,
                                  const std::string& message) {
    std::string out = "File \"" + src.filename + "\", line " + std::to_string(loc.line);
    if (!function.empty()) out += ", in " + function;
    out += "\n";
    std::string line = src.line_text(loc.line);
    if (!line.empty()) {
        out += "    " + line + "\n";
        out += "    " + std::string(size_t(loc.col > 1 ? loc.col - 1 : 0), ' ') + "^\n";
    }
    out += message;
    return out;
}

}  // namespace simt
