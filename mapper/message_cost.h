#pragma once
// How one message (a send, a DRAM read or write) crosses the package: the links it loads,
// the flits and hops it costs, its zero-load head latency. Mirrors the simulator's packet
// model exactly (packet split, flit rounding, routers visited), so analytical energy equals
// simulated energy. Pure C++.
#include "hw/config/arch_config.h"
#include "hw/topology/mesh_topology.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

/// A directed link of the package in one dense numbering: mesh links, then NI in/out per
/// chiplet, then PHY to/from NoC per memory.
struct PackageLinks {
    PackageLinks(const ArchConfig& arch, const MeshTopology& topo);

    int mesh(int router, Port p) const { return MeshTopology::link_id(router, p); }
    int ni_in(int chiplet) const { return mesh_slots + chiplet; }
    int ni_out(int chiplet) const { return mesh_slots + chiplets + chiplet; }
    int phy_to_noc(int memory) const { return mesh_slots + 2 * chiplets + memory; }
    int phy_from_noc(int memory) const { return mesh_slots + 2 * chiplets + memories + memory; }
    int count() const { return mesh_slots + 2 * chiplets + 2 * memories; }

    int mesh_slots, chiplets, memories;
    std::vector<double> bandwidth_gbps;  ///< per link
    std::vector<double> latency_ns;
    std::vector<double> energy_pj_per_bit;
    std::vector<bool> is_d2d;  ///< booked as d2d energy (package links and PHYs)
};

/// Endpoint of a message: a chiplet or a memory.
struct Endpoint {
    bool memory = false;
    int index = 0;
};

class MessageCost {
public:
    MessageCost(const ArchConfig& arch);

    const PackageLinks& links() const { return links_; }
    const MeshTopology& topology() const { return topo_; }

    struct Route {
        std::vector<int> links;  ///< injection link, mesh links, ejection link
        int routers = 0;         ///< routers visited (hops + 1)
    };
    Route route(Endpoint src, Endpoint dst) const;

    /// Bytes on the wire (whole flits) and flits for a message of `bytes` payload split into
    /// packets of at most max_packet_bytes, or `packets` control packets of `control_bytes`.
    std::int64_t wire_bytes(std::int64_t bytes) const;
    std::int64_t flits(std::int64_t bytes) const { return wire_bytes(bytes) / flit_bytes_; }
    std::int64_t packets(std::int64_t bytes) const { return (bytes + max_packet_ - 1) / max_packet_; }
    std::int64_t control_wire_bytes() const;  ///< one control packet (request or ack)

    /// Head latency of one packet of `packet_wire_bytes` on an idle network, ns.
    double head_latency_ns(const Route& r, std::int64_t packet_wire_bytes) const;

private:
    MeshTopology topo_;
    PackageLinks links_;
    std::vector<int> memory_router_;
    std::int64_t flit_bytes_, max_packet_;
    double router_ns_;
};

}  // namespace mcmsim
