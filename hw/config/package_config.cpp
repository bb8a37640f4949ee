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

}  // namespace

PackageConfig read_package(JsonObject o, const std::string& arch_file) {
    PackageConfig p;
    o.allow("source");
    o.allow("derived");  // the implied figures a dumped config carries: recomputed, never read
    p.rows = static_cast<int>(o.required("rows").integer_in(1, 64));
    p.cols = static_cast<int>(o.required("cols").integer_in(1, 64));
    p.topology = o.choice("topology", p.topology);
    p.routing = o.choice("routing", p.routing);
    if (auto l = o.optional("link")) p.link = read_with_preset<LinkConfig>(*l, arch_file, "links", read_link_fields);
    if (auto ls = o.optional("links")) {
        JsonObject lo = ls->object();
        for (const auto& [c, name] : ChoiceNames<LinkClass>::all) {
            auto l = lo.optional(name);
            if (!l) continue;
            if (c == LinkClass::Diagonal && !p.diagonals())
                l->fail("a link class the topology has: row or column (diagonal with topology mesh_diagonal)", "diagonal");
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
        if (c == LinkClass::Diagonal && !p.diagonals()) continue;
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
    if (p.classed_links()) {
        json links = json::object(), hops = json::object();
        for (const auto& [c, name] : ChoiceNames<LinkClass>::all) {
            if (c == LinkClass::Diagonal && !p.diagonals()) continue;
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
