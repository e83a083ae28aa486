// The user's own files that CUDA C++ text includes (linked files, raw modules), read with it so
// that cache keys and the cpu backend's choices see what the compilers will see.
#pragma once
#include <string>
#include <vector>

namespace simt {

struct IncludedFile {
    std::string path;  // as found (lexically normal)
    std::string text;
};

struct IncludedFiles {
    std::vector<IncludedFile> files;
    bool unfound_quoted = false;  // an #include "name" found in none of the places searched
};

// The files `text` includes, and those they include, each once: `#include "name"` looked up
// beside the including file (for `text` itself: in `dir`, none when empty), then in each of
// `include_dirs`; `#include <name>` in `include_dirs` only (the system's headers are not read).
IncludedFiles read_included_files(const std::string& text, const std::string& dir,
                                  const std::vector<std::string>& include_dirs);

// The directory of a file's path ("." for a bare name): where its #include "..." looks first.
std::string directory_of(const std::string& path);

// A comment line naming the digest of the files' paths and texts ("" for none): put in a
// kernel's source, it makes the source, and so its cache keys, change when one of them does.
std::string included_files_comment(const std::vector<IncludedFile>& files);

}  // namespace simt
