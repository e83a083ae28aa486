"""simt.core.Program: CUDA C++ source compiled for the current device (NVRTC, or the host compiler on cpu)."""
import re

from .. import _simt
from ._module import ObjectCode
from ._options import check_or_create_options
from ._program_options import ProgramOptions

_CUDA_CORE_CODE_TYPES = ("c++", "ptx", "nvvm")
_TARGETS = ("ptx", "cubin", "ltoir")


class Program:
    """A CUDA C++ translation unit: `Program(code, "c++", options).compile("cubin")` gives an ObjectCode."""

    def __init__(self, code, code_type, options=None):
        if not isinstance(code_type, str):
            raise TypeError(f"code_type must be a str, not {type(code_type).__name__}")
        code_type = code_type.lower()
        if code_type not in _CUDA_CORE_CODE_TYPES:
            raise RuntimeError(f"Unsupported code_type={code_type!r} (supported_code_types=('c++',))")
        if code_type != "c++":
            raise NotImplementedError(f"code_type={code_type!r}: simt.core compiles CUDA C++ source only ('c++')")
        if not isinstance(code, str):
            raise TypeError(f"code must be a str of CUDA C++, not {type(code).__name__}")
        self._code = code
        self._options = check_or_create_options(ProgramOptions, options, "options")
        self._check_arch()
        self._closed = False

    def _check_arch(self):
        arch = self._options.arch
        if arch is None:
            return
        from ._device import Device
        ours = Device().arch
        if re.sub(r"^(sm|compute)_", "", arch).rstrip("a") != ours:
            raise ValueError(f"ProgramOptions.arch={arch!r}, but simt compiles for the current device, sm_{ours} "
                             "(leave arch unset, or make the matching device current)")

    @property
    def backend(self):
        """What compiles the code: NVRTC on the cuda backend, the host C++ compiler on the cpu backend."""
        return "NVRTC" if _simt.backend_name() == "cuda" else "host C++ compiler"

    @property
    def handle(self):
        return None  # (simt keeps no NVRTC program object between compiles)

    def close(self):
        self._closed = True

    def compile(self, target_type, name_expressions=(), logs=None):
        """Compiles and loads every extern "C" __global__ kernel of the code and every template kernel
        named in `name_expressions` (errors: simt.cuda.CompilerError)."""
        # (through simt's disk cache; `logs` gets nothing: compiler warnings are not collected)
        if self._closed:
            raise RuntimeError("this Program is closed")
        if target_type not in _TARGETS:
            raise ValueError(f"Unsupported target_type={target_type!r} (simt.core compiles to 'ptx' or 'cubin')")
        if target_type == "ltoir":
            raise NotImplementedError("target_type='ltoir': simt.core has no linker for LTO IR")
        if isinstance(name_expressions, str) or not all(isinstance(e, str) for e in name_expressions):
            raise TypeError("name_expressions must be a sequence of C++ names such as 'my_kernel<float>'")
        exprs = list(name_expressions)
        label = re.sub(r"[^A-Za-z0-9_]", "_", self._options.name) + ".cu"
        options = self._options._nvrtc_options()
        # (template kernels by their C++ name: get_kernel("k<float>") finds them under that name)
        functions = {name: _simt._load_raw_kernel(self._code, name, options, label, "kernel", exprs)
                     for name in _simt._raw_kernel_names(self._code) + exprs}
        return ObjectCode._init(self, target_type, functions)

    def __repr__(self):
        return f"<simt.core.Program '{self._options.name}'>"
