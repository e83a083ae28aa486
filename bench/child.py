"""Running a Python child process the way the suite needs: same interpreter, same simt, the
repository on the path, extra environment, wall time measured."""
import os
import subprocess
import sys
import time


def child_env(root, extra=None):
    """The parent's environment with the repository and the imported simt first on PYTHONPATH."""
    import simt
    env = dict(os.environ)
    paths = [root, os.path.dirname(os.path.dirname(os.path.abspath(simt.__file__)))]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env.update(extra or {})
    return env


def run_python(root, args, extra_env=None, timeout=600):
    """Runs `python ARGS` in the repository root; returns (seconds, CompletedProcess)."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=root, env=child_env(root, extra_env), capture_output=True,
                          text=True, timeout=timeout)
    return time.perf_counter() - t0, done


def failure(done):
    """A one-line description of a failed child process."""
    lines = (done.stderr or done.stdout or "").strip().splitlines()
    return f"exit {done.returncode}: {lines[-1] if lines else 'no output'}"
