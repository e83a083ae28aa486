# Seed listing 2.2.2.1 (specifying a kernel), imports changed to simt.
from simt import cuda

@cuda.jit
def function(input_array, output_array):
    ...

print("Kernel defined:", function)
