// The current stream of each thread.
#include "runtime/current_stream.h"
#include "support/fast_tls.h"

namespace simt {

namespace {
SIMT_FAST_TLS StreamHandle t_current = nullptr;
SIMT_FAST_TLS int t_current_device = 0;
}  // namespace

StreamHandle current_stream() {
    if (!t_current || backend().current_device() != t_current_device) return nullptr;
    return t_current;
}
void set_current_stream(StreamHandle stream, int device) {
    t_current = stream;
    t_current_device = device;
}

}  // namespace simt
