"""compile_ptx (numba.cuda's API): PTX for a Python function and a signature, made by NVRTC from
the same CUDA C++ the cuda backend launches. Needs NVRTC, not a GPU."""
from .. import _simt


def _signature_text(sig):
    if isinstance(sig, str):
        return sig
    if isinstance(sig, (tuple, list)):
        return "(" + ", ".join(str(t) for t in sig) + ")"
    return str(sig)


def compile_ptx(pyfunc, sig, device=False, fastmath=False, cc=None, opt=True, lineinfo=False, debug=False):
    """Compile `pyfunc` for the argument types of `sig` ("void(float32[:], int64)", or a tuple
    of type names) to PTX for compute capability `cc` (default (9, 0)).

    Returns (ptx, return_type); return_type is the name of the type the function returns
    ("void" for kernels). With device=True the function is compiled as a device function and
    exported under its Python name with C linkage."""
    from ._jit import Dispatcher
    major, minor = (9, 0) if cc is None else (int(cc[0]), int(cc[1]))
    options = {"device": bool(device), "fastmath": bool(fastmath), "lineinfo": bool(lineinfo), "debug": bool(debug)}
    dispatcher = Dispatcher(pyfunc, options)
    ptx, return_type = _simt._compile_ptx(dispatcher, _signature_text(sig), bool(device), major, minor, bool(opt))
    return ptx, return_type


def compile_ptx_for_current_device(pyfunc, sig, device=False, fastmath=False, opt=True, lineinfo=False, debug=False):
    """compile_ptx for the compute capability of the current device."""
    from ._device import Device
    return compile_ptx(pyfunc, sig, device=device, fastmath=fastmath, cc=Device().compute_capability, opt=opt,
                       lineinfo=lineinfo, debug=debug)
