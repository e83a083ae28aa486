"""The CUDA C++ floor of the host-cost workloads (bench/cuda/launch_floor.cu) as a server process:
built with nvcc for this device, started once, and asked for one repetition of a case at a time,
so that its repetitions interleave with the Python libraries' (see interleave.py)."""
import os
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
        self.spin_s = self._answer("start-up")

    def _answer(self, what):
        line = self._proc.stdout.readline()
        if not line:
            err = self._proc.stderr.read().strip()[-300:]
            raise RuntimeError(f"launch_floor stopped during {what}: {err or 'no message'}")
        return float(line)

    def sample(self, case):
        self._proc.stdin.write(case + "\n")
        self._proc.stdin.flush()
        return self._answer(repr(case))

    def close(self):
        """Ends the child; a wrong final result (x + y not 3.75) is raised here."""
        self._proc.stdin.close()
        rc = self._proc.wait(timeout=60)
        err = self._proc.stderr.read().strip()
        self._tmp.cleanup()
        if rc:
            raise RuntimeError(f"launch_floor exited with {rc}: {err[-300:]}")
