"""Source text of the block-cooperative reduction kernel (the cuda backend's path for whole arrays
and contiguous rows). A bounded grid of blocks loops over work items (output o, split s); the
threads of a block read split s of row o in coalesced strides of the block, each folding
`unroll` independent accumulators, then the block combines its threads through warp shuffles
and shared memory and thread 0 stores one partial out[o, s] (or the final out[o])."""
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ._kernelgen import type_name, u64, unravel
from ._reduce_kernels import (ARG_OPS, ReduceSpec, _as_partial, _element, _fold, _identity, _replace_test,
                              premap_lines, premap_params, store_result, strided_loop)

_INT64_MAX = "np.int64(9223372036854775807)"
FULL_MASK = "0xffffffff"
# Types warp shuffles move (the kernel language's shfl_*_sync accepts exactly these).
SHUFFLE_DTYPES = {np.dtype(t) for t in (np.int32, np.int64, np.uint32, np.uint64, np.float32, np.float64)}


@dataclass(frozen=True)
class BlockSpec:
    reduce: ReduceSpec  # op and dtypes (kept: leading axes of x; x has exactly one reduced axis)
    threads: int        # threads per block (a multiple of 32)


def _combine(spec, value, index, ind):
    """Statements folding a partial (value, index) into the thread's a0 (and i0)."""
    if spec.op in ARG_OPS:
        test = _replace_test(spec.op, value, index, "a0", "i0", spec.acc_dtype)
        return [f"{ind}if {test}:", f"{ind}    a0 = {value}", f"{ind}    i0 = {index}"]
    return _fold(_as_partial(spec), 0, value, None, ind)


def _block_combine(spec, threads, ind):
    """Statements leaving the block's combined a0 (i0) in thread 0. Every thread runs them."""
    is_arg = spec.op in ARG_OPS
    L = []
    if spec.acc_dtype in SHUFFLE_DTYPES:
        def warp_fold(ind2, widths):
            out = []
            for d in widths:
                out.append(f"{ind2}v = cuda.shfl_down_sync({FULL_MASK}, a0, {d})")
                if is_arg:
                    out.append(f"{ind2}j = cuda.shfl_down_sync({FULL_MASK}, i0, {d})")
                out += _combine(spec, "v", "j" if is_arg else None, ind2)
            return out
        L += warp_fold(ind, (16, 8, 4, 2, 1))
        nwarps = threads // 32
        if nwarps > 1:
            L += [f"{ind}if lane == 0:", f"{ind}    sh[warp] = a0"]
            if is_arg:
                L.append(f"{ind}    shi[warp] = i0")
            L += [f"{ind}cuda.syncthreads()",
                  f"{ind}if warp == 0:",
                  f"{ind}    a0 = {_identity(spec.op, spec.acc_dtype)}"]
            if is_arg:
                L.append(f"{ind}    i0 = {_INT64_MAX}")
            L += [f"{ind}    if lane < {nwarps}:", f"{ind}        a0 = sh[lane]"]
            if is_arg:
                L.append(f"{ind}        i0 = shi[lane]")
            widths = [d for d in (16, 8, 4, 2, 1) if d < nwarps]
            L += warp_fold(ind + "    ", widths)
        return L
    # Types shuffles cannot move (bool, small integers, complex): a tree in shared memory.
    # (Complex values go as two real arrays: shared arrays of complex type would need a
    # constructor run per element, which CUDA does not allow.)
    def store(slot, ind2):
        if spec.acc_dtype.kind == "c":
            out = [f"{ind2}sh[{slot}] = a0.real", f"{ind2}shm[{slot}] = a0.imag"]
        else:
            out = [f"{ind2}sh[{slot}] = a0"]
        return out + ([f"{ind2}shi[{slot}] = i0"] if is_arg else [])

    def load(slot):
        if spec.acc_dtype.kind == "c":
            return f"{type_name(spec.acc_dtype)}(complex(sh[{slot}], shm[{slot}]))"
        return f"sh[{slot}]"

    width = 1
    while width < threads:
        width *= 2
    L += store("tid", ind)
    L.append(f"{ind}cuda.syncthreads()")
    width //= 2
    while width >= 1:
        L.append(f"{ind}if tid < {width} and tid + {width} < {threads}:")
        L.append(f"{ind}    v = {load(f'tid + {width}')}")
        L += _combine(spec, "v", f"shi[tid + {width}]" if is_arg else None, ind + "    ")
        L += store("tid", ind + "    ")
        L.append(f"{ind}cuda.syncthreads()")
        width //= 2
    return L


@lru_cache(maxsize=None)
def block_reduce_source(bspec):
    """Kernel source. Arguments: x, [xi], [m], out, [outi], nout, nsplit, divisor. x has the kept
    axes then the reduced one; work item w = o * nsplit + s; split s of a row covers indices
    s*threads + tid + k*nsplit*threads. Partial passes store out[o, s] (and outi[o, s])."""
    spec, T = bspec.reduce, bspec.threads
    K = spec.kept
    E = max(1, spec.unroll)
    is_arg = spec.op in ARG_OPS
    params = ["x"] + (["xi"] if is_arg and spec.partial_input else []) + premap_params(spec)
    if spec.op == "sumsq" and not spec.partial_input:
        params.append("m")
    params.append("out")
    if is_arg and not spec.final:
        params.append("outi")
    params += ["nout", "nsplit", "divisor"]
    shuffles = spec.acc_dtype in SHUFFLE_DTYPES
    shared_len = max(1, T // 32) if shuffles else T
    acc = spec.acc_dtype
    if acc.kind == "c":
        acc = np.dtype(acc.char.lower())  # the component type (complex64 -> float32)
    L = [f"def simt_block_reduce({', '.join(params)}):"] + premap_lines(spec, "    ") + [
         f"    sh = cuda.shared.array({shared_len}, {type_name(acc)})"]
    if acc != spec.acc_dtype:
        L.append(f"    shm = cuda.shared.array({shared_len}, {type_name(acc)})")
    if is_arg:
        L.append(f"    shi = cuda.shared.array({shared_len}, np.int64)")
    # Positions and work items are uint64: an index that cannot be negative needs no wrap-around,
    # which otherwise costs four instructions per load in the unrolled loop.
    L += ["    tid = cuda.threadIdx.x",
          "    lane = tid % 32",
          "    warp = tid // 32",
          f"    n = np.uint64(x.shape[{K}])",
          "    splits = np.uint64(nsplit)",
          f"    step = splits * {u64(T)}",
          "    items = np.uint64(nout) * splits",
          "    item = np.uint64(cuda.blockIdx.x)",
          "    while item < items:",
          "        o = item // splits",
          "        s = item - o * splits"]
    ind = " " * 8
    L += unravel("o", "x", K, ind, unsigned=True)
    kept = [f"k{j}" for j in range(K)]
    if "m" in params:
        L.append(f"{ind}mean0 = m[o]")
    for u in range(E):
        L.append(f"{ind}a{u} = {_identity(spec.op, spec.acc_dtype)}")
        if is_arg:
            L.append(f"{ind}i{u} = {_INT64_MAX}")
    L.append(f"{ind}r = s * {u64(T)} + np.uint64(tid)")

    def fold_at(u, position, ind2):
        sub = ", ".join(kept + [position])
        index = f"xi[{sub}]" if spec.partial_input else f"np.int64({position})"
        return _fold(spec, u, _element(spec, sub, "mean0"), index, ind2)

    L += strided_loop(fold_at, E, 1, "n", ind, literal=u64)
    for u in range(1, E):
        L += _combine(spec, f"a{u}", f"i{u}" if is_arg else None, ind)
    L += _block_combine(spec, T, ind)
    L.append(f"{ind}if tid == 0:")
    L += store_result(spec, "o, s", "o", "a0", "i0", ind + "    ")
    # The next item writes shared memory that this one's last readers may still be reading.
    L += [f"{ind}cuda.syncthreads()", f"{ind}item += np.uint64(cuda.gridDim.x)"]
    return "\n".join(L) + "\n"
