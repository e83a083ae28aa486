"""simt.random's other distributions (NumPy's and CuPy's names): gamma and its relatives, Poisson,
binomial, negative binomial, geometric, hypergeometric, Zipf, von Mises, noncentral chi-square,
and the inverse-transform ones. Each call is one generated kernel, one thread per variate,
calling the distribution's sampler (a device function of python/simt/_random_samplers.py) with
the variate's parameters, which may be arrays broadcast as NumPy broadcasts them. The
generator's counter advances by one per variate."""

import numpy as np

from . import _kernelgen as kg
from . import _random_samplers as samplers
from . import _simt
from ._random_state import state_lock

_KEY_SALT = 0x5D6A1C3E9B07F4A1  # keys these streams apart from the builtin uniform/normal fills


class _Spec:
    """A distribution: its parameter names, its NumPy check of them, its result kind, NumPy's
    defaults of the parameters that have one (the others are required)."""

    def __init__(self, params, checks, integer=False, defaults=None):
        self.params, self.checks, self.integer, self.defaults = params, checks, integer, defaults or {}


# NaN parameters pass these (the variates are NaN, as NumPy's are); only definite violations fail.
def _ge0(x):
    return ~(x < 0)


def _gt0(x):
    return ~(x <= 0)


def _prob(x):
    return (x >= 0) & (x <= 1)


# name -> parameters, {parameter: (test every value must pass, NumPy's message)}, integer result, defaults
_SPECS = {
    "standard_gamma": _Spec(("shape",), {"shape": (_ge0, "shape < 0")}),
    "gamma": _Spec(("shape", "scale"), {"shape": (_ge0, "shape < 0"), "scale": (_ge0, "scale < 0")},
                   defaults={"scale": 1.0}),
    "beta": _Spec(("a", "b"), {"a": (_gt0, "a <= 0"), "b": (_gt0, "b <= 0")}),
    "chisquare": _Spec(("df",), {"df": (_gt0, "df <= 0")}),
    "standard_t": _Spec(("df",), {"df": (_gt0, "df <= 0")}),
    "f": _Spec(("dfnum", "dfden"), {"dfnum": (_gt0, "dfnum <= 0"), "dfden": (_gt0, "dfden <= 0")}),
    "lognormal": _Spec(("mean", "sigma"), {"sigma": (_ge0, "sigma < 0")}, defaults={"mean": 0.0, "sigma": 1.0}),
    "laplace": _Spec(("loc", "scale"), {"scale": (_ge0, "scale < 0")}, defaults={"loc": 0.0, "scale": 1.0}),
    "logistic": _Spec(("loc", "scale"), {"scale": (_ge0, "scale < 0")}, defaults={"loc": 0.0, "scale": 1.0}),
    "gumbel": _Spec(("loc", "scale"), {"scale": (_ge0, "scale < 0")}, defaults={"loc": 0.0, "scale": 1.0}),
    "rayleigh": _Spec(("scale",), {"scale": (_ge0, "scale < 0")}, defaults={"scale": 1.0}),
    "weibull": _Spec(("a",), {"a": (_ge0, "a < 0")}),
    "pareto": _Spec(("a",), {"a": (_gt0, "a <= 0")}),
    "power": _Spec(("a",), {"a": (_gt0, "a <= 0")}),
    "standard_cauchy": _Spec((), {}),
    "triangular": _Spec(("left", "mode", "right"), {}),
    "wald": _Spec(("mean", "scale"), {"mean": (_gt0, "mean <= 0"), "scale": (_gt0, "scale <= 0")}),
    "poisson": _Spec(("lam",), {"lam": (lambda x: (x >= 0) & (x <= 9.2e18), "lam < 0, lam is too large or lam is NaN")},
                     integer=True, defaults={"lam": 1.0}),
    "binomial": _Spec(("n", "p"), {"n": (lambda x: x >= 0, "n < 0 or n is NaN"),
                                   "p": (_prob, "p < 0, p > 1 or p is NaN")}, integer=True),
    "negative_binomial": _Spec(("n", "p"), {"n": (_gt0, "n <= 0"),
                                            "p": (lambda x: (x > 0) & (x <= 1), "p <= 0, p > 1 or p is NaN")},
                               integer=True),
    "geometric": _Spec(("p",), {"p": (lambda x: (x > 0) & (x <= 1), "p <= 0, p > 1 or p is NaN")}, integer=True),
    "vonmises": _Spec(("mu", "kappa"), {"kappa": (_ge0, "kappa < 0")}),
    "zipf": _Spec(("a",), {"a": (lambda x: x > 1, "a <= 1 or a is NaN")}, integer=True),
    "noncentral_chisquare": _Spec(("df", "nonc"), {"df": (_gt0, "df <= 0"), "nonc": (_ge0, "nonc < 0")}),
    "hypergeometric": _Spec(("ngood", "nbad", "nsample"),
                            {"ngood": (lambda x: x >= 0, "ngood < 0"), "nbad": (lambda x: x >= 0, "nbad < 0"),
                             "nsample": (lambda x: x >= 1, "nsample < 1 or nsample is NaN")}, integer=True),
}


def _kernel(name, array_params):
    """The kernel drawing `name`'s variates; array_params[i]: parameter i is an array (indexed per
    variate) rather than one scalar."""
    params = [f"p{i}" for i in range(len(array_params))]
    args = [f"{p}[i]" if is_array else p for p, is_array in zip(params, array_params)]
    source = "\n".join([
        f"def simt_random_{name}(out, {''.join(p + ', ' for p in params)}n, k0, k1, base):",
        "    i = cuda.grid(1)",
        "    if i < n:",
        "        e = np.uint64(base) + np.uint64(i)",
        f"        out[i] = _s({''.join(a + ', ' for a in args)}np.uint64(k0), np.uint64(k1), e)"]) + "\n"
    key = ("random", name, source)
    k = kg._dispatchers.get(key)
    if k is None:
        sampler = getattr(samplers, "s_" + name)

        def resolve(ident):
            return ("device", sampler) if ident == "_s" else kg._resolve(ident)
        k = kg._dispatchers[key] = _simt.Dispatcher(f"simt_random_{name}", source, f"<simt random {name}>", 1, 0,
                                                    resolve, {"boundscheck": False})
    return k


def _parameter(value, name, where):
    """(float, None) for a scalar parameter, (None, float64 device array) for an array."""
    from ._creation import asarray
    from ._ndarray import ndarray
    if isinstance(value, ndarray):
        if value.dtype.kind not in "biuf":
            raise TypeError(f"{where}: {name} must be real numbers, not an array of {value.dtype}")
        return None, value.astype(np.float64, copy=False)
    if np.ndim(value) == 0 and not hasattr(value, "__cuda_array_interface__"):
        if np.iscomplexobj(value):
            raise TypeError(f"{where}: {name} must be real, not {value!r}")
        return float(value), None
    a = np.asarray(value)
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{where}: {name} must be real numbers, not an array of {a.dtype}")
    return None, asarray(a.astype(np.float64))


def draw(name, values, size, dtype=None):
    """Variates of distribution `name` with parameters `values` (in the order of its spec)."""
    from ._creation import empty
    from ._manipulation import broadcast_to
    spec = _SPECS[name]
    scalars, arrays = [], []
    for pname, value in zip(spec.params, values):
        s, a = _parameter(value, pname, name)
        test = spec.checks.get(pname)
        if test is not None:
            check, message = test
            ok = bool(check(np.float64(s))) if a is None else bool(check(a).all())
            if not ok:
                raise ValueError(f"{name}: {message}")
        scalars.append(s)
        arrays.append(a)
    if name == "triangular":
        _check_triangular(scalars, arrays)
    if name == "hypergeometric":
        _check_hypergeometric(scalars, arrays)
    from .random import broadcast_parameters
    fits = broadcast_parameters(name, dict(zip(spec.params, arrays)), size)
    out_dt = np.dtype(np.int64) if spec.integer else np.dtype(np.float64)
    out = empty(fits, out_dt)
    n = out.size
    with state_lock:
        seed, base = _simt.random_reserve(n)
    if n:
        key = (seed ^ _KEY_SALT) & 0xFFFFFFFFFFFFFFFF
        args = [s if a is None else kg.flat(broadcast_to(a, fits).copy()) for s, a in zip(scalars, arrays)]
        k = _kernel(name, tuple(a is not None for a in arrays))
        kg.launch_1d(k, n, kg.flat(out), *args, n, key & 0xFFFFFFFF, key >> 32, np.uint64(base))
    if dtype is not None and np.dtype(dtype) != out_dt:
        out = out.astype(dtype)
    return out


def _check_triangular(scalars, arrays):
    from ._creation import asarray
    left, mode, right = (asarray(np.float64(s)) if a is None else a for s, a in zip(scalars, arrays))
    if bool((left > mode).any()):
        raise ValueError("triangular: left > mode")
    if bool((mode > right).any()):
        raise ValueError("triangular: mode > right")
    if bool((left == right).any()):
        raise ValueError("triangular: left == right")


def _check_hypergeometric(scalars, arrays):
    from ._creation import asarray
    from ._ufuncs import floor
    good, bad, n = (asarray(np.float64(s)) if a is None else a for s, a in zip(scalars, arrays))
    if bool((floor(good) + floor(bad) < floor(n)).any()):  # (NumPy's parameters are integers)
        raise ValueError("hypergeometric: ngood + nbad < nsample")


def _public(name, doc):
    """simt.random.<name>(params..., size=None, dtype=None) with NumPy's parameter defaults."""
    spec = _SPECS[name]
    params = spec.params

    def sample(*args, size=None, dtype=None, **kwargs):
        values = [spec.defaults.get(p, _REQUIRED) for p in params]
        if len(args) > len(params) + 1:
            raise TypeError(f"{name}() takes at most {len(params) + 1} positional arguments")
        if len(args) == len(params) + 1:  # NumPy's positional size
            size = args[-1]
            args = args[:-1]
        values[:len(args)] = args
        for key, value in kwargs.items():
            if key not in params:
                raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
            values[params.index(key)] = value
        if any(v is _REQUIRED for v in values):
            missing = [p for p, v in zip(params, values) if v is _REQUIRED]
            raise TypeError(f"{name}() missing required argument(s): {', '.join(missing)}")
        return draw(name, values, size, dtype)
    sample.__name__ = sample.__qualname__ = name
    sample.__doc__ = doc
    return sample


_REQUIRED = object()
NAMES = tuple(_SPECS)
FUNCTIONS = {name: _public(name, f"Variates of the {name.replace('_', ' ')} distribution "
                           f"(NumPy's parameters {', '.join(_SPECS[name].params) or 'none'}; arrays broadcast). "
                           f"{'int64' if _SPECS[name].integer else 'float64'} unless dtype= says otherwise.")
             for name in NAMES}
