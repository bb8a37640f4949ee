#pragma once
// How one message (a send, a DRAM read or write) crosses the package: the links it loads,
// the flits and hops it costs, its zero-load head latency. Mirrors the simulator's packet
// model exactly (packet split, flit rounding, routers visited), so analytical energy equals
// simulated energy. Pure C++.
#include "hw/common/packet_format.h"
#include "hw/config/arch_config.h"
#include "hw/topology/mesh_topology.h"

#include <algorithm>
#include <cstddef>
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

/// head_latency_ns of one packet size, with each link's terms divided out once: an estimate
/// prices every node pair of the package, and dividing by each link's bandwidth on every
/// path would cost more than the walks. Adding a path's links in
/// order gives the same operations in the same order as MessageCost::head_latency_ns, so the
/// same bits.
class HeadLatencyTerms {
public:
    /// Routers times one router's latency: where a path's sum starts.
    double start(int routers) const { return routers * router_ns_; }
    /// Adds link `l`, the next one on the path, to the running sum `t` and tail `tail`.
    void add(int l, double& t, double& tail) const {
        const auto i = static_cast<std::size_t>(l);
        t += hop_ns_[i];
        tail = std::max(tail, tail_ns_[i]);
    }

private:
    friend class MessageCost;
    double router_ns_ = 0;
    std::vector<double> hop_ns_;   ///< per link: its latency plus one flit's serialisation
    std::vector<double> tail_ns_;  ///< per link: the rest of the packet's serialisation
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

    /// The package's packet format (hw/common/packet_format.h), as the simulator splits and
    /// pads its packets.
    const PacketFormat& format() const { return format_; }
    /// Bytes on the wire (whole flits), flits and packets of a message of `bytes` payload
    /// split into packets of at most max_packet_bytes.
    std::int64_t wire_bytes(std::int64_t bytes) const { return format_.message_wire_bytes(bytes); }
    std::int64_t flits(std::int64_t bytes) const { return format_.flits(wire_bytes(bytes)); }
    std::int64_t packets(std::int64_t bytes) const { return format_.packets(bytes); }
    /// One control packet (request or ack).
    std::int64_t control_wire_bytes() const { return format_.control_wire_bytes(); }

    /// Head latency of one packet of `packet_wire_bytes` on an idle network, ns.
    double head_latency_ns(const Route& r, std::int64_t packet_wire_bytes) const {
        return head_latency_ns(r.links.data(), r.links.size(), r.routers, packet_wire_bytes);
    }
    /// The same for a path given as `count` link ids, injection to ejection.
    double head_latency_ns(const int* links, std::size_t count, int routers, std::int64_t packet_wire_bytes) const;
    /// The per-link terms of head_latency_ns for packets of `packet_wire_bytes`.
    HeadLatencyTerms head_latency_terms(std::int64_t packet_wire_bytes) const;

private:
    MeshTopology topo_;
    PackageLinks links_;
    std::vector<int> memory_router_;
    PacketFormat format_;
    double router_ns_;
};

/// The package's routing as one tree per destination router. The next hop depends only on
/// the router a packet is at and its destination (dimension-order and diagonal-first routing
/// alike), so the routed paths from every router to one destination form a tree rooted there.
/// A whole router-to-router traffic matrix then loads the mesh links in one walk of each tree
/// (every router forwards what it injects plus what reaches it), instead of one walk per pair.
class RouteTrees {
public:
    explicit RouteTrees(const MeshTopology& topo);

    int routers() const { return routers_; }
    /// Router after `at` on the way to `dst`, and the mesh link between them (at != dst).
    int next_router(int dst, int at) const { return next_router_[slot(dst, at)]; }
    int next_link(int dst, int at) const { return next_link_[slot(dst, at)]; }
    /// Routers visited from `src` to `dst`, both included.
    int routers_on_path(int src, int dst) const { return depth_[slot(dst, src)] + 1; }

    /// `inbound[r]`: traffic from router r to `dst`. Adds to `load[link]` what crosses each mesh
    /// link on its way to `dst`, and leaves `inbound` all zero for the next use (clearing as it
    /// goes costs a store per router, where clearing afterwards is another pass).
    template <class T>
    void drain(int dst, T* inbound, T* load) const {
        for (const Step *s = steps_begin(dst), *end = s + routers_ - 1; s != end; ++s) {
            load[s->link] += inbound[s->at];
            inbound[s->next] += inbound[s->at];
            inbound[s->at] = 0;
        }
        inbound[dst] = 0;
    }

private:
    /// One hop of a tree: router, its next hop towards the root, the link between them.
    struct Step {
        int at, next, link;
    };
    std::size_t slot(int dst, int at) const {
        return static_cast<std::size_t>(dst) * static_cast<std::size_t>(routers_) + static_cast<std::size_t>(at);
    }
    const Step* steps_begin(int dst) const {
        return &steps_[static_cast<std::size_t>(dst) * static_cast<std::size_t>(routers_ - 1)];
    }
    int routers_;
    /// Per destination: its routers' hops, farthest router first (each before its next hop).
    std::vector<Step> steps_;
    std::vector<int> next_router_, next_link_, depth_;  ///< per (destination, router)
};

}  // namespace mcmsim
