// The user's own files that CUDA C++ text includes (see included_files.h).
#include "support/included_files.h"
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include "support/cuda_text.h"
#include "support/sha256.h"

namespace simt {

namespace {

constexpr size_t kMostFiles = 1000;  // (a bound on what one text may pull in)

bool read_regular_file(const std::string& path, std::string* text) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return false;
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream out;
    out << in.rdbuf();
    *text = out.str();
    return true;
}

}  // namespace

std::string directory_of(const std::string& path) {
    size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? "." : path.substr(0, slash ? slash : 1);
}

IncludedFiles read_included_files(const std::string& text, const std::string& dir,
                                  const std::vector<std::string>& include_dirs) {
    IncludedFiles out;
    std::vector<std::string> seen;
    struct Pending { std::string dir, text; };
    std::vector<Pending> pending{{dir, text}};
    while (!pending.empty() && out.files.size() < kMostFiles) {
        Pending p = std::move(pending.back());
        pending.pop_back();
        for (const cuda_text::Include& inc : cuda_text::includes(p.text)) {
            std::vector<std::string> candidates;
            if (inc.name[0] == '/') {
                if (inc.quoted) candidates.push_back(inc.name);
            } else {
                if (inc.quoted && !p.dir.empty()) candidates.push_back(p.dir + "/" + inc.name);
                for (const std::string& d : include_dirs) candidates.push_back(d + "/" + inc.name);
            }
            bool found = false;
            for (const std::string& candidate : candidates) {
                std::string normal = std::filesystem::path(candidate).lexically_normal().string();
                if (std::find(seen.begin(), seen.end(), normal) != seen.end()) { found = true; break; }
                std::string included;
                if (!read_regular_file(candidate, &included)) continue;
                seen.push_back(normal);
                out.files.push_back({normal, included});
                pending.push_back({directory_of(normal), std::move(included)});
                found = true;
                break;
            }
            out.unfound_quoted = out.unfound_quoted || (inc.quoted && !found);
        }
    }
    return out;
}

std::string included_files_comment(const std::vector<IncludedFile>& files) {
    if (files.empty()) return "";
    Sha256 h;
    for (const IncludedFile& f : files) {
        h.update(f.path + "\n" + std::to_string(f.text.size()) + "\n");
        h.update(f.text);
    }
    return "\n// the user's files it includes: sha256 " + h.hex_digest() + "\n";
}

}  // namespace simt
