"""The `numba` module a compat run sees: numba.cuda is simt.cuda; numba's CPU compiler is not
part of simt, so its other names say so instead of failing obscurely."""
import dis
import sys
import types



def make_module():
    import simt
    import simt.cuda
    mod = types.ModuleType("numba", "simt's stand-in for numba: numba.cuda is simt.cuda")
    mod.cuda = simt.cuda
    mod.__version__ = "0.0+simt.compat"
    mod._simt_compat_numba = True  # kernels read numba.cuda and numba.int32 ... (cuda/_resolve.py)
    # numba's type objects: dtypes for NumPy and kernels, signatures when called with types (void(float32[:]))
    from simt.cuda import numba_types
    for name, value in vars(numba_types).items():
        if isinstance(value, numba_types._Type):  # (float32, void, voidptr, ...: not the classes)
            setattr(mod, name, value)
    mod.types = numba_types
    mod.typeof, mod.from_dtype = numba_types.typeof, numba_types.from_dtype
    # numba's settings (scripts set e.g. CUDA_LOW_OCCUPANCY_WARNINGS): accepted, with no effect on simt.
    mod.config = types.SimpleNamespace(CUDA_LOW_OCCUPANCY_WARNINGS=1, CUDA_WARN_ON_IMPLICIT_COPY=1)

    mod.vectorize = _cuda_target_only("vectorize", simt.vectorize)
    mod.guvectorize = _cuda_target_only("guvectorize", simt.guvectorize)

    def __getattr__(name):
        message = (f"simt.compat provides numba.cuda only; numba.{name} is not available (run the script without "
                   "simt.compat to use numba itself)")
        if _importing_from(sys._getframe(1)):  # `from numba import njit`: keep this text (see _importing_from)
            raise ImportError(message, name="numba")
        raise AttributeError(message)
    mod.__getattr__ = __getattr__
    mod.__path__ = []  # a package, so that `import numba.cuda` is looked up as a submodule
    return mod


_IMPORT_FROM = dis.opmap["IMPORT_FROM"]


def _importing_from(frame):
    """Whether `frame` is executing `from numba import name`. CPython turns an AttributeError from
    the module's __getattr__ there into its own "cannot import name ... (unknown location)",
    dropping simt's text; an ImportError passes through unchanged. Everywhere else (hasattr,
    getattr with a default) the error must stay an AttributeError."""
    try:
        return frame.f_code.co_code[frame.f_lasti] == _IMPORT_FROM
    except (AttributeError, IndexError):  # (another interpreter: the generic message, nothing worse)
        return False


def _cuda_target_only(name, simt_decorator):
    """numba.vectorize / numba.guvectorize: with target='cuda' they are simt's; numba's CPU targets
    (its default) make NumPy ufuncs, which simt does not."""
    def decorator(*args, target="cpu", **kwargs):
        if target != "cuda":
            raise NotImplementedError(f"simt.compat provides numba.{name} for target='cuda' only (got target={target!r}); "
                                      "numba's CPU ufuncs need numba itself")
        return simt_decorator(*args, target=target, **kwargs)
    decorator.__name__ = name
    return decorator


def cuda_module():
    return sys.modules["simt.cuda"]
