// Choices (hw/common/choice.h): names to values and back, aliases, and the config reader's
// messages for a name it does not know.
#include "hw/common/choice.h"
#include "hw/config/json_input.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mcmsim {

enum class Shape { Mesh, Ring, Tree };
enum class Side { Left, Right };
template <>
struct ChoiceNames<Shape> {
    static constexpr std::pair<Shape, const char*> all[] = {{Shape::Mesh, "mesh"}, {Shape::Ring, "ring"}, {Shape::Tree, "tree"}};
};
template <>
struct ChoiceNames<Side> {
    static constexpr std::pair<Side, const char*> all[] = {{Side::Left, "left"}, {Side::Left, "L"}, {Side::Right, "right"}};
};

namespace test_choice {

std::optional<InputError> catch_input_error(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e;
    }
    return std::nullopt;
}

TEST(JsonInput, ChoiceListsTheNames) {
    json doc = parse_json_text(R"({"shape": "torus", "side": "right", "n": 3})", "o.json");
    JsonObject o = json_root(doc, "o.json").object();
    auto e = catch_input_error([&] { o.required("shape").choice<Shape>(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "/shape");
    EXPECT_EQ(e->expected(), "one of \"mesh\", \"ring\", \"tree\"");
    EXPECT_EQ(e->found(), "string \"torus\"");
    EXPECT_EQ(o.required("side").choice<Side>(), Side::Right);
    // A non-string is rejected with the same list.
    auto n = catch_input_error([&] { o.required("n").choice<Side>(); });
    ASSERT_TRUE(n);
    EXPECT_EQ(n->expected(), "one of \"left\", \"right\"");
    EXPECT_EQ(n->found(), "number 3");
    // Absent: the fallback.
    EXPECT_EQ(o.choice("missing", Shape::Tree), Shape::Tree);
}

TEST(Choice, NamesValuesAndAliases) {
    EXPECT_STREQ(to_string(Shape::Ring), "ring");
    EXPECT_EQ(parse_choice<Shape>("tree"), Shape::Tree);
    EXPECT_EQ(parse_choice<Side>("L"), Side::Left);  // an alias parses ...
    EXPECT_STREQ(to_string(Side::Left), "left");     // ... but the first name is canonical
    EXPECT_FALSE(parse_choice<Shape>("Mesh").has_value());
    EXPECT_EQ(choice_values<Side>(), (std::vector<Side>{Side::Left, Side::Right}));
    EXPECT_EQ(choice_list<Shape>(), "mesh, ring or tree");
    EXPECT_EQ(choice_list<Side>(), "left or right");
}

}  // namespace test_choice
}  // namespace mcmsim
