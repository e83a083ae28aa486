#include <gtest/gtest.h>
#include <sys/stat.h>
#include <cstdlib>
#include "runtime/disk_cache.h"
#include "support/files.h"
#include "support/sha256.h"

using namespace simt;

TEST(Sha256, KnownVectors) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(DiskCache, StoreLookupAndCorruption) {
    char dir[] = "/tmp/simt-cache-test-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    DiskCache cache(dir);
    std::string key = sha256_hex("some kernel");
    std::string path;
    EXPECT_FALSE(cache.lookup("cpu", key, ".bin", path));
    cache.store("cpu", key, ".bin", "payload bytes");
    std::string bytes;
    ASSERT_TRUE(cache.lookup("cpu", key, ".bin", path, &bytes));
    EXPECT_EQ(bytes, "payload bytes");
    struct stat st;
    ASSERT_EQ(::stat((std::string(dir) + "/cpu").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    write_file_atomic(path, "corrupted!");
    EXPECT_FALSE(cache.lookup("cpu", key, ".bin", path));  // checksum mismatch: treated as a miss
    EXPECT_FALSE(file_exists(path));                       // and removed
}

TEST(Files, RunProcessCapturesOutputWithoutAShell) {
    ProcessResult r = run_process({find_in_path("sh"), "-c", "echo out; echo err 1>&2; exit 3"});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_NE(r.output.find("out"), std::string::npos);
    EXPECT_NE(r.output.find("err"), std::string::npos);
}
