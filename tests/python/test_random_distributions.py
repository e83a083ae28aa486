"""simt.random's gamma, Poisson, binomial, ... against NumPy's own generator: a two-sample
Kolmogorov-Smirnov distance between 100k simt variates and 100k NumPy variates of the same
parameters (fresh seeds each run; the bound fails a correct sampler about once in a million runs),
exact probabilities for the discrete ones, array parameters broadcast, NumPy's errors,
reproducibility under a seed, RandomState and Generator methods."""
import math

import numpy as np
import pytest

import simt

N = 100_000
KS_BOUND = 2.69 * math.sqrt(2.0 / N)  # two-sample KS at alpha = 1e-6

CASES = [("standard_gamma", (0.3,)), ("standard_gamma", (1.0,)), ("gamma", (4.5, 2.0)), ("beta", (0.5, 0.7)),
         ("beta", (2.0, 5.0)), ("chisquare", (3.0,)), ("standard_t", (4.0,)), ("f", (5.0, 12.0)),
         ("lognormal", (0.3, 0.8)), ("laplace", (1.0, 2.0)), ("logistic", (-1.0, 0.5)), ("gumbel", (2.0, 3.0)),
         ("rayleigh", (1.5,)), ("weibull", (1.7,)), ("pareto", (3.0,)), ("power", (2.5,)), ("standard_cauchy", ()),
         ("triangular", (-1.0, 0.5, 2.0)), ("wald", (2.0, 3.0)), ("poisson", (3.5,)), ("poisson", (17.0,)),
         ("poisson", (1e6,)), ("binomial", (20, 0.3)), ("binomial", (1000, 0.3)), ("binomial", (500, 0.85)),
         ("negative_binomial", (5, 0.3)), ("geometric", (0.2,))]


def ks_distance(a, b):
    a, b = np.sort(a), np.sort(b)
    grid = np.concatenate([a, b])
    return np.max(np.abs(np.searchsorted(a, grid, side="right") / a.size - np.searchsorted(b, grid, side="right") / b.size))


@pytest.mark.parametrize("name, params", CASES, ids=[f"{n}{p}" for n, p in CASES])
def test_variates_follow_numpys_distribution(rng, name, params):
    simt.random.seed(int(rng.integers(2**63)))
    got = getattr(simt.random, name)(*params, size=N).get()
    ref = getattr(rng, name)(*params, size=N)
    assert got.shape == (N,) and got.dtype == (np.int64 if ref.dtype.kind == "i" else np.float64)
    assert np.isfinite(got).all()
    assert ks_distance(got, ref) < KS_BOUND


def _pmf_poisson(lam, k):
    return math.exp(-lam + k * math.log(lam) - math.lgamma(k + 1))


def _pmf_binomial(n, p, k):
    return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p)
                    + (n - k) * math.log1p(-p))


@pytest.mark.parametrize("name, params, pmf", [("poisson", (6.0,), _pmf_poisson), ("poisson", (40.0,), _pmf_poisson),
                                               ("binomial", (30, 0.2), _pmf_binomial),
                                               ("binomial", (400, 0.35), _pmf_binomial),
                                               ("binomial", (400, 0.65), _pmf_binomial)])
def test_discrete_frequencies_match_the_exact_probabilities(rng, name, params, pmf):
    simt.random.seed(int(rng.integers(2**63)))
    got = getattr(simt.random, name)(*params, size=4 * N).get()
    values, counts = np.unique(got, return_counts=True)
    exact = np.array([pmf(*params, int(k)) for k in values])
    # Total variation distance between the empirical and the exact law, over the values drawn
    # (the exact mass elsewhere counts fully).
    tv = 0.5 * (np.abs(counts / got.size - exact).sum() + (1.0 - exact.sum()))
    assert tv < 0.012, tv


def test_array_parameters_broadcast_as_in_numpy(rng):
    lam = simt.asarray(np.array([[1.0], [50.0], [400.0]]))
    x = simt.random.poisson(lam, size=(3, 20000)).get()
    assert x.shape == (3, 20000)
    np.testing.assert_allclose(x.mean(axis=1), [1.0, 50.0, 400.0], rtol=0.03)
    g = simt.random.gamma(np.array([1.0, 2.0, 3.0]), simt.asarray(np.array([[1.0], [10.0]]))).get()
    assert g.shape == (2, 3)
    b = simt.random.binomial(np.arange(1, 5), 0.5, size=(1000, 4)).get()
    assert b.shape == (1000, 4) and (b <= np.arange(1, 5)).all() and (b >= 0).all()
    with pytest.raises(ValueError, match="cannot be broadcast"):
        simt.random.poisson(np.ones(3), size=(2, 4))


def test_numpys_parameter_errors():
    with pytest.raises(ValueError, match="lam < 0"):
        simt.random.poisson(-1.0)
    with pytest.raises(ValueError, match="lam < 0"):
        simt.random.poisson(simt.asarray(np.array([1.0, -2.0])))
    with pytest.raises(ValueError, match="p < 0, p > 1"):
        simt.random.binomial(10, 1.5)
    with pytest.raises(ValueError, match="n < 0"):
        simt.random.binomial(-1, 0.5)
    with pytest.raises(ValueError, match="shape < 0"):
        simt.random.gamma(-1.0)
    with pytest.raises(ValueError, match="a <= 0"):
        simt.random.beta(0.0, 1.0)
    with pytest.raises(ValueError, match="left > mode"):
        simt.random.triangular(2.0, 1.0, 3.0)
    with pytest.raises(TypeError, match="missing required"):
        simt.random.gamma()
    with pytest.raises(TypeError, match="unexpected keyword"):
        simt.random.poisson(lamb=3.0)


def test_edge_parameters():
    assert (simt.random.poisson(0.0, size=100).get() == 0).all()
    assert (simt.random.binomial(10, 0.0, size=100).get() == 0).all()
    assert (simt.random.binomial(10, 1.0, size=100).get() == 10).all()
    assert (simt.random.binomial(0, 0.5, size=100).get() == 0).all()
    assert (simt.random.geometric(1.0, size=100).get() == 1).all()
    assert (simt.random.standard_gamma(0.0, size=10).get() == 0).all()
    assert simt.random.poisson(size=0).shape == (0,)
    assert simt.random.standard_gamma(2.0).shape == ()


def test_seeds_reproduce_and_states_are_separate():
    simt.random.seed(1234)
    a = simt.random.binomial(50, 0.4, size=1000).get()
    b = simt.random.gamma(2.0, size=1000).get()
    simt.random.seed(1234)
    np.testing.assert_array_equal(simt.random.binomial(50, 0.4, size=1000).get(), a)
    np.testing.assert_array_equal(simt.random.gamma(2.0, size=1000).get(), b)
    assert not np.array_equal(simt.random.gamma(2.0, size=1000).get(), b)  # the counter moved on
    r1, r2 = simt.random.RandomState(7), simt.random.RandomState(7)
    np.testing.assert_array_equal(r1.poisson(9.0, 500).get(), r2.poisson(9.0, 500).get())
    g = simt.random.default_rng(3)
    assert g.beta(2.0, 2.0, size=10).shape == (10,)
    assert simt.random.gamma(2.0, size=4, dtype=np.float32).dtype == np.float32


def test_extreme_parameters_keep_the_support():
    w = simt.random.wald(1e9, 1.0, size=200_000).get()
    assert (w > 0).all()
    assert (simt.random.wald(1.0, 1e-8, size=200_000).get() > 0).all()
    g = simt.random.geometric(1e-20, size=200).get()  # mean 1e20: most past int64, saturated as NumPy's
    assert (g > 10**12).all() and (g == np.iinfo(np.int64).max).mean() > 0.8
    with pytest.raises(ValueError, match="p <= 0"):
        simt.random.negative_binomial(5, 0.0)
    # NumPy's n is an integer: 10.7 draws as 10.
    assert simt.random.binomial(10.7, 0.5, size=400_000).get().mean() == pytest.approx(5.0, abs=0.02)


def test_nan_parameters_give_nan_variates():
    for draw in (lambda: simt.random.gamma(np.nan, size=8), lambda: simt.random.beta(np.nan, 1.0, size=8),
                 lambda: simt.random.chisquare(np.nan, size=8), lambda: simt.random.standard_t(np.nan, size=8)):
        assert np.isnan(draw().get()).all()  # (and no sampler loops forever on them)
    with pytest.raises(ValueError, match="NaN"):
        simt.random.binomial(np.nan, 0.5)
    with pytest.raises(TypeError, match="real numbers"):
        simt.random.gamma(simt.ones(3, np.complex64))
