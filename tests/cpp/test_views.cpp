// Views and broadcasting on array metadata only (no device memory is touched).
#include <gtest/gtest.h>
#include <functional>
#include "array/broadcast.h"
#include "array/views.h"
#include "support/error.h"

using namespace simt;

namespace {

// A C-contiguous float64 array description over fake memory.
NdArray described(std::vector<int64_t> shape, DType dtype = DType::Float64) {
    static char memory[1 << 16];
    NdArray a;
    a.data = memory + 4096;
    a.dtype = dtype;
    a.ndim = int(shape.size());
    for (int i = 0; i < a.ndim; ++i) a.shape[i] = shape[size_t(i)];
    contiguous_strides(a.ndim, a.shape, a.itemsize(), false, a.strides);
    return a;
}

std::vector<int64_t> shape_of(const NdArray& a) { return a.shape_vector(); }
std::vector<int64_t> strides_of(const NdArray& a) { return {a.strides, a.strides + a.ndim}; }

ErrorKind kind_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.kind();
    }
    return ErrorKind::Runtime;  // nothing thrown
}

}  // namespace

TEST(Slices, ResolveLikePythonSliceIndices) {
    struct Case { std::optional<int64_t> a, b, c; int64_t n, start, step, count; };
    // Expected values are Python's slice(a, b, c).indices(n) and len(range(n)[a:b:c]).
    const Case cases[] = {
        {{}, {}, {}, 10, 0, 1, 10},   {2, 8, 3, 10, 2, 3, 2},     {{}, {}, -1, 10, 9, -1, 10},
        {-3, {}, {}, 10, 7, 1, 3},    {{}, -20, -1, 10, 9, -1, 10}, {8, 2, -2, 10, 8, -2, 3},
        {20, {}, {}, 10, 10, 1, 0},   {-20, 3, {}, 10, 0, 1, 3},    {5, 5, {}, 10, 5, 1, 0},
        {{}, {}, 4, 0, 0, 4, 0},      {3, {}, -1, 2, 1, -1, 2},
    };
    for (const Case& c : cases) {
        SliceRange r = resolve_slice(IndexItem::slice(c.a, c.b, c.c), c.n);
        EXPECT_EQ(r.count, c.count);
        if (r.count > 0) {
            EXPECT_EQ(r.start, c.start);
            EXPECT_EQ(r.step, c.step);
        }
    }
    EXPECT_EQ(kind_of([] { resolve_slice(IndexItem::slice({}, {}, 0), 5); }), ErrorKind::Value);
}

TEST(IndexView, SlicesIntegersNewAxisAndEllipsis) {
    NdArray a = described({4, 5, 6});
    NdArray v = index_view(a, {IndexItem::integer(1), IndexItem::slice({}, {}, -2), IndexItem::new_axis()});
    EXPECT_EQ(shape_of(v), (std::vector<int64_t>{3, 1, 6}));
    EXPECT_EQ(strides_of(v), (std::vector<int64_t>{-96, 0, 8}));
    EXPECT_EQ(v.data, a.data + 1 * 240 + 4 * 48);  // row 1, column 4 (the first of 4, 2, 0)
    NdArray e = index_view(a, {IndexItem::ellipsis(), IndexItem::integer(-1)});
    EXPECT_EQ(shape_of(e), (std::vector<int64_t>{4, 5}));
    EXPECT_EQ(e.data, a.data + 5 * 8);
    NdArray s = index_view(a, {IndexItem::integer(3), IndexItem::integer(4), IndexItem::integer(5)});
    EXPECT_EQ(s.ndim, 0);
    EXPECT_EQ(s.data, a.data + (3 * 30 + 4 * 6 + 5) * 8);
}

TEST(IndexView, ErrorsMatchNumPy) {
    NdArray a = described({2, 3});
    try {
        index_view(a, {IndexItem::integer(5)});
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Index);
        EXPECT_STREQ(e.what(), "index 5 is out of bounds for axis 0 with size 2");
    }
    try {
        index_view(a, {IndexItem::integer(0), IndexItem::integer(0), IndexItem::integer(0)});
        FAIL();
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "too many indices for array: array is 2-dimensional, but 3 were indexed");
    }
    EXPECT_EQ(kind_of([&] { index_view(a, {IndexItem::ellipsis(), IndexItem::ellipsis()}); }), ErrorKind::Index);
}

TEST(Transpose, PermutesAndValidatesAxes) {
    NdArray a = described({2, 3, 4});
    EXPECT_EQ(shape_of(transpose_view(a, {})), (std::vector<int64_t>{4, 3, 2}));
    NdArray t = transpose_view(a, {1, -1, 0});
    EXPECT_EQ(shape_of(t), (std::vector<int64_t>{3, 4, 2}));
    EXPECT_EQ(strides_of(t), (std::vector<int64_t>{32, 8, 96}));
    EXPECT_EQ(kind_of([&] { transpose_view(a, {0, 1}); }), ErrorKind::Value);
    EXPECT_EQ(kind_of([&] { transpose_view(a, {0, 0, 1}); }), ErrorKind::Value);
    EXPECT_EQ(kind_of([&] { transpose_view(a, {0, 1, 3}); }), ErrorKind::Axis);
    EXPECT_EQ(shape_of(swapaxes_view(a, 0, 2)), (std::vector<int64_t>{4, 3, 2}));
}

TEST(Reshape, InfersUnknownDimensionAndRejectsBadSizes) {
    EXPECT_EQ(reshape_shape(24, {2, -1, 3}), (std::vector<int64_t>{2, 4, 3}));
    EXPECT_EQ(reshape_shape(0, {0, 5}), (std::vector<int64_t>{0, 5}));
    try {
        reshape_shape(6, {4});
        FAIL();
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "cannot reshape array of size 6 into shape (4,)");
    }
    EXPECT_EQ(kind_of([] { reshape_shape(6, {-1, -1}); }), ErrorKind::Value);
    EXPECT_EQ(kind_of([] { reshape_shape(6, {-2, 3}); }), ErrorKind::Value);
}

TEST(Reshape, ViewWhenTheLayoutAllowsItCopyOtherwise) {
    NdArray a = described({4, 6});
    NdArray v;
    ASSERT_TRUE(reshape_view(a, {2, 2, 3, 2}, false, v));
    EXPECT_EQ(strides_of(v), (std::vector<int64_t>{96, 48, 16, 8}));
    // Every other column of an even width is one evenly strided run.
    NdArray every_other = index_view(a, {IndexItem::slice({}, {}, {}), IndexItem::slice({}, {}, 2)});
    ASSERT_TRUE(reshape_view(every_other, {12}, false, v));
    EXPECT_EQ(strides_of(v), (std::vector<int64_t>{16}));
    // The first three columns: rows stay separate blocks, but a row can split.
    NdArray cols = index_view(a, {IndexItem::slice({}, {}, {}), IndexItem::slice({}, 3, {})});
    ASSERT_TRUE(reshape_view(cols, {4, 3, 1}, false, v));
    EXPECT_EQ(strides_of(v)[1], 8);
    EXPECT_FALSE(reshape_view(cols, {12}, false, v));
    EXPECT_FALSE(reshape_view(cols, {2, 6}, false, v));
    // A transposed (Fortran-ordered) view flattens without a copy only in F order.
    NdArray t = transpose_view(a, {});
    EXPECT_FALSE(reshape_view(t, {24}, false, v));
    ASSERT_TRUE(reshape_view(t, {24}, true, v));
    EXPECT_EQ(strides_of(v), (std::vector<int64_t>{8}));
    // Length-1 axes carry no layout.
    NdArray row = index_view(a, {IndexItem::slice(1, 2, {}), IndexItem::slice({}, {}, {})});
    ASSERT_TRUE(reshape_view(row, {2, 3}, false, v));
    EXPECT_EQ(v.data, a.data + 48);
}

TEST(SqueezeExpandDiagonal, ShapesAndErrors) {
    NdArray a = described({1, 3, 1, 2});
    EXPECT_EQ(shape_of(squeeze_view(a, {}, true)), (std::vector<int64_t>{3, 2}));
    EXPECT_EQ(shape_of(squeeze_view(a, {-2}, false)), (std::vector<int64_t>{1, 3, 2}));
    EXPECT_EQ(kind_of([&] { squeeze_view(a, {1}, false); }), ErrorKind::Value);
    NdArray b = described({3, 4});
    EXPECT_EQ(shape_of(expand_dims_view(b, {0, -1})), (std::vector<int64_t>{1, 3, 4, 1}));
    EXPECT_EQ(kind_of([&] { expand_dims_view(b, {3}); }), ErrorKind::Axis);
    NdArray d = diagonal_view(b, 1, 0, 1);
    EXPECT_EQ(shape_of(d), (std::vector<int64_t>{3}));
    EXPECT_EQ(strides_of(d), (std::vector<int64_t>{40}));
    EXPECT_EQ(d.data, b.data + 8);
    EXPECT_EQ(diagonal_view(b, -2, 0, 1).shape[0], 1);
    EXPECT_EQ(diagonal_view(b, 7, 0, 1).shape[0], 0);
}

TEST(Broadcast, ShapesStridesAndNumPysMessage) {
    Shape s = broadcast_shapes({Shape::of({8, 1, 6, 1}), Shape::of({7, 1, 5})});
    EXPECT_EQ(s.vector(), (std::vector<int64_t>{8, 7, 6, 5}));
    try {
        broadcast_shapes({Shape::of({2, 3}), Shape::of({4})});
        FAIL();
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "operands could not be broadcast together with shapes (2,3) (4,) ");
    }
    NdArray a = described({3, 1});
    NdArray v = broadcast_view(a, Shape::of({2, 3, 4}));
    EXPECT_EQ(strides_of(v), (std::vector<int64_t>{0, 8, 0}));
    EXPECT_EQ(kind_of([&] { broadcast_view(a, Shape::of({4, 4})); }), ErrorKind::Value);
}

TEST(ComplexParts, RealAndImagAreStridedFloatViews) {
    NdArray c = described({5}, DType::Complex128);
    NdArray re = real_view(c), im = imag_view(c);
    EXPECT_EQ(re.dtype, DType::Float64);
    EXPECT_EQ(re.strides[0], 16);
    EXPECT_EQ(im.data, c.data + 8);
    EXPECT_EQ(kind_of([] { imag_view(described({2})); }), ErrorKind::Value);
}
