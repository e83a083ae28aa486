# Seed listing 2.2.3.1 (instantiating arrays on the GPU), imports changed to simt, with the
# listing's two slips fixed: cp.rand.random -> cp.random.random, zeros_like(A) -> zeros_like(A_device).
import simt as cp
import numpy as np

## create a matrix of zeros on the GPU
## when a datatype is not specified, float32 is used by default
A_device = cp.zeros((1024, 1024))

## create an array of 2^20 random doubles on the GPU
B_device = cp.random.random((2**20), dtype=np.double)

## create an array of zeroes with the same shape and datatype as an existing array
C_device = cp.zeros_like(A_device)

print(A_device.shape, A_device.dtype, B_device.shape, B_device.dtype, C_device.shape, C_device.dtype)
