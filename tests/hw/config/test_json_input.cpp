// Strict JSON reading (hw/config/json_input.h): comments, syntax errors with line numbers,
// typed accessors whose errors name the file and the JSON pointer, unknown-key rejection.
#include "hw/config/json_input.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

namespace mcmsim {

namespace test_json_input {

/// Runs `f`, which must throw InputError, and returns the error.
std::optional<InputError> catch_input_error(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e;
    } catch (const std::exception& e) {
        ADD_FAILURE() << "expected InputError, got another exception: " << e.what();
        return std::nullopt;
    }
    ADD_FAILURE() << "expected InputError, nothing was thrown";
    return std::nullopt;
}

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

// ---- parsing ----------------------------------------------------------------------------

TEST(JsonInput, CommentsAreAllowed) {
    const std::string text =
        "// a line comment before the document\n"
        "{\n"
        "  /* a block comment\n"
        "     over two lines */\n"
        "  \"a\": 1, // trailing comment\n"
        "  \"b\": /* inline */ \"x\"\n"
        "}\n"
        "// a comment after the document\n";
    json doc = parse_json_text(text, "c.json");
    ASSERT_TRUE(doc.is_object());
    EXPECT_EQ(doc.size(), 2u);
    EXPECT_EQ(doc["a"], 1);
    EXPECT_EQ(doc["b"], "x");
}

TEST(JsonInput, SyntaxErrorReportsTheLine) {
    // Line 1: comment, 2: {, 3: "a", 4: "b" without the comma after "a" -> the error is on line 4.
    const std::string text =
        "// header comment\n"
        "{\n"
        "  \"a\": 1\n"
        "  \"b\": 2\n"
        "}\n";
    auto e = catch_input_error([&] { parse_json_text(text, "syntax.json"); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->file(), "syntax.json");
    EXPECT_EQ(e->where(), "line 4");
    EXPECT_EQ(e->expected(), "valid JSON");
    const std::string msg = e->what();
    EXPECT_TRUE(contains(msg, "syntax.json: line 4: expected valid JSON, found ")) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(JsonInput, SyntaxErrorLineCountsCommentLines) {
    // Lines 1-5 are comments; the stray ']' is on line 7.
    const std::string text =
        "/* 1\n"
        "   2\n"
        "   3 */\n"
        "// 4\n"
        "// 5\n"
        "{ \"a\": [1, 2,\n"
        "  ] ]\n"
        "}\n";
    auto e = catch_input_error([&] { parse_json_text(text, "c.json"); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "line 7");
}

TEST(JsonInput, SyntaxErrorOnFirstLine) {
    auto e = catch_input_error([&] { parse_json_text("{ \"a\": nul }", "one.json"); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "line 1");
}

TEST(JsonInput, TruncatedDocumentSaysEndOfFile) {
    // Three lines, no final newline: the document ends on line 3.
    auto e = catch_input_error([&] { parse_json_text("{\n  \"a\": 1,\n  \"b\": ", "t.json"); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "line 3");
    EXPECT_TRUE(contains(e->found(), "end of file")) << e->found();
}

TEST(JsonInput, EmptyTextIsASyntaxError) {
    auto e = catch_input_error([&] { parse_json_text("", "empty.json"); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "line 1");
    EXPECT_EQ(e->file(), "empty.json");
}

TEST(JsonInput, LoadJsonFileReadsCommentsAndNamesMissingFiles) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "mcmsim_test_json_input";
    fs::create_directories(dir);
    const std::string path = (dir / "ok.json").string();
    {
        std::ofstream out(path);
        out << "// comment\n{ \"k\": [1, 2, 3] }\n";
    }
    json doc = load_json_file(path);
    EXPECT_EQ(doc["k"].size(), 3u);

    const std::string missing = (dir / "missing.json").string();
    auto e = catch_input_error([&] { load_json_file(missing); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->file(), missing);
    EXPECT_TRUE(contains(e->expected(), "readable file")) << e->what();

    // A syntax error in a file names the file's path.
    const std::string bad = (dir / "bad.json").string();
    {
        std::ofstream out(bad);
        out << "{\n\"a\": 1,\n}\n";
    }
    auto e2 = catch_input_error([&] { load_json_file(bad); });
    ASSERT_TRUE(e2);
    EXPECT_EQ(e2->file(), bad);
    EXPECT_EQ(e2->where(), "line 3");
    fs::remove_all(dir);
}

// ---- InputError -------------------------------------------------------------------------

TEST(JsonInput, InputErrorFormatsOneLine) {
    InputError e("f.json", "/a/b", "a number", "string \"x\ny\"");
    EXPECT_STREQ(e.what(), "f.json: /a/b: expected a number, found string \"x y\"");
    InputError no_where("f.json", "", "a readable file", "none");
    EXPECT_STREQ(no_where.what(), "f.json: expected a readable file, found none");
    InputError no_file("", "--batch", "a batch size", "0");
    EXPECT_STREQ(no_file.what(), "--batch: expected a batch size, found 0");
}

// ---- JsonObject::finish -----------------------------------------------------------------

TEST(JsonInput, FinishRejectsUnknownKeysWithPointerAndKey) {
    json doc = parse_json_text(R"({"a": {"b": {"known": 1, "bandwith": 2}}})", "k.json");
    JsonObject root = json_root(doc, "k.json").object();
    JsonObject a = root.required("a").object();
    JsonObject b = a.required("b").object();
    EXPECT_EQ(b.node().pointer(), "/a/b");
    EXPECT_EQ(b.number("known", 0), 1);
    auto e = catch_input_error([&] { b.finish(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->file(), "k.json");
    EXPECT_EQ(e->where(), "/a/b/bandwith");
    EXPECT_TRUE(contains(e->found(), "\"bandwith\"")) << e->what();
    EXPECT_TRUE(contains(e->expected(), "known")) << e->what();  // lists the keys it knows
    const std::string msg = e->what();
    EXPECT_TRUE(contains(msg, "k.json: /a/b/bandwith: expected ")) << msg;
    // The outer objects have had all their keys read.
    EXPECT_NO_THROW(a.finish());
    EXPECT_NO_THROW(root.finish());
}

TEST(JsonInput, FinishAtTheRootNamesTheKey) {
    json doc = parse_json_text(R"({"name": "x", "extra": true})", "r.json");
    JsonObject root = json_root(doc, "r.json").object();
    EXPECT_EQ(root.string("name", ""), "x");
    auto e = catch_input_error([&] { root.finish(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "/extra");
}

TEST(JsonInput, FinishAcceptsReadOptionalAndAllowedKeys) {
    json doc = parse_json_text(R"({"x": 1, "source": "a paper", "y": 2})", "f.json");
    JsonObject o = json_root(doc, "f.json").object();
    EXPECT_EQ(o.number("x", 0), 1);
    EXPECT_EQ(o.number("absent", 7), 7);  // a fallback for a missing optional key
    o.allow("source");
    // "y" not yet read.
    EXPECT_TRUE(catch_input_error([&] { o.finish(); }));
    EXPECT_TRUE(o.has("y"));
    EXPECT_EQ(o.number("y", 0), 2);
    EXPECT_NO_THROW(o.finish());
}

TEST(JsonInput, RequiredMissingKeyNamesTheObject) {
    json doc = parse_json_text(R"({"pkg": {"cols": 2}})", "m.json");
    JsonObject root = json_root(doc, "m.json").object();
    JsonObject pkg = root.required("pkg").object();
    auto e = catch_input_error([&] { pkg.required("rows"); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "/pkg");
    EXPECT_TRUE(contains(e->expected(), "\"rows\"")) << e->what();
    EXPECT_EQ(e->found(), "none");

    auto r = catch_input_error([&] { root.required("name"); });
    ASSERT_TRUE(r);
    EXPECT_EQ(r->where(), "/");  // the document root
}

// ---- typed accessors --------------------------------------------------------------------

TEST(JsonInput, PositiveRejectsZeroAndNegativeWithPointer) {
    json doc = parse_json_text(R"({"link": {"zero": 0, "neg": -2.5, "ok": 0.25}})", "p.json");
    JsonNode link = json_root(doc, "p.json").object().required("link");
    JsonObject o = link.object();

    auto z = catch_input_error([&] { o.required("zero").positive(); });
    ASSERT_TRUE(z);
    EXPECT_EQ(z->file(), "p.json");
    EXPECT_EQ(z->where(), "/link/zero");
    EXPECT_TRUE(contains(z->expected(), "positive")) << z->what();
    EXPECT_EQ(z->found(), "number 0");

    auto n = catch_input_error([&] { o.positive("neg", 1.0); });
    ASSERT_TRUE(n);
    EXPECT_EQ(n->where(), "/link/neg");
    EXPECT_EQ(n->found(), "number -2.5");
    EXPECT_TRUE(contains(std::string(n->what()), "p.json: /link/neg: expected ")) << n->what();

    EXPECT_DOUBLE_EQ(o.required("ok").positive(), 0.25);
    EXPECT_DOUBLE_EQ(o.positive("missing", 3.0), 3.0);
}

TEST(JsonInput, NonNegativeAcceptsZeroRejectsNegative) {
    json doc = parse_json_text(R"({"z": 0, "n": -1})", "n.json");
    JsonObject o = json_root(doc, "n.json").object();
    EXPECT_DOUBLE_EQ(o.non_negative("z", 5), 0.0);
    auto e = catch_input_error([&] { o.non_negative("n", 5); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "/n");
    EXPECT_TRUE(contains(e->expected(), "non-negative")) << e->what();
}

TEST(JsonInput, NumberRejectsNonNumbers) {
    json doc = parse_json_text(R"({"s": "12", "b": true})", "t.json");
    JsonObject o = json_root(doc, "t.json").object();
    auto s = catch_input_error([&] { o.number("s", 0); });
    ASSERT_TRUE(s);
    EXPECT_EQ(s->expected(), "a number");
    EXPECT_EQ(s->found(), "string \"12\"");
    auto b = catch_input_error([&] { o.positive("b", 1); });
    ASSERT_TRUE(b);
    EXPECT_EQ(b->found(), "boolean true");
}

TEST(JsonInput, IntegerRejectsFractions) {
    json doc = parse_json_text(R"({"frac": 1.5, "whole": 3, "whole_float": 4.0, "neg": -7, "s": "3"})", "i.json");
    JsonObject o = json_root(doc, "i.json").object();
    auto e = catch_input_error([&] { o.required("frac").integer(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "/frac");
    EXPECT_EQ(e->expected(), "an integer");
    EXPECT_EQ(e->found(), "number 1.5");
    EXPECT_EQ(o.required("whole").integer(), 3);
    EXPECT_EQ(o.required("whole_float").integer(), 4);
    EXPECT_EQ(o.required("neg").integer(), -7);
    EXPECT_TRUE(catch_input_error([&] { o.required("s").integer(); }));
}

TEST(JsonInput, IntegerInStatesTheRange) {
    json doc = parse_json_text(R"({"row": 2, "big": 9223372036854775808})", "r.json");
    JsonObject o = json_root(doc, "r.json").object();
    auto e = catch_input_error([&] { o.integer_in("row", 0, 0, 1); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "/row");
    EXPECT_EQ(e->expected(), "an integer in [0, 1]");
    EXPECT_EQ(e->found(), "number 2");
    EXPECT_EQ(o.integer_in("absent", 5, 0, 1), 5);  // the fallback is not range-checked
    // 2^63 does not fit in int64.
    auto big = catch_input_error([&] { o.required("big").integer(); });
    ASSERT_TRUE(big);
    EXPECT_EQ(big->where(), "/big");
}

TEST(JsonInput, BooleanAndStringCheckTheirTypes) {
    json doc = parse_json_text(R"({"flag": 1, "name": 5, "t": true, "s": "abc"})", "b.json");
    JsonObject o = json_root(doc, "b.json").object();
    auto b = catch_input_error([&] { o.boolean("flag", false); });
    ASSERT_TRUE(b);
    EXPECT_EQ(b->where(), "/flag");
    EXPECT_EQ(b->found(), "number 1");
    auto s = catch_input_error([&] { o.string("name", ""); });
    ASSERT_TRUE(s);
    EXPECT_EQ(s->where(), "/name");
    EXPECT_EQ(s->expected(), "a string");
    EXPECT_TRUE(o.boolean("t", false));
    EXPECT_EQ(o.string("s", ""), "abc");
}

TEST(JsonInput, ObjectAndArrayCheckTheirTypes) {
    json doc = parse_json_text(R"({"list": [10, "x", 30], "obj": [1]})", "a.json");
    JsonObject o = json_root(doc, "a.json").object();
    std::vector<JsonNode> items = o.required("list").array();
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(items[0].pointer(), "/list/0");
    EXPECT_EQ(items[2].integer(), 30);
    auto e = catch_input_error([&] { items[1].integer(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "/list/1");
    auto obj = catch_input_error([&] { o.required("obj").object(); });
    ASSERT_TRUE(obj);
    EXPECT_EQ(obj->expected(), "an object");
    EXPECT_EQ(obj->found(), "an array");
    auto arr = catch_input_error([&] { json_root(doc, "a.json").array(); });
    ASSERT_TRUE(arr);
    EXPECT_EQ(arr->expected(), "an array");
    EXPECT_EQ(arr->found(), "an object");
}

// ---- JSON pointers (RFC 6901) -----------------------------------------------------------

TEST(JsonInput, PointerTokenEscapesSlashAndTilde) {
    EXPECT_EQ(json_pointer_token("plain"), "plain");
    EXPECT_EQ(json_pointer_token("a/b"), "a~1b");
    EXPECT_EQ(json_pointer_token("m~n"), "m~0n");
    EXPECT_EQ(json_pointer_token("~/"), "~0~1");
    // '~' is escaped first: the key "~1" must not come back as the pointer of "/".
    EXPECT_EQ(json_pointer_token("~1"), "~01");
    EXPECT_EQ(json_pointer_token(""), "");
}

TEST(JsonInput, PointersOfEscapedKeysResolveWithNlohmann) {
    json doc = parse_json_text(R"({"a/b": {"c~d": {"~1": "x"}}})", "e.json");
    JsonNode n = json_root(doc, "e.json").object().required("a/b").object().required("c~d").object().required("~1");
    EXPECT_EQ(n.pointer(), "/a~1b/c~0d/~01");
    // The pointer is a valid RFC 6901 pointer to the same value.
    EXPECT_EQ(doc.at(json::json_pointer(n.pointer())), "x");
    auto e = catch_input_error([&] { n.integer(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "/a~1b/c~0d/~01");

    // Unknown keys are escaped the same way.
    json doc2 = parse_json_text(R"({"x/y": 1})", "e.json");
    JsonObject root = json_root(doc2, "e.json").object();
    auto u = catch_input_error([&] { root.finish(); });
    ASSERT_TRUE(u);
    EXPECT_EQ(u->where(), "/x~1y");
    EXPECT_TRUE(contains(u->found(), "\"x/y\"")) << u->what();  // the key itself, unescaped
}

// ---- describe_json ----------------------------------------------------------------------

TEST(JsonInput, DescribeJson) {
    EXPECT_EQ(describe_json(json("abc")), "string \"abc\"");
    EXPECT_EQ(describe_json(json("")), "string \"\"");
    EXPECT_EQ(describe_json(json(-3)), "number -3");
    EXPECT_EQ(describe_json(json(0)), "number 0");
    EXPECT_EQ(describe_json(json(2.5)), "number 2.5");
    EXPECT_EQ(describe_json(json(42u)), "number 42");
    EXPECT_EQ(describe_json(json(true)), "boolean true");
    EXPECT_EQ(describe_json(json(false)), "boolean false");
    EXPECT_EQ(describe_json(json::array({1, 2})), "an array");
    EXPECT_EQ(describe_json(json::array()), "an array");
    EXPECT_EQ(describe_json(json::object()), "an object");
    EXPECT_EQ(describe_json(json(nullptr)), "null");
}

TEST(JsonInput, DescribeJsonShortensLongStrings) {
    const std::string long_text(100, 'a');
    const std::string d = describe_json(json(long_text));
    EXPECT_EQ(d, "string \"" + std::string(37, 'a') + "...\"");
    const std::string forty(40, 'b');  // exactly 40 characters are kept whole
    EXPECT_EQ(describe_json(json(forty)), "string \"" + forty + "\"");
}

// A user who writes "max_packet_bytes": 1234567 must be told exactly that number back.
TEST(JsonInput, DescribeJsonKeepsLargeIntegersExact) {
    EXPECT_EQ(describe_json(json(1234567)), "number 1234567");
    EXPECT_EQ(describe_json(json(8589934592LL)), "number 8589934592");
    EXPECT_EQ(describe_json(json(0.123456789)), "number 0.123456789");
}

// Two equal keys in one object are refused (nlohmann alone would keep the last silently).
TEST(JsonInput, DuplicateKeysAreErrors) {
    try {
        parse_json_text(R"({"a": {"list": [1, {"bw": 25, "bw": -1}]}})", "dup.json");
        FAIL() << "duplicate key accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where(), "/a/list/1/bw");
        EXPECT_NE(std::string(e.what()).find("duplicate key"), std::string::npos);
    }
    EXPECT_NO_THROW(parse_json_text(R"({"a": {"bw": 1}, "b": {"bw": 2}})", "ok.json"));
}

}  // namespace test_json_input
}  // namespace mcmsim
