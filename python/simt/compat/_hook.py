"""The import hook of a compat run: a meta-path finder that answers numba, numba.cuda[.x], cupy and
cupy.x, cupyx[.x], cuda.coop[.x] / cuda.cooperative.experimental[.x] (CCCL's cooperative primitives), cuda.tile,
cuda.core[.experimental], cuda.bindings, cuda.compute and cuda.pathfinder with
simt's modules, active only in the process that installed it."""
import importlib
import importlib.abc
import importlib.util
import importlib.machinery
import os
import runpy
import sys

# Imported name (or name prefix) → the simt module that stands for it.
_ALIASES = {"cupy": "simt", "cupyx": "simt.cupyx", "numba.cuda": "simt.cuda", "cuda.coop": "simt.cuda.coop",
            "cuda.cooperative.experimental": "simt.cuda.coop", "cuda.tile": "simt.cuda.tile",
            # (cuda.core's older releases kept their API in cuda.core.experimental)
            "cuda.core.experimental": "simt.core", "cuda.core": "simt.core", "cuda.bindings": "simt.bindings",
            "cuda.compute": "simt.compute", "cuda.pathfinder": "simt.pathfinder",
            # numba's type objects and error classes (numba.types, numba.core.types, numba.core.errors)
            "numba.types": "simt.cuda.numba_types", "numba.core.types": "simt.cuda.numba_types",
            "numba.core.errors": "simt.compat.numba_errors"}
# Parents of aliased modules that simt has no module for: empty packages stand in for them
# (`cuda` only where no real `cuda` package, e.g. cuda-python, is installed).
_PACKAGE = "<package>"


def _target(fullname):
    if fullname == "numba":
        return "numba"
    if fullname == "numba.core":
        return _PACKAGE
    if fullname == "cuda.cooperative" or fullname == "cuda" and importlib.machinery.PathFinder.find_spec("cuda") is None:
        return _PACKAGE
    for alias, target in _ALIASES.items():
        if fullname == alias:
            return target
        if fullname.startswith(alias + "."):
            return target + fullname[len(alias):]
    if fullname.startswith("numba."):
        return ""  # numba's other subpackages are not provided
    return None


class _AliasLoader(importlib.abc.Loader):
    """Loads an alias by putting the real simt module under the alias's name (the import system
    then returns that module as is, leaving its own name and spec untouched)."""

    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        name = module.__spec__.name
        if self.target == "numba":
            from ._numba import make_module
            sys.modules[name] = make_module()
        elif self.target == _PACKAGE:
            module.__path__ = []  # a package: its aliased submodules are looked up through this finder
        else:
            sys.modules[name] = importlib.import_module(self.target)


class CompatFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        mapped = _target(fullname)
        if mapped is None:
            return None
        if mapped == "":
            raise ModuleNotFoundError(f"simt.compat provides numba.cuda only; there is no {fullname}", name=fullname)
        if mapped not in ("numba", _PACKAGE) and importlib.util.find_spec(mapped) is None:
            raise ModuleNotFoundError(f"{fullname} has no simt counterpart ({mapped} does not exist)", name=fullname)
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(mapped))


_finder = None
_shadowed = {}


def install():
    """Resolve numba/numba.cuda/cupy imports to simt in this process (until uninstall())."""
    global _finder
    if _finder is not None:
        return
    import simt  # noqa: F401  (initialize the backend before the program runs)
    for name in list(sys.modules):
        if _target(name) is not None:  # a real numba/cupy imported earlier must not win
            _shadowed[name] = sys.modules.pop(name)
    _finder = CompatFinder()
    sys.meta_path.insert(0, _finder)


def uninstall():
    global _finder
    if _finder is None:
        return
    sys.meta_path.remove(_finder)
    _finder = None
    for name in list(sys.modules):
        if _target(name) is not None:
            del sys.modules[name]
    sys.modules.update(_shadowed)
    _shadowed.clear()


def run_path(path, args=()):
    """Runs the script at `path` as __main__ with sys.argv = [path, *args] and the hook installed."""
    install()
    sys.argv = [path, *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    runpy.run_path(path, run_name="__main__")


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m simt.compat script.py [args...]\n\n"
              "Runs a program written for numba.cuda and CuPy on simt: in that process `import numba`, "
              "`from numba import cuda`, `import cupy` and their submodules resolve to simt.", file=sys.stderr)
        return 0 if argv else 2
    if not os.path.isfile(argv[0]):
        print(f"simt.compat: cannot open '{argv[0]}': no such file", file=sys.stderr)
        return 2
    run_path(argv[0], argv[1:])
    return 0
