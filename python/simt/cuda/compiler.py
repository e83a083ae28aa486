"""cupy.cuda.compiler's exception: CompileException is simt's CompilerError itself (raised when
NVRTC or the cpu backend's host compiler rejects RawKernel, RawModule, ElementwiseKernel or
simt.core.Program source), so `except CompileException` and `except simt.cuda.CompilerError`
catch the same errors. The compiler's log is the message: get_message() returns it and dump(f)
writes it to a file (CuPy's dump also writes the source, which simt's error does not carry)."""
from .. import _simt

CompileException = _simt.CompilerError


def _get_message(self):
    """The compiler's log (CuPy's CompileException.get_message)."""
    return str(self)


def _dump(self, f):
    """Writes the compiler's log to the file object f."""
    f.write(str(self))
    if not str(self).endswith("\n"):
        f.write("\n")


CompileException.get_message = _get_message
CompileException.dump = _dump
