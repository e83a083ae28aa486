"""cupy.cuda.driver's commonly used names on simt: the error a failing driver call raises
(CUDADriverError, simt's CUDAError), the CUDA version simt builds kernels with, and the current
context. simt has no context of its own on the cpu backend: ctxGetCurrent() is 0 there, as the
driver answers where no context is current."""
from .. import _simt

CUDADriverError = _simt.CUDAError


def _driver():
    from ..bindings import driver
    return driver


def _check(result):
    code = int(result[0])
    if code:
        err, name = _driver().cuGetErrorName(code)
        err, text = _driver().cuGetErrorString(code)
        exc = CUDADriverError(f"{name.decode()}: {text.decode()}")
        exc.code, exc.name = code, name.decode()
        raise exc
    return result[1:]


def get_build_version():
    """The CUDA version kernels are compiled with (NVRTC's, e.g. 13000); 0 without NVRTC."""
    from .runtime import runtimeGetVersion
    return runtimeGetVersion()


def ctxGetCurrent():
    """The calling thread's current CUcontext as an int (0: none, and always on the cpu backend)."""
    if _simt.backend_name() != "cuda":
        return 0
    return _check(_driver().cuCtxGetCurrent())[0]


def ctxSetCurrent(ctx):
    """Makes CUcontext `ctx` current on the calling thread (cuda backend; simt itself makes each
    device's primary context current in every call that needs it)."""
    if _simt.backend_name() != "cuda":
        raise RuntimeError("ctxSetCurrent: the cpu backend has no CUDA contexts")
    _check(_driver().cuCtxSetCurrent(int(ctx)))


__all__ = ["CUDADriverError", "ctxGetCurrent", "ctxSetCurrent", "get_build_version"]
