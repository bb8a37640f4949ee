#include "noc/network.h"

#include <algorithm>
#include <stdexcept>

namespace mcmsim {

Network::Network(sc_core::sc_module_name name, const ArchConfig& arch, EnergyLedger& ledger)
    : sc_core::sc_module(name),
      topo_(arch.package.rows, arch.package.cols,
            arch.package.routing == "yx" ? Routing::YX : Routing::XY),
      chiplets_(arch.chiplet_count()), flit_bytes_(arch.package.router.flit_bytes) {
    const RouterConfig& rc = arch.package.router;
    Tick pipeline = ns_to_ticks(rc.latency_ns());
    for (int r = 0; r < topo_.routers(); ++r) {
        std::string rname = "router_" + std::to_string(topo_.row_of(r)) + "_" + std::to_string(topo_.col_of(r));
        routers_.push_back(std::make_unique<Router>(rname.c_str(), r, topo_, pipeline, flit_bytes_,
                                                    rc.energy_pj_per_flit, &ledger.account(rname)));
    }
    // Die-to-die links between neighbouring chiplets, one per direction.
    LinkParams d2d{arch.package.link.bandwidth_gbps, arch.package.link.latency_ns,
                   arch.package.link.energy_pj_per_bit, EnergyCategory::D2d};
    for (int r = 0; r < topo_.routers(); ++r) {
        for (int pi = 0; pi < kMeshPorts; ++pi) {
            auto p = static_cast<Port>(pi);
            int nb = topo_.neighbor(r, p);
            if (nb < 0) continue;
            std::string lname = "link." + topo_.link_name(MeshTopology::link_id(r, p));
            routers_[r]->connect(p, make_link(lname, d2d, &ledger.account(lname)), routers_[nb].get());
        }
    }
    // Chiplet network interfaces: on-die, so no package energy, limited by the NI bandwidth.
    LinkParams ni{arch.chiplet.ni_bandwidth_gbps, 0.0, 0.0, EnergyCategory::Noc};
    for (int c = 0; c < chiplets_; ++c) {
        node_router_.push_back(c);
        std::string base = "ni." + std::to_string(c);
        inject_.push_back(make_link(base + ".in", ni, nullptr));
        eject_.push_back(make_link(base + ".out", ni, nullptr));
    }
    // Memory PHYs: the link between a DRAM interface and the router it attaches to.
    for (const MemoryConfig& m : arch.memories) {
        node_router_.push_back(topo_.id(m.attach_row, m.attach_col));
        LinkParams phy{m.phy_bandwidth(), m.phy_latency_ns, m.phy_energy_pj_per_bit, EnergyCategory::D2d};
        std::string base = "phy." + m.name;
        EnergyAccount* acc = &ledger.account(base);
        inject_.push_back(make_link(base + ".to_noc", phy, acc));
        eject_.push_back(make_link(base + ".from_noc", phy, acc));
    }
}

Link* Network::make_link(const std::string& name, const LinkParams& params, EnergyAccount* energy) {
    links_.push_back(std::make_unique<Link>(name, params, flit_bytes_, energy));
    return links_.back().get();
}

void Network::attach(int node, NetworkEndpoint* endpoint) {
    routers_[node_router_[node]]->attach(node, eject_[node], endpoint);
}

Tick Network::inject(int src_node, int dst_node, Packet* p, Tick ready) {
    p->src_node = src_node;
    p->dst_node = dst_node;
    p->dst_router = node_router_[dst_node];
    p->created = ready;
    ++injected_;
    bytes_injected_ += p->payload_bytes;
    Link::Transit t = inject_[src_node]->send(ready, p->wire_bytes, p->layer_energy);
    p->tail_lag = t.tail_lag;
    routers_[node_router_[src_node]]->receive(p, t.head_arrival);
    return t.end;
}

void Network::delivered(Packet* p) {
    ++delivered_;
    bytes_delivered_ += p->payload_bytes;
    pool_.put(p);
}

std::int64_t Network::flit_hops() const {
    std::int64_t n = 0;
    for (const auto& r : routers_) n += r->stats().flits;
    return n;
}

std::vector<std::string> Network::busy_routers() const {
    std::vector<std::string> out;
    for (const auto& r : routers_)
        if (r->queued() > 0) out.push_back(std::string(r->name()) + " (" + std::to_string(r->queued()) + " packets)");
    return out;
}

nlohmann::json Network::stats_json(Tick elapsed) const {
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
        links.push_back({{"name", l->name()}, {"bytes", l->bytes()}, {"packets", l->packets()},
                         {"utilization", util}});
    }
    std::int64_t max_wait = 0;
    for (const auto& r : routers_) max_wait = std::max<std::int64_t>(max_wait, r->stats().max_wait);
    return {{"packets", injected_},
            {"bytes", bytes_injected_},
            {"flit_hops", flit_hops()},
            {"max_link_utilization", max_util},
            {"busiest_link", max_link},
            {"max_head_wait_ns", ticks_to_ns(max_wait)},
            {"packet_pool_size", pool_.allocated()},
            {"links", links}};
}

}  // namespace mcmsim
