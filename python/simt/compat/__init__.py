"""simt.compat: run a program written for numba.cuda and CuPy on simt, unmodified.

    python -m simt.compat script.py [args...]

For that one process, `import numba`, `from numba import cuda`, `from numba.cuda import ...`,
`import cupy as cp` and their submodules resolve to simt; nothing is installed globally and no
installed package is touched. `install()` does the same inside the current process."""
from ._hook import install, run_path, uninstall

__all__ = ["install", "uninstall", "run_path"]
