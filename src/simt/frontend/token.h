// Tokens of the kernel subset of Python.
#pragma once
#include <string>
#include <vector>
#include "frontend/source.h"

namespace simt {

enum class Tok {
    Name, Int, Float, Imag, String, Op, Newline, Indent, Dedent, End,
};

struct Token {
    Tok kind;
    std::string text;  // identifier, operator, literal spelling, or decoded string value
    Loc loc;           // location in the file
};

}  // namespace simt
