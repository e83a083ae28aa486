// cuda.declare_device declarations (sema/foreign.cpp) and the scans of linked CUDA C++
// (codegen/raw_module.cpp): what a signature declares, and when a file counts as defining a function.
#include <gtest/gtest.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include "codegen/raw_module.h"
#include "sema/foreign.h"
#include "support/cuda_text.h"
#include "support/error.h"

using namespace simt;

TEST(Foreign, SignatureDeclaresScalarsPointersAndVoid) {
    auto f = declare_foreign_function("f", "float64(int32, CPointer(float32), voidptr, float64)", {"a.cu"});
    EXPECT_EQ(f->return_type, scalar_type(DType::Float64));
    ASSERT_EQ(f->params.size(), 4u);
    EXPECT_EQ(f->params[0].kind, ForeignParam::Kind::Scalar);
    EXPECT_EQ(f->params[0].dtype, DType::Int32);
    EXPECT_EQ(f->params[1].kind, ForeignParam::Kind::Pointer);
    EXPECT_EQ(f->params[1].dtype, DType::Float32);
    EXPECT_EQ(f->params[2].kind, ForeignParam::Kind::VoidPointer);
    EXPECT_EQ(f->params[3].dtype, DType::Float64);
    EXPECT_EQ(f->link, std::vector<std::string>{"a.cu"});
    auto g = declare_foreign_function("g", "void()", {});
    EXPECT_EQ(g->return_type, void_type());
    EXPECT_TRUE(g->params.empty());
}

TEST(Foreign, SignatureErrorsNameTheDeclaration) {
    for (const char* bad : {"float32(float32[:])", "complex128(float64)", "float32(float16)", "float32", "(int32)",
                            "int32(int32,)"}) {
        try {
            declare_foreign_function("f", bad, {});
            ADD_FAILURE() << bad << " was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::Type) << bad;
            EXPECT_NE(std::string(e.what()).find(std::string("cuda.declare_device('f', '") + bad + "')"), std::string::npos)
                << e.what();
        }
    }
}

TEST(Foreign, AFunctionIsMentionedOnlyAsACallableIdentifier) {
    const std::string code =
        "// mul(float* r) in a comment\n"
        "const char* s = \"mul(\";\n"
        "extern \"C\" __device__ int mul_f32 (float* r, float x) { *r = x; return 0; }\n"
        "int premul = 0;\n";
    EXPECT_TRUE(cuda_code_mentions(code, "mul_f32"));
    EXPECT_FALSE(cuda_code_mentions(code, "mul"));
    EXPECT_FALSE(cuda_code_mentions(code, "premul"));
}

TEST(Foreign, LinkedCodeWithBarriersRunsAsFibers) {
    EXPECT_TRUE(linked_code_waits({{"a.cu", "__device__ void f() { __syncthreads(); }"}}));
    EXPECT_TRUE(linked_code_waits({{"a.cu", "int x;"}, {"b.cu", "__device__ int f(int v) { return __shfl_sync(~0u, v, 0); }"}}));
    EXPECT_FALSE(linked_code_waits({{"a.cu", "// __syncthreads() only in a comment\n__device__ int f() { return 1; }"}}));
}

TEST(Foreign, BinaryFilesAndMissingFilesCannotBeLinked) {
    for (const char* path : {"/tmp/x.ptx", "/tmp/x.cubin", "/tmp/x.fatbin", "/tmp/x.o", "/tmp/x.a", "/tmp/x.LTOIR"}) {
        try {
            read_linked_source(path);
            ADD_FAILURE() << path;
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::Compiler);
            EXPECT_NE(std::string(e.what()).find("cannot be linked"), std::string::npos) << e.what();
        }
    }
    try {
        read_linked_source("/nonexistent/dir/f.cu");
        ADD_FAILURE();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot read the file"), std::string::npos) << e.what();
    }
}

TEST(Foreign, IncludeLinesAreFoundOutsideCommentsAndLiterals) {
    auto names = [](const std::string& code) {
        std::vector<std::string> out;
        for (const cuda_text::Include& i : cuda_text::includes(code)) out.push_back((i.quoted ? "q:" : "a:") + i.name);
        return out;
    };
    EXPECT_EQ(names("#include \"helper.cuh\"\n"), std::vector<std::string>{"q:helper.cuh"});
    EXPECT_EQ(names("int x;\n  #  include \"a/b.h\"\n#include <c.h>"), (std::vector<std::string>{"q:a/b.h", "a:c.h"}));
    EXPECT_TRUE(names("// #include \"commented.h\"\n/* #include \"x.h\" */\n").empty());
    EXPECT_TRUE(names("const char* s = \"#include \\\"x.h\\\"\";\n").empty());
}

TEST(Foreign, IncludedFilesAreReadWhereTheCompilersLook) {
    // a.cu includes "inc/b.h" (beside it), which includes "c.h" (beside b.h) and "d.h" (beside
    // the other linked file only); c.h includes b.h back (a cycle) and a file that is nowhere.
    namespace fs = std::filesystem;
    fs::path root = fs::temp_directory_path() / ("simt-included-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    fs::create_directories(root / "one" / "inc");
    fs::create_directories(root / "two");
    auto write = [](const fs::path& p, const std::string& text) { std::ofstream(p) << text; };
    write(root / "one" / "a.cu", "#include \"inc/b.h\"\n");
    write(root / "one" / "inc" / "b.h", "#include \"c.h\"\n#include \"d.h\"\n");
    write(root / "one" / "inc" / "c.h", "#include \"b.h\"\n#include \"nowhere.h\"\nint c;\n");
    write(root / "two" / "d.h", "__device__ void d() { __syncthreads(); }\n");
    write(root / "two" / "e.cu", "int e;\n");
    std::vector<LinkedSource> sources{read_linked_source((root / "one" / "a.cu").string()),
                                      read_linked_source((root / "two" / "e.cu").string())};
    read_included_files(sources);
    read_included_files(sources);  // (again: the same files, not twice)
    std::vector<std::string> names;
    for (const IncludedFile& f : sources[0].included.files) names.push_back(fs::path(f.path).filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"b.h", "c.h", "d.h"}));
    EXPECT_TRUE(sources[0].included.unfound_quoted);
    EXPECT_TRUE(sources[1].included.files.empty());
    EXPECT_FALSE(sources[1].included.unfound_quoted);
    EXPECT_TRUE(linked_code_waits(sources));  // (the barrier is in d.h, two includes down)
    fs::remove_all(root);
}
