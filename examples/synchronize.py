# Seed listing 2.2.4 (synchronizing CPU and GPU), imports changed to simt. The listing's `..`
# stands for queued GPU work; a kernel launch stands in for it here.
import simt as cp
from simt import cuda

@cuda.jit
def scale(x, factor):
    i = cuda.grid(1)
    x[i] = x[i] * factor

x = cp.ones(1 << 20)
scale[(x.size + 255) // 256, 256](x, 2.0)

## Wait on host thread for all pending GPU work to complete
## this uses the interface provided by cupy
cp.synchronize()

## Wait on host thread for all pending GPU work to complete
## this uses the interface provided by numba.cuda
cuda.synchronize()

print("Synchronized; x[0] =", float(x.get()[0]))
