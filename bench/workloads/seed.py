"""The seed program (examples/vecadd.py): its kernel at the seed's size against NumPy and numba's
CUDA simulator (cpu backend) or the GPU anchors, and the whole script timed cold and warm."""
import json
import tempfile

from ..child import failure, run_python
from ..measure import ArrayCase, close_enough
from ..model import Cell, Row
from ..stats import linear_fit, median, summarize
from ..suite import workload
from .common import KERNEL_LIBS, cells_for, size_label

SEED_N = 2**24 + 11
# The foundation issue's targets for examples/vecadd.py on the 2-core cpu machine.
SCRIPT_TARGETS_S = {"cold": 5.0, "warm": 1.5}

METHOD = ("Kernel row: median time of one vecadd at the seed's size (simt and numba-cuda launch the seed's "
          "kernel, block 256; the others call their add), checked against NumPy. numba's CUDA simulator "
          "(NUMBA_ENABLE_CUDASIM=1, cpu backend only) runs the same kernel in a child process at small "
          "sizes only; its figure is extrapolated from a linear fit of time against n and marked so. "
          "Script rows: wall time of `python examples/vecadd.py` in a new process, including interpreter "
          "start, import, random numbers, compilation (cold: empty SIMT_CACHE_DIR; warm: the same "
          "directory again), the launch, the copy back and NumPy's check; targets apply to the 2-core "
          "cpu machine. The numpy column is the same script's host side in NumPy alone (the same arrays "
          "made, added, copied back and checked), run in the same rounds: what a new process touching "
          "that much fresh memory costs the machine itself.")


def simulator_cell(ctx):
    """numba's CUDA simulator at the seed's size, extrapolated from small sizes."""
    if ctx.backend != "cpu":
        return Cell.na("the CUDA simulator is compared on the cpu backend")
    import importlib.util
    if importlib.util.find_spec("numba") is None:
        return Cell.na("numba is not installed")
    sizes = [256, 1024, 2048] if ctx.quick else [512, 1024, 2048, 4096, 8192]
    try:
        _, done = run_python(ctx.root, ["-m", "bench.probes.numba_sim", *map(str, sizes)],
                             {"NUMBA_ENABLE_CUDASIM": "1"})
        if done.returncode:
            return Cell.error(failure(done))
        times = {int(k): v for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}
    except Exception as e:
        return Cell.error(f"{type(e).__name__}: {e}")
    intercept, per_element = linear_fit(list(times), list(times.values()))
    seconds = intercept + per_element * SEED_N
    note = (f"extrapolated: simulated n = {', '.join(map(str, sizes))} only, linear fit "
            f"({per_element * 1e6:.0f} µs per element)")
    return Cell.ok(seconds * 1e3, note, {"measured_s": {str(k): v for k, v in times.items()},
                                         "per_element_s": per_element})


def kernel_row(ctx):
    a, b = ctx.rng.uniform(-1, 1, SEED_N), ctx.rng.uniform(-1, 1, SEED_N)
    case = ArrayCase("vecadd", [a, b], a + b, 0.0, lambda work, s: s * 1e3,
                     lambda r, e: close_enough(r, e, 0.0, 1e-15))
    ctx.log(f"  vecadd kernel {size_label(SEED_N)}")
    row = Row(f"vecadd kernel, {size_label(SEED_N)}", "ms", False, params={"n": SEED_N})
    row.cells = cells_for(ctx, KERNEL_LIBS, case)
    ctx.log("  numba CUDA simulator")
    row.cells["numba-sim"] = simulator_cell(ctx)
    return row


# The seed script's host side in NumPy alone: the same arrays made, added, copied and checked.
# Its time in the same rounds shows what the machine itself costs a new process touching that
# much fresh memory (on a VM the first touch of memory the host has taken back varies by seconds).
NUMPY_SCRIPT = """
import numpy as np
n = 2**24 + 11
a = np.random.uniform(-1, 1, n)
b = np.random.uniform(-1, 1, n)
c = np.zeros_like(a)
c[:] = a + b
a_np, b_np, c_np = a.copy(), b.copy(), c.copy()
np.testing.assert_array_almost_equal(c_np, a_np + b_np)
print("Test succeeded")
"""


def script_rows(ctx):
    runs = 1 if ctx.quick else 5
    samples = {(lib, phase): [] for lib in ("simt", "numpy") for phase in ("cold", "warm")}
    problems = {}
    scripts = {"simt": ["examples/vecadd.py"], "numpy": ["-c", NUMPY_SCRIPT]}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="simt-bench-seed-") as cache:
            for phase in ("cold", "warm"):
                for lib, args in scripts.items():
                    seconds, done = run_python(ctx.root, args, {"SIMT_CACHE_DIR": cache})
                    if done.returncode or "Test succeeded" not in done.stdout:
                        problems[lib] = f"{args[0] if lib == 'simt' else 'the NumPy script'} failed ({failure(done)})"
                    samples[lib, phase].append(seconds)
        ctx.log("  examples/vecadd.py: " + ", ".join(
            f"{phase} {samples['simt', phase][-1]:.2f} s (numpy {samples['numpy', phase][-1]:.2f} s)"
            for phase in ("cold", "warm")))
    rows = []
    for phase in ("cold", "warm"):
        cells = {}
        for lib in scripts:
            values = samples[lib, phase]
            value, stats = median(values), summarize(values)
            cells[lib] = Cell.wrong(value, problems[lib], stats) if lib in problems else Cell.ok(value, stats=stats)
        target = SCRIPT_TARGETS_S[phase] if ctx.backend == "cpu" else None
        label = "cold: empty kernel cache" if phase == "cold" else "warm: kernel cache filled"
        rows.append(Row(f"examples/vecadd.py, {label}", "s", False, cells, params={"phase": phase}, target=target))
    return rows


@workload("seed", "The seed program: examples/vecadd.py", METHOD)
def run(ctx):
    rows = [kernel_row(ctx)] + script_rows(ctx)
    notes = []
    if ctx.backend == "cpu":
        notes.append("script targets (foundation issue): within 5 s cold and 1.5 s warm on the 2-core cpu machine")
    return rows, notes
