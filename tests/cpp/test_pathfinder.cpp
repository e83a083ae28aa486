// The pathfinder's search order and its report of every place tried, on a fake file tree and
// a fake OS loader.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstdlib>
#include <fstream>
#include <map>
#include "backend/cuda/pathfinder.h"
#include "support/files.h"

using namespace simt;

namespace {

class Pathfinder : public ::testing::Test {
protected:
    void SetUp() override {
        char dir[] = "/tmp/simt-pathfinder-XXXXXX";
        ASSERT_NE(::mkdtemp(dir), nullptr);
        root_ = dir;
        in_.default_root = root_ + "/usr-local-cuda";
        in_.os_loader = [this](const std::string& name, std::string* error) -> std::string {
            auto it = loadable_.find(name);
            if (it != loadable_.end()) return it->second;
            *error = name + ": cannot open shared object file";
            return "";
        };
    }
    void TearDown() override { run_process({"/bin/rm", "-rf", root_}); }

    std::string touch(const std::string& rel) {
        std::string path = root_ + "/" + rel;
        run_process({"/bin/mkdir", "-p", path.substr(0, path.rfind('/'))});
        std::ofstream(path) << "x";
        return path;
    }

    std::string root_;
    SearchInputs in_;
    std::map<std::string, std::string> loadable_;
};

bool mentions(const SearchResult& r, const std::string& text) {
    for (const std::string& t : r.tried)
        if (t.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_F(Pathfinder, NewestVersionedNvrtcInADirectoryWins) {
    touch("lib/libnvrtc.so");
    touch("lib/libnvrtc.so.12");
    touch("lib/libnvrtc.so.13.0.88");
    touch("lib/libnvrtc.so.13");
    touch("lib/libnvrtc-builtins.so.13.0");
    touch("lib/libnvrtc.alt.so.13");
    EXPECT_EQ(newest_nvrtc_in(root_ + "/lib"), root_ + "/lib/libnvrtc.so.13.0.88");
    touch("only-plain/libnvrtc.so");
    EXPECT_EQ(newest_nvrtc_in(root_ + "/only-plain"), root_ + "/only-plain/libnvrtc.so");
    touch("builtins-only/libnvrtc-builtins.so.13.0");
    EXPECT_EQ(newest_nvrtc_in(root_ + "/builtins-only"), "");
    EXPECT_EQ(newest_nvrtc_in(root_ + "/missing"), "");
}

TEST_F(Pathfinder, CudaPathComesFirst) {
    std::string want = touch("cudapath/lib64/libnvrtc.so.12");
    touch("sp/nvidia/cu13/lib/libnvrtc.so.13");
    loadable_["libnvrtc.so.13"] = "/somewhere/libnvrtc.so.13";
    in_.cuda_path = root_ + "/cudapath";
    in_.site_packages = {root_ + "/sp"};
    SearchResult r = find_nvrtc(in_);
    EXPECT_EQ(r.path, want);
    EXPECT_EQ(r.found_by, "CUDA_PATH");
}

TEST_F(Pathfinder, CudaHomeAndTargetsLayout) {
    std::string want = touch("home/targets/x86_64-linux/lib/libnvrtc.so.13");
#if defined(__aarch64__)
    want = touch("home/targets/sbsa-linux/lib/libnvrtc.so.13");
#endif
    in_.cuda_home = root_ + "/home";
    SearchResult r = find_nvrtc(in_);
    EXPECT_EQ(r.path, want);
    EXPECT_EQ(r.found_by, "CUDA_HOME");
    EXPECT_TRUE(mentions(r, "$CUDA_PATH: not set"));
    EXPECT_TRUE(mentions(r, root_ + "/home/lib64 (CUDA_HOME): no libnvrtc.so*"));
}

TEST_F(Pathfinder, WheelsInSitePackagesBeforeTheOsLoader) {
    std::string cu12 = touch("sp2/nvidia/cuda_nvrtc/lib/libnvrtc.so.12");
    loadable_["libnvrtc.so.13"] = "/usr/lib/libnvrtc.so.13";
    in_.site_packages = {root_ + "/sp1", root_ + "/sp2"};
    SearchResult r = find_nvrtc(in_);
    EXPECT_EQ(r.path, cu12);
    EXPECT_EQ(r.found_by, "site-packages");
    EXPECT_TRUE(mentions(r, root_ + "/sp1/nvidia/cu13/lib (NVIDIA wheel)"));
    std::string cu13 = touch("sp2/nvidia/cu13/lib/libnvrtc.so.13");
    EXPECT_EQ(find_nvrtc(in_).path, cu13);  // the CUDA 13 wheel layout is tried first
}

TEST_F(Pathfinder, OsLoaderBeforeUsrLocalCuda) {
    touch("usr-local-cuda/lib64/libnvrtc.so.13");
    loadable_["libnvrtc.so.12"] = "/opt/lib/libnvrtc.so.12";
    SearchResult r = find_nvrtc(in_);
    EXPECT_EQ(r.path, "/opt/lib/libnvrtc.so.12");
    EXPECT_EQ(r.found_by, "OS loader");
    EXPECT_TRUE(mentions(r, "OS loader, libnvrtc.so.13: libnvrtc.so.13: cannot open shared object file"));
    loadable_.clear();
    r = find_nvrtc(in_);
    EXPECT_EQ(r.path, root_ + "/usr-local-cuda/lib64/libnvrtc.so.13");
    EXPECT_EQ(r.found_by, in_.default_root);
}

TEST_F(Pathfinder, NothingFoundListsEveryPlaceTried) {
    in_.cuda_path = root_ + "/nope";
    in_.site_packages = {root_ + "/sp"};
    SearchResult r = find_nvrtc(in_);
    EXPECT_FALSE(r.found());
    std::string msg = r.not_found_message("NVRTC (libnvrtc.so)", "Install the CUDA toolkit.");
    EXPECT_EQ(msg.rfind("NVRTC (libnvrtc.so) was not found. Looked in:\n  - ", 0), 0u) << msg;
    for (const std::string& place :
         {root_ + "/nope/lib64 (CUDA_PATH)", std::string("$CUDA_HOME: not set"), root_ + "/sp/nvidia/cu13/lib",
          root_ + "/sp/nvidia/cuda_nvrtc/lib", std::string("OS loader, libnvrtc.so.13"), std::string("OS loader, libnvrtc.so:"),
          in_.default_root + "/lib64", in_.default_root + "/lib ("})
        EXPECT_NE(msg.find(place), std::string::npos) << place << "\n" << msg;
    EXPECT_NE(msg.find("\nInstall the CUDA toolkit."), std::string::npos);
}

TEST_F(Pathfinder, LibcudaOnlyThroughTheOsLoader) {
    touch("cudapath/lib64/libcuda.so.1");
    in_.cuda_path = root_ + "/cudapath";
    SearchResult r = find_libcuda(in_);
    EXPECT_FALSE(r.found());
    ASSERT_EQ(r.tried.size(), 2u);
    EXPECT_EQ(r.tried[0], "OS loader, libcuda.so.1: libcuda.so.1: cannot open shared object file");
    loadable_["libcuda.so.1"] = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
    r = find_libcuda(in_);
    EXPECT_EQ(r.path, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
    EXPECT_EQ(r.found_by, "OS loader");
}

TEST_F(Pathfinder, IncludeDirectoryAndLibdevice) {
    std::string nvrtc = touch("toolkit/lib64/libnvrtc.so.13");
    touch("toolkit/include/cuda_runtime.h");
    SearchResult inc = find_cuda_include(in_, nvrtc);
    EXPECT_EQ(inc.path, root_ + "/toolkit/include");
    EXPECT_EQ(inc.found_by, "next to NVRTC");
    touch("sp/nvidia/cuda_runtime/include/cuda_runtime.h");
    in_.site_packages = {root_ + "/sp"};
    EXPECT_EQ(find_cuda_include(in_, nvrtc).path, root_ + "/sp/nvidia/cuda_runtime/include");
    in_.cuda_home = root_ + "/home";
    touch("home/include/cuda_runtime.h");
    EXPECT_EQ(find_cuda_include(in_, nvrtc).found_by, "CUDA_HOME");

    EXPECT_FALSE(find_libdevice(in_).found());
    std::string bc = touch("usr-local-cuda/nvvm/libdevice/libdevice.10.bc");
    SearchResult lib = find_libdevice(in_);
    EXPECT_EQ(lib.path, bc);
    EXPECT_TRUE(mentions(lib, root_ + "/home/nvvm/libdevice/libdevice.10.bc (CUDA_HOME): not found"));
}

TEST_F(Pathfinder, SystemInputsComeFromTheEnvironment) {
    ::setenv("CUDA_PATH", "/x/cuda", 1);
    set_python_site_packages({"/a/site-packages"});
    SearchInputs in = system_search_inputs();
    EXPECT_EQ(in.cuda_path, "/x/cuda");
    EXPECT_EQ(in.site_packages, std::vector<std::string>{"/a/site-packages"});
    EXPECT_TRUE(bool(in.os_loader));
    std::string error;
    EXPECT_EQ(in.os_loader("libsimt-surely-missing.so.7", &error), "");
    EXPECT_NE(error.find("libsimt-surely-missing.so.7"), std::string::npos);
    EXPECT_NE(in.os_loader("libc.so.6", &error).find("libc.so.6"), std::string::npos);  // resolved to a path
    ::unsetenv("CUDA_PATH");
    set_python_site_packages({});
}
