"""One CPU for the host-cost workloads. On a virtual machine the host cost of a launch depends on
which CPU the caller runs on (on the H200 machine, 4.1 µs on one vCPU and 5.0-5.3 µs on others,
the same program): an unpinned process lands wherever the scheduler puts it, and so does the CUDA
C++ floor's process. Pinning the measuring thread, and so the floor's server it starts, to one CPU
makes a same-run comparison compare implementations rather than CPUs."""
import contextlib
import os


def chosen_cpu(allowed):
    """SIMT_BENCH_CPU where set (and allowed), else the highest allowed CPU (CPU 0 tends to take the
    machine's interrupts)."""
    wanted = os.environ.get("SIMT_BENCH_CPU", "")
    if wanted.strip():
        try:
            cpu = int(wanted)
        except ValueError:
            raise ValueError(f"SIMT_BENCH_CPU={wanted!r} is not a CPU number") from None
        if cpu not in allowed:
            raise ValueError(f"SIMT_BENCH_CPU={cpu} is not among this process's CPUs {sorted(allowed)}")
        return cpu
    return max(allowed)


@contextlib.contextmanager
def one_cpu(notes):
    """Runs the body with the calling thread pinned to one CPU (child processes and threads started
    meanwhile inherit it, and keep it afterwards: the libraries' own helper threads started in the
    body stay on that CPU); appends a note saying which. Where affinity cannot be set, leaves it
    and says so."""
    if not hasattr(os, "sched_getaffinity"):
        notes.append("not pinned to a CPU: this platform has no sched_setaffinity")
        yield None
        return
    allowed = os.sched_getaffinity(0)
    cpu = chosen_cpu(allowed)
    os.sched_setaffinity(0, {cpu})
    notes.append(f"every implementation ran on CPU {cpu} (the measuring thread and the CUDA C++ floor's "
                 f"process pinned there; {len(allowed)} CPUs allowed): launch costs differ between CPUs here")
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, allowed)


def on_one_cpu_for_cuda(ctx, measure):
    """measure(ctx, notes) -> (rows, notes), on one CPU where the backend is cuda (on the cpu
    backend simt's own threads need the machine's CPUs)."""
    notes = []
    if ctx.backend != "cuda":
        return measure(ctx, notes)
    with one_cpu(notes):
        return measure(ctx, notes)
