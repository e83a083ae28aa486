"""simt.fft against numpy.fft on fresh random data: every transform with n/s, axes and norm,
real and complex input of both precisions, out=, the shifts and frequencies, dispatch from
numpy.fft, and the host-array guidance."""
import numpy as np
import pytest

import simt

ONE_D = ["fft", "ifft", "rfft", "ihfft"]
INVERSE_REAL = ["irfft", "hfft"]
N_D = ["fft2", "ifft2", "fftn", "ifftn", "rfft2", "rfftn"]


def _close(got, want):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    tol = 1e-4 if want.dtype in (np.complex64, np.float32) else 1e-10
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("name", ONE_D + INVERSE_REAL)
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("single", [False, True], ids=["double", "single"])
def test_one_dimensional_transforms(rng, name, norm, single):
    x = rng.standard_normal((4, 15))
    if name not in ("rfft", "ihfft"):  # (those take real input)
        x = x + 1j * rng.standard_normal((4, 15))
    if single:
        x = x.astype(np.complex64 if np.iscomplexobj(x) else np.float32)
    fn = getattr(np.fft, name)
    _close(getattr(simt.fft, name)(simt.asarray(x), norm=norm), fn(x, norm=norm))
    _close(getattr(simt.fft, name)(simt.asarray(x), 8, axis=0, norm=norm), fn(x, 8, axis=0, norm=norm))


@pytest.mark.parametrize("name", N_D + ["irfft2", "irfftn"])
def test_multi_dimensional_transforms(rng, name):
    x = rng.standard_normal((6, 5, 4))
    if not name.startswith("rfft"):  # (rfft2 and rfftn take real input)
        x = x + 1j * rng.standard_normal(x.shape)
    fn = getattr(np.fft, name)
    _close(getattr(simt.fft, name)(simt.asarray(x)), fn(x))
    _close(getattr(simt.fft, name)(simt.asarray(x), s=(4, 6), axes=(0, 2)), fn(x, s=(4, 6), axes=(0, 2)))


def test_out_shifts_frequencies_and_dispatch(rng):
    x = rng.standard_normal(16) + 1j * rng.standard_normal(16)
    out = simt.empty(16, np.complex128)
    assert simt.fft.fft(simt.asarray(x), out=out) is out
    _close(out, np.fft.fft(x))
    y = rng.standard_normal((5, 6))
    for axes in (None, 0, (1,), (0, 1)):
        _close(simt.fft.fftshift(simt.asarray(y), axes), np.fft.fftshift(y, axes))
        _close(simt.fft.ifftshift(simt.asarray(y), axes), np.fft.ifftshift(y, axes))
    _close(simt.fft.fftfreq(9, 0.1), np.fft.fftfreq(9, 0.1))
    _close(simt.fft.rfftfreq(10, 2.0), np.fft.rfftfreq(10, 2.0))
    got = np.fft.rfft(simt.asarray(y))  # numpy.fft on a simt array runs simt.fft
    assert isinstance(got, simt.ndarray)
    _close(got, np.fft.rfft(y))
    with pytest.raises(TypeError, match="host memory"):
        simt.fft.fft(x)


def test_out_is_checked_as_numpy_checks_it(rng):
    x = simt.asarray(rng.standard_normal(4))
    with pytest.raises(TypeError, match="cannot cast"):
        simt.fft.fft(x, out=simt.empty(4))
    with pytest.raises(ValueError, match="shape"):
        simt.fft.fft(x, out=simt.empty((2, 4), np.complex128))
