"""simt.cuda.libdevice (numba.cuda.libdevice): CUDA's libdevice math functions, called in kernels
by their names without the `__nv_` prefix (libdevice.sinf(x), libdevice.popc(x), ...). Each has
numba's fixed signature; libdevice's out-parameters come back as a tuple (sincosf(x) -> (sin, cos),
frexpf(x) -> (mantissa, exponent)). The table is src/simt/sema/builtins_libdevice.cpp; from the
host every name is a stub that raises. See docs/kernel-language.md for what the cpu backend
computes (the host's libm; directed rounding emulated exactly; fast_* functions exact)."""
from ._stubs import _Stub

_FAMILIES = (  # each with a float64 (name) and a float32 (name + "f") version
    "acos acosh asin asinh atan atanh cbrt ceil cos cosh cospi cyl_bessel_i0 cyl_bessel_i1 erf erfc erfcinv "
    "erfcx erfinv exp exp10 exp2 expm1 fabs floor j0 j1 lgamma log log10 log1p log2 logb nearbyint normcdf "
    "normcdfinv rcbrt rint round rsqrt sin sinh sinpi sqrt tan tanh tgamma trunc y0 y1 atan2 copysign fdim fmax "
    "fmin fmod hypot nextafter pow remainder rhypot fma norm3d rnorm3d norm4d rnorm4d ldexp powi scalbn jn yn "
    "ilogb llrint llround frexp modf remquo sincos sincospi").split()
_SINGLES = (
    "isnand isnanf isinfd isinff isfinited finitef signbitd signbitf fast_cosf fast_exp10f fast_expf "
    "fast_fdividef fast_log10f fast_log2f fast_logf fast_powf fast_sincosf fast_sinf fast_tanf saturatef "
    "frsqrt_rn abs llabs brev brevll byte_perm clz clzll ffs ffsll popc popcll hadd rhadd uhadd urhadd mulhi "
    "umulhi mul64hi umul64hi mul24 umul24 sad usad max min umax umin llmax llmin ullmax ullmin float_as_int "
    "int_as_float double_as_longlong longlong_as_double hiloint2double double2hiint double2loint float2half_rn "
    "half2float int2double_rn uint2double_rn").split()
_ROUNDED = (  # each with the suffixes _rn, _rz, _ru, _rd
    "fadd fsub fmul fdiv frcp fsqrt fmaf dadd dsub dmul ddiv drcp dsqrt fma float2int float2uint float2ll "
    "float2ull double2int double2uint double2ll double2ull double2float int2float uint2float ll2float ull2float "
    "ll2double ull2double").split()

__all__ = sorted({n for f in _FAMILIES for n in (f, f + "f")} | set(_SINGLES) |
                 {f"{r}_{m}" for r in _ROUNDED for m in ("rn", "rz", "ru", "rd")})

for _name in __all__:
    globals()[_name] = _Stub(f"cuda.libdevice.{_name}",
                             f"libdevice's __nv_{_name} (https://docs.nvidia.com/cuda/libdevice-users-guide/).")
del _name
