// File and process helpers: whole-file reads, atomic writes, private directories, and running
// a program without a shell.
#pragma once
#include <string>
#include <vector>

namespace simt {

bool read_file(const std::string& path, std::string& out);
// Writes through a temporary file in the same directory, then renames into place.
void write_file_atomic(const std::string& path, const std::string& data);
// Creates `path` and parents with mode 0700; raises if it exists but is not a private directory
// owned by this user.
void make_private_directory(const std::string& path);
bool file_exists(const std::string& path);
std::string find_in_path(const std::string& program);  // "" when not found
std::string unique_suffix();                           // pid + counter + random, for temp names
// Splits on any of the separator characters, dropping empty pieces ("a  b" → {"a", "b"}).
std::vector<std::string> split(const std::string& text, const char* separators);

struct ProcessResult {
    int exit_code = -1;
    std::string output;  // stdout and stderr together
};
// Runs argv[0] (a path) with arguments, no shell; captures its output.
ProcessResult run_process(const std::vector<std::string>& argv);

}  // namespace simt
