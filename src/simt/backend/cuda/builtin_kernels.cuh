// Built-in kernels of the cuda backend, compiled by NVRTC after array/philox.h (embedded before
// this text): fills with 8- and 16-byte patterns, and simt.random's fills. The module is compiled
// with --fmad=false so `lo + span * u` rounds exactly as on the cpu backend: uniform values are
// bit-identical on both backends.

#define SIMT_GRID_STRIDE(i, n)                                                                  \
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);                  \
         i += (uint64_t)gridDim.x * blockDim.x)

extern "C" __global__ void simt_fill_u64(uint64_t* dst, uint64_t value, uint64_t count) {
    SIMT_GRID_STRIDE(i, count) dst[i] = value;
}

// 16-byte elements as two 8-byte words (complex128 arrays are only 8-byte aligned).
extern "C" __global__ void simt_fill_u128(uint64_t* dst, uint64_t low, uint64_t high, uint64_t count) {
    SIMT_GRID_STRIDE(i, count) {
        dst[2 * i] = low;
        dst[2 * i + 1] = high;
    }
}

// One Philox block per iteration: elements 2b and 2b+1 (doubles) or 4b..4b+3 (floats), as the
// cpu backend's fill_blocks assigns them.
extern "C" __global__ void simt_uniform_f64(double* out, uint64_t count, uint64_t seed, uint64_t offset, double lo,
                                            double span) {
    SIMT_GRID_STRIDE(b, (count + 1) / 2) {
        simt_philox::Block w = simt_philox::generate(offset + b, seed);
        uint64_t i = 2 * b;
        out[i] = lo + span * simt_philox::to_unit_double(w.w[0], w.w[1]);
        if (i + 1 < count) out[i + 1] = lo + span * simt_philox::to_unit_double(w.w[2], w.w[3]);
    }
}

extern "C" __global__ void simt_uniform_f32(float* out, uint64_t count, uint64_t seed, uint64_t offset, float lo,
                                            float span) {
    SIMT_GRID_STRIDE(b, (count + 3) / 4) {
        simt_philox::Block w = simt_philox::generate(offset + b, seed);
        for (int k = 0; k < 4; ++k) {
            uint64_t i = 4 * b + (uint64_t)k;
            if (i < count) out[i] = lo + span * simt_philox::to_unit_float(w.w[k]);
        }
    }
}

extern "C" __global__ void simt_normal_f64(double* out, uint64_t count, uint64_t seed, uint64_t offset, double mean,
                                           double stddev) {
    SIMT_GRID_STRIDE(i, count) out[i] = simt_philox::normal_double(seed, offset, i, mean, stddev);
}

extern "C" __global__ void simt_normal_f32(float* out, uint64_t count, uint64_t seed, uint64_t offset, float mean,
                                           float stddev) {
    SIMT_GRID_STRIDE(i, count) out[i] = simt_philox::normal_float(seed, offset, i, mean, stddev);
}

template <class T>
__device__ void simt_integers(T* out, uint64_t count, uint64_t seed, uint64_t offset, uint64_t low, uint64_t range) {
    SIMT_GRID_STRIDE(i, count) out[i] = (T)simt_philox::integer(seed, offset, i, low, range);
}
extern "C" __global__ void simt_integers_1(int8_t* out, uint64_t n, uint64_t seed, uint64_t offset, uint64_t low, uint64_t range) {
    simt_integers(out, n, seed, offset, low, range);
}
extern "C" __global__ void simt_integers_2(int16_t* out, uint64_t n, uint64_t seed, uint64_t offset, uint64_t low, uint64_t range) {
    simt_integers(out, n, seed, offset, low, range);
}
extern "C" __global__ void simt_integers_4(int32_t* out, uint64_t n, uint64_t seed, uint64_t offset, uint64_t low, uint64_t range) {
    simt_integers(out, n, seed, offset, low, range);
}
extern "C" __global__ void simt_integers_8(int64_t* out, uint64_t n, uint64_t seed, uint64_t offset, uint64_t low, uint64_t range) {
    simt_integers(out, n, seed, offset, low, range);
}
