#include <gtest/gtest.h>
#include "frontend/lexer.h"
#include "support/error.h"
#include "test_helpers.h"

using namespace simt;

static std::vector<Token> lex(const std::string& text) { return tokenize(test::source(text)); }

TEST(Lexer, IndentationProducesIndentAndDedent) {
    auto toks = lex("def f(a):\n    if a:\n        b = 1\n    c = 2\n");
    std::vector<Tok> kinds;
    for (const Token& t : toks) kinds.push_back(t.kind);
    int indents = 0, dedents = 0;
    for (Tok k : kinds) { indents += k == Tok::Indent; dedents += k == Tok::Dedent; }
    EXPECT_EQ(indents, 2);
    EXPECT_EQ(dedents, 2);
    EXPECT_EQ(kinds.back(), Tok::End);
}

TEST(Lexer, NumbersInAllSpellings) {
    auto toks = lex("x = 0x1F + 0o17 + 0b101 + 1_000 + 1.5e3 + .25 + 3j\n");
    std::vector<std::pair<Tok, std::string>> nums;
    for (const Token& t : toks)
        if (t.kind == Tok::Int || t.kind == Tok::Float || t.kind == Tok::Imag) nums.emplace_back(t.kind, t.text);
    ASSERT_EQ(nums.size(), 7u);
    EXPECT_EQ(nums[0], std::make_pair(Tok::Int, std::string("0x1F")));
    EXPECT_EQ(nums[3], std::make_pair(Tok::Int, std::string("1000")));
    EXPECT_EQ(nums[4], std::make_pair(Tok::Float, std::string("1.5e3")));
    EXPECT_EQ(nums[5], std::make_pair(Tok::Float, std::string(".25")));
    EXPECT_EQ(nums[6], std::make_pair(Tok::Imag, std::string("3")));
}

TEST(Lexer, BracketsJoinLinesAndCommentsVanish) {
    auto toks = lex("x = (1 +  # comment\n     2)\ny = 3 \\\n  + 4\n");
    int newlines = 0;
    for (const Token& t : toks) newlines += t.kind == Tok::Newline;
    EXPECT_EQ(newlines, 2);
}

TEST(Lexer, StringsDecodeEscapes) {
    auto toks = lex("print('a\\tb', \"c\")\n");
    std::vector<std::string> strs;
    for (const Token& t : toks) if (t.kind == Tok::String) strs.push_back(t.text);
    ASSERT_EQ(strs.size(), 2u);
    EXPECT_EQ(strs[0], "a\tb");
    EXPECT_EQ(strs[1], "c");
}

TEST(Lexer, LocationsAreFileLinesAndColumns) {
    SourceText s = test::source("def f():\n    return x\n");
    s.first_line = 40;
    s.indent = 4;
    auto toks = tokenize(s);
    const Token* x = nullptr;
    for (const Token& t : toks) if (t.text == "x") x = &t;
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->loc.line, 41);
    EXPECT_EQ(x->loc.col, 12 + 4);
}

TEST(Lexer, BadCharacterIsASyntaxErrorWithCaret) {
    try {
        lex("x = 1 $ 2\n");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
        std::string msg = e.what();
        EXPECT_NE(msg.find("invalid character '$'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("line 1"), std::string::npos) << msg;
        EXPECT_NE(msg.find("    x = 1 $ 2\n          ^"), std::string::npos) << msg;
    }
}

TEST(Lexer, UnterminatedStringIsAnError) {
    EXPECT_THROW(lex("x = 'abc\n"), Error);
}
