"""cupyx on simt: CuPy's extension namespace (what `import cupyx` gives under simt.compat).
Scatter updates (unbuffered, like ufunc.at), rsqrt, NumPy arrays in pinned host memory,
cupyx.profiler (benchmark, time_range, profile) and cupyx.scipy.special's elementwise functions.
Other cupyx modules (cupyx.scipy.ndimage, .sparse, .signal, cupyx.jit) are not provided: importing
them raises ModuleNotFoundError naming the module."""
from ._pinned import empty_like_pinned, empty_pinned, zeros_like_pinned, zeros_pinned
from ._scatter import rsqrt, scatter_add, scatter_max, scatter_min
from . import profiler, scipy  # noqa: F401  (submodules, as in cupyx)

__all__ = ["empty_like_pinned", "empty_pinned", "profiler", "rsqrt", "scatter_add", "scatter_max", "scatter_min",
           "scipy", "zeros_like_pinned", "zeros_pinned"]
