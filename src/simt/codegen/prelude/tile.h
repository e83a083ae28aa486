// simt.cuda.tile: tiles of a compile-time shape held by the threads of one block, added to units
// whose kernels use tiles (codegen/prelude.cpp). A tile's elements (row-major) go to the threads
// in quads, four consecutive elements each: quad g lives in thread g % SIMT_TILE_THREADS. Loads,
// stores and elementwise math touch only the thread's own slots (16-byte accesses where the
// array allows, coalesced, no communication), and a thread's quads of a matrix share their four
// columns, which is what mma's inner loop reads b by. Operations that move
// elements between threads (broadcasting, reductions along an axis, permutes, mma) publish the
// tile to the block's scratch shared memory first. On the cpu target a block is one thread
// that holds whole tiles, so nothing is published and nothing waits.
#ifdef SIMT_TARGET_CUDA
#define SIMT_TILE_THREADS 128
#define SIMT_TILE_TID ((int64_t)threadIdx.x)
#else
#define SIMT_TILE_THREADS 1
#define SIMT_TILE_TID ((int64_t)0)
#endif

template <class T, int... D> struct simt_tile {
    using elem = T;
    static constexpr int rank = sizeof...(D);
    static constexpr int64_t size = (int64_t(1) * ... * int64_t(D));
    static constexpr int quad = size < 4 ? int(size) : 4;  // elements per quad (tiles of 1 or 2 have one)
    static constexpr int64_t quads = size / quad;
    static constexpr int per_thread = quad * int((quads + SIMT_TILE_THREADS - 1) / SIMT_TILE_THREADS);
    T v[per_thread];
    // The flat (row-major) index of this thread's slot k, and whether the tile has it. The map
    // depends on the size alone, so a reshape moves nothing.
    SIMT_INLINE static int64_t index(int k) {
        return (SIMT_TILE_TID + int64_t(k / quad) * SIMT_TILE_THREADS) * quad + k % quad;
    }
    SIMT_INLINE static bool valid(int k) {
        return quads % SIMT_TILE_THREADS == 0 || SIMT_TILE_TID + int64_t(k / quad) * SIMT_TILE_THREADS < quads;
    }
    SIMT_INLINE static int64_t dim(int a) {  // (folds to a constant where a is one)
        int64_t r = 1;
        int i = 0;
        ((r = (i++ == a ? int64_t(D) : r)), ...);
        return r;
    }
    // Row-major coordinates of flat index i.
    SIMT_INLINE static void coords(int64_t i, int64_t* c) {
        for (int a = rank - 1; a >= 0; --a) { c[a] = i % dim(a); i /= dim(a); }
    }
};

template <class X> struct simt_is_tile { static constexpr bool value = false; };
template <class T, int... D> struct simt_is_tile<simt_tile<T, D...>> { static constexpr bool value = true; };

// An operand of an elementwise operation: a tile of the result's shape (its slot k) or a scalar.
template <class X> SIMT_INLINE auto simt_tile_at(const X& x, int k) {
    if constexpr (simt_is_tile<X>::value) return x.v[k]; else return x;
}

// Elementwise: f applied to the operands' elements (already broadcast to Out's shape).
template <class Out, class F, class... A> SIMT_INLINE Out simt_tile_map(F f, const A&... a) {
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) r.v[k] = f(simt_tile_at(a, k)...);
    return r;
}

template <class Out, class T> SIMT_INLINE Out simt_tile_full(T value) {
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) r.v[k] = value;
    return r;
}

template <class Out> SIMT_INLINE Out simt_tile_arange() {
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) r.v[k] = (typename Out::elem)Out::index(k);
    return r;
}

// Same elements in the same row-major order: reshape and expand_dims move nothing.
template <class Out, class S> SIMT_INLINE Out simt_tile_reshape(const S& s) {
    static_assert(Out::size == S::size, "reshape keeps the number of elements");
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) r.v[k] = s.v[k];
    return r;
}

// --- publishing: every element of a tile readable by every thread of the block -------------
SIMT_INLINE void simt_tile_sync() {
#ifdef SIMT_TARGET_CUDA
    __syncthreads();
#endif
}

// Writes the thread's elements at `at` (cuda; the caller syncs) and returns where all of them
// can be read: `at` on cuda, the tile's own slots on the cpu (one thread holds them all).
template <class S> SIMT_INLINE auto simt_tile_write(const S& s, unsigned char* at) {
    using T = typename S::elem;
#ifdef SIMT_TARGET_CUDA
    T* p = (T*)at;
    for (int k = 0; k < S::per_thread; ++k) if (S::valid(k)) p[S::index(k)] = s.v[k];
    return (const T*)p;
#else
    (void)at;
    return (const T*)s.v;
#endif
}

template <class S> SIMT_INLINE auto simt_tile_publish(const S& s, unsigned char* scratch) {
    auto all = simt_tile_write(s, scratch);
    simt_tile_sync();
    return all;
}

// NumPy broadcasting (shapes aligned on the right) of s to Out's shape.
template <class Out, class S> SIMT_DEVICE_FN Out simt_tile_broadcast(const S& s, unsigned char* scratch) {
    auto all = simt_tile_publish(s, scratch);
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) {
        if (!Out::valid(k)) continue;
        int64_t rest = Out::index(k), from = 0, stride = 1;
        for (int a = Out::rank - 1; a >= 0; --a) {
            int64_t c = rest % Out::dim(a);
            rest /= Out::dim(a);
            int sa = a - (Out::rank - S::rank);
            if (sa < 0) continue;
            if (S::dim(sa) != 1) from += c * stride;
            stride *= S::dim(sa);
        }
        r.v[k] = all[from];
    }
    simt_tile_sync();
    return r;
}

// Out's axis a is s's axis P[a].
template <class Out, int... P, class S> SIMT_DEVICE_FN Out simt_tile_permute(const S& s, unsigned char* scratch) {
    constexpr int perm[] = {P...};
    auto all = simt_tile_publish(s, scratch);
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) {
        if (!Out::valid(k)) continue;
        int64_t c[Out::rank], src[Out::rank];
        Out::coords(Out::index(k), c);
        for (int a = 0; a < Out::rank; ++a) src[perm[a]] = c[a];
        int64_t from = 0;
        for (int a = 0; a < S::rank; ++a) from = from * S::dim(a) + src[a];
        r.v[k] = all[from];
    }
    simt_tile_sync();
    return r;
}

// a and b side by side along Axis (their other dimensions equal Out's).
template <class Out, int Axis, class A, class B> SIMT_DEVICE_FN Out simt_tile_cat(const A& a, const B& b, unsigned char* scratch) {
    const int64_t a_bytes = 16 * ((A::size * (int64_t)sizeof(typename A::elem) + 15) / 16);
    auto pa = simt_tile_write(a, scratch);
    auto pb = simt_tile_write(b, scratch + a_bytes);
    simt_tile_sync();
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) {
        if (!Out::valid(k)) continue;
        int64_t c[Out::rank];
        Out::coords(Out::index(k), c);
        const bool first = c[Axis] < A::dim(Axis);
        if (!first) c[Axis] -= A::dim(Axis);
        int64_t from = 0;
        for (int d = 0; d < Out::rank; ++d) from = from * (first ? A::dim(d) : B::dim(d)) + c[d];
        r.v[k] = first ? pa[from] : pb[from];
    }
    simt_tile_sync();
    return r;
}

// --- reductions -----------------------------------------------------------------------------
// The identities of max and min.
template <class T> SIMT_INLINE T simt_tile_lowest() {  // integers: the most negative, or 0
    return T(-1) < T(0) ? T(-T(T(1) << (sizeof(T) * 8 - 2)) * T(2)) : T(0);
}
template <class T> SIMT_INLINE T simt_tile_highest() { return T(~simt_tile_lowest<T>()); }
template <> SIMT_INLINE bool simt_tile_lowest<bool>() { return false; }
template <> SIMT_INLINE bool simt_tile_highest<bool>() { return true; }
template <> SIMT_INLINE float simt_tile_lowest<float>() { return -(float)simt_inf(); }
template <> SIMT_INLINE float simt_tile_highest<float>() { return (float)simt_inf(); }
template <> SIMT_INLINE double simt_tile_lowest<double>() { return -simt_inf(); }
template <> SIMT_INLINE double simt_tile_highest<double>() { return simt_inf(); }
template <> SIMT_INLINE simt_half simt_tile_lowest<simt_half>() { return simt_half(-(float)simt_inf()); }
template <> SIMT_INLINE simt_half simt_tile_highest<simt_half>() { return simt_half((float)simt_inf()); }

#ifdef SIMT_TARGET_CUDA
SIMT_INLINE float simt_tile_rsqrt(float x) { return rsqrtf(x); }
SIMT_INLINE double simt_tile_rsqrt(double x) { return rsqrt(x); }
#else
SIMT_INLINE float simt_tile_rsqrt(float x) { return 1.0f / sqrtf(x); }
SIMT_INLINE double simt_tile_rsqrt(double x) { return 1.0 / sqrt(x); }
#endif

template <class T> SIMT_INLINE bool simt_tile_isnan(T x) { return x != x; }
template <class T> SIMT_INLINE T simt_tile_max(T a, T b) { return simt_tile_isnan(a) ? a : simt_tile_isnan(b) ? b : (a < b ? b : a); }
template <class T> SIMT_INLINE T simt_tile_min(T a, T b) { return simt_tile_isnan(a) ? a : simt_tile_isnan(b) ? b : (b < a ? b : a); }
// cuTile's default (propagate_nan=False): NaN gives way to a number; two NaNs give NaN.
template <class T> SIMT_INLINE T simt_tile_fmax(T a, T b) { return simt_tile_isnan(a) ? b : simt_tile_isnan(b) ? a : (a < b ? b : a); }
template <class T> SIMT_INLINE T simt_tile_fmin(T a, T b) { return simt_tile_isnan(a) ? b : simt_tile_isnan(b) ? a : (b < a ? b : a); }

#ifdef SIMT_TARGET_CUDA
SIMT_INLINE float simt_tile_shfl_xor(float x, int m) { return __shfl_xor_sync(0xffffffffu, x, m); }
SIMT_INLINE double simt_tile_shfl_xor(double x, int m) { return __shfl_xor_sync(0xffffffffu, x, m); }
SIMT_INLINE int32_t simt_tile_shfl_xor(int32_t x, int m) { return __shfl_xor_sync(0xffffffffu, x, m); }
SIMT_INLINE uint32_t simt_tile_shfl_xor(uint32_t x, int m) { return __shfl_xor_sync(0xffffffffu, x, m); }
SIMT_INLINE int64_t simt_tile_shfl_xor(int64_t x, int m) { return __shfl_xor_sync(0xffffffffu, x, m); }
SIMT_INLINE uint64_t simt_tile_shfl_xor(uint64_t x, int m) { return __shfl_xor_sync(0xffffffffu, x, m); }
SIMT_INLINE bool simt_tile_shfl_xor(bool x, int m) { return __shfl_xor_sync(0xffffffffu, (int)x, m) != 0; }
SIMT_INLINE int8_t simt_tile_shfl_xor(int8_t x, int m) { return (int8_t)__shfl_xor_sync(0xffffffffu, (int)x, m); }
SIMT_INLINE int16_t simt_tile_shfl_xor(int16_t x, int m) { return (int16_t)__shfl_xor_sync(0xffffffffu, (int)x, m); }
SIMT_INLINE uint8_t simt_tile_shfl_xor(uint8_t x, int m) { return (uint8_t)__shfl_xor_sync(0xffffffffu, (int)x, m); }
SIMT_INLINE uint16_t simt_tile_shfl_xor(uint16_t x, int m) { return (uint16_t)__shfl_xor_sync(0xffffffffu, (int)x, m); }
SIMT_INLINE simt_half simt_tile_shfl_xor(simt_half x, int m) { return simt_half(__shfl_xor_sync(0xffffffffu, (float)x, m)); }
#endif

// Every element folded with op into one value, the same in every thread of the block.
template <class R, class S, class Op> SIMT_DEVICE_FN R simt_tile_fold(const S& s, Op op, R init, unsigned char* scratch) {
    R acc = init;
    for (int k = 0; k < S::per_thread; ++k) if (S::valid(k)) acc = op(acc, (R)s.v[k]);
#ifdef SIMT_TARGET_CUDA
    for (int m = 16; m >= 1; m >>= 1) acc = op(acc, simt_tile_shfl_xor(acc, m));
    R* partial = (R*)scratch;
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = acc;
    __syncthreads();
    acc = partial[0];
    for (int w = 1; w < SIMT_TILE_THREADS / 32; ++w) acc = op(acc, partial[w]);
    __syncthreads();
#else
    (void)scratch;
#endif
    return acc;
}

// The flat index of the first largest (Max false: smallest) element. With Nan, NaN counts as the
// extreme (NumPy's rule, cuTile's propagate_nan=True); without, every number beats NaN (an
// all-NaN tile gives its first index). Ties go to the first index either way.
template <bool Max, bool Nan, class T> SIMT_INLINE bool simt_tile_better(T x, int64_t i, T best, int64_t bi) {
    if (simt_tile_isnan(Nan ? best : x)) return simt_tile_isnan(Nan ? x : best) && i < bi;
    if (simt_tile_isnan(Nan ? x : best)) return true;
    if (Max ? (best < x) : (x < best)) return true;
    return x == best && i < bi;
}

template <bool Max, bool Nan, class S> SIMT_DEVICE_FN int64_t simt_tile_argbest(const S& s, unsigned char* scratch) {
    using T = typename S::elem;
    T best = s.v[0];
    int64_t bi = S::size;  // none yet
    for (int k = 0; k < S::per_thread; ++k)
        if (S::valid(k) && (bi == S::size || simt_tile_better<Max, Nan>(s.v[k], S::index(k), best, bi))) { best = s.v[k]; bi = S::index(k); }
#ifdef SIMT_TARGET_CUDA
    for (int m = 16; m >= 1; m >>= 1) {
        T ob = simt_tile_shfl_xor(best, m);
        int64_t oi = simt_tile_shfl_xor(bi, m);
        if (oi != S::size && (bi == S::size || simt_tile_better<Max, Nan>(ob, oi, best, bi))) { best = ob; bi = oi; }
    }
    T* values = (T*)scratch;
    int64_t* where = (int64_t*)(scratch + 16 * ((SIMT_TILE_THREADS / 32 * sizeof(T) + 15) / 16));
    if ((threadIdx.x & 31) == 0) { values[threadIdx.x >> 5] = best; where[threadIdx.x >> 5] = bi; }
    __syncthreads();
    best = values[0];
    bi = where[0];
    for (int w = 1; w < SIMT_TILE_THREADS / 32; ++w)
        if (where[w] != S::size && (bi == S::size || simt_tile_better<Max, Nan>(values[w], where[w], best, bi))) { best = values[w]; bi = where[w]; }
    __syncthreads();
#else
    (void)scratch;
#endif
    return bi;
}

// Out has s's shape with axis Axis of length 1 (keepdims; reshape after for keepdims=False,
// which moves nothing). Each element of Out is f(all, base, stride): all holds s's elements,
// base is the flat index of the element's line along the axis and stride the step along it.
template <class Out, int Axis, class S, class F> SIMT_DEVICE_FN Out simt_tile_along_axis(const S& s, unsigned char* scratch, F f) {
    auto all = simt_tile_publish(s, scratch);
    int64_t stride = 1;
    for (int a = Axis + 1; a < S::rank; ++a) stride *= S::dim(a);
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) {
        if (!Out::valid(k)) continue;
        int64_t i = Out::index(k);  // = outer * stride + inner, with the axis coordinate 0
        r.v[k] = f(all, (i / stride) * stride * S::dim(Axis) + i % stride, stride);
    }
    simt_tile_sync();
    return r;
}

// What simt_tile_along_axis computes for reductions (functors: NVRTC takes no lambdas in the
// prelude's templates).
template <class Op, class R> struct simt_tile_line_fold {
    Op op;
    R init;
    int64_t length;
    template <class P> SIMT_INLINE R operator()(const P* all, int64_t base, int64_t stride) const {
        R acc = init;
        for (int64_t j = 0; j < length; ++j) acc = op(acc, (R)all[base + j * stride]);
        return acc;
    }
};

template <bool Max, bool Nan> struct simt_tile_line_argbest {
    int64_t length;
    template <class P> SIMT_INLINE int64_t operator()(const P* all, int64_t base, int64_t stride) const {
        P best = all[base];
        int64_t bi = 0;
        for (int64_t j = 1; j < length; ++j)
            if (simt_tile_better<Max, Nan>(all[base + j * stride], j, best, bi)) { best = all[base + j * stride]; bi = j; }
        return bi;
    }
};

template <class Out, int Axis, class S, class Op, class R>
SIMT_DEVICE_FN Out simt_tile_reduce_axis(const S& s, Op op, R init, unsigned char* scratch) {
    return simt_tile_along_axis<Out, Axis>(s, scratch, simt_tile_line_fold<Op, R>{op, init, S::dim(Axis)});
}

template <class Out, int Axis, bool Max, bool Nan, class S> SIMT_DEVICE_FN Out simt_tile_argbest_axis(const S& s, unsigned char* scratch) {
    return simt_tile_along_axis<Out, Axis>(s, scratch, simt_tile_line_argbest<Max, Nan>{S::dim(Axis)});
}

// extract(s, index, Out's shape): the subtile at position index of s cut into Out-shaped pieces.
// Index components are clamped into the grid of pieces (no read leaves the tile).
// The position of a P-shaped piece of an S-shaped tile: idx clamped into the grid of pieces.
template <class S, class P> SIMT_INLINE void simt_tile_piece_index(int64_t* tix) {
    for (int a = 0; a < S::rank; ++a) {
        const int64_t pieces = S::dim(a) / P::dim(a);
        tix[a] = tix[a] < 0 ? 0 : tix[a] >= pieces ? pieces - 1 : tix[a];
    }
}

template <class Out, class S, class... I> SIMT_DEVICE_FN Out simt_tile_extract(const S& s, unsigned char* scratch, I... idx) {
    static_assert(sizeof...(I) == S::rank && Out::rank == S::rank, "a piece index per tile axis");
    int64_t tix[] = {(int64_t)idx...};
    simt_tile_piece_index<S, Out>(tix);
    auto all = simt_tile_publish(s, scratch);
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) {
        if (!Out::valid(k)) continue;
        int64_t c[S::rank];
        Out::coords(Out::index(k), c);
        int64_t flat = 0;
        for (int a = 0; a < S::rank; ++a) flat = flat * S::dim(a) + tix[a] * Out::dim(a) + c[a];
        r.v[k] = all[flat];
    }
    simt_tile_sync();
    return r;
}

// The address of the element the index tiles name in slot k, or null outside the array.
template <class T, int N, int L, class... I> SIMT_INLINE T* simt_tile_indexed(const simt_array<T, N, L>& x, int k, const I&... index) {
    int64_t c[] = {(int64_t)simt_tile_at(index, k)...};
    for (int a = 0; a < N; ++a)
        if (c[a] < 0 || c[a] >= x.shape[a]) return (T*)nullptr;
    return simt_address(x, c);
}

// insert(s, index, v): s with the piece at position index of s cut into V-shaped pieces replaced
// by v. Index components are clamped into the grid of pieces.
template <class S, class V, class... I> SIMT_DEVICE_FN S simt_tile_insert(const S& s, const V& v, unsigned char* scratch, I... idx) {
    static_assert(sizeof...(I) == S::rank && V::rank == S::rank, "a piece index per tile axis");
    int64_t tix[] = {(int64_t)idx...};
    simt_tile_piece_index<S, V>(tix);
    auto piece = simt_tile_publish(v, scratch);
    S r;
    for (int k = 0; k < S::per_thread; ++k) {
        r.v[k] = s.v[k];
        if (!S::valid(k)) continue;
        int64_t c[S::rank];
        S::coords(S::index(k), c);
        bool in = true;
        int64_t flat = 0;
        for (int a = 0; a < S::rank; ++a) {
            const int64_t local = c[a] - tix[a] * V::dim(a);
            in = in && local >= 0 && local < V::dim(a);
            flat = flat * V::dim(a) + local;
        }
        if (in) r.v[k] = piece[flat];
    }
    simt_tile_sync();
    return r;
}

// atomic_cas: where an element equals expected, desired replaces it; every element's old value
// (indices outside the array: expected, as cuTile gives).
template <class Out, class T, int N, int L, class E, class D, class... I>
SIMT_DEVICE_FN Out simt_tile_atomic_cas(const simt_array<T, N, L>& x, const E& expected, const D& desired, const I&... index) {
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) {
        if (!Out::valid(k)) continue;
        T* p = simt_tile_indexed(x, k, index...);
        const T e = (T)simt_tile_at(expected, k);
        r.v[k] = p ? simt_atomic_cas(p, e, (T)simt_tile_at(desired, k)) : e;
    }
    return r;
}

// The one element of a one-element tile, held by every thread (it lives in thread 0's first slot).
template <class S> SIMT_DEVICE_FN typename S::elem simt_tile_item(const S& s, unsigned char* scratch) {
    static_assert(S::size == 1, "item() of a tile of one element");
    using T = typename S::elem;
#ifdef SIMT_TARGET_CUDA
    if (SIMT_TILE_TID == 0) *(T*)scratch = s.v[0];
    __syncthreads();
    const T value = *(const T*)scratch;
    __syncthreads();
    return value;
#else
    (void)scratch;
    return s.v[0];
#endif
}

// Inclusive scan of s along Axis with op (associative; operands kept in order, earlier first),
// from the end of each line with Reverse, in Out's element type. cuda: Hillis-Steele rounds in
// the block's scratch, each combining an element with the one `step` places before it (after it,
// reversed), step doubling up to the line's length. cpu: one pass over the whole tile.
template <class Out, int Axis, bool Reverse, class S, class Op>
SIMT_DEVICE_FN Out simt_tile_scan(const S& s, Op op, unsigned char* scratch) {
    using R = typename Out::elem;
    int64_t stride = 1;
    for (int a = Axis + 1; a < S::rank; ++a) stride *= S::dim(a);
    const int64_t length = S::dim(Axis);
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) r.v[k] = (R)s.v[k];
#ifdef SIMT_TARGET_CUDA
    R* all = (R*)scratch;
    for (int64_t step = 1; step < length; step *= 2) {
        for (int k = 0; k < Out::per_thread; ++k) if (Out::valid(k)) all[Out::index(k)] = r.v[k];
        __syncthreads();
        for (int k = 0; k < Out::per_thread; ++k) {
            if (!Out::valid(k)) continue;
            const int64_t i = Out::index(k), c = (i / stride) % length;
            if (Reverse ? c + step < length : c >= step)
                r.v[k] = Reverse ? op(r.v[k], all[i + step * stride]) : op(all[i - step * stride], r.v[k]);
        }
        __syncthreads();
    }
#else
    (void)scratch;
    if (Reverse) {
        for (int64_t i = Out::size - 1; i >= 0; --i)
            if ((i / stride) % length + 1 < length) r.v[i] = op(r.v[i], r.v[i + stride]);
    } else {
        for (int64_t i = 0; i < Out::size; ++i)
            if ((i / stride) % length > 0) r.v[i] = op(r.v[i - stride], r.v[i]);
    }
#endif
    return r;
}

// --- matrix multiply-accumulate: acc (M, N) + a (M, K) @ b (K, N), in acc's type ----------
template <class S> struct simt_tile_2d;
template <class T, int M, int N> struct simt_tile_2d<simt_tile<T, M, N>> { static constexpr int rows = M, cols = N; };

// Four consecutive elements of a row of a published tile (16-byte aligned when they are floats).
template <class T> struct simt_tile_quad { T x, y, z, w; };
template <class T> SIMT_INLINE simt_tile_quad<T> simt_tile_load_quad(const T* p) { return {p[0], p[1], p[2], p[3]}; }
#ifdef SIMT_TARGET_CUDA
template <> SIMT_INLINE simt_tile_quad<float> simt_tile_load_quad<float>(const float* p) {
    float4 v = *(const float4*)p;
    return {v.x, v.y, v.z, v.w};
}
#endif

template <class Acc, class A, class B> SIMT_DEVICE_FN Acc simt_tile_mma(const A& a, const B& b, const Acc& acc, unsigned char* scratch) {
    using T = typename Acc::elem;
    constexpr int64_t K = simt_tile_2d<A>::cols, N = simt_tile_2d<B>::cols;
    constexpr int64_t a_bytes = 16 * ((A::size * (int64_t)sizeof(typename A::elem) + 15) / 16);
    auto pa = simt_tile_write(a, scratch);
    auto pb = simt_tile_write(b, scratch + a_bytes);
    simt_tile_sync();
    Acc r;
    for (int k = 0; k < Acc::per_thread; ++k) r.v[k] = acc.v[k];
    constexpr int64_t G = N / 4;  // quads in a row of acc
    if constexpr (Acc::quad == 4 && N % 4 == 0 && G <= SIMT_TILE_THREADS && SIMT_TILE_THREADS % G == 0 && K % 4 == 0) {
        // The thread's quads share four columns c..c+3 and step down the rows: per four steps
        // of K it reads a quad from each of four rows of b and a quad of each of its rows of a.
        constexpr int64_t row_step = SIMT_TILE_THREADS / G;
        const int64_t c = 4 * (SIMT_TILE_TID % G), r0 = SIMT_TILE_TID / G;
        for (int64_t j = 0; j < K; j += 4) {
            T bq[4][4];
            for (int i = 0; i < 4; ++i) {
                auto q = simt_tile_load_quad(pb + (j + i) * N + c);
                bq[i][0] = (T)q.x, bq[i][1] = (T)q.y, bq[i][2] = (T)q.z, bq[i][3] = (T)q.w;
            }
            for (int k = 0; k < Acc::per_thread; k += 4) {
                if (!Acc::valid(k)) continue;
                auto q = simt_tile_load_quad(pa + (r0 + (k / 4) * row_step) * K + j);
                const T a4[4] = {(T)q.x, (T)q.y, (T)q.z, (T)q.w};
                for (int col = 0; col < 4; ++col) {
                    T s = r.v[k + col];
                    for (int i = 0; i < 4; ++i) s += a4[i] * bq[i][col];
                    r.v[k + col] = s;
                }
            }
        }
    } else {
        for (int k = 0; k < Acc::per_thread; ++k) {
            if (!Acc::valid(k)) continue;
            const int64_t i = Acc::index(k), row = i / N, col = i % N;
            T s = r.v[k];
            for (int64_t j = 0; j < K; ++j) s += (T)pa[row * K + j] * (T)pb[j * N + col];
            r.v[k] = s;
        }
    }
    simt_tile_sync();
    return r;
}

// --- global memory --------------------------------------------------------------------------
// Whole quads of a C-ordered array whose last axis the quad lies along: four consecutive
// elements in memory, moved as 16-byte accesses where the address allows.
template <class T> struct alignas(16) simt_tile_vec16 { T x[16 / sizeof(T)]; };
template <class T, int Q, int L> SIMT_INLINE bool simt_tile_quad_contiguous(int64_t last_dim) {
    return Q == 4 && L == SIMT_C && last_dim >= 4;
}
template <class T> SIMT_INLINE void simt_tile_read_quad(const T* p, T* out) {
#ifdef SIMT_TARGET_CUDA
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
        if (((unsigned long)p & 15) == 0) {
            constexpr int per = 16 / sizeof(T);
            for (int h = 0; h < 4 / per; ++h) {
                simt_tile_vec16<T> v = *(const simt_tile_vec16<T>*)(p + h * per);
                for (int q = 0; q < per; ++q) out[h * per + q] = v.x[q];
            }
            return;
        }
    }
#endif
    for (int q = 0; q < 4; ++q) out[q] = p[q];
}
template <class T> SIMT_INLINE void simt_tile_write_quad(T* p, const T* in) {
#ifdef SIMT_TARGET_CUDA
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
        if (((unsigned long)p & 15) == 0) {
            constexpr int per = 16 / sizeof(T);
            for (int h = 0; h < 4 / per; ++h) {
                simt_tile_vec16<T> v;
                for (int q = 0; q < per; ++q) v.x[q] = in[h * per + q];
                *(simt_tile_vec16<T>*)(p + h * per) = v;
            }
            return;
        }
    }
#endif
    for (int q = 0; q < 4; ++q) p[q] = in[q];
}

// x with its axes permuted (axis k of the view is axis P[k] of x), for load/store's order=: a
// strided view over the same elements. Byte strides of C and F arrays follow from their shapes.
template <class T, int N, int L> SIMT_INLINE void simt_byte_strides(const simt_array<T, N, L>& x, int64_t* strides) {
    for (int k = 0; k < N; ++k) strides[k] = x.strides[k];
    if (L == SIMT_C || L == SIMT_F) {
        int64_t step = (int64_t)sizeof(T);
        for (int i = 0; i < N; ++i) {
            const int k = L == SIMT_C ? N - 1 - i : i;
            strides[k] = step;
            step *= x.shape[k];
        }
    }
}
template <int... P, class T, int N, int L>
SIMT_INLINE simt_array<T, N, SIMT_A> simt_permute_axes(const simt_array<T, N, L>& x) {
    static_assert(sizeof...(P) == N, "an axis per array dimension");
    constexpr int p[] = {P...};
    int64_t strides[N];
    simt_byte_strides(x, strides);
    simt_array<T, N, SIMT_A> v;
    v.data = x.data;
    for (int k = 0; k < N; ++k) {
        v.shape[k] = x.shape[p[k]];
        v.strides[k] = strides[p[k]];
    }
    return v;
}

// Array.slice(axis, start, stop): x restricted to [start, stop) along Axis, as a view of layout
// Out's. The bounds are clamped into the array, so every access through the view stays inside.
template <class Out, int Axis, class T, int N, int L>
SIMT_INLINE Out simt_array_slice(const simt_array<T, N, L>& x, int64_t start, int64_t stop) {
    const int64_t n = x.shape[Axis];
    start = start < 0 ? 0 : start > n ? n : start;
    stop = stop < start ? start : stop > n ? n : stop;
    int64_t strides[N];
    simt_byte_strides(x, strides);
    Out v;
    v.data = (T*)((char*)x.data + start * strides[Axis]);
    for (int k = 0; k < N; ++k) {
        v.shape[k] = x.shape[k];
        v.strides[k] = strides[k];
    }
    v.shape[Axis] = stop - start;
    return v;
}

// The tile at tile index idx of array x: element c of the tile is x[idx * shape + c]; elements
// outside the array read as pad.
// Where tile tix of an S-shaped tiling of x starts (origin), and whether the tile lies wholly inside x.
template <class S, class T, int N, int L> SIMT_INLINE bool simt_tile_origin(const simt_array<T, N, L>& x, const int64_t* tix, int64_t* origin) {
    bool whole = true;
    for (int a = 0; a < N; ++a) {
        origin[a] = tix[a] * S::dim(a);
        whole = whole && tix[a] >= 0 && origin[a] + S::dim(a) <= x.shape[a];
    }
    return whole;
}

template <class Out, class T, int N, int L, class P, class... I>
SIMT_DEVICE_FN Out simt_tile_load(const simt_array<T, N, L>& x, P pad, I... idx) {
    static_assert(sizeof...(I) == N && Out::rank == N, "a tile index per array axis");
    const int64_t tix[] = {(int64_t)idx...};
    int64_t origin[N];
    const bool whole = simt_tile_origin<Out>(x, tix, origin);
    const bool quads = whole && simt_tile_quad_contiguous<T, Out::quad, L>(Out::dim(N - 1));
    Out r;
    for (int k = 0; k < Out::per_thread; k += Out::quad) {
        if (quads) {
            int64_t c[N];
            Out::coords(Out::index(k), c);
            for (int a = 0; a < N; ++a) c[a] += origin[a];
            if (Out::valid(k)) simt_tile_read_quad(simt_address(x, c), r.v + k);
            continue;
        }
        for (int q = 0; q < Out::quad; ++q) {
            int64_t c[N];
            Out::coords(Out::index(k + q), c);
            bool in = Out::valid(k + q);
            for (int a = 0; a < N; ++a) {
                c[a] += origin[a];
                if (!whole) in = in && c[a] >= 0 && c[a] < x.shape[a];
            }
            r.v[k + q] = in ? *simt_address(x, c) : (T)pad;
        }
    }
    return r;
}

template <class T, int N, int L, class S, class... I>
SIMT_DEVICE_FN void simt_tile_store(const simt_array<T, N, L>& x, const S& s, I... idx) {
    static_assert(sizeof...(I) == N && S::rank == N, "a tile index per array axis");
    const int64_t tix[] = {(int64_t)idx...};
    int64_t origin[N];
    const bool whole = simt_tile_origin<S>(x, tix, origin);
    const bool quads = whole && simt_tile_quad_contiguous<T, S::quad, L>(S::dim(N - 1));
    for (int k = 0; k < S::per_thread; k += S::quad) {
        if (!S::valid(k)) continue;  // (a quad is valid or not as a whole)
        if (quads) {
            int64_t c[N];
            S::coords(S::index(k), c);
            for (int a = 0; a < N; ++a) c[a] += origin[a];
            simt_tile_write_quad(simt_address(x, c), s.v + k);
            continue;
        }
        for (int q = 0; q < S::quad; ++q) {
            int64_t c[N];
            S::coords(S::index(k + q), c);
            bool in = true;
            for (int a = 0; a < N; ++a) {
                c[a] += origin[a];
                in = in && c[a] >= 0 && c[a] < x.shape[a];
            }
            if (in) *simt_address(x, c) = s.v[k + q];
        }
    }
}

// A scalar (a 0-d tile) stored at element idx, by one thread.
template <class T, int N, int L, class... I>
SIMT_DEVICE_FN void simt_tile_store_scalar(const simt_array<T, N, L>& x, T value, I... idx) {
    int64_t c[] = {(int64_t)idx...};
    bool in = SIMT_TILE_TID == 0;
    for (int a = 0; a < N; ++a) in = in && c[a] >= 0 && c[a] < x.shape[a];
    if (in) *simt_address(x, c) = value;
}

// Elements of x at the indices the index tiles hold (already broadcast to Out's shape); indices
// outside the array read as pad.
template <class Out, class T, int N, int L, class P, class... I>
SIMT_DEVICE_FN Out simt_tile_gather(const simt_array<T, N, L>& x, P pad, const I&... index) {
    Out r;
    for (int k = 0; k < Out::per_thread; ++k) {
        const T* p = Out::valid(k) ? simt_tile_indexed(x, k, index...) : nullptr;
        r.v[k] = p ? *p : (T)pad;
    }
    return r;
}

// op(address or null, update) at the elements the index tiles name; the old values (0 where an
// index is outside the array and nothing is updated).
template <class Out, class T, int N, int L, class F, class V, class... I>
SIMT_DEVICE_FN Out simt_tile_atomic(const simt_array<T, N, L>& x, F op, const V& update, const I&... index) {
    Out r;
    for (int k = 0; k < Out::per_thread; ++k)
        if (Out::valid(k)) r.v[k] = op(simt_tile_indexed(x, k, index...), (T)simt_tile_at(update, k));
    return r;
}

template <class T, int N, int L, class V, class... I>
SIMT_DEVICE_FN void simt_tile_scatter(const simt_array<T, N, L>& x, const V& value, const I&... index) {
    for (int k = 0; k < V::per_thread; ++k)
        if (V::valid(k))
            if (T* p = simt_tile_indexed(x, k, index...)) *p = value.v[k];
}
