#include <gtest/gtest.h>
#include "sema/sema.h"
#include "support/error.h"
#include "test_helpers.h"

using namespace simt;

static std::unique_ptr<CompileUnit> analyze(const std::string& text, std::vector<const Type*> args,
                                            GlobalResolver resolve = test::standard_names) {
    return analyze_kernel(test::source(text), resolve, args, CompileOptions{});
}

static const Type* local_type(const CompileUnit& u, const std::string& name) {
    for (const auto& [n, t] : u.kernel->locals) if (n == name) return t;
    return nullptr;
}

static const Type* f64_1d() { return array_type(DType::Float64, 1, Layout::C); }

TEST(Sema, LocalsUnifyAcrossAssignments) {
    auto u = analyze(
        "def k(A):\n"
        "    s = 0\n"
        "    for i in range(A.shape[0]):\n"
        "        s += A[i]\n"
        "    n = len(A)\n"
        "    q = n // 2\n"
        "    r = n / 2\n"
        "    A[0] = s\n",
        {f64_1d()});
    EXPECT_EQ(local_type(*u, "s"), float64_type());
    EXPECT_EQ(local_type(*u, "i"), int64_type());
    EXPECT_EQ(local_type(*u, "n"), int64_type());
    EXPECT_EQ(local_type(*u, "q"), int64_type());
    EXPECT_EQ(local_type(*u, "r"), float64_type());
}

TEST(Sema, ThreadIndexingAndGrid) {
    auto u = analyze(
        "def k(A):\n"
        "    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x\n"
        "    x, y = cuda.grid(2)\n"
        "    t = cuda.grid(3)\n"
        "    w = cuda.warpsize\n",
        {f64_1d()});
    EXPECT_EQ(local_type(*u, "i"), int64_type());
    EXPECT_EQ(local_type(*u, "x"), int64_type());
    EXPECT_EQ(local_type(*u, "t")->str(), "UniTuple(int64 x 3)");
    EXPECT_EQ(local_type(*u, "w"), scalar_type(DType::Int32));
}

TEST(Sema, Float32StaysFloat32UnlessMixedWithFloat64) {
    const Type* f32 = array_type(DType::Float32, 1, Layout::C);
    auto u = analyze(
        "def k(A):\n"
        "    a = A[0] * A[1]\n"
        "    b = A[0] * 2.0\n"
        "    c = math.sqrt(A[0])\n"
        "    d = np.float32(b)\n",
        {f32});
    EXPECT_EQ(local_type(*u, "a"), scalar_type(DType::Float32));
    EXPECT_EQ(local_type(*u, "b"), float64_type());
    EXPECT_EQ(local_type(*u, "c"), scalar_type(DType::Float32));
    EXPECT_EQ(local_type(*u, "d"), scalar_type(DType::Float32));
}

TEST(Sema, GlobalsAreFrozenConstants) {
    auto u = analyze("def k(A):\n    x = N * 2\n    y = SCALE\n", {f64_1d()});
    EXPECT_EQ(local_type(*u, "x"), int64_type());
    EXPECT_EQ(local_type(*u, "y"), float64_type());
}

static std::string typing_error(const std::string& text, std::vector<const Type*> args) {
    try {
        analyze(text, args);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

TEST(Sema, IterablesYieldWhatNumbaTypes) {
    const Type* u64 = array_type(DType::UInt64, 1, Layout::C);
    const Type* i32 = array_type(DType::Int32, 1, Layout::C);
    auto u = analyze(
        "def k(A, U, I):\n"
        "    for i, (a, r) in enumerate(zip(A, range(3)), 5):\n"
        "        pass\n"
        "    for n, v in enumerate(range(U[0])):\n"
        "        pass\n"
        "    for w in (I[0], I[1]):\n"
        "        pass\n"
        "    for pair in zip(I, A):\n"
        "        pass\n"
        "    q, m = divmod(I[0], I[1])\n"
        "    fq, fm = divmod(A[0], 2)\n"
        "    s = operator.add(I[0], I[1])\n"
        "    c = operator.lt(A[0], 1)\n",
        {f64_1d(), u64, i32});
    EXPECT_EQ(local_type(*u, "i"), int64_type());
    EXPECT_EQ(local_type(*u, "a"), float64_type());
    EXPECT_EQ(local_type(*u, "r"), int64_type());
    EXPECT_EQ(local_type(*u, "n"), int64_type());
    EXPECT_EQ(local_type(*u, "v"), scalar_type(DType::UInt64));  // numba's unsigned range
    EXPECT_EQ(local_type(*u, "w"), scalar_type(DType::Int32));
    EXPECT_EQ(local_type(*u, "pair")->str(), "Tuple(int32, float64)");
    EXPECT_EQ(local_type(*u, "q"), int64_type());  // as I[0] // I[1]
    EXPECT_EQ(local_type(*u, "fm"), float64_type());
    EXPECT_EQ(local_type(*u, "s"), int64_type());  // as I[0] + I[1]
    EXPECT_EQ(local_type(*u, "c"), bool_type());

    std::string e = typing_error("def k(A):\n    for i, v in enumerate(A, 1.0):\n        pass\n", {f64_1d()});
    EXPECT_NE(e.find("enumerate() start must be an integer, not float64"), std::string::npos) << e;
    e = typing_error("def k(A):\n    for a, b in zip(A, 2):\n        pass\n", {f64_1d()});
    EXPECT_NE(e.find("line 2"), std::string::npos) << e;
    EXPECT_NE(e.find("cannot iterate over a value of type int64"), std::string::npos) << e;
    e = typing_error("def k(A):\n    for v in A:\n        pass\n", {array_type(DType::Float64, 0, Layout::C)});
    EXPECT_NE(e.find("iteration over a 0-d array"), std::string::npos) << e;
}

TEST(Sema, ErrorsNameTheProblemAndPlace) {
    std::string e = typing_error("def k(A, x):\n    y = x[0]\n", {f64_1d(), float64_type()});
    EXPECT_NE(e.find("cannot index a float64"), std::string::npos) << e;
    EXPECT_NE(e.find("line 2"), std::string::npos) << e;
    EXPECT_NE(e.find("        y = x[0]\n            ^"), std::string::npos) << e;

    e = typing_error("def k(A):\n    A[0] = undefined_name\n", {f64_1d()});
    EXPECT_NE(e.find("name 'undefined_name' is not defined"), std::string::npos) << e;

    e = typing_error("def k(A):\n    return 1\n", {f64_1d()});
    EXPECT_NE(e.find("kernel cannot return a value"), std::string::npos) << e;

    e = typing_error("def k(A):\n    A[0.5] = 1\n", {f64_1d()});
    EXPECT_NE(e.find("array index must be an integer, not float64"), std::string::npos) << e;

    e = typing_error("def k(A):\n    A[0, 1] = 1\n", {f64_1d()});
    EXPECT_NE(e.find("too many indices"), std::string::npos) << e;

    e = typing_error("def k(A):\n    x = 1\n    x = (1, 2)\n", {f64_1d()});
    EXPECT_NE(e.find("cannot unify int64 and UniTuple(int64 x 2)"), std::string::npos) << e;

    e = typing_error("def k(A):\n    x = math.nosuch(1.0)\n", {f64_1d()});
    EXPECT_NE(e.find("'math.nosuch' is not supported"), std::string::npos) << e;

    e = typing_error("def k(A):\n    x = A + A\n", {f64_1d()});
    EXPECT_NE(e.find("whole-array arithmetic"), std::string::npos) << e;

    e = typing_error("def k(A):\n    x = y + 1\n", {f64_1d()});
    EXPECT_NE(e.find("name 'y' is not defined"), std::string::npos) << e;
}

TEST(Sema, WrongArgumentCountIsATypeError) {
    try {
        analyze("def k(A, B):\n    pass\n", {f64_1d()});
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Type);
        EXPECT_NE(std::string(e.what()).find("takes 2 arguments but 1 were given"), std::string::npos);
    }
}

TEST(Sema, DeviceFunctionsSpecializeAndRecursionIsRejected) {
    auto twice = std::make_shared<DeviceFunctionRef>();
    twice->key = "twice@1";
    twice->name = "twice";
    twice->source = test::source("def twice(x):\n    return x * 2, x\n", "/tmp/dev.py");
    twice->resolve = test::standard_names;
    auto resolve = [twice](const std::string& n) {
        if (n == "twice") {
            GlobalValue g;
            g.kind = GlobalValue::Kind::DeviceFunction;
            g.device_function = twice;
            return g;
        }
        return test::standard_names(n);
    };
    auto u = analyze("def k(A):\n    a, b = twice(A[0])\n    c, d = twice(1)\n", {f64_1d()}, resolve);
    EXPECT_EQ(local_type(*u, "a"), float64_type());
    EXPECT_EQ(local_type(*u, "c"), int64_type());
    EXPECT_EQ(u->kernel->callees.size(), 2u);

    auto rec = std::make_shared<DeviceFunctionRef>();
    rec->key = "rec@1";
    rec->name = "rec";
    rec->source = test::source("def rec(x):\n    return rec(x - 1)\n", "/tmp/rec.py");
    std::weak_ptr<DeviceFunctionRef> weak = rec;
    auto rec_resolve = [weak](const std::string& n) {
        if (n == "rec") {
            GlobalValue g;
            g.kind = GlobalValue::Kind::DeviceFunction;
            g.device_function = weak.lock();
            return g;
        }
        return test::standard_names(n);
    };
    rec->resolve = rec_resolve;
    try {
        analyze("def k(A):\n    A[0] = rec(3)\n", {f64_1d()}, rec_resolve);
        FAIL() << "recursion must be rejected";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("recursive device function calls are not supported"), std::string::npos) << e.what();
    }
}
