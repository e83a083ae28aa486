"""NVRTC (runtime compilation of CUDA C++), cuda.bindings.nvrtc's way: `err, prog =
nvrtcCreateProgram(src, name, 0, [], [])`. Programs are ints; sources, names and options are str
or bytes; nvrtcGetPTX/nvrtcGetCUBIN/nvrtcGetProgramLog fill a caller's buffer of the size the
matching *Size call gave: a bytearray (or bytes of two bytes or more, filled in place as
cuda.bindings does; shorter bytes objects are shared by Python and refused)."""
from enum import IntEnum

from .. import _simt
from ._results import wrap_calls


class nvrtcResult(IntEnum):
    NVRTC_SUCCESS = 0
    NVRTC_ERROR_OUT_OF_MEMORY = 1
    NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2
    NVRTC_ERROR_INVALID_INPUT = 3
    NVRTC_ERROR_INVALID_PROGRAM = 4
    NVRTC_ERROR_INVALID_OPTION = 5
    NVRTC_ERROR_COMPILATION = 6
    NVRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7
    NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8
    NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9
    NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10
    NVRTC_ERROR_INTERNAL_ERROR = 11


wrap_calls(_simt._bindings_nvrtc, nvrtcResult, globals())
