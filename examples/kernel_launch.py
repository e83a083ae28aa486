# Seed listing 2.2.2.2.1 (launching a kernel), imports changed to simt. The listing leaves the
# arrays and sizes to the reader; they are defined here so it runs.
import simt
from simt import cuda

@cuda.jit
def my_kernel(input, output):
    ...

num_thread_blocks, threads_per_block = 4, 128
in_array = simt.zeros(num_thread_blocks * threads_per_block)
out_array = simt.zeros_like(in_array)

## launch the kernel
my_kernel[num_thread_blocks, threads_per_block](in_array, out_array)

cuda.synchronize()
print("Kernel launched with", num_thread_blocks, "blocks of", threads_per_block, "threads")
