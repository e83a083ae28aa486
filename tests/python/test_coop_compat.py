"""A numba-cuda + cuda.coop program runs unchanged under `python -m simt.compat`: `from cuda
import coop`, `import cuda.cooperative.experimental`, numba types and numba.config, and
@cuda.jit(link=primitive.files)."""
import os
import re
import subprocess
import sys
import textwrap

from conftest import ROOT

SCRIPT = """
import numba
import numpy as np
from numba import cuda
import cupy as cp
from cuda import coop
import cuda.cooperative.experimental as cudax

numba.config.CUDA_LOW_OCCUPANCY_WARNINGS = 0


def max_op(a, b):
    return a if a > b else b


threads_per_block = 128
items_per_thread = 4
block_reduce = coop.block.reduce(numba.int32, threads_per_block, max_op)
block_exclusive_sum = cudax.block.exclusive_sum(numba.int32, threads_per_block, items_per_thread)
block_radix_sort = coop.block.radix_sort_keys(numba.int32, threads_per_block, items_per_thread)


@cuda.jit(link=block_reduce.files + block_exclusive_sum.files + block_radix_sort.files)
def kernel(input, output, scanned, keys):
    block_output = block_reduce(input[cuda.threadIdx.x])
    if cuda.threadIdx.x == 0:
        output[0] = block_output
    thread_data = cuda.local.array(shape=items_per_thread, dtype=numba.int32)
    for i in range(items_per_thread):
        thread_data[i] = 1
    block_exclusive_sum(thread_data, thread_data)
    for i in range(items_per_thread):
        scanned[cuda.threadIdx.x * items_per_thread + i] = thread_data[i]
    thread_keys = cuda.local.array(shape=items_per_thread, dtype=numba.int32)
    for i in range(items_per_thread):
        thread_keys[i] = keys[cuda.threadIdx.x * items_per_thread + i]
    block_radix_sort(thread_keys)
    for i in range(items_per_thread):
        keys[cuda.threadIdx.x * items_per_thread + i] = thread_keys[i]


tile = threads_per_block * items_per_thread
h_input = np.random.randint(0, 100, threads_per_block, dtype=np.int32)
d_output = cuda.device_array(1, dtype=np.int32)
d_scanned = cuda.device_array(tile, dtype=np.int32)
d_keys = cuda.to_device(np.arange(tile - 1, -1, -1, dtype=np.int32))
kernel[1, threads_per_block](cuda.to_device(h_input), d_output, d_scanned, d_keys)
assert cp.asnumpy(d_output)[0] == np.max(h_input)
assert (cp.asnumpy(d_scanned) == np.arange(tile)).all()
assert (cp.asnumpy(d_keys) == np.arange(tile)).all()
print(f"Block max reduction: {cp.asnumpy(d_output)[0]} (expected: {np.max(h_input)})")
"""


def test_numba_cuda_coop_script_runs_unchanged(tmp_path):
    script = tmp_path / "coop_example.py"
    script.write_text(textwrap.dedent(SCRIPT))
    r = subprocess.run([sys.executable, "-m", "simt.compat", str(script)], capture_output=True, text=True,
                       env=dict(os.environ), timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    match = re.fullmatch(r"Block max reduction: (\d+) \(expected: (\d+)\)", r.stdout.strip())
    assert match and match[1] == match[2], r.stdout


def test_cuda_coop_module_paths_resolve_to_simt(tmp_path):
    script = tmp_path / "paths.py"
    script.write_text(textwrap.dedent("""
        import cuda.coop
        import cuda.coop.block
        from cuda.coop import warp
        import cuda.cooperative.experimental as cudax
        import simt.cuda.coop
        assert cuda.coop is simt.cuda.coop and cudax is simt.cuda.coop
        assert cuda.coop.block is simt.cuda.coop.block and warp is simt.cuda.coop.warp
        print("ok")
    """))
    r = subprocess.run([sys.executable, "-m", "simt.compat", str(script)], capture_output=True, text=True,
                       env=dict(os.environ), timeout=600, cwd=ROOT)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
