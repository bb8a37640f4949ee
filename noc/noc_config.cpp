#include "noc/noc_config.h"

#include "hw/config/package_config.h"
#include "hw/config/physical_ranges.h"
#include "hw/config/presets.h"

#include <cmath>
#include <map>

namespace mcmsim {

void resolve_link(NocLinkConfig& l, const VcRouterConfig& router) {
    if (!l.die_to_die) {
        l.cycles_per_flit = (router.flit_bits + l.width_bits - 1) / l.width_bits;
        l.port_flits = 1;
        return;
    }
    const double bytes_per_cycle = l.bandwidth_gbps / router.clock_ghz;
    l.cycles_per_flit = router.flit_bits / 8.0 / bytes_per_cycle;
    l.latency_cycles = std::max(1, static_cast<int>(std::ceil(l.latency_ns * router.clock_ghz - 1e-9)));
    if (l.port_flits <= 0) l.port_flits = std::max(1, static_cast<int>(std::ceil(1.0 / l.cycles_per_flit - 1e-9)));
    if (l.buffer_flits <= 0) l.buffer_flits = std::max(router.buffer_depth, round_trip_buffer_flits(l, router));
}

std::optional<std::pair<std::string, std::string>> vc_link_limit(const NocLinkConfig& l) {
    constexpr int kMax = 32767;
    if (l.latency_cycles > kMax)
        return std::pair<std::string, std::string>{"a link latency of at most " + std::to_string(kMax) + " router cycles",
                                                   std::to_string(l.latency_cycles) + " cycles"};
    if (l.buffer_flits > kMax)
        return std::pair<std::string, std::string>{
            "a link whose credit round trip needs at most " + std::to_string(kMax) + " flits of buffer per VC",
            std::to_string(l.buffer_flits) + " flits"};
    return std::nullopt;
}

int ni_buffer_flits(const VcNetworkConfig& c) {
    int widest = 1;
    for (const NocLinkConfig& l : c.links) widest = std::max(widest, l.port_flits);
    return std::max(c.router.buffer_depth, (c.router.pipeline_cycles() + c.ni_latency_cycles + 1) * widest);
}

int credit_round_trip_cycles(const NocLinkConfig& l, const VcRouterConfig& router) {
    return 2 * l.latency_cycles + router.pipeline_cycles() + 2;
}

int round_trip_buffer_flits(const NocLinkConfig& l, const VcRouterConfig& router) {
    const double flits_per_cycle = std::min(static_cast<double>(std::max(1, l.port_flits)), 1.0 / l.cycles_per_flit);
    return static_cast<int>(std::ceil(credit_round_trip_cycles(l, router) * flits_per_cycle - 1e-9)) + 1;
}

namespace {

void read_stages(JsonObject o, RouterStages& s) {
    s.route = static_cast<int>(o.integer_in("route", s.route, 0, 16));
    s.vc_alloc = static_cast<int>(o.integer_in("vc_alloc", s.vc_alloc, 0, 16));
    s.switch_alloc = static_cast<int>(o.integer_in("switch_alloc", s.switch_alloc, 0, 16));
    s.switch_traversal = static_cast<int>(o.integer_in("switch_traversal", s.switch_traversal, 0, 16));
    o.finish();
}

void read_energy(JsonObject o, RouterEnergy& e) {
    o.allow("source");
    e.buffer_write_pj = o.number_in("buffer_write_pj", e.buffer_write_pj, 0, ranges::kMaxEnergyPjPerEvent);
    e.buffer_read_pj = o.number_in("buffer_read_pj", e.buffer_read_pj, 0, ranges::kMaxEnergyPjPerEvent);
    e.crossbar_pj = o.number_in("crossbar_pj", e.crossbar_pj, 0, ranges::kMaxEnergyPjPerEvent);
    e.allocation_pj = o.number_in("allocation_pj", e.allocation_pj, 0, ranges::kMaxEnergyPjPerEvent);
    o.finish();
}

void read_router(JsonObject o, VcRouterConfig& r) {
    o.allow("source");
    r.clock_ghz = o.number_in("clock_ghz", r.clock_ghz, ranges::kMinClockGhz, ranges::kMaxClockGhz);
    if (auto v = o.optional("vcs")) {
        std::int64_t n = v->integer();
        if (n < 1 || n > 64) v->fail("a VC count in [1, 64]");
        r.vcs = static_cast<int>(n);
    }
    r.buffer_depth = static_cast<int>(o.integer_in("buffer_depth", r.buffer_depth, 1, 1024));
    r.flit_bits = static_cast<int>(o.integer_in("flit_bits", r.flit_bits, 8, 8192));
    if (auto s = o.optional("stages")) read_stages(s->object(), r.stages);
    r.lookahead = o.boolean("lookahead", r.lookahead);
    // A flit takes at least the cycle of its switch traversal: a router without a stage
    // would move flits through any number of hops in zero time.
    if (r.pipeline_cycles() < 1) {
        const JsonNode where = o.has("stages") ? o.required("stages") : o.node();
        where.fail("a router pipeline of at least one cycle (stages, less route with lookahead)",
                   std::to_string(r.pipeline_cycles()) + " cycles");
    }
    if (auto e = o.optional("energy")) read_energy(e->object(), r.energy);
    o.finish();
}

void read_on_die_link(JsonObject o, NocLinkConfig& l) {
    o.allow("source");
    l.latency_cycles = static_cast<int>(o.integer_in("latency_cycles", l.latency_cycles, 1, 1000));
    l.width_bits = static_cast<int>(o.integer_in("width_bits", l.width_bits, 1, 8192));
    l.energy_pj_per_bit = o.number_in("energy_pj_per_bit", l.energy_pj_per_bit, 0, ranges::kMaxEnergyPjPerBit);
    o.finish();
}

/// A D2D link: a preset name, or {"preset": .., overrides}.
NocLinkConfig read_d2d_link(const JsonNode& node, const std::string& file) {
    LinkConfig lc = read_with_preset<LinkConfig>(node, file, "links", read_link_fields);
    NocLinkConfig l;
    l.die_to_die = true;
    l.preset = lc.preset;
    l.name = lc.preset.empty() ? "d2d" : lc.preset;
    l.bandwidth_gbps = lc.bandwidth_gbps;
    l.latency_ns = lc.latency_ns;
    l.energy_pj_per_bit = lc.energy_pj_per_bit;
    l.where = node.pointer();
    return l;
}

void read_grid(JsonObject& o, int& rows, int& cols) {
    rows = static_cast<int>(o.required("rows").integer_in(1, 256));
    cols = static_cast<int>(o.required("cols").integer_in(1, 256));
}

/// {"type": "graph", "nodes": ["a", ..], "links": [{"from": "a", "to": "b", <on-die fields>
/// or "d2d": preset-or-object}]}: every link is bidirectional and gets its own parameters.
void read_graph(JsonObject& o, NocConfig& c, const std::string& file) {
    std::map<std::string, int> index;
    for (const JsonNode& n : o.required("nodes").array()) {
        std::string name = n.string();
        if (name.empty() || !index.emplace(name, static_cast<int>(c.graph_nodes.size())).second)
            n.fail("a unique, non-empty router name");
        c.graph_nodes.push_back(name);
    }
    if (c.graph_nodes.empty()) o.required("nodes").fail("at least one router");
    for (const JsonNode& ln : o.required("links").array()) {
        JsonObject l = ln.object();
        auto node_of = [&](const char* key) {
            JsonNode v = l.required(key);
            auto it = index.find(v.string());
            if (it == index.end()) v.fail("a router listed in /topology/nodes");
            return it->second;
        };
        int a = node_of("from"), b = node_of("to");
        if (a == b) ln.fail("a link between two different routers");
        NocLinkConfig link;
        if (auto d = l.optional("d2d")) {
            link = read_d2d_link(*d, file);
        } else {
            link.name = "on_die";
            link.width_bits = c.router.flit_bits;
            link.latency_cycles = static_cast<int>(l.integer_in("latency_cycles", link.latency_cycles, 1, 1000));
            link.width_bits = static_cast<int>(l.integer_in("width_bits", link.width_bits, 1, 8192));
            link.energy_pj_per_bit = l.number_in("energy_pj_per_bit", link.energy_pj_per_bit, 0, ranges::kMaxEnergyPjPerBit);
        }
        l.finish();
        c.links.push_back(link);
        c.graph_links.push_back({a, b, static_cast<int>(c.links.size() - 1)});
    }
    // Every router must reach every other: traffic between two islands could never arrive.
    std::vector<std::vector<int>> adjacent(c.graph_nodes.size());
    for (const NocTopology::GraphLink& l : c.graph_links) {
        adjacent[static_cast<std::size_t>(l.a)].push_back(l.b);
        adjacent[static_cast<std::size_t>(l.b)].push_back(l.a);
    }
    std::vector<bool> reached(c.graph_nodes.size(), false);
    std::vector<int> frontier{0};
    reached[0] = true;
    for (std::size_t k = 0; k < frontier.size(); ++k)
        for (int n : adjacent[static_cast<std::size_t>(frontier[k])])
            if (!reached[static_cast<std::size_t>(n)]) {
                reached[static_cast<std::size_t>(n)] = true;
                frontier.push_back(n);
            }
    for (std::size_t r = 0; r < reached.size(); ++r)
        if (!reached[r])
            o.required("links").fail("links that connect every router",
                                     "router \"" + c.graph_nodes[r] + "\" unreachable from \"" + c.graph_nodes[0] + "\"");
    c.rows = 1;
    c.cols = static_cast<int>(c.graph_nodes.size());
}

/// The topology types a config names: the graph kinds, and a hierarchical package of on-die
/// meshes (a mesh whose links between chiplets are die-to-die links).
enum class TopologyType { Mesh, Torus, DiagonalMesh, Hierarchical, Graph };

}  // namespace

template <>
struct ChoiceNames<TopologyType> {
    static constexpr std::pair<TopologyType, const char*> all[] = {{TopologyType::Mesh, "mesh"},
                                                                   {TopologyType::Torus, "torus"},
                                                                   {TopologyType::DiagonalMesh, "diagonal_mesh"},
                                                                   {TopologyType::Hierarchical, "hierarchical"},
                                                                   {TopologyType::Graph, "graph"}};
};

namespace {

void read_topology(JsonObject o, NocConfig& c, const std::string& file) {
    const TopologyType t = o.required("type").choice<TopologyType>();
    if (t == TopologyType::Graph) {
        c.topology = NocTopologyKind::Graph;
        read_graph(o, c, file);
        o.finish();
        return;
    }
    c.topology = t == TopologyType::Torus          ? NocTopologyKind::Torus
                 : t == TopologyType::DiagonalMesh ? NocTopologyKind::DiagonalMesh
                                                   : NocTopologyKind::Mesh;
    if (t == TopologyType::Hierarchical) {
        // chiplets: the package grid; chiplet_mesh: the on-die mesh inside each chiplet.
        int pr = 0, pc = 0;
        JsonObject chiplets = o.required("chiplets").object();
        read_grid(chiplets, pr, pc);
        chiplets.finish();
        JsonObject inner = o.required("chiplet_mesh").object();
        read_grid(inner, c.chiplet_rows, c.chiplet_cols);
        inner.finish();
        c.rows = pr * c.chiplet_rows;
        c.cols = pc * c.chiplet_cols;
        if (c.rows > 256 || c.cols > 256)
            o.node().fail("at most 256 x 256 routers", std::to_string(c.rows) + " x " + std::to_string(c.cols));
    } else {
        read_grid(o, c.rows, c.cols);
    }
    o.finish();
}

}  // namespace

NocConfig read_noc_config(JsonObject o, const std::string& file) {
    NocConfig c;
    c.file = file;
    o.allow("source");
    o.allow("description");
    c.name = o.string("name", "noc");
    if (auto r = o.optional("router")) read_router(r->object(), c.router);
    NocLinkConfig on_die;
    on_die.name = "on_die";
    on_die.width_bits = c.router.flit_bits;
    if (auto l = o.optional("link")) read_on_die_link(l->object(), on_die);
    c.links.push_back(on_die);
    read_topology(o.required("topology").object(), c, file);
    if (auto d = o.optional("d2d_link")) {
        if (!c.chiplet_rows) d->fail("no \"d2d_link\" (hierarchical topologies only)", describe_json(d->raw()));
        c.links.push_back(read_d2d_link(*d, file));
    } else if (c.chiplet_rows) {
        o.node().fail("a \"d2d_link\" (preset name or object) for a hierarchical topology", "none");
    }
    // Routing must fit the topology: DOR on grids, diagonal-aware only with diagonals.
    const NocRouting default_routing = c.topology == NocTopologyKind::DiagonalMesh ? NocRouting::Diagonal
                                       : c.topology == NocTopologyKind::Graph      ? NocRouting::Table
                                                                                   : NocRouting::XY;
    if (auto r = o.optional("routing")) {
        c.routing = r->choice<NocRouting>();
        const NocRouting rt = c.routing;
        bool ok = true;
        std::string expected;
        switch (c.topology) {
            case NocTopologyKind::Mesh:
                ok = rt == NocRouting::XY || rt == NocRouting::YX || rt == NocRouting::WestFirst || rt == NocRouting::Table;
                expected = "a routing algorithm for a mesh (xy, yx, west_first, table)";
                break;
            case NocTopologyKind::Torus:
                ok = rt == NocRouting::XY || rt == NocRouting::YX || rt == NocRouting::Table;
                expected = "a routing algorithm for a torus (xy, yx, table)";
                break;
            case NocTopologyKind::DiagonalMesh:
                ok = rt == NocRouting::Diagonal || rt == NocRouting::Table;
                expected = "a routing algorithm for a diagonal mesh (diagonal, table)";
                break;
            case NocTopologyKind::Graph:
                ok = rt == NocRouting::Table;
                expected = "a routing algorithm for a custom graph (table)";
                break;
        }
        if (!ok) r->fail(expected, std::string("\"") + to_string(rt) + "\" (topology " + build_topology(c).kind_name() + ")");
    } else {
        c.routing = default_routing;
    }
    if (auto d = o.optional("dateline")) {
        if (c.topology != NocTopologyKind::Torus) d->fail("no \"dateline\" (torus only)", describe_json(d->raw()));
        c.dateline = d->boolean();
    }
    if (c.topology == NocTopologyKind::Torus && c.dateline && c.router.vcs < 2)
        o.node().fail("at least 2 VCs for a torus with dateline classes", std::to_string(c.router.vcs) + " VC");
    c.ni_latency_cycles = static_cast<int>(o.integer_in("ni_latency_cycles", c.ni_latency_cycles, 1, 1000));
    c.packet_flits = static_cast<int>(o.integer_in("packet_flits", c.packet_flits, 1, 1024));
    c.watchdog_cycles = o.integer_in("watchdog_cycles", c.watchdog_cycles, 10, 1'000'000'000);
    o.finish();
    for (NocLinkConfig& l : c.links) {
        resolve_link(l, c.router);
        if (auto e = vc_link_limit(l)) throw InputError(file, l.where + "/latency_ns", e->first, e->second);
    }
    return c;
}

NocConfig load_noc_config(const std::string& path) {
    json doc = load_json_file(path);
    return read_noc_config(json_root(doc, path).object(), path);
}

NocTopology build_topology(const NocConfig& c) {
    switch (c.topology) {
        case NocTopologyKind::Torus:
            return NocTopology::torus(c.rows, c.cols);
        case NocTopologyKind::DiagonalMesh:
            return NocTopology::diagonal_mesh(c.rows, c.cols);
        case NocTopologyKind::Graph:
            return NocTopology::graph(c.graph_nodes, c.graph_links);
        case NocTopologyKind::Mesh:
            break;
    }
    NocTopology t = NocTopology::mesh(c.rows, c.cols);
    if (c.chiplet_rows > 0) {
        auto chiplet = [&](int r) { return (t.row_of(r) / c.chiplet_rows) * 1000 + t.col_of(r) / c.chiplet_cols; };
        for (int ch = 0; ch < static_cast<int>(t.channels().size()); ++ch)
            if (chiplet(t.channel(ch).src) != chiplet(t.channel(ch).dst)) t.set_link_class(ch, 1);
    }
    return t;
}

namespace {
nlohmann::json graph_links_json(const NocConfig& c) {
    nlohmann::json out = nlohmann::json::array();
    for (const NocTopology::GraphLink& l : c.graph_links)
        out.push_back({{"from", c.graph_nodes[static_cast<std::size_t>(l.a)]},
                       {"to", c.graph_nodes[static_cast<std::size_t>(l.b)]},
                       {"link", l.link_class}});
    return out;
}
}  // namespace

nlohmann::json noc_config_to_json(const NocConfig& c) {
    using nlohmann::json;
    json links = json::array();
    for (const NocLinkConfig& l : c.links)
        links.push_back({{"name", l.name},
                         {"die_to_die", l.die_to_die},
                         {"latency_cycles", l.latency_cycles},
                         {"cycles_per_flit", l.cycles_per_flit},
                         {"port_flits", l.port_flits},
                         {"buffer_flits", l.buffer_flits},
                         {"width_bits", l.width_bits},
                         {"bandwidth_gbps", l.bandwidth_gbps},
                         {"latency_ns", l.latency_ns},
                         {"energy_pj_per_bit", l.energy_pj_per_bit}});
    const VcRouterConfig& r = c.router;
    return {{"name", c.name},
            {"topology",
             {{"type", c.chiplet_rows ? "hierarchical" : build_topology(c).kind_name()},
              {"rows", c.rows},
              {"cols", c.cols},
              {"chiplet_rows", c.chiplet_rows},
              {"chiplet_cols", c.chiplet_cols}}},
            {"graph", {{"nodes", c.graph_nodes}, {"links", graph_links_json(c)}}},
            {"routing", to_string(c.routing)},
            {"dateline", c.dateline},
            {"router",
             {{"clock_ghz", r.clock_ghz},
              {"vcs", r.vcs},
              {"buffer_depth", r.buffer_depth},
              {"flit_bits", r.flit_bits},
              {"stages",
               {{"route", r.stages.route},
                {"vc_alloc", r.stages.vc_alloc},
                {"switch_alloc", r.stages.switch_alloc},
                {"switch_traversal", r.stages.switch_traversal}}},
              {"lookahead", r.lookahead},
              {"energy",
               {{"buffer_write_pj", r.energy.buffer_write_pj},
                {"buffer_read_pj", r.energy.buffer_read_pj},
                {"crossbar_pj", r.energy.crossbar_pj},
                {"allocation_pj", r.energy.allocation_pj}}}}},
            {"links", links},
            {"ni_latency_cycles", c.ni_latency_cycles},
            {"packet_flits", c.packet_flits},
            {"watchdog_cycles", c.watchdog_cycles}};
}

}  // namespace mcmsim
