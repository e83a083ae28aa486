"""simt.random's von Mises, Zipf, noncentral chi-square, hypergeometric, multinomial, dirichlet and
multivariate_normal: two-sample Kolmogorov-Smirnov distances to NumPy's generator, exact
probabilities for the discrete ones, and moments against the known means and (co)variances;
all with fixed seeds (the same numbers on every backend, so the tests cannot flake) and large
samples; pinned values of each stream; NumPy's errors; RandomState and Generator methods."""
import math
import re
import warnings

import numpy as np
import pytest

import simt

N = 100_000
KS_BOUND = 2.69 * math.sqrt(2.0 / N)  # two-sample KS at alpha = 1e-6


def ks_distance(a, b):
    a, b = np.sort(a), np.sort(b)
    grid = np.concatenate([a, b])
    return np.max(np.abs(np.searchsorted(a, grid, side="right") / a.size
                         - np.searchsorted(b, grid, side="right") / b.size))


CASES = [("vonmises", (0.5, 2.0)), ("vonmises", (-3.0, 0.3)), ("vonmises", (2.5, 1e-9)), ("vonmises", (1.0, 3e-6)),
         ("vonmises", (3.0, 50.0)), ("vonmises", (0.0, 4e6)), ("noncentral_chisquare", (3.0, 2.0)),
         ("noncentral_chisquare", (0.5, 1.5)), ("noncentral_chisquare", (4.0, 0.0)), ("zipf", (1.7,)),
         ("zipf", (3.0,)), ("hypergeometric", (20, 30, 10)), ("hypergeometric", (2000, 3000, 1000)),
         ("hypergeometric", (5, 500, 400)), ("hypergeometric", (600, 40, 100))]


@pytest.mark.parametrize("name, params", CASES, ids=[f"{n}{p}" for n, p in CASES])
def test_variates_follow_numpys_distribution(name, params):
    simt.random.seed(20240611)
    got = getattr(simt.random, name)(*params, size=N).get()
    ref = getattr(np.random.default_rng(7), name)(*params, size=N)
    assert got.shape == (N,) and got.dtype == (np.int64 if ref.dtype.kind == "i" else np.float64)
    assert np.isfinite(got).all()
    if name == "vonmises":
        assert (np.abs(got) <= np.pi).all()
    assert ks_distance(got, ref) < KS_BOUND


def _zipf_pmf(a, k):
    tail = 10**6
    zeta = np.sum(np.arange(1, tail, dtype=np.float64) ** -a) + tail ** (1 - a) / (a - 1) + 0.5 * tail ** -a
    return k ** -a / zeta


def _hypergeometric_pmf(good, bad, n, k):
    return math.exp(math.lgamma(good + 1) - math.lgamma(k + 1) - math.lgamma(good - k + 1) + math.lgamma(bad + 1)
                    - math.lgamma(n - k + 1) - math.lgamma(bad - n + k + 1) - math.lgamma(good + bad + 1)
                    + math.lgamma(n + 1) + math.lgamma(good + bad - n + 1))


@pytest.mark.parametrize("name, params, pmf", [
    ("zipf", (2.2,), _zipf_pmf), ("hypergeometric", (12, 9, 7), _hypergeometric_pmf),
    ("hypergeometric", (400, 300, 350), _hypergeometric_pmf),
    ("hypergeometric", (30, 9000, 3000), _hypergeometric_pmf)])
def test_discrete_frequencies_match_the_exact_probabilities(name, params, pmf):
    simt.random.seed(99)
    got = getattr(simt.random, name)(*params, size=4 * N).get()
    values, counts = np.unique(got, return_counts=True)
    exact = np.array([pmf(*params, int(k)) for k in values])
    tv = 0.5 * (np.abs(counts / got.size - exact).sum() + (1.0 - exact.sum()))
    assert tv < 0.012, tv


def test_moments_of_the_scalar_distributions():
    simt.random.seed(4)
    n = 400_000
    x = simt.random.noncentral_chisquare(3.0, 2.0, n).get()  # mean df + nonc, variance 2 (df + 2 nonc)
    assert abs(x.mean() - 5.0) < 6 * math.sqrt(14.0 / n) and abs(x.var() / 14.0 - 1) < 0.03
    h = simt.random.hypergeometric(2000, 3000, 1000, n).get()
    var = 1000 * 0.4 * 0.6 * 4000 / 4999
    assert abs(h.mean() - 400.0) < 6 * math.sqrt(var / n) and abs(h.var() / var - 1) < 0.03
    v = simt.random.vonmises(1.0, 3.0, n).get()  # E[cos(x - mu)] = I1(kappa) / I0(kappa)
    ratio = 0.8100750  # I1(3) / I0(3)
    assert abs(np.cos(v - 1.0).mean() - ratio) < 0.005 and abs(np.sin(v - 1.0).mean()) < 0.005
    z = simt.random.zipf(4.0, n).get()  # mean zeta(3) / zeta(4)
    assert abs(z.mean() - 1.2020569 / 1.0823232) < 0.01


def test_parameter_arrays_broadcast():
    simt.random.seed(11)
    kappa = simt.asarray(np.array([[0.5], [8.0]]))
    v = simt.random.vonmises(np.array([0.0, 1.0, -1.0]), kappa, size=(2, 3)).get()
    assert v.shape == (2, 3)
    h = simt.random.hypergeometric(np.array([5, 50, 500]), 100, 10, size=(20000, 3)).get()
    np.testing.assert_allclose(h.mean(axis=0), 10 * np.array([5, 50, 500]) / np.array([105, 150, 600]), rtol=0.03)
    assert (h >= 0).all() and (h <= 10).all()


def test_multinomial():
    simt.random.seed(5)
    p = np.array([0.1, 0.25, 0.4, 0.25])
    x = simt.random.multinomial(40, p, size=(50_000,)).get()
    assert x.shape == (50_000, 4) and x.dtype == np.int64
    assert (x.sum(axis=1) == 40).all() and (x >= 0).all()
    np.testing.assert_allclose(x.mean(axis=0), 40 * p, atol=0.05)
    np.testing.assert_allclose(np.cov(x.T), 40 * (np.diag(p) - np.outer(p, p)), atol=0.15)
    assert len({tuple(r) for r in x[:50]}) > 20  # (each row its own draw)
    one = simt.random.multinomial(10, simt.asarray(np.array([0.5, 0.5])))
    assert one.shape == (2,) and int(one.sum()) == 10
    # NumPy's rule: the last category takes what the others leave (its probability is not read)
    y = simt.random.multinomial(30, [0.2, 0.3, 0.9], size=5).get()
    assert (y.sum(axis=1) == 30).all()
    assert (simt.random.multinomial(0, [0.5, 0.5], size=3).get() == 0).all()
    assert (simt.random.multinomial(7, [1.0, 0.0], size=3).get() == [7, 0]).all()
    assert simt.random.multinomial(5, [0.3, 0.7], size=(2, 0)).shape == (2, 0, 2)


def test_dirichlet():
    simt.random.seed(6)
    alpha = np.array([0.5, 2.0, 3.5])
    x = simt.random.dirichlet(alpha, 100_000).get()
    a0 = alpha.sum()
    assert x.shape == (100_000, 3) and (x >= 0).all()
    np.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(x.mean(axis=0), alpha / a0, atol=0.003)
    np.testing.assert_allclose(x.var(axis=0), alpha * (a0 - alpha) / (a0 ** 2 * (a0 + 1)), rtol=0.03)
    ref = np.random.default_rng(3).dirichlet(alpha, N)
    assert ks_distance(x[:N, 0], ref[:, 0]) < KS_BOUND
    tiny = simt.random.dirichlet([1e-3, 2e-3, 1e-3], 2000).get()  # gammas that underflow: still on the simplex
    assert np.isfinite(tiny).all()
    np.testing.assert_allclose(tiny.sum(axis=1), 1.0, rtol=1e-12)
    assert simt.random.dirichlet([1.0, 1.0], dtype=np.float32).dtype == np.float32


@pytest.mark.parametrize("method", ["cholesky", "eigh", "svd"])
def test_multivariate_normal(method):
    simt.random.seed(7)
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.6, -0.3], [0.6, 1.0, 0.2], [-0.3, 0.2, 0.5]])
    x = simt.random.multivariate_normal(mean, cov, size=(100_000,), method=method).get()
    assert x.shape == (100_000, 3) and x.dtype == np.float64
    np.testing.assert_allclose(x.mean(axis=0), mean, atol=0.03)
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.03)
    y = simt.random.multivariate_normal(simt.asarray(mean), simt.asarray(cov), (4, 5), dtype=np.float32)
    assert y.shape == (4, 5, 3) and y.dtype == np.float32
    assert simt.random.multivariate_normal([0.0], [[1.0]]).shape == (1,)


def test_multivariate_normal_singular_and_checks():
    simt.random.seed(8)
    cov = np.array([[1.0, 1.0], [1.0, 1.0]])  # PSD, singular: x0 == x1
    x = simt.random.multivariate_normal([0.0, 0.0], cov, 1000, method="eigh").get()
    np.testing.assert_allclose(x[:, 0], x[:, 1], atol=1e-7)
    bad = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.raises(ValueError, match="not symmetric positive-semidefinite"):
        simt.random.multivariate_normal([0, 0], bad, check_valid="raise", method="eigh")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        simt.random.multivariate_normal([0, 0], bad, check_valid="warn", method="eigh")
    assert any("positive-semidefinite" in str(w.message) for w in caught)
    for args, kwargs, match in [(([0, 0], [[1, 0]]), {}, "2 dimensional and square"),
                                (([0, 0, 0], np.eye(2)), {}, "same length"),
                                (([[0, 0]], np.eye(2)), {}, "1 dimensional"),
                                (([0, 0], np.eye(2)), {"check_valid": "x"}, "check_valid must equal"),
                                (([0, 0], np.eye(2)), {"method": "qr"}, "method must be one of")]:
        with pytest.raises(ValueError, match=match):
            simt.random.multivariate_normal(*args, **kwargs)
        with pytest.raises(ValueError, match=match.split(" must")[0]):
            np.random.default_rng(0).multivariate_normal(*args, **kwargs)
    with pytest.raises(TypeError, match="float32 or float64"):
        simt.random.multivariate_normal([0], [[1]], dtype=np.int32)


def test_numpys_parameter_errors():
    rs = np.random.RandomState(0)
    for call in [lambda m: m.vonmises(0.0, -1.0), lambda m: m.zipf(1.0), lambda m: m.zipf(np.nan),
                 lambda m: m.noncentral_chisquare(0.0, 1.0), lambda m: m.noncentral_chisquare(1.0, -1.0),
                 lambda m: m.hypergeometric(-1, 2, 1), lambda m: m.hypergeometric(1, 2, 0),
                 lambda m: m.hypergeometric(1, 2, 4), lambda m: m.dirichlet([1.0, 0.0]),
                 lambda m: m.multinomial(-1, [0.5, 0.5]), lambda m: m.multinomial(3, [-0.1, 1.1])]:
        with pytest.raises(ValueError) as want:
            call(rs)
        with pytest.raises(ValueError, match=re.escape(str(want.value).split(" or ")[0])):
            call(simt.random)
    with pytest.raises(ValueError, match="nbad < 0"):
        simt.random.hypergeometric(3, -2, 1)
    with pytest.raises(ValueError, match="alpha contains NaNs"):
        simt.random.dirichlet([1.0, np.nan])
    with pytest.raises(ValueError, match=r"sum\(pvals\[:-1\]\) > 1.0"):
        simt.random.multinomial(5, [0.7, 0.7, 0.1])
    with pytest.raises(ValueError, match="1-d"):
        simt.random.multinomial(5, [[0.5, 0.5]])
    with pytest.raises(NotImplementedError, match="one number of trials"):
        simt.random.multinomial([5, 6], [0.5, 0.5])
    with pytest.raises(TypeError, match="unexpected keyword"):
        simt.random.zipf(b=2.0)


def test_edge_parameters():
    assert (simt.random.hypergeometric(5, 0, 3, size=100).get() == 3).all()
    assert (simt.random.hypergeometric(0, 5, 3, size=100).get() == 0).all()
    assert (simt.random.hypergeometric(4, 6, 10, size=100).get() == 4).all()
    assert (simt.random.hypergeometric(10.9, 3, 2, size=2000).get() <= 2).all()  # (10.9 draws as 10)
    assert np.isnan(simt.random.vonmises(0.0, np.nan, 4).get()).all()
    assert np.isnan(simt.random.noncentral_chisquare(2.0, np.nan, 4).get()).all()
    assert simt.random.zipf(2.0).shape == () and simt.random.vonmises(0, 1, size=0).shape == (0,)


# Values of seed 1234 (the same on every backend: counter-based streams, same kernels).
PINNED = [("zipf", (2.0, 8), [2, 1, 1, 1, 2, 1, 1, 3]),
          ("hypergeometric", (30, 20, 15, 8), [7, 7, 7, 8, 8, 11, 9, 5]),
          ("hypergeometric", (3000, 2000, 1000, 4), [588, 595, 606, 587]),
          ("multinomial", (50, [0.2, 0.3, 0.5], 3), [[2, 19, 29], [10, 18, 22], [13, 13, 24]]),
          ("vonmises", (0.3, 4.0, 3), [0.15854668057537902, 0.22147856009655076, 0.29340728801000715]),
          ("dirichlet", ([0.5, 2.0, 3.0], 2), [[0.0161927717047394, 0.248325689664906, 0.7354815386303546],
                                               [0.14065460206877234, 0.4926442925907706, 0.366701105340457]]),
          ("noncentral_chisquare", (2.5, 1.5, 3), [3.9341950238842323, 0.6597347834741639, 3.110856916623818])]


def test_pinned_values_and_reproducibility():
    simt.random.seed(1234)
    for name, args, want in PINNED:
        got = getattr(simt.random, name)(*args).get()
        if got.dtype.kind == "i":
            np.testing.assert_array_equal(got, want, err_msg=name)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=name)  # (a GPU's libm may differ in an ulp)
    simt.random.seed(1234)
    first = [getattr(simt.random, name)(*args).get() for name, args, _ in PINNED]
    simt.random.seed(1234)
    for (name, args, _), f in zip(PINNED, first):
        np.testing.assert_array_equal(getattr(simt.random, name)(*args).get(), f, err_msg=name)


def test_random_state_and_generator_methods():
    for name, args, _ in PINNED + [("multivariate_normal", ([0.0, 1.0], np.eye(2), 4), None)]:
        r1, r2 = simt.random.RandomState(21), simt.random.RandomState(21)
        a, b = getattr(r1, name)(*args).get(), getattr(r2, name)(*args).get()
        np.testing.assert_array_equal(a, b, err_msg=name)
        assert not np.array_equal(getattr(r1, name)(*args).get(), a) or a.size <= 2  # (the state moved on)
        g = simt.random.default_rng(21)
        np.testing.assert_array_equal(getattr(g, name)(*args).get(), a, err_msg=name)
    simt.random.seed(3)
    before = simt.random.zipf(2.0, 5).get()
    simt.random.seed(3)
    simt.random.RandomState(0).multinomial(5, [0.5, 0.5], 10)  # (an object's draws leave the module's stream alone)
    np.testing.assert_array_equal(simt.random.zipf(2.0, 5).get(), before)
