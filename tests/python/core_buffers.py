"""Helpers of the simt.core tests: NumPy data into and out of simt.core Buffers (through DLPack)."""
import numpy as np

import simt


def to_buffer(dev, stream, host):
    """A Buffer holding the bytes of NumPy array `host`."""
    buf = dev.allocate(host.nbytes, stream=stream)
    simt.from_dlpack(buf).set(np.ascontiguousarray(host).view(np.int8).ravel())
    return buf


def from_buffer(buf, dtype):
    """The Buffer's bytes as a NumPy array of `dtype`."""
    return simt.from_dlpack(buf).get().view(dtype)
