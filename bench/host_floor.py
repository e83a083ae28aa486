"""The CUDA C++ floor of the host-cost workloads (bench/cuda/launch_floor.cu) as a server process:
built with nvcc for this device, started once, and asked for one repetition of a case at a time,
so that its repetitions interleave with the Python libraries' (see interleave.py)."""
import os
import select
import subprocess
import tempfile

from .machine import find_nvcc


class FloorUnavailable(Exception):
    """Why the floor has no figures here (no nvcc, not the cuda backend)."""


class HostFloor:
    """launch_floor.cu running in a child process; sample(case) is seconds per operation."""

    def __init__(self, compute_capability, operations, spin_ms):
        nvcc = find_nvcc()
        if not nvcc:
            raise FloorUnavailable("nvcc not found")
        major, minor = compute_capability
        source = os.path.join(os.path.dirname(__file__), "cuda", "launch_floor.cu")
        self._tmp = tempfile.TemporaryDirectory(prefix="simt-bench-")
        exe = os.path.join(self._tmp.name, "launch_floor")
        built = subprocess.run([nvcc, "-O2", "-std=c++17", f"-arch=sm_{major}{minor}", "-o", exe, source],
                               capture_output=True, text=True, timeout=300)
        if built.returncode:
            self._tmp.cleanup()
            raise RuntimeError(f"nvcc failed: {built.stderr.strip()[-300:]}")
        self._proc = subprocess.Popen([exe, str(operations), str(spin_ms)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        try:
            self.spin_s = self._answer("start-up")
        except BaseException:
            self._stop()
            raise

    def _answer(self, what, timeout_s=120):
        # One line per request; nothing else is buffered between them, so select() on the pipe
        # tells whether the line has come.
        ready, _, _ = select.select([self._proc.stdout], [], [], timeout_s)
        line = self._proc.stdout.readline() if ready else ""
        if not line:
            self._stop()
            err = self._proc.stderr.read().strip()[-300:]
            raise RuntimeError(f"launch_floor {'stopped' if ready else f'gave no answer in {timeout_s} s'} during "
                               f"{what}: {err or 'no message'}")
        return float(line)

    def _stop(self):
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        self._tmp.cleanup()

    def sample(self, case):
        self._proc.stdin.write(case + "\n")
        self._proc.stdin.flush()
        return self._answer(repr(case))

    def close(self):
        """Ends the child; a wrong final result (x + y not 3.75) is raised here."""
        self._proc.stdin.close()
        try:
            rc = self._proc.wait(timeout=60)
        finally:
            self._stop()
        err = self._proc.stderr.read().strip()
        if rc:
            raise RuntimeError(f"launch_floor exited with {rc}: {err[-300:]}")
