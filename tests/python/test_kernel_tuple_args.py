"""Tuples as kernel arguments, as numba passes them (UniTuple / Tuple): numbers of mixed types,
arrays and nested tuples, indexed, unpacked, iterated and measured with len(); named tuples, whose
fields are attributes; eager signatures that declare them, with the elements converted; the errors
for what cannot be passed."""
import collections
import typing

import numpy as np
import pytest

import simt
from simt import cuda


def test_mixed_scalars_keep_their_types_and_layout(rng):
    @cuda.jit
    def k(t, o):
        o[0] = t[0]
        o[1] = t[1]
        o[2] = t[2].real
        o[3] = t[2].imag
        o[4] = t[3]
        o[5] = t[4][0]
        o[6] = t[5]

    values = (np.int8(rng.integers(-100, 100)), float(rng.standard_normal()), np.complex64(complex(*rng.standard_normal(2))),
              True, (np.uint16(rng.integers(0, 60000)),), np.float32(rng.standard_normal()))
    o = simt.zeros(7)
    k[1, 1](values, o)
    want = [values[0], values[1], values[2].real, values[2].imag, 1.0, values[4][0], values[5]]
    np.testing.assert_allclose(o.get(), np.array(want, dtype=np.float64), rtol=1e-7)
    sig = list(k.inspect_source().keys())[0]
    assert sig[0] == "Tuple(int8, float64, complex64, bool, UniTuple(uint16 x 1), float32)"


def test_arrays_inside_tuples(rng):
    @cuda.jit
    def axpy(args, out):
        x, a, y = args
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a * x[i] + y[i]

    x, y = rng.standard_normal(300), rng.standard_normal(300)
    out = simt.empty(300)
    axpy[3, 128]((simt.asarray(x), 2.5, simt.asarray(y)), out)
    np.testing.assert_allclose(out.get(), 2.5 * x + y, rtol=1e-12, atol=1e-12)


def test_len_iteration_and_nesting(rng):
    @cuda.jit
    def k(t, nested, o):
        s = 0.0
        for v in t:
            s += v
        o[0] = s
        o[1] = len(t)
        o[2] = nested[0][1] * nested[1]

    t = tuple(float(v) for v in rng.standard_normal(4))
    o = simt.zeros(3)
    k[1, 1](t, ((1, 4.5), 2), o)
    np.testing.assert_allclose(o.get(), [sum(t), 4, 9.0], rtol=1e-12)


def test_each_tuple_type_gets_its_specialization():
    @cuda.jit
    def k(t, o):
        o[0] = t[0] + t[1]

    o = simt.zeros(1)
    k[1, 1]((1, 2), o)
    k[1, 1]((1.5, 2), o)
    k[1, 1]((1, 2), o)
    assert float(o.get()[0]) == 3.0
    assert len(k.inspect_source()) == 2


def test_eager_signature_converts_elements():
    @cuda.jit("void(UniTuple(float64, 2), float64[:])")
    def k(t, o):
        o[0] = t[0] / t[1]

    o = simt.zeros(1)
    k[1, 1]((1, 4), o)  # ints converted to the declared float64
    assert float(o.get()[0]) == 0.25
    k[1, 1]((np.float32(3.0), 2.0), o)
    assert float(o.get()[0]) == 1.5


@pytest.mark.parametrize("bad, message", [((), "empty tuple"), ([1, 2], "builtins.list"), (("a", 1), "builtins.str")])
def test_what_cannot_be_passed(bad, message):
    @cuda.jit
    def k(t, o):
        o[0] = 1

    with pytest.raises(TypeError, match=message):
        k[1, 1](bad, simt.zeros(1))


Point = collections.namedtuple("Point", ["x", "y"])


class Span(typing.NamedTuple):
    start: float
    values: object  # an array
    count: int


def test_named_tuples_give_their_fields_as_attributes(rng):
    @cuda.jit
    def k(p, span, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = p.x * span.values[i] + p.y * span.start + span.count + p[0]

    values = rng.standard_normal(100)
    p = Point(float(rng.standard_normal()), np.float32(rng.standard_normal()))
    span = Span(float(rng.standard_normal()), simt.asarray(values), int(rng.integers(1, 9)))
    out = simt.zeros(100)
    k[1, 128](p, span, out)
    expected = p.x * values + np.float64(p.y) * span.start + span.count + p.x
    np.testing.assert_allclose(out.get(), expected, rtol=1e-6)
    sig = list(k.inspect_source().keys())[0]
    assert sig[0] == "Point(x: float64, y: float32)"
    assert sig[1] == "Span(start: float64, values: array(float64, 1d, C), count: int64)"


def test_named_tuple_field_errors_and_plain_tuples():
    @cuda.jit
    def k(p, out):
        out[0] = p.z

    with pytest.raises(simt.cuda.TypingError, match=r"'Point' has no field 'z' \(its fields: x, y\)"):
        k[1, 1](Point(1.0, 2.0), simt.zeros(1))

    @cuda.jit
    def first(p, out):
        out[0] = p.x

    with pytest.raises(simt.cuda.TypingError, match="has no attribute 'x'"):
        first[1, 1]((1.0, 2.0), simt.zeros(1))  # (a plain tuple has no field names)
    # A named tuple and a plain one with the same elements are different specializations.
    out = simt.zeros(1)
    first[1, 1](Point(3.5, 0.0), out)
    assert out.get()[0] == 3.5


class OddFields(tuple):
    _fields = 3  # (not a sequence of names: such a tuple passes as a plain one)


def test_a_tuple_subclass_with_unusable_fields_passes_as_a_plain_tuple():
    @cuda.jit
    def k(t, out):
        out[0] = t[0] + t[1]

    out = simt.zeros(1)
    k[1, 1](OddFields((1.25, 2.5)), out)
    assert out.get()[0] == 3.75
