"""simt.core.ProgramOptions: cuda.core's compile options, as the NVRTC flags they stand for."""
import re
from dataclasses import dataclass, fields

_STDS = ("c++03", "c++11", "c++14", "c++17", "c++20")

# cuda.core's ProgramOptions fields simt does not offer (they need a linker, precompiled headers,
# NVVM or driver features simt does not have): setting one is a NotImplementedError, not a silent no-op.
_NOT_SUPPORTED = ("relocatable_device_code", "extensible_whole_program", "link_time_optimization", "gen_opt_lto",
                  "pre_include", "no_source_include", "builtin_move_forward", "builtin_initializer_list",
                  "device_as_default_execution_space", "optimization_info", "no_display_error_number",
                  "brief_diagnostics", "time", "split_compile", "fdevice_syntax_only", "minimal", "extra_sources",
                  "use_bundled_headers", "frandom_seed", "ofast_compile", "pch", "create_pch", "use_pch", "pch_dir",
                  "pch_verbose", "pch_messages", "instantiate_templates_in_pch", "numba_debug", "device_float128",
                  "fdevice_time_trace")


def _strings(value, field):
    """A str or a sequence of str as a tuple."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"ProgramOptions.{field} must be a str or a list/tuple of str, got {value!r}")
    return tuple(value)


def _macros(value):
    """define_macro as (name, value-or-None) pairs: "X", ("X", "V"), or a list of those."""
    if value is None:
        return ()
    if isinstance(value, str) or (isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, str) for v in value)):
        value = [value]
    out = []
    for m in value:
        if isinstance(m, str):
            out.append((m, None))
        elif isinstance(m, tuple) and len(m) == 2 and all(isinstance(v, str) for v in m):
            out.append(m)
        else:
            raise TypeError(f"ProgramOptions.define_macro entries must be 'NAME' or ('NAME', 'VALUE'), got {m!r}")
    return tuple(out)


def _ints(value, field):
    if value is None:
        return ()
    values = (value,) if isinstance(value, int) else value
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise TypeError(f"ProgramOptions.{field} must be an int or a list/tuple of ints, got {value!r}")
    return tuple(values)


def _flag(name, value):
    return f"--{name}={'true' if value else 'false'}"


@dataclass
class ProgramOptions:
    """Options of a Program (None leaves NVRTC's default)."""
    name: str = "default_program"
    arch: str = None
    debug: bool = None
    lineinfo: bool = None
    device_code_optimize: bool = None
    ptxas_options: object = None
    max_register_count: int = None
    ftz: bool = None
    prec_sqrt: bool = None
    prec_div: bool = None
    fma: bool = None
    use_fast_math: bool = None
    extra_device_vectorization: bool = None
    define_macro: object = None
    undefine_macro: object = None
    include_path: object = None
    std: str = None
    disable_warnings: bool = None
    restrict: bool = None
    device_int128: bool = None
    diag_error: object = None
    diag_suppress: object = None
    diag_warn: object = None

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"ProgramOptions.name must be a non-empty str, got {self.name!r}")
        if self.arch is not None and not (isinstance(self.arch, str) and re.fullmatch(r"(sm|compute)_\d+a?", self.arch)):
            raise ValueError(f"ProgramOptions.arch must look like 'sm_90' or 'compute_90', got {self.arch!r}")
        if self.std is not None and self.std not in _STDS:
            raise ValueError(f"ProgramOptions.std must be one of {', '.join(_STDS)}, got {self.std!r}")
        if self.max_register_count is not None and (not isinstance(self.max_register_count, int)
                                                    or self.max_register_count <= 0):
            raise ValueError(f"ProgramOptions.max_register_count must be a positive int, got {self.max_register_count!r}")
        self._macros = _macros(self.define_macro)
        self._undefine = _strings(self.undefine_macro, "undefine_macro")
        self._includes = _strings(self.include_path, "include_path")
        self._ptxas = _strings(self.ptxas_options, "ptxas_options")
        self._diags = {k: _ints(getattr(self, k), k) for k in ("diag_error", "diag_suppress", "diag_warn")}

    def _nvrtc_options(self):
        """The NVRTC flags, without the architecture (simt compiles for the current device)."""
        o = []
        if self.debug:
            o.append("--device-debug")
        if self.lineinfo:
            o.append("--generate-line-info")
        if self.device_code_optimize is not None:
            o.append(f"--dopt={'on' if self.device_code_optimize else 'off'}")
        o += [f"--ptxas-options={p}" for p in self._ptxas]
        if self.max_register_count is not None:
            o.append(f"--maxrregcount={self.max_register_count}")
        for name, field in (("ftz", self.ftz), ("prec-sqrt", self.prec_sqrt), ("prec-div", self.prec_div),
                            ("fmad", self.fma)):
            if field is not None:
                o.append(_flag(name, field))
        if self.use_fast_math:
            o.append("--use_fast_math")
        if self.extra_device_vectorization:
            o.append("--extra-device-vectorization")
        o += [f"--define-macro={n}" if v is None else f"--define-macro={n}={v}" for n, v in self._macros]
        o += [f"--undefine-macro={n}" for n in self._undefine]
        o += [f"--include-path={p}" for p in self._includes]
        if self.std is not None:
            o.append(f"--std={self.std}")
        if self.disable_warnings:
            o.append("--disable-warnings")
        if self.restrict:
            o.append("--restrict")
        if self.device_int128:
            o.append("--device-int128")
        for field, flag in (("diag_error", "--diag-error"), ("diag_suppress", "--diag-suppress"),
                            ("diag_warn", "--diag-warn")):
            o += [f"{flag}={n}" for n in self._diags[field]]
        return o

    def as_bytes(self, backend="nvrtc"):
        """The options as NVRTC takes them (a list of bytes), `-arch` included when set."""
        if backend.lower() != "nvrtc":
            raise ValueError(f"simt compiles with NVRTC (or the host compiler on the cpu backend), not {backend!r}")
        arch = [f"-arch={self.arch}"] if self.arch else []
        return [o.encode() for o in arch + self._nvrtc_options()]


_FIELDS = tuple(f.name for f in fields(ProgramOptions))
_dataclass_init = ProgramOptions.__init__


def _init(self, *args, **kwargs):
    for key, value in kwargs.items():
        if key in _NOT_SUPPORTED:
            if value is not None and value is not False:
                raise NotImplementedError(f"ProgramOptions.{key} (cuda.core's) is not supported by simt.core")
        elif key not in _FIELDS:
            raise TypeError(f"ProgramOptions has no field {key!r}; the fields are: {', '.join(_FIELDS)}")
    _dataclass_init(self, *args, **{k: v for k, v in kwargs.items() if k in _FIELDS})


_init.__doc__ = ProgramOptions.__init__.__doc__
ProgramOptions.__init__ = _init
