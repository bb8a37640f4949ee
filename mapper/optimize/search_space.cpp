#include "mapper/optimize/search_space.h"

#include "hw/config/json_input.h"
#include "hw/config/presets.h"
#include "mapper/plan_builder/collectives.h"
#include "mapper/mapping/mapping.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace mcmsim {

std::string PartitionOption::name() const {
    auto lower = [](Dim d) {
        std::string s = to_string(d);
        s[0] = static_cast<char>(s[0] - 'A' + 'a');
        return s;
    };
    return one_dimensional() ? lower(rows_dim) : lower(rows_dim) + "x" + lower(cols_dim);
}

PartitionOption parse_partition_option(const std::string& s) {
    PartitionOption o;
    if (s.size() == 1) {
        o.rows_dim = o.cols_dim = dim_from_string(s);
        return o;
    }
    if (s.size() == 3 && (s[1] == 'x' || s[1] == 'X')) {
        o.rows_dim = dim_from_string(s.substr(0, 1));
        o.cols_dim = dim_from_string(s.substr(2, 1));
        if (o.rows_dim != o.cols_dim) return o;
    }
    throw std::invalid_argument("not a partition: " + s);
}

std::vector<std::string> supported_routes() { return route_policies(); }

std::vector<std::string> supported_collectives() { return collective_names(); }

SearchSpace default_search_space(bool batched, bool diagonal_links) {
    SearchSpace s;
    for (const char* p : {"k", "c", "p", "q", "pxk", "kxp", "qxk"}) s.mapping.partitions.push_back(parse_partition_option(p));
    if (batched) s.mapping.partitions.push_back(parse_partition_option("n"));
    s.mapping.routes = searched_route_policies(diagonal_links);
    s.mapping.collectives = supported_collectives();  // direct first: the uniform baseline's
    s.mapping.weights = {"unicast", "multicast"};
    s.mapping.inputs = {"unicast", "multicast"};
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

const std::vector<std::string>& placements() {
    static const std::vector<std::string> p{"west", "corners", "edges", "centre"};
    return p;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
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
            try {
                return parse_partition_option(n.string());
            } catch (const std::invalid_argument&) {
                n.fail("a partition: a dimension (k, c, p, q, n) or ROWSxCOLS such as pxk");
            }
        });
        s.mapping.partitions = parts.empty() ? default_search_space(false).mapping.partitions : parts;
        s.mapping.units_per_part = static_cast<int>(o.integer_in("units_per_part", s.mapping.units_per_part, 1, 64));
        const std::vector<std::string> known = supported_routes();
        auto routes = read_list<std::string>(o, "routes", [&](const JsonNode& n) {
            std::string r = n.string();
            if (std::find(known.begin(), known.end(), r) == known.end()) n.fail("a route policy (" + joined(known) + ")");
            return r;
        });
        if (!routes.empty()) s.mapping.routes = routes;
        const std::vector<std::string> algorithms = supported_collectives();
        auto collectives = read_list<std::string>(o, "collectives", [&](const JsonNode& n) {
            std::string c = n.string();
            if (std::find(algorithms.begin(), algorithms.end(), c) == algorithms.end())
                n.fail("a collective algorithm (" + joined(algorithms) + ")");
            return c;
        });
        if (!collectives.empty()) s.mapping.collectives = collectives;
        auto weights = read_list<std::string>(o, "weights", [&](const JsonNode& n) {
            std::string w = n.string();
            if (w != "unicast" && w != "multicast") n.fail("a weight delivery (unicast, multicast)");
            return w;
        });
        if (!weights.empty()) s.mapping.weights = weights;
        auto inputs = read_list<std::string>(o, "inputs", [&](const JsonNode& n) {
            std::string i = n.string();
            if (i != "unicast" && i != "multicast") n.fail("a network-input delivery (unicast, multicast)");
            return i;
        });
        if (!inputs.empty()) s.mapping.inputs = inputs;
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
        s.hardware.link_bandwidth_gbps = read_list<double>(o, "link_bandwidth_gbps", [](const JsonNode& n) { return n.positive(); });
        s.hardware.dram_count = read_list<int>(o, "dram_count", [](const JsonNode& n) { return static_cast<int>(n.integer_in(1, 16)); });
        s.hardware.dram_placement = read_list<std::string>(o, "dram_placement", [](const JsonNode& n) {
            std::string p = n.string();
            if (std::find(placements().begin(), placements().end(), p) == placements().end())
                n.fail("a DRAM placement (" + joined(placements()) + ")");
            return p;
        });
        o.finish();
    }
    root.finish();
    return s;
}

nlohmann::json search_space_to_json(const SearchSpace& s) {
    nlohmann::json parts = nlohmann::json::array();
    for (const auto& p : s.mapping.partitions) parts.push_back(p.name());
    nlohmann::json j = {{"mapping",
                         {{"partitions", parts},
                          {"units_per_part", s.mapping.units_per_part},
                          {"routes", s.mapping.routes},
                          {"collectives", s.mapping.collectives},
                          {"weights", s.mapping.weights},
                          {"inputs", s.mapping.inputs},
                          {"pipeline_segments", s.mapping.pipeline_segments}}}};
    nlohmann::json hw = nlohmann::json::object();
    if (!s.hardware.diagonal_links.empty()) hw["diagonal_links"] = s.hardware.diagonal_links;
    if (!s.hardware.link_preset.empty()) hw["link_preset"] = s.hardware.link_preset;
    if (!s.hardware.link_bandwidth_gbps.empty()) hw["link_bandwidth_gbps"] = s.hardware.link_bandwidth_gbps;
    if (!s.hardware.dram_count.empty()) hw["dram_count"] = s.hardware.dram_count;
    if (!s.hardware.dram_placement.empty()) hw["dram_placement"] = s.hardware.dram_placement;
    j["hardware"] = hw;
    return j;
}

}  // namespace mcmsim
