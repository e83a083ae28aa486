"""simt.cuda.coop: cuda.coop's cooperative primitives (block- and warp-wide reduce, sum, scans,
load/store, sorts), made on the host by factories and called inside @cuda.jit kernels. Each is
generated kernel-language source compiled with the kernel, so it runs on both backends. Under
`python -m simt.compat`, `cuda.coop` and `cuda.cooperative.experimental` are this module."""
from . import block, warp

__all__ = ["block", "warp"]
