// simt prelude, both targets: views of arrays inside kernels (A[i] of a 2-D A, A[i, a:b],
// A[::2], A.T) and assignment to them (A[a:b] = x). A view never reaches outside its array:
// slice bounds are clamped as in Python, and an integer index out of range gives an empty view
// (every access through it is masked; boundscheck=True reports it instead).

// One index of a view: an integer (drops its axis), a slice, or a whole axis (`:`).
struct simt_take { int64_t i; bool wrap; };
struct simt_span { int64_t start, stop, step; int given; };  // given: 1 start, 2 stop, 4 step
struct simt_all {};
template <class I> SIMT_INLINE simt_take simt_take_of(I i) { return {simt_index_value(i), !simt_is_unsigned<I>::value}; }

struct simt_view_walk {
    char* data;
    int in, out;  // the next axis of the array, and of the view
    bool ok;
};

// Python's slice rules (start and stop clamped to the axis, negative ones counted from its end).
SIMT_INLINE int64_t simt_slice_bound(int64_t x, bool given, int64_t if_absent, int64_t len, int64_t step) {
    if (!given) return if_absent;
    if (x < 0) x += len;
    if (x < 0) return step < 0 ? -1 : 0;
    if (x >= len) return step < 0 ? len - 1 : len;
    return x;
}

template <class T, int N, int L, class V>
SIMT_INLINE void simt_view_axis(simt_ctx&, const simt_array<T, N, L>& a, int, V& v, simt_view_walk& w, simt_all) {
    v.shape[w.out] = a.shape[w.in];
    v.strides[w.out] = a.strides[w.in];
    ++w.in;
    ++w.out;
}
template <class T, int N, int L, class V>
SIMT_INLINE void simt_view_axis(simt_ctx&, const simt_array<T, N, L>& a, int, V& v, simt_view_walk& w, simt_span s) {
    const int64_t len = a.shape[w.in];
    const int64_t step = (s.given & 4) ? s.step : 1;
    int64_t count = 0, start = 0;
    if (step != 0) {  // a step of 0 that only the running kernel sees gives an empty view
        start = simt_slice_bound(s.start, s.given & 1, step < 0 ? len - 1 : 0, len, step);
        const int64_t stop = simt_slice_bound(s.stop, s.given & 2, step < 0 ? -1 : len, len, step);
        if (step > 0 && start < stop) count = (stop - start - 1) / step + 1;
        if (step < 0 && stop < start) count = (start - stop - 1) / (-step) + 1;
    }
    if (count > 0) w.data += start * a.strides[w.in];
    v.shape[w.out] = count;
    v.strides[w.out] = a.strides[w.in] * step;
    ++w.in;
    ++w.out;
}
template <class T, int N, int L, class V>
SIMT_INLINE void simt_view_axis(simt_ctx& ctx, const simt_array<T, N, L>& a, int site, V&, simt_view_walk& w, simt_take t) {
    int64_t i = t.i;
    if (t.wrap && i < 0) i += a.shape[w.in];
    if ((uint64_t)i < (uint64_t)a.shape[w.in]) {
        w.data += i * a.strides[w.in];
    } else if (w.ok) {
        w.ok = false;
        if constexpr (simt_bounds_of<T>::mode == SIMT_BOUNDS_CHECKED) {
            int64_t ix[SIMT_SLOTS(N)] = {};
            ix[w.in] = t.i;
            simt_report_oob<N>(ctx, site, ix, a.shape);
        }
    }
    ++w.in;
}

// a[x0, x1, ...] as an M-dimensional view with layout L (sema decides both); axes past the
// given indices are kept whole.
template <int M, int L, class T, int N, int LA, class... X>
SIMT_INLINE simt_array<T, M, L> simt_view(simt_ctx& ctx, const simt_array<T, N, LA>& a, int site, X... x) {
    simt_array<T, M, L> v;
    simt_view_walk w{(char*)a.data, 0, 0, true};
    (simt_view_axis(ctx, a, site, v, w, x), ...);
    while (w.in < N) simt_view_axis(ctx, a, site, v, w, simt_all{});
    v.data = (T*)w.data;
    if (!w.ok)
        for (int k = 0; k < M; ++k) v.shape[k] = 0;
    return v;
}

// a.T: the axes reversed.
template <class T, int N, int L>
SIMT_INLINE simt_array<T, N, (L == SIMT_C ? SIMT_F : L == SIMT_F ? SIMT_C : SIMT_A)> simt_transpose(const simt_array<T, N, L>& a) {
    simt_array<T, N, (L == SIMT_C ? SIMT_F : L == SIMT_F ? SIMT_C : SIMT_A)> t;
    t.data = a.data;
    for (int k = 0; k < N; ++k) {
        t.shape[k] = a.shape[N - 1 - k];
        t.strides[k] = a.strides[N - 1 - k];
    }
    return t;
}

// Steps `ix` to the next index of `shape` in row-major order (backward: the previous one).
template <int N> SIMT_INLINE void simt_next_index(int64_t* ix, const int64_t* shape, bool backward) {
    for (int k = N - 1; k >= 0; --k) {
        if (!backward) {
            if (++ix[k] < shape[k]) return;
            ix[k] = 0;
        } else {
            if (--ix[k] >= 0) return;
            ix[k] = shape[k] - 1;
        }
    }
}

// a[...] = value: every element of the view.
template <class T, int N, int L>
SIMT_INLINE void simt_view_fill(const simt_array<T, N, L>& a, typename simt_same<T>::type value) {
    const int64_t n = simt_size(a);
    int64_t ix[SIMT_SLOTS(N)] = {};
    for (int64_t f = 0; f < n; ++f) {
        *simt_address(a, ix) = value;
        simt_next_index<N>(ix, a.shape, false);
    }
}

// a[...] = b: b broadcast to the view as NumPy broadcasts (its axes aligned to the view's last
// ones, an axis of length 1 repeated). The copy is the loop one would write element by element,
// so an element b lacks reads as 0 (boundscheck=True reports it). When b lies before a in
// memory the copy runs backward, as memmove does, so a view shifted within its own array
// (A[1:] = A[:-1]) copies the values it had.
template <class S, int M, int L> SIMT_INLINE S simt_load_at(simt_ctx& ctx, const simt_array<S, M, L>& b, int site, int64_t* jx) {
    return simt_in_range<false>(ctx, b, site, jx) ? *simt_address(b, jx) : S(0);
}
// `convert` turns an element of b into one of a (the emitter's conversion rules).
template <class T, int N, int L, class S, int M, int LS, class C>
SIMT_INLINE void simt_view_copy(simt_ctx& ctx, const simt_array<T, N, L>& a, const simt_array<S, M, LS>& b, int site, C convert) {
    static_assert(M <= N, "the source of a view assignment has more dimensions than the view");
    const int64_t n = simt_size(a);
    if (n == 0) return;
    const bool backward = (const char*)b.data < (const char*)a.data;
    int64_t ix[SIMT_SLOTS(N)] = {};
    if (backward)
        for (int k = 0; k < N; ++k) ix[k] = a.shape[k] - 1;
    for (int64_t f = 0; f < n; ++f) {
        int64_t jx[SIMT_SLOTS(M)] = {};
        for (int k = 0; k < M; ++k) {
            const int64_t i = ix[N - M + k];
            jx[k] = b.shape[k] == 1 ? 0 : i;
        }
        *simt_address(a, ix) = convert(simt_load_at(ctx, b, site, jx));
        simt_next_index<N>(ix, a.shape, backward);
    }
}
