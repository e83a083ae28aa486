"""CuPy's top-level runtime helpers: is_available, show_config, memoize and clear_memo."""
import functools
import platform
import sys
import threading

import numpy as np

from . import _simt


def is_available():
    """cupy.is_available(): True when simt's cuda backend is active, so that code which checks it
    and falls back to NumPy does so on the cpu backend; the same answer as simt.cuda.is_available()
    (numba's name for it). simt's arrays and kernels work on either backend regardless."""
    return _simt.backend_name() == "cuda"


def show_config():
    """Print simt's configuration (cupy.show_config): versions, the active backend and where the
    CUDA pieces were found (simt.pathfinder's report). Returns None."""
    from . import __version__
    from .pathfinder import format_report
    rows = (("simt Version", __version__), ("simt Backend", _simt.backend_name()),
            ("NumPy Version", np.__version__), ("Python Version", sys.version.split()[0]),
            ("OS", f"{platform.system()} {platform.release()} {platform.machine()}"))
    for label, value in rows:
        print(f"{label:<16}: {value}")
    print()
    print(format_report())


_memo_lock = threading.Lock()
_memos = []  # the cache dict of every memoized function, for clear_memo()


def memoize(for_each_device=False):
    """Decorator caching a function's results by its (hashable) arguments (cupy.memoize); with
    for_each_device=True the current device is part of the key. clear_memo() empties every cache."""
    def decorator(fn):
        cache = {}
        with _memo_lock:
            _memos.append(cache)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            key = (args, tuple(sorted(kwargs.items())))
            if for_each_device:
                key = (_simt.current_device(), key)
            try:
                return cache[key]
            except KeyError:
                pass
            except TypeError:
                raise TypeError(f"memoized function {fn.__qualname__}: its arguments must be hashable") from None
            value = cache[key] = fn(*args, **kwargs)
            return value
        return wrapper
    if callable(for_each_device) and not isinstance(for_each_device, bool):
        raise TypeError("memoize takes arguments: use @memoize() or @memoize(for_each_device=True), not @memoize")
    return decorator


def clear_memo():
    """Empty the caches of every function decorated with memoize() (cupy.clear_memo)."""
    with _memo_lock:
        for cache in _memos:
            cache.clear()
