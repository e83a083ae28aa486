"""simt.poly1d: NumPy's (and CuPy's) one-variable polynomial class over simt coefficient arrays
(highest power first), and the poly* functions taking and giving poly1d objects as NumPy's do.
Arithmetic and evaluation run on the device; trimming leading zeros waits for it once."""
import numbers

import numpy as np

from ._creation import asarray, zeros
from ._manipulation import concatenate
from ._ndarray import ndarray
from . import _numpy_extras as _ex
from . import _numpy_extras4 as _ex4


def _is_scalar(x):
    return isinstance(x, (numbers.Number, np.generic))


class poly1d:  # noqa: N801 (NumPy's and CuPy's class name)
    """A polynomial from its coefficients (highest power first; leading zeros dropped), or from
    its roots when r=True. p(x) evaluates it (x an array, a number or another poly1d); +, -, *
    (with poly1d objects or numbers), ** (non-negative integers), / (by a number) make new ones."""

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable if variable is None else variable
            self._coeffs = c_or_r._coeffs
            return
        if r:
            c_or_r = _ex4.poly(c_or_r)
        c = c_or_r if isinstance(c_or_r, ndarray) else asarray(c_or_r)
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c = c.reshape(1) if c.ndim == 0 else c
        self._coeffs = _ex4._without_leading_zeros(c, "poly1d's coefficients") if c.size else zeros((1,), c.dtype)
        self._variable = "x" if variable is None else variable

    # ---- attributes ----------------------------------------------------------------------------
    @property
    def coeffs(self):
        """The coefficients, highest power first (a simt array)."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:  # (NumPy's rule: edit them in place, or make a new poly1d)
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        """The name of the variable, for printing."""
        return self._variable

    @property
    def order(self):
        """The degree."""
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self):
        """The roots (simt.roots of the coefficients)."""
        return _ex4.roots(self._coeffs)

    r = roots

    # ---- evaluation and calculus ---------------------------------------------------------------
    def __call__(self, val):
        if isinstance(val, poly1d):  # composition, by Horner's scheme over polynomials
            out = poly1d(0)
            for i in range(self._coeffs.shape[0]):
                out = out * val + poly1d(self._coeffs[i:i + 1])
            return out
        return _ex.polyval(self._coeffs, val)

    def deriv(self, m=1):
        """The m-th derivative."""
        return poly1d(_ex4.polyder(self._coeffs, m))

    def integ(self, m=1, k=0):
        """The m-th antiderivative, with integration constants k."""
        return poly1d(_ex4.polyint(self._coeffs, m=m, k=k))

    # ---- arithmetic ----------------------------------------------------------------------------
    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __add__(self, other):
        other = poly1d(other)
        return poly1d(_ex4.polyadd(self._coeffs, other._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        other = poly1d(other)
        return poly1d(_ex4.polysub(self._coeffs, other._coeffs))

    def __rsub__(self, other):
        other = poly1d(other)
        return poly1d(_ex4.polysub(other._coeffs, self._coeffs))

    def __mul__(self, other):
        if _is_scalar(other):
            return poly1d(self._coeffs * other)
        other = poly1d(other)
        return poly1d(_ex4.polymul(self._coeffs, other._coeffs))

    __rmul__ = __mul__

    def __pow__(self, val):
        if not _is_scalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        out = poly1d(asarray(np.ones(1, self._coeffs.dtype)))
        for _ in range(int(val)):
            out = out * self
        return out

    def __truediv__(self, other):
        if _is_scalar(other):
            return poly1d(self._coeffs / other)
        raise NotImplementedError("simt.poly1d: division by a polynomial (NumPy's polydiv) is not supported")

    __div__ = __truediv__

    def __rtruediv__(self, other):
        raise NotImplementedError("simt.poly1d: division by a polynomial (NumPy's polydiv) is not supported")

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool((self._coeffs == other._coeffs).all())

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    # ---- coefficients by power ---------------------------------------------------------------
    def __len__(self):
        return self.order

    def __iter__(self):
        return iter(self._coeffs)

    def __getitem__(self, power):
        """The coefficient of x**power (0 beyond the degree)."""
        if power < 0 or power > self.order:
            return asarray(np.zeros((), self._coeffs.dtype))
        return self._coeffs[self.order - power]

    def __setitem__(self, power, value):
        if power < 0:
            raise ValueError("Does not support negative powers.")
        if power > self.order:
            grow = zeros((power - self.order,), self._coeffs.dtype)
            self._coeffs = concatenate([grow, self._coeffs])
        self._coeffs[self.order - power] = value

    # ---- printing (the coefficients are copied to the host to be shown) -----------------------
    def __repr__(self):
        return f"poly1d({repr(self._coeffs.get())[6:-1]})"

    def __str__(self):
        return str(np.poly1d(self._coeffs.get(), variable=self._variable))

    def __array__(self, *args, **kwargs):
        raise TypeError("implicit conversion of a simt.poly1d to a NumPy array is not allowed: use "
                        "p.coeffs.get() to copy its coefficients to the host")


# ---- the poly* functions, taking poly1d objects as NumPy's do ---------------------------------
def _coeffs(p):
    return p.coeffs if isinstance(p, poly1d) else p


def polyadd(a1, a2):
    """The sum of two polynomials (a poly1d when either is one)."""
    out = _ex4.polyadd(_coeffs(a1), _coeffs(a2))
    return poly1d(out) if isinstance(a1, poly1d) or isinstance(a2, poly1d) else out


def polysub(a1, a2):
    """The difference of two polynomials (a poly1d when either is one)."""
    out = _ex4.polysub(_coeffs(a1), _coeffs(a2))
    return poly1d(out) if isinstance(a1, poly1d) or isinstance(a2, poly1d) else out


def polymul(a1, a2):
    """The product of two polynomials (a poly1d when either is one)."""
    out = _ex4.polymul(_coeffs(a1), _coeffs(a2))
    return poly1d(out) if isinstance(a1, poly1d) or isinstance(a2, poly1d) else out


def polyder(p, m=1):
    """The m-th derivative (a poly1d for a poly1d)."""
    out = _ex4.polyder(_coeffs(p), m)
    return poly1d(out) if isinstance(p, poly1d) else out


def polyint(p, m=1, k=None):
    """The m-th antiderivative (a poly1d for a poly1d)."""
    out = _ex4.polyint(_coeffs(p), m, k)
    return poly1d(out) if isinstance(p, poly1d) else out


def polyval(p, x):
    """p at x (p: coefficients or a poly1d; x a poly1d composes them)."""
    if isinstance(x, poly1d):
        return poly1d(_coeffs(p))(x)
    return _ex.polyval(_coeffs(p), x)


def roots(p):
    """The roots of p (coefficients or a poly1d)."""
    return _ex4.roots(_coeffs(p))
