// Eager compilation from declared signatures (@cuda.jit("float32(float32, float32)",
// device=True)): which declared signature a call uses, and enforcing a declared return type.
#pragma once
#include <string>
#include <vector>
#include "sema/globals.h"
#include "sema/typed_function.h"
#include "types/signature.h"

namespace simt {

// The declared signature a call with these argument types uses, or null when none fits.
const Signature* pick_signature(const std::vector<Signature>& signatures, const std::vector<const Type*>& actual);

// "float32(float32, float32)", or "(float32, float32)" without a declared return type.
std::string signature_string(const Signature& sig);

// Checks the inferred return type of `fn` against `declared` (void: returns nothing), then makes
// the declared type the function's return type. Raises TypingError pointing at the function.
void enforce_return_type(TypedFunction& fn, const Type* declared);

// Type-checks a device function for one declared signature (at decoration, as numba compiles
// eagerly). Raises TypeError when the signature's arity is wrong, TypingError on bad code.
void check_device_signature(const std::string& name, const SourceText& source, const GlobalResolver& resolve,
                            const Signature& sig, const CompileOptions& options);

}  // namespace simt
