#include "sim/sweep/sweep_spec.h"

#include "hw/common/input_error.h"
#include "hw/config/arch_config.h"
#include "hw/config/json_input.h"
#include "hw/config/presets.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace mcmsim {

namespace fs = std::filesystem;

std::string SweepWorkload::label() const {
    const std::string name = model.find('/') == std::string::npos ? model : fs::path(model).filename().string();
    return batch > 0 ? name + " batch " + std::to_string(batch) : name;
}

void set_at_pointer(nlohmann::json& doc, const std::string& pointer, const nlohmann::json& value) {
    if (pointer.empty() || pointer[0] != '/') throw std::invalid_argument("a JSON pointer starts with /");
    const nlohmann::json::json_pointer ptr(pointer);
    // Walk down, turning preset names met on the way into {"preset": name} objects.
    nlohmann::json::json_pointer at;
    std::vector<std::string> tokens;
    for (nlohmann::json::json_pointer p = ptr; !p.empty(); p = p.parent_pointer()) tokens.insert(tokens.begin(), p.back());
    nlohmann::json* node = &doc;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (node->is_string()) *node = nlohmann::json{{"preset", node->get<std::string>()}};
        if (node->is_array()) {
            const std::size_t k = std::stoul(tokens[i]);
            if (k >= node->size()) throw std::invalid_argument("no element " + tokens[i] + " in the array");
            node = &(*node)[k];
        } else if (node->is_object()) {
            if (!node->contains(tokens[i])) (*node)[tokens[i]] = nlohmann::json::object();
            node = &(*node)[tokens[i]];
        } else {
            throw std::invalid_argument("the path runs through a " + std::string(node->type_name()));
        }
    }
    if (node->is_string()) *node = nlohmann::json{{"preset", node->get<std::string>()}};
    if (node->is_array()) {
        const std::size_t k = std::stoul(tokens.back());
        if (k >= node->size()) throw std::invalid_argument("no element " + tokens.back() + " in the array");
        (*node)[k] = value;
    } else if (node->is_object()) {
        (*node)[tokens.back()] = value;
    } else {
        throw std::invalid_argument("the path runs through a " + std::string(node->type_name()));
    }
}

namespace {

/// Values of one pointer: a list, a numeric range, or every shipped preset of a kind.
std::vector<nlohmann::json> read_values(JsonObject& o, const JsonNode& where) {
    std::vector<nlohmann::json> out;
    const bool has_values = o.has("values"), has_range = o.has("range"), has_presets = o.has("presets");
    if (has_values + has_range + has_presets != 1) where.fail("exactly one of \"values\", \"range\" or \"presets\"");
    if (has_values) {
        for (const JsonNode& v : o.required("values").array()) out.push_back(v.raw());
    } else if (has_range) {
        JsonObject r = o.required("range").object();
        const double from = r.required("from").number(), to = r.required("to").number();
        const JsonNode step_node = r.required("step");
        const double step = step_node.positive();
        r.finish();
        if (to < from) r.node().fail("\"to\" >= \"from\"");
        const double n = std::floor((to - from) / step + 1e-9) + 1;
        if (n > 100000) r.node().fail("a range of at most 100000 values", std::to_string(static_cast<long long>(n)) + " values");
        const bool whole = from == std::floor(from) && step == std::floor(step);
        for (long long i = 0; i < static_cast<long long>(n); ++i) {
            const double v = from + static_cast<double>(i) * step;
            out.push_back(whole ? nlohmann::json(static_cast<std::int64_t>(v)) : nlohmann::json(v));
        }
    } else {
        const JsonNode kind = o.required("presets");
        const std::string dir = default_config_dir() + "/" + kind.string();
        if (!fs::is_directory(dir)) kind.fail("a preset kind: chiplets, links, dram");
        std::vector<std::string> names;
        const fs::path preset_file_extension(".json");
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == preset_file_extension) names.push_back(e.path().stem().string());
        std::sort(names.begin(), names.end());
        for (const std::string& n : names) out.push_back(n);
    }
    if (out.empty()) where.fail("at least one value", "none");
    return out;
}

std::string pointer_of(JsonObject& o) {
    const JsonNode p = o.required("pointer");
    const std::string s = p.string();
    if (s.empty() || s[0] != '/') p.fail("a JSON pointer into the arch config, e.g. \"/package/rows\"");
    return s;
}

/// The base document with `value` at `pointer`, through the strict reader: an InputError at
/// `where` (the value's place in the sweep file) saying what the reader expected.
/// The base with setting `k` of axis `a` and, when `others`, every other axis at its first
/// setting; the reader's error, if any, as text for the message.
std::optional<std::pair<std::string, std::string>> refused(const SweepSpec& spec, std::size_t a, std::size_t k, bool others) {
    nlohmann::json doc = spec.base;
    try {
        for (std::size_t b = 0; b < spec.axes.size(); ++b) {
            if (b != a && !others) continue;
            const SweepAxis& axis = spec.axes[b];
            const auto& setting = axis.settings[b == a ? k : 0];
            for (std::size_t i = 0; i < axis.pointers.size(); ++i) set_at_pointer(doc, axis.pointers[i], setting[i]);
        }
        (void)arch_from_document(doc, spec.base_file);
    } catch (const InputError& e) {
        return std::make_pair("a value the arch config takes (" + e.where() + ": expected " + e.expected() + ")", e.found());
    } catch (const std::exception& e) {
        return std::make_pair(std::string("a pointer that exists in the arch config"), std::string(e.what()));
    }
    return std::nullopt;
}

/// Every setting of every axis read alone on the base (a zip's setting as a whole: its fields
/// move together). A setting the base refuses is still accepted when the other axes' first
/// settings make it valid (a smaller package once the memories move with it); otherwise the
/// reader's message names the setting's place in the sweep file.
void check_axis_values(const SweepSpec& spec, const std::vector<JsonNode>& nodes) {
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
        for (std::size_t k = 0; k < spec.axes[a].settings.size(); ++k) {
            const auto alone = refused(spec, a, k, false);
            if (!alone || !refused(spec, a, k, true)) continue;
            const SweepAxis& axis = spec.axes[a];
            std::string at = axis.pointers.front();
            for (std::size_t i = 1; i < axis.pointers.size(); ++i) at += ", " + axis.pointers[i];
            nodes[a].fail(alone->first + " at " + at + " (setting " + std::to_string(k) + ")", alone->second);
        }
}

SweepAxis read_axis(const JsonNode& node, std::size_t index) {
    JsonObject o = node.object();
    SweepAxis axis;
    axis.where = node.pointer();
    if (auto zip = o.optional("zip")) {
        std::vector<std::vector<nlohmann::json>> columns;
        for (const JsonNode& part : zip->array()) {
            JsonObject p = part.object();
            axis.pointers.push_back(pointer_of(p));
            columns.push_back(read_values(p, part));
            p.finish();
            if (columns.back().size() != columns.front().size())
                part.fail("as many values as the zip's first part (" + std::to_string(columns.front().size()) + ")",
                          std::to_string(columns.back().size()));
        }
        if (columns.empty()) zip->fail("at least one part", "none");
        for (std::size_t k = 0; k < columns.front().size(); ++k) {
            axis.settings.emplace_back();
            for (const auto& c : columns) axis.settings.back().push_back(c[k]);
        }
    } else {
        axis.pointers.push_back(pointer_of(o));
        const std::vector<nlohmann::json> values = read_values(o, node);
        for (const nlohmann::json& v : values) axis.settings.push_back({v});
    }
    axis.name = o.string("name", axis.pointers.size() == 1 ? axis.pointers[0] : "zip " + std::to_string(index));
    o.finish();
    return axis;
}

SweepConstraint read_constraint(const JsonNode& node) {
    JsonObject o = node.object();
    SweepConstraint c;
    c.where = node.pointer();
    const JsonNode left = o.required("left");
    c.left = left.string();
    if (c.left.empty() || c.left[0] != '/') left.fail("a JSON pointer into the arch config");
    c.op = o.required("op").choice<ConstraintOp>();
    const JsonNode right = o.required("right");
    if (right.is_string() && !right.raw().get<std::string>().empty() && right.raw().get<std::string>()[0] == '/')
        c.right_pointer = right.string();
    else c.right_value = right.raw();
    if (!c.right_value.is_null() && !c.right_value.is_number() && c.op != ConstraintOp::Eq && c.op != ConstraintOp::Ne)
        right.fail("a number or a pointer (only eq and ne compare strings and booleans)");
    o.finish();
    return c;
}

}  // namespace

SweepSpec read_sweep_spec(const std::string& path) {
    SweepSpec spec;
    spec.file = path;
    const nlohmann::json doc = load_json_file(path);
    JsonObject o = json_root(doc, path).object();
    const fs::path dir = fs::absolute(path).parent_path();
    {
        const JsonNode base = o.required("base");
        const std::string b = base.string();
        const fs::path rel = dir / b;
        try {
            spec.base_file = fs::exists(rel) ? rel.string() : arch_config_path(b);
        } catch (const InputError&) {
            base.fail("an arch config file (relative to the sweep file) or a name in configs/arch", "\"" + b + "\"");
        }
        spec.base = load_json_file(spec.base_file);
        (void)arch_from_document(spec.base, spec.base_file);  // the base itself must read
    }
    if (auto axes = o.optional("axes")) {
        const auto list = axes->array();
        for (std::size_t i = 0; i < list.size(); ++i) spec.axes.push_back(read_axis(list[i], i));
        check_axis_values(spec, list);
    }
    {
        const JsonNode w = o.required("workloads");
        for (const JsonNode& n : w.array()) {
            JsonObject wo = n.object();
            SweepWorkload sw;
            sw.model = wo.required("model").string();
            const fs::path file = dir / sw.model;
            if (sw.model.find('/') != std::string::npos || sw.model.find('.') != std::string::npos)
                sw.model = fs::exists(file) ? fs::absolute(file).lexically_normal().string() : sw.model;
            sw.batch = wo.integer_in("batch", 0, 1, 65536);
            wo.finish();
            spec.workloads.push_back(sw);
        }
        if (spec.workloads.empty()) w.fail("at least one workload", "none");
    }
    if (auto m = o.optional("mapping")) {
        if (m->is_object()) {
            spec.mappings.push_back(m->raw());
        } else {
            for (const JsonNode& n : m->array()) {
                if (!n.is_object()) n.fail("an object of mapping options");
                spec.mappings.push_back(n.raw());
            }
            if (spec.mappings.empty()) m->fail("at least one mapping", "none");
        }
    } else {
        spec.mappings.push_back(nlohmann::json::object());
    }
    if (auto e = o.optional("evaluators")) {
        for (const JsonNode& n : e->array()) spec.evaluators.push_back(n.choice<SweepEvaluator>());
        if (spec.evaluators.empty()) e->fail("at least one evaluator", "none");
    } else {
        spec.evaluators.push_back(SweepEvaluator::Estimate);
    }
    if (auto s = o.optional("sampling")) {
        JsonObject so = s->object();
        spec.sampling = so.required("method").choice<Sampling>();
        if (spec.sampling != Sampling::Grid) {
            spec.samples = so.required("points").integer_in(1, 1000000);
            spec.seed = static_cast<std::uint64_t>(so.integer_in("seed", 1, 0, std::int64_t{1} << 62));
        }
        so.finish();
    }
    if (auto c = o.optional("constraints"))
        for (const JsonNode& n : c->array()) spec.constraints.push_back(read_constraint(n));
    spec.objective = o.choice<Objective>("objective", Objective::Edp);
    o.finish();
    return spec;
}

}  // namespace mcmsim
