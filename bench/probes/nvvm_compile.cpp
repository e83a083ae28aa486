// Probe: how long a new small kernel takes to become a cubin through NVRTC (CUDA C++) and through
// libNVVM (NVVM IR, no C++ front end) followed by ptxas (nvJitLink, or the driver's JIT).
// Usage: nvvm_compile <libnvrtc> <libnvvm> <libnvJitLink|-> <libdevice.10.bc> [libcuda]
// Prints the median of 7 compiles (the first one of each kind reported apart: library start-up).
#include <dlfcn.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {
double now_ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
void* open_or_die(const char* path) {
    void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) { std::fprintf(stderr, "dlopen %s: %s\n", path, dlerror()); std::exit(2); }
    return h;
}
template <class F> F sym(void* lib, const char* name) {
    void* p = dlsym(lib, name);
    if (!p) { std::fprintf(stderr, "missing %s\n", name); std::exit(2); }
    return reinterpret_cast<F>(p);
}
std::string read_file(const char* path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// Every compile gets a constant of its own, so that no cache (the toolkit's or the driver's) can
// answer it: each is a new kernel.
int g_serial = 0;
std::string unique_constant() { return std::to_string(++g_serial) + ".0"; }
std::string cuda_source(const char* body) {
    return "extern \"C\" __global__ void k(const float* a, const float* b, float* c, long long n) {"
           " long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; if (i < n) c[i] = " +
           std::string(body) + " + " + unique_constant() + "f; }";
}
std::string ir(bool with_sin) {
    std::string op = with_sin ? "%s0 = call float @__nv_sinf(float %x)" : "%s0 = fmul float %x, %x";
    op += "\n  %s = fadd float %s0, " + unique_constant();
    return "target triple = \"nvptx64-nvidia-cuda\"\n"
           "target datalayout = \"e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64\"\n"
           "define void @k(float* %a, float* %b, float* %c, i64 %n) {\n"
           "entry:\n  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
           "  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n  %cta64 = zext i32 %cta to i64\n  %nt64 = zext i32 %nt to i64\n"
           "  %tid64 = zext i32 %tid to i64\n  %m = mul i64 %cta64, %nt64\n  %i = add i64 %m, %tid64\n  %ok = icmp slt i64 %i, %n\n"
           "  br i1 %ok, label %body, label %exit\nbody:\n  %pa = getelementptr float, float* %a, i64 %i\n"
           "  %pb = getelementptr float, float* %b, i64 %i\n  %pc = getelementptr float, float* %c, i64 %i\n"
           "  %x = load float, float* %pa\n  %y = load float, float* %pb\n  " + op + "\n  %z = fadd float %s, %y\n"
           "  store float %z, float* %pc\n  br label %exit\nexit:\n  ret void\n}\n"
           "declare float @__nv_sinf(float)\ndeclare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
           "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\ndeclare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
           "!nvvm.annotations = !{!0}\n!0 = !{void (float*, float*, float*, i64)* @k, !\"kernel\", i32 1}\n"
           "!nvvmir.version = !{!1}\n!1 = !{i32 2, i32 0, i32 3, i32 2}\n";
}

void report(const char* what, const std::function<size_t()>& once) {
    std::vector<double> t;
    size_t bytes = 0;
    for (int i = 0; i < 8; ++i) {
        double t0 = now_ms();
        bytes = once();
        t.push_back(now_ms() - t0);
    }
    double first = t[0];
    t.erase(t.begin());
    std::sort(t.begin(), t.end());
    std::printf("%-44s first %7.2f ms  median %6.2f ms  min %6.2f ms  (%zu bytes)\n", what, first, t[t.size() / 2], t[0], bytes);
    std::fflush(stdout);
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 5) { std::fprintf(stderr, "usage: nvvm_compile libnvrtc libnvvm libnvJitLink|- libdevice [libcuda]\n"); return 2; }
    setenv("CUDA_CACHE_DISABLE", "1", 1);  // the driver's JIT cache: read at cuInit
    void* nvrtc = open_or_die(argv[1]);
    void* nvvm = open_or_die(argv[2]);
    void* jl = std::string(argv[3]) == "-" ? nullptr : open_or_die(argv[3]);
    std::string libdevice = read_file(argv[4]);
    void* cuda = argc > 5 ? open_or_die(argv[5]) : nullptr;

    using Prog = void*;
    auto nvrtcCreateProgram = sym<int (*)(Prog*, const char*, const char*, int, const char* const*, const char* const*)>(nvrtc, "nvrtcCreateProgram");
    auto nvrtcCompileProgram = sym<int (*)(Prog, int, const char* const*)>(nvrtc, "nvrtcCompileProgram");
    auto nvrtcGetCUBINSize = sym<int (*)(Prog, size_t*)>(nvrtc, "nvrtcGetCUBINSize");
    auto nvrtcDestroyProgram = sym<int (*)(Prog*)>(nvrtc, "nvrtcDestroyProgram");
    auto nvvmCreateProgram = sym<int (*)(Prog*)>(nvvm, "nvvmCreateProgram");
    auto nvvmAddModuleToProgram = sym<int (*)(Prog, const char*, size_t, const char*)>(nvvm, "nvvmAddModuleToProgram");
    auto nvvmLazyAddModuleToProgram = sym<int (*)(Prog, const char*, size_t, const char*)>(nvvm, "nvvmLazyAddModuleToProgram");
    auto nvvmCompileProgram = sym<int (*)(Prog, int, const char**)>(nvvm, "nvvmCompileProgram");
    auto nvvmGetCompiledResultSize = sym<int (*)(Prog, size_t*)>(nvvm, "nvvmGetCompiledResultSize");
    auto nvvmGetCompiledResult = sym<int (*)(Prog, char*)>(nvvm, "nvvmGetCompiledResult");
    auto nvvmDestroyProgram = sym<int (*)(Prog*)>(nvvm, "nvvmDestroyProgram");

    auto run_nvrtc = [&](const char* src) {
        Prog p;
        nvrtcCreateProgram(&p, src, "k.cu", 0, nullptr, nullptr);
        const char* opts[] = {"--gpu-architecture=sm_90", "--minimal", "--std=c++17"};
        if (nvrtcCompileProgram(p, 3, opts)) { std::fprintf(stderr, "nvrtc failed\n"); std::exit(1); }
        size_t n = 0;
        nvrtcGetCUBINSize(p, &n);
        nvrtcDestroyProgram(&p);
        return n;
    };
    auto run_nvvm = [&](bool with_sin) {
        std::string m = ir(with_sin);
        Prog p;
        nvvmCreateProgram(&p);
        nvvmAddModuleToProgram(p, m.data(), m.size(), "k");
        if (with_sin) nvvmLazyAddModuleToProgram(p, libdevice.data(), libdevice.size(), "libdevice");
        const char* opts[] = {"-arch=compute_90"};
        if (nvvmCompileProgram(p, 1, opts)) { std::fprintf(stderr, "nvvm failed\n"); std::exit(1); }
        size_t n = 0;
        nvvmGetCompiledResultSize(p, &n);
        std::string ptx(n, '\0');
        nvvmGetCompiledResult(p, ptx.data());
        nvvmDestroyProgram(&p);
        return ptx;
    };
    report("NVRTC empty kernel -> cubin", [&] {
        return run_nvrtc(("extern \"C\" __global__ void k() {} // " + unique_constant()).c_str());
    });
    report("NVRTC c = a*a + b -> cubin", [&] { return run_nvrtc(cuda_source("a[i] * a[i] + b[i]").c_str()); });
    report("NVRTC c = sinf(a) + b -> cubin", [&] { return run_nvrtc(cuda_source("sinf(a[i]) + b[i]").c_str()); });
    report("libNVVM c = a*a + b -> PTX", [&] { return run_nvvm(false).size(); });
    report("libNVVM c = sin(a) + b (lazy libdevice) -> PTX", [&] { return run_nvvm(true).size(); });
    if (jl) {
        auto create = sym<int (*)(Prog*, unsigned, const char**)>(jl, "__nvJitLinkCreate_13_0");
        auto add = sym<int (*)(Prog, int, const void*, size_t, const char*)>(jl, "__nvJitLinkAddData_13_0");
        auto complete = sym<int (*)(Prog)>(jl, "__nvJitLinkComplete_13_0");
        auto size = sym<int (*)(Prog, size_t*)>(jl, "__nvJitLinkGetLinkedCubinSize_13_0");
        auto destroy = sym<int (*)(Prog*)>(jl, "__nvJitLinkDestroy_13_0");
        auto link = [&](const std::string& ptx) {
            Prog h;
            const char* o[] = {"-arch=sm_90"};
            create(&h, 1, o);
            if (add(h, 2 /* NVJITLINK_INPUT_PTX */, ptx.data(), ptx.size(), "k")) { std::fprintf(stderr, "nvJitLinkAddData failed\n"); std::exit(1); }
            if (complete(h)) { std::fprintf(stderr, "nvJitLink failed\n"); std::exit(1); }
            size_t n = 0;
            size(h, &n);
            destroy(&h);
            return n;
        };
        report("libNVVM + nvJitLink (a*a + b) -> cubin", [&] { return link(run_nvvm(false)); });
        report("libNVVM + nvJitLink (sin) -> cubin", [&] { return link(run_nvvm(true)); });
    }
    if (cuda) {
        auto cuInit = sym<int (*)(unsigned)>(cuda, "cuInit");
        auto cuDeviceGet = sym<int (*)(int*, int)>(cuda, "cuDeviceGet");
        auto cuRetain = sym<int (*)(void**, int)>(cuda, "cuDevicePrimaryCtxRetain");
        auto cuSet = sym<int (*)(void*)>(cuda, "cuCtxSetCurrent");
        auto cuLoad = sym<int (*)(void**, const void*)>(cuda, "cuModuleLoadData");
        auto cuUnload = sym<int (*)(void*)>(cuda, "cuModuleUnload");
        auto cuLinkCreate = sym<int (*)(unsigned, void*, void*, void**)>(cuda, "cuLinkCreate_v2");
        auto cuLinkAddData = sym<int (*)(void*, int, void*, size_t, const char*, unsigned, void*, void*)>(cuda, "cuLinkAddData_v2");
        auto cuLinkComplete = sym<int (*)(void*, void**, size_t*)>(cuda, "cuLinkComplete");
        auto cuLinkDestroy = sym<int (*)(void*)>(cuda, "cuLinkDestroy");
        int dev = 0;
        void* ctx = nullptr;
        if (cuInit(0) || cuDeviceGet(&dev, 0) || cuRetain(&ctx, dev) || cuSet(ctx)) { std::fprintf(stderr, "no context\n"); return 1; }
        auto load = [&](const std::string& ptx) {
            void* m = nullptr;
            if (cuLoad(&m, ptx.c_str())) { std::fprintf(stderr, "cuModuleLoadData failed\n"); std::exit(1); }
            cuUnload(m);
            return ptx.size();
        };
        report("libNVVM + driver JIT (a*a + b)", [&] { return load(run_nvvm(false)); });
        report("libNVVM + driver JIT (sin)", [&] { return load(run_nvvm(true)); });
        auto linked = [&](const std::string& ptx) {
            void* st = nullptr;
            cuLinkCreate(0, nullptr, nullptr, &st);
            if (cuLinkAddData(st, 1 /* CU_JIT_INPUT_PTX */, const_cast<char*>(ptx.c_str()), ptx.size() + 1, "k", 0, nullptr, nullptr)) {
                std::fprintf(stderr, "cuLinkAddData failed\n"); std::exit(1);
            }
            void* cubin = nullptr;
            size_t n = 0;
            if (cuLinkComplete(st, &cubin, &n)) { std::fprintf(stderr, "cuLinkComplete failed\n"); std::exit(1); }
            cuLinkDestroy(st);
            return n;
        };
        report("libNVVM + driver cuLink (a*a + b) -> cubin", [&] { return linked(run_nvvm(false)); });
    }
    return 0;
}
