"""numba.cuda.fp16 as seen from host code: float16 intrinsics that run only inside kernels."""
from ._stubs import _Namespace

# numba.cuda.fp16: float16 intrinsics (arguments convert to float16; results round once to float16).
fp16 = _Namespace("cuda.fp16", [
    "hadd", "hsub", "hmul", "hdiv", "hmax", "hmin", "hfma", "hneg", "habs", "hsin", "hcos", "hlog", "hlog10", "hlog2",
    "hexp", "hexp10", "hexp2", "hsqrt", "hrsqrt", "hrcp", "hceil", "hfloor", "htrunc", "hrint", "heq", "hne", "hgt",
    "hge", "hlt", "hle",
], "float16 intrinsics usable inside kernels (numba.cuda.fp16).")
