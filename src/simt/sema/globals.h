// How a kernel's free names (globals, closure variables, builtins) are resolved: one callback
// into the host language (Python), answering with what the name is bound to.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "frontend/source.h"
#include "sema/foreign.h"
#include "sema/constant.h"
#include "types/signature.h"

namespace simt {

struct FunctionOptions;
struct FunctionDef;
struct DeviceFunctionRef;

struct GlobalValue {
    enum class Kind {
        Undefined,       // no such name
        Module,          // `name` is a canonical module: "math", "cmath", "numpy", "cuda", "cuda.atomic"
        Function,        // `name` is a canonical builtin function: "len", "range", "math.sin"
        Member,          // `name` is "module.attr" of the builtin registry: "cuda.threadIdx", "math.pi"
        DTypeObj,        // a NumPy scalar type such as np.float32
        Constant,        // a number, bool, string or tuple frozen at compile time
        DeviceFunction,  // a @cuda.jit(device=True) function
        Foreign,         // a CUDA C++ function declared with cuda.declare_device
        HostArray,       // a NumPy array: frozen into constant memory (dtype, shape, bytes in C order)
        Unsupported,     // bound to something kernels cannot use; `name` describes it
    };
    Kind kind = Kind::Undefined;
    std::string name;
    DType dtype = DType::Float64;
    ConstValue value;
    std::shared_ptr<DeviceFunctionRef> device_function;
    std::shared_ptr<const ForeignFunction> foreign;
    std::vector<int64_t> shape;  // HostArray
    std::string bytes;           // HostArray

    static GlobalValue undefined() { return {}; }
    static GlobalValue module(std::string n) { GlobalValue g; g.kind = Kind::Module; g.name = std::move(n); return g; }
    static GlobalValue function(std::string n) { GlobalValue g; g.kind = Kind::Function; g.name = std::move(n); return g; }
    static GlobalValue member(std::string n) { GlobalValue g; g.kind = Kind::Member; g.name = std::move(n); return g; }
    static GlobalValue dtype_obj(DType d) { GlobalValue g; g.kind = Kind::DTypeObj; g.dtype = d; return g; }
    static GlobalValue constant(ConstValue v) { GlobalValue g; g.kind = Kind::Constant; g.value = std::move(v); return g; }
    static GlobalValue unsupported(std::string what) { GlobalValue g; g.kind = Kind::Unsupported; g.name = std::move(what); return g; }
};

// Answers "what is the global or closure variable NAME bound to?" for one function.
using GlobalResolver = std::function<GlobalValue(const std::string& name)>;

// A device function that kernels may call: its source and its own resolver. `key` identifies
// the function (stable for a process) and is used to name and deduplicate specializations.
struct DeviceFunctionRef {
    std::string key;
    std::string name;
    SourceText source;
    GlobalResolver resolve;
    bool inline_always = false;
    // Declared signatures (eager compilation): calls use the best-fitting one, converting
    // arguments, and the declared return type is enforced. Empty: specialize per call.
    std::vector<Signature> signatures;
    // An inner function (a `def` or `f = lambda` nested in a kernel or device function; see
    // sema/inner_functions.cpp): its definition in the enclosing function's tree, the enclosing
    // variables it reads (passed as trailing hidden parameters at each call, by value) and the
    // inner functions its body can name.
    const FunctionDef* inner = nullptr;
    std::vector<std::string> captures;
    std::map<std::string, std::weak_ptr<DeviceFunctionRef>> visible;
};

}  // namespace simt
