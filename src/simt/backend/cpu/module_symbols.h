// Variables of a loaded kernel shared object by name (RawModule.get_global on the cpu backend).
// Kernels compile with hidden visibility, so their variables are not in the dynamic symbol
// table that dlsym searches: the file's full symbol table (.symtab) has them.
#pragma once
#include <cstddef>
#include <string>
#include <utility>

namespace simt {

// The address and byte size of the data symbol `name` defined in the shared object `handle`
// (from dlopen); raises Value naming `name` when it has none such (missing, or a function).
std::pair<void*, size_t> shared_object_variable(void* handle, const std::string& name);

}  // namespace simt
