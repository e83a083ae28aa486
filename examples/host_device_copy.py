# Seed listing 2.2.3.2 (copying arrays between host and GPU memory), imports changed to simt,
# with the listing's slip cp.rand.random fixed to cp.random.random.
import simt as cp
import numpy as np

## Create an array in host memory
A_host = np.zeros((1024, 1024))
## Copy the array to the GPU
A_device = cp.array(A_host)

## Create an array in GPU memory
B_device = cp.random.random((1024, 1024))
## copy the array to host memory
B_host = cp.asnumpy(B_device)

print(type(A_device).__name__, A_device.shape, type(B_host).__name__, B_host.shape)
