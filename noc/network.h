#pragma once
// The package network assembled from the arch config: one router per chiplet in a mesh,
// die-to-die links between neighbours, and memory interfaces on the routers they attach to.
// Endpoints (chiplets, memories) inject packets here and are handed their arrivals.
//
// Two router models behind the same API (package.router.model):
//  "packet" (default): packet-level routers and links (router.h, link.h): virtual cut-through,
//           unbounded buffers; fast.
//  "vc":    the flit-level VC network (vc_network.h). Packets become ceil(wire/flit) flits;
//           package links use the D2D link config (bandwidth -> flit serialisation, PHY
//           latency), a memory's PHY adds its latency at both ends (its bandwidth is not
//           modelled), and inject() returns when the sender's NI has pushed the last flit at
//           one flit per cycle (back-pressure inside the network is not seen by the sender).
//
// Source routes (Packet::route, chosen by the mapper) override the package routing in both
// models; inject() checks them (first = source's router, last = destination's router,
// consecutive routers neighbours) and throws std::invalid_argument naming the route. Deadlock
// freedom in the VC model: with 2 or more VCs, eastbound and westbound packets use separate
// VC halves, which makes any mix of minimal routes deadlock-free (see inject_vc). Routes that
// are not minimal are followed too but carry no such guarantee (the watchdog names the stuck
// routers if they ever close a cycle); nor do source routes with a single VC.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "hw/topology/mesh_topology.h"
#include "noc/packet/link.h"
#include "noc/packet/packet.h"
#include "noc/packet/router.h"
#include "noc/vc/vc_network.h"

#include <systemc>

#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

namespace mcmsim {

class Network : public sc_core::sc_module {
public:
    Network(sc_core::sc_module_name name, const ArchConfig& arch, EnergyLedger& ledger);

    /// Endpoint numbering: chiplets 0..C-1, then memories C..C+M-1.
    int chiplet_node(int chiplet) const { return chiplet; }
    int memory_node(int memory) const { return chiplets_ + memory; }
    int router_of(int node) const { return node_router_[node]; }
    void attach(int node, NetworkEndpoint* endpoint);

    Packet* new_packet() { return pool_.get(); }
    /// Sends `p` from `src_node` to `dst_node`; the packet enters the injection link at `ready`.
    /// Returns when its last bit has left the sender.
    Tick inject(int src_node, int dst_node, Packet* p, Tick ready);
    /// Endpoints call this once they have consumed a packet; it returns to the pool.
    void delivered(Packet* p);

    const MeshTopology& topology() const { return topo_; }
    std::int64_t packets_injected() const { return injected_; }
    std::int64_t packets_delivered() const { return delivered_; }
    std::int64_t bytes_injected() const { return bytes_injected_; }
    std::int64_t bytes_delivered() const { return bytes_delivered_; }
    std::int64_t flit_hops() const;
    /// Routers still holding packets, by name (for the deadlock report).
    std::vector<std::string> busy_routers() const;
    /// Network statistics for the report; `elapsed` scales link utilisation.
    nlohmann::json stats_json(Tick elapsed) const;

    /// The flit-level network when package.router.model is "vc" (else null).
    VcNetwork* vc_network() { return vc_.get(); }

private:
    Link* make_link(const std::string& name, const LinkParams& params, EnergyAccount* energy);
    void build_vc(const ArchConfig& arch, EnergyLedger& ledger);
    Tick inject_vc(int src_node, int dst_node, Packet* p, Tick ready);
    void check_route(int src_node, int dst_node, const std::vector<int>& route) const;

    /// Hands packets whose tail left the VC network to their endpoints.
    struct VcDelivery : EjectionListener {
        Network* net = nullptr;
        void flit_ejected(const FlitPacket&, const Flit&, Cycle) override {}
        void packet_ejected(const FlitPacket& p, Cycle tail) override;
    };

    MeshTopology topo_;
    int chiplets_;
    std::int64_t flit_bytes_;
    std::vector<std::unique_ptr<Router>> routers_;
    std::vector<std::unique_ptr<Link>> links_;
    std::vector<int> node_router_;
    std::vector<Link*> inject_, eject_;
    PacketPool pool_;
    std::unique_ptr<VcNetwork> vc_;
    VcDelivery vc_delivery_;
    double period_ps_ = 1000;
    std::vector<NetworkEndpoint*> endpoints_;
    std::vector<Tick> ni_free_;    ///< vc: when each node's NI has pushed its queued flits
    std::vector<Tick> phy_delay_;  ///< vc: extra latency at a node (memory PHYs)
    bool vc_classes_ = false;      ///< vc: eastbound / westbound VC halves (2+ VCs)
    std::int64_t injected_ = 0, delivered_ = 0, bytes_injected_ = 0, bytes_delivered_ = 0;
};

}  // namespace mcmsim
