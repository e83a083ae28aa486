// Type interning and spelling.
#include "types/type.h"
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <cstdio>

namespace simt {

namespace {
struct DTypeInfo { const char* name; const char* c_name; int size; };
constexpr DTypeInfo kDTypes[kNumDTypes] = {
    {"bool", "bool", 1},           {"int8", "int8_t", 1},         {"int16", "int16_t", 2},
    {"int32", "int32_t", 4},       {"int64", "int64_t", 8},       {"uint8", "uint8_t", 1},
    {"uint16", "uint16_t", 2},     {"uint32", "uint32_t", 4},     {"uint64", "uint64_t", 8},
    {"float16", "simt_half", 2},   {"float32", "float", 4},       {"float64", "double", 8},
    {"complex64", "simt_complex64", 8}, {"complex128", "simt_complex128", 16},
};

// Interned types live for the process; the key is the full structural description.
struct Interner {
    std::mutex mutex;
    std::map<std::string, std::unique_ptr<Type>> types;

    const Type* get(const std::string& key, Type proto) {
        std::lock_guard<std::mutex> lock(mutex);
        auto it = types.find(key);
        if (it != types.end()) return it->second.get();
        auto owned = std::make_unique<Type>(std::move(proto));
        const Type* p = owned.get();
        types.emplace(key, std::move(owned));
        return p;
    }
};
Interner& interner() {
    static Interner* in = new Interner();  // never destroyed: types outlive static destructors
    return *in;
}
Type make(TypeKind k) { Type t; t.kind = k; return t; }
}  // namespace

constexpr bool sizes_agree() {
    for (int i = 0; i < kNumDTypes; ++i)
        if (kDTypes[i].size != kDTypeSizes[i]) return false;
    return true;
}
static_assert(sizes_agree(), "kDTypeSizes (type.h) and kDTypes disagree");
const char* dtype_name(DType d) { return kDTypes[int(d)].name; }
const char* dtype_c_name(DType d) { return kDTypes[int(d)].c_name; }
bool dtype_from_name(const std::string& name, DType& out) {
    for (int i = 0; i < kNumDTypes; ++i)
        if (name == kDTypes[i].name) { out = DType(i); return true; }
    if (name == "bool_" || name == "boolean") { out = DType::Bool; return true; }
    if (name == "float" || name == "double") { out = DType::Float64; return true; }
    if (name == "half") { out = DType::Float16; return true; }
    if (name == "single") { out = DType::Float32; return true; }
    if (name == "intp" || name == "int_") { out = DType::Int64; return true; }
    if (name == "uintp") { out = DType::UInt64; return true; }
    if (name == "complex") { out = DType::Complex128; return true; }
    return false;
}
bool dtype_is_integer(DType d) { return d >= DType::Int8 && d <= DType::UInt64; }
bool dtype_is_signed(DType d) { return (d >= DType::Int8 && d <= DType::Int64) || d >= DType::Float16; }
bool dtype_is_float(DType d) { return d == DType::Float16 || d == DType::Float32 || d == DType::Float64; }
bool dtype_is_complex(DType d) { return d == DType::Complex64 || d == DType::Complex128; }
int dtype_bits(DType d) { return d == DType::Bool ? 1 : dtype_size(d) * 8; }

std::string Type::str() const {
    switch (kind) {
        case TypeKind::Void: return "none";
        case TypeKind::NoneType: return "none";
        case TypeKind::Scalar: return dtype_name(dtype);
        case TypeKind::Array: {
            const char* lay = layout == Layout::C ? "C" : layout == Layout::F ? "F" : "A";
            return std::string(readonly ? "readonly array(" : "array(") + dtype_name(dtype) + ", " +
                   std::to_string(ndim) + "d, " + lay + ")";
        }
        case TypeKind::Tuple: {
            if (!fields.empty()) {
                std::string s = name + "(";
                for (size_t i = 0; i < elems.size(); ++i) s += (i ? ", " : "") + fields[i] + ": " + elems[i]->str();
                return s + ")";
            }
            bool uniform = !elems.empty();
            for (const Type* e : elems) uniform = uniform && e == elems[0];
            if (uniform) return "UniTuple(" + elems[0]->str() + " x " + std::to_string(elems.size()) + ")";
            std::string s = "Tuple(";
            for (size_t i = 0; i < elems.size(); ++i) s += (i ? ", " : "") + elems[i]->str();
            return s + ")";
        }
        case TypeKind::String: return "unicode_type";
        case TypeKind::Module: return is_grid_group() ? "GridGroup" : "Module(" + name + ")";
        case TypeKind::Function: return "Function(" + name + ")";
        case TypeKind::DTypeObj: return std::string("class(") + dtype_name(dtype) + ")";
        case TypeKind::Dim3: return "Dim3(" + name + ")";
        case TypeKind::Range: return dtype == DType::UInt64 ? "unsigned_range_state64" : "range_state64";
        case TypeKind::Iterator: {  // numba's spelling: enumerate(array(float64, 1d, C))
            std::string s = name + "(";
            for (size_t i = 0; i < elems.size(); ++i) s += (i ? ", " : "") + elems[i]->str();
            return s + ")";
        }
        case TypeKind::DeviceFunction: return "DeviceFunction(" + name + ")";
        case TypeKind::Tile: {  // tile(float32, (64, 32))
            std::string s = std::string("tile(") + dtype_name(dtype) + ", (";
            for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
            return s + (dims.size() == 1 ? ",))" : "))");
        }
        case TypeKind::TiledView: {  // TiledView(array(float32, 2d, C), (64, 32), zero)
            std::string s = "TiledView(" + elems[0]->str() + ", (";
            for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
            return s + (dims.size() == 1 ? ",), " : "), ") + name + ")";
        }
    }
    return "?";
}

const Type* void_type() { return interner().get("void", make(TypeKind::Void)); }
bool Type::is_grid_group() const { return kind == TypeKind::Module && name == kGridGroupType; }

const Type* none_type() { return interner().get("none", make(TypeKind::NoneType)); }
const Type* string_type() { return interner().get("str", make(TypeKind::String)); }
const Type* range_type(DType yields) {
    Type t = make(TypeKind::Range);
    t.dtype = yields;
    return interner().get(std::string("range:") + dtype_name(yields), t);
}

const Type* scalar_type(DType d) {
    static const Type* cache[kNumDTypes] = {};
    if (const Type* t = __atomic_load_n(&cache[int(d)], __ATOMIC_ACQUIRE)) return t;
    Type t = make(TypeKind::Scalar);
    t.dtype = d;
    const Type* p = interner().get(std::string("s:") + dtype_name(d), t);
    __atomic_store_n(&cache[int(d)], p, __ATOMIC_RELEASE);
    return p;
}
const Type* bool_type() { return scalar_type(DType::Bool); }
const Type* int64_type() { return scalar_type(DType::Int64); }
const Type* float64_type() { return scalar_type(DType::Float64); }

const Type* array_type(DType d, int ndim, Layout layout, bool readonly) {
    // The launch path asks for these on every launch: answer common ones without the lock.
    constexpr int kCachedDims = 8;
    static const Type* cache[kNumDTypes][kCachedDims + 1][3][2] = {};
    bool cacheable = ndim >= 0 && ndim <= kCachedDims;
    const Type** slot = cacheable ? &cache[int(d)][ndim][int(layout)][readonly ? 1 : 0] : nullptr;
    if (slot) {
        if (const Type* hit = __atomic_load_n(slot, __ATOMIC_ACQUIRE)) return hit;
    }
    Type t = make(TypeKind::Array);
    t.dtype = d;
    t.ndim = ndim;
    t.layout = layout;
    t.readonly = readonly;
    std::string key = std::string("a:") + dtype_name(d) + ":" + std::to_string(ndim) + ":" +
                      std::to_string(int(layout)) + (readonly ? ":ro" : "");
    const Type* p = interner().get(key, t);
    if (slot) __atomic_store_n(slot, p, __ATOMIC_RELEASE);
    return p;
}

// Interned types are told apart by address: a list of them is keyed by their addresses.
static std::string address_key(const std::string& prefix, const std::vector<const Type*>& types) {
    std::string key = prefix;
    for (const Type* e : types) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%p,", (const void*)e);
        key += buf;
    }
    return key;
}

const Type* tuple_type(const std::vector<const Type*>& elems) {
    std::string key = address_key("t:", elems);
    Type t = make(TypeKind::Tuple);
    t.elems = elems;
    return interner().get(key, t);
}

const Type* named_tuple_type(const std::string& class_name, const std::vector<std::string>& fields,
                             const std::vector<const Type*>& elems) {
    std::string key = address_key("nt:" + class_name + ":", elems);
    for (const std::string& f : fields) key += ":" + f;
    Type t = make(TypeKind::Tuple);
    t.elems = elems;
    t.name = class_name;
    t.fields = fields;
    return interner().get(key, t);
}

const Type* iterator_type(const std::string& builtin, const std::vector<const Type*>& iterables) {
    std::string key = address_key("it:" + builtin + ":", iterables);
    Type t = make(TypeKind::Iterator);
    t.name = builtin;
    t.elems = iterables;
    return interner().get(key, t);
}

static const Type* named(TypeKind kind, const char* prefix, const std::string& name) {
    Type t = make(kind);
    t.name = name;
    return interner().get(std::string(prefix) + name, t);
}
const Type* module_type(const std::string& name) { return named(TypeKind::Module, "m:", name); }
const Type* function_type(const std::string& name) { return named(TypeKind::Function, "f:", name); }
const Type* dim3_type(const std::string& name) { return named(TypeKind::Dim3, "d3:", name); }
const Type* device_function_type(const std::string& key) { return named(TypeKind::DeviceFunction, "df:", key); }

const Type* tile_type(DType d, const std::vector<int64_t>& dims) {
    Type t = make(TypeKind::Tile);
    t.dtype = d;
    t.dims = dims;
    std::string key = std::string("tile:") + dtype_name(d);
    for (int64_t n : dims) key += ":" + std::to_string(n);
    return interner().get(key, t);
}
const Type* tiled_view_type(const Type* array, const std::vector<int64_t>& tile_dims, const std::string& padding) {
    Type t = make(TypeKind::TiledView);
    t.dtype = array->dtype;
    t.ndim = array->ndim;
    t.elems = {array};
    t.dims = tile_dims;
    t.name = padding;
    std::string key = "tv:" + array->str() + ":" + padding;
    for (int64_t n : tile_dims) key += ":" + std::to_string(n);
    return interner().get(key, t);
}
const Type* dtype_obj_type(DType d) {
    Type t = make(TypeKind::DTypeObj);
    t.dtype = d;
    return interner().get(std::string("dt:") + dtype_name(d), t);
}

}  // namespace simt
