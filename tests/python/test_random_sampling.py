"""simt.random's sampling functions and generator objects: permutation, shuffle, choice,
exponential, RandomState, get_random_state, default_rng. Distributions are checked with bounds
of six standard errors; reproducibility and independence of streams exactly."""
import numpy as np
import pytest

import simt
from simt import random


def test_permutation_of_a_range_and_of_rows():
    random.seed(5)
    p = random.permutation(1000).get()
    assert p.dtype == np.int64 and sorted(p) == list(range(1000)) and (p != np.arange(1000)).any()
    random.seed(5)
    np.testing.assert_array_equal(random.permutation(1000).get(), p)  # the same seed, the same order
    rows = np.arange(40).reshape(20, 2)
    shuffled = random.permutation(simt.asarray(rows)).get()
    assert sorted(map(tuple, shuffled)) == sorted(map(tuple, rows))  # whole rows move
    with pytest.raises(ValueError, match="non-negative"):
        random.permutation(-1)


def test_shuffle_in_place(rng):
    h = rng.standard_normal((50, 3))
    d = simt.asarray(h)
    random.shuffle(d)
    got = d.get()
    assert not np.array_equal(got, h)
    np.testing.assert_array_equal(got[np.lexsort(got.T[::-1])], h[np.lexsort(h.T[::-1])])
    with pytest.raises(TypeError, match="in place"):
        random.shuffle(h)


def test_permutations_are_uniform():
    # Where element 0 lands, over many permutations of 8: each position with probability 1/8.
    counts = np.zeros(8)
    for _ in range(400):
        counts[int(np.flatnonzero(random.permutation(8).get() == 0)[0])] += 1
    expected, sd = 400 / 8, np.sqrt(400 * (1 / 8) * (7 / 8))
    assert np.all(np.abs(counts - expected) < 6 * sd), counts


@pytest.mark.parametrize("p", [None, [0.5, 0.1, 0.0, 0.25, 0.15]])
def test_choice_with_replacement_follows_p(p):
    n = 200_000
    got = random.choice(5, n, p=p).get()
    probs = np.full(5, 0.2) if p is None else np.array(p)
    freq = np.bincount(got, minlength=5)
    sd = np.sqrt(n * probs * (1 - probs))
    assert np.all(np.abs(freq - n * probs) <= 6 * sd + 1e-9), freq
    pop = simt.asarray(np.array([10, 20, 30, 40, 50]))
    drawn = random.choice(pop, (3, 4), p=p).get()
    assert drawn.shape == (3, 4) and set(drawn.ravel()) <= {10, 20, 30, 40, 50}


def test_choice_without_replacement():
    got = random.choice(50, 50, replace=False).get()
    assert sorted(got) == list(range(50))
    weighted = random.choice(10, 6, replace=False, p=[0.3, 0.3, 0.1, 0.1, 0.05, 0.05, 0.04, 0.03, 0.02, 0.01]).get()
    assert len(set(weighted.tolist())) == 6
    # The heaviest of 1 and 0.001: drawn first nearly always.
    firsts = [int(random.choice(2, 1, replace=False, p=[0.999, 0.001]).get()[0]) for _ in range(50)]
    assert firsts.count(0) >= 45


@pytest.mark.parametrize("bad, message", [({"size": 6, "replace": False}, "larger sample"),
                                          ({"p": [0.5, 0.5]}, "same size"), ({"p": [0.5, 0.6, -0.1, 0, 0]}, "non-negative"),
                                          ({"p": [0.5, 0.4, 0, 0, 0]}, "sum to 1"),
                                          ({"size": 3, "replace": False, "p": [1, 0, 0, 0, 0]}, "non-zero entries")])
def test_choice_errors(bad, message):
    with pytest.raises(ValueError, match=message):
        random.choice(5, **bad)


def test_exponential_mean_and_shape():
    n = 400_000
    x = random.exponential(2.5, n).get()
    assert (x >= 0).all()
    assert abs(x.mean() - 2.5) < 6 * 2.5 / np.sqrt(n)
    assert abs(np.median(x) - 2.5 * np.log(2)) < 0.02
    scales = simt.asarray(np.array([1.0, 10.0, 100.0]))
    y = random.exponential(scales)
    assert y.shape == (3,)
    many = random.exponential(scales, size=(100_000, 3)).get()
    np.testing.assert_allclose(many.mean(axis=0), [1.0, 10.0, 100.0], rtol=0.03)
    s = random.standard_exponential(100_000, dtype=np.float32)
    assert s.dtype == np.float32 and abs(float(s.mean().get()) - 1.0) < 0.03
    with pytest.raises(ValueError, match="scale < 0"):
        random.exponential(-1.0, 3)


def test_random_state_objects_keep_their_own_streams():
    a, b = random.RandomState(7), random.RandomState(7)
    first = a.random_sample(5).get()
    np.testing.assert_array_equal(b.random_sample(5).get(), first)
    assert not np.array_equal(a.random_sample(5).get(), first)  # the stream moves on
    random.seed(3)
    plain = random.random(4).get()
    random.seed(3)
    random.RandomState(99).randn(1000)  # drawing elsewhere leaves the module's stream alone
    np.testing.assert_array_equal(random.random(4).get(), plain)
    c = random.RandomState(11)
    assert c.randint(0, 5, 100).get().max() < 5
    for name, args in [("uniform", (2, 3, 10)), ("normal", (0, 1, 10)), ("exponential", (1.0, 10)),
                       ("permutation", (10,)), ("choice", (4, 10)), ("rand", (2, 3)), ("standard_normal", (5,))]:
        x, y = getattr(random.RandomState(1), name)(*args), getattr(random.RandomState(1), name)(*args)
        np.testing.assert_array_equal(x.get(), y.get())
    c.seed(11)
    assert random.get_random_state().random_sample(3).shape == (3,)


def test_default_rng_generator():
    g, h = random.default_rng(123), random.default_rng(123)
    ints = g.integers(10, size=1000).get()
    np.testing.assert_array_equal(h.integers(10, size=1000).get(), ints)
    assert ints.min() >= 0 and ints.max() <= 9
    closed = g.integers(1, 3, size=2000, endpoint=True).get()
    assert set(closed.tolist()) == {1, 2, 3}
    out = simt.empty(5)
    assert g.random(5, out=out) is out
    assert g.standard_normal(10, dtype=np.float32).dtype == np.float32
    assert g.choice(3, 4).shape == (4,) and g.permutation(6).shape == (6,)


def test_random_state_streams_hold_while_other_threads_seed_and_draw():
    import threading
    want = random.RandomState(1)
    expected = [want.random_sample(10).get() for _ in range(30)]
    stop = threading.Event()

    def meddle():
        while not stop.is_set():
            random.seed(5)
            random.random(3)

    other = threading.Thread(target=meddle)
    other.start()
    try:
        rs = random.RandomState(1)
        got = [rs.random_sample(10).get() for _ in range(30)]
    finally:
        stop.set()
        other.join()
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)
    random.seed(5)  # the module's stream was not taken over either
    first = random.random(3).get()
    random.seed(5)
    np.testing.assert_array_equal(random.random(3).get(), first)
