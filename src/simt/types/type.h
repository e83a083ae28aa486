// Types of kernel values: numeric scalars, arrays (dtype, ndim, layout), tuples, and the
// compile-time-only types of modules, builtin functions and dtypes. Types are interned:
// compare them by pointer.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace simt {

// Element types shared by kernels and arrays; the values are part of the binary interface
// between Python and C++ (keep in sync with python/simt/_dtypes.py).
enum class DType : uint8_t {
    Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
    Float16, Float32, Float64, Complex64, Complex128,
};
constexpr int kNumDTypes = 14;

// Bytes per element (inline: it is on the path of every array operation).
inline constexpr int8_t kDTypeSizes[kNumDTypes] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16};
constexpr int dtype_size(DType d) { return kDTypeSizes[int(d)]; }
const char* dtype_name(DType d);     // numba/NumPy name: "float64"
const char* dtype_c_name(DType d);   // C++ spelling in generated code: "double", "int64_t"
bool dtype_from_name(const std::string& name, DType& out);
bool dtype_is_integer(DType d);      // bool excluded
bool dtype_is_signed(DType d);
bool dtype_is_float(DType d);        // real floating point
bool dtype_is_complex(DType d);
int dtype_bits(DType d);

enum class TypeKind {
    Void, NoneType, Scalar, Array, Tuple, String,
    Module,    // a module or namespace object: name is canonical ("math", "cuda", "cuda.atomic")
    Function,  // a builtin function: name is canonical ("math.sin", "cuda.grid", "min")
    DTypeObj,  // a NumPy scalar type used as a value (np.float32): casts and dtype arguments
    Dim3,      // cuda.threadIdx and friends: attributes .x .y .z
    Range,     // the value of range(...): only iterated by `for`; dtype is what it yields
    Iterator,  // enumerate(...) / zip(...) (name): only iterated by `for`; elems: what they iterate
    DeviceFunction,  // a @cuda.jit(device=True) dispatcher; `name` is its key
    Tile,      // simt.cuda.tile: an immutable tile of `dims` (powers of two, known at compile time) of dtype
    TiledView, // simt.cuda.tile's array.tiled_view(): elems[0] the array, dims the tile shape, name the
               // padding mode; in generated code it is the array itself
};

enum class Layout : uint8_t { C, F, A };  // contiguous row-major, column-major, any strides

struct Type {
    TypeKind kind;
    DType dtype = DType::Int64;      // Scalar; Array element; DTypeObj value
    int ndim = 0;                    // Array
    Layout layout = Layout::A;       // Array
    bool readonly = false;           // Array (constant memory arrays)
    std::vector<const Type*> elems;  // Tuple; Iterator's iterables
    std::string name;                // Module/Function/Dim3/DeviceFunction canonical name; Iterator's builtin
    std::vector<int64_t> dims;       // Tile: its shape
    std::vector<std::string> fields; // Tuple: a named tuple's field names (`name`: its class's name)

    bool is_tile() const { return kind == TypeKind::Tile; }
    // cuda.cg.this_grid()'s value: a namespace of methods (sync), with nothing at run time.
    bool is_grid_group() const;
    // A dtype, a string or a grid group held in a variable: known while compiling, no value in the code.
    bool compile_time_only() const {
        return kind == TypeKind::DTypeObj || kind == TypeKind::String || is_grid_group();
    }
    int64_t tile_size() const { int64_t n = 1; for (int64_t d : dims) n *= d; return n; }

    bool is_scalar() const { return kind == TypeKind::Scalar; }
    bool is_array() const { return kind == TypeKind::Array; }
    bool is_tuple() const { return kind == TypeKind::Tuple; }
    bool is_integer() const { return is_scalar() && dtype_is_integer(dtype); }
    bool is_bool() const { return is_scalar() && dtype == DType::Bool; }
    bool is_float() const { return is_scalar() && dtype_is_float(dtype); }
    bool is_complex() const { return is_scalar() && dtype_is_complex(dtype); }
    bool is_number() const { return is_scalar(); }  // bool counts, as in Python

    // numba-style spelling: "float64", "array(float32, 2d, C)", "UniTuple(int64 x 2)".
    std::string str() const;
};

// Interning constructors.
const Type* void_type();
const Type* none_type();
const Type* string_type();
const Type* range_type(DType yields = DType::Int64);  // int64, or uint64 (numba's unsigned range)
const Type* iterator_type(const std::string& builtin, const std::vector<const Type*>& iterables);
const Type* scalar_type(DType d);
const Type* bool_type();
const Type* int64_type();
const Type* float64_type();
const Type* array_type(DType d, int ndim, Layout layout, bool readonly = false);
const Type* tuple_type(const std::vector<const Type*>& elems);
// A collections.namedtuple value (numba's NamedTuple / NamedUniTuple): a tuple whose elements
// are also reached as attributes.
const Type* named_tuple_type(const std::string& class_name, const std::vector<std::string>& fields,
                             const std::vector<const Type*>& elems);
const Type* module_type(const std::string& name);
// The module-kind type of cuda.cg.this_grid()'s value.
inline constexpr const char* kGridGroupType = "cuda.cg.GridGroup";
const Type* function_type(const std::string& name);
const Type* dtype_obj_type(DType d);
const Type* dim3_type(const std::string& name);
const Type* device_function_type(const std::string& key);
const Type* tile_type(DType d, const std::vector<int64_t>& dims);
const Type* tiled_view_type(const Type* array, const std::vector<int64_t>& tile_dims, const std::string& padding);

}  // namespace simt
