"""numba.cuda.cudadrv.devicearray: numba's device array types are simt's ndarray."""
from ..._ndarray import ndarray as DeviceNDArray

DeviceNDArrayBase = DeviceNDArray
MappedNDArray = DeviceNDArray
