"""simt.core.ObjectCode, Kernel and KernelAttributes: a compiled Program and the kernels taken from it."""
from .. import _simt
from .._unavailable import UnavailableAttributeError

_CLUSTER_ATTRIBUTES = ("cluster_size_must_be_set", "required_cluster_width", "required_cluster_height",
                       "required_cluster_depth", "non_portable_cluster_size_allowed",
                       "cluster_scheduling_policy_preference")


class KernelAttributes:
    """A kernel's attributes, each a method taking device_id=None (cuda.core's form): the
    driver's values on the cuda backend (cuFuncGetAttribute); on the cpu backend the modelled
    device's, or NotImplementedError saying why there is none (see simt/_kernel_attributes.py)."""

    def __init__(self, kernel):
        self._kernel = kernel

    def __getattr__(self, name):
        from .._kernel_attributes import NUMBERS
        if name in NUMBERS:
            def read(device_id=None):
                if device_id is not None and device_id != _simt.current_device():
                    raise NotImplementedError(f"Kernel.attributes.{name}(device_id={device_id}): simt reads attributes on "
                                              "the current device only")
                return self._kernel._function.attribute(NUMBERS[name])
            read.__name__ = name
            return read
        if name in _CLUSTER_ATTRIBUTES:
            raise UnavailableAttributeError(f"Kernel.attributes.{name} is not available in simt.core (thread block "
                                      "clusters are not supported)")
        raise AttributeError(f"KernelAttributes has no attribute {name!r}")


class Kernel:
    """A __global__ function of an ObjectCode, launched with simt.core.launch()."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("simt.core.Kernel cannot be created directly: use ObjectCode.get_kernel(name)")

    @classmethod
    def _init(cls, function, name):
        self = cls.__new__(cls)
        self._function = function  # the RawFunction of simt's raw-kernel launch path (bind_raw.cpp)
        self._name = name
        self._attributes = None
        return self

    @property
    def attributes(self):
        if self._attributes is None:
            self._attributes = KernelAttributes(self)
        return self._attributes

    @property
    def num_arguments(self):
        """How many parameters the kernel takes (where the backend knows: always on cpu, CUDA 12.4+ drivers)."""
        sizes = self._function.parameter_sizes
        if not sizes:
            raise UnavailableAttributeError(f"the parameters of kernel '{self._name}' are not known to this backend "
                                      "(the cuda backend needs a driver with cuFuncGetParamInfo, CUDA 12.4+)")
        return len(sizes)

    def __repr__(self):
        return f"<simt.core.Kernel '{self._name}'>"


class ObjectCode:
    """The output of Program.compile(): its kernels are loaded and taken by name with get_kernel()."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("simt.core.ObjectCode comes from Program.compile(); simt cannot load cubin or PTX files")

    @classmethod
    def _init(cls, program, code_type, functions):
        self = cls.__new__(cls)
        self._program = program
        self._code_type = code_type
        self._functions = functions  # kernel name -> RawFunction, loaded at compile()
        return self

    @staticmethod
    def from_cubin(module, *, name="", symbol_mapping=None):
        raise NotImplementedError("ObjectCode.from_cubin: simt compiles CUDA C++ source only (use Program)")

    @staticmethod
    def from_ptx(module, *, name="", symbol_mapping=None):
        raise NotImplementedError("ObjectCode.from_ptx: simt compiles CUDA C++ source only (use Program)")

    @property
    def name(self):
        return self._program._options.name

    @property
    def code_type(self):
        return self._code_type

    @property
    def code(self):
        """The PTX (cuda backend, code_type 'ptx'); simt keeps no cubin, the cpu backend neither."""
        if _simt.backend_name() != "cuda":
            raise UnavailableAttributeError("the cpu backend compiles CUDA C++ to host code: there is no PTX or cubin")
        if self._code_type != "ptx":
            raise UnavailableAttributeError("simt loads cubins straight into the driver and keeps no copy; "
                                      "compile('ptx') to read the PTX")
        if not self._functions:
            return b""
        return next(iter(self._functions.values())).assembly().encode()

    def get_kernel(self, name):
        """The kernel `name` (an extern "C" __global__ function of the program)."""
        if isinstance(name, bytes):
            name = name.decode()
        if not isinstance(name, str):
            raise TypeError(f"get_kernel() takes the kernel's name as a str, not {type(name).__name__}")
        function = self._functions.get(name)
        if function is None:
            raise ValueError(f"kernel '{name}' is not a __global__ function of program '{self.name}' (its kernels: "
                             f"{', '.join(self._functions) or 'none'}; template kernels would need name_expressions, "
                             "which simt.core does not support yet)")
        return Kernel._init(function, name)

    def __repr__(self):
        return f"<simt.core.ObjectCode '{self.name}' ({self._code_type}): {', '.join(self._functions) or 'no kernels'}>"
