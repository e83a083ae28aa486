"""cupy.cuda.compiler's exception: CompileException is simt's CompilerError itself (raised when
NVRTC or the cpu backend's host compiler rejects RawKernel, RawModule, ElementwiseKernel or
simt.core.Program source), so `except CompileException` and `except simt.cuda.CompilerError`
catch the same errors. The compiler's log is the message; CuPy's get_message()/dump() are not
provided."""
from .. import _simt

CompileException = _simt.CompilerError
