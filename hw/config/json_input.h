#pragma once
// Strict, typed reading of JSON input with errors that name the file and the JSON pointer.
//
// Every config, workload and plan reader goes through JsonNode/JsonObject so that
//  - a wrong type, a value out of range or a missing key becomes an InputError naming
//    file, pointer, what was expected and what was found;
//  - unknown keys are errors (JsonObject::finish), never silently ignored.
// JSON files may carry // and /* */ comments: configs use them to cite their sources.
#include "hw/common/choice.h"
#include "hw/common/input_error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mcmsim {

using json = nlohmann::json;

/// Parses a JSON file (comments allowed). Throws InputError with "line N" on syntax errors
/// and "expected a readable file" when it cannot be opened.
json load_json_file(const std::string& path);
/// Parses JSON text; `file` names it in errors.
json parse_json_text(const std::string& text, const std::string& file);

/// Short human description of a JSON value for "found ..." messages: `string "abc"`, `number -3`.
std::string describe_json(const json& v);

class JsonObject;

/// A JSON value together with where it came from.
class JsonNode {
public:
    JsonNode(std::shared_ptr<const std::string> file, const json* value, std::string pointer)
        : file_(std::move(file)), value_(value), pointer_(std::move(pointer)) {}

    const json& raw() const { return *value_; }
    const std::string& pointer() const { return pointer_; }
    const std::string& file() const { return *file_; }

    [[noreturn]] void fail(const std::string& expected) const;
    [[noreturn]] void fail(const std::string& expected, const std::string& found) const;

    double number() const;
    /// A finite number within [lo, hi]; `what` describes the range for the message.
    double number_in(double lo, double hi, const std::string& what) const;
    /// A finite number within [lo, hi]; the message states the range.
    double number_in(double lo, double hi) const;
    double positive() const;       ///< > 0
    double non_negative() const;   ///< >= 0
    std::int64_t integer() const;  ///< a whole number
    std::int64_t integer_in(std::int64_t lo, std::int64_t hi) const;
    bool boolean() const;
    std::string string() const;
    /// A string naming a value of choice enum E (hw/common/choice.h).
    template <class E>
    E choice() const {
        const std::string expected = quoted_choice_list<E>();
        if (!is_string()) fail(expected);
        if (auto v = parse_choice<E>(value_->get<std::string>())) return *v;
        fail(expected);
    }
    JsonObject object() const;
    std::vector<JsonNode> array() const;
    bool is_string() const { return value_->is_string(); }
    bool is_object() const { return value_->is_object(); }

    JsonNode child(const std::string& key, const json* v) const;
    JsonNode element(std::size_t i, const json* v) const;

private:
    std::shared_ptr<const std::string> file_;
    const json* value_;
    std::string pointer_;
};

/// An object whose keys are consumed one by one; finish() rejects anything left unread.
class JsonObject {
public:
    explicit JsonObject(JsonNode node) : node_(std::move(node)) {}

    const JsonNode& node() const { return node_; }
    bool has(const std::string& key) const;
    JsonNode required(const std::string& key);
    std::optional<JsonNode> optional(const std::string& key);

    double number(const std::string& key, double fallback);
    /// A number in [lo, hi] (the message says so), or `fallback` when absent.
    double number_in(const std::string& key, double fallback, double lo, double hi);
    double positive(const std::string& key, double fallback);
    double non_negative(const std::string& key, double fallback);
    std::int64_t integer_in(const std::string& key, std::int64_t fallback, std::int64_t lo, std::int64_t hi);
    bool boolean(const std::string& key, bool fallback);
    std::string string(const std::string& key, const std::string& fallback);
    /// An optional choice: the value named under `key`, or `fallback` when absent.
    template <class E>
    E choice(const std::string& key, E fallback) {
        if (auto n = optional(key)) return n->choice<E>();
        return fallback;
    }

    /// Marks a key as known without reading it (e.g. free-text "source" notes).
    void allow(const std::string& key) { seen_.insert(key); }
    /// Throws InputError for the first key that was never read.
    void finish() const;

private:
    JsonNode node_;
    std::set<std::string> seen_;
};

/// Root node of a parsed document.
JsonNode json_root(const json& doc, const std::string& file);

/// JSON-pointer escaping of one reference token (~ and /).
std::string json_pointer_token(const std::string& key);

}  // namespace mcmsim
