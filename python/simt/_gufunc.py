"""guvectorize (numba's generalized ufuncs): a Python function over core arrays, written as a device
function that fills its output arguments, applied over the broadcast loop dimensions of its
inputs by one generated kernel (one thread per loop index), on simt arrays of either backend.

    @cuda.guvectorize(["void(float32[:], float32, float32[:])"], "(n),()->(n)")
    def add_scalar(x, y, out):
        for i in range(x.shape[0]):
            out[i] = x[i] + y

    r = add_scalar(d_x, 2.0)            # a new output, loop dimensions broadcast as NumPy does
    add_scalar(d_x, d_y, r)             # or into a given output

A `()` input declared as a scalar in the signature arrives as a scalar, one declared as an array
(`float32[:]`) as a one-element array; `()` outputs are declared as one-element arrays."""
import functools
import re

import numpy as np

from . import _kernelgen as kg
from . import _simt
from ._fusion import _describe_argument
from ._ndarray import ndarray

_DIM = re.compile(r"\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)?\s*\)")
_ARG = re.compile(r"^\s*([A-Za-z_]\w*)\s*(\[[\s:,1CFA]*\])?\s*$")


def parse_layout(layout):
    """'(m,n),(n)->(m)' -> ([('m', 'n'), ('n',)], [('m',)])."""
    if not isinstance(layout, str) or layout.count("->") != 1:
        raise ValueError(f"guvectorize: the layout must look like '(m,n),(n)->(m)', not {layout!r}")
    sides = []
    for side in layout.replace(" ", "").split("->"):
        dims = [tuple(d for d in m.group(1).split(",")) if m.group(1) else () for m in _DIM.finditer(side)]
        if _DIM.sub("", side).replace(",", "") or (side and not dims):
            raise ValueError(f"guvectorize: cannot read the layout {layout!r} (each argument is '(names)' or '()')")
        sides.append([tuple(x.strip() for x in d) for d in dims])
    ins, outs = sides
    if not outs:
        raise ValueError(f"guvectorize: the layout {layout!r} has no output")
    known = {n for d in ins for n in d}
    for d in outs:
        for n in d:
            if n not in known:
                raise ValueError(f"guvectorize: output dimension '{n}' of {layout!r} is not a dimension of any input "
                                 "(its size could not be known)")
    return ins, outs


def _split_args(text):
    depth, cur, out = 0, "", []
    for ch in text:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + ([cur] if cur.strip() else [])


def parse_signature(sig, nargs):
    """'void(float32[:], float32, float32[:])' (the 'void' is optional) -> [(dtype, ndim)...],
    ndim 0 for a scalar. numba's type objects work too: void(float32[:], float32[:]) or, as
    numba's guvectorize examples write them, a tuple (float32[:], float32[:])."""
    from .cuda.numba_types import signature_text
    text = signature_text(sig)
    if text is None:
        raise TypeError(f"guvectorize: signatures are strings such as 'void(float32[:], float32[:])' or numba types "
                        f"such as (float32[:], float32[:]), not {sig!r}")
    sig = text
    m = re.match(r"^\s*(?:void\s*)?\((.*)\)\s*$", sig)
    if not m:
        raise ValueError(f"guvectorize: cannot read the signature {sig!r} (expected 'void(type, ...)')")
    out = []
    for a in _split_args(m.group(1)):
        t = _ARG.match(a)
        try:
            dt = np.dtype(t.group(1) if t else "?invalid")
        except TypeError:
            dt = None
        if not t or dt is None or dt.kind not in "biufc":
            raise ValueError(f"guvectorize: {a.strip()!r} in {sig!r} is not a numeric type or array of one")
        out.append((dt, t.group(2).count(":") if t.group(2) else 0))
    if len(out) != nargs:
        raise ValueError(f"guvectorize: signature {sig!r} has {len(out)} arguments, the layout {nargs}")
    return out


class GUVectorized:
    """A generalized ufunc over simt arrays (numba's @guvectorize)."""

    def __init__(self, func, signatures, layout):
        from .cuda import jit
        self.py_func = func
        functools.update_wrapper(self, func)
        self.ins, self.outs = parse_layout(layout)
        self.layout = layout
        self.nin, self.nout = len(self.ins), len(self.outs)
        self._device = jit(device=True)(func)
        self._signatures = [parse_signature(s, self.nin + self.nout) for s in signatures]
        if not self._signatures:
            raise TypeError("guvectorize: give at least one signature, such as 'void(float32[:], float32[:])'")
        for sig in self._signatures:
            for (dt, nd), core, what in zip(sig, self.ins + self.outs, ["input"] * self.nin + ["output"] * self.nout):
                # A () input is a scalar or a one-element array; a () output a one-element array.
                allowed = {len(core)} if core else ({0, 1} if what == "input" else {1})
                if nd not in allowed:
                    raise ValueError(f"guvectorize: a {what} with core dimensions {'(' + ','.join(core) + ')'} "
                                     f"cannot be declared with {nd} dimension(s) in the signature")
        self._kernels = {}

    def _pick(self, dtypes, weak):
        """The first signature the inputs match exactly, else the first they cast to safely
        (Python numbers, weak as in NEP 50, to any type of their kind)."""
        for rule in ("equiv", "safe"):
            for sig in self._signatures:
                if all(np.can_cast(d, t, "same_kind" if w and rule == "safe" else rule)
                       for d, w, (t, _) in zip(dtypes, weak, sig)):
                    return sig
        compiled = ", ".join("(" + ", ".join(str(t) for t, _ in s[:self.nin]) + ")" for s in self._signatures)
        raise TypeError(f"{self.__name__}: no signature takes inputs of types ({', '.join(map(str, dtypes))}); "
                        f"declared for {compiled}")

    def _kernel(self, loop_nd, scalar_inputs):
        key = (loop_nd, scalar_inputs)
        k = self._kernels.get(key)
        if k is None:
            names = [f"a{i}" for i in range(self.nin + self.nout)]
            idx = ", ".join(kg.index_names("k", loop_nd))
            L = [f"def simt_gufunc({', '.join(names)}, nloop):",
                 "    t = cuda.grid(1)",
                 "    if t < nloop:"]
            L += kg.unravel("t", names[-1], loop_nd, " " * 8)
            args = [n if i in scalar_inputs else f"{n}[{idx}]" for i, n in enumerate(names)]
            L.append(f"        _f({', '.join(args)})")
            device = self._device

            def resolve(name):
                return ("device", device) if name == "_f" else kg._resolve(name)
            k = self._kernels[key] = _simt.Dispatcher("simt_gufunc", "\n".join(L) + "\n",
                                                      f"<simt guvectorize {self.__name__}>", 1, 0, resolve, {})
        return k

    def __call__(self, *args, out=None, stream=0):
        if stream:  # outputs are allocated, and the kernel runs, in that stream's order
            with stream:
                return self._call(args, out)
        return self._call(args, out)

    def _call(self, args, out):
        from ._creation import empty
        if out is not None:
            if len(args) != self.nin:
                raise TypeError(f"{self.__name__}: give the outputs either as arguments or as out=, not both")
            args = args + (tuple(out) if isinstance(out, (tuple, list)) else (out,))
        if len(args) not in (self.nin, self.nin + self.nout):
            raise TypeError(f"{self.__name__}() takes {self.nin} inputs (and optionally {self.nout} output(s)), "
                            f"but {len(args)} arguments were given")
        inputs, outs = list(args[:self.nin]), list(args[self.nin:])
        dtypes, weak = [], []
        for i, a in enumerate(inputs):
            kind, info = _describe_argument(a, i + 1, self.__name__)
            weak.append(kind == "weak")
            if kind != "array" and self.ins[i]:
                raise TypeError(f"{self.__name__}: input {i + 1} is a number, but its core "
                                f"{'(' + ','.join(self.ins[i]) + ')'} needs an array")
            if kind == "array" and a.ndim < len(self.ins[i]):
                raise ValueError(f"{self.__name__}: input {i + 1} has {a.ndim} dimension(s), its core "
                                 f"{'(' + ','.join(self.ins[i]) + ')'} needs {len(self.ins[i])}")
            dtypes.append(info if kind != "weak" else np.result_type({"int": 0, "float": 0.0, "complex": 0j}[info]))
        for j, o in enumerate(outs):
            if not isinstance(o, ndarray):
                _describe_argument(o, self.nin + j + 1, self.__name__)  # raises the host-array guidance
                raise TypeError(f"{self.__name__}: output {j + 1} must be a simt array, not {type(o).__name__}")
        sig = self._pick(dtypes, weak)
        sizes, loops = {}, []  # loops: the inputs' loop dimensions
        arrays = []
        for i, (a, core) in enumerate(zip(inputs, self.ins)):
            t, nd = sig[i]
            if not isinstance(a, ndarray):
                a = t.type(a) if nd == 0 and not core else _zero_d(a, t)
            elif a.dtype != t:
                a = a.astype(t)
            arrays.append(a)
        for i, (a, core) in enumerate(zip(arrays + outs, self.ins + self.outs)):
            if isinstance(a, ndarray):
                nloop = a.ndim - len(core)
                for name, n in zip(core, a.shape[nloop:]):
                    if sizes.setdefault(name, n) != n:
                        raise ValueError(f"{self.__name__}: dimension '{name}' of {self.layout!r} is {sizes[name]} in one "
                                         f"argument and {n} in argument {i + 1}")
                if i < self.nin:
                    loops.append(a.shape[:nloop])
        try:
            loop_shape = tuple(np.broadcast_shapes(*loops or [()]))
        except ValueError:
            raise ValueError(f"{self.__name__}: the loop dimensions of the inputs {loops} cannot be "
                             "broadcast together") from None
        for j, core in enumerate(self.outs):
            t = sig[self.nin + j][0]
            shape = loop_shape + tuple(sizes[n] for n in core)
            if j < len(outs):
                if outs[j].shape != shape or outs[j].dtype != t:
                    raise ValueError(f"{self.__name__}: output {j + 1} must have shape {shape} and dtype {t}, "
                                     f"not {outs[j].shape} and {outs[j].dtype}")
            else:
                outs.append(empty(shape, t))
        n = int(np.prod(loop_shape, dtype=np.int64))
        if n:
            full_loop = loop_shape or (1,)
            views, scalars = [], []
            for i, (a, core) in enumerate(zip(arrays + outs, self.ins + self.outs)):
                if not isinstance(a, ndarray):
                    scalars.append(i)
                    views.append(a)
                    continue
                views.append(_loop_view(a, core, loop_shape, full_loop, sig[i][1]))
            k = self._kernel(len(full_loop), tuple(scalars))
            kg.launch(k, *kg.grid_1d(n), *views, n)
        return outs[0] if self.nout == 1 else tuple(outs)

    def __repr__(self):
        return f"<simt.guvectorize {self.__name__} {self.layout}>"


def _zero_d(value, dtype):
    """A 0-d simt array holding a number (a () input declared as an array)."""
    from ._creation import full
    return full((), value, dtype)


def _loop_view(a, core, loop_shape, full_loop, declared_nd):
    """`a` seen with the loop dimensions `full_loop` (its own broadcast to them, a leading axis of
    one where there are none) followed by its core dimensions, plus a trailing axis of one for a
    `()` argument declared as an array."""
    nloop = a.ndim - len(core)
    own, own_strides = a.shape[:nloop], a.strides[:nloop]
    pad = len(loop_shape) - nloop
    strides = [0] * pad + [0 if n == 1 and m != 1 else s for n, s, m in zip(own, own_strides, loop_shape[pad:])]
    if not loop_shape:
        strides = [0]
    shape = tuple(full_loop) + a.shape[nloop:]
    strides = tuple(strides) + a.strides[nloop:]
    if not core and declared_nd == 1:
        shape, strides = shape + (1,), strides + (a.itemsize,)
    return kg.view(a, shape, strides)


def guvectorize(ftylist, signature, target="cuda", identity=None, cache=False, nopython=True, **kwargs):
    """numba's @guvectorize(types, layout): `types` a signature string or a list of them
    ('void(float32[:], float32, float32[:])'), `layout` the gufunc layout ('(n),()->(n)')."""
    if target not in ("cuda", "cpu", "parallel"):
        raise ValueError(f"unknown guvectorize target '{target}'")
    unknown = set(kwargs) - {"fastmath", "writable_args", "is_dynamic"}
    if unknown:
        raise TypeError(f"unknown guvectorize option(s): {', '.join(sorted(unknown))}")
    sigs = [ftylist] if isinstance(ftylist, str) else list(ftylist)
    return lambda f: GUVectorized(f, sigs, signature)
