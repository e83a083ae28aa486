"""simt.fuse and vectorize: Python functions become one elementwise kernel, compiled by the
kernel compiler like every other elementwise operation.

fuse traces the function once per tuple of input types with stand-in values; every operator
and simt/NumPy ufunc it applies is resolved with NumPy's rules (NEP 50 for Python scalars)
and inlined, so the result types match running the same function eagerly. vectorize turns a
scalar function into a ufunc: the function becomes a device function (kernel-language typing,
as numba's @vectorize) called from a generated elementwise kernel."""
import functools
import inspect
import itertools
import numbers
import re

import numpy as np

from . import _dtypes, _fused_reduce, _simt
from ._ndarray import ndarray

_HOST_DATA = ("simt arrays never combine with host (NumPy) arrays implicitly; copy it to the device with "
              "simt.asarray(x), or copy results to the host with .get()")
_WEAK_DEFAULT = {"int": np.dtype(np.int64), "float": np.dtype(np.float64), "complex": np.dtype(np.complex128)}


def _describe_argument(a, position, where):
    """('array'|'scalar', dtype) for a strong value, ('weak', kind) for a Python number."""
    if isinstance(a, ndarray):
        return ("array", a.dtype)
    if isinstance(a, np.ndarray):
        raise TypeError(f"argument {position} of {where} is a NumPy array in host memory; " + _HOST_DATA)
    if isinstance(a, (bool, np.generic)):
        return ("scalar", _dtypes.normalize(np.asarray(a).dtype))
    if isinstance(a, numbers.Integral):
        return ("weak", "int")
    if isinstance(a, numbers.Real):
        return ("weak", "float")
    if isinstance(a, numbers.Complex):
        return ("weak", "complex")
    raise TypeError(f"argument {position} of {where} has type {type(a).__module__}.{type(a).__qualname__}; "
                    "expected a simt array or a number")


# ---- fuse -------------------------------------------------------------------------------------------
class _Value:
    """A value while simt.fuse traces a function: kernel-language code and its type."""

    __array_priority__ = 1000

    # _stage: 0 for values computed from the array arguments, 1 for values computed from a
    # reduction's result, None for values of scalars and constants only (they go with either).
    def __init__(self, trace, code, dtype=None, weak=None, stage=None, argument=None):
        self._trace, self._code, self._dtype, self._weak = trace, code, dtype, weak
        self._stage, self._argument = stage, argument  # (argument: its index, for in-place updates)

    @property
    def dtype(self):
        return self._dtype if self._weak is None else _WEAK_DEFAULT[self._weak]

    def _spec(self):
        return self._weak if self._weak is not None else self._dtype

    # Any simt ufunc (simt.sin, simt.where, ...) called on a traced value lands here.
    def _simt_fusion_trace(self, name, args, kwargs):
        if kwargs:
            raise TypeError(f"simt.fuse: keyword arguments of simt.{name} are not supported inside fused functions")
        return self._trace.apply(name, args)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method != "__call__" or kwargs:
            return NotImplemented
        return self._trace.apply(ufunc.__name__, inputs)

    # simt's reductions (simt.sum(v), v.sum(), numpy.sum(v)) called on a traced value land here.
    def _simt_fusion_reduce(self, fname, axis, dtype, out, keepdims, initial, where):
        if out is not None or initial is not None or where is not True:
            raise TypeError(f"simt.fuse: out=, initial= and where= of simt.{fname} are not supported inside fused "
                            "functions")
        return self._trace.reduce(self, fname, axis, dtype, keepdims)

    def __array_function__(self, func, types, args, kwargs):
        import simt
        mine = getattr(simt, func.__name__, None)
        if mine is None:
            raise TypeError(f"simt.fuse: numpy.{func.__name__} is not supported inside fused functions")
        return mine(*args, **kwargs)  # (traced, or simt's own message saying why not)

    def astype(self, dtype, copy=True):
        return self._trace.cast(self, _dtypes.normalize(dtype))

    def conj(self):
        return self._trace.apply("conjugate", (self,))

    conjugate = conj

    @property
    def real(self):
        if self.dtype.kind != "c":
            return self
        return self._trace.part(self, "real")

    @property
    def imag(self):
        if self.dtype.kind != "c":
            return self._trace.apply("multiply", (self, 0))
        return self._trace.part(self, "imag")

    def __bool__(self):
        raise TypeError("simt.fuse cannot branch on the values being computed (no `if`, `and`, `or` on them); "
                        "use simt.where(condition, x, y)")

    def _refuse(self, *args):
        raise TypeError("simt.fuse computes with arrays: use simt's (or NumPy's) ufuncs such as simt.sin, not the "
                        "math module, inside fused functions")

    __float__ = __int__ = __complex__ = __index__ = _refuse


def _binary(name, reflected=False):
    def method(self, other):
        args = (other, self) if reflected else (self, other)
        return self._trace.apply(name, args)
    return method


def _in_place(name):
    def method(self, other):
        return self._trace.update(self, self._trace.apply(name, (self, other)))
    return method


def _reduction_method(fname):
    def reduction():
        from . import _reductions
        return getattr(_reductions, fname)

    if fname in ("min", "max", "all", "any"):  # (NumPy's order: no dtype parameter)
        def method(self, axis=None, out=None, keepdims=False, **kwargs):
            return reduction()(self, axis, out=out, keepdims=keepdims, **kwargs)
    else:
        def method(self, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
            return reduction()(self, axis, dtype, out, keepdims, **kwargs)
    method.__name__ = fname
    return method


for _op, _ufunc in {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
                    "floordiv": "floor_divide", "mod": "remainder", "pow": "power", "lshift": "left_shift",
                    "rshift": "right_shift", "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor"}.items():
    setattr(_Value, f"__{_op}__", _binary(_ufunc))
    setattr(_Value, f"__r{_op}__", _binary(_ufunc, reflected=True))
    setattr(_Value, f"__i{_op}__", _in_place(_ufunc))
for _fname in ("sum", "prod", "min", "max", "all", "any", "mean"):
    setattr(_Value, _fname, _reduction_method(_fname))
for _op, _ufunc in {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal", "eq": "equal",
                    "ne": "not_equal"}.items():
    setattr(_Value, f"__{_op}__", _binary(_ufunc))
for _op, _ufunc in {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}.items():
    setattr(_Value, f"__{_op}__", lambda self, _u=_ufunc: self._trace.apply(_u, (self,)))
_Value.__hash__ = object.__hash__

def _literal(v):
    """Kernel-language source for a Python number (inf and nan through the math module)."""
    if isinstance(v, (bool, numbers.Integral)):
        return repr(bool(v)) if isinstance(v, bool) else str(int(v))
    if isinstance(v, numbers.Real):
        v = float(v)
        if v != v:
            return "math.nan"
        if v in (float("inf"), float("-inf")):
            return "math.inf" if v > 0 else "(-math.inf)"
        return repr(v)
    v = complex(v)
    return f"complex({_literal(v.real)}, {_literal(v.imag)})"


_BODY_NAMES = re.compile(r"\b(x\d+|y0|t_\w+)\b")


class _Trace:
    """Statements of one fused kernel, built while the function runs on _Value stand-ins."""

    def __init__(self):
        self.lines = []
        self.stages = []  # each line's stage (as _Value._stage): which kernel of a reduction needs it
        self.count = itertools.count()
        self.reduction = None  # the FusedReduction of simt.sum(...) and co.
        self.updates = {}      # argument index -> its new value (x += ...)

    @staticmethod
    def _stage_of(values, what):
        stages = {v._stage for v in values} - {None}
        if len(stages) > 1:
            raise TypeError(f"simt.fuse: {what} combines a reduction's result with the arrays it reduces; a fused "
                            "function may compute on its arrays, reduce once, and compute on the reduced values")
        return stages.pop() if stages else None

    def value(self, v):
        if isinstance(v, _Value):
            return v
        if isinstance(v, ndarray):
            raise TypeError("simt.fuse: a fused function can only use arrays passed to it as arguments")
        kind, info = _describe_argument(v, "?", "a fused function")
        if kind == "weak":
            return _Value(self, _literal(v), weak=info)
        return _Value(self, f"{info.name}({_literal(np.asarray(v).item())})", dtype=info)

    def _emit(self, lines, stage):
        self.lines += lines
        self.stages += [stage] * len(lines)

    def lines_for_stage(self, stage):
        """The statements a kernel of `stage` needs: those of that stage and those of scalars only
        (their names are unique, so statements of scalars computed before a reduction can be
        repeated after it)."""
        return [line for line, s in zip(self.lines, self.stages) if s is None or s == stage]

    def apply(self, name, args):
        values = [self.value(a) for a in args]
        stage = self._stage_of(values, f"simt.{name}")
        in_types, uncast, out, body = _simt._resolve_for_fusion(name, [v._spec() for v in values])
        n = next(self.count)
        prefix = f"o{n}_"
        lines = []
        for k, (v, t, keep) in enumerate(zip(values, in_types, uncast)):
            code = v._code if keep or (v._weak is None and v._dtype == t) else f"{t.name}({v._code})"
            lines.append(f"{prefix}x{k} = {code}")
        lines.extend(_BODY_NAMES.sub(lambda m: prefix + m.group(1), body).splitlines())
        self._emit(lines + [f"v{n} = {out.name}({prefix}y0)"], stage)
        return _Value(self, f"v{n}", dtype=out, stage=stage)

    def part(self, v, which):
        n = next(self.count)
        self._emit([f"v{n} = ({v._code}).{which}"], v._stage)
        return _Value(self, f"v{n}", dtype=np.dtype(np.float32 if v.dtype == np.complex64 else np.float64),
                      stage=v._stage)

    def cast(self, v, dtype):
        n = next(self.count)
        code = f"({v._code}).real" if v.dtype.kind == "c" and dtype.kind != "c" else v._code
        self._emit([f"v{n} = {dtype.name}({code})" if dtype.kind != "b" else f"v{n} = ({code}) != 0"], v._stage)
        return _Value(self, f"v{n}", dtype=dtype, stage=v._stage)

    def reduce(self, v, fname, axis, dtype, keepdims):
        """A reduction of v: later statements compute on its result (stage 1)."""
        if fname not in _fused_reduce.FUSABLE:
            raise TypeError(f"simt.{fname}() is not supported inside a simt.fuse function; fused functions reduce "
                            f"with {', '.join(sorted(_fused_reduce.FUSABLE))}")
        if self.reduction is not None:
            raise TypeError(f"simt.fuse: simt.{fname}() is a second reduction; a fused function may reduce once")
        if v._stage != 0:
            raise TypeError(f"simt.fuse: simt.{fname}() needs a value computed from the fused function's array "
                            "arguments")
        if self.updates:
            raise TypeError("simt.fuse: a fused function cannot both update arguments in place and reduce")
        body = "\n".join(self.lines + [f"y0 = {v._code}"])
        reduction = _fused_reduce.FusedReduction(fname, axis, dtype, keepdims, body, v.dtype)
        self.reduction = reduction
        return _Value(self, "r0", dtype=reduction.result_dtype, stage=1)

    def update(self, target, value):
        """`target op= value` for an argument array: the kernel writes the value (cast to the
        argument's dtype, as NumPy's in-place operators do) into that argument."""
        if target._argument is None or target._stage != 0:
            raise TypeError("simt.fuse: in-place operators (x += ...) can update only the fused function's array "
                            "arguments")
        if self.reduction is not None:
            raise TypeError("simt.fuse: a fused function cannot both reduce and update arguments in place")
        if not np.can_cast(value.dtype, target.dtype, "same_kind"):
            raise TypeError(f"simt.fuse: cannot update argument {target._argument + 1} of dtype {target.dtype} in "
                            f"place with a {value.dtype} value (casting rule 'same_kind')")
        new = value if value.dtype == target.dtype and value._weak is None else self.cast(value, target.dtype)
        self.updates[target._argument] = new
        return _Value(self, new._code, dtype=target.dtype, stage=0, argument=target._argument)


class Fusion:
    """A function fused into one elementwise kernel per tuple of input types (simt.fuse)."""

    def __init__(self, func, name=None):
        self.func = func
        functools.update_wrapper(self, func)
        self.__name__ = name or getattr(func, "__name__", "fused")
        self._kernel = _simt.ElementwiseKernel(self.__name__)
        self._plans = {}

    def _plan(self, key):
        trace = _Trace()
        inputs = []
        for i, (kind, info) in enumerate(key):
            if kind == "weak":
                inputs.append(_Value(trace, f"x{i}", weak=info))
            else:
                inputs.append(_Value(trace, f"x{i}", dtype=info, stage=0 if kind == "array" else None,
                                     argument=i if kind == "array" else None))
        result = self.func(*inputs)
        if result is None and not trace.updates:
            raise TypeError(f"simt.fuse: {self.__name__} returned None and updated no argument in place")
        outputs = [] if result is None else list(result) if isinstance(result, tuple) else [result]
        if not outputs and not trace.updates:
            raise TypeError(f"simt.fuse: {self.__name__} must return at least one value")
        out_values = [trace.value(o) for o in outputs]
        in_types = [_WEAK_DEFAULT[info] if kind == "weak" else info for kind, info in key]
        if trace.reduction is not None:
            return self._reduction_plan(key, trace, out_values, in_types, isinstance(result, tuple))
        updated = sorted(trace.updates)
        out_values += [trace.updates[i] for i in updated]
        body = trace.lines + [f"y{j} = {v._code}" for j, v in enumerate(out_values)]
        out_types = [v.dtype for v in out_values[:len(outputs)]] + [key[i][1] for i in updated]
        returns = "none" if result is None else "tuple" if isinstance(result, tuple) else "one"
        plan = ("elementwise", len(self._plans), in_types, out_types, "\n".join(body), returns, updated)
        self._plans[key] = plan
        return plan

    def _reduction_plan(self, key, trace, out_values, in_types, multiple):
        """The plan of a fused function with a reduction: its statements after the reduction run as
        an elementwise kernel over the reduced values (r0 -> x0) and the scalar arguments."""
        reduction = trace.reduction
        for v in out_values:
            if v._stage == 0:
                raise TypeError(f"simt.fuse: {self.__name__} returns a value of the arrays it reduces beside the "
                                "reduction's result; return only values computed from the reduced values")
        post = trace.lines_for_stage(1)
        post_plan = None
        if 1 in trace.stages or [v._code for v in out_values] != ["r0"]:
            scalars = [i for i, (kind, _) in enumerate(key) if kind != "array"]
            names = {"r0": "x0"} | {f"x{i}": f"x{k + 1}" for k, i in enumerate(scalars)}
            body = [f"y{j} = {v._code}" for j, v in enumerate(out_values)]
            body = _fused_reduce.rename_operands("\n".join(post + body), names)
            post_plan = (len(self._plans), [reduction.result_dtype] + [in_types[i] for i in scalars],
                         [v.dtype for v in out_values], body, scalars)
        plan = ("reduction", reduction, in_types, post_plan, multiple)
        self._plans[key] = plan
        return plan

    def __call__(self, *args):
        key = tuple(_describe_argument(a, i + 1, f"fused function {self.__name__}") for i, a in enumerate(args))
        plan = self._plans.get(key) or self._plan(key)
        if plan[0] == "reduction":
            return self._reduce(plan, args)
        _, loop_id, in_types, out_types, body, returns, updated = plan
        outs = None
        if updated:
            outs = [None] * (len(out_types) - len(updated)) + [args[i] for i in updated]
        outs = self._kernel(loop_id, in_types, [True] * len(in_types), out_types, body, list(args), outs)
        if returns == "none":
            return None
        return tuple(outs[:len(out_types) - len(updated)]) if returns == "tuple" else outs[0]

    def _reduce(self, plan, args):
        _, reduction, in_types, post_plan, multiple = plan
        reduced = reduction(args, in_types)
        if post_plan is None:
            return (reduced,) if multiple else reduced
        loop_id, post_types, out_types, body, scalars = post_plan
        outs = self._kernel(loop_id, post_types, [True] * len(post_types), out_types, body,
                            [reduced] + [args[i] for i in scalars])
        return tuple(outs) if multiple else outs[0]

    def _sources(self):
        return self._kernel.sources()

    def __repr__(self):
        return f"<simt.fuse {self.__name__}>"


def fuse(*args, **kwargs):
    """Fuse a function of arrays and scalars into one elementwise kernel: @simt.fuse or
    @simt.fuse(kernel_name='name')."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return Fusion(args[0])
    name = kwargs.pop("kernel_name", None)
    if kwargs or args:
        raise TypeError(f"fuse() got unexpected arguments {args or ''} {kwargs or ''}")
    return lambda f: Fusion(f, name)


# ---- vectorize ----------------------------------------------------------------------------------------
class Vectorized:
    """A scalar function applied elementwise (numba's @vectorize): eager with signature strings,
    else compiled for the types it is called with (kernel-language typing)."""

    def __init__(self, func, signatures):
        from .cuda import jit
        self.py_func = func
        functools.update_wrapper(self, func)
        self._device = jit(device=True)(func)
        params = inspect.signature(func).parameters
        self.nin = len(params)
        self.nout = 1
        self._body = "y0 = _f(" + ", ".join(f"x{i}" for i in range(self.nin)) + ")"
        device = self._device
        self._kernel = _simt.ElementwiseKernel(func.__name__, lambda name: ("device", device) if name == "_f" else ("undefined",))
        self._signatures = []
        for sig in signatures:
            ret, args = _simt._parse_scalar_signature(sig)
            if len(args) != self.nin:
                raise TypeError(f"signature '{sig}' has {len(args)} arguments but {func.__name__} takes {self.nin}")
            self._signatures.append((args, ret))
        self._lazy = {}

    @property
    def types(self):
        sigs = self._signatures or [(k, v) for k, v in self._lazy.items()]
        return ["".join(np.dtype(t).char for t in args) + "->" + np.dtype(ret).char for args, ret in sigs]

    def _loop(self, dtypes):
        if self._signatures:
            for rule in ("equiv", "safe"):
                for i, (args, ret) in enumerate(self._signatures):
                    if all(np.can_cast(d, t, rule) for d, t in zip(dtypes, args)):
                        return i, args, ret
            raise TypeError(f"{self.__name__}: no matching definition for argument types ({', '.join(map(str, dtypes))}); "
                            f"compiled signatures: {self.types}")
        key = tuple(dtypes)
        if key not in self._lazy:
            self._lazy[key] = self._kernel.infer_result_dtypes(list(dtypes), self._body, 1)[0]
        return 10_000 + list(self._lazy).index(key), list(dtypes), self._lazy[key]

    def __call__(self, *args, out=None, stream=0):
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} arguments but {len(args)} were given")
        dtypes = []
        for i, a in enumerate(args):
            kind, info = _describe_argument(a, i + 1, self.__name__)
            dtypes.append(_WEAK_DEFAULT[info] if kind == "weak" else info)
        loop_id, in_types, ret = self._loop(dtypes)
        outs = None if out is None else [out]
        result = self._kernel(loop_id, list(in_types), [False] * self.nin, [ret], self._body, list(args), outs)
        return out if out is not None else result[0]

    def _sources(self):
        return self._kernel.sources()

    def __repr__(self):
        return f"<simt.vectorize {self.__name__}>"


def vectorize(ftylist_or_function=(), target="cuda", identity=None, cache=False, nopython=True, **kwargs):
    """numba's @vectorize: `@vectorize` (lazy), `@vectorize(['float32(float32, float32)'])`,
    `@vectorize('float64(float64)', target='cuda')`. The result is a ufunc-like object over simt
    arrays."""
    if target not in ("cuda", "cpu", "parallel"):
        raise ValueError(f"unknown vectorize target '{target}'")
    unknown = set(kwargs) - {"fastmath"}
    if unknown:
        raise TypeError(f"unknown vectorize option(s): {', '.join(sorted(unknown))}")
    if callable(ftylist_or_function):
        return Vectorized(ftylist_or_function, [])
    from .cuda.numba_types import Signature, signature_text
    one = isinstance(ftylist_or_function, (str, Signature))
    sigs = [signature_text(s) for s in ([ftylist_or_function] if one else list(ftylist_or_function))]
    if any(s is None for s in sigs):
        raise TypeError("vectorize signatures are strings such as 'float32(float32, float32)' or numba types such as "
                        "float32(float32, float32)")
    return lambda f: Vectorized(f, sigs)
