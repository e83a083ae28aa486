"""cupyx.scipy.special on simt: SciPy's elementwise special functions that simt's kernel math
covers, each a ufunc made by simt.vectorize (float32 and float64 loops, chosen as NumPy resolves
SciPy's: float32 and the integers that fit it (int8, int16, uint8, uint16) compute in float32,
wider integers and float64 in float64). Computed with the device's
libm (CUDA's on the GPU, the C library's on the cpu backend), so results agree with SciPy to a
few units in the last place, not bit for bit."""
import math

from ..._fusion import vectorize

_UNARY = ["float32(float32)", "float64(float64)"]
_BINARY = ["float32(float32, float32)", "float64(float64, float64)"]


@vectorize(_UNARY)
def erf(x):
    return math.erf(x)


@vectorize(_UNARY)
def erfc(x):
    return math.erfc(x)


@vectorize(_UNARY)
def gamma(x):
    return math.gamma(x)


@vectorize(_UNARY)
def gammaln(x):
    """log|Γ(x)|."""
    return math.lgamma(x)


@vectorize(_UNARY)
def rgamma(x):
    """1/Γ(x): 0 at the poles (x = 0, -1, -2, ...)."""
    if x <= 0 and math.floor(x) == x:
        return math.fabs(x) * 0
    return 1 / math.gamma(x)


@vectorize(_UNARY)
def expit(x):
    """The logistic sigmoid 1 / (1 + exp(-x)), without overflow for large |x|."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


@vectorize(_UNARY)
def log_expit(x):
    """log(expit(x)) = -log1p(exp(-x)), accurate for large |x|."""
    if x >= 0:
        return -math.log1p(math.exp(-x))
    return x - math.log1p(math.exp(x))


@vectorize(_UNARY)
def logit(p):
    """log(p / (1 - p)): -inf at 0, inf at 1, nan outside [0, 1]."""
    return math.log(p / (1 - p))


@vectorize(_UNARY)
def ndtr(x):
    """The standard normal distribution's CDF."""
    return 0.5 * math.erfc(-x * 0.7071067811865476)


@vectorize(_UNARY)
def entr(x):
    """-x log x for x > 0, 0 at 0, -inf below (nan stays nan)."""
    if x > 0:
        return -x * math.log(x)
    if x == 0:
        return x * 0
    if x < 0:
        return -math.inf
    return x


@vectorize(_UNARY)
def exp2(x):
    return math.pow(2.0, x)


@vectorize(_UNARY)
def exp10(x):
    return math.pow(10.0, x)


@vectorize(_UNARY)
def expm1(x):
    return math.expm1(x)


@vectorize(_UNARY)
def log1p(x):
    return math.log1p(x)


@vectorize(_UNARY)
def cbrt(x):
    return math.copysign(math.pow(math.fabs(x), 1.0 / 3.0), x)


@vectorize(_BINARY)
def xlogy(x, y):
    """x * log(y), 0 where x is 0 (unless y is nan)."""
    if x == 0 and y == y:
        return x * 0
    return x * math.log(y)


@vectorize(_BINARY)
def xlog1py(x, y):
    """x * log1p(y), 0 where x is 0 (unless y is nan)."""
    if x == 0 and y == y:
        return x * 0
    return x * math.log1p(y)


__all__ = ["cbrt", "entr", "erf", "erfc", "exp10", "exp2", "expit", "expm1", "gamma", "gammaln", "log1p", "log_expit",
           "logit", "ndtr", "rgamma", "xlog1py", "xlogy"]
