import os
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def rng(request):
    """A NumPy generator with a fresh seed per test; the seed is shown when the test fails."""
    seed = int.from_bytes(os.urandom(4), "little")
    request.node.user_properties.append(("seed", seed))
    print(f"random seed: {seed}")
    return np.random.default_rng(seed)


@pytest.fixture
def run_script():
    """Runs a Python file in a fresh interpreter with the current environment; returns the result."""
    import subprocess

    def run(path, *args, env=None, timeout=600):
        full_env = dict(os.environ)
        full_env.update(env or {})
        return subprocess.run([sys.executable, path, *args], capture_output=True, text=True, env=full_env,
                              timeout=timeout, cwd=ROOT)

    return run


@pytest.fixture
def kernel_module(tmp_path):
    """Writes Python source (kernels need a real source file) to a file and imports it as a module."""
    import importlib.util

    def load(source, name="kernel_module"):
        path = tmp_path / f"{name}.py"
        path.write_text(source)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load
