// Plain scanning of CUDA C++ text (raw kernels, linked files): comments, #include lines.
// (Not std::regex: libstdc++'s regex recurses per character and crashed on a module of a few
// hundred lines on one of the GPU machines.)
#pragma once
#include <string>
#include <vector>

namespace simt::cuda_text {

bool is_ident(char c);
size_t skip_space(const std::string& s, size_t i);
// `code` with its comments and the insides of string and character literals as spaces (line
// breaks kept, so offsets and lines stay where they were).
std::string without_comments(const std::string& code);
// The header an #include line names, or "" for other lines.
std::string included_header(const std::string& line);
// `code`'s #include lines, in order (lines inside comments do not count).
struct Include {
    std::string name;
    bool quoted;  // "name" (searched beside the including file first), not <name>
};
std::vector<Include> includes(const std::string& code);

}  // namespace simt::cuda_text
