"""Zero-copy exchange with other array libraries: __cuda_array_interface__ (v3) and DLPack, in
both directions.

How each backend presents its arrays:
- cuda backend: simt arrays are CUDA device memory. They export __cuda_array_interface__ (with
  the v3 `stream` field) and DLPack device (kDLCUDA, device id). CuPy arrays, PyTorch CUDA
  tensors and numba device arrays are accepted as kernel arguments and by simt.asarray /
  simt.from_dlpack without a copy, after ordering simt's current stream behind the producer's.
- cpu backend: the "device" is the host, so simt arrays export DLPack device (kDLCPU, 0) and no
  __cuda_array_interface__ (they are not GPU memory; hasattr() is False). Another library's
  tensors on that same device (a PyTorch CPU tensor, say) are accepted without a copy by
  kernels, simt.asarray and simt.from_dlpack; exporting waits for queued simt work first, as
  the consumer reads at once. CUDA memory (anything exposing __cuda_array_interface__ or a CUDA
  DLPack device) is refused with a TypeError that says how to copy it.
- On both: a NumPy array stays a host array. It is never a kernel argument and
  np.asarray(simt_array) raises; only the explicit calls np.from_dlpack(simt_array) (cpu
  backend) and simt.from_dlpack(numpy_array) (cpu backend) share memory, as DLPack intends.
"""
import numpy as np

from . import _simt

_KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST, _KDL_CUDA_MANAGED = 1, 2, 3, 13
_DEVICE_NAMES = {1: "CPU", 2: "CUDA", 3: "CUDA pinned host", 13: "CUDA managed"}


def _backend():
    return _simt.backend_name()


def _consumer_stream():
    """The native handle of simt's current stream, as __cuda_array_interface__ spells it
    (1 = the legacy default stream)."""
    from .cuda._device import get_current_stream
    native = _simt._native_stream(get_current_stream())
    return native or 1


def _describe(obj):
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


def _is_host_numpy(obj):
    return isinstance(obj, (np.ndarray, np.generic))


def from_cuda_array_interface(obj, cai=None):
    """A simt array viewing the memory of an object exposing __cuda_array_interface__ (cuda
    backend only), after simt's current stream has been ordered behind the producer's."""
    if cai is None:
        cai = obj.__cuda_array_interface__
    if _backend() != "cuda":
        raise TypeError(f"a {_describe(obj)} is CUDA device memory (__cuda_array_interface__), which the cpu "
                        "backend cannot access: copy it to the host first (e.g. with its .get() or "
                        ".copy_to_host()) and then to simt with simt.asarray(...)")
    if cai.get("mask") is not None:
        raise NotImplementedError("masked arrays (__cuda_array_interface__ 'mask') are not supported")
    from ._dtypes import normalize
    dtype = normalize(np.dtype(cai["typestr"]))
    shape = tuple(int(n) for n in cai["shape"])
    ptr, _readonly = cai["data"]
    strides = cai.get("strides")
    stream = cai.get("stream")
    if stream is not None:
        if int(stream) == 0:
            raise ValueError("__cuda_array_interface__ 'stream' must not be 0 (v3: use 1 for the legacy default stream)")
        _simt._native_stream_wait(_consumer_stream(), int(stream))
    return _simt._foreign_array(int(ptr or 0), shape, None if strides is None else tuple(strides), dtype, obj)


def _dlpack_capsule(obj, stream):
    kwargs = {} if stream is None else {"stream": stream}
    try:
        return obj.__dlpack__(max_version=(1, 1), **kwargs)
    except TypeError:  # a producer from before DLPack 1.0 (no max_version keyword)
        return obj.__dlpack__(**kwargs)


def from_dlpack(x, *, device=None, copy=None):
    """A simt array sharing the memory of a DLPack producer (CuPy, PyTorch, JAX, numba, NumPy on
    the cpu backend) on the active backend's device; copy=True copies it."""
    from ._ndarray import ndarray
    if isinstance(x, ndarray):
        return _copy(x) if copy else x
    if type(x).__name__ == "PyCapsule":  # a DLPack capsule itself (the protocol before __dlpack__, as CuPy takes it)
        capsule = x
    elif not hasattr(x, "__dlpack__") or not hasattr(x, "__dlpack_device__"):
        raise TypeError(f"simt.from_dlpack needs an object with __dlpack__ and __dlpack_device__, or a DLPack "
                        f"capsule, not {_describe(x)}")
    else:
        capsule = _producer_capsule(x)
    array, readonly = _simt._dlpack_import(capsule)
    if readonly and copy is False:
        raise BufferError("the DLPack producer marked its tensor read-only and copy=False forbids a copy; simt arrays "
                          "are writable")
    if readonly or copy:
        array = snapshot(array)
    return array


def _producer_capsule(x):
    """The DLPack capsule of `x`, after checking that this backend can use its memory in place."""
    dev_type, dev_id = (int(v) for v in x.__dlpack_device__())
    if not _simt._dlpack_device_usable(dev_type, dev_id):
        where = _DEVICE_NAMES.get(dev_type, f"type {dev_type}")
        raise BufferError(f"the {_describe(x)} lives on DLPack device {where} (id {dev_id}), which the {_backend()} "
                          "backend cannot use without a copy: copy it with simt.asarray(...) (host data) or move it to "
                          "this device first")
    stream = _consumer_stream() if _backend() == "cuda" and dev_type != _KDL_CPU else None
    return _dlpack_capsule(x, stream)


def fromDlpack(capsule):  # noqa: N802  (CuPy's name)
    """cupy.fromDlpack: a simt array over the memory of a DLPack capsule (it is consumed), as
    from_dlpack(capsule). The capsule carries no stream: the producer's work on it must be done."""
    if type(capsule).__name__ != "PyCapsule":
        raise TypeError(f"simt.fromDlpack takes a DLPack capsule (from toDlpack() or another library's), not "
                        f"{_describe(capsule)}; use simt.from_dlpack for arrays")
    return from_dlpack(capsule)


def _to_dlpack(self):
    """cupy.ndarray.toDlpack(): a DLPack capsule ('dltensor', the unversioned form) viewing this array."""
    return _dlpack(self)


def _copy(a):
    from . import _kernelgen as kg
    from ._creation import empty
    return kg.copy_into(empty(a.shape, a.dtype), a)


def snapshot(a):
    """A copy of a view of foreign memory, complete when this returns: on the cpu backend the
    producer's own code may write that memory right after (it does not queue behind simt)."""
    c = _copy(a)
    if _backend() == "cpu":
        _simt.synchronize()
    return c


def device_view(obj):
    """A simt view of another library's array on the active backend's device, or None when
    `obj` is not one (host arrays, Python sequences, CUDA memory on the cpu backend)."""
    if getattr(obj, "_simt_span", None) is not None:  # mapped and managed host arrays (cuda/_mapped_memory.py)
        return obj._simt_device_view()
    if _is_host_numpy(obj) or isinstance(obj, (list, tuple, int, float, complex, bool)):
        return None
    if _backend() == "cuda":
        try:
            cai = obj.__cuda_array_interface__
        except AttributeError:
            cai = None
        if cai is not None:
            return from_cuda_array_interface(obj, cai)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        dev_type, dev_id = (int(v) for v in obj.__dlpack_device__())
        if _simt._dlpack_device_usable(dev_type, dev_id):
            return from_dlpack(obj)
    return None


def kernel_argument(obj, where):
    """The view a kernel gets for another library's array (registered with the C++ launch
    path); TypeError when its memory is not usable by the active backend."""
    view = device_view(obj)
    if view is not None:
        return view
    if hasattr(obj, "__cuda_array_interface__") or _backend() != "cuda" and _cuda_memory(obj):
        raise TypeError(f"{where} is a {_describe(obj)} in CUDA device memory, which the cpu backend cannot access: "
                        "copy it to the host and then to simt with simt.asarray(...)")
    raise TypeError(f"{where} is a {_describe(obj)} in host memory; copy it to the device first with "
                    "simt.asarray(x), and copy results back with .get()")


def _cuda_memory(obj):
    try:
        return int(obj.__dlpack_device__()[0]) in (_KDL_CUDA, _KDL_CUDA_MANAGED)
    except Exception:  # not a DLPack producer
        return False


# ---- export: methods of simt.ndarray ------------------------------------------------------------

def _cuda_array_interface(self):
    if _backend() != "cuda":
        raise AttributeError("__cuda_array_interface__: simt arrays on the cpu backend live in host memory, not on a "
                             "GPU; exchange them with __dlpack__ (np.from_dlpack, torch.from_dlpack) or copy with .get()")
    return {
        "shape": tuple(self.shape),
        "typestr": np.dtype(self.dtype).str,
        "data": (self._ptr, False),
        "version": 3,
        "strides": None if self._c_contiguous else tuple(self.strides),
        "descr": [("", np.dtype(self.dtype).str)],
        "stream": _consumer_stream(),
    }


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    device = tuple(_simt._dlpack_device())
    if dl_device is not None and tuple(int(v) for v in dl_device) != device:
        raise BufferError(f"simt cannot export to DLPack device {tuple(dl_device)}; its arrays are on {device}")
    source = self
    copied = bool(copy)
    if copied:
        source = _copy(self)
    if _backend() == "cuda":
        if stream is None:
            stream = 1  # DLPack: no stream means the consumer uses the legacy default stream
        if stream != -1:  # -1: the consumer asks for no synchronization
            if stream == 0:
                raise ValueError("__dlpack__: stream 0 is ambiguous; pass 1 for the legacy default stream")
            ours = _consumer_stream()
            if int(stream) != ours:
                _simt._native_stream_wait(int(stream), ours)
    else:
        _simt.synchronize()  # the host consumer reads the memory as soon as it has it
    versioned = max_version is not None and int(max_version[0]) >= 1
    return _simt._dlpack_export(source, versioned, copied)


def _dlpack_device(self):
    return tuple(_simt._dlpack_device())


def _attach_methods(ndarray):
    ndarray.__cuda_array_interface__ = property(_cuda_array_interface)
    ndarray.__dlpack__ = _dlpack
    ndarray.__dlpack_device__ = _dlpack_device
    ndarray.toDlpack = _to_dlpack
    _simt._set_foreign_argument_hook(kernel_argument)
