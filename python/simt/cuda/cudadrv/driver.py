"""numba.cuda.cudadrv.driver: the errors a failing CUDA call raises (simt's CUDAError)."""
from ... import _simt
from .._device import Device

CudaAPIError = CudaDriverError = _simt.CUDAError
LinkerError = _simt.CompilerError

__all__ = ["CudaAPIError", "CudaDriverError", "Device", "LinkerError"]
