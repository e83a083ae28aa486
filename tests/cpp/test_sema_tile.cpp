// Typing of simt.cuda.tile in kernels: tile types (shapes, NumPy promotion with weak scalars,
// broadcasting), reductions, mma, the scratch memory a unit records, and the misuse errors.
#include <gtest/gtest.h>
#include "codegen/emitter.h"
#include "sema/sema.h"
#include "support/error.h"
#include "test_helpers.h"

using namespace simt;

namespace {

GlobalValue names(const std::string& name) {
    if (name == "ct") return GlobalValue::module("tile");
    return test::standard_names(name);
}

const Type* f32_array(int ndim) { return array_type(DType::Float32, ndim, Layout::C); }

std::unique_ptr<CompileUnit> unit_of(const std::string& body, const std::vector<const Type*>& args, bool tile_kernel = true) {
    CompileOptions options;
    options.tile_kernel = tile_kernel;  // (what @tile.kernel compiles with)
    return analyze_kernel(test::source("def k(x, y):\n" + body), names, args, options);
}

// The type of local `r` after `body` (x: a 2-D float32 array, y: a 1-D int32 array).
const Type* type_of_r(const std::string& body) {
    auto u = unit_of(body, {f32_array(2), array_type(DType::Int32, 1, Layout::C)});
    for (const auto& [n, t] : u->kernel->locals) if (n == "r") return t;
    return nullptr;
}

std::string typing_error(const std::string& body) {
    try {
        type_of_r(body);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

const std::string kLoad = "    t = ct.load(x, index=(0, 0), shape=(16, 32))\n    v = ct.load(y, index=(0,), shape=(32,))\n";

}  // namespace

TEST(SemaTile, TileTypesAndTheirSpelling) {
    const Type* t = tile_type(DType::Float32, {16, 32});
    EXPECT_EQ(t, tile_type(DType::Float32, {16, 32}));  // interned
    EXPECT_NE(t, tile_type(DType::Float32, {32, 16}));
    EXPECT_EQ(t->str(), "tile(float32, (16, 32))");
    EXPECT_EQ(tile_type(DType::Int8, {4})->str(), "tile(int8, (4,))");
    EXPECT_EQ(t->tile_size(), 512);
}

TEST(SemaTile, ElementwisePromotionAndBroadcasting) {
    EXPECT_EQ(type_of_r(kLoad + "    r = t\n"), tile_type(DType::Float32, {16, 32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = t * 2.5 + 1\n"), tile_type(DType::Float32, {16, 32}));  // weak scalars
    EXPECT_EQ(type_of_r(kLoad + "    r = t + v\n"), tile_type(DType::Float64, {16, 32}));  // float32 + int32 (NumPy)
    EXPECT_EQ(type_of_r(kLoad + "    r = v + v\n"), tile_type(DType::Int32, {32}));  // stays int32, unlike scalars
    EXPECT_EQ(type_of_r(kLoad + "    r = v / 2\n"), tile_type(DType::Float64, {32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = v + 0.5\n"), tile_type(DType::Float64, {32}));  // a float scalar with int tiles
    EXPECT_EQ(type_of_r(kLoad + "    r = t > 0\n"), tile_type(DType::Bool, {16, 32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.exp(v)\n"), tile_type(DType::Float64, {32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.where(t > 0, t, 0)\n"), tile_type(DType::Float32, {16, 32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = t.astype(ct.float16)\n"), tile_type(DType::Float16, {16, 32}));
}

TEST(SemaTile, ReductionsShapesAndMma) {
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.sum(t)\n"), scalar_type(DType::Float32));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.sum(v, axis=0)\n"), int64_type());  // NumPy: int32 sums to int64
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.max(t, axis=1)\n"), tile_type(DType::Float32, {16}));
    EXPECT_EQ(type_of_r(kLoad + "    r = t.argmin(axis=0, keepdims=True)\n"), tile_type(DType::Int64, {1, 32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.transpose(t)\n"), tile_type(DType::Float32, {32, 16}));
    EXPECT_EQ(type_of_r(kLoad + "    r = t.reshape((8, 64))\n"), tile_type(DType::Float32, {8, 64}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.expand_dims(v, 0)\n"), tile_type(DType::Int32, {1, 32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.mma(t, ct.transpose(t), ct.zeros((16, 16), dtype=ct.float64))\n"),
              tile_type(DType::Float64, {16, 16}));
    EXPECT_EQ(type_of_r(kLoad + "    r = t @ ct.transpose(t)\n"), tile_type(DType::Float32, {16, 16}));
    EXPECT_EQ(type_of_r(kLoad + "    r = t.shape\n"), tuple_type({int64_type(), int64_type()}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.sum(t, axis=(1, 0))\n"), scalar_type(DType::Float32));  // every axis
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.cat((t, t), axis=0)\n"), tile_type(DType::Float32, {32, 32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.atomic_add(y, v, 1)\n"), tile_type(DType::Int32, {32}));
}

TEST(SemaTile, UnitRecordsScratchForOperationsThatMoveElements) {
    auto plain = unit_of(kLoad + "    ct.store(x, index=(0, 0), tile=t * 2)\n", {f32_array(2), array_type(DType::Int32, 1, Layout::C)});
    EXPECT_TRUE(plain->uses_tiles);
    EXPECT_EQ(plain->tile_scratch_bytes, 0);
    auto moved = unit_of(kLoad + "    ct.store(x, index=(0, 0), tile=ct.transpose(ct.transpose(t)) + 1)\n",
                         {f32_array(2), array_type(DType::Int32, 1, Layout::C)});
    EXPECT_EQ(moved->tile_scratch_bytes, 16 * 32 * 4);
    // sums of int16 over two axes: the second step publishes int64 partial sums, which take more room
    auto narrow = unit_of("    t = ct.load(y, index=(0,), shape=(1024,)).astype(ct.int16).reshape((2, 8, 64))\n"
                          "    r = ct.sum(t, axis=(0, 1))\n", {f32_array(2), array_type(DType::Int32, 1, Layout::C)});
    EXPECT_EQ(narrow->tile_scratch_bytes, 8 * 64 * 8);
    GeneratedSource cuda = emit_unit(*moved, Target::Cuda);
    EXPECT_NE(cuda.user_code.find("__shared__ __align__(16) unsigned char simt_tile_scratch[2048];"), std::string::npos);
    EXPECT_NE(cuda.full_source.find("simt/prelude/tile.h"), std::string::npos);
    GeneratedSource cpu = emit_unit(*moved, Target::Cpu);
    EXPECT_EQ(cpu.user_code.find("__shared__"), std::string::npos);
}

TEST(SemaTile, Errors) {
    EXPECT_NE(typing_error("    r = ct.load(x, index=(0, 0), shape=(16, 24))\n").find("powers of two, not 24"), std::string::npos);
    EXPECT_NE(typing_error("    r = ct.load(x, index=(0,), shape=(16, 16))\n").find("index has 1 component(s)"), std::string::npos);
    EXPECT_NE(typing_error(kLoad + "    r = t + ct.zeros((16, 16))\n").find("do not broadcast"), std::string::npos);
    EXPECT_NE(typing_error(kLoad + "    ct.store(y, index=(0,), tile=v * 1.5)\n").find("convert it first"), std::string::npos);
    EXPECT_NE(typing_error(kLoad + "    r = t < t < t\n").find("in a chain"), std::string::npos);
    EXPECT_NE(typing_error(kLoad + "    r = not t\n").find("'not'"), std::string::npos);
    EXPECT_NE(typing_error(kLoad + "    r = ct.sum(t, axis=2)\n").find("out of range"), std::string::npos);
    EXPECT_NE(typing_error(kLoad + "    r = ct.mma(t, t, t)\n").find("(K, N) tile"), std::string::npos);
    EXPECT_NE(typing_error(kLoad + "    r = ct.cat((t, ct.transpose(t)), 0)\n").find("the shapes differ"), std::string::npos);
    EXPECT_NE(typing_error(kLoad + "    r = ct.argmax(t, axis=(0, 1))\n").find("one axis or None"), std::string::npos);
    EXPECT_NE(typing_error(kLoad + "    r = ct.atomic_and(x, v, 1)\n").find("does not apply to arrays of float32"), std::string::npos);
    EXPECT_NE(typing_error("    n = x.shape[0]\n    r = ct.zeros((n,))\n").find("known when the kernel compiles"), std::string::npos);
    EXPECT_NE(typing_error(kLoad + "    r = v + 5000000000\n").find("does not fit the int32"), std::string::npos);
    EXPECT_NE(typing_error("    r = ct.zeros((256, 256))\n").find("at most 32768 elements"), std::string::npos);
    try {  // tile operations belong to @tile.kernel functions
        unit_of(kLoad + "    r = t\n", {f32_array(2), array_type(DType::Int32, 1, Layout::C)}, false);
        ADD_FAILURE() << "a tile operation compiled in a @cuda.jit kernel";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("in @tile.kernel functions"), std::string::npos) << e.what();
    }
}

TEST(SemaTile, CompileTimeLocalsAndPrunedBranches) {
    // a dtype in a variable, chosen by a test decided when compiling
    EXPECT_EQ(type_of_r("    d = ct.float64 if x.dtype == ct.float32 else x.dtype\n"
                        "    r = ct.load(x, index=(0, 0), shape=(4, 4)).astype(d)\n"),
              tile_type(DType::Float64, {4, 4}));
    // a padding mode in a variable
    EXPECT_EQ(type_of_r("    pad = ct.PaddingMode.NAN\n    r = ct.load(x, index=(0, 0), shape=(4, 4), padding_mode=pad)\n"),
              tile_type(DType::Float32, {4, 4}));
    // `if` on a constant keeps the taken branch only: the other would not type-check
    EXPECT_EQ(type_of_r("    if N > 8 and not N == 3:\n        r = 1.5\n    else:\n        r = x + 1\n"), float64_type());
    EXPECT_EQ(type_of_r("    if N < 8:\n        r = x + 1\n    else:\n        r = 2\n"), int64_type());
    auto u = unit_of("    if N < 8:\n        y[0] = 7\n    else:\n        y[1] = 9\n", {f32_array(2), array_type(DType::Int32, 1, Layout::C)});
    GeneratedSource cpu = emit_unit(*u, Target::Cpu);
    EXPECT_EQ(cpu.user_code.find("(7L)"), std::string::npos);  // the pruned store is gone
    EXPECT_NE(cpu.user_code.find("(9L)"), std::string::npos);
    EXPECT_EQ(type_of_r("    r = 3 if None else (1, 2)\n"), tuple_type({int64_type(), int64_type()}));  // None is false
    EXPECT_NE(typing_error("    if N < 8:\n        def f(v):\n            return v\n    r = f(1)\n").find("'f' is not defined"),
              std::string::npos);  // a def in a pruned branch is gone, as in Python
    EXPECT_NE(typing_error("    s = 'a'\n    if N > 3:\n        s = 'b'\n    r = 1\n").find("one constant value"), std::string::npos);
}

TEST(SemaTile, OrderSliceNamedFunctionsAndHints) {
    // order= permutes the array's axes: the tile keeps the shape asked for
    EXPECT_EQ(type_of_r("    r = ct.load(x, index=(0, 0), shape=(8, 4), order=(1, 0))\n"), tile_type(DType::Float32, {8, 4}));
    EXPECT_EQ(type_of_r("    r = ct.load(x, index=(0, 0), shape=(8, 4), order='F')\n"), tile_type(DType::Float32, {8, 4}));
    EXPECT_NE(typing_error("    r = ct.load(x, index=(0, 0), shape=(8, 4), order=(1, 1))\n").find("permutation"), std::string::npos);
    // slices of rows of a C array stay C-contiguous; other axes give strided views
    EXPECT_EQ(type_of_r("    r = x.slice(0, 1, 5)\n"), array_type(DType::Float32, 2, Layout::C));
    EXPECT_EQ(type_of_r("    r = x.slice(1, 1, 5)\n"), array_type(DType::Float32, 2, Layout::A));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.greater(t, 0.5)\n"), tile_type(DType::Bool, {16, 32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.bitwise_not(v)\n"), tile_type(DType::Int32, {32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.atan2(v, v)\n"), tile_type(DType::Float64, {32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.isnan(t)\n"), tile_type(DType::Bool, {16, 32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.reshape(t, (-1, 16))\n"), tile_type(DType::Float32, {32, 16}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.max(t, axis=0, propagate_nan=True, flush_to_zero=True)\n"),
              tile_type(DType::Float32, {32}));
    EXPECT_NE(typing_error(kLoad + "    r = ct.bitwise_not(t)\n").find("integer or boolean"), std::string::npos);
    EXPECT_NE(typing_error(kLoad + "    r = ct.sum(t, latency=3)\n").find("latency"), std::string::npos);  // not a sum keyword
}

TEST(SemaTile, TiledViewsScansAndItem) {
    const Type* view = type_of_r("    r = x.tiled_view((8, 16), padding_mode=ct.PaddingMode.NAN)\n");
    ASSERT_EQ(view->kind, TypeKind::TiledView);
    EXPECT_EQ(view->str(), "TiledView(array(float32, 2d, C), (8, 16), nan)");
    EXPECT_EQ(type_of_r("    v = x.tiled_view((8, 16))\n    r = v.load((0, 1))\n"), tile_type(DType::Float32, {8, 16}));
    EXPECT_EQ(type_of_r("    v = x.tiled_view((8, 16))\n    r = v.num_tiles(1)\n"), scalar_type(DType::Int32));
    EXPECT_NE(typing_error("    v = x.tiled_view((8, 16))\n    r = v.stride\n").find("TiledView has no attribute 'stride'"),
              std::string::npos);
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.cumsum(v, reverse=True)\n"), tile_type(DType::Int64, {32}));  // NumPy's widening
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.cumprod(t, axis=1)\n"), tile_type(DType::Float32, {16, 32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.sum(t).item() if False else ct.sum(t, keepdims=True).item()\n"),
              scalar_type(DType::Float32));
    EXPECT_EQ(type_of_r(kLoad + "    r = max(t, 0.5)\n"), tile_type(DType::Float32, {16, 32}));
}

TEST(SemaTile, IndexingExtractBitcastAndCas) {
    EXPECT_EQ(type_of_r(kLoad + "    r = v[:, None]\n"), tile_type(DType::Int32, {32, 1}));
    EXPECT_EQ(type_of_r(kLoad + "    r = t[None]\n"), tile_type(DType::Float32, {1, 16, 32}));
    EXPECT_NE(typing_error(kLoad + "    r = t[0]\n").find("indexed only with ':' and None"), std::string::npos);
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.extract(t, (1, 0), (8, 32))\n"), tile_type(DType::Float32, {8, 32}));
    EXPECT_NE(typing_error(kLoad + "    r = ct.extract(t, (0, 0), (32, 32))\n").find("does not divide"), std::string::npos);
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.bitcast(t, ct.uint32)\n"), tile_type(DType::UInt32, {16, 32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.atomic_cas(y, ct.arange(32, dtype=ct.int32), v, v)\n"), tile_type(DType::Int32, {32}));
}

TEST(SemaTile, InsertAndCompileTimeHelpers) {
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.insert(t, (0, 1), ct.zeros((8, 16), dtype=ct.int32))\n"), tile_type(DType::Float32, {16, 32}));
    EXPECT_EQ(type_of_r(kLoad + "    r = ct.insert(t, (3, 4), 2.5)\n"), tile_type(DType::Float32, {16, 32}));
    EXPECT_NE(typing_error(kLoad + "    r = ct.insert(t, (0, 0), ct.zeros((32, 32), dtype=ct.float32))\n").find("does not divide"),
              std::string::npos);
    EXPECT_NE(typing_error("    ct.static_assert(1 > 2, 'never')\n    r = 1\n").find("tile.static_assert failed: never"), std::string::npos);
    EXPECT_EQ(type_of_r("    r = ct.ensure_constant(3) + 1\n"), int64_type());
}

TEST(SemaTile, LocalsAssignedOnceFromConstantsServeAsShapes) {
    EXPECT_EQ(type_of_r("    n = 8\n    m = n * 2\n    r = ct.load(x, index=(0, 0), shape=(n, m))\n"),
              tile_type(DType::Float32, {8, 16}));
    EXPECT_EQ(type_of_r("    a, b = 4, 2 ** 3\n    r = ct.zeros((a, b), dtype=ct.int32)\n"), tile_type(DType::Int32, {4, 8}));
    EXPECT_EQ(type_of_r("    s = (2, 4)\n    r = ct.load(x, index=(0, 0), shape=s)\n"), tile_type(DType::Float32, {2, 4}));
    // Not one value for the whole function: reassigned, augmented, a loop target, set in a branch,
    // or read before its assignment.
    const char* const not_constant[] = {
        "    n = 8\n    n = 16\n    r = ct.load(x, index=(0, 0), shape=(n, n))\n",
        "    n = 8\n    n += 8\n    r = ct.load(x, index=(0, 0), shape=(n, n))\n",
        "    n = 8\n    for n in range(2):\n        pass\n    r = ct.load(x, index=(0, 0), shape=(n, n))\n",
        "    if ct.bid(0) == 0:\n        n = 8\n    r = ct.load(x, index=(0, 0), shape=(n, n))\n",
        "    for i in range(2):\n        if i > 0:\n            r = ct.load(x, index=(0, 0), shape=(n, n))\n    n = 8\n",
        "    n = ct.bid(0)\n    r = ct.load(x, index=(0, 0), shape=(n, n))\n",
    };
    for (const char* body : not_constant)
        EXPECT_NE(typing_error(body).find("shape must be known when the kernel compiles"), std::string::npos) << body;
}
