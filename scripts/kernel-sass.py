"""The machine code the cuda backend would run for simt's own array kernels, without a GPU: runs
an expression on the cpu backend with the cuda backend's kernel plans, captures every kernel the
library generates for it, compiles each with NVRTC for sm_90 as the cuda backend would, and
prints its SASS line count (the listing too with --list; cuobjdump from the CUDA toolkit is
needed for SASS, else the PTX line count is shown).

    python scripts/kernel-sass.py "simt.sum(a)" --dtype float32
    python scripts/kernel-sass.py "simt.cumsum(a)" --dtype float64 --list 0
"""
import argparse
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

os.environ["SIMT_BACKEND"] = "cpu"
import simt  # noqa: E402
from simt import _kernelgen as kg, _reduce_passes, _scan  # noqa: E402
from simt.pathfinder import find_nvrtc  # noqa: E402


def capture(expression, a):
    """(name, dispatcher, options, launch arguments) of each kernel `expression` launches."""
    seen = []
    kernel, launch = kg.kernel, kg.launch

    def recording_kernel(name, source, **options):
        k = kernel(name, source, **options)
        seen.append([name, k, options, None])
        return k

    def recording_launch(k, grid, block, *args):
        for entry in seen:
            if entry[1] is k and entry[3] is None:
                entry[3] = args
        return launch(k, grid, block, *args)

    kg.kernel, kg.launch = recording_kernel, recording_launch
    try:
        eval(expression, {"simt": simt, "np": np, "a": a})
    finally:
        kg.kernel, kg.launch = kernel, launch
    return [e for e in seen if e[3] is not None]


def signature(args):
    def one(x):
        if isinstance(x, simt.ndarray):
            return f"{np.dtype(x.dtype).name}[{', '.join([':'] * (x.ndim - 1) + ['::1'])}]"
        return "int64" if isinstance(x, int) else "float64"
    return "void(" + ", ".join(one(x) for x in args) + ")"


def compile_sm90(source, options):
    nv = ctypes.CDLL(find_nvrtc())
    opts = [b"--gpu-architecture=sm_90", b"--std=c++17", b"--minimal"]
    if options.get("max_registers"):
        opts.append(f"--maxrregcount={options['max_registers']}".encode())
    prog = ctypes.c_void_p()
    if nv.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"kernel.cu", 0, None, None) != 0:
        raise RuntimeError("nvrtcCreateProgram failed")
    try:
        if nv.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts)) != 0:
            raise RuntimeError("NVRTC could not compile the kernel")
        size = ctypes.c_size_t()
        nv.nvrtcGetCUBINSize(prog, ctypes.byref(size))
        cubin = ctypes.create_string_buffer(size.value)
        nv.nvrtcGetCUBIN(prog, cubin)
        nv.nvrtcGetPTXSize(prog, ctypes.byref(size))
        ptx = ctypes.create_string_buffer(size.value)
        nv.nvrtcGetPTX(prog, ptx)
        return cubin.raw, ptx.value.decode()
    finally:
        nv.nvrtcDestroyProgram(ctypes.byref(prog))


def sass_lines(cubin):
    tool = shutil.which("cuobjdump") or next((p for p in ("/usr/local/cuda/bin/cuobjdump",) if os.path.exists(p)), None)
    if not tool:
        return None
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        out = subprocess.run([tool, "-sass", f.name], capture_output=True, text=True, check=True).stdout
    return [line.split("*/", 1)[1].split(";")[0].strip() for line in out.splitlines()
            if line.strip().startswith("/*") and "*/" in line and line.split("*/", 1)[1].strip()]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("expression", help="Python expression over `a` (and simt, np)")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--size", type=int, default=1 << 22)
    p.add_argument("--list", type=int, metavar="K", help="print the SASS of kernel K")
    args = p.parse_args()
    _reduce_passes.TUNING["cpu"] = dict(_reduce_passes.TUNING["cuda"], max_blocks=528)
    _scan.TUNING["cpu"] = dict(_scan.TUNING["cuda"])
    a = simt.asarray(np.random.default_rng(0).random(args.size).astype(args.dtype))
    for i, (name, k, options, launch_args) in enumerate(capture(args.expression, a)):
        sig = signature(launch_args)
        cubin, ptx = compile_sm90(k._generate("cuda", sig)[0], options)
        sass = sass_lines(cubin)
        count = f"{len(sass)} SASS lines" if sass is not None else f"{len(ptx.splitlines())} PTX lines (no cuobjdump)"
        print(f"[{i}] {name} {sig} {options}: {count}")
        if args.list == i:
            print("\n".join(sass if sass is not None else ptx.splitlines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
