#include <gtest/gtest.h>
#include "codegen/emitter.h"
#include "sema/sema.h"
#include "test_helpers.h"

using namespace simt;

static GeneratedSource generate(const std::string& text, std::vector<const Type*> args, Target target,
                                CompileOptions options = {}) {
    auto unit = analyze_kernel(test::source(text), test::standard_names, args, options);
    return emit_unit(*unit, target);
}

static const Type* f32_2d() { return array_type(DType::Float32, 2, Layout::C); }

TEST(Codegen, LineDirectivesPointAtThePythonFile) {
    GeneratedSource g = generate("def k(A):\n    i, j = cuda.grid(2)\n    A[i, j] = 1\n", {f32_2d()}, Target::Cpu);
    EXPECT_NE(g.user_code.find("#line 2 \"/tmp/simt_test_kernel.py\""), std::string::npos) << g.user_code;
    EXPECT_NE(g.user_code.find("#line 3 \"/tmp/simt_test_kernel.py\""), std::string::npos) << g.user_code;
    EXPECT_EQ(g.entry_name, "k");
    // The user code is what inspect_source() shows; the prelude is not repeated there.
    EXPECT_EQ(g.user_code.find("simt_run_blocks(const simt_launch"), std::string::npos);
    EXPECT_NE(g.full_source.find(g.user_code.substr(g.user_code.find("#line 2"))), std::string::npos);
}

TEST(Codegen, ReadableNamesAndExplicitConversions) {
    GeneratedSource g = generate(
        "def k(A, new):\n"
        "    total = 0.0\n"
        "    for row in range(A.shape[0]):\n"
        "        total += A[row, 0] * new\n"
        "    A[0, 0] = total\n",
        {f32_2d(), int64_type()}, Target::Cpu);
    EXPECT_NE(g.user_code.find("double total = {};"), std::string::npos) << g.user_code;
    EXPECT_NE(g.user_code.find("int64_t row = {};"), std::string::npos) << g.user_code;
    EXPECT_NE(g.user_code.find("int64_t new_"), std::string::npos) << g.user_code;  // C++ keyword avoided
    EXPECT_NE(g.user_code.find("A.shape[0]"), std::string::npos) << g.user_code;
    EXPECT_NE(g.user_code.find("simt_store(ctx, A, "), std::string::npos) << g.user_code;
    EXPECT_NE(g.user_code.find("(float)(total)"), std::string::npos) << g.user_code;
}

TEST(Codegen, TargetsDifferOnlyInTheEntryPointAndPrelude) {
    const std::string text = "def k(A):\n    A[0, 0] = math.sqrt(A[0, 1])\n";
    GeneratedSource cpu = generate(text, {f32_2d()}, Target::Cpu);
    GeneratedSource cuda = generate(text, {f32_2d()}, Target::Cuda);
    EXPECT_NE(cuda.user_code.find("extern \"C\" __global__ void k("), std::string::npos);
    EXPECT_NE(cpu.user_code.find("extern \"C\" SIMT_EXPORT void k(const simt_launch* launch"), std::string::npos);
    std::string body_cpu = cpu.user_code.substr(0, cpu.user_code.find("simt-generated"));
    std::string body_cuda = cuda.user_code.substr(0, cuda.user_code.find("simt-generated"));
    EXPECT_EQ(body_cpu, body_cuda);
    EXPECT_NE(body_cpu.find("sqrtf("), std::string::npos);  // float32 math stays float32
}

// Every kernel's source starts with the same prelude text (NVRTC precompiles it once); the bounds
// mode follows it.
TEST(Codegen, BoundsModeFollowsTheSharedPrelude) {
    for (Target target : {Target::Cpu, Target::Cuda}) {
        CompileOptions o;
        o.bounds = BoundsMode::Checked;
        GeneratedSource g = generate("def k(A):\n    A[0, 0] = 1\n", {f32_2d()}, target, o);
        const std::string& prelude = prelude_source(target);
        ASSERT_EQ(g.full_source.compare(0, prelude.size(), prelude), 0);
        size_t config = g.full_source.find("struct simt_bounds_config { static constexpr int mode = SIMT_BOUNDS_CHECKED; }");
        EXPECT_NE(config, std::string::npos);
        EXPECT_GT(config, prelude.size());
        EXPECT_EQ(prelude.find("#if SIMT_BOUNDS"), std::string::npos);
    }
}

// range() loop variables that the body leaves alone are tagged with their stop; others are not.
TEST(Codegen, RangeLoopIndicesCarryTheirStop) {
    const Type* f32_1d = array_type(DType::Float32, 1, Layout::C);
    auto body = [&](const std::string& loop) {
        return generate("def k(A):\n    " + loop + "\n        A[j] = 1\n", {f32_1d}, Target::Cuda).user_code;
    };
    EXPECT_NE(body("for j in range(8):").find("simt_ranged((uint64_t)(j), simt_stop"), std::string::npos);
    EXPECT_NE(body("for j in range(2, A.size, 3):").find("simt_ranged((uint64_t)(j), simt_stop"), std::string::npos);
    EXPECT_EQ(body("for j in range(-2, 8):").find("simt_ranged"), std::string::npos);       // may be negative
    EXPECT_EQ(body("for j in range(8, 0, -1):").find("simt_ranged"), std::string::npos);    // counts down
    std::string rebinds = generate("def k(A):\n    for j in range(8):\n        j += 1\n        A[j] = 1\n", {f32_1d},
                                   Target::Cuda).user_code;
    EXPECT_EQ(rebinds.find("simt_ranged"), std::string::npos);
    std::string inner = generate("def k(A):\n    for j in range(8):\n        for j in range(3):\n            pass\n        A[j] = 1\n",
                                 {f32_1d}, Target::Cuda).user_code;
    EXPECT_EQ(inner.find("simt_ranged(j"), std::string::npos);  // an inner loop rebinds j
}
