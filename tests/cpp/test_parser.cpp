#include <gtest/gtest.h>
#include "frontend/parser.h"
#include "support/error.h"
#include "test_helpers.h"

using namespace simt;

static FunctionDef parse(const std::string& body) {
    return parse_function(test::source("def f(a, b, c):\n" + body));
}

static std::string expr_of(const std::string& e) {
    FunctionDef f = parse("    x = " + e + "\n");
    return dump(*f.body[0]->value);
}

TEST(Parser, PythonOperatorPrecedence) {
    EXPECT_EQ(expr_of("a + b * c ** -a"), "(+ a (* b (** c (neg a))))");
    EXPECT_EQ(expr_of("-a ** 2"), "(neg (** a 2))");
    EXPECT_EQ(expr_of("a ** b ** c"), "(** a (** b c))");
    EXPECT_EQ(expr_of("a - b - c"), "(- (- a b) c)");
    EXPECT_EQ(expr_of("a | b ^ c & a << 1 + b"), "(| a (^ b (& c (<< a (+ 1 b)))))");
    EXPECT_EQ(expr_of("a // b % c"), "(% (// a b) c)");
    EXPECT_EQ(expr_of("not a == b"), "(not (cmp a == b))");
    EXPECT_EQ(expr_of("a or b and not c"), "(or a (and b (not c)))");
}

TEST(Parser, ChainedComparisonsAndConditionals) {
    EXPECT_EQ(expr_of("a < b <= c"), "(cmp a < b <= c)");
    EXPECT_EQ(expr_of("a is not None"), "(cmp a is not None)");
    EXPECT_EQ(expr_of("a not in (1, 2)"), "(cmp a not in (tuple 1 2))");
    EXPECT_EQ(expr_of("a if b else c"), "(ifexp b a c)");
    EXPECT_EQ(expr_of("a if b else c if a else b"), "(ifexp b a (ifexp a c b))");
}

TEST(Parser, CallsSubscriptsAttributes) {
    EXPECT_EQ(expr_of("cuda.grid(1)"), "(call (. cuda grid) 1)");
    EXPECT_EQ(expr_of("f(a, b=2)"), "(call f a b=2)");
    EXPECT_EQ(expr_of("A[i, j + 1]"), "([] A (tuple i (+ j 1)))");
    EXPECT_EQ(expr_of("A[1:n:2, ::-1]"), "([] A (tuple (slice 1 n 2) (slice _ _ (neg 1))))");
    EXPECT_EQ(expr_of("A.shape[0]"), "([] (. A shape) 0)");
    EXPECT_EQ(expr_of("(a, )"), "(tuple a)");
    EXPECT_EQ(expr_of("()"), "(tuple)");
}

TEST(Parser, Statements) {
    FunctionDef f = parse(
        "    x, y = b, a\n"
        "    a[0] += 1\n"
        "    for i in range(0, 10, 2):\n"
        "        if i == 2:\n"
        "            continue\n"
        "        elif i > 6:\n"
        "            break\n"
        "        else:\n"
        "            pass\n"
        "    while x < 3: x += 1\n"
        "    return\n");
    EXPECT_EQ(dump(f),
              "def f(a, b, c)\n"
              "  (= (tuple x y) (tuple b a))\n"
              "  (+= ([] a 0) 1)\n"
              "  (for i in (call range 0 10 2)\n"
              "    (if (cmp i == 2)\n"
              "      continue\n"
              "     else\n"
              "      (if (cmp i > 6)\n"
              "        break\n"
              "       else\n"
              "        pass\n"
              "      )\n"
              "    )\n"
              "  )\n"
              "  (while (cmp x < 3)\n"
              "    (+= x 1)\n"
              "  )\n"
              "  (return)\n");
}

TEST(Parser, DecoratorsAreSkippedAndLocationsKept) {
    SourceText s = test::source("@cuda.jit(device=True)\ndef g(x):\n    return x * 2\n");
    s.first_line = 10;
    FunctionDef f = parse_function(s);
    EXPECT_EQ(f.name, "g");
    EXPECT_EQ(f.loc.line, 11);
    EXPECT_EQ(f.body[0]->loc.line, 12);
    EXPECT_EQ(f.body[0]->value->children[0]->loc.col, 12);  // `x`
    EXPECT_EQ(f.body[0]->value->loc.col, 14);               // a binary operation is located at its operator
}

static std::string parse_error(const std::string& body) {
    try {
        parse(body);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
        return e.what();
    }
    return "no error";
}

TEST(Parser, UnsupportedSyntaxIsNamed) {
    EXPECT_NE(parse_error("    try:\n        pass\n    except:\n        pass\n").find("unsupported statement: try"), std::string::npos);
    EXPECT_NE(parse_error("    with a:\n        pass\n").find("unsupported statement: with"), std::string::npos);
    EXPECT_NE(parse_error("    x = 1 + lambda q: q\n").find("lambda here"), std::string::npos);
    EXPECT_NE(parse_error("    def g():\n        nonlocal a\n").find("unsupported statement: nonlocal"), std::string::npos);
    EXPECT_NE(parse_error("    def g():\n        yield a\n").find("generators"), std::string::npos);
    EXPECT_NE(parse_error("    x = [i for i in a]\n").find("list comprehension"), std::string::npos);
    EXPECT_NE(parse_error("    global a\n").find("unsupported statement: global"), std::string::npos);
    EXPECT_NE(parse_error("    x = {1: 2}\n").find("dict"), std::string::npos);
}

TEST(Parser, ErrorShowsFileLineAndCaret) {
    std::string msg = parse_error("    x = 1\n    try:\n        pass\n    finally:\n        pass\n");
    EXPECT_NE(msg.find("File \"/tmp/simt_test_kernel.py\", line 3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("    try:\n        ^"), std::string::npos) << msg;
}
