// Universal functions: elementwise operations with NumPy's type resolution (loops searched in
// order for the first one every input casts to safely), NEP 50 weak Python scalars,
// broadcasting, `out=` with same-kind casting, and kernels generated per loop.
#pragma once
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include "array/elementwise.h"

namespace simt {

constexpr int kMaxUfuncInputs = 3;

struct UfuncLoop {
    DType in[kMaxUfuncInputs] = {};
    DType out = DType::Bool;
    ElementwiseLoop kernel;  // the same types and the statements computing y0 from x0, x1, x2
};

struct Ufunc {
    std::string name;
    int nin = 2;
    std::vector<UfuncLoop> loops;  // in search order
    uint8_t any_dtype_inputs = 0;  // bit k: input k takes any dtype as is (where's condition)
    bool comparison = false;       // out-of-range Python ints compare by value instead of raising
    bool divides = false;          // true_divide: integers divide as float64, so an out-of-range Python int is a float64
    uint8_t int_inputs = 0;        // bit k: input k is an integer operand (ldexp's exponent): a Python int there is int64
    std::string all_bool_error;    // TypeError text when every input is bool (NumPy refuses these)
    std::string doc;
    std::unique_ptr<ElementwiseFamily> family;
    // Loop chosen for each tuple of input dtypes (-2: not looked up yet, -1: none).
    std::unique_ptr<std::atomic<int16_t>[]> loop_cache;
};

// Every ufunc simt defines (add, sqrt, ..., plus where and clip), by NumPy name.
const std::vector<Ufunc*>& all_ufuncs();
Ufunc* find_ufunc(const std::string& name);

// An operand of a ufunc call as the caller holds it. Python int/float/complex are "weak"
// (NEP 50): they take the dtype of the other operands when its kind allows.
struct UfuncOperand {
    enum class Kind : uint8_t { Array, Scalar, WeakInt, WeakUInt, WeakFloat, WeakComplex } kind = Kind::Array;
    const NdArray* array = nullptr;  // Array
    Scalar scalar;                   // Scalar: a typed value (NumPy scalar, Python bool)
    int64_t i = 0;                   // WeakInt
    uint64_t u = 0;                  // WeakUInt (a Python int above INT64_MAX)
    double re = 0, im = 0;           // WeakFloat / WeakComplex
    bool huge_int = false;           // WeakFloat holding a Python int too wide for 64 bits
    bool is_weak() const { return kind >= Kind::WeakInt; }
};

// Calls `u` on `nin` operands. `out` is an existing output array or null (a new one is
// returned); `dtype` forces the loop's type. Raises TypeError for unsupported dtypes,
// ValueError for shape mismatches, OverflowError for Python ints out of range.
NdArray call_ufunc(Ufunc& u, const UfuncOperand* operands, int nin, const NdArray* out, std::optional<DType> dtype);

// NumPy's casting rules between dtypes.
bool can_cast_safe(DType from, DType to);
bool can_cast_same_kind(DType from, DType to);

// The dtypes a call's operands take part in loop selection with (weak scalars resolved).
std::vector<DType> resolve_operand_dtypes(const Ufunc& u, const UfuncOperand* operands, int nin);
void resolve_operand_dtypes(const Ufunc& u, const UfuncOperand* operands, int nin, DType* out);  // out: nin entries
// The loop chosen for those dtypes, or null.
const UfuncLoop* select_loop(const Ufunc& u, const DType* dtypes, std::optional<DType> dtype);

// Elementwise copies with casting (NumPy's unsafe casting, as astype and assignment do):
// `src` is broadcast to the shape of `dst`.
void copy_into(NdArray& dst, const NdArray& src);
// Writes a scalar into every element of `dst` (any strides).
void fill_with(NdArray& dst, const Scalar& value);
// A new array with `a`'s contents converted to `dtype`, in C or Fortran order.
NdArray astype(const NdArray& a, DType dtype, bool fortran_order);

}  // namespace simt
