"""The workloads, registered on import in suite order (limits first: the others cite them)."""
from . import limits, launch, small_op, compile_latency, seed, sweeps, sorting, matmul, cpu_kernels, tile  # noqa: F401
