#include "mapper/model/message_cost.h"

#include <algorithm>

namespace mcmsim {

PackageLinks::PackageLinks(const ArchConfig& arch, const MeshTopology& topo)
    : mesh_slots(topo.link_slots()), chiplets(arch.chiplet_count()), memories(static_cast<int>(arch.memories.size())) {
    bandwidth_gbps.resize(static_cast<std::size_t>(count()));
    latency_ns.resize(static_cast<std::size_t>(count()));
    energy_pj_per_bit.resize(static_cast<std::size_t>(count()));
    is_d2d.assign(static_cast<std::size_t>(count()), true);
    for (int l = 0; l < mesh_slots; ++l) {  // each mesh link as its class's
        const LinkClass c = topo.link_class(l);
        const LinkConfig& link = arch.package.link_of(c);
        bandwidth_gbps[static_cast<std::size_t>(l)] = d2d_hop_gbps(arch.package, c);
        latency_ns[static_cast<std::size_t>(l)] = link.latency_ns;
        energy_pj_per_bit[static_cast<std::size_t>(l)] = link.energy_pj_per_bit;
    }
    auto set = [&](int id, double bw, double lat, double pj, bool d2d) {
        auto i = static_cast<std::size_t>(id);
        bandwidth_gbps[i] = bw;
        latency_ns[i] = lat;
        energy_pj_per_bit[i] = pj;
        is_d2d[i] = d2d;
    };
    for (int c = 0; c < chiplets; ++c) {
        set(ni_in(c), arch.chiplet.ni_bandwidth_gbps, 0, 0, false);
        set(ni_out(c), arch.chiplet.ni_bandwidth_gbps, 0, 0, false);
    }
    for (int m = 0; m < memories; ++m) {
        const MemoryConfig& mc = arch.memories[static_cast<std::size_t>(m)];
        set(phy_to_noc(m), mc.phy_bandwidth(), mc.phy_latency_ns, mc.phy_energy_pj_per_bit, true);
        set(phy_from_noc(m), mc.phy_bandwidth(), mc.phy_latency_ns, mc.phy_energy_pj_per_bit, true);
    }
}

MessageCost::MessageCost(const ArchConfig& arch)
    : topo_(MeshTopology::of_package(arch.package)), links_(arch, topo_), format_(arch.package.packet_format()),
      router_ns_(arch.package.router.latency_ns()) {
    for (const auto& m : arch.memories) memory_router_.push_back(topo_.id(m.attach_row, m.attach_col));
}

MessageCost::Route MessageCost::route(Endpoint src, Endpoint dst) const {
    int a = src.memory ? memory_router_[static_cast<std::size_t>(src.index)] : src.index;
    int b = dst.memory ? memory_router_[static_cast<std::size_t>(dst.index)] : dst.index;
    Route r;
    r.links.push_back(src.memory ? links_.phy_to_noc(src.index) : links_.ni_in(src.index));
    for (int l : topo_.path_links(a, b)) r.links.push_back(l);
    r.links.push_back(dst.memory ? links_.phy_from_noc(dst.index) : links_.ni_out(dst.index));
    r.routers = topo_.hops(a, b) + 1;
    return r;
}

double MessageCost::head_latency_ns(const int* links, std::size_t count, int routers, std::int64_t packet_wire_bytes) const {
    double t = routers * router_ns_;
    double tail = 0;
    for (const int* it = links; it != links + count; ++it) {
        const int l = *it;
        double bw = links_.bandwidth_gbps[static_cast<std::size_t>(l)];
        double flit = static_cast<double>(format_.flit_bytes) / bw;
        t += links_.latency_ns[static_cast<std::size_t>(l)] + flit;
        tail = std::max(tail, static_cast<double>(packet_wire_bytes) / bw - flit);
    }
    return t + tail;
}

HeadLatencyTerms MessageCost::head_latency_terms(std::int64_t packet_wire_bytes) const {
    HeadLatencyTerms h;
    h.router_ns_ = router_ns_;
    const auto n = static_cast<std::size_t>(links_.count());
    h.hop_ns_.resize(n);
    h.tail_ns_.resize(n);
    for (std::size_t l = 0; l < n; ++l) {  // the expressions of head_latency_ns, term by term
        const double bw = links_.bandwidth_gbps[l];
        const double flit = static_cast<double>(format_.flit_bytes) / bw;
        h.hop_ns_[l] = links_.latency_ns[l] + flit;
        h.tail_ns_[l] = static_cast<double>(packet_wire_bytes) / bw - flit;
    }
    return h;
}

RouteTrees::RouteTrees(const MeshTopology& topo) : routers_(topo.routers()) {
    const auto r2 = static_cast<std::size_t>(routers_) * static_cast<std::size_t>(routers_);
    next_router_.assign(r2, -1);
    next_link_.assign(r2, -1);
    depth_.assign(r2, -1);
    steps_.assign(static_cast<std::size_t>(routers_) * static_cast<std::size_t>(std::max(routers_ - 1, 0)) + 1, Step{0, 0, 0});
    std::vector<int> count, chain;
    for (int dst = 0; dst < routers_; ++dst) {
        for (int at = 0; at < routers_; ++at) {
            if (at == dst) continue;
            const Port p = topo.next_port(at, dst);
            next_router_[slot(dst, at)] = topo.neighbor(at, p);
            next_link_[slot(dst, at)] = MeshTopology::link_id(at, p);
        }
        // Hops to dst: one more than the next hop's (each chain walked once).
        depth_[slot(dst, dst)] = 0;
        int deepest = 0;
        for (int at = 0; at < routers_; ++at) {
            chain.clear();
            int x = at;
            while (depth_[slot(dst, x)] < 0) {
                chain.push_back(x);
                x = next_router_[slot(dst, x)];
            }
            for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
                depth_[slot(dst, *it)] = depth_[slot(dst, x)] + 1;
                x = *it;
            }
            deepest = std::max(deepest, depth_[slot(dst, at)]);
        }
        // Counting sort by depth, deepest first: a router's next hop is one step shallower.
        count.assign(static_cast<std::size_t>(deepest) + 2, 0);
        for (int at = 0; at < routers_; ++at)
            if (at != dst) ++count[static_cast<std::size_t>(deepest - depth_[slot(dst, at)] + 1)];
        for (std::size_t k = 1; k < count.size(); ++k) count[k] += count[k - 1];
        Step* out = &steps_[static_cast<std::size_t>(dst) * static_cast<std::size_t>(routers_ - 1)];
        for (int at = 0; at < routers_; ++at)
            if (at != dst)
                out[count[static_cast<std::size_t>(deepest - depth_[slot(dst, at)])]++] =
                    Step{at, next_router_[slot(dst, at)], next_link_[slot(dst, at)]};
    }
}

}  // namespace mcmsim
