"""cupy.fft.config on simt: the plan-cache settings scripts adjust. simt.fft runs NumPy's FFT on
the host (see simt.fft), so there are no cuFFT plans: the cache here only records the limits it
is given (size: how many plans it would hold, -1 unlimited, 0 disabled; memsize: bytes of their
work areas, -1 unlimited) and always holds 0 plans using 0 bytes. enable_nd_planning and
use_multi_gpus are accepted and change nothing."""
import threading

from .. import _simt

enable_nd_planning = True
use_multi_gpus = False
_local = threading.local()  # CuPy's caches are per thread and per device


class PlanCache:
    """The (empty) plan cache of one device on this thread."""

    def __init__(self, size=16, memsize=-1, dev=-1):
        self._size = self._check("size", size)
        self._memsize = self._check("memsize", memsize)
        self._dev = _simt.current_device() if dev == -1 else dev

    @staticmethod
    def _check(what, value):
        if isinstance(value, bool) or not isinstance(value, int) or value < -1:
            raise ValueError(f"PlanCache: {what} must be an int >= -1 (-1: unlimited, 0: disabled), got {value!r}")
        return value

    def set_size(self, size):
        self._size = self._check("size", size)

    def get_size(self):
        return self._size

    def set_memsize(self, memsize):
        self._memsize = self._check("memsize", memsize)

    def get_memsize(self):
        return self._memsize

    def get_curr_size(self):
        return 0  # (no plans are ever made)

    def get_curr_memsize(self):
        return 0

    def clear(self):
        pass  # (nothing cached)

    def show_info(self):
        print(f"------------------- simt FFT plan cache (device {self._dev}) -------------------")
        print(f"cache enabled? {self._size != 0 and self._memsize != 0}")
        print(f"current / max size   : 0 / {'unlimited' if self._size == -1 else self._size} (counts)")
        print(f"current / max memsize: 0 / {'unlimited' if self._memsize == -1 else self._memsize} (bytes)")
        print("simt.fft runs NumPy's FFT on the host and makes no cuFFT plans, so the cache stays empty.")

    def __len__(self):
        return 0


def get_plan_cache():
    """This thread's plan cache for the current device."""
    caches = _local.__dict__.setdefault("caches", {})
    dev = _simt.current_device()
    if dev not in caches:
        caches[dev] = PlanCache(dev=dev)
    return caches[dev]


def set_plan_cache_size(size):
    get_plan_cache().set_size(size)


def get_plan_cache_size():
    return get_plan_cache().get_size()


def set_plan_cache_max_memsize(size):
    get_plan_cache().set_memsize(size)


def get_plan_cache_max_memsize():
    return get_plan_cache().get_memsize()


def clear_plan_cache():
    get_plan_cache().clear()


def show_plan_cache_info():
    """Every plan cache of this thread (one per device it has used)."""
    for cache in getattr(_local, "caches", {}).values():
        cache.show_info()
