"""numba.cuda's arithmetic intrinsics as seen from host code (they run only inside kernels)."""
from ._stubs import _Namespace, _Stub

popc = _Stub("cuda.popc", "popc(x): the number of set bits in the integer x (same type as x).")
clz = _Stub("cuda.clz", "clz(x): the number of leading zero bits of the integer x, counted in x's width.")
ffs = _Stub("cuda.ffs", "ffs(x): the 1-based position of the lowest set bit of x (uint32), 0 when x is 0.")
brev = _Stub("cuda.brev", "brev(x): the bits of x reversed, as uint32 (or uint64 for 64-bit x).")
fma = _Stub("cuda.fma", "fma(a, b, c): a * b + c with a single rounding (float32 or float64).")
cbrt = _Stub("math.cbrt", "cbrt(x): the cube root of x (float32 stays float32).")

# numba.cuda.fp16: float16 intrinsics (arguments convert to float16; results round once to float16).
fp16 = _Namespace("cuda.fp16", [
    "hadd", "hsub", "hmul", "hdiv", "hmax", "hmin", "hfma", "hneg", "habs", "hsin", "hcos", "hlog", "hlog10", "hlog2",
    "hexp", "hexp10", "hexp2", "hsqrt", "hrsqrt", "hrcp", "hceil", "hfloor", "htrunc", "hrint", "heq", "hne", "hgt",
    "hge", "hlt", "hle",
], "float16 intrinsics usable inside kernels (numba.cuda.fp16).")
