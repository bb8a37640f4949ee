#pragma once
// The package network assembled from the arch config: one router per chiplet in a mesh,
// die-to-die links between neighbours, and memory interfaces on the routers they attach to.
// Endpoints (chiplets, memories) inject packets here and are handed their arrivals.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "hw/topology/mesh_topology.h"
#include "noc/link.h"
#include "noc/packet.h"
#include "noc/router.h"

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

private:
    Link* make_link(const std::string& name, const LinkParams& params, EnergyAccount* energy);

    MeshTopology topo_;
    int chiplets_;
    std::int64_t flit_bytes_;
    std::vector<std::unique_ptr<Router>> routers_;
    std::vector<std::unique_ptr<Link>> links_;
    std::vector<int> node_router_;
    std::vector<Link*> inject_, eject_;
    PacketPool pool_;
    std::int64_t injected_ = 0, delivered_ = 0, bytes_injected_ = 0, bytes_delivered_ = 0;
};

}  // namespace mcmsim
