"""simt.ReductionKernel: CuPy's user-defined reduction kernels. map_expr maps each element of the
inputs, reduce_expr folds two values `a` and `b`, post_map_expr writes the outputs from the
result `a`; identity starts every fold. simt writes the kernel around the snippets (a block per
output element, threads striding over the reduced elements, a tree in shared memory) and compiles
it as a raw CUDA C++ kernel, so it runs on both backends."""
import contextlib
import operator

import numpy as np

from . import _kernel_params as kp
from ._elementwise_kernel import RAW_VIEW, offset_lines, typedefs
from ._manipulation import broadcast_to
from ._ndarray import ndarray
from ._raw_kernels import RawKernel

BLOCK = 256
_MAX_BLOCKS = 1 << 16


class ReductionKernel:
    """kernel = ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0', 'l2norm');
    kernel(x, axis=1). reduce_type names the type of `a` and `b` (default: the first output's)."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name="reduce_kernel",
                 reduce_type=None, reduce_dims=True, preamble="", options=()):
        where, self.in_params, self.out_params = kp.parse_kernel(
            "ReductionKernel", name, in_params, out_params,
            {"map_expr": map_expr, "reduce_expr": reduce_expr, "post_map_expr": post_map_expr, "identity": identity,
             "preamble": preamble})
        self.name = name
        if any(p.raw for p in self.in_params + self.out_params):
            raise NotImplementedError(f"{where}: raw parameters are not supported in reduction kernels yet")
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.identity, self.preamble, self.options = identity, preamble, tuple(options)
        self.reduce_type = None if reduce_type is None else np.dtype(reduce_type)
        self._kernels = {}

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        where = f"ReductionKernel '{self.name}'"
        nin, nout = len(self.in_params), len(self.out_params)
        if out is not None:
            args = args + (tuple(out) if isinstance(out, (tuple, list)) else (out,))
        if len(args) not in (nin, nin + nout):
            raise TypeError(f"{where} takes {nin} inputs and optionally {nout} outputs, got {len(args)} arguments")
        params = self.in_params + self.out_params
        values = [kp.device_argument(a, p, where) for a, p in zip(args, params)]
        values += [None] * (len(params) - len(values))
        arrays = [v for v in values[:nin] if isinstance(v, ndarray)]
        if not arrays:
            raise TypeError(f"{where}: needs at least one input array")
        try:
            shape = np.broadcast_shapes(*(a.shape for a in arrays))
        except ValueError:
            raise ValueError(f"{where}: the inputs' shapes {[a.shape for a in arrays]} do not broadcast") from None
        axes = _axes(axis, len(shape), where)
        kept = [d for d in range(len(shape)) if d not in axes]
        out_shape = tuple(1 if d in axes else shape[d] for d in range(len(shape))) if keepdims else \
            tuple(shape[d] for d in kept)
        types = kp.bind_types(params, values, where)
        dtypes = [kp.dtype_of(p, types, where) for p in params]
        for k in range(nin, nin + nout):
            if values[k] is None:
                from ._creation import empty
                values[k] = empty(out_shape, dtypes[k])
            elif not isinstance(values[k], ndarray) or values[k].shape != out_shape:
                raise ValueError(f"{where}: output {params[k].name!r} must be a device array of shape {out_shape}")
        reduce_dt = self.reduce_type if self.reduce_type is not None else dtypes[nin]
        kp.ctype(reduce_dt, where)
        with stream if stream is not None else contextlib.nullcontext():
            self._launch(params, values, dtypes, types, reduce_dt, shape, axes, kept, keepdims)
        outs = values[nin:]
        return outs[0] if nout == 1 else tuple(outs)

    def _launch(self, params, values, dtypes, types, reduce_dt, shape, axes, kept, keepdims):
        nin = len(self.in_params)
        rows = int(np.prod([shape[d] for d in kept]))
        count = int(np.prod([shape[d] for d in axes]))
        if rows == 0:
            return
        key = (tuple(dtypes), tuple(isinstance(v, ndarray) for v in values), reduce_dt, len(shape), tuple(axes))
        kernel = self._kernels.get(key)
        if kernel is None:
            kernel = self._kernels[key] = RawKernel(self._source(params, values, dtypes, types, reduce_dt, len(shape),
                                                                 axes, kept), self.name, self.options)
        kargs = []
        for k, (p, v, dt) in enumerate(zip(params, values, dtypes)):
            if not isinstance(v, ndarray):
                kargs.append(dt.type(v))
                continue
            kargs.append(v)
            if k < nin:
                kargs += [np.int64(s) for s in broadcast_to(v, shape).strides]
            else:  # outputs: strides over the kept axes (their own axes, or with unit axes in between)
                strides = [v.strides[d] for d in kept] if keepdims else list(v.strides)
                kargs += [np.int64(s) for s in strides]
        kargs += [np.int64(d) for d in shape] + [np.int64(rows), np.int64(count)]
        kernel((min(rows, _MAX_BLOCKS),), (BLOCK,), tuple(kargs))

    def _source(self, params, values, dtypes, types, reduce_dt, ndim, axes, kept):
        nin = len(self.in_params)
        sig, ins, outs = [], [], []
        for k, (p, v, dt) in enumerate(zip(params, values, dtypes)):
            c = kp.ctype(dt, self.name)
            if not isinstance(v, ndarray):
                sig.append(f"{c} _v_{p.name}")
            elif k < nin:
                sig += [f"const char* _p_{p.name}"] + [f"long long _s_{p.name}_{d}" for d in range(ndim)]
                ins.append(p.name)
            else:
                sig += [f"char* _p_{p.name}"] + [f"long long _s_{p.name}_{d}" for d in kept]
                outs.append(p.name)
        sig += [f"long long _d{d}" for d in range(ndim)] + ["long long _rows", "long long _count"]
        R = kp.ctype(reduce_dt, self.name)
        L = [f"#define simt_reduce(a, b) ({self.reduce_expr})",
             f"#define simt_post_map(a) ({self.post_map_expr})",
             f"typedef {R} _type_reduce;",
             f'extern "C" __global__ void {self.name}({", ".join(sig)}) {{',
             # (raw bytes: CUDA refuses __shared__ arrays of types with constructors, such as complex<T>)
             f"    struct _partial_bytes {{ alignas(_type_reduce) char _b[sizeof(_type_reduce) * {BLOCK}]; }};",
             "    __shared__ _partial_bytes _partial_raw;",
             "    _type_reduce* const _partial = reinterpret_cast<_type_reduce*>(&_partial_raw);",
             "    const int _t = threadIdx.x;",
             "    for (long long _row = blockIdx.x; _row < _rows; _row += gridDim.x) {",
             "        _type_reduce _acc = (_type_reduce)(" + self.identity + ");",
             "        for (long long _j = _t; _j < _count; _j += blockDim.x) {"]
        L += [f"            long long _off_{a} = 0;" for a in ins]
        L += offset_lines("_row", kept, ins, "            ")
        L += offset_lines("_j", axes, ins, "            ")
        for k, (p, v, dt) in enumerate(zip(params[:nin], values[:nin], dtypes[:nin])):
            c = kp.ctype(dt, self.name)
            src = f"*(const {c}*)(_p_{p.name} + _off_{p.name})" if isinstance(v, ndarray) else f"_v_{p.name}"
            L.append(f"            const {c} {p.name} = {src};")
        L += [f"            _type_reduce _mapped = (_type_reduce)({self.map_expr});",
              "            _acc = simt_reduce(_acc, _mapped);",
              "        }",
              "        _partial[_t] = _acc;",
              "        __syncthreads();",
              f"        for (int _half = {BLOCK // 2}; _half > 0; _half >>= 1) {{",
              "            if (_t < _half) _partial[_t] = simt_reduce(_partial[_t], _partial[_t + _half]);",
              "            __syncthreads();",
              "        }",
              "        if (_t == 0) {"]
        L += [f"            long long _off_{a} = 0;" for a in outs]
        L += offset_lines("_row", kept, outs, "            ")
        for p, dt in zip(params[nin:], dtypes[nin:]):
            c = kp.ctype(dt, self.name)
            L.append(f"            {c}& {p.name} = *({c}*)(_p_{p.name} + _off_{p.name});")
        L += ["            _type_reduce a = _partial[0];",
              "            simt_post_map(a);",
              "        }",
              "        __syncthreads();",  # (the next row reuses _partial)
              "    }",
              "}",
              ""]
        headers = kp.headers_for(list(dtypes) + list(types.values()) + [reduce_dt],
                                 (self.map_expr, self.reduce_expr, self.post_map_expr, self.identity, self.preamble))
        return "\n".join([headers + self.preamble, RAW_VIEW, typedefs(types)] + L)


def _axes(axis, ndim, where):
    if axis is None:
        return tuple(range(ndim))
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in items:
        try:
            a = operator.index(a)
        except TypeError:
            raise TypeError(f"{where}: axis must be an int or a tuple of ints, got {axis!r}") from None
        if not -ndim <= a < ndim:
            raise np.exceptions.AxisError(f"{where}: axis {a} is out of bounds for an array of dimension {ndim}")
        a %= ndim
        if a in out:
            raise ValueError(f"{where}: axis {a} appears twice")
        out.append(a)
    return tuple(sorted(out))

