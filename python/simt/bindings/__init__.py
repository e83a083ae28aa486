"""simt.bindings: thin calls into the CUDA driver (`driver`) and NVRTC (`nvrtc`), shaped like
cuda.bindings: each call returns a tuple whose first item is the result code (a CUresult or
nvrtcResult), followed by its outputs; handles and device pointers are ints. They go through the
entry points simt's cuda backend loads (no other CUDA package needed). NVRTC needs no GPU; the
driver calls raise RuntimeError where no driver can be loaded."""
from . import driver, nvrtc  # noqa: F401
