"""Compile latency of the seed's vecadd: cold (empty cache, new process), warm (disk cache, new
process) and hot (in memory), and of a different kernel later in a cold process, for simt,
numba-cuda and CuPy."""
import json
import tempfile

from ..child import failure, run_python
from ..model import Cell, Row
from ..stats import median, summarize
from ..suite import workload

METHOD = ("Each figure is the time of the first launch of the seed's vecadd (n = 1000) plus a "
          "synchronize, in a fresh process, after the runtime is up: it covers parsing, typing, code "
          "generation, the host compiler (cpu backend) or libNVVM and the driver's JIT, or NVRTC, for kernels "
          "outside the NVVM IR path (cuda backend), loading and the launch. "
          "Cold: empty cache directory (SIMT_CACHE_DIR, NUMBA_CACHE_DIR with cache=True, "
          "CUPY_CACHE_DIR). Warm: a new process finding the kernel in that directory. Hot: a new "
          "@cuda.jit (simt) or RawKernel (CuPy) of the same source in the process that already compiled it. "
          "Later: the first launch of a different kernel (2 A - B) in the cold process, after the first "
          "one: what each further new kernel costs. The driver's own JIT cache is off (CUDA_CACHE_DISABLE=1). "
          "Median over processes; every result is checked.")

CACHE_VARIABLE = {"simt": "SIMT_CACHE_DIR", "numba": "NUMBA_CACHE_DIR", "cupy": "CUPY_CACHE_DIR"}
PHASES = ("cold", "warm", "hot", "later")
HOT_NA = {"numba": "numba-cuda keeps compiled code per @cuda.jit object: a new one compiles again"}


def _probe(ctx, name, cache_dir):
    env = {CACHE_VARIABLE[name]: cache_dir, "CUDA_CACHE_DISABLE": "1"}
    seconds, done = run_python(ctx.root, ["-m", "bench.probes.first_launch", name], env)
    if done.returncode:
        raise RuntimeError(failure(done))
    return json.loads(done.stdout.strip().splitlines()[-1])


def _expectation(name, phase, result):
    """What is wrong with a probe result, or None (a cold run must compile, a warm one must not)."""
    if not result.get("correct"):
        return "the kernel computed a wrong vecadd"
    counters = result.get("counters")
    if name == "simt" and counters and any(counters.values()):  # only where the backend counts
        if phase == "cold" and counters.get("compiled", 0) < 1:
            return f"the cold run compiled nothing ({counters})"
        if phase == "warm" and (counters.get("compiled", 0) or counters.get("disk_hits", 0) < 1):
            return f"the warm run did not load from the disk cache ({counters})"
    return None


def _lib_cells(ctx, name, runs):
    reason = ctx.libs[name].unavailable_reason() if name != "simt" else None
    if reason:
        return {phase: Cell.na(reason) for phase in PHASES}
    samples = {phase: [] for phase in PHASES}
    problems = {}
    try:
        for _ in range(runs):
            with tempfile.TemporaryDirectory(prefix=f"simt-bench-{name}-") as cache:
                for phase in ("cold", "warm"):
                    result = _probe(ctx, name, cache)
                    samples[phase].append(result["first_launch_s"])
                    if "hot_s" in result:
                        samples["hot"].append(result["hot_s"])
                    if phase == "cold" and "later_s" in result:
                        samples["later"].append(result["later_s"])
                    problem = _expectation(name, phase, result)
                    if problem:
                        problems[phase] = problem
                    if not result.get("correct"):  # hot and later launches are checked with the same flag
                        problems["hot"] = problems["later"] = problem
            ctx.log(f"    {name}: cold {samples['cold'][-1]:.3f} s, warm {samples['warm'][-1]:.3f} s")
    except Exception as e:
        return {phase: Cell.error(f"{type(e).__name__}: {e}") for phase in PHASES}
    cells = {}
    for phase, values in samples.items():
        if not values:
            cells[phase] = Cell.na(HOT_NA.get(name, "not measured"))
        elif problems.get(phase):
            cells[phase] = Cell.wrong(median(values) * 1e3, problems[phase], summarize(values))
        else:
            cells[phase] = Cell.ok(median(values) * 1e3, stats=summarize(values))
    return cells


@workload("compile", "Compile latency of the seed's vecadd: first launch (ms)", METHOD)
def run(ctx):
    runs = 1 if ctx.quick else 3
    per_lib = {name: _lib_cells(ctx, name, runs) for name in ("simt", "numba", "cupy")}
    labels = {"cold": "cold: empty cache, new process", "warm": "warm: disk cache, new process",
              "hot": "hot: in memory, same process", "later": "later: a different kernel, same cold process"}
    rows = [Row(label, "ms", False, {name: cells[phase] for name, cells in per_lib.items()}, params={"phase": phase})
            for phase, label in labels.items()]
    return rows, []
