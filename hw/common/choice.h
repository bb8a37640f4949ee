#pragma once
// Choices: the enums a config file or a command line picks by name. Each enum lists its
// names once, in a specialisation of ChoiceNames; names are turned into values at the edge
// (the config readers, the plan reader, the CLI) and everything behind the edge works with
// the enum. A value may have several names (an alias after the canonical one); choice_name()
// gives the first.
//
//   template <> struct ChoiceNames<Collective> {
//       static constexpr std::pair<Collective, const char*> all[] = {
//           {Collective::Direct, "direct"}, {Collective::Ring, "ring"}, ...};
//   };
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcmsim {

template <class E>
struct ChoiceNames;  // specialised next to each choice enum

/// The canonical name of `value` ("?" for a value without one).
template <class E>
const char* choice_name(E value) {
    for (const auto& [v, name] : ChoiceNames<E>::all)
        if (v == value) return name;
    return "?";
}

/// The value named `name`, or nothing.
template <class E>
std::optional<E> parse_choice(std::string_view name) {
    for (const auto& [v, n] : ChoiceNames<E>::all)
        if (name == n) return v;
    return std::nullopt;
}

/// Every value once, in declaration order of the names.
template <class E>
std::vector<E> choice_values() {
    std::vector<E> out;
    for (const auto& [v, n] : ChoiceNames<E>::all) {
        bool seen = false;
        for (E o : out) seen = seen || o == v;
        if (!seen) out.push_back(v);
    }
    return out;
}

/// The canonical names of every value, in order.
template <class E>
std::vector<std::string> choice_names() {
    std::vector<std::string> out;
    for (E v : choice_values<E>()) out.emplace_back(choice_name(v));
    return out;
}

/// The canonical name of a choice value; found by argument-dependent lookup for every enum
/// with ChoiceNames, next to the to_string overloads of other enums.
template <class E, class = decltype(ChoiceNames<E>::all)>
const char* to_string(E value) {
    return choice_name(value);
}

/// "a, b or c": the canonical names for an error message.
template <class E>
std::string choice_list() {
    const std::vector<std::string> names = choice_names<E>();
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
        out += names[i];
    }
    return out;
}

/// `one of "a", "b", "c"`: the canonical names as the config readers' messages quote them.
template <class E>
std::string quoted_choice_list() {
    std::string out = "one of";
    bool first = true;
    for (const std::string& n : choice_names<E>()) {
        out += first ? " \"" : ", \"";
        out += n + "\"";
        first = false;
    }
    return out;
}

}  // namespace mcmsim
