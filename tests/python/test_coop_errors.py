"""simt.cuda.coop's errors: bad factory arguments, features simt does not have, primitives called
from the host, @cuda.jit(link=...); each a clear exception naming the primitive and the problem."""
import numpy as np
import pytest

import simt
from simt import cuda
from simt.cuda import coop


@pytest.mark.parametrize("dtype,exc,match", [
    (np.complex128, TypeError, r"coop.block.sum: dtype complex128 is not supported \(supported: .*int32"),
    (np.bool_, TypeError, r"dtype bool is not supported"),
    ("np.not_a_type", ValueError, r"dtype 'np.not_a_type' is not the name of a NumPy scalar type"),
    (object(), ValueError, r"coop.block.sum: dtype <object object at .*> is not a data type"),
])
def test_unsupported_dtype(dtype, exc, match):
    with pytest.raises(exc, match=match):
        coop.block.sum(dtype, 128)


def test_dtype_spellings():
    assert coop.block.sum("int32", 32)._source == coop.block.sum(np.dtype(np.int32), 32)._source
    assert coop.block.sum("np.float64", 32)._source == coop.block.sum(np.float64, 32)._source


@pytest.mark.parametrize("threads,exc,match", [
    (0, ValueError, r"threads_per_block must be positive, got 0"),
    (2048, ValueError, r"threads_per_block 2048 is 2048 threads, more than a block may have \(1024\)"),
    ((64, 32), ValueError, r"\(64, 32\) is 2048 threads"),
    ((32, 0), ValueError, r"must be positive, got \(32, 0\)"),
    ((8, 8, 8, 2), ValueError, r"an int or a tuple of 1 to 3 ints"),
    (128.0, TypeError, r"threads_per_block must be made of ints, got 128.0"),
])
def test_bad_threads_per_block(threads, exc, match):
    with pytest.raises(exc, match=match):
        coop.block.exclusive_sum(np.int32, threads)


def test_bad_items_per_thread_and_algorithm():
    with pytest.raises(ValueError, match=r"coop.block.load: items_per_thread must be at least 1, got 0"):
        coop.block.load(np.int32, 32, 0)
    with pytest.raises(ValueError, match=r"coop.block.store: algorithm must be one of 'direct', .*, not 'diagonal'"):
        coop.block.store(np.int32, 32, 2, "diagonal")
    with pytest.raises(ValueError, match=r"coop.block.reduce: algorithm must be one of"):
        coop.block.reduce(np.int32, 32, "max", algorithm="fast")
    with pytest.raises(ValueError, match=r"'transpose' exchanges the whole tile .* more than a block has"):
        coop.block.load(np.float64, 1024, 8, "transpose")
    with pytest.raises(ValueError, match=r"coop.warp.sum: threads_in_warp must be a power of two from 1 to 32, got 48"):
        coop.warp.sum(np.int32, 48)


def test_bad_operators():
    with pytest.raises(ValueError, match=r"coop.block.reduce: unknown binary_op 'avg'"):
        coop.block.reduce(np.int32, 32, "avg")
    with pytest.raises(TypeError, match=r"binary_op '\^' is bitwise and needs an integer dtype, not float32"):
        coop.block.reduce(np.float32, 32, "^")
    with pytest.raises(TypeError, match=r"binary_op must be a function or an operator name, not int"):
        coop.warp.reduce(np.int32, 3)
    with pytest.raises(TypeError, match=r"coop.block.inclusive_scan: scan_op cannot be a lambda in simt"):
        coop.block.inclusive_scan(np.int32, 32, lambda a, b: a + b)


def test_scan_arguments():
    with pytest.raises(ValueError, match=r"coop.block.exclusive_scan: an exclusive scan needs an initial_value"):
        coop.block.exclusive_scan(np.int32, 64, "max")
    with pytest.raises(ValueError, match=r"initial_value 'x' is not a int32"):
        coop.block.exclusive_scan(np.int32, 64, "max", initial_value="x")
    with pytest.raises(NotImplementedError, match=r"coop.block.exclusive_sum: prefix_op .* is not supported by simt"):
        coop.block.exclusive_sum(np.int32, 64, prefix_op=lambda a: a)
    with pytest.raises(NotImplementedError, match=r"coop.block.inclusive_sum: methods .* are not supported"):
        coop.block.inclusive_sum(np.int32, 64, methods={})


def test_calling_a_primitive_from_the_host():
    block_sum = coop.block.sum(np.int32, 128)
    with pytest.raises(TypeError, match=r"coop.block.sum is a cooperative primitive: call it inside a @cuda.jit kernel"):
        block_sum(3)
    assert repr(block_sum) == "<simt.cuda.coop coop.block.sum>"


def test_wrong_kind_of_argument_in_a_kernel():
    block_sum = coop.block.sum(np.int32, 32, 4)

    @cuda.jit
    def kernel(a):
        a[0] = block_sum(a[1])  # needs a local array of 4 items

    with pytest.raises(simt.cuda.TypingError, match=r"coop_block_sum_int32_32_4[\s\S]*cannot index a int32"):
        kernel[1, 32](simt.zeros(4, np.int32))


def test_link_option():
    prim = coop.block.sum(np.int32, 32)

    @cuda.jit(link=prim.files)
    def kernel(a):
        a[cuda.threadIdx.x] = prim(a[cuda.threadIdx.x])

    a = simt.ones(32, np.int32)
    kernel[1, 32](a)
    assert a.get()[0] == 32

    # Other files are CUDA C++ for cuda.declare_device functions (test_foreign_functions.py): one
    # that does not exist is named when the kernel compiles.
    @cuda.jit(link=["no-such-dir/ops.cu"])
    def links_a_missing_file(a):
        a[0] = 1

    with pytest.raises(simt.cuda.CompilerError, match=r"no-such-dir/ops.cu'\]: cannot read the file"):
        links_a_missing_file[1, 1](a)
    with pytest.raises(TypeError, match=r"link=\.\.\.\) takes a list of files, not str"):
        cuda.jit(link="ops.cu")
