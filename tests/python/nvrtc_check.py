"""Compiles CUDA C++ with NVRTC (loaded with ctypes) so tests without a GPU can check that the
CUDA source simt generates is valid for sm_90. None when NVRTC is not installed."""
import ctypes
import ctypes.util
import glob
import os


def _load():
    names = [ctypes.util.find_library("nvrtc")] + sorted(glob.glob("/usr/local/cuda*/lib64/libnvrtc.so*"), reverse=True)
    cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if cuda_home:
        names += glob.glob(os.path.join(cuda_home, "lib64", "libnvrtc.so*"))
    for name in names:
        if not name or "builtins" in name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return None


_lib = _load()


def available():
    return _lib is not None


def compile_cuda(source, arch="compute_90", syntax_only=True):
    """Compiles `source` (by default NVRTC's device front end only, which finds every source error
    in a fraction of a full compile's time); returns None on success, else NVRTC's log."""
    prog = ctypes.c_void_p()
    rc = _lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"simt_generated.cu", 0, None, None)
    assert rc == 0, f"nvrtcCreateProgram failed ({rc})"
    opts = [f"--gpu-architecture={arch}".encode(), b"-std=c++17"] + ([b"--fdevice-syntax-only"] if syntax_only else [])
    arr = (ctypes.c_char_p * len(opts))(*opts)
    rc = _lib.nvrtcCompileProgram(prog, len(opts), arr)
    log = None
    if rc != 0:
        size = ctypes.c_size_t()
        _lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value)
        _lib.nvrtcGetProgramLog(prog, buf)
        log = buf.value.decode(errors="replace")
    _lib.nvrtcDestroyProgram(ctypes.byref(prog))
    return log
