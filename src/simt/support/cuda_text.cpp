// Plain scanning of CUDA C++ text (see cuda_text.h).
#include "support/cuda_text.h"
#include <cctype>

namespace simt::cuda_text {

bool is_ident(char c) { return std::isalnum((unsigned char)c) || c == '_'; }

size_t skip_space(const std::string& s, size_t i) {
    while (i < s.size() && std::isspace((unsigned char)s[i])) ++i;
    return i;
}

std::string without_comments(const std::string& code) {
    std::string out = code;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out.compare(i, 2, "//") == 0) {
            for (; i < out.size() && out[i] != '\n'; ++i) out[i] = ' ';
        } else if (out.compare(i, 2, "/*") == 0) {
            size_t close = out.find("*/", i + 2);
            size_t stop = close == std::string::npos ? out.size() : close + 2;
            for (; i < stop; ++i)
                if (out[i] != '\n') out[i] = ' ';
            --i;
        } else if (out[i] == '"' || out[i] == '\'') {
            char quote = out[i];
            for (++i; i < out.size() && out[i] != quote && out[i] != '\n'; ++i) {
                if (out[i] == '\\' && i + 1 < out.size()) out[i++] = ' ';
                out[i] = ' ';
            }
        }
    }
    return out;
}

std::string included_header(const std::string& line) {
    size_t i = skip_space(line, 0);
    if (i >= line.size() || line[i] != '#') return "";
    i = skip_space(line, i + 1);
    if (line.compare(i, 7, "include") != 0) return "";
    i = skip_space(line, i + 7);
    if (i >= line.size() || (line[i] != '<' && line[i] != '"')) return "";
    size_t end = line.find(line[i] == '<' ? '>' : '"', i + 1);
    return end == std::string::npos ? "" : line.substr(i + 1, end - i - 1);
}

std::vector<Include> includes(const std::string& code) {
    const std::string plain = without_comments(code);  // (the file name itself is blanked there)
    std::vector<Include> found;
    size_t line_start = 0;
    while (line_start < code.size()) {
        size_t line_end = code.find('\n', line_start);
        if (line_end == std::string::npos) line_end = code.size();
        size_t i = skip_space(plain, line_start);
        if (i < line_end && plain[i] == '#') {
            std::string line = code.substr(line_start, line_end - line_start);
            std::string name = included_header(line);
            size_t quote = line.find('"'), angle = line.find('<');
            if (!name.empty()) found.push_back({name, quote != std::string::npos && (angle == std::string::npos || quote < angle)});
        }
        line_start = line_end + 1;
    }
    return found;
}

}  // namespace simt::cuda_text
