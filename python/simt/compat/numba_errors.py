"""numba.core.errors under simt.compat: the warnings programs filter and the errors they catch,
as simt's own (a TypingError from a kernel is simt.cuda.TypingError)."""
from .. import _simt


class NumbaWarning(Warning):
    """numba's warning base class (simt issues none of numba's warnings)."""


class NumbaPerformanceWarning(NumbaWarning):
    pass


class NumbaDeprecationWarning(NumbaWarning, DeprecationWarning):
    pass


class NumbaPendingDeprecationWarning(NumbaWarning, PendingDeprecationWarning):
    pass


NumbaError = _simt.CompileError
TypingError = _simt.TypingError
UnsupportedError = _simt.UnsupportedError
LoweringError = _simt.CompilerError
