// Hint keywords of the tile builtins (see tile_hints.h).
#include "sema/tile_hints.h"
#include <cstring>
#include <map>
#include <utility>
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

const std::vector<TileEnumeration>& tile_enumerations() {
    static const std::vector<TileEnumeration> kEnums = {
        {"PaddingMode", {{"UNDETERMINED", "undetermined"}, {"ZERO", "zero"}, {"NEG_ZERO", "neg_zero"}, {"NAN", "nan"},
                         {"POS_INF", "pos_inf"}, {"NEG_INF", "neg_inf"}}},
        {"RoundingMode", {{"RN", "nearest_even"}, {"RZ", "zero"}, {"RM", "negative_inf"}, {"RP", "positive_inf"},
                          {"RA", "nearest_away"}, {"FULL", "full"}, {"APPROX", "approx"}, {"RZI", "nearest_int_to_zero"}}},
        {"MemoryOrder", {{"WEAK", "weak"}, {"RELAXED", "relaxed"}, {"ACQUIRE", "acquire"}, {"RELEASE", "release"},
                         {"ACQ_REL", "acq_rel"}}},
        {"MemoryScope", {{"NONE", "none"}, {"BLOCK", "block"}, {"DEVICE", "device"}, {"SYS", "sys"}}},
    };
    return kEnums;
}

namespace {

bool is_member(const std::string& enumeration, const std::string& value) {
    for (const TileEnumeration& e : tile_enumerations())
        if (enumeration == e.name)
            for (const auto& m : e.members) if (value == m.second) return true;
    return false;
}

const ConstValue* constant_or_fail(Sema& s, const Expr& value, const std::string& what, const char* keyword,
                                   const char* expected) {
    const ConstValue* c = s.constant(value);
    if (!c) s.fail(value.loc, what + "() " + keyword + " must be " + expected + " known when the kernel compiles");
    return c;
}

}  // namespace

void check_performance_hints(Sema& s, const Expr* latency, const Expr* allow_tma, const std::string& name,
                             const std::string& what) {
    if (latency) check_tile_hint(s, name, "latency", *latency, what);
    if (allow_tma) {
        const ConstValue* c = s.constant(*allow_tma);
        if (!c || !c->is_int()) s.fail(allow_tma->loc, what + "() allow_tma must be a constant True or False");
    }
}

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
    const std::string enumeration = k == "rounding_mode" ? "RoundingMode" : k == "memory_order" ? "MemoryOrder" : "MemoryScope";
    const ConstValue* c = constant_or_fail(s, value, what, keyword, ("a tile." + enumeration + " member").c_str());
    if (c->kind == ConstValue::Kind::None) return;
    if (c->kind != ConstValue::Kind::String || !is_member(enumeration, c->s)) s.fail(value.loc, what + "() " + k + " must be a tile." + enumeration + " member");
    if (k != "rounding_mode") return;  // loads and stores of one block are ordered as written whatever the order asked
    // simt rounds to nearest even; exp and tanh compute in full precision, which APPROX allows.
    const bool approx_ok = name == "exp" || name == "tanh";
    if (c->s == "nearest_even" || (approx_ok && (c->s == "full" || c->s == "approx"))) return;
    s.unsupported(value.loc, what + "() rounding_mode '" + c->s + "': simt rounds to nearest even" +
                                 (approx_ok ? " (or computes exp and tanh in full precision, for FULL and APPROX)" : ""));
}

}  // namespace simt
