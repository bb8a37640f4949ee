#include "noc/vc/vc_package_network.h"

#include "hw/common/input_error.h"
#include "hw/common/packet_format.h"

#include <algorithm>
#include <cmath>

namespace mcmsim {

namespace {

VcNetworkConfig checked_vc_config(const ArchConfig& arch) {
    check_package_network(arch);
    return package_vc_config(arch);
}

}  // namespace

VcPackageNetwork::VcPackageNetwork(sc_core::sc_module_name name, const ArchConfig& arch, EnergyLedger& ledger)
    : sc_core::sc_module(name), PackageNetwork(arch), flit_bytes_(arch.package.router.flit_bytes),
      period_ps_(1000.0 / arch.package.router.clock_ghz),
      vc_("vc", checked_vc_config(arch), package_noc_topology(arch, topology()),
          [this](const NocTopology&) { return std::make_unique<PackageRouting>(topology(), true); }),
      vc_classes_(vc_.config().router.vcs >= 2) {
    // Energy per flit into the accounts the packet network and the model book into: the
    // channels are the mesh's links (NocTopology::of_mesh), the routers its routers.
    const MeshTopology& mesh = topology();
    const NocTopology& t = vc_.topology();
    const int flit_bits = vc_.config().router.flit_bits;
    router_pj_per_flit_ = vc_.config().router.energy.per_flit();
    for (int ci = 0; ci < static_cast<int>(t.channels().size()); ++ci) {
        const NocChannel& ch = t.channel(ci);
        const int link = MeshTopology::link_id(ch.src, mesh_port(ch.src_port));
        const NocLinkConfig& d2d = vc_.config().links[static_cast<std::size_t>(ch.link_class)];
        vc_.router(ch.src).set_link_energy(ch.src_port, &ledger.account(mesh.link_account(link)),
                                           flit_bits * d2d.energy_pj_per_bit, EnergyCategory::D2d);
    }
    for (int r = 0; r < t.routers(); ++r) vc_.router(r).set_energy(&ledger.account(mesh.router_account(r)), router_pj_per_flit_);
    // A flit's link energy along each router pair's routed path, as the routers book it.
    link_pj_per_flit_.resize(static_cast<std::size_t>(mesh.link_slots()));
    for (int l = 0; l < mesh.link_slots(); ++l)
        link_pj_per_flit_[static_cast<std::size_t>(l)] = flit_bits * arch.package.link_of(mesh.link_class(l)).energy_pj_per_bit;
    const int routers = mesh.routers();
    path_pj_per_flit_.assign(static_cast<std::size_t>(routers * routers), 0.0);
    for (int a = 0; a < routers; ++a)
        for (int b = 0; b < routers; ++b)
            for (int l : mesh.path_links(a, b))
                path_pj_per_flit_[static_cast<std::size_t>(a * routers + b)] += link_pj_per_flit_[static_cast<std::size_t>(l)];
    const std::vector<double> local = local_port_gbps(arch);
    const double flit_gbps = arch.package.router.flit_gbps();
    for (int r = 0; r < t.routers(); ++r) {
        const double gbps = local[static_cast<std::size_t>(r)];
        vc_.router(r).set_local_port(flit_gbps / gbps, static_cast<int>(std::ceil(gbps / flit_gbps - 1e-9)));
    }
    node_gbps_.assign(static_cast<std::size_t>(arch.chiplet_count()), arch.chiplet.ni_bandwidth_gbps);
    for (const MemoryConfig& m : arch.memories) node_gbps_.push_back(m.phy_bandwidth());
    eject_free_.assign(node_gbps_.size(), 0);
    delivery_.net = this;
    deferred_.net = this;
    vc_.set_listener(&delivery_);
    phy_delay_.assign(static_cast<std::size_t>(arch.chiplet_count()), 0);
    for (const MemoryConfig& m : arch.memories) phy_delay_.push_back(ns_to_ticks(m.phy_latency_ns));
    phy_account_.assign(static_cast<std::size_t>(arch.chiplet_count()), nullptr);
    phy_pj_per_flit_.assign(static_cast<std::size_t>(arch.chiplet_count()), 0.0);
    for (const MemoryConfig& m : arch.memories) {
        phy_account_.push_back(&ledger.account("phy." + m.name));  // the packet network's PHY account
        phy_pj_per_flit_.push_back(static_cast<double>(flit_bytes_) * 8.0 * m.phy_energy_pj_per_bit);
    }
    endpoints_.assign(static_cast<std::size_t>(nodes()), nullptr);
    ni_free_.assign(static_cast<std::size_t>(nodes()), 0);
}

void VcPackageNetwork::attach(int node, NetworkEndpoint* endpoint) { endpoints_[static_cast<std::size_t>(node)] = endpoint; }

void VcPackageNetwork::Delivery::packet_ejected(const FlitPacket& fp, Cycle tail) {
    Packet* p = fp.payload;
    p->hops = fp.hops;
    const auto dst = static_cast<std::size_t>(p->dst_node);
    // The destination's own NI (or PHY) takes the packet at its bandwidth: behind the
    // packets before it, and no sooner than the tail has left the router.
    const Tick tail_at = static_cast<Tick>(std::llround(static_cast<double>(tail) * net->period_ps_));
    const Tick serial = net->serial_ticks(p->dst_node, fp.flits);
    const Tick done = std::max(tail_at, net->eject_free_[dst] + serial);
    net->eject_free_[dst] = done;
    // The packet's layer pays for every flit at each router it crossed (hops + 1, the last
    // one ejecting it) and over each link, as the routers booked them into their accounts.
    if (EnergyAccount* layer = p->layer_energy) {
        const auto flits = static_cast<double>(fp.flits);
        layer->add(EnergyCategory::Noc, flits * (fp.hops + 1) * net->router_pj_per_flit_);
        if (fp.hops) layer->add(EnergyCategory::D2d, flits * net->path_link_pj_per_flit(p));
    }
    net->book_phy(p->dst_node, fp.flits, p->layer_energy);
    net->endpoints_[dst]->arrive(p, done + net->phy_delay_[dst]);
}

double VcPackageNetwork::path_link_pj_per_flit(const Packet* p) const {
    const MeshTopology& mesh = topology();
    if (!p->route) {
        const int a = router_of(p->src_node);
        return path_pj_per_flit_[static_cast<std::size_t>(a * mesh.routers() + p->dst_router)];
    }
    double pj = 0;
    for (int l : mesh.route_links(*p->route)) pj += link_pj_per_flit_[static_cast<std::size_t>(l)];
    return pj;
}

void VcPackageNetwork::book_phy(int node, std::int64_t flits, EnergyAccount* layer) {
    const auto n = static_cast<std::size_t>(node);
    if (!phy_account_[n] || phy_pj_per_flit_[n] == 0) return;
    const double pj = static_cast<double>(flits) * phy_pj_per_flit_[n];
    phy_account_[n]->add(EnergyCategory::D2d, pj);
    if (layer) layer->add(EnergyCategory::D2d, pj);
}

Tick VcPackageNetwork::send(Packet* p, Tick ready) {
    const auto src_node = static_cast<std::size_t>(p->src_node);
    // A flit-level packet has a head flit, whatever it carries.
    const std::int64_t flits = std::max<std::int64_t>(1, flits_of(p->wire_bytes, flit_bytes_));
    // The sender's NI (or PHY) pushes its packets one after another at its own bandwidth;
    // the router's local port then takes them at the combined rate of what it serves.
    const Tick begin = std::max(ready, ni_free_[src_node]);
    ni_free_[src_node] = begin + serial_ticks(p->src_node, flits);
    book_phy(p->src_node, flits, p->layer_energy);
    const Tick start = begin + phy_delay_[src_node];
    const auto cycle = static_cast<Cycle>(std::ceil(static_cast<double>(start) / period_ps_ - 1e-9));
    create(p, static_cast<int>(flits), cycle);
    return ni_free_[src_node];
}

void VcPackageNetwork::Deferred::fire(Cycle now) {
    while (!queue.empty() && queue.top().cycle <= now) {
        const Entry e = queue.top();
        queue.pop();
        net->create(e.packet, e.flits, e.cycle);
    }
}

void VcPackageNetwork::create(Packet* p, int flits, Cycle cycle) {
    // A packet starting beyond the network's wake calendar waits in deferred_.
    constexpr Cycle kNear = 32;
    if (cycle > vc_.now() + kNear) {
        deferred_.queue.push(Deferred::Entry{cycle, deferred_.seq++, p, flits});
        vc_.set_driver(&deferred_);
        return;
    }
    const int src = router_of(p->src_node), dst = p->dst_router;
    const std::uint32_t id = vc_.create_packet(src, dst, flits, cycle, p);
    FlitPacket& fp = vc_.packets()[id];
    fp.path = p->route;
    // Deadlock freedom with source routes: eastbound packets (destination column >= source
    // column) use the lower half of the VCs, westbound ones the upper half. A minimal route
    // never moves against its class's X direction, and between pure N and S moves it never
    // turns back, so within a class no cycle of channel dependencies can close (any closed
    // walk needs a move east and one west). Every minimal route qualifies (XY, YX, any
    // staircase, diagonal-first), including the package routing's own paths.
    const MeshTopology& topo = topology();
    if (vc_classes_)
        fp.vc_class = static_cast<std::uint8_t>(topo.col_of(dst) >= topo.col_of(src) ? VcClass::Lower : VcClass::Upper);
}

Tick VcPackageNetwork::serial_ticks(int node, std::int64_t flits) const {
    const double bytes = static_cast<double>(flits * flit_bytes_);
    return static_cast<Tick>(std::llround(bytes / node_gbps_[static_cast<std::size_t>(node)] * 1000.0));
}

std::vector<std::string> VcPackageNetwork::busy_routers() const {
    return vc_.packets_waiting() > 0 ? vc_.busy_routers() : std::vector<std::string>{};
}

nlohmann::json VcPackageNetwork::stats_json(Tick elapsed) const {
    nlohmann::json j = vc_.stats_json(static_cast<Cycle>(static_cast<double>(elapsed) / period_ps_) + 1);
    j["model"] = "vc";
    j["packets"] = packets_injected();
    j["bytes"] = bytes_injected();
    return j;
}

}  // namespace mcmsim
