"""cupy.cuda.nvtx on simt: NVTX marks and nested ranges, which profilers such as Nsight Systems
show on the host's timeline (on both backends: they annotate host code).

They go to the `nvtx` Python package when it is installed, else to an NVTX library found by the
system's loader or in NVIDIA's wheels: libnvToolsExt (CUDA 11 and older, nvidia-nvtx-cu11) or
libnvtx3interop (newer toolkits, nvidia-nvtx-cu12, nvidia-nvtx), looked up once. NVTX is
otherwise C headers, which simt (built without CUDA) does not compile in: where none of these is
found, `available` is False and every call here does nothing, so a profiler attached then shows
no simt ranges. Colors (CuPy's color ids, or ARGB values) are passed on to either."""
import contextlib
import ctypes
import functools
import os
import sys

_emitter = None  # ('package', module) or ('library', CDLL) or ('none', None): decided on first use


_LIBRARIES = ("libnvToolsExt.so.1", "libnvtx3interop.so.1")  # (NVTX 2's library; NVTX 3's compiled for interop)


def _library_candidates():
    yield from _LIBRARIES
    for root in sys.path:  # NVIDIA's wheels: nvidia/nvtx/lib (nvidia-nvtx-cu11/cu12), nvidia/cu13/lib (nvidia-nvtx 13)
        for folder in (("nvidia", "nvtx", "lib"), ("nvidia", "cu13", "lib")):
            for name in _LIBRARIES:
                yield os.path.join(root, *folder, name)
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            for name in _LIBRARIES:
                yield os.path.join(os.environ[var], "lib64", name)


class _EventAttributes(ctypes.Structure):
    """NVTX's nvtxEventAttributes_t (48 bytes, the same in NVTX 2 and 3): a message and an ARGB color."""
    _fields_ = [("version", ctypes.c_uint16), ("size", ctypes.c_uint16), ("category", ctypes.c_uint32),
                ("colorType", ctypes.c_int32), ("color", ctypes.c_uint32), ("payloadType", ctypes.c_int32),
                ("reserved0", ctypes.c_int32), ("payload", ctypes.c_uint64), ("messageType", ctypes.c_int32),
                ("message", ctypes.c_char_p)]


def _attributes(lib, message, color):
    return _EventAttributes(version=lib.simt_nvtx_version, size=ctypes.sizeof(_EventAttributes), colorType=1,
                            color=color, messageType=1, message=message.encode())  # (ARGB color, ASCII message)


def _find_emitter():
    try:
        import nvtx as package
        if hasattr(package, "push_range") and hasattr(package, "pop_range"):
            return "package", package
    except ImportError:
        pass
    for candidate in _library_candidates():
        try:
            lib = ctypes.CDLL(candidate)
        except OSError:
            continue
        lib.nvtxRangePushA.argtypes = lib.nvtxMarkA.argtypes = [ctypes.c_char_p]
        lib.nvtxRangePushEx.argtypes = lib.nvtxMarkEx.argtypes = [ctypes.POINTER(_EventAttributes)]
        lib.nvtxRangePushA.restype = lib.nvtxRangePushEx.restype = lib.nvtxRangePop.restype = ctypes.c_int
        lib.simt_nvtx_version = 2 if "ToolsExt" in candidate else 3  # (the NVTX version the library implements)
        return "library", lib
    return "none", None


def _get():
    global _emitter
    if _emitter is None:
        _emitter = _find_emitter()
    return _emitter


def __getattr__(name):
    if name == "available":  # (computed on first access: the lookup imports and opens libraries)
        return _get()[0] != "none"
    raise AttributeError(f"module 'simt.cuda.nvtx' has no attribute {name!r}")


def _text(message):
    if not isinstance(message, str):
        raise TypeError(f"an NVTX message must be a str, not {type(message).__name__}")
    return message


_COLORS = (0xFF76B900, 0xFF0071C5, 0xFFFFC300, 0xFFC70039, 0xFF900C3F, 0xFF581845, 0xFF2ECC71, 0xFF3498DB)


def _argb(id_color=-1, argb=None):
    """The ARGB color of CuPy's color id (an index into a fixed palette) or an explicit one."""
    if argb is not None:
        return int(argb) & 0xFFFFFFFF
    return None if id_color is None or id_color < 0 else _COLORS[int(id_color) % len(_COLORS)]


def _colored(color):
    return {} if color is None else {"color": color}


def _emit(package_call, library_call, message, color):
    """One NVTX event (package_call: the nvtx package's push_range or mark; library_call: the C
    API's name without its A/Ex suffix)."""
    kind, emitter = _get()
    if kind == "package":
        getattr(emitter, package_call)(message=message, **_colored(color))
    elif kind == "library" and color is None:
        getattr(emitter, library_call + "A")(message.encode())
    elif kind == "library":
        getattr(emitter, library_call + "Ex")(ctypes.byref(_attributes(emitter, message, color)))


def _push(message, color):
    _emit("push_range", "nvtxRangePush", message, color)


def _mark(message, color):
    _emit("mark", "nvtxMark", message, color)


def Mark(message, id_color=-1):
    """An instantaneous marker named `message`."""
    _mark(_text(message), _argb(id_color))


def MarkC(message, color=0):
    """Mark with an ARGB color."""
    _mark(_text(message), _argb(argb=color))


def RangePush(message, id_color=-1):
    """Starts a nested range named `message` (ended by RangePop)."""
    _push(_text(message), _argb(id_color))


def RangePushC(message, color=0):
    """RangePush with an ARGB color."""
    _push(_text(message), _argb(argb=color))


def RangePop():
    """Ends the innermost range RangePush started."""
    kind, emitter = _get()
    if kind == "package":
        emitter.pop_range()
    elif kind == "library":
        emitter.nvtxRangePop()


class time_range(contextlib.ContextDecorator):
    """A range around a with-block or around each call of a decorated function (as
    cupyx.profiler.time_range): time_range('name', color_id=0) or argb_color=0xFF00FF00; as a
    decorator without a message the function's name is used."""

    def __init__(self, message=None, color_id=None, argb_color=None, *, sync=False):
        if message is not None:
            _text(message)
        self.message, self.color = message, _argb(-1 if color_id is None else color_id, argb_color)
        self.sync = sync

    def __call__(self, func):
        if self.message is None:
            self.message = func.__name__
        return functools.wraps(func)(super().__call__(func))

    def __enter__(self):
        if self.message is None:
            raise ValueError("time_range needs a message when used as a context manager")
        if self.sync:
            from ._device import synchronize
            synchronize()
        _push(self.message, self.color)
        return self

    def __exit__(self, *exc):
        if self.sync:
            from ._device import synchronize
            synchronize()
        RangePop()
        return False
