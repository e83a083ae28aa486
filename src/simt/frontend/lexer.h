// Lexer: Python source text → tokens with INDENT/DEDENT, as Python's tokenizer does.
#pragma once
#include <vector>
#include "frontend/token.h"

namespace simt {

// Throws Error(Unsupported) with a caret message on malformed input.
std::vector<Token> tokenize(const SourceText& src);

}  // namespace simt
