"""The workload registry, what a workload needs, the run context, and running a selection."""
import importlib.util
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, List

import numpy as np

from .machine import find_nvcc, last_level_cache_bytes, memory_bytes
from .model import ERROR, NA, OK, Section


@dataclass
class Need:
    """A requirement of a workload: check(ctx) returns None when met, else the reason it is not."""
    label: str
    check: Callable


def backend(name):
    return Need(f"the {name} backend",
                lambda ctx: None if ctx.backend == name else f"needs the {name} backend (simt runs on {ctx.backend})")


def module(name):
    return Need(f"the Python module {name}",
                lambda ctx: None if importlib.util.find_spec(name) else f"{name} is not installed")


def nvcc():
    return Need("nvcc (CUDA toolkit)",
                lambda ctx: None if find_nvcc() else "nvcc not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)")


@dataclass
class Workload:
    name: str
    title: str
    method: str                    # how it is measured, for the docs
    run: Callable                  # run(ctx) -> (rows, notes)
    needs: List[Need] = field(default_factory=list)


REGISTRY = {}


def workload(name, title, method, needs=()):
    """Registers run(ctx) as a workload. Rows whose implementation or operation is missing are
    reported as n/a by the workload itself; `needs` gate the whole workload."""
    def register(run):
        REGISTRY[name] = Workload(name, title, method, run, list(needs))
        return run
    return register


def load_workloads():
    from . import workloads  # noqa: F401 (registers on import)
    return REGISTRY


def select(names):
    """The registered workloads in suite order, filtered by exact name or name prefix."""
    registry = load_workloads()
    if not names:
        return list(registry.values())
    chosen = []
    for w in registry.values():
        if any(w.name == n or w.name.startswith(n) for n in names):
            chosen.append(w)
    unknown = [n for n in names if not any(w.name.startswith(n) for w in registry.values())]
    if unknown:
        raise SystemExit(f"unknown workload(s): {', '.join(unknown)}; known: {', '.join(registry)}")
    return chosen


class Context:
    """What every workload sees: mode, backend, libraries, repetition policy, memory budget."""

    def __init__(self, quick, backend_name, libs, root, log=print, seed=20240611):
        self.quick = quick
        self.mode = "quick" if quick else "full"
        self.backend = backend_name
        self.libs = libs
        self.root = root
        self.log = log
        self.rng = np.random.default_rng(seed)
        # Repetitions: enough to fill a time budget, within bounds; warm-up calls first.
        self.budget_s = 0.15 if quick else 1.0
        self.min_reps = 5 if quick else 15
        self.max_reps = 100 if quick else 1000
        self.warmup = 2 if quick else 3
        self.max_measure_s = 5.0 if quick else 30.0    # a slow implementation gets fewer repetitions
        self.cache_bytes = last_level_cache_bytes() if backend_name == "cpu" else gpu_l2_bytes(libs)
        self.shared = {}                                 # results one workload provides to others

    def host_budget_bytes(self):
        """Host memory a workload may hold at once: a share of what is available now."""
        share = 0.35 if self.backend == "cpu" else 0.5
        return int((memory_bytes("MemAvailable") or 8 * 1024 ** 3) * share)

    def device_budget_bytes(self):
        if self.backend == "cpu":
            return self.host_budget_bytes()
        total = self.libs["simt"].simt.cuda.Device().attributes.get("total_memory", 16 * 1024 ** 3)
        return int(total * 0.4)

    def fits(self, host_bytes, device_bytes):
        """None when the buffers fit the memory budget, else the reason they do not."""
        if self.backend == "cpu":
            need, budget = host_bytes + device_bytes, self.host_budget_bytes()
        else:
            host_budget = self.host_budget_bytes()
            if host_bytes > host_budget:
                return f"needs {host_bytes / 2**30:.1f} GiB of host memory (budget {host_budget / 2**30:.1f} GiB)"
            need, budget = device_bytes, self.device_budget_bytes()
        if need > budget:
            return f"needs {need / 2**30:.1f} GiB (budget {budget / 2**30:.1f} GiB)"
        return None

    def lib(self, name):
        return self.libs[name]


def gpu_l2_bytes(libs):
    """The GPU's L2 size, asked of CuPy or PyTorch when present; else a generous 128 MiB."""
    for name in ("cupy", "torch"):
        lib = libs.get(name)
        if lib is None or lib.unavailable_reason():
            continue
        try:
            if name == "cupy":
                return int(lib.cupy.cuda.Device().attributes["L2CacheSize"])
            return int(lib.torch.cuda.get_device_properties(0).L2_cache_size)
        except Exception:
            continue
    return 128 * 1024 ** 2


def run_workload(ctx, w):
    """Runs one workload into a Section; an unmet need or a crash becomes the section's note."""
    section = Section(w.name, w.title)
    for need in w.needs:
        reason = need.check(ctx)
        if reason:
            section.status, section.note = NA, reason
            return section
    t0 = time.perf_counter()
    try:
        rows, notes = w.run(ctx)
        section.rows, section.notes = rows, list(notes)
        section.status = OK
    except Exception as e:
        section.status = ERROR
        section.note = f"{type(e).__name__}: {e}"
        ctx.log(traceback.format_exc())
    section.seconds = round(time.perf_counter() - t0, 2)
    return section
