// The current stream of each thread.
#include "runtime/current_stream.h"

namespace simt {

namespace {
thread_local StreamHandle t_current = nullptr;
}  // namespace

StreamHandle current_stream() { return t_current; }
void set_current_stream(StreamHandle stream) { t_current = stream; }

}  // namespace simt
