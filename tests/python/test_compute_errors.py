"""simt.compute's errors: wrong argument types, mismatched dtypes, counts beyond the arrays,
operators that do not compile, iterators used the wrong way round."""
import numpy as np
import pytest

import simt
import simt.compute as cc


def two_args(a, b):
    return a + b


def bad_op(a, b):
    return a.no_such_attribute + b


def test_host_arrays_and_wrong_types_are_refused():
    out = simt.empty(1)
    with pytest.raises(TypeError, match=r"d_in is a NumPy array \(host memory\); copy it to the device"):
        cc.reduce_into(np.arange(4.0), out, cc.OpKind.PLUS, 4, np.float64(0))
    with pytest.raises(TypeError, match="must be a device array or a simt.compute iterator, not list"):
        cc.unary_transform([1, 2], out, cc.OpKind.NEGATE, 1)
    with pytest.raises(TypeError, match="h_init must be a NumPy array of one element or a NumPy scalar"):
        cc.reduce_into(simt.zeros(4), out, cc.OpKind.PLUS, 4, 0)
    with pytest.raises(ValueError, match="h_init must hold exactly one value"):
        cc.reduce_into(simt.zeros(4), out, cc.OpKind.PLUS, 4, np.zeros(2))
    with pytest.raises(TypeError, match="op must be an OpKind or a Python function"):
        cc.reduce_into(simt.zeros(4), out, "plus", 4, np.float64(0))
    with pytest.raises(TypeError, match="num_items must be an integer, not float"):
        cc.reduce_into(simt.zeros(4), out, cc.OpKind.PLUS, 4.0, np.float64(0))
    with pytest.raises(ValueError, match="num_items must be non-negative"):
        cc.unary_transform(simt.zeros(4), out, cc.OpKind.NEGATE, -1)


def test_num_items_larger_than_the_arrays():
    with pytest.raises(ValueError, match=r"d_in has 4 items, fewer than num_items=5"):
        cc.reduce_into(simt.zeros(4), simt.empty(1), cc.OpKind.PLUS, 5, np.float64(0))
    with pytest.raises(ValueError, match=r"d_out has 3 items, fewer than num_items=4"):
        cc.inclusive_scan(simt.zeros(4), simt.empty(3), cc.OpKind.PLUS, None, 4)
    with pytest.raises(ValueError, match=r"d_out has 0 items, fewer than 1 \(the result\)"):
        cc.reduce_into(simt.zeros(4), simt.empty(0), cc.OpKind.PLUS, 4, np.float64(0))
    with pytest.raises(ValueError, match=r"start_offsets_in has 2 items, fewer than num_segments=3"):
        cc.segmented_reduce(simt.zeros(4), simt.empty(3), simt.zeros(2, np.int64), simt.zeros(3, np.int64),
                            cc.OpKind.PLUS, np.float64(0), 3)
    with pytest.raises(ValueError, match=r"d_histogram has 4 items, fewer than num_output_levels - 1=5"):
        cc.histogram_even(simt.zeros(4), simt.empty(4, np.int32), 6, 0.0, 1.0, 4)


def test_mismatched_dtypes_and_shapes_of_values():
    with pytest.raises(TypeError, match="d_in_keys holds int32 but d_out_keys holds int64; they must match"):
        cc.merge_sort(simt.zeros(4, np.int32), None, simt.empty(4, np.int64), None, cc.OpKind.LESS, 4)
    with pytest.raises(TypeError, match="d_out_items holds float32 but d_in_items holds float64"):
        cc.unique_by_key(simt.zeros(4), simt.zeros(4), simt.empty(4), simt.empty(4, np.float32),
                         simt.empty(1, np.int32), cc.OpKind.EQUAL_TO, 4)
    zipped = cc.ZipIterator(simt.zeros(4), simt.zeros(4, np.int32))
    with pytest.raises(TypeError, match=r"d_in yields values of type tuple\(float64, int32\), which do not convert "
                                        "to float64"):
        cc.reduce_into(zipped, simt.empty(1), two_args, 4, np.float64(0))
    with pytest.raises(TypeError, match=r"a tuple value \(tuple\(float64, int32\)\) cannot be written to an array"):
        cc.reduce_into(zipped, simt.empty(1), two_args, 4, (np.float64(0), np.int32(0)))
    with pytest.raises(TypeError, match="complex to real"):
        cc.reduce_into(simt.zeros(4, np.complex128), simt.empty(1), cc.OpKind.PLUS, 4, np.float64(0))
    with pytest.raises(TypeError, match="d_histogram must be an array of int32, int64, uint32 or uint64 counters"):
        cc.histogram_even(simt.zeros(4), simt.empty(4), 5, 0.0, 1.0, 4)
    with pytest.raises(TypeError, match="h_init has type int64, but this object was built for float64"):
        reducer = cc.make_reduce_into(simt.zeros(4), simt.empty(1), cc.OpKind.PLUS, np.float64(0))
        reducer(None, simt.zeros(4), simt.empty(1), 4, np.int64(0))


def test_operators_that_do_not_fit_or_compile():
    with pytest.raises(TypeError, match="the operator 'two_args' takes 2 arguments, a unary operator needs 1"):
        cc.unary_transform(simt.zeros(4), simt.empty(4), two_args, 4)
    with pytest.raises(ValueError, match="OpKind.NEGATE is not a binary operator"):
        cc.reduce_into(simt.zeros(4), simt.empty(1), cc.OpKind.NEGATE, 4, np.float64(0))
    with pytest.raises(ValueError, match="OpKind.STATELESS is not a unary operator"):
        cc.unary_transform(simt.zeros(4), simt.empty(4), cc.OpKind.STATELESS, 4)
    with pytest.raises(Exception, match="no_such_attribute"):
        cc.reduce_into(simt.zeros(4), simt.empty(1), bad_op, 4, np.float64(0))
    with pytest.raises(ValueError, match="exclusive_scan needs an init_value"):
        cc.exclusive_scan(simt.zeros(4), simt.empty(4), cc.OpKind.PLUS, None, 4)
    with pytest.raises(TypeError, match="operators must be Python functions"):
        cc.unary_transform(simt.zeros(4), simt.empty(4), abs, 4)


def test_iterators_used_the_wrong_way():
    with pytest.raises(TypeError, match="d_out cannot be written"):
        cc.unary_transform(simt.zeros(4), cc.CountingIterator(0), cc.OpKind.NEGATE, 4)
    with pytest.raises(TypeError, match="d_in cannot be read"):
        cc.unary_transform(cc.DiscardIterator(), simt.empty(4), cc.OpKind.NEGATE, 4)
    with pytest.raises(TypeError, match="ReverseIterator needs a device array"):
        cc.ReverseIterator(cc.CountingIterator(0))
    with pytest.raises(TypeError, match="PermutationIterator's indices must be integers"):
        cc.PermutationIterator(simt.zeros(4), simt.zeros(4))
    with pytest.raises(NotImplementedError, match="nested tuples"):
        cc.ZipIterator(cc.ZipIterator(simt.zeros(2)), simt.zeros(2))
    with pytest.raises(NotImplementedError, match="modifier 'stream' only"):
        cc.CacheModifiedInputIterator(simt.zeros(2), "global")
    with pytest.raises(TypeError, match="CountingIterator's offset must be a number"):
        cc.CountingIterator("0")
    with pytest.raises(ValueError, match="give both d_in_items and d_out_items, or neither"):
        cc.merge_sort(simt.zeros(4), simt.zeros(4), simt.empty(4), None, cc.OpKind.LESS, 4)
    with pytest.raises(ValueError, match=r"lower_level \(1.0\) must be below upper_level \(1.0\)"):
        cc.histogram_even(simt.zeros(4), simt.empty(4, np.int32), 5, 1.0, 1.0, 4)


def test_one_call_functions_reuse_their_object_for_fresh_host_inits_and_arrays(rng):
    # The cache of the one-call functions keys simt arrays by dtype and host values (h_init) by
    # value type, not by identity: a fresh np.zeros(1) per call must not build a new object.
    from simt.compute._algorithm import cached
    from simt.compute._reduce import _Reduce
    h = rng.standard_normal(100).astype(np.float32)
    d, out = simt.asarray(h), simt.empty(1, np.float32)
    first = cached(_Reduce, d, out, cc.OpKind.PLUS, np.zeros(1, np.float32))
    assert cached(_Reduce, simt.asarray(h), out, cc.OpKind.PLUS, np.zeros(1, np.float32)) is first
    assert cached(_Reduce, d.astype(np.float64), simt.empty(1), cc.OpKind.PLUS, np.zeros(1)) is not first
    assert cached(_Reduce, d, out, cc.OpKind.MAXIMUM, np.zeros(1, np.float32)) is not first
    cc.reduce_into(d, out, cc.OpKind.PLUS, 100, np.zeros(1, np.float32))
    np.testing.assert_allclose(out.get()[0], h.sum(dtype=np.float64), rtol=1e-5)
