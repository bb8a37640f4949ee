#include "hw/config/package_config.h"

#include "hw/config/physical_ranges.h"

#include "hw/config/presets.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace mcmsim {

void read_link_fields(JsonObject& o, LinkConfig& l) {
    o.allow("source");
    l.bandwidth_gbps = o.number_in("bandwidth_gbps", l.bandwidth_gbps, ranges::kMinBandwidthGbps, ranges::kMaxBandwidthGbps);
    l.latency_ns = o.number_in("latency_ns", l.latency_ns, 0, ranges::kMaxLatencyNs);
    l.energy_pj_per_bit = o.number_in("energy_pj_per_bit", l.energy_pj_per_bit, 0, ranges::kMaxEnergyPjPerBit);
    o.finish();
}

namespace {

void read_router(JsonObject o, RouterConfig& r) {
    o.allow("source");
    r.model = o.choice("model", r.model);
    r.packet_buffers = o.choice("packet_buffers", r.packet_buffers);
    r.clock_ghz = o.number_in("clock_ghz", r.clock_ghz, ranges::kMinClockGhz, ranges::kMaxClockGhz);
    // The VC router's pipeline has VA, SA and ST stages besides route computation.
    r.pipeline_cycles = o.integer_in("pipeline_cycles", r.pipeline_cycles, r.model == RouterModel::Vc ? 3 : 1, 64);
    r.vcs = o.integer_in("vcs", r.vcs, 1, 64);
    r.buffer_depth = o.integer_in("buffer_depth", r.buffer_depth, 1, 1024);
    r.flit_bytes = o.integer_in("flit_bytes", r.flit_bytes, 1, 4096);
    r.energy_pj_per_flit = o.number_in("energy_pj_per_flit", r.energy_pj_per_flit, 0, ranges::kMaxEnergyPjPerEvent);
    r.port_flits = o.integer_in("port_flits", r.port_flits, 0, 64);
    r.d2d_buffer_flits = o.integer_in("d2d_buffer_flits", r.d2d_buffer_flits, 0, 16384);
    o.finish();
}

/// The class a link between chiplets a and b has by where they sit.
LinkClass class_by_position(int a, int b, int cols) {
    if (a / cols == b / cols) return LinkClass::Row;
    if (a % cols == b % cols) return LinkClass::Column;
    return LinkClass::Diagonal;
}

/// A graph package's "edges": [a, b] pairs or {"between": [a, b], "class": ...} objects,
/// each a link both ways between two chiplets, at most kMaxGraphPorts per chiplet, all
/// chiplets connected.
std::vector<PackageEdge> read_edges(const JsonNode& n, int rows, int cols) {
    constexpr int kMaxGraphPorts = 8;  // the link-id stride of the package topology
    const int chiplets = rows * cols;
    std::vector<PackageEdge> edges;
    std::vector<int> degree(static_cast<std::size_t>(chiplets), 0);
    std::vector<std::vector<int>> adjacent(static_cast<std::size_t>(chiplets));
    const std::vector<JsonNode> items = n.array();
    if (items.empty()) n.fail("a non-empty array of links between chiplets", "an empty array");
    for (const JsonNode& item : items) {
        PackageEdge e;
        std::optional<JsonNode> ends;
        std::optional<LinkClass> cls;
        if (item.is_object()) {
            JsonObject o = item.object();
            o.allow("source");
            ends = o.required("between");
            if (auto c = o.optional("class")) cls = c->choice<LinkClass>();
            o.finish();
        } else {
            ends = item;
        }
        const std::vector<JsonNode> pair = ends->array();
        if (pair.size() != 2) ends->fail("two chiplet ids [a, b]", std::to_string(pair.size()) + " values");
        e.a = static_cast<int>(pair[0].integer_in(0, chiplets - 1));
        e.b = static_cast<int>(pair[1].integer_in(0, chiplets - 1));
        if (e.a == e.b) pair[1].fail("a chiplet other than " + std::to_string(e.a), "the same chiplet");
        for (int x : adjacent[static_cast<std::size_t>(e.a)])
            if (x == e.b)
                ends->fail("each pair of chiplets linked once",
                           "a second link between " + std::to_string(e.a) + " and " + std::to_string(e.b));
        for (int x : {e.a, e.b})
            if (++degree[static_cast<std::size_t>(x)] > kMaxGraphPorts)
                ends->fail("at most " + std::to_string(kMaxGraphPorts) + " links per chiplet",
                           "a link more at chiplet " + std::to_string(x));
        adjacent[static_cast<std::size_t>(e.a)].push_back(e.b);
        adjacent[static_cast<std::size_t>(e.b)].push_back(e.a);
        e.link_class = cls ? *cls : class_by_position(e.a, e.b, cols);
        edges.push_back(e);
    }
    std::vector<bool> seen(static_cast<std::size_t>(chiplets), false);
    std::vector<int> stack{0};
    seen[0] = true;
    while (!stack.empty()) {
        const int at = stack.back();
        stack.pop_back();
        for (int x : adjacent[static_cast<std::size_t>(at)])
            if (!seen[static_cast<std::size_t>(x)]) seen[static_cast<std::size_t>(x)] = true, stack.push_back(x);
    }
    for (int c = 0; c < chiplets; ++c)
        if (!seen[static_cast<std::size_t>(c)])
            n.fail("links that connect every chiplet", "chiplet " + std::to_string(c) + " cut off from chiplet 0");
    return edges;
}

}  // namespace

bool PackageConfig::has_link_class(LinkClass c) const {
    switch (topology) {
        case PackageTopology::Mesh:
        case PackageTopology::Torus:
            return c != LinkClass::Diagonal;
        case PackageTopology::MeshDiagonal:
            return true;
        case PackageTopology::Graph:
            break;
    }
    for (const PackageEdge& e : edges)
        if (e.link_class == c) return true;
    return false;
}

PackageConfig read_package(JsonObject o, const std::string& arch_file) {
    PackageConfig p;
    o.allow("source");
    o.allow("derived");  // the implied figures a dumped config carries: recomputed, never read
    p.rows = static_cast<int>(o.required("rows").integer_in(1, 64));
    p.cols = static_cast<int>(o.required("cols").integer_in(1, 64));
    p.topology = o.choice("topology", p.topology);
    if (p.topology == PackageTopology::Graph) {
        if (auto r = o.optional("routing"))
            r->fail("no routing on a graph package (it is routed up*/down*)", describe_json(r->raw()));
        p.edges = read_edges(o.required("edges"), p.rows, p.cols);
    } else {
        p.routing = o.choice("routing", p.routing);
        if (auto e = o.optional("edges"))
            e->fail("no edges: they belong to topology \"graph\"",
                    "edges with topology \"" + std::string(to_string(p.topology)) + "\"");
    }
    if (auto l = o.optional("link")) p.link = read_with_preset<LinkConfig>(*l, arch_file, "links", read_link_fields);
    if (auto ls = o.optional("links")) {
        JsonObject lo = ls->object();
        for (const auto& [c, name] : ChoiceNames<LinkClass>::all) {
            auto l = lo.optional(name);
            if (!l) continue;
            if (!p.has_link_class(c))
                l->fail(
                    "a link class the package has: row or column (diagonal with topology mesh_diagonal, or graph "
                    "edges of that class)",
                    name);
            p.class_links[static_cast<std::size_t>(c)] = read_with_preset<LinkConfig>(*l, arch_file, "links", read_link_fields);
        }
        lo.finish();
    }
    if (auto r = o.optional("router")) read_router(r->object(), p.router);
    p.max_packet_bytes = o.integer_in("max_packet_bytes", p.max_packet_bytes, 1, 1 << 20);
    o.finish();
    return p;
}

std::int64_t port_flits_for(const PackageConfig& p, LinkClass c) {
    if (p.router.port_flits > 0) return p.router.port_flits;
    return std::max<std::int64_t>(
        1, static_cast<std::int64_t>(std::ceil(p.link_of(c).bandwidth_gbps / p.router.flit_gbps() - 1e-9)));
}

double d2d_hop_gbps(const PackageConfig& p, LinkClass c) {
    return std::min(p.link_of(c).bandwidth_gbps, static_cast<double>(port_flits_for(p, c)) * p.router.flit_gbps());
}

std::vector<std::string> package_warnings(const PackageConfig& p) {
    std::vector<std::string> out;
    for (const auto& [c, name] : ChoiceNames<LinkClass>::all) {
        if (!p.has_link_class(c)) continue;
        if (c != LinkClass::Row && !p.class_links[static_cast<std::size_t>(c)]) continue;  // the same link as the rows'
        const double port = static_cast<double>(port_flits_for(p, c)) * p.router.flit_gbps();
        const double link = p.link_of(c).bandwidth_gbps;
        if (port + 1e-9 >= link) continue;
        std::ostringstream w;
        w << std::setprecision(4) << "/package/router/port_flits: a router port of " << port_flits_for(p, c)
          << " flits per cycle carries " << port << " GB/s, less than the " << (p.classed_links() ? std::string(name) + " " : "")
          << "link's " << link << " GB/s: every model runs the link at the port's rate";
        out.push_back(w.str());
    }
    return out;
}

nlohmann::json package_to_json(const PackageConfig& p) {
    using nlohmann::json;
    json package = {{"rows", p.rows},
                    {"cols", p.cols},
                    {"topology", to_string(p.topology)},
                    {"routing", to_string(p.routing)},
                    {"link",
                     {{"preset", p.link.preset},
                      {"bandwidth_gbps", p.link.bandwidth_gbps},
                      {"latency_ns", p.link.latency_ns},
                      {"energy_pj_per_bit", p.link.energy_pj_per_bit}}},
                    {"router",
                     {{"model", to_string(p.router.model)},
                      {"packet_buffers", to_string(p.router.packet_buffers)},
                      {"clock_ghz", p.router.clock_ghz},
                      {"pipeline_cycles", p.router.pipeline_cycles},
                      {"flit_bytes", p.router.flit_bytes},
                      {"energy_pj_per_flit", p.router.energy_pj_per_flit},
                      {"vcs", p.router.vcs},
                      {"buffer_depth", p.router.buffer_depth},
                      {"port_flits", p.router.port_flits},
                      {"d2d_buffer_flits", p.router.d2d_buffer_flits}}},
                    {"max_packet_bytes", p.max_packet_bytes},
                    // Figures the config implies, recomputed on load (the reader skips them).
                    {"derived",
                     {{"port_flits", port_flits_for(p)},
                      {"port_gbps", static_cast<double>(port_flits_for(p)) * p.router.flit_gbps()},
                      {"d2d_hop_gbps", d2d_hop_gbps(p)}}}};
    // A preset name is only informative: the fields already hold its values.
    if (p.link.preset.empty()) package["link"].erase("preset");
    if (p.topology == PackageTopology::Graph) {
        package.erase("routing");
        json edges = json::array();
        for (const PackageEdge& e : p.edges) edges.push_back({{"between", {e.a, e.b}}, {"class", to_string(e.link_class)}});
        package["edges"] = edges;
    }
    if (p.classed_links()) {
        json links = json::object(), hops = json::object();
        for (const auto& [c, name] : ChoiceNames<LinkClass>::all) {
            if (!p.has_link_class(c)) continue;
            hops[name] = d2d_hop_gbps(p, c);
            const auto& o = p.class_links[static_cast<std::size_t>(c)];
            if (!o) continue;
            json l = {{"preset", o->preset},
                      {"bandwidth_gbps", o->bandwidth_gbps},
                      {"latency_ns", o->latency_ns},
                      {"energy_pj_per_bit", o->energy_pj_per_bit}};
            if (o->preset.empty()) l.erase("preset");
            links[name] = l;
        }
        package["links"] = links;
        package["derived"]["d2d_hop_gbps_by_class"] = hops;
    }
    return package;
}

}  // namespace mcmsim
