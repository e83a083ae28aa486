// The stream array operations of this thread go to: the innermost `with stream:` (kept by the
// Python layer, which sets it here), else the default stream. Kernel launches without an explicit
// stream, ufuncs and operators, copies, fills, random numbers and result allocations all follow
// it, as in CuPy.
#pragma once
#include "runtime/backend.h"

namespace simt {

// Null (the default stream) while another device than the stream's is current: each device has
// its own current stream, as in CuPy.
StreamHandle current_stream();
void set_current_stream(StreamHandle stream, int device);

// Queues a copy or fill, `work(stream)`, on the current stream and keeps `owners` (the buffers it
// uses: shared_ptr<void>s) alive until that stream has done it (see Backend::hold_until_done).
template <class Work, class... Owners>
void on_current_stream(Work work, const Owners&... owners) {
    StreamHandle stream = current_stream();
    work(stream);
    if (stream) backend().hold_until_done(stream, {owners...});
}

}  // namespace simt
