// Types and spellings of compile-time constants.
#include "sema/constant.h"
#include <cstdio>

namespace simt {

const Type* ConstValue::type() const {
    switch (kind) {
        case Kind::None: return none_type();
        case Kind::Bool: case Kind::Int: case Kind::Float: case Kind::Complex: return scalar_type(dtype);
        case Kind::String: return string_type();
        case Kind::Tuple: {
            std::vector<const Type*> types;
            for (const ConstValue& e : elems) types.push_back(e.type());
            return tuple_type(types);
        }
    }
    return none_type();
}

std::string ConstValue::str() const {
    char buf[64];
    switch (kind) {
        case Kind::None: return "None";
        case Kind::Bool: return b ? "True" : "False";
        case Kind::Int: return std::to_string(i);
        case Kind::Float: std::snprintf(buf, sizeof buf, "%.17g", f); return buf;
        case Kind::Complex: std::snprintf(buf, sizeof buf, "(%.17g%+.17gj)", f, imag); return buf;
        case Kind::String: return "'" + s + "'";
        case Kind::Tuple: {
            std::string out = "(";
            for (size_t k = 0; k < elems.size(); ++k) out += (k ? ", " : "") + elems[k].str();
            if (elems.size() == 1) out += ",";
            return out + ")";
        }
    }
    return "?";
}

}  // namespace simt
