"""simt.einsum against NumPy on fresh random data: matrix products, batches, traces and
diagonals, outer products, sums, broadcasting with '...', implicit outputs, chains of operands,
dtypes, out=, and NumPy's errors."""
import numpy as np
import pytest

import simt

CASES = [("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ii->i", [(4, 4)]), ("ii", [(4, 4)]),
         ("ij->", [(3, 4)]), ("ij->ji", [(3, 4)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("i,i", [(5,), (5,)]),
         ("i,j->ij", [(3,), (4,)]), ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]), ("ijk,kl,lm->im", [(2, 3, 4), (4, 5), (5, 2)]),
         ("iij->j", [(3, 3, 4)]), ("ij,ij->i", [(3, 1), (3, 4)]), ("i...->...", [(3, 4, 5)]), ("...,...", [(3, 4), (4,)]),
         ("ab,cd->abcd", [(2, 3), (4, 5)]), ("ijij->ij", [(2, 3, 2, 3)]), ("abc,abc->", [(2, 3, 4), (2, 3, 4)]),
         ("ij,kj->ikj", [(3, 4), (2, 4)]), ("i,i,i->i", [(6,), (6,), (6,)]), ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
         ("ij,jk->", [(0, 3), (3, 2)])]


@pytest.mark.parametrize("subscripts, shapes", CASES, ids=[c[0] for c in CASES])
def test_einsum_matches_numpy(rng, subscripts, shapes):
    ops = [rng.standard_normal(s) for s in shapes]
    want = np.einsum(subscripts, *ops)
    got = simt.einsum(subscripts, *[simt.asarray(o) for o in ops])
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtypes", [(np.float32, np.float32), (np.int32, np.int64), (np.complex64, np.float64),
                                    (np.int8, np.int8)])
def test_einsum_dtypes(rng, dtypes):
    a = (rng.standard_normal((4, 3)) * 3).astype(dtypes[0])
    b = (rng.standard_normal((3, 5)) * 3).astype(dtypes[1])
    want = np.einsum("ij,jk->ik", a, b)
    got = simt.einsum("ij,jk->ik", simt.asarray(a), simt.asarray(b))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-4)  # (float32 sums near 0, other orders)
    if np.dtype(dtypes[0]).kind != "c":
        forced = simt.einsum("ij,jk->ik", simt.asarray(a), simt.asarray(b), dtype=np.float64)
        assert forced.dtype == np.float64
    else:  # complex into float64 is not a 'safe' cast
        with pytest.raises(TypeError):
            np.einsum("ij,jk->ik", a, b, dtype=np.float64)
        with pytest.raises(TypeError, match="rule 'safe'"):
            simt.einsum("ij,jk->ik", simt.asarray(a), simt.asarray(b), dtype=np.float64)


def test_einsum_out_and_numpy_dispatch(rng):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    out = simt.empty((3, 2))
    assert simt.einsum("ij,jk->ik", simt.asarray(a), simt.asarray(b), out=out) is out
    np.testing.assert_allclose(out.get(), a @ b, rtol=1e-12)
    np.testing.assert_allclose(np.einsum("ij,jk", simt.asarray(a), simt.asarray(b)).get(), a @ b, rtol=1e-12)


@pytest.mark.parametrize("subscripts, shapes", [("ij,jk->ik", [(3, 4), (5, 6)]), ("ij->k", [(3, 4)]), ("ij", [(3,)]),
                                                ("ij->ii", [(3, 3)]), ("i,j", [(3,)]), ("i$->i", [(3, 3)]),
                                                ("ii->i", [(3, 4)])])
def test_einsum_errors_like_numpy(rng, subscripts, shapes):
    ops = [rng.standard_normal(s) for s in shapes]
    with pytest.raises(ValueError):
        np.einsum(subscripts, *ops)
    with pytest.raises(ValueError, match="einsum"):
        simt.einsum(subscripts, *[simt.asarray(o) for o in ops])


@pytest.mark.parametrize("optimize", [True, "greedy", "optimal", False])
@pytest.mark.parametrize("subscripts, shapes", [("ij,jk,kl->il", [(30, 4), (4, 50), (50, 3)]),
                                                ("ijk,jl,kl,l->i", [(5, 6, 7), (6, 8), (7, 8), (8,)]),
                                                ("ab,bc,cd,de,ea->", [(3, 4), (4, 5), (5, 6), (6, 7), (7, 3)]),
                                                ("...ij,jk,k->...i", [(2, 3, 4, 5), (5, 6), (6,)])])
def test_optimized_contraction_orders_agree_with_numpy(rng, optimize, subscripts, shapes):
    hosts = [rng.standard_normal(s) for s in shapes]
    got = simt.einsum(subscripts, *[simt.asarray(h) for h in hosts], optimize=optimize)
    np.testing.assert_allclose(got.get(), np.einsum(subscripts, *hosts), rtol=1e-10, atol=1e-10)


def test_an_explicit_einsum_path_is_followed_and_checked(rng):
    hosts = [rng.standard_normal(s) for s in [(6, 7), (7, 8), (8, 9)]]
    path = ["einsum_path", (1, 2), (0, 1)]
    got = simt.einsum("ij,jk,kl->il", *[simt.asarray(h) for h in hosts], optimize=path)
    np.testing.assert_allclose(got.get(), hosts[0] @ hosts[1] @ hosts[2], rtol=1e-10)
    with pytest.raises(ValueError, match="does not name distinct pending operands"):
        simt.einsum("ij,jk,kl->il", *[simt.asarray(h) for h in hosts], optimize=["einsum_path", (0, 5), (0, 1)])
    with pytest.raises(ValueError, match="does not contract every operand"):
        simt.einsum("ij,jk,kl->il", *[simt.asarray(h) for h in hosts], optimize=["einsum_path", (0, 1)])


def test_paths_with_steps_of_several_operands(rng):
    hosts = [rng.standard_normal(n) for n in (2, 3, 4)]
    ds = [simt.asarray(h) for h in hosts]
    # einsum_path keeps the outer product of three vectors as one step: (0, 1, 2).
    np.testing.assert_allclose(simt.einsum("a,b,c->abc", *ds, optimize=True).get(), np.einsum("a,b,c->abc", *hosts))
    mats = [rng.standard_normal(s) for s in [(5, 6), (6, 7), (7, 8), (8, 3)]]
    got = simt.einsum("ij,jk,kl,lm->im", *[simt.asarray(m) for m in mats], optimize=("greedy", 10))
    np.testing.assert_allclose(got.get(), mats[0] @ mats[1] @ mats[2] @ mats[3], rtol=1e-10)
    got = simt.einsum("ij,jk,kl->il", *[simt.asarray(m) for m in mats[:3]], optimize=["einsum_path", (0, 1, 2)])
    np.testing.assert_allclose(got.get(), mats[0] @ mats[1] @ mats[2], rtol=1e-10)
