"""simt.compute.unary_transform / binary_transform against NumPy, through every iterator kind,
with foreign (__cuda_array_interface__) arrays and streams."""
import numpy as np
import pytest

import simt
import simt.compute as cc


def scale(v):
    return v * 3 + 1


def dot2(p):
    return p[0] * p[1]


@pytest.mark.parametrize("n", [0, 1, 1023, 100_003])
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64])
def test_unary_binary_transform_arrays(rng, n, dtype):
    x, y = (rng.random(n) * 50).astype(dtype), (rng.random(n) * 50).astype(dtype)
    out = simt.empty(n, np.float64)
    cc.unary_transform(simt.asarray(x), out, scale, n)
    np.testing.assert_allclose(out.get(), x.astype(np.float64) * 3 + 1, rtol=1e-6)
    cc.binary_transform(simt.asarray(x), simt.asarray(y), out, cc.OpKind.MULTIPLIES, n)
    np.testing.assert_allclose(out.get(), x.astype(np.float64) * y, rtol=1e-3)
    cc.binary_transform(simt.asarray(x), simt.asarray(y), out, lambda a, b: a - b, n)
    np.testing.assert_allclose(out.get(), x.astype(np.float64) - y, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("op,ref", [(cc.OpKind.NEGATE, np.negative), (cc.OpKind.BIT_NOT, np.invert),
                                    (cc.OpKind.IDENTITY, lambda v: v)])
def test_unary_builtin_ops(rng, op, ref):
    x = rng.integers(-1000, 1000, 5000).astype(np.int32)
    out = simt.empty(5000, np.int32)
    cc.unary_transform(simt.asarray(x), out, op, 5000)
    np.testing.assert_array_equal(out.get(), ref(x))


@pytest.mark.parametrize("op,ref", [(cc.OpKind.MINIMUM, np.minimum), (cc.OpKind.MAXIMUM, np.maximum),
                                    (cc.OpKind.BIT_XOR, np.bitwise_xor), (cc.OpKind.LESS, np.less),
                                    (cc.OpKind.MODULUS, np.mod), (cc.OpKind.EQUAL_TO, np.equal)])
def test_binary_builtin_ops(rng, op, ref):
    x, y = rng.integers(-50, 50, 3000).astype(np.int64), rng.integers(1, 50, 3000).astype(np.int64)
    out = simt.empty(3000, np.int64)
    cc.binary_transform(simt.asarray(x), simt.asarray(y), out, op, 3000)
    np.testing.assert_array_equal(out.get(), ref(x, y).astype(np.int64))


def test_iterators_as_transform_inputs_and_outputs(rng):
    n = 100_003
    x = rng.random(n)
    idx = rng.permutation(n).astype(np.int32)
    out = simt.empty(n)
    cc.unary_transform(cc.PermutationIterator(simt.asarray(x), simt.asarray(idx)), out, cc.OpKind.IDENTITY, n)
    np.testing.assert_array_equal(out.get(), x[idx])
    cc.unary_transform(cc.ZipIterator(simt.asarray(x), cc.CountingIterator(np.float64(0))), out, dot2, n)
    np.testing.assert_allclose(out.get(), x * np.arange(n), rtol=1e-12)
    a, b = simt.empty(n, np.int64), simt.empty(n)
    cc.unary_transform(cc.CountingIterator(np.int64(5)), cc.ZipIterator(a, b), lambda i: (i, i * 0.5), n)
    np.testing.assert_array_equal(a.get(), np.arange(5, n + 5))
    np.testing.assert_array_equal(b.get(), np.arange(5, n + 5) * 0.5)
    cc.unary_transform(simt.asarray(x), cc.ReverseIterator(out), cc.OpKind.NEGATE, n)
    np.testing.assert_array_equal(out.get(), -x[::-1])
    cc.binary_transform(cc.ConstantIterator(np.float64(2.0)), cc.CacheModifiedInputIterator(simt.asarray(x), "stream"),
                        cc.TransformOutputIterator(out, lambda v: v + 1.0), cc.OpKind.MULTIPLIES, n)
    np.testing.assert_allclose(out.get(), 2 * x + 1, rtol=1e-12)
    cc.unary_transform(simt.asarray(x), cc.DiscardIterator(), scale, n)  # runs, writes nothing


def test_nested_transform_iterators_with_same_named_closures():
    def times(k):
        def op(v):
            return v * k
        return op
    out = simt.empty(6, np.int64)
    it = cc.TransformIterator(cc.TransformIterator(cc.CountingIterator(np.int64(1)), times(10)), times(3))
    cc.unary_transform(it, out, times(2), 6)
    np.testing.assert_array_equal(out.get(), np.arange(1, 7) * 60)


def test_operator_written_in_a_loop_compiles_once(rng):
    # A lambda evaluated again is a new function object but the same operator (as cuda.compute
    # caches by bytecode and captured values): one device function, not one per call.
    from simt.compute import _ops
    x = rng.integers(-100, 100, 257).astype(np.int32)
    d, out = simt.asarray(x), simt.empty(257, np.int32)
    before = len(_ops._device_functions)
    for k in (3, 3, 3, -2, -2):
        cc.unary_transform(d, out, lambda v: v * k + 1, 257)
        np.testing.assert_array_equal(out.get(), x * k + 1)
    assert len(_ops._device_functions) == before + 2  # one per captured value of k
    shift = np.array([5], np.int32)
    for _ in range(3):  # a captured (host) array counts by identity; kernels freeze it as a constant
        cc.unary_transform(d, out, lambda v: v + shift[0], 257)
    np.testing.assert_array_equal(out.get(), x + 5)
    assert len(_ops._device_functions) == before + 3


OFFSET = 0


def test_operators_recompile_when_what_they_froze_changes(rng):
    # A kernel freezes the globals, captured values and arrays its operator reads: a lambda that
    # reads different ones is a different operator (a reused kernel would compute the old values).
    global OFFSET
    x = rng.integers(-100, 100, 64).astype(np.float64)
    d, out = simt.asarray(x), simt.empty(64, np.float64)
    for OFFSET in (0, 1, 2):
        cc.unary_transform(d, out, lambda v: v + OFFSET, 64)
        np.testing.assert_array_equal(out.get(), x + OFFSET)
    for z in (0.0, -0.0):  # equal, but not the same constant: z times a positive number keeps z's sign
        cc.unary_transform(d, out, lambda v: z * (v * v + 1.0), 64)
        assert (np.signbit(out.get()) == np.signbit(z)).all()
    table = np.array([1.0])
    for value in (1.0, 5.0):
        table[0] = value  # changed in place: the next operator freezes the new contents
        cc.unary_transform(d, out, lambda v: v + table[0], 64)
        np.testing.assert_array_equal(out.get(), x + value)


class HostSubclass(np.ndarray):
    pass


def test_h_init_of_an_ndarray_subclass(rng):
    x = rng.integers(0, 10, 16).astype(np.int64)
    d, out = simt.asarray(x), simt.empty(1, np.int64)
    for _ in range(3):
        cc.reduce_into(d, out, cc.OpKind.PLUS, 16, np.array([2], np.int64).view(HostSubclass))
        assert out.get()[0] == x.sum() + 2
        f = simt.empty(1, np.float64)
        cc.reduce_into(simt.asarray(x.astype(np.float64)), f, cc.OpKind.PLUS, 16, np.array([0.5]).view(HostSubclass))
        assert f.get()[0] == x.sum() + 0.5


class ForeignArray:
    """Another library's device array: only __cuda_array_interface__ (over simt memory)."""

    def __init__(self, a):
        self._a = a
        self.__cuda_array_interface__ = a.__cuda_array_interface__


def test_foreign_arrays_zero_copy(rng):
    if simt.backend() != "cuda":
        pytest.skip("__cuda_array_interface__ describes CUDA memory, which only the cuda backend imports")
    x = rng.random(1000)
    out = simt.empty(1000)
    cc.unary_transform(ForeignArray(simt.asarray(x)), ForeignArray(out), scale, 1000)
    np.testing.assert_allclose(out.get(), x * 3 + 1)


class StreamLike:
    """An object speaking the __cuda_stream__ protocol."""

    def __init__(self, handle):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


def test_streams_simt_and_protocol(rng):
    x = rng.random(100_003)
    out = simt.empty(x.size)
    s = simt.cuda.Stream()
    cc.unary_transform(simt.asarray(x), out, scale, x.size, stream=s)
    s.synchronize()
    np.testing.assert_allclose(out.get(), x * 3 + 1)
    total = simt.empty(1)
    cc.reduce_into(simt.asarray(x), total, cc.OpKind.PLUS, x.size, np.float64(0), stream=StreamLike(0))
    np.testing.assert_allclose(total.get()[0], x.sum(), rtol=1e-9)
    if simt.backend() == "cpu":
        with pytest.raises(TypeError, match="cannot order work on the cpu backend"):
            cc.unary_transform(simt.asarray(x), out, scale, x.size, stream=StreamLike(0x1234))
    with pytest.raises(TypeError, match="stream must be a simt.cuda.Stream"):
        cc.unary_transform(simt.asarray(x), out, scale, x.size, stream="fast")
