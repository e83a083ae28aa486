"""simt.ElementwiseKernel and simt.ReductionKernel (CuPy's user-defined kernels) on both backends,
against NumPy on fresh random data (python/simt/_elementwise_kernel.py, _reduction_kernel.py,
_kernel_params.py)."""
import numpy as np
import pytest

import simt

SQUARED_DIFF = simt.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")
GENERIC_DIFF = simt.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff_generic")
L2NORM = simt.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")


def test_elementwise_broadcasts_and_takes_scalars(rng):
    x = rng.standard_normal((4, 7)).astype(np.float32)
    y = rng.standard_normal(7).astype(np.float32)
    np.testing.assert_allclose(SQUARED_DIFF(simt.asarray(x), simt.asarray(y)).get(), (x - y) ** 2, rtol=1e-6)
    s = float(rng.standard_normal())
    np.testing.assert_allclose(SQUARED_DIFF(simt.asarray(x), s).get(), (x - np.float32(s)) ** 2, rtol=1e-6)
    z = simt.empty((4, 7), np.float32)
    assert SQUARED_DIFF(simt.asarray(x), simt.asarray(y), z) is z
    np.testing.assert_allclose(z.get(), (x - y) ** 2, rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8])
def test_elementwise_type_placeholders(rng, dtype):
    x = (rng.standard_normal(300) * 10).astype(dtype)
    y = (rng.standard_normal(300) * 10).astype(dtype)
    got = GENERIC_DIFF(simt.asarray(x), simt.asarray(y))
    assert got.dtype == dtype
    np.testing.assert_allclose(got.get(), ((x - y) * (x - y)).astype(dtype), rtol=1e-6)


def test_elementwise_strided_and_broadcast_views(rng):
    h = rng.standard_normal((6, 8))
    d = simt.asarray(h)
    col = rng.standard_normal((6, 1))
    got = GENERIC_DIFF(d.T[::2, ::-1], simt.asarray(col).T[:, ::-1])
    np.testing.assert_allclose(got.get(), (h.T[::2, ::-1] - col.T[:, ::-1]) ** 2, rtol=1e-12)
    out = simt.zeros((8, 12))
    GENERIC_DIFF(d.T, simt.asarray(col).T, out[:, ::2])
    np.testing.assert_allclose(out.get()[:, ::2], (h.T - col.T) ** 2, rtol=1e-12)
    assert (out.get()[:, 1::2] == 0).all()


def test_elementwise_raw_parameters_index_and_size(rng):
    x = rng.standard_normal(50).astype(np.float32)
    y = rng.standard_normal(50).astype(np.float32)
    k = simt.ElementwiseKernel("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1] + (T)y.size()", "add_reverse")
    np.testing.assert_allclose(k(simt.asarray(x), simt.asarray(y)).get(), x + y[::-1] + 50, rtol=1e-6)


def test_elementwise_several_outputs_size_preamble_and_loop_prep(rng):
    k = simt.ElementwiseKernel(
        "float64 x, int32 shift", "float64 twice, int64 index",
        "twice = doubled(x) + offset; index = i + shift", "two_outputs",
        preamble="__device__ double doubled(double v) { return 2 * v; }", loop_prep="const double offset = 0.5;")
    x = rng.standard_normal((3, 5))
    shift = int(rng.integers(-100, 100))
    twice, index = k(simt.asarray(x), np.int32(shift))
    np.testing.assert_allclose(twice.get(), 2 * x + 0.5)
    np.testing.assert_array_equal(index.get(), np.arange(15).reshape(3, 5) + shift)
    fill = simt.ElementwiseKernel("", "int64 y", "y = i * i", "squares")
    np.testing.assert_array_equal(fill(size=7).get(), np.arange(7) ** 2)
    out = simt.zeros(5, np.int64)
    assert simt.ElementwiseKernel("", "int64 y", "y = 3", "threes", no_return=True)(out) is None
    np.testing.assert_array_equal(out.get(), 3)


@pytest.mark.parametrize("shape,axis", [((7,), None), ((3, 1000), 1), ((40, 9), 0), ((3, 4, 5), (0, 2)),
                                        ((2, 3, 4), -1), ((5, 0), 1), ((0, 5), 1)], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction_l2norm_against_numpy(rng, shape, axis, keepdims):
    h = rng.standard_normal(shape)
    got = L2NORM(simt.asarray(h), axis=axis, keepdims=keepdims)
    expected = np.sqrt((h * h).sum(axis=axis, keepdims=keepdims))
    assert got.shape == expected.shape and got.dtype == h.dtype
    np.testing.assert_allclose(got.get(), expected, rtol=1e-12)


def test_reduction_two_broadcast_inputs_reduce_type_and_out(rng):
    dot = simt.ReductionKernel("T x, T y", "float64 z", "x * y", "a + b", "z = a", "0", "dot", reduce_type="float64")
    x = rng.standard_normal((6, 300)).astype(np.float32)
    y = rng.standard_normal(300).astype(np.float32)
    out = simt.empty(6, np.float64)
    assert dot(simt.asarray(x), simt.asarray(y), out=out, axis=1) is out
    np.testing.assert_allclose(out.get(), (x * y).astype(np.float64).sum(axis=1), rtol=1e-10)  # (x * y in float32)
    largest = simt.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", "-1e308", "largest")
    h = rng.standard_normal((4, 3, 5))
    np.testing.assert_array_equal(largest(simt.asarray(h)[:, ::-1], axis=(0, 2)).get(), h[:, ::-1].max(axis=(0, 2)))
    count = simt.ReductionKernel("T x", "int64 c", "x > 0 ? 1 : 0", "a + b", "c = a", "0", "positives")
    np.testing.assert_array_equal(count(simt.asarray(h), axis=2).get(), (h > 0).sum(axis=2))


def test_parameter_names_the_generated_code_once_used_itself(rng):
    # n, d0, s_x_0, off_x, x_p, count, rows, t, j, acc: simt's generated names now start with _.
    lin = simt.ElementwiseKernel("T x, int64 n, raw T d0", "T off_x, T x_p",
                                 "off_x = x * n + d0[i % 3]; x_p = d0[(i + 1) % 3]", "lin")
    x = rng.standard_normal((3, 5))
    d0 = rng.standard_normal(3)
    off_x, x_p = lin(simt.asarray(x[:, ::2]), 7, simt.asarray(d0))  # (strided: the offset code runs)
    flat = np.arange(x[:, ::2].size)
    np.testing.assert_allclose(off_x.get().ravel(), x[:, ::2].ravel() * 7 + d0[flat % 3])
    np.testing.assert_array_equal(x_p.get().ravel(), d0[(flat + 1) % 3])
    scaled_sum = simt.ReductionKernel("T count, T rows, T t", "T acc", "count * rows + t", "a + b", "acc = a", "0",
                                      "scaled_sum")
    a, b, c = (rng.standard_normal((4, 6)) for _ in range(3))
    np.testing.assert_allclose(scaled_sum(simt.asarray(a), simt.asarray(b), simt.asarray(c), axis=1).get(),
                               (a * b + c).sum(axis=1), rtol=1e-12)


def test_a_cupy_style_script_with_user_kernels_runs_through_compat(tmp_path):
    import subprocess
    import sys
    import textwrap
    script = tmp_path / "user_kernels.py"
    script.write_text(textwrap.dedent('''
        import cupy as cp
        import numpy as np
        squared_diff = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)",
                                            "squared_diff")
        x = cp.arange(10, dtype=np.float32).reshape(2, 5)
        y = cp.arange(5, dtype=np.float32)
        assert (cp.asnumpy(squared_diff(x, y)) == [[0] * 5, [25] * 5]).all()
        l2norm = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
        got = cp.asnumpy(l2norm(x, axis=1))
        assert np.allclose(got, np.sqrt((np.arange(10.0).reshape(2, 5) ** 2).sum(axis=1)))
        print("user kernels ok")
    '''))
    r = subprocess.run([sys.executable, "-m", "simt.compat", str(script)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "user kernels ok"


# ---- errors ------------------------------------------------------------------------------------
def test_elementwise_errors(rng):
    x = simt.zeros(4, np.float32)
    with pytest.raises(TypeError, match="takes 2 inputs and optionally 1 outputs, got 1 arguments"):
        SQUARED_DIFF(x)
    with pytest.raises(ValueError, match=r"the arguments' shapes \[\(4,\), \(3,\)\] do not broadcast"):
        SQUARED_DIFF(x, simt.zeros(3, np.float32))
    with pytest.raises(TypeError, match="argument 'x' is a NumPy \\(host\\) array"):
        SQUARED_DIFF(np.zeros(4, np.float32), x)
    with pytest.raises(ValueError, match=r"output 'z' has shape \(3,\), the arguments broadcast to \(4,\)"):
        SQUARED_DIFF(x, x, simt.zeros(3, np.float32))
    with pytest.raises(TypeError, match="type T is int32 from an earlier argument, but 'y' is float32"):
        GENERIC_DIFF(simt.zeros(4, np.int32), x)
    with pytest.raises(TypeError, match="cannot tell type U of 'y'"):
        simt.ElementwiseKernel("T x", "U y", "y = x", "untyped")(x)
    with pytest.raises(ValueError, match="the parameter name 'i' is reserved"):
        simt.ElementwiseKernel("float32 i", "float32 y", "y = i", "reserved")
    with pytest.raises(ValueError, match="unknown type 'floot32' of parameter 'x'"):
        simt.ElementwiseKernel("floot32 x", "float32 y", "y = x", "typo")
    with pytest.raises(TypeError, match="datetime64 has no C\\+\\+ type"):  # (complex and float16 do: test_elementwise_complex.py)
        simt.ElementwiseKernel("datetime64 x", "datetime64 y", "y = x", "dates")
    with pytest.raises(ValueError, match="no non-raw array argument gives the size: pass size="):
        simt.ElementwiseKernel("", "int64 y", "y = i", "sizeless")()
    with pytest.raises(simt.cuda.CompilerError, match="not_a_name"):
        simt.ElementwiseKernel("float32 x", "float32 y", "y = not_a_name", "bad_snippet")(x)


def test_reduction_errors():
    x = simt.zeros((3, 4))
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds for an array of dimension 2"):
        L2NORM(x, axis=2)
    with pytest.raises(ValueError, match=r"output 'y' must be a device array of shape \(3,\)"):
        L2NORM(x, out=simt.zeros(4), axis=1)
    with pytest.raises(NotImplementedError, match="raw parameters are not supported in reduction kernels"):
        simt.ReductionKernel("raw T x", "T y", "x[0]", "a + b", "y = a", "0", "rawred")
    with pytest.raises(TypeError, match="needs at least one input array"):
        L2NORM(3.0)
