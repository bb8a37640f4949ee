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
    NocLinkConfig d2d;
    d2d.name = pkg.link.preset.empty() ? "d2d" : pkg.link.preset;
    d2d.die_to_die = true;
    d2d.bandwidth_gbps = pkg.link.bandwidth_gbps;
    d2d.latency_ns = pkg.link.latency_ns;
    d2d.energy_pj_per_bit = pkg.link.energy_pj_per_bit;
    d2d.port_flits = static_cast<int>(port_flits_for(pkg));
    d2d.buffer_flits = static_cast<int>(rc.d2d_buffer_flits);
    resolve_link(d2d, c.router);
    c.links = {d2d};  // NocTopology::of_mesh gives every channel link class 0
    return c;
}

nlohmann::json package_link_figures(const ArchConfig& arch) {
    const VcNetworkConfig c = package_vc_config(arch);
    const NocLinkConfig& l = c.links.front();
    return {{"cycles_per_flit", l.cycles_per_flit},
            {"latency_cycles", l.latency_cycles},
            {"port_flits", l.port_flits},
            {"buffer_flits", l.buffer_flits > 0 ? l.buffer_flits : c.router.buffer_depth},
            {"credit_round_trip_cycles", credit_round_trip_cycles(l, c.router)}};
}

void check_package_network(const ArchConfig& arch) {
    if (arch.package.router.model != RouterModel::Vc) return;
    if (auto e = vc_link_limit(package_vc_config(arch).links.front()))
        throw InputError(arch.file, "/package/link/latency_ns", e->first, e->second);
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
