#include "noc/package_network.h"

#include "hw/common/input_error.h"

#include "noc/packet/packet_network.h"
#include "noc/vc/vc_package_network.h"

#include <stdexcept>

namespace mcmsim {

PackageNetwork::PackageNetwork(const ArchConfig& arch)
    : topo_(MeshTopology::of_package(arch.package)), chiplets_(arch.chiplet_count()) {
    for (int c = 0; c < chiplets_; ++c) node_router_.push_back(c);
    for (const MemoryConfig& m : arch.memories) node_router_.push_back(topo_.id(m.attach_row, m.attach_col));
}

void PackageNetwork::check_route(int src_node, int dst_node, const std::vector<int>& route) const {
    auto fail = [&](const std::string& why) {
        std::string r;
        for (int x : route) r += (r.empty() ? "" : " ") + std::to_string(x);
        throw std::invalid_argument("source route [" + r + "] from node " + std::to_string(src_node) + " to node " +
                                    std::to_string(dst_node) + ": " + why);
    };
    if (route.empty()) fail("empty");
    if (route.front() != router_of(src_node))
        fail("starts at router " + std::to_string(route.front()) + ", not the source's router " +
             std::to_string(router_of(src_node)));
    if (route.back() != router_of(dst_node))
        fail("ends at router " + std::to_string(route.back()) + ", not the destination's router " +
             std::to_string(router_of(dst_node)));
    for (std::size_t h = 1; h < route.size(); ++h)
        if (route[h] < 0 || route[h] >= topo_.routers() || topo_.port_to(route[h - 1], route[h]) == Port::Local)
            fail("routers " + std::to_string(route[h - 1]) + " and " + std::to_string(route[h]) + " are not neighbours");
}

Tick PackageNetwork::inject(int src_node, int dst_node, Packet* p, Tick ready) {
    if (p->route) check_route(src_node, dst_node, *p->route);
    p->src_node = src_node;
    p->dst_node = dst_node;
    p->dst_router = router_of(dst_node);
    p->created = ready;
    ++injected_;
    bytes_injected_ += p->payload_bytes;
    return send(p, ready);
}

void PackageNetwork::delivered(Packet* p) {
    ++delivered_;
    bytes_delivered_ += p->payload_bytes;
    pool_.put(p);
}

/// The VC network the package's routers and links make: its router micro-architecture from
/// package.router, one link class, the package's die-to-die link.
VcNetworkConfig package_vc_config(const ArchConfig& arch) {
    const PackageConfig& pkg = arch.package;
    const RouterConfig& rc = pkg.router;
    VcNetworkConfig c;
    c.router.clock_ghz = rc.clock_ghz;
    c.router.vcs = static_cast<int>(rc.vcs);
    c.router.buffer_depth = static_cast<int>(rc.buffer_depth);
    c.router.flit_bits = static_cast<int>(rc.flit_bytes * 8);
    c.router.stages = RouterStages{static_cast<int>(rc.pipeline_cycles) - 3, 1, 1, 1};
    c.router.energy = RouterEnergy{0, 0, rc.energy_pj_per_flit, 0};
    // One link class, or with links of their own per direction one per LinkClass in its
    // order: package_noc_topology gives each channel the class of its direction.
    for (const auto& [lc, name] : ChoiceNames<LinkClass>::all) {
        if (!pkg.classed_links() && lc != LinkClass::Row) break;
        const LinkConfig& link = pkg.link_of(lc);
        NocLinkConfig d2d;
        d2d.name = link.preset.empty() ? (pkg.classed_links() ? "d2d-" + std::string(name) : std::string("d2d")) : link.preset;
        d2d.die_to_die = true;
        d2d.bandwidth_gbps = link.bandwidth_gbps;
        d2d.latency_ns = link.latency_ns;
        d2d.energy_pj_per_bit = link.energy_pj_per_bit;
        d2d.port_flits = static_cast<int>(port_flits_for(pkg, lc));
        d2d.buffer_flits = static_cast<int>(rc.d2d_buffer_flits);
        resolve_link(d2d, c.router);
        c.links.push_back(d2d);
    }
    return c;
}

int package_vc_link_class(const PackageConfig& p, LinkClass c) { return p.classed_links() ? static_cast<int>(c) : 0; }

NocTopology package_noc_topology(const ArchConfig& arch, const MeshTopology& mesh) {
    NocTopology t = NocTopology::of_mesh(mesh);
    for (int c = 0; c < static_cast<int>(t.channels().size()); ++c)
        t.set_link_class(c, package_vc_link_class(arch.package, static_cast<LinkClass>(t.channel(c).dim)));
    return t;
}

nlohmann::json package_link_figures(const ArchConfig& arch) {
    const VcNetworkConfig c = package_vc_config(arch);
    auto figures = [&](const NocLinkConfig& l) {
        return nlohmann::json{{"cycles_per_flit", l.cycles_per_flit},
                              {"latency_cycles", l.latency_cycles},
                              {"port_flits", l.port_flits},
                              {"buffer_flits", l.buffer_flits > 0 ? l.buffer_flits : c.router.buffer_depth},
                              {"credit_round_trip_cycles", credit_round_trip_cycles(l, c.router)}};
    };
    if (!arch.package.classed_links()) return figures(c.links.front());  // one class
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [lc, name] : ChoiceNames<LinkClass>::all)
        if (arch.package.has_link_class(lc)) out[name] = figures(c.links[static_cast<std::size_t>(lc)]);
    return out;
}

void check_package_network(const ArchConfig& arch) {
    // A torus's rings need two VC classes wherever buffers are bounded (dateline_step).
    if (arch.package.topology == PackageTopology::Torus && !ideal_routers(arch.package) && arch.package.router.vcs < 2)
        throw InputError(arch.file, "/package/router/vcs", "at least 2 VCs on a torus with bounded buffers (dateline classes)",
                         std::to_string(arch.package.router.vcs));
    if (arch.package.router.model != RouterModel::Vc) return;
    const VcNetworkConfig c = package_vc_config(arch);
    for (const auto& [lc, name] : ChoiceNames<LinkClass>::all)
        if (auto e = vc_link_limit(c.links[static_cast<std::size_t>(package_vc_link_class(arch.package, lc))]))
            throw InputError(arch.file,
                             arch.package.class_links[static_cast<std::size_t>(lc)]
                                 ? "/package/links/" + std::string(name) + "/latency_ns"
                                 : "/package/link/latency_ns",
                             e->first, e->second);
}

std::unique_ptr<PackageNetwork> make_package_network(const char* name, const ArchConfig& arch, EnergyLedger& ledger) {
    switch (arch.package.router.model) {
        case RouterModel::Vc:
            return std::make_unique<VcPackageNetwork>(name, arch, ledger);
        case RouterModel::Packet:
            break;
    }
    return std::make_unique<PacketNetwork>(name, arch, ledger);
}

}  // namespace mcmsim
