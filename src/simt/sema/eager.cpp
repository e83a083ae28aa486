// Declared signatures of device functions: selection, return-type enforcement, and the
// decoration-time type check.
#include "sema/eager.h"
#include "frontend/parser.h"
#include "sema/sema.h"
#include "support/error.h"
#include "types/promote.h"
#include "types/signature_match.h"

namespace simt {

const Signature* pick_signature(const std::vector<Signature>& signatures, const std::vector<const Type*>& actual) {
    std::vector<std::vector<const Type*>> candidates;
    for (const Signature& s : signatures) candidates.push_back(s.args);
    int i = best_signature(candidates, actual);
    return i < 0 ? nullptr : &signatures[size_t(i)];
}

std::string signature_string(const Signature& sig) {
    std::string ret = !sig.return_type ? "" : sig.return_type == void_type() ? "void" : sig.return_type->str();
    return ret + type_list_string(sig.args);
}

void enforce_return_type(TypedFunction& fn, const Type* declared) {
    auto fail = [&](const std::string& message) {
        throw Error(ErrorKind::Typing, describe_source_error(fn.source, fn.def.loc, fn.name, "TypingError: " + message));
    };
    const Type* inferred = fn.return_type;
    if (declared == void_type()) {
        if (inferred != void_type())
            fail("'" + fn.name + "' is declared to return void but returns a value of type " + inferred->str());
        return;
    }
    if (inferred == void_type())
        fail("'" + fn.name + "' is declared to return " + declared->str() + " but returns nothing");
    if (!can_convert(inferred, declared))
        fail("'" + fn.name + "' is declared to return " + declared->str() + " but returns a value of type " +
             inferred->str() + ", which does not convert to it");
    fn.return_type = declared;
}

void check_device_signature(const std::string& name, const SourceText& source, const GlobalResolver& resolve,
                            const Signature& sig, const CompileOptions& options) {
    CompileUnit unit;
    unit.options = options;
    auto fn = std::make_unique<TypedFunction>();
    fn->source = source;
    fn->def = parse_function(source);
    fn->name = fn->def.name;
    fn->c_name = c_identifier(fn->def.name);
    if (sig.args.size() != fn->def.params.size())
        throw Error(ErrorKind::Type, "device function '" + name + "' takes " + std::to_string(fn->def.params.size()) +
                                         " argument" + (fn->def.params.size() == 1 ? "" : "s") + " but its signature " +
                                         signature_string(sig) + " declares " + std::to_string(sig.args.size()));
    fn->param_types = sig.args;
    std::vector<std::string> call_stack{source.filename + ":" + fn->name};
    TypedFunction& f = *fn;
    unit.functions.push_back(std::move(fn));
    Sema sema(unit, f, resolve, call_stack);
    sema.run();
    if (sig.return_type) enforce_return_type(f, sig.return_type);
}

}  // namespace simt
