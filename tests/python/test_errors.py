"""Bad input gets a clear exception naming what and where; the runtime keeps working after."""
import numpy as np
import pytest

import simt
from simt import cuda

SEED_TEXT = ("CUDA_ERROR_INVALID_VALUE: This indicates that one or more of the parameters passed to the API call "
             "is not within an acceptable range of values.")


@cuda.jit
def copy_kernel(A, B):
    i = cuda.grid(1)
    B[i] = A[i]


@pytest.mark.parametrize("grid, block", [
    (1, 2048), (1, (32, 33)), (1, (1, 1, 65)), (0, 32), (-1, 32), ((1, 65536), 1), (1, 0), (2**31, 1),
])
def test_invalid_launch_configurations_raise_cuda_error(grid, block):
    a = simt.zeros(4)
    with pytest.raises(cuda.CUDAError) as info:
        copy_kernel[grid, block](a, a)
    assert isinstance(info.value, RuntimeError)
    assert str(info.value) == SEED_TEXT
    assert info.value.name == "CUDA_ERROR_INVALID_VALUE"


def test_runtime_keeps_working_after_a_launch_error(rng):
    a, b = simt.asarray(rng.standard_normal(64)), simt.zeros(64)
    with pytest.raises(cuda.CUDAError):
        copy_kernel[1, 4096](a, b)
    copy_kernel[1, 64](a, b)
    cuda.synchronize()
    np.testing.assert_array_equal(b.get(), a.get())


def test_malformed_launch_configuration():
    a = simt.zeros(4)
    with pytest.raises(ValueError, match="launch configuration"):
        copy_kernel[1](a, a)
    with pytest.raises(TypeError, match="griddim"):
        copy_kernel["x", 1](a, a)
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        copy_kernel[(1, 1, 1, 1), 1](a, a)
    with pytest.raises(TypeError, match="must be launched with a configuration"):
        copy_kernel(a, a)


def test_host_array_argument_explains_how_to_copy():
    with pytest.raises(TypeError, match=r"argument 1 of kernel 'copy_kernel' is a NumPy array.*simt.asarray"):
        copy_kernel[1, 4](np.zeros(4), simt.zeros(4))


def test_unsupported_argument_type():
    with pytest.raises(TypeError, match="argument 2 of kernel 'copy_kernel' has type builtins.list"):
        copy_kernel[1, 4](simt.zeros(4), [1, 2])


def test_wrong_number_of_arguments():
    with pytest.raises(TypeError, match="takes 2 arguments but 1 were given"):
        copy_kernel[1, 4](simt.zeros(4))


def test_typing_error_shows_file_line_and_caret():
    @cuda.jit
    def bad(A, x):
        A[0] = x[1]

    with pytest.raises(cuda.TypingError) as info:
        bad[1, 1](simt.zeros(2), 1.5)
    msg = str(info.value)
    assert "cannot index a float64" in msg
    assert f'File "{__file__}"' in msg
    assert "A[0] = x[1]" in msg and "^" in msg
    assert isinstance(info.value, cuda.CompileError)


def test_unsupported_statement_is_named():
    @cuda.jit
    def bad(A):
        try:
            A[0] = 1
        except Exception:
            pass

    with pytest.raises(cuda.UnsupportedError, match="unsupported statement: try"):
        bad[1, 1](simt.zeros(1))


def test_unknown_and_unsupported_globals():
    @cuda.jit
    def uses_list(A):
        A[0] = SOME_LIST[0]

    @cuda.jit
    def uses_python_function(A):
        A[0] = helper(1)

    with pytest.raises(cuda.TypingError, match="SOME_LIST.*cannot use|tuple"):
        uses_list[1, 1](simt.zeros(1))
    with pytest.raises(cuda.TypingError, match=r"device=True"):
        uses_python_function[1, 1](simt.zeros(1))


SOME_LIST = [1, 2, 3]


def helper(x):
    return x


def test_device_function_cannot_be_launched():
    @cuda.jit(device=True)
    def dev(x):
        return x

    with pytest.raises(TypeError, match="device function"):
        dev[1, 1](1)


def test_unknown_jit_option():
    with pytest.raises(TypeError, match="unknown @cuda.jit option"):
        cuda.jit(nonsense=True)


def test_kernel_helpers_outside_kernels_raise():
    with pytest.raises(RuntimeError, match="inside a @cuda.jit kernel"):
        cuda.grid(1)
