"""Helpers of the simt.core tests: NumPy data into and out of simt.core Buffers (through DLPack)."""
import numpy as np

import simt


def to_buffer(dev, stream, host):
    """A Buffer holding the bytes of NumPy array `host` (allocated and written on `stream`)."""
    buf = dev.allocate(host.nbytes, stream=stream)
    # The copy goes on `stream`, after the allocation there, and is complete on return: on the
    # default stream a GPU may finish it after work the test then queues on its non-blocking
    # stream (the H200 did, and the copies read stale bytes).
    with stream._simt_stream:
        simt.from_dlpack(buf).set(np.ascontiguousarray(host).view(np.int8).ravel())
    stream.sync()
    return buf


def from_buffer(buf, dtype):
    """The Buffer's bytes as a NumPy array of `dtype`."""
    return simt.from_dlpack(buf).get().view(dtype)
