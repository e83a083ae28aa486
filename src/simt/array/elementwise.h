// Elementwise kernels generated as kernel-language source and compiled by the kernel compiler
// (the same parser, type inference and code generation as @cuda.jit), so they run on every
// backend. One family (a ufunc, a cast, a fused function) holds its compiled kernels per
// loop, operand dtypes and iteration layout: a contiguous 1-D path and an n-D strided path.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>
#include "array/broadcast.h"
#include "array/scalar.h"
#include "runtime/dispatcher.h"

namespace simt {

// An input of an elementwise kernel: an array (broadcast to the iteration shape) or a scalar
// passed by value.
struct ElementwiseInput {
    const NdArray* array = nullptr;
    Scalar scalar;  // when `array` is null
    DType dtype() const { return array ? array->dtype : scalar.dtype; }
};

// What a kernel computes for one element. `body` is kernel-language statements that read the
// inputs x0, x1, ... (already converted to `in_types`) and assign the results y0, y1, ...;
// each result is converted to `out_types` and then stored into its output array.
struct ElementwiseLoop {
    std::vector<DType> in_types;
    std::vector<bool> in_uncast;  // inputs passed to the body in their own dtype
    std::vector<DType> out_types;
    std::string body;
};

// The most inputs plus outputs one elementwise kernel takes.
constexpr int kMaxElementwiseOperands = 32;

class ElementwiseFamily {
public:
    // `extra` resolves names the bodies use beyond the built-in ones (device functions).
    explicit ElementwiseFamily(std::string name, GlobalResolver extra = {});
    ElementwiseFamily(const ElementwiseFamily&) = delete;
    ElementwiseFamily& operator=(const ElementwiseFamily&) = delete;
    const std::string& name() const { return name_; }

    // Runs `loop` over `inputs` broadcast to the shape of the outputs (allocated, one shape).
    // `loop_id` names the loop within this family (it keys the kernel cache).
    void run(int loop_id, const ElementwiseLoop& loop, const ElementwiseInput* inputs, int nin,
             NdArray* const* outputs, int nout);

    // Generated kernel-language source of every compiled kernel (for inspection and tests).
    std::vector<std::string> sources() const;

private:
    struct Key {
        int32_t loop_id = 0;
        int16_t path = 0;   // 0 contiguous, else strided ndim
        int16_t count = 0;  // operands used
        uint8_t operands[kMaxElementwiseOperands] = {};  // dtype codes; scalars have bit 0x80 set
        bool operator==(const Key& o) const;
    };
    struct KeyHash {
        size_t operator()(const Key& k) const;
    };
    struct Entry {
        Key key;
        std::unique_ptr<Dispatcher> dispatcher;
        CompiledKernel* kernel = nullptr;
        std::string source;
    };
    std::unique_ptr<Entry> compile(const Key& key, const ElementwiseLoop& loop);

    std::string name_;
    GlobalResolver extra_;
    mutable std::mutex mutex_;
    std::unordered_map<Key, std::unique_ptr<Entry>, KeyHash> cache_;
    // The entry the last call used: repeated calls with the same operand types (the common case)
    // skip the lock and the hash lookup. Entries live as long as the family.
    std::atomic<Entry*> last_{nullptr};
    Entry* find_or_compile(const Key& key, const ElementwiseLoop& loop);
};

// A whole elementwise call: broadcasts the array inputs, allocates each output that is not
// given (`outputs[j]` with `given[j]` false; dtype `loop.out_types[j]`, Fortran order when
// `fortran_order`) or checks a given one (shape, and same-kind casting from the loop's
// result, unless `unsafe_casting`), then runs the loop. Error messages name the operation as
// "<kind> '<family name>'".
void elementwise_call(ElementwiseFamily& family, int loop_id, const ElementwiseLoop& loop, const ElementwiseInput* inputs,
                      int nin, NdArray* outputs, const bool* given, int nout, const char* kind, bool fortran_order,
                      bool unsafe_casting = false);

// The broadcast shape of the array inputs (scalars do not take part).
Shape broadcast_input_shapes(const ElementwiseInput* inputs, int nin);

// The dtypes the results y0.. of `loop.body` get for inputs of `loop.in_types` (kernel-language
// typing; used when a function's result type is not declared, as in lazy vectorize).
std::vector<DType> infer_result_dtypes(const ElementwiseLoop& loop, int nout, const GlobalResolver& extra);

// The kernel-language source of an elementwise kernel (exposed for tests and inspection).
// `operands` are the dtype codes of inputs then outputs, with 0x80 marking scalar inputs;
// `path` is 0 for the contiguous kernel or the number of strided axes.
std::string elementwise_source(const std::string& name, const ElementwiseLoop& loop,
                               const std::vector<uint8_t>& operands, int path);

// Resolves the names generated elementwise sources use (cuda, math, dtype casts, min, ...).
GlobalValue elementwise_builtin_name(const std::string& name);

}  // namespace simt
