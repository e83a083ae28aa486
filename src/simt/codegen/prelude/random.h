// simt prelude, both targets: numba.cuda.random's in-kernel functions over a states array of
// shape (n, 2) and dtype uint64 (row i holds stream i's xoroshiro128+ state). An index outside
// the array reads as a zero output and leaves every state untouched.
template <int L>
SIMT_INLINE bool simt_xoroshiro_locate(const simt_array<uint64_t, 2, L>& states, int64_t index, uint64_t*& p0, uint64_t*& p1) {
    if (index < 0) index += states.shape[0];
    if ((uint64_t)index >= (uint64_t)states.shape[0] || states.shape[1] < 2) return false;
    int64_t first[2] = {index, 0}, second[2] = {index, 1};
    p0 = simt_address(states, first);
    p1 = simt_address(states, second);
    return true;
}

template <int L>
SIMT_INLINE uint64_t simt_xoroshiro128p_next(const simt_array<uint64_t, 2, L>& states, int64_t index) {
    uint64_t *p0, *p1;
    if (!simt_xoroshiro_locate(states, index, p0, p1)) return 0;
    simt_xoroshiro_state s = {*p0, *p1};
    uint64_t r = simt_xoroshiro_next(s);
    *p0 = s.s0;
    *p1 = s.s1;
    return r;
}

template <int L>
SIMT_INLINE void simt_xoroshiro128p_jump(const simt_array<uint64_t, 2, L>& states, int64_t index) {
    uint64_t *p0, *p1;
    if (!simt_xoroshiro_locate(states, index, p0, p1)) return;
    simt_xoroshiro_state s = {*p0, *p1};
    simt_xoroshiro_jump(s);
    *p0 = s.s0;
    *p1 = s.s1;
}

template <int L>
SIMT_INLINE void simt_init_xoroshiro128p_state(const simt_array<uint64_t, 2, L>& states, int64_t index, uint64_t seed) {
    uint64_t *p0, *p1;
    if (!simt_xoroshiro_locate(states, index, p0, p1)) return;
    simt_xoroshiro_state s = simt_xoroshiro_seed(seed);
    *p0 = s.s0;
    *p1 = s.s1;
}

// Uniform on [0, 1): the top 53 (24) bits of an output, scaled exactly.
template <int L>
SIMT_INLINE double simt_xoroshiro128p_uniform_float64(const simt_array<uint64_t, 2, L>& states, int64_t index) {
    return (double)(simt_xoroshiro128p_next(states, index) >> 11) * 1.1102230246251565e-16;
}
template <int L>
SIMT_INLINE float simt_xoroshiro128p_uniform_float32(const simt_array<uint64_t, 2, L>& states, int64_t index) {
    return (float)(simt_xoroshiro128p_next(states, index) >> 40) * 5.9604645e-08f;
}

// Standard normal by Box-Muller from two uniforms; 1 - u keeps the logarithm finite.
template <int L>
SIMT_INLINE double simt_xoroshiro128p_normal_float64(const simt_array<uint64_t, 2, L>& states, int64_t index) {
    double u1 = 1.0 - simt_xoroshiro128p_uniform_float64(states, index);
    double u2 = simt_xoroshiro128p_uniform_float64(states, index);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
template <int L>
SIMT_INLINE float simt_xoroshiro128p_normal_float32(const simt_array<uint64_t, 2, L>& states, int64_t index) {
    float u1 = 1.0f - simt_xoroshiro128p_uniform_float32(states, index);
    float u2 = simt_xoroshiro128p_uniform_float32(states, index);
    return sqrtf(-2.0f * logf(u1)) * cosf(6.28318531f * u2);
}
