#include "noc/packet/packet_network.h"

#include <algorithm>

namespace mcmsim {

PacketNetwork::PacketNetwork(sc_core::sc_module_name name, const ArchConfig& arch, EnergyLedger& ledger)
    : sc_core::sc_module(name), PackageNetwork(arch), flit_bytes_(arch.package.router.flit_bytes) {
    check_package_network(arch);
    const MeshTopology& topo = topology();
    const RouterConfig& rc = arch.package.router;
    const Tick pipeline = ns_to_ticks(rc.latency_ns());
    // The VC router's buffers, sized by the same rules (package_vc_config).
    const VcNetworkConfig vc = package_vc_config(arch);
    RouterBuffers buffers;
    if (rc.packet_buffers == PacketBuffers::Vc) {
        buffers.vcs = vc.router.vcs;
        buffers.classes = vc.router.vcs >= 2;
        for (int c = 0; c < kLinkClasses; ++c)
            buffers.link_flits[static_cast<std::size_t>(c)] =
                vc.links[static_cast<std::size_t>(package_vc_link_class(arch.package, static_cast<LinkClass>(c)))].buffer_flits;
        buffers.local_flits = ni_buffer_flits(vc);
    } else {
        buffers.ideal = true;
    }
    classes_ = buffers.classes;
    // The switch moves a port's width of flits a cycle, as in the VC router: a die-to-die port
    // port_flits, the local port what its nodes' NIs and PHYs carry together.
    const double flit_gbps = rc.flit_gbps();
    for (int c = 0; c < kLinkClasses; ++c)
        buffers.mesh_port_gbps[static_cast<std::size_t>(c)] =
            static_cast<double>(port_flits_for(arch.package, static_cast<LinkClass>(c))) * flit_gbps;
    const std::vector<double> local = local_port_gbps(arch);
    for (int r = 0; r < topo.routers(); ++r) {
        const std::string rname = topo.router_account(r);
        buffers.local_port_gbps = local[static_cast<std::size_t>(r)];
        routers_.push_back(std::make_unique<Router>(rname.c_str(), r, topo, pipeline, flit_bytes_, rc.energy_pj_per_flit,
                                                    &ledger.account(rname), buffers));
    }
    // Die-to-die links between neighbouring chiplets, one per direction, carrying what the
    // router port feeding them can (d2d_hop_gbps: the link unless the port is narrower), each
    // as its link class's.
    for (int r = 0; r < topo.routers(); ++r) {
        for (int pi = 0; pi < kMeshPorts; ++pi) {
            const auto p = static_cast<Port>(pi);
            const int nb = topo.neighbor(r, p);
            if (nb < 0) continue;
            const LinkClass c = topo.link_class(MeshTopology::link_id(r, p));
            const LinkConfig& link = arch.package.link_of(c);
            const LinkParams d2d{d2d_hop_gbps(arch.package, c), link.latency_ns, link.energy_pj_per_bit, EnergyCategory::D2d};
            const std::string lname = topo.link_account(MeshTopology::link_id(r, p));
            routers_[static_cast<std::size_t>(r)]->connect(p, make_link(lname, d2d, &ledger.account(lname)),
                                                           routers_[static_cast<std::size_t>(nb)].get());
        }
    }
    // Chiplet network interfaces: on-die, so no package energy, limited by the NI bandwidth.
    const LinkParams ni{arch.chiplet.ni_bandwidth_gbps, 0.0, 0.0, EnergyCategory::Noc};
    LinkParams ni_eject = ni;
    ni_eject.ejection = true;
    for (int c = 0; c < arch.chiplet_count(); ++c) {
        std::string base = "ni." + std::to_string(c);
        inject_.push_back(make_link(base + ".in", ni, nullptr));
        eject_.push_back(make_link(base + ".out", ni_eject, nullptr));
    }
    // Memory PHYs: the link between a DRAM interface and the router it attaches to.
    for (const MemoryConfig& m : arch.memories) {
        const LinkParams phy{m.phy_bandwidth(), m.phy_latency_ns, m.phy_energy_pj_per_bit, EnergyCategory::D2d};
        LinkParams phy_eject = phy;
        phy_eject.ejection = true;
        std::string base = "phy." + m.name;
        EnergyAccount* acc = &ledger.account(base);
        inject_.push_back(make_link(base + ".to_noc", phy, acc));
        eject_.push_back(make_link(base + ".from_noc", phy_eject, acc));
    }
    // Every node has its local input from the start: a node may send before anything attaches
    // to receive for it.
    for (std::size_t n = 0; n < eject_.size(); ++n)
        routers_[static_cast<std::size_t>(router_of(static_cast<int>(n)))]->attach(static_cast<int>(n), eject_[n], nullptr);
}

Link* PacketNetwork::make_link(const std::string& name, const LinkParams& params, EnergyAccount* energy) {
    links_.push_back(std::make_unique<Link>(name, params, flit_bytes_, energy));
    return links_.back().get();
}

void PacketNetwork::attach(int node, NetworkEndpoint* endpoint) {
    routers_[static_cast<std::size_t>(router_of(node))]->attach(node, eject_[static_cast<std::size_t>(node)], endpoint);
}

Tick PacketNetwork::send(Packet* p, Tick ready) {
    const Link::Transit t = inject_[static_cast<std::size_t>(p->src_node)]->send(ready, p->wire_bytes, p->layer_energy);
    p->tail_lag = t.tail_lag;
    p->in_span = t.end - t.start;
    // Eastbound and westbound packets use separate VC halves, as in the VC network; on a
    // torus the halves are dateline classes, which the routers give hop by hop.
    const MeshTopology& topo = topology();
    const int src = router_of(p->src_node);
    if (classes_ && !topo.torus()) p->vc_class = topo.col_of(p->dst_router) >= topo.col_of(src) ? 0 : 1;
    routers_[static_cast<std::size_t>(src)]->inject(p, p->src_node, t.head_arrival);
    return t.end;
}

std::int64_t PacketNetwork::flit_hops() const {
    std::int64_t n = 0;
    for (const auto& r : routers_) n += r->stats().flits;
    return n;
}

std::vector<std::string> PacketNetwork::busy_routers() const {
    std::vector<std::string> out;
    for (const auto& r : routers_)
        if (r->queued() > 0) out.push_back(std::string(r->name()) + " (" + std::to_string(r->queued()) + " packets)");
    return out;
}

nlohmann::json PacketNetwork::stats_json(Tick elapsed) const {
    nlohmann::json links = nlohmann::json::array();
    double max_util = 0;
    std::string max_link;
    for (const auto& l : links_) {
        if (l->packets() == 0) continue;
        double util = elapsed ? static_cast<double>(l->busy_ticks()) / static_cast<double>(elapsed) : 0.0;
        if (util > max_util) {
            max_util = util;
            max_link = l->name();
        }
        links.push_back({{"name", l->name()}, {"bytes", l->bytes()}, {"packets", l->packets()}, {"utilization", util}});
    }
    std::int64_t max_wait = 0;
    for (const auto& r : routers_) max_wait = std::max<std::int64_t>(max_wait, r->stats().max_wait);
    return {{"packets", packets_injected()},
            {"bytes", bytes_injected()},
            {"flit_hops", flit_hops()},
            {"max_link_utilization", max_util},
            {"busiest_link", max_link},
            {"max_head_wait_ns", ticks_to_ns(max_wait)},
            {"packet_pool_size", packets_allocated()},
            {"links", links}};
}

}  // namespace mcmsim
