// Hint keywords of the tile builtins (see tile_hints.h).
#include "sema/tile_hints.h"
#include <cstring>
#include <map>
#include "sema/sema.h"

namespace simt {

const std::vector<const char*>& tile_hint_keywords(const std::string& name) {
    static const std::map<std::string, std::vector<const char*>> kHints = {
        {"add", {"rounding_mode", "flush_to_zero"}},     {"sub", {"rounding_mode", "flush_to_zero"}},
        {"mul", {"rounding_mode", "flush_to_zero"}},     {"truediv", {"rounding_mode", "flush_to_zero"}},
        {"sum", {"rounding_mode", "flush_to_zero"}},     {"prod", {"rounding_mode", "flush_to_zero"}},
        {"max", {"flush_to_zero"}},                      {"min", {"flush_to_zero"}},
        {"cumsum", {"rounding_mode", "flush_to_zero"}},  {"cumprod", {"rounding_mode", "flush_to_zero"}},
        {"maximum", {"flush_to_zero"}},                  {"minimum", {"flush_to_zero"}},
        {"exp", {"rounding_mode"}},                      {"tanh", {"rounding_mode"}},
        {"sqrt", {"rounding_mode", "flush_to_zero"}},    {"exp2", {"flush_to_zero"}},
        {"rsqrt", {"flush_to_zero"}},                    {"astype", {"rounding_mode"}},
        {"load", {"check_bounds", "memory_order", "memory_scope"}},
        {"store", {"check_bounds", "memory_order", "memory_scope"}},
        {"gather", {"check_bounds", "latency"}},         {"scatter", {"check_bounds", "latency"}},
    };
    static const std::vector<const char*> kNone;
    auto it = kHints.find(name);
    return it == kHints.end() ? kNone : it->second;
}

namespace {

const ConstValue* constant_or_fail(Sema& s, const Expr& value, const std::string& what, const char* keyword,
                                   const char* expected) {
    const ConstValue* c = s.constant(value);
    if (!c) s.fail(value.loc, what + "() " + keyword + " must be " + expected + " known when the kernel compiles");
    return c;
}

}  // namespace

void check_tile_hint(Sema& s, const std::string& name, const char* keyword, const Expr& value, const std::string& what) {
    const std::string k = keyword;
    if (k == "flush_to_zero" || k == "check_bounds") {
        const ConstValue* c = constant_or_fail(s, value, what, keyword, "True or False");
        if (!c->is_int()) s.fail(value.loc, what + "() " + k + " must be True or False");
        return;
    }
    if (k == "latency") {
        const ConstValue* c = constant_or_fail(s, value, what, keyword, "an integer from 1 to 10");
        if (!c->is_int() || c->as_int() < 1 || c->as_int() > 10) s.fail(value.loc, what + "() latency must be an integer from 1 to 10");
        return;
    }
    const ConstValue* c = constant_or_fail(s, value, what, keyword, k == "rounding_mode" ? "a tile.RoundingMode member"
                                                                    : k == "memory_order" ? "a tile.MemoryOrder member"
                                                                                          : "a tile.MemoryScope member");
    if (c->kind == ConstValue::Kind::None) return;
    const std::string enumeration = k == "rounding_mode" ? "RoundingMode" : k == "memory_order" ? "MemoryOrder" : "MemoryScope";
    static const std::map<std::string, std::vector<const char*>> kMembers = {
        {"RoundingMode", {"nearest_even", "zero", "negative_inf", "positive_inf", "nearest_away", "full", "approx", "nearest_int_to_zero"}},
        {"MemoryOrder", {"weak", "relaxed", "acquire", "release", "acq_rel"}},
        {"MemoryScope", {"none", "block", "device", "sys"}}};
    bool member = false;
    if (c->kind == ConstValue::Kind::String)
        for (const char* m : kMembers.at(enumeration)) member = member || c->s == m;
    if (!member) s.fail(value.loc, what + "() " + k + " must be a tile." + enumeration + " member");
    if (k != "rounding_mode") return;  // loads and stores of one block are ordered as written whatever the order asked
    // simt rounds to nearest even; exp and tanh compute in full precision, which APPROX allows.
    const bool approx_ok = name == "exp" || name == "tanh";
    if (c->s == "nearest_even" || (approx_ok && (c->s == "full" || c->s == "approx"))) return;
    s.unsupported(value.loc, what + "() rounding_mode '" + c->s + "': simt rounds to nearest even" +
                                 (approx_ok ? " (or computes exp and tanh in full precision, for FULL and APPROX)" : ""));
}

}  // namespace simt
