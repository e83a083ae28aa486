"""cupyx.scipy on simt: only cupyx.scipy.special's elementwise functions are provided."""
from . import special  # noqa: F401
