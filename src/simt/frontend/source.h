// Source text of one kernel function and locations inside it (file:line:col).
#pragma once
#include <string>
#include <vector>

namespace simt {

// A position in the user's Python file: 1-based line, 1-based column.
struct Loc {
    int line = 0;
    int col = 0;
};

// The text of a function as Python's inspect module found it, with where it came from.
struct SourceText {
    std::string text;      // dedented function source, starting at its first decorator or `def`
    std::string filename;  // the file it was read from ("<string>" when unknown)
    int first_line = 1;    // line of `text`'s first line in that file
    int indent = 0;        // columns removed by dedenting (added back to reported columns)

    // The line of the file (1-based), without its newline; empty if out of range.
    std::string line_text(int file_line) const;
    Loc file_loc(int text_line, int text_col) const { return {text_line + first_line - 1, text_col + indent}; }
};

// A compile error in kernel source: where, what, and the source line with a caret under the spot.
// `kind` distinguishes unsupported syntax from typing failures (see support/error.h).
std::string describe_source_error(const SourceText& src, Loc loc, const std::string& function,
                                  const std::string& message);

}  // namespace simt
