"""simt.fft: numpy.fft's and cupy.fft's functions on simt arrays (same arguments, same result
dtypes as the installed NumPy). The transforms run NumPy's FFT on the host: on the cpu backend
over the arrays' own memory, on the cuda backend through a copy to the host and back (cuFFT is
not used yet). fftshift and ifftshift are simt's own rolls; fftfreq and rfftfreq are made on the
host and copied to the device."""
import functools

import numpy as np

from .._host_numpy import host_results
from .._reduce_passes import finish
from . import config  # noqa: F401  (cupy.fft.config: plan-cache settings; simt.fft makes no plans)

_TRANSFORMS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
               "rfftn", "irfftn")


def _transform(name):
    fn = getattr(np.fft, name)

    @functools.wraps(fn)
    def call(a, *args, out=None, **kwargs):
        result = host_results(f"fft.{name}", lambda h: fn(h, *args, **kwargs), a)
        return finish(result, out, f"fft.{name}", "same_kind")
    call.__doc__ = f"numpy.fft.{name} of a simt array (NumPy's FFT on the host; see simt.fft's notes)."
    call.__module__ = __name__
    return call


for _name in _TRANSFORMS:
    globals()[_name] = _transform(_name)
del _name


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """Sample frequencies of an n-point transform with sample spacing d."""
    from .._creation import asarray
    f = np.fft.fftfreq(n, d)
    return asarray(f if dtype is None else f.astype(dtype))


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """Sample frequencies of rfft's n-point transform with sample spacing d."""
    from .._creation import asarray
    f = np.fft.rfftfreq(n, d)
    return asarray(f if dtype is None else f.astype(dtype))


def _shift(x, axes, sign, fname):
    from .._reduce_passes import require_array
    from .._rearrange import roll
    x = require_array(x, fname)
    if x.ndim == 0:
        raise ValueError(f"{fname}: a 0-d array has no axis to shift")
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, (int, np.integer)):
        axes = (int(axes),)
    return roll(x, [sign * (x.shape[a] // 2) for a in axes], axes)


def fftshift(x, axes=None):
    """x with the zero-frequency term moved to the middle of each axis in `axes` (all by default)."""
    return _shift(x, axes, 1, "fft.fftshift")


def ifftshift(x, axes=None):
    """The inverse of fftshift."""
    return _shift(x, axes, -1, "fft.ifftshift")
