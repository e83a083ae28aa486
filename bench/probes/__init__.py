"""Scripts the suite runs in fresh processes (compile latency, numba's CUDA simulator)."""
