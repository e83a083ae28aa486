// simt prelude, cpu target: the services libsimt gives kernels (layouts must match
// backend/cpu/launch_abi.h), and the barriers, warp operations, bit operations and print
// built on them.
struct simt_fiber_kernel {
    void (*body)(void* closure, simt_ctx* ctx);
    void* closure;
    const char* name;
    const char* const* sites;
    int32_t site_count;
    int32_t flags;  // SIMT_FIBERS_GRID_SYNC
    int64_t static_shared_bytes;
    int64_t local_bytes;
};

enum {
    SIMT_WARP_SYNC = 0, SIMT_SHFL_IDX, SIMT_SHFL_UP, SIMT_SHFL_DOWN, SIMT_SHFL_XOR, SIMT_VOTE_ALL, SIMT_VOTE_ANY,
    SIMT_VOTE_UNI, SIMT_VOTE_BALLOT, SIMT_MATCH_ANY, SIMT_MATCH_ALL, SIMT_ACTIVEMASK
};
enum { SIMT_BARRIER = 0, SIMT_BARRIER_COUNT, SIMT_BARRIER_AND, SIMT_BARRIER_OR };
enum { SIMT_FIBERS_GRID_SYNC = 1 };

struct simt_runtime {
    int32_t abi_version;
    int32_t reserved;
    char* (*shared_memory)(const simt_launch* launch, int64_t static_bytes);
    void (*run_fibers)(const simt_launch* launch, int64_t begin, int64_t end, const simt_fiber_kernel* kernel);
    int32_t (*barrier)(simt_ctx* ctx, int32_t site, int32_t op, int32_t predicate);
    uint64_t (*warp)(simt_ctx* ctx, int32_t site, int32_t op, uint32_t mask, uint64_t value, int64_t arg, uint32_t* aux);
    void (*print)(simt_ctx* ctx, const char* format, ...);
    char* (*scratch)(const simt_launch* launch, int64_t bytes);
    void (*region_error)(simt_ctx* ctx, const simt_fiber_kernel* kernel, int32_t site, int32_t line, int32_t live);
    void (*grid_barrier)(simt_ctx* ctx, int32_t site);
};

inline char* simt_block_shared_memory(const simt_launch* L, int64_t static_shared_bytes) {
    if (static_shared_bytes + L->dynamic_shared_bytes <= 0) return (char*)0;
    return L->runtime->shared_memory(L, static_shared_bytes);
}

// Runs blocks [begin, end) with each thread of a block as a fiber (kernels with barriers or
// warp operations); libsimt schedules the fibers.
template <class Body> void simt_fiber_body(void* closure, simt_ctx* ctx) { (*(Body*)closure)(*ctx); }
template <class Body>
inline void simt_run_blocks_fibers(const simt_launch* L, int64_t begin, int64_t end, const char* name,
                                   const char* const* sites, int32_t site_count, int64_t static_shared_bytes,
                                   int64_t local_bytes, int32_t flags, Body body) {
    simt_fiber_kernel k = {&simt_fiber_body<Body>, (void*)&body, name, sites, site_count, flags, static_shared_bytes, local_bytes};
    L->runtime->run_fibers(L, begin, end, &k);
}

// Runs blocks [begin, end) in region mode: body(ctx, kernel, states, done) runs the threads of a
// block between barriers as loops (emit_regions.cpp); states are zeroed for every block.
// Thread loops walk the block in linear order (x fastest): start at thread 0, step to the next.
SIMT_INLINE void simt_first_thread(simt_ctx& c) { c.tid.x = c.tid.y = c.tid.z = 0; }
SIMT_INLINE void simt_next_thread(simt_ctx& c) {
    if (++c.tid.x < c.bdim.x) return;
    c.tid.x = 0;
    if (++c.tid.y < c.bdim.y) return;
    c.tid.y = 0;
    ++c.tid.z;
}
inline void simt_region_error(simt_ctx& c, const simt_fiber_kernel* k, int32_t site, int32_t line, int32_t live) {
    c.launch->runtime->region_error(&c, k, site, line, live);
}
template <class Body>
inline void simt_run_blocks_regions(const simt_launch* L, int64_t begin, int64_t end, const char* name,
                                    const char* const* sites, int32_t site_count, int64_t static_shared_bytes,
                                    int64_t state_bytes, Body body) {
    simt_fiber_kernel k = {0, 0, name, sites, site_count, 0, static_shared_bytes, 0};
    simt_ctx ctx;
    ctx.launch = L;
    ctx.bdim = L->block;
    ctx.gdim = L->grid;
    ctx.fiber = 0;
    ctx.shared = simt_block_shared_memory(L, static_shared_bytes);
    const int64_t n = (int64_t)L->block.x * L->block.y * L->block.z;
    const int64_t bytes = n * state_bytes + n;
    char* states = L->runtime->scratch(L, bytes);
    if (!states) return;
    for (int64_t b = begin; b < end; ++b) {
        simt_set_block(ctx, b);
        __builtin_memset(states, 0, (unsigned long)bytes);
        if (!body(ctx, &k, states, (bool*)(states + n * state_bytes))) return;
    }
}

// ---- barriers and fences ----------------------------------------------------------------------
SIMT_INLINE void simt_syncthreads(simt_ctx& c, int site) { c.launch->runtime->barrier(&c, site, SIMT_BARRIER, 0); }
SIMT_INLINE void simt_grid_sync(simt_ctx& c, int site) { c.launch->runtime->grid_barrier(&c, site); }
SIMT_INLINE int32_t simt_syncthreads_count(simt_ctx& c, int site, bool p) { return c.launch->runtime->barrier(&c, site, SIMT_BARRIER_COUNT, p); }
SIMT_INLINE int32_t simt_syncthreads_and(simt_ctx& c, int site, bool p) { return c.launch->runtime->barrier(&c, site, SIMT_BARRIER_AND, p); }
SIMT_INLINE int32_t simt_syncthreads_or(simt_ctx& c, int site, bool p) { return c.launch->runtime->barrier(&c, site, SIMT_BARRIER_OR, p); }
SIMT_INLINE void simt_syncwarp(simt_ctx& c, int site, uint32_t mask) { c.launch->runtime->warp(&c, site, SIMT_WARP_SYNC, mask, 0, 0, 0); }
SIMT_INLINE void simt_threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
SIMT_INLINE void simt_threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
SIMT_INLINE void simt_threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
// CUDA lets a nanosleep last anywhere from 0 to twice the time asked: the cpu backend's is 0
// (pausing the OS thread would pause every thread of the block, which run on it as fibers).
SIMT_INLINE void simt_nanosleep(uint32_t) {}

// ---- warp operations: values travel as 64-bit patterns (little-endian, zero-extended) ---------
template <class T> SIMT_INLINE uint64_t simt_to_warp_bits(T v) { uint64_t b = 0; __builtin_memcpy(&b, &v, sizeof(T)); return b; }
template <class T> SIMT_INLINE T simt_from_warp_bits(uint64_t b) { T v; __builtin_memcpy(&v, &b, sizeof(T)); return v; }
template <class T> SIMT_INLINE T simt_shfl(simt_ctx& c, int site, int op, uint32_t mask, T v, int64_t arg) {
    return simt_from_warp_bits<T>(c.launch->runtime->warp(&c, site, op, mask, simt_to_warp_bits(v), arg, 0));
}
template <class T> SIMT_INLINE T simt_shfl_sync(simt_ctx& c, int site, uint32_t mask, T v, int64_t lane) { return simt_shfl(c, site, SIMT_SHFL_IDX, mask, v, lane); }
template <class T> SIMT_INLINE T simt_shfl_up_sync(simt_ctx& c, int site, uint32_t mask, T v, int64_t delta) { return simt_shfl(c, site, SIMT_SHFL_UP, mask, v, delta); }
template <class T> SIMT_INLINE T simt_shfl_down_sync(simt_ctx& c, int site, uint32_t mask, T v, int64_t delta) { return simt_shfl(c, site, SIMT_SHFL_DOWN, mask, v, delta); }
template <class T> SIMT_INLINE T simt_shfl_xor_sync(simt_ctx& c, int site, uint32_t mask, T v, int64_t lanes) { return simt_shfl(c, site, SIMT_SHFL_XOR, mask, v, lanes); }
SIMT_INLINE uint32_t simt_vote(simt_ctx& c, int site, int op, uint32_t mask, bool p) { return (uint32_t)c.launch->runtime->warp(&c, site, op, mask, p, 0, 0); }
SIMT_INLINE bool simt_all_sync(simt_ctx& c, int site, uint32_t mask, bool p) { return simt_vote(c, site, SIMT_VOTE_ALL, mask, p) != 0; }
SIMT_INLINE bool simt_any_sync(simt_ctx& c, int site, uint32_t mask, bool p) { return simt_vote(c, site, SIMT_VOTE_ANY, mask, p) != 0; }
SIMT_INLINE bool simt_eq_sync(simt_ctx& c, int site, uint32_t mask, bool p) { return simt_vote(c, site, SIMT_VOTE_UNI, mask, p) != 0; }
SIMT_INLINE uint32_t simt_ballot_sync(simt_ctx& c, int site, uint32_t mask, bool p) { return simt_vote(c, site, SIMT_VOTE_BALLOT, mask, p); }
template <class T> SIMT_INLINE uint32_t simt_match_any_sync(simt_ctx& c, int site, uint32_t mask, T v) {
    return (uint32_t)c.launch->runtime->warp(&c, site, SIMT_MATCH_ANY, mask, simt_to_warp_bits(v), 0, 0);
}
template <class T> SIMT_INLINE uint32_t simt_match_all_sync(simt_ctx& c, int site, uint32_t mask, T v, bool* pred) {
    uint32_t all = 0;
    uint32_t r = (uint32_t)c.launch->runtime->warp(&c, site, SIMT_MATCH_ALL, mask, simt_to_warp_bits(v), 0, &all);
    *pred = all != 0;
    return r;
}
SIMT_INLINE uint32_t simt_activemask(simt_ctx& c, int site) { return (uint32_t)c.launch->runtime->warp(&c, site, SIMT_ACTIVEMASK, 0, 0, 0, 0); }
SIMT_INLINE uint32_t simt_lanemask_lt(simt_ctx& c) { return (1u << simt_laneid(c)) - 1u; }

// ---- bit operations (numba.cuda's popc, clz, ffs, brev) ----------------------------------------
template <class T> SIMT_INLINE T simt_popc(T x) { return (T)__builtin_popcountll((uint64_t)(typename simt_unsigned_of<T>::type)x); }
template <class T> SIMT_INLINE T simt_clz(T x) {
    uint64_t u = (uint64_t)(typename simt_unsigned_of<T>::type)x;
    return (T)(u == 0 ? (int)(8 * sizeof(T)) : __builtin_clzll(u) - (64 - (int)(8 * sizeof(T))));
}
template <class T> SIMT_INLINE uint32_t simt_ffs(T x) {
    uint64_t u = (uint64_t)(typename simt_unsigned_of<T>::type)x;
    return u == 0 ? 0u : (uint32_t)__builtin_ctzll(u) + 1u;
}
SIMT_INLINE uint32_t simt_brev(uint32_t x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
SIMT_INLINE uint64_t simt_brev(uint64_t x) { return ((uint64_t)simt_brev((uint32_t)x) << 32) | simt_brev((uint32_t)(x >> 32)); }
SIMT_INLINE float simt_fma(float a, float b, float c) { return fmaf(a, b, c); }
SIMT_INLINE double simt_fma(double a, double b, double c) { return fma(a, b, c); }
SIMT_INLINE float simt_cbrt(float a) { return cbrtf(a); }
SIMT_INLINE double simt_cbrt(double a) { return cbrt(a); }

// ---- print ------------------------------------------------------------------------------------
template <class... A> SIMT_INLINE void simt_print(simt_ctx& c, const char* format, A... args) {
    c.launch->runtime->print(&c, format, args...);
}
