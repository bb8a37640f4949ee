#include "noc/network.h"

#include "hw/common/packet_format.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mcmsim {

Network::Network(sc_core::sc_module_name name, const ArchConfig& arch, EnergyLedger& ledger)
    : sc_core::sc_module(name),
      topo_(MeshTopology::of_package(arch.package)),
      chiplets_(arch.chiplet_count()), flit_bytes_(arch.package.router.flit_bytes) {
    const RouterConfig& rc = arch.package.router;
    if (rc.model == RouterModel::Vc) {
        build_vc(arch, ledger);
        return;
    }
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

void Network::build_vc(const ArchConfig& arch, EnergyLedger& ledger) {
    const RouterConfig& rc = arch.package.router;
    NocConfig c;
    c.name = arch.name;
    c.rows = arch.package.rows;
    c.cols = arch.package.cols;
    if (topo_.diagonals()) {  // diagonal-first; XY or YX agree once one offset is zero
        c.topology = NocTopologyKind::DiagonalMesh;
        c.routing = NocRouting::Diagonal;
    } else {
        c.topology = NocTopologyKind::Mesh;
        c.routing = arch.package.routing == Routing::YX ? NocRouting::YX : NocRouting::XY;
    }
    c.router.clock_ghz = rc.clock_ghz;
    c.router.vcs = static_cast<int>(rc.vcs);
    c.router.buffer_depth = static_cast<int>(rc.buffer_depth);
    c.router.flit_bits = static_cast<int>(rc.flit_bytes * 8);
    c.router.stages = RouterStages{static_cast<int>(rc.pipeline_cycles) - 3, 1, 1, 1};
    c.router.energy = RouterEnergy{0, 0, rc.energy_pj_per_flit, 0};
    // Every package link is a die-to-die link: links[0] (on-die) is unused at package level.
    NocLinkConfig on_die;
    on_die.name = "on_die";
    on_die.width_bits = c.router.flit_bits;
    NocLinkConfig d2d;
    d2d.name = arch.package.link.preset.empty() ? "d2d" : arch.package.link.preset;
    d2d.die_to_die = true;
    d2d.bandwidth_gbps = arch.package.link.bandwidth_gbps;
    d2d.latency_ns = arch.package.link.latency_ns;
    d2d.energy_pj_per_bit = arch.package.link.energy_pj_per_bit;
    c.links = {on_die, d2d};
    for (NocLinkConfig& l : c.links) resolve_link(l, c.router);
    period_ps_ = c.period_ps();
    vc_ = std::make_unique<VcNetwork>("vc", c);
    NocTopology& topo = const_cast<NocTopology&>(vc_->topology());
    for (int ci = 0; ci < static_cast<int>(topo.channels().size()); ++ci) topo.set_link_class(ci, 1);
    // Rewire with the D2D class (the constructor wired on-die links).
    for (int ci = 0; ci < static_cast<int>(topo.channels().size()); ++ci) {
        const NocChannel& ch = topo.channel(ci);
        vc_->router(ch.src).connect_output(ch.src_port, &vc_->router(ch.dst), ch.dst_port, c.links[1], ci);
        vc_->router(ch.dst).connect_input(ch.dst_port, &vc_->router(ch.src), ch.src_port, c.links[1].latency_cycles);
        std::string lname = "link." + topo.channel_name(ci);
        vc_->router(ch.src).set_link_energy(ch.src_port, &ledger.account(lname),
                                            c.router.flit_bits * c.links[1].energy_pj_per_bit, EnergyCategory::D2d);
    }
    for (int r = 0; r < topo.routers(); ++r)
        vc_->router(r).set_energy(&ledger.account("router_" + std::to_string(topo.row_of(r)) + "_" +
                                                  std::to_string(topo.col_of(r))),
                                  c.router.energy.per_flit());
    vc_delivery_.net = this;
    vc_->set_listener(&vc_delivery_);
    for (int ch = 0; ch < chiplets_; ++ch) {
        node_router_.push_back(ch);
        phy_delay_.push_back(0);
    }
    for (const MemoryConfig& m : arch.memories) {
        node_router_.push_back(topo.id(m.attach_row, m.attach_col));
        phy_delay_.push_back(ns_to_ticks(m.phy_latency_ns));
    }
    endpoints_.assign(node_router_.size(), nullptr);
    ni_free_.assign(node_router_.size(), 0);
    vc_classes_ = c.router.vcs >= 2;
}

void Network::VcDelivery::packet_ejected(const FlitPacket& fp, Cycle tail) {
    Packet* p = fp.payload;
    p->hops = fp.hops;
    Tick when = static_cast<Tick>(std::llround(static_cast<double>(tail) * net->period_ps_)) + net->phy_delay_[p->dst_node];
    net->endpoints_[p->dst_node]->arrive(p, when);
}

Tick Network::inject_vc(int src_node, int dst_node, Packet* p, Tick ready) {
    // A flit-level packet has a head flit, whatever it carries.
    const std::int64_t flits = std::max<std::int64_t>(1, flits_of(p->wire_bytes, flit_bytes_));
    const Tick start = ready + phy_delay_[src_node];
    const auto cycle = static_cast<Cycle>(std::ceil(static_cast<double>(start) / period_ps_ - 1e-9));
    const int src = node_router_[src_node], dst = node_router_[dst_node];
    const std::uint32_t id = vc_->create_packet(src, dst, static_cast<int>(flits), cycle, p);
    FlitPacket& fp = vc_->packets()[id];
    fp.path = p->route;
    // Deadlock freedom with source routes: eastbound packets (destination column >= source
    // column) use the lower half of the VCs, westbound ones the upper half. A minimal route
    // never moves against its class's X direction, and between pure N and S moves it never
    // turns back, so within a class no cycle of channel dependencies can close (any closed
    // walk needs a move east and one west). Every minimal route qualifies (XY, YX, any
    // staircase, diagonal-first), including the package routing's own paths.
    if (vc_classes_) fp.vc_class = static_cast<std::uint8_t>(topo_.col_of(dst) >= topo_.col_of(src) ? VcClass::Lower : VcClass::Upper);
    // The sender sees its NI push one flit per cycle.
    const Tick begin = std::max(ready, ni_free_[src_node]);
    ni_free_[src_node] = begin + static_cast<Tick>(std::llround(static_cast<double>(flits) * period_ps_));
    return ni_free_[src_node];
}

void Network::attach(int node, NetworkEndpoint* endpoint) {
    if (vc_) {
        endpoints_[node] = endpoint;
        return;
    }
    routers_[node_router_[node]]->attach(node, eject_[node], endpoint);
}

void Network::check_route(int src_node, int dst_node, const std::vector<int>& route) const {
    auto fail = [&](const std::string& why) {
        std::string r;
        for (int x : route) r += (r.empty() ? "" : " ") + std::to_string(x);
        throw std::invalid_argument("source route [" + r + "] from node " + std::to_string(src_node) + " to node " +
                                    std::to_string(dst_node) + ": " + why);
    };
    if (route.empty()) fail("empty");
    if (route.front() != node_router_[src_node])
        fail("starts at router " + std::to_string(route.front()) + ", not the source's router " +
             std::to_string(node_router_[src_node]));
    if (route.back() != node_router_[dst_node])
        fail("ends at router " + std::to_string(route.back()) + ", not the destination's router " +
             std::to_string(node_router_[dst_node]));
    for (std::size_t h = 1; h < route.size(); ++h)
        if (route[h] < 0 || route[h] >= topo_.routers() || topo_.port_to(route[h - 1], route[h]) == Port::Local)
            fail("routers " + std::to_string(route[h - 1]) + " and " + std::to_string(route[h]) + " are not neighbours");
}

Tick Network::inject(int src_node, int dst_node, Packet* p, Tick ready) {
    if (p->route) check_route(src_node, dst_node, *p->route);
    p->src_node = src_node;
    p->dst_node = dst_node;
    p->dst_router = node_router_[dst_node];
    p->created = ready;
    ++injected_;
    bytes_injected_ += p->payload_bytes;
    if (vc_) return inject_vc(src_node, dst_node, p, ready);
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
    if (vc_) return vc_->flit_hops();
    std::int64_t n = 0;
    for (const auto& r : routers_) n += r->stats().flits;
    return n;
}

std::vector<std::string> Network::busy_routers() const {
    if (vc_) return vc_->packets_waiting() > 0 ? vc_->busy_routers() : std::vector<std::string>{};
    std::vector<std::string> out;
    for (const auto& r : routers_)
        if (r->queued() > 0) out.push_back(std::string(r->name()) + " (" + std::to_string(r->queued()) + " packets)");
    return out;
}

nlohmann::json Network::stats_json(Tick elapsed) const {
    if (vc_) {
        nlohmann::json j = vc_->stats_json(static_cast<Cycle>(static_cast<double>(elapsed) / period_ps_) + 1);
        j["model"] = "vc";
        j["packets"] = injected_;
        j["bytes"] = bytes_injected_;
        return j;
    }
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
