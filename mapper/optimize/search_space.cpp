#include "mapper/optimize/search_space.h"

#include "hw/config/json_input.h"
#include "hw/config/physical_ranges.h"
#include "hw/config/presets.h"
#include "mapper/mapping/mapping.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace mcmsim {

SearchSpace default_search_space(bool batched, PackageTopology topology) {
    SearchSpace s;
    s.mapping.partitions = {{Dim::K, Dim::K}, {Dim::C, Dim::C}, {Dim::P, Dim::P}, {Dim::Q, Dim::Q},
                            {Dim::P, Dim::K}, {Dim::K, Dim::P}, {Dim::Q, Dim::K}};
    if (batched) s.mapping.partitions.push_back({Dim::N, Dim::N});
    s.mapping.routes = searched_route_policies(topology);
    // Direct first: the uniform baseline's. Synth last: the fixed algorithms keep their
    // place in the genome's choices.
    s.mapping.collectives = {Collective::Direct, Collective::Ring, Collective::TwoD, Collective::Tree, Collective::Synth};
    s.mapping.weights = choice_values<Delivery>();
    s.mapping.inputs = choice_values<Delivery>();
    s.mapping.pipeline_segments = batched ? std::vector<int>{1, 2, 3, 4} : std::vector<int>{1};
    return s;
}

namespace {

/// A non-empty array, each element read by `read`.
template <typename T, typename F>
std::vector<T> read_list(JsonObject& o, const std::string& key, F read) {
    std::vector<T> out;
    auto node = o.optional(key);
    if (!node) return out;
    std::vector<JsonNode> items = node->array();
    if (items.empty()) node->fail("a non-empty list of values to try", "an empty list");
    for (const auto& it : items) out.push_back(read(it));
    return out;
}

/// A list of choices; `what` names them in the message ("a route policy").
template <class E>
std::vector<E> read_choices(JsonObject& o, const std::string& key, const std::string& what) {
    return read_list<E>(o, key, [&](const JsonNode& n) {
        const std::string v = n.string();
        if (auto e = parse_choice<E>(v)) return *e;
        std::string names;
        for (const std::string& c : choice_names<E>()) names += (names.empty() ? "" : ", ") + c;
        n.fail(what + " (" + names + ")");
    });
}

}  // namespace

SearchSpace load_search_space(const std::string& path) {
    json doc = load_json_file(path);
    JsonObject root = json_root(doc, path).object();
    root.allow("source");
    root.allow("description");
    SearchSpace s;
    s.file = path;
    if (auto m = root.optional("mapping")) {
        JsonObject o = m->object();
        o.allow("source");
        auto parts = read_list<PartitionOption>(o, "partitions", [](const JsonNode& n) {
            if (auto p = parse_partition_option(n.string())) return *p;
            n.fail("a partition: a dimension (k, c, p, q, n) or ROWSxCOLS such as pxk");
        });
        s.mapping.partitions = parts.empty() ? default_search_space(false).mapping.partitions : parts;
        s.mapping.units_per_part = static_cast<int>(o.integer_in("units_per_part", s.mapping.units_per_part, 1, 64));
        if (auto v = read_choices<RoutePolicy>(o, "routes", "a route policy"); !v.empty()) s.mapping.routes = v;
        if (auto v = read_choices<Collective>(o, "collectives", "a collective algorithm"); !v.empty()) s.mapping.collectives = v;
        if (auto v = read_choices<Delivery>(o, "weights", "a weight delivery"); !v.empty()) s.mapping.weights = v;
        if (auto v = read_choices<Delivery>(o, "inputs", "a network-input delivery"); !v.empty()) s.mapping.inputs = v;
        auto segments = read_list<int>(o, "pipeline_segments", [](const JsonNode& n) {
            return static_cast<int>(n.integer_in(1, 64));  // checked against the package by mapping_space_for
        });
        if (!segments.empty()) s.mapping.pipeline_segments = segments;
        o.finish();
    } else {
        s.mapping = default_search_space(false).mapping;
    }
    if (auto h = root.optional("hardware")) {
        JsonObject o = h->object();
        o.allow("source");
        s.hardware.diagonal_links = read_list<bool>(o, "diagonal_links", [](const JsonNode& n) { return n.boolean(); });
        s.hardware.link_preset = read_list<std::string>(o, "link_preset", [&](const JsonNode& n) {
            std::string name = n.string();
            find_preset(n, path, "links", name);  // InputError naming the known presets
            return name;
        });
        s.hardware.link_bandwidth_gbps = read_list<double>(o, "link_bandwidth_gbps", [](const JsonNode& n) {
            return n.number_in(ranges::kMinBandwidthGbps, ranges::kMaxBandwidthGbps);
        });
        s.hardware.dram_count =
            read_list<int>(o, "dram_count", [](const JsonNode& n) { return static_cast<int>(n.integer_in(1, 16)); });
        s.hardware.dram_placement = read_choices<DramPlacement>(o, "dram_placement", "a DRAM placement");
        if (auto b = o.optional("link_budget")) {
            JsonObject lb = b->object();
            LinkBudgetSpace k;
            const JsonNode model = lb.required("cost_model");
            const std::filesystem::path rel = std::filesystem::path(path).parent_path() / model.string();
            if (!std::filesystem::is_regular_file(rel)) model.fail("a link cost model file (relative to the space file)");
            k.costs = load_link_cost_model(rel.string());
            k.budget = read_list<double>(lb, "budget", [](const JsonNode& n) { return n.number_in(1e-9, 1e12); });
            if (k.budget.empty()) lb.required("budget");
            k.row_share = read_list<double>(lb, "row_share", [](const JsonNode& n) {
                const double v = n.number();
                if (!(v > 0 && v < 1)) n.fail("a share in (0, 1)");
                return v;
            });
            if (k.row_share.empty()) lb.required("row_share");
            k.diagonal_share = read_list<double>(lb, "diagonal_share", [](const JsonNode& n) {
                const double v = n.number();
                if (!(v >= 0 && v < 1)) n.fail("a share in [0, 1)");
                return v;
            });
            lb.finish();
            s.hardware.link_budget = k;
        }
        o.finish();
    }
    root.finish();
    return s;
}

namespace {

template <class E>
nlohmann::json names_json(const std::vector<E>& v) {
    nlohmann::json out = nlohmann::json::array();
    for (E e : v) out.push_back(to_string(e));
    return out;
}

}  // namespace

nlohmann::json search_space_to_json(const SearchSpace& s) {
    nlohmann::json parts = nlohmann::json::array();
    for (const auto& p : s.mapping.partitions) parts.push_back(p.name());
    nlohmann::json j = {{"mapping",
                         {{"partitions", parts},
                          {"units_per_part", s.mapping.units_per_part},
                          {"routes", names_json(s.mapping.routes.vector())},
                          {"collectives", names_json(s.mapping.collectives.vector())},
                          {"weights", names_json(s.mapping.weights.vector())},
                          {"inputs", names_json(s.mapping.inputs.vector())},
                          {"pipeline_segments", s.mapping.pipeline_segments.vector()}}}};
    nlohmann::json hw = nlohmann::json::object();
    if (!s.hardware.diagonal_links.empty()) hw["diagonal_links"] = s.hardware.diagonal_links;
    if (!s.hardware.link_preset.empty()) hw["link_preset"] = s.hardware.link_preset;
    if (!s.hardware.link_bandwidth_gbps.empty()) hw["link_bandwidth_gbps"] = s.hardware.link_bandwidth_gbps;
    if (!s.hardware.dram_count.empty()) hw["dram_count"] = s.hardware.dram_count;
    if (!s.hardware.dram_placement.empty()) hw["dram_placement"] = names_json(s.hardware.dram_placement);
    if (const auto& b = s.hardware.link_budget) {
        hw["link_budget"] = {{"cost_model", b->costs.file}, {"budget", b->budget}, {"row_share", b->row_share}};
        if (!b->diagonal_share.empty()) hw["link_budget"]["diagonal_share"] = b->diagonal_share;
    }
    j["hardware"] = hw;
    return j;
}

}  // namespace mcmsim
