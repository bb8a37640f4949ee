#include "hw/config/json_input.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>

namespace mcmsim {

namespace {

std::string line_of_offset(const std::string& text, std::size_t offset) {
    std::size_t line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
        if (text[i] == '\n') ++line;
    return "line " + std::to_string(line);
}

/// Numbers in messages are printed as written: integers exactly, floats round-trip.
std::string format_number(const json& v) { return v.dump(); }

/// nlohmann keeps the last of two equal keys; a strict reader must refuse them instead, so
/// the parser callback tracks the keys of every open object (and where it is, for the pointer).
class DuplicateKeyGuard {
public:
    explicit DuplicateKeyGuard(const std::string& file) : file_(file) {}

    bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start:
                frames_.emplace_back(false);
                break;
            case json::parse_event_t::array_start:
                frames_.emplace_back(true);
                break;
            case json::parse_event_t::key: {
                Frame& f = frames_.back();
                std::string key = parsed.get<std::string>();
                if (!f.keys.insert(key).second)
                    throw InputError(file_, pointer() + "/" + json_pointer_token(key), "each key once per object",
                                     "duplicate key \"" + key + "\"");
                f.key = key;
                break;
            }
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                frames_.pop_back();
                next_element();
                break;
            case json::parse_event_t::value:
                next_element();
                break;
        }
        return true;
    }

private:
    struct Frame {
        explicit Frame(bool is_array) : array(is_array) {}
        bool array;
        std::size_t index = 0;
        std::set<std::string> keys;
        std::string key;
    };
    void next_element() {
        if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    }
    std::string pointer() const {
        std::string out;
        for (std::size_t i = 0; i + 1 < frames_.size(); ++i)
            out += "/" + (frames_[i].array ? std::to_string(frames_[i].index) : json_pointer_token(frames_[i].key));
        return out;
    }
    const std::string& file_;
    std::vector<Frame> frames_;
};

std::string describe_char(char c) {
    if (c == '\n' || c == '\r') return "end of line";
    if (static_cast<unsigned char>(c) < 0x20) return "a control character";
    return std::string("'") + c + "'";
}

}  // namespace

json parse_json_text(const std::string& text, const std::string& file) {
    try {
        DuplicateKeyGuard guard(file);
        return json::parse(text, std::ref(guard), /*allow_exceptions=*/true,
                           /*ignore_comments=*/true);
    } catch (const json::parse_error& e) {
        // e.byte is 1-based and points just past the offending character.
        std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        std::string found = "malformed JSON";
        if (offset < text.size()) {
            found += " near " + describe_char(text[offset]);
        } else {
            found += " (unexpected end of file)";
        }
        throw InputError(file, line_of_offset(text, offset), "valid JSON", found);
    } catch (const json::out_of_range& e) {
        // A number beyond a double (1e400): the library names the literal, not its place.
        const std::string what = e.what(), mark = "parsing '";
        const std::size_t at = what.find(mark);
        const std::string literal =
            at == std::string::npos ? "" : what.substr(at + mark.size(), what.find('\'', at + mark.size()) - at - mark.size());
        const std::size_t offset = literal.empty() ? std::string::npos : text.find(literal);
        throw InputError(file, offset == std::string::npos ? "" : line_of_offset(text, offset),
                         "a number within the range of a double (magnitude below 1.8e308)", "number " + literal);
    }
}

json load_json_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(path, "", "a readable file", "a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, "", "a readable file", "none (cannot open)");
    std::ostringstream ss;
    ss << in.rdbuf();
    return parse_json_text(ss.str(), path);
}

std::string describe_json(const json& v) {
    switch (v.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::boolean:
            return std::string("boolean ") + (v.get<bool>() ? "true" : "false");
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float:
            return "number " + format_number(v);
        case json::value_t::string: {
            std::string s = v.get<std::string>();
            if (s.size() > 40) s = s.substr(0, 37) + "...";
            return "string \"" + s + "\"";
        }
        case json::value_t::array:
            return "an array";
        case json::value_t::object:
            return "an object";
        default:
            return "an unsupported value";
    }
}

std::string json_pointer_token(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

JsonNode json_root(const json& doc, const std::string& file) {
    return JsonNode(std::make_shared<const std::string>(file), &doc, "");
}

// ---- JsonNode -------------------------------------------------------------------------

void JsonNode::fail(const std::string& expected) const { fail(expected, describe_json(*value_)); }

void JsonNode::fail(const std::string& expected, const std::string& found) const {
    throw InputError(*file_, pointer_.empty() ? "/" : pointer_, expected, found);
}

JsonNode JsonNode::child(const std::string& key, const json* v) const {
    return JsonNode(file_, v, pointer_ + "/" + json_pointer_token(key));
}

JsonNode JsonNode::element(std::size_t i, const json* v) const { return JsonNode(file_, v, pointer_ + "/" + std::to_string(i)); }

double JsonNode::number() const {
    if (!value_->is_number()) fail("a number");
    double v = value_->get<double>();
    if (!std::isfinite(v)) fail("a finite number");
    return v;
}

double JsonNode::number_in(double lo, double hi, const std::string& what) const {
    double v = number();
    if (v < lo || v > hi) fail(what);
    return v;
}

double JsonNode::number_in(double lo, double hi) const {
    std::ostringstream range;
    range << "a number in [" << lo << ", " << hi << "]";
    return number_in(lo, hi, range.str());
}

double JsonNode::positive() const {
    double v = number();
    if (!(v > 0)) fail("a positive number");
    return v;
}

double JsonNode::non_negative() const {
    double v = number();
    if (v < 0) fail("a non-negative number");
    return v;
}

std::int64_t JsonNode::integer() const {
    if (value_->is_number_integer() || value_->is_number_unsigned()) {
        if (value_->is_number_unsigned() &&
            value_->get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            fail("an integer below 2^63");
        return value_->get<std::int64_t>();
    }
    if (value_->is_number_float()) {
        double v = value_->get<double>();
        if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.0e15) return static_cast<std::int64_t>(v);
    }
    fail("an integer");
}

std::int64_t JsonNode::integer_in(std::int64_t lo, std::int64_t hi) const {
    std::int64_t v = integer();
    if (v < lo || v > hi) {
        std::string range = "an integer in [" + std::to_string(lo) + ", " +
                            (hi == std::numeric_limits<std::int64_t>::max() ? std::string("inf") : std::to_string(hi)) + "]";
        fail(range);
    }
    return v;
}

bool JsonNode::boolean() const {
    if (!value_->is_boolean()) fail("true or false");
    return value_->get<bool>();
}

std::string JsonNode::string() const {
    if (!value_->is_string()) fail("a string");
    return value_->get<std::string>();
}

JsonObject JsonNode::object() const {
    if (!value_->is_object()) fail("an object");
    return JsonObject(*this);
}

std::vector<JsonNode> JsonNode::array() const {
    if (!value_->is_array()) fail("an array");
    std::vector<JsonNode> out;
    out.reserve(value_->size());
    for (std::size_t i = 0; i < value_->size(); ++i) out.push_back(element(i, &(*value_)[i]));
    return out;
}

// ---- JsonObject -----------------------------------------------------------------------

bool JsonObject::has(const std::string& key) const { return node_.raw().contains(key); }

JsonNode JsonObject::required(const std::string& key) {
    seen_.insert(key);
    auto it = node_.raw().find(key);
    if (it == node_.raw().end())
        throw InputError(node_.file(), node_.pointer().empty() ? "/" : node_.pointer(), "a key \"" + key + "\"", "none");
    return node_.child(key, &*it);
}

std::optional<JsonNode> JsonObject::optional(const std::string& key) {
    seen_.insert(key);
    auto it = node_.raw().find(key);
    if (it == node_.raw().end()) return std::nullopt;
    return node_.child(key, &*it);
}

double JsonObject::number(const std::string& key, double fallback) {
    auto n = optional(key);
    return n ? n->number() : fallback;
}

double JsonObject::number_in(const std::string& key, double fallback, double lo, double hi) {
    auto n = optional(key);
    if (!n) return fallback;
    return n->number_in(lo, hi);
}

double JsonObject::positive(const std::string& key, double fallback) {
    auto n = optional(key);
    return n ? n->positive() : fallback;
}

double JsonObject::non_negative(const std::string& key, double fallback) {
    auto n = optional(key);
    return n ? n->non_negative() : fallback;
}

std::int64_t JsonObject::integer_in(const std::string& key, std::int64_t fallback, std::int64_t lo, std::int64_t hi) {
    auto n = optional(key);
    return n ? n->integer_in(lo, hi) : fallback;
}

bool JsonObject::boolean(const std::string& key, bool fallback) {
    auto n = optional(key);
    return n ? n->boolean() : fallback;
}

std::string JsonObject::string(const std::string& key, const std::string& fallback) {
    auto n = optional(key);
    return n ? n->string() : fallback;
}

void JsonObject::finish() const {
    for (auto it = node_.raw().begin(); it != node_.raw().end(); ++it) {
        if (seen_.count(it.key())) continue;
        std::string known;
        for (const auto& k : seen_) known += (known.empty() ? "" : ", ") + k;
        throw InputError(node_.file(), node_.pointer() + "/" + json_pointer_token(it.key()),
                         "one of the known keys (" + known + ")", "unknown key \"" + it.key() + "\"");
    }
}

}  // namespace mcmsim
