// Building and loading the built-in kernel module.
#include "backend/cuda/builtin_kernels.h"
#include "backend/cuda/driver_api.h"
#include "backend/cuda/nvrtc_compile.h"

namespace simt {

namespace embedded {
extern const char* const philox_h;
extern const char* const cuda_builtin_kernels;
}  // namespace embedded

const std::string& builtin_kernels_source() {
    static const std::string source = std::string(
        "// simt built-in kernels (cuda backend)\n"
        "typedef signed char int8_t;\ntypedef short int16_t;\ntypedef int int32_t;\ntypedef long int64_t;\n"
        "typedef unsigned int uint32_t;\ntypedef unsigned long uint64_t;\n"
        "#define SIMT_PHILOX_QUALIFIER __device__ __forceinline__\n"
        "#line 1 \"simt/array/philox.h\"\n") + embedded::philox_h +
        "\n#line 1 \"simt/backend/cuda/builtin_kernels.cuh\"\n" + embedded::cuda_builtin_kernels;
    return source;
}

BuiltinKernels load_builtin_kernels(const cu::DriverApi& d, int arch) {
    NvrtcRequest req;
    req.source = builtin_kernels_source();
    req.name = "simt's built-in kernels";
    req.arch = arch;
    req.extra = {"--fmad=false"};  // no contraction: uniform values round exactly as on the cpu
    CudaImage image = compile_for_device(req);
    BuiltinKernels b;
    check(d.cuModuleLoadData(&b.module, image.bytes.data()));
    auto get = [&](cu::Function& f, const char* name) { check(d.cuModuleGetFunction(&f, b.module, name)); };
    get(b.fill_u64, "simt_fill_u64");
    get(b.fill_u128, "simt_fill_u128");
    get(b.uniform_f64, "simt_uniform_f64");
    get(b.uniform_f32, "simt_uniform_f32");
    get(b.normal_f64, "simt_normal_f64");
    get(b.normal_f32, "simt_normal_f32");
    get(b.integers[0], "simt_integers_1");
    get(b.integers[1], "simt_integers_2");
    get(b.integers[2], "simt_integers_4");
    get(b.integers[3], "simt_integers_8");
    return b;
}

}  // namespace simt
