"""numba.cuda.cudadrv's names that programs import (devicearray.DeviceNDArray, driver.CudaAPIError),
so isinstance checks and except clauses written for numba work on simt's types."""
