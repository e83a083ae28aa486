// Nested `def` and `name = lambda` in kernels: parsing, captures, specialization and errors.
#include <gtest/gtest.h>
#include "frontend/parser.h"
#include "sema/sema.h"
#include "support/error.h"
#include "test_helpers.h"

using namespace simt;

static std::unique_ptr<CompileUnit> analyze(const std::string& text, std::vector<const Type*> args) {
    return analyze_kernel(test::source(text), test::standard_names, args, CompileOptions{});
}

static std::string analyze_error(const std::string& text, std::vector<const Type*> args) {
    try {
        analyze(text, args);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

static const TypedFunction* function_named(const CompileUnit& u, const std::string& name, size_t nth = 0) {
    for (const auto& f : u.functions)
        if (f->name == name && nth-- == 0) return f.get();
    return nullptr;
}

static const Type* f64_1d() { return array_type(DType::Float64, 1, Layout::C); }

TEST(InnerFunctions, DefAndLambdaParseAsDefinitions) {
    FunctionDef f = parse_function(test::source(
        "def k(a):\n"
        "    def g(x, y=2):\n"
        "        return x + y\n"
        "    sq = lambda v, w=1: v * w\n"
        "    a[0] = g(a[0]) + sq(a[1])\n"));
    ASSERT_EQ(f.body.size(), 3u);
    ASSERT_EQ(f.body[0]->kind, StmtKind::FunctionDef);
    EXPECT_EQ(f.body[0]->def->name, "g");
    EXPECT_EQ(f.body[0]->def->params.size(), 2u);
    ASSERT_EQ(f.body[1]->kind, StmtKind::FunctionDef);
    EXPECT_TRUE(f.body[1]->def->is_lambda);
    EXPECT_EQ(dump(*f.body[1]->def), "lambda sq(v, w)\n  (return (* v w))\n");
    FunctionDef copy = clone(f);
    EXPECT_EQ(dump(copy), dump(f));
}

TEST(InnerFunctions, CapturesBecomeHiddenParametersTypedAtTheCall) {
    auto u = analyze(
        "def k(a, scale):\n"
        "    def g(x, w=2.0):\n"
        "        return x * scale + w\n"
        "    h = lambda v: g(v) + 1\n"
        "    a[0] = h(a[1])\n",
        {f64_1d(), scalar_type(DType::Float32)});
    const TypedFunction* g = function_named(*u, "g");
    const TypedFunction* h = function_named(*u, "h");
    ASSERT_TRUE(g && h);
    EXPECT_EQ(g->hidden_params, 1u);
    ASSERT_EQ(g->param_types.size(), 3u);
    EXPECT_EQ(g->def.params[2].name, "scale");
    EXPECT_EQ(g->param_types[2], scalar_type(DType::Float32));
    EXPECT_EQ(g->return_type, float64_type());
    // h reads no enclosing variable itself but calls g, which reads `scale`: h passes it on.
    EXPECT_EQ(h->hidden_params, 1u);
    EXPECT_EQ(h->def.params.back().name, "scale");
}

TEST(InnerFunctions, SpecializedPerArgumentTypes) {
    auto u = analyze(
        "def k(a, b):\n"
        "    def twice(v):\n"
        "        return v + v\n"
        "    a[0] = twice(a[0])\n"
        "    b[0] = twice(b[0])\n",
        {f64_1d(), array_type(DType::Int32, 1, Layout::C)});
    const TypedFunction* f0 = function_named(*u, "twice", 0);
    const TypedFunction* f1 = function_named(*u, "twice", 1);
    ASSERT_TRUE(f0 && f1);
    EXPECT_NE(f0->c_name, f1->c_name);
    EXPECT_EQ(f0->return_type, float64_type());
    EXPECT_EQ(f1->return_type, int64_type());
}

TEST(InnerFunctions, ErrorsNameTheLine) {
    struct Case { const char* body; const char* message; const char* line; };
    const Case cases[] = {
        {"    def g(x):\n        return g(x)\n    a[0] = g(1.0)\n", "recursive", "line 3"},
        {"    def g(x):\n        return x\n    f = g\n", "inner function 'g' can only be called", "line 4"},
        {"    a[0] = g(1.0)\n    def g(x):\n        return x\n", "called before its definition (line 3)", "line 2"},
        {"    def g(x):\n        return x\n    def g(x):\n        return x\n", "defined twice", "line 4"},
        {"    g = 1\n    def g(x):\n        return x\n", "names an inner function and a variable", "line 3"},
    };
    for (const Case& c : cases) {
        std::string m = analyze_error(std::string("def k(a):\n") + c.body, {f64_1d()});
        EXPECT_NE(m.find(c.message), std::string::npos) << m;
        EXPECT_NE(m.find(c.line), std::string::npos) << m;
    }
}
