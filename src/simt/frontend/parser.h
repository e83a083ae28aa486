// Parser: tokens of one Python function → FunctionDef (the kernel subset of Python).
#pragma once
#include "frontend/ast.h"
#include "frontend/source.h"

namespace simt {

// Parses a function definition (decorators before it are skipped). Unsupported syntax raises
// Error(Unsupported) naming the construct, with file:line and a caret.
FunctionDef parse_function(const SourceText& src);

}  // namespace simt
