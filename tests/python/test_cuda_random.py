"""Random numbers inside kernels (simt.cuda.random, numba.cuda.random's API): Monte Carlo pi,
distribution tests, reproducibility (same seed, same numbers; different threads, different
streams), kernel results against the host implementation, and error messages."""
import math

import numpy as np
import pytest

import simt
import simt.cuda.random as xr
from kernel_text import typing_error
from simt import cuda
from simt.cuda.random import (create_xoroshiro128p_states, init_xoroshiro128p_state, init_xoroshiro128p_states,
                              xoroshiro128p_jump, xoroshiro128p_next, xoroshiro128p_normal_float32,
                              xoroshiro128p_normal_float64, xoroshiro128p_uniform_float32,
                              xoroshiro128p_uniform_float64)

THREADS, PER_THREAD = 1024, 64


def fresh_seed(rng):
    return int(rng.integers(0, 2**63))


@cuda.jit
def monte_carlo_pi(states, per_thread, hits):
    i = cuda.grid(1)
    if i < hits.size:
        inside = 0
        for _ in range(per_thread):
            x = xoroshiro128p_uniform_float32(states, i)
            y = xoroshiro128p_uniform_float32(states, i)
            if x * x + y * y <= 1.0:
                inside += 1
        hits[i] = inside


def test_monte_carlo_pi(rng):
    threads, per_thread = 4096, 256
    states = create_xoroshiro128p_states(threads, seed=fresh_seed(rng))
    hits = simt.zeros(threads, dtype=np.int64)
    monte_carlo_pi[threads // 128, 128](states, per_thread, hits)
    n = threads * per_thread
    estimate = 4.0 * hits.get().sum() / n
    sigma = 4.0 * math.sqrt(math.pi / 4 * (1 - math.pi / 4) / n)
    assert abs(estimate - math.pi) < 6 * sigma, (estimate, sigma)


@cuda.jit
def draw(states, kind, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        for j in range(out.shape[1]):
            if kind == 0:
                out[i, j] = xoroshiro128p_uniform_float32(states, i)
            elif kind == 1:
                out[i, j] = xoroshiro128p_uniform_float64(states, i)
            elif kind == 2:
                out[i, j] = xoroshiro128p_normal_float32(states, i)
            else:
                out[i, j] = xoroshiro128p_normal_float64(states, i)


def sample(states, kind, threads=THREADS, per_thread=PER_THREAD):
    out = simt.zeros((threads, per_thread))
    draw[(threads + 127) // 128, 128](states, kind, out)
    return out.get()


def ks_statistic(values, cdf):
    x = np.sort(values)
    n = x.size
    f = cdf(x)
    return max((np.arange(1, n + 1) / n - f).max(), (f - np.arange(n) / n).max())


def normal_cdf(x):
    return 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


@pytest.mark.parametrize("kind,bits", [(0, 24), (1, 53)], ids=["float32", "float64"])
def test_uniform_distribution(rng, kind, bits):
    values = sample(create_xoroshiro128p_states(THREADS, fresh_seed(rng)), kind).ravel()
    n = values.size
    assert values.min() >= 0.0 and values.max() < 1.0
    np.testing.assert_array_equal(values * 2.0**bits, np.floor(values * 2.0**bits))  # exact multiples of 2^-bits
    assert ks_statistic(values, lambda x: x) < 2.3 / math.sqrt(n)  # Kolmogorov: P(D > 2.3/sqrt(n)) ~ 1e-4
    assert abs(values.mean() - 0.5) < 5 * math.sqrt(1 / 12 / n)
    counts = np.bincount((values * 16).astype(int), minlength=16)  # chi-squared on 16 bins, 15 dof
    expected = n / 16
    assert ((counts - expected) ** 2 / expected).sum() < 45


@pytest.mark.parametrize("kind", [2, 3], ids=["float32", "float64"])
def test_normal_distribution(rng, kind):
    values = sample(create_xoroshiro128p_states(THREADS, fresh_seed(rng)), kind).ravel()
    n = values.size
    assert np.isfinite(values).all()
    assert abs(values.mean()) < 5 / math.sqrt(n)
    assert abs(values.var() - 1) < 5 * math.sqrt(2 / n)
    assert ks_statistic(values, normal_cdf) < 2.3 / math.sqrt(n)  # Kolmogorov: P(D > 2.3/sqrt(n)) ~ 1e-4


def test_same_seed_same_numbers_and_different_threads_different_streams(rng):
    seed = fresh_seed(rng)
    a = sample(create_xoroshiro128p_states(THREADS, seed), 1)
    b = sample(create_xoroshiro128p_states(THREADS, seed), 1)
    c = sample(create_xoroshiro128p_states(THREADS, seed + 1), 1)
    np.testing.assert_array_equal(a, b)
    assert not (a == c).any()
    # each thread's stream differs from every other's, with no correlation between neighbours
    assert np.unique(a[:, 0]).size == THREADS
    corr = np.corrcoef(a[:-1].ravel(), a[1:].ravel())[0, 1]
    assert abs(corr) < 5 / math.sqrt(a.size)


def test_states_advance_and_kernel_matches_the_host_reference(rng):
    states = create_xoroshiro128p_states(64, fresh_seed(rng))
    host = states.get()
    first = sample(states, 1, threads=64, per_thread=4)
    second = sample(states, 3, threads=64, per_thread=3)  # continues where the first launch stopped
    third = sample(states, 0, threads=64, per_thread=2)
    fourth = sample(states, 2, threads=64, per_thread=2)
    for i in range(64):
        np.testing.assert_array_equal(first[i], [xoroshiro128p_uniform_float64(host, i) for _ in range(4)])
        np.testing.assert_allclose(second[i], [xoroshiro128p_normal_float64(host, i) for _ in range(3)], rtol=1e-14,
                                   atol=1e-14)
        np.testing.assert_array_equal(third[i], [xoroshiro128p_uniform_float32(host, i) for _ in range(2)])
        np.testing.assert_allclose(fourth[i], [xoroshiro128p_normal_float32(host, i) for _ in range(2)], rtol=3e-6,
                                   atol=3e-6)
    np.testing.assert_array_equal(states.get(), host)  # the device states advanced exactly as the host's


def test_next_jump_and_init_state_in_kernels(rng):
    @cuda.jit
    def k(states, seeds, out):
        i = cuda.grid(1)
        if i < out.shape[0]:
            init_xoroshiro128p_state(states, i, seeds[i])
            out[i, 0] = xoroshiro128p_next(states, i)
            xoroshiro128p_jump(states, i)
            out[i, 1] = xr.xoroshiro128p_next(states, i)
            out[i, 2] = cuda.random.xoroshiro128p_next(states, i)

    n = 40
    seeds = rng.integers(0, 2**63, n, dtype=np.uint64)
    states = simt.zeros((n, 2), dtype=np.uint64)
    out = simt.zeros((n, 3), dtype=np.uint64)
    k[1, 64](states, simt.asarray(seeds), out)
    host = np.zeros((n, 2), dtype=np.uint64)
    for i in range(n):
        init_xoroshiro128p_state(host, i, int(seeds[i]))
        np.testing.assert_array_equal(host[i], create_xoroshiro128p_states(1, int(seeds[i])).get()[0])
        expected = [xoroshiro128p_next(host, i)]
        xoroshiro128p_jump(host, i)
        expected += [xoroshiro128p_next(host, i), xoroshiro128p_next(host, i)]
        np.testing.assert_array_equal(out.get()[i], expected)
    np.testing.assert_array_equal(states.get(), host)


def test_streams_are_jumps_apart_and_subsequence_start_skips_them(rng):
    seed = fresh_seed(rng)
    states = create_xoroshiro128p_states(8, seed).get()
    for i in range(7):  # the host jump (Python) agrees with the native seeding (C++)
        row = states[i:i + 1].copy()
        xoroshiro128p_jump(row, 0)
        np.testing.assert_array_equal(row[0], states[i + 1])
    np.testing.assert_array_equal(create_xoroshiro128p_states(5, seed, subsequence_start=3).get(), states[3:8])
    existing = simt.zeros((6, 2), dtype=np.uint64)
    init_xoroshiro128p_states(existing, seed, subsequence_start=2)
    np.testing.assert_array_equal(existing.get(), states[2:8])


def test_out_of_range_index_reads_zero_and_changes_nothing(rng):
    @cuda.jit
    def k(states, out):
        out[0] = xoroshiro128p_uniform_float64(states, 5)
        out[1] = xoroshiro128p_uniform_float64(states, -1)  # negative indices wrap once, as for arrays

    states = create_xoroshiro128p_states(2, fresh_seed(rng))
    host = states.get()
    out = simt.zeros(2)
    k[1, 1](states, out)
    assert out.get()[0] == 0.0
    assert out.get()[1] == xoroshiro128p_uniform_float64(host, 1)
    np.testing.assert_array_equal(states.get(), host)


@pytest.mark.parametrize("source,message", [
    ("xoroshiro128p_uniform_float32(A, 0)", "needs the states array from create_xoroshiro128p_states() "
                                            "(uint64, shape (n, 2)), not array(float64, 1d, C)"),
    ("xoroshiro128p_uniform_float64(S, 0.5)", "argument 'index' must be an integer, not float64"),
    ("xoroshiro128p_normal_float64(S)", "missing required argument 'index'"),
])
def test_kernel_errors(tmp_path, source, message):
    text = ("from simt.cuda.random import *\n\n"
            f"def k(A, S):\n    A[0] = {source}\n")
    error = typing_error(tmp_path, text, simt.zeros(1), simt.zeros((1, 2), dtype=np.uint64))
    assert message in error, error


def test_host_errors():
    with pytest.raises(ValueError, match="shape \\(n, 2\\)"):
        init_xoroshiro128p_states(simt.zeros((4, 3), dtype=np.uint64), 1)
    with pytest.raises(ValueError, match="dtype uint64"):
        init_xoroshiro128p_states(simt.zeros((4, 2)), 1)
    with pytest.raises(TypeError, match="simt device array"):
        init_xoroshiro128p_states(np.zeros((4, 2), dtype=np.uint64), 1)
    with pytest.raises(ValueError, match="non-negative"):
        create_xoroshiro128p_states(-1, 1)
    with pytest.raises(TypeError, match="seed must be an integer"):
        create_xoroshiro128p_states(4, "seed")
    with pytest.raises(TypeError, match="runs inside kernels, or on the host with a NumPy"):
        xoroshiro128p_uniform_float32(create_xoroshiro128p_states(4, 1), 0)
