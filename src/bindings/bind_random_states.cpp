// simt.cuda.random's host side: initial xoroshiro128+ states (as bytes of uint64 pairs) and
// stream outputs for checking.
#include "array/xoroshiro_states.h"
#include "bindings.h"
#include "support/error.h"

namespace simt::py {

void bind_random_states(nb::module_& m) {
    m.def("xoroshiro128p_states", [](int64_t count, uint64_t seed, uint64_t subsequence_start) {
        if (count < 0) throw Error(ErrorKind::Value, "the number of states must be non-negative, not " + std::to_string(count));
        std::vector<uint64_t> states;
        {
            nb::gil_scoped_release release;
            states = xoroshiro_states(count, seed, subsequence_start);
        }
        return nb::bytes(reinterpret_cast<const char*>(states.data()), states.size() * sizeof(uint64_t));
    });
    m.def("xoroshiro128p_outputs", [](uint64_t s0, uint64_t s1, int64_t count) {
        std::vector<uint64_t> out = xoroshiro_outputs(s0, s1, count);
        return nb::bytes(reinterpret_cast<const char*>(out.data()), out.size() * sizeof(uint64_t));
    });
}

}  // namespace simt::py
