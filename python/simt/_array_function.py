"""NumPy's __array_function__ protocol for simt arrays: np.sum(d), np.mean(d, axis=0),
np.concatenate([d, e]) ... run simt's function of the same name (looked up when called, so
functions other modules add later are found), and stay on the device."""
import numpy as np


def simt_function(func):
    """simt's counterpart of NumPy function `func` (np.linalg.x → simt.linalg.x), or None."""
    import simt
    module = getattr(func, "__module__", None) or ""
    if module != "numpy" and not module.startswith("numpy."):
        return None
    target = simt
    for part in module.split(".")[1:]:
        if part.startswith("_"):  # numpy._core.* implementation modules: public name is top-level
            target = simt
            break
        target = getattr(target, part, None)
        if target is None:
            return None
    fn = getattr(target, func.__name__, None)  # (np.shape, np.result_type ...: simt/_dtype_queries.py)
    if fn is None or isinstance(fn, type) or not callable(fn) or fn is func:
        return None
    return fn


def array_function(self, func, types, args, kwargs):
    from ._ndarray import ndarray
    for t in types:
        if not (issubclass(t, ndarray) or issubclass(t, np.ndarray)):
            return NotImplemented
    fn = simt_function(func)
    if fn is None:
        return NotImplemented
    return fn(*args, **kwargs)


def _attach_methods(ndarray):
    ndarray.__array_function__ = array_function
