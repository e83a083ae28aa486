"""The workloads, registered on import in suite order (limits first: the others cite them)."""
from . import limits, launch, compile_latency, seed, sweeps, matmul  # noqa: F401
