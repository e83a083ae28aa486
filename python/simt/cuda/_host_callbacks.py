"""Python functions queued on a stream (CuPy's Stream.launch_host_func and add_callback,
numba's Stream.add_callback and async_done).

A callback runs once all work queued on its stream before it has finished, and work queued on
the stream after it waits until it returns, on both backends: on the cuda backend through
cuLaunchHostFunc on a thread of the driver's, on the cpu backend as a task of its in-order queue
on the queue's thread. Either way it runs on another thread than the caller's, holding the GIL.

As CUDA requires, a callback must not use simt's device API (no arrays made, copied or freed,
no launches, no synchronization): on the cpu backend a wait there raises CUDAError
CUDA_ERROR_NOT_PERMITTED, on the cuda backend the driver refuses or may hang. The callable
and its argument are released afterwards on the main thread, so an array passed as the argument
may be freed by that. An exception in a callback is reported through sys.unraisablehook (printed
as "Exception ignored in: ...", as Python reports errors in threads' cleanup) and never stops the
stream or the program."""
import atexit

from .. import _simt


class _HostCall:
    """callback(*args), named in the report of an exception it raises."""
    __slots__ = ("callback", "args", "stream", "what")

    def __init__(self, callback, args, stream, what):
        self.callback, self.args, self.stream, self.what = callback, args, stream, what

    def __call__(self):
        self.callback(*self.args)

    def __repr__(self):
        return f"the host callback {self.callback!r} queued by {self.what}() on {self.stream!r}"


def launch(stream, callback, args, what):
    if not callable(callback):
        raise TypeError(f"Stream.{what}() takes a callable, not {type(callback).__name__}")
    _simt._launch_host_func(stream, _HostCall(callback, args, stream, what))


def async_done(stream):
    """An asyncio future of the running loop, resolved to `stream` by a callback on it."""
    import asyncio
    loop = asyncio.get_running_loop()  # (RuntimeError outside a coroutine, as in numba)
    future = loop.create_future()

    def resolve(s, status, fut):
        loop.call_soon_threadsafe(lambda: fut.done() or fut.set_result(s))

    stream.add_callback(resolve, future)
    return future


@atexit.register  # (at simt's import: atexit runs handlers last-registered first, so this runs after the user's)
def _finish_pending_callbacks():
    # Callbacks still queued at exit run before the interpreter goes away, on every device; any
    # that could still come later (a broken context that never runs them) are then skipped.
    try:
        if _simt._host_callbacks_pending():
            from ._device import Device
            for ordinal in range(_simt.device_count()):
                with Device(ordinal):
                    _simt.synchronize()
    except Exception:  # (an error of earlier work has nobody to go to at exit)
        pass
    finally:
        _simt._host_callbacks_finalize()
