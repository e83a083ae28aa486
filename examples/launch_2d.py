# Seed listing 2.2.2.2.2 (multidimensional grids and blocks), imports changed to simt. The
# listing's kernel body is `...`; sizes and arrays are defined here so it runs.
import simt
from simt import cuda

@cuda.jit
def function(input, output):
    ...

gridX, gridY = 8, 4
blockX, blockY = 16, 16
in_array = simt.zeros((gridY * blockY, gridX * blockX))
out_array = simt.zeros_like(in_array)

## launch the kernel
function[(gridX, gridY), (blockX, blockY)](in_array, out_array)

cuda.synchronize()
print("2-D launch of", (gridX, gridY), "blocks of", (blockX, blockY), "threads")
