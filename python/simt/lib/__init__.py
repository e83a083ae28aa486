"""simt.lib: CuPy's cupy.lib namespace (stride_tricks)."""
from . import stride_tricks  # noqa: F401
