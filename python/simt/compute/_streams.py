"""The `stream=` argument of simt.compute (and simt.cuda.tile.launch): a simt stream, an object
with __cuda_stream__ (or a CuPy or PyTorch stream, which give their handle as .ptr and
.cuda_stream), or None (the current stream); the algorithm's allocations and launches go to it."""
import contextlib

from .. import _simt


def resolve(stream, where):
    """The simt Stream for `stream` (None: the current one)."""
    if stream is None:
        return None
    if isinstance(stream, _simt.Stream):
        return stream
    if hasattr(stream, "_simt_stream"):
        return resolve(stream._simt_stream, where)
    proto = getattr(stream, "__cuda_stream__", None)
    if proto is None:
        handle = getattr(stream, "ptr", getattr(stream, "cuda_stream", None))  # CuPy's, PyTorch's
        if not isinstance(handle, int):
            raise TypeError(f"{where}: stream must be a simt.cuda.Stream, an object with __cuda_stream__, or None, "
                            f"not {type(stream).__name__}")
        proto = (0, handle)
    info = proto() if callable(proto) else proto
    try:
        version, handle = info
        handle = int(handle)
    except (TypeError, ValueError):
        raise TypeError(f"{where}: stream.__cuda_stream__ must give (version, handle), got {info!r}") from None
    from ..cuda import Stream, default_stream
    if handle == 0:
        return default_stream()
    if _simt.backend_name() != "cuda":
        raise TypeError(f"{where}: a CUDA stream (handle {handle:#x}) cannot order work on the {_simt.backend_name()} "
                        "backend; pass a simt.cuda.Stream or None")
    return Stream(external=handle)


class _Current:
    """Makes a stream current while the with-body runs."""
    __slots__ = ("stream",)

    def __init__(self, stream):
        self.stream = stream

    def __enter__(self):
        _simt._push_stream(self.stream)

    def __exit__(self, *exc):
        _simt._pop_stream()


_UNCHANGED = contextlib.nullcontext()  # (reusable: it holds nothing)


def on_stream(stream, where):
    """A context in which `stream` is current (allocations and launches are ordered on it); None
    leaves the current stream as it is."""
    s = resolve(stream, where)
    return _UNCHANGED if s is None else _Current(s)
