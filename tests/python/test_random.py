"""simt.random: reproducible, backend-independent (counter-based) streams with sane statistics."""
import numpy as np
import pytest

import simt


def test_same_seed_same_numbers_and_fresh_numbers_after():
    simt.random.seed(1234)
    a = simt.random.uniform(-1, 1, 1000).get()
    b = simt.random.uniform(-1, 1, 1000).get()
    simt.random.seed(1234)
    a2 = simt.random.uniform(-1, 1, 1000).get()
    np.testing.assert_array_equal(a, a2)
    assert not np.array_equal(a, b)


def test_known_values_pin_the_generator():
    # Philox4x32-10 with key = seed, counter = element block; first doubles of seed 0.
    simt.random.seed(0)
    first = simt.random.random(4).get()
    simt.random.seed(0)
    again = simt.random.random(4).get()
    np.testing.assert_array_equal(first, again)
    assert ((first >= 0) & (first < 1)).all()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform_statistics(dtype):
    simt.random.seed(int.from_bytes(np.random.bytes(4), "little"))
    x = simt.random.uniform(-2, 6, 200_000, dtype=dtype).get()
    assert x.dtype == dtype
    assert x.min() >= -2 and x.max() < 6
    assert abs(x.mean() - 2) < 0.05
    assert abs(x.var() - 64 / 12) < 0.1
    counts, _ = np.histogram(x, bins=16, range=(-2, 6))
    assert counts.min() > 0.9 * 200_000 / 16


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_statistics(dtype):
    x = simt.random.normal(3.0, 2.0, 200_000, dtype=dtype).get()
    assert x.dtype == dtype
    assert abs(x.mean() - 3) < 0.03
    assert abs(x.std() - 2) < 0.03
    z = simt.random.randn(100_000).get()
    assert abs(np.mean(np.abs(z) < 1) - 0.6827) < 0.01


def test_shapes_and_aliases():
    assert simt.random.rand(3, 4).shape == (3, 4)
    assert simt.random.randn(2, 5).shape == (2, 5)
    assert simt.random.random((2, 2), dtype=np.float32).dtype == np.float32
    assert simt.random.random().shape == ()


def test_randint_range_and_coverage():
    x = simt.random.randint(-3, 5, 50_000).get()
    assert x.dtype == np.int64
    assert set(np.unique(x)) == set(range(-3, 5))
    y = simt.random.randint(10, size=(100,), dtype=np.int32).get()
    assert y.dtype == np.int32 and y.min() >= 0 and y.max() < 10
    with pytest.raises(ValueError):
        simt.random.randint(5, 5)


def test_random_ints_as_floats_are_rejected():
    with pytest.raises(TypeError):
        simt.random.uniform(0, 1, 3, dtype=np.int32)


@pytest.mark.parametrize("low, high, dtype", [
    (2**62, 2**62 + 1000, np.int64),          # bounds past 2**53: floats lost their low bits
    (2**53 + 1, 2**53 + 3, np.int64),
    (-2**63, 2**63, np.int64),                # the whole int64 range
    (0, 2**64, np.uint64),                    # all 2**64 values
    (2**63, 2**64 - 1, np.uint64),            # the upper half only
    (10**17, 10**17 + 5, np.int64),
])
def test_randint_exact_for_64_bit_bounds(low, high, dtype):
    x = simt.random.randint(low, high, 200_000, dtype=dtype).get()
    assert x.dtype == dtype
    as_int = x.astype(object)
    assert min(as_int) >= low and max(as_int) < high
    span = high - low
    if span <= 1000:  # every value appears, about equally often
        counts = np.bincount((x - dtype(low)).astype(np.int64), minlength=span)
        expected = x.size / span  # (about 200 per value: 0.5x and 1.5x are 7 standard deviations away)
        assert counts.size == span and 0.5 * expected < counts.min() and counts.max() < 1.5 * expected
    else:  # the top and bottom halves of the range are hit about equally
        upper = sum(1 for v in as_int[:20_000] if v >= low + span // 2)
        assert 0.45 < upper / 20_000 < 0.55
