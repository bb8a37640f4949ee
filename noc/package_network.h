#pragma once
// The package network as the system, the chiplets and the memory ports use it: one router per
// chiplet in a mesh, die-to-die links between neighbours, memory interfaces on the routers
// they attach to. Endpoints (chiplets, memories) attach to it, inject packets and are handed
// their arrivals.
//
// Two implementations, each built from the arch config, picked by package.router.model
// (make_package_network):
//  Packet: packet-level routers and links (noc/packet/packet_network.h): virtual
//          cut-through, ideal routers or the VC router's buffers (packet_buffers); fast.
//  Vc:     the flit-level VC network (noc/vc/vc_package_network.h).
// Both describe the package with the same MeshTopology: the same routers ("router_R_C"
// energy accounts), the same links ("link.rR_C.P"), and the same paths, routed by
// MeshTopology (the analytical model's routing too) unless a packet carries a source route.
//
// Source routes (Packet::route, chosen by the mapper) override the package routing in both;
// inject() checks them (first = source's router, last = destination's router, consecutive
// routers neighbours) and throws std::invalid_argument naming the route.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/tick.h"
#include "hw/topology/mesh_topology.h"
#include "noc/noc_config.h"
#include "noc/packet/packet.h"

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mcmsim {

/// Something attached to a router's local port (a chiplet's network interface, a memory).
class NetworkEndpoint {
public:
    virtual ~NetworkEndpoint() = default;
    /// The packet's tail reaches the endpoint at `when` (>= now); the endpoint queues it.
    virtual void arrive(Packet* p, Tick when) = 0;
};

class PackageNetwork {
public:
    virtual ~PackageNetwork() = default;
    PackageNetwork(const PackageNetwork&) = delete;
    PackageNetwork& operator=(const PackageNetwork&) = delete;

    /// Endpoint numbering: chiplets 0..C-1, then memories C..C+M-1.
    int chiplet_node(int chiplet) const { return chiplet; }
    int memory_node(int memory) const { return chiplets_ + memory; }
    int nodes() const { return static_cast<int>(node_router_.size()); }
    int router_of(int node) const { return node_router_[static_cast<std::size_t>(node)]; }
    const MeshTopology& topology() const { return topo_; }

    /// `endpoint` is handed the packets that arrive for `node`.
    virtual void attach(int node, NetworkEndpoint* endpoint) = 0;

    Packet* new_packet() { return pool_.get(); }
    /// Sends `p` from `src_node` to `dst_node`; the packet enters the injection link at `ready`.
    /// Returns when its last bit has left the sender.
    Tick inject(int src_node, int dst_node, Packet* p, Tick ready);
    /// Endpoints call this once they have consumed a packet; it returns to the pool.
    void delivered(Packet* p);

    std::int64_t packets_injected() const { return injected_; }
    std::int64_t packets_delivered() const { return delivered_; }
    std::int64_t bytes_injected() const { return bytes_injected_; }
    std::int64_t bytes_delivered() const { return bytes_delivered_; }
    /// Flits times routers visited (packet model) or links crossed (VC model).
    virtual std::int64_t flit_hops() const = 0;
    /// Routers still holding packets, by name (the watchdog's "something will still happen",
    /// and the deadlock report).
    virtual std::vector<std::string> busy_routers() const = 0;
    /// Network statistics for the report; `elapsed` scales link utilisation.
    virtual nlohmann::json stats_json(Tick elapsed) const = 0;
    /// Threads that may step the network, before any traffic. Results do not depend on it;
    /// a model that has nothing to share between threads (the packet model) stays on one.
    virtual void set_threads(int threads) { (void)threads; }

protected:
    explicit PackageNetwork(const ArchConfig& arch);
    /// Sends `p`, whose endpoints, destination router and creation time are set and whose
    /// source route (if any) is checked; returns when its last bit has left the sender.
    virtual Tick send(Packet* p, Tick ready) = 0;
    std::size_t packets_allocated() const { return pool_.allocated(); }

private:
    void check_route(int src_node, int dst_node, const std::vector<int>& route) const;

    MeshTopology topo_;
    int chiplets_;
    std::vector<int> node_router_;
    PacketPool pool_;
    std::int64_t injected_ = 0, delivered_ = 0, bytes_injected_ = 0, bytes_delivered_ = 0;
};

/// The package's routers and die-to-die links as a VC network config: the router
/// micro-architecture from package.router, the package's link classes (package_vc_link_class)
/// with their port widths and receive buffers resolved (resolve_link). Both network models size their buffers
/// from it.
VcNetworkConfig package_vc_config(const ArchConfig& arch);

/// Which of package_vc_config's link classes the package's links of class `c` use: one class
/// for a package whose links are all `link`, else one per LinkClass.
int package_vc_link_class(const PackageConfig& p, LinkClass c);

/// The package mesh as the VC network's graph, every channel of the link class of its
/// direction (package_vc_link_class).
NocTopology package_noc_topology(const ArchConfig& arch, const MeshTopology& mesh);

/// The package link as the VC network builds it, for `config --dump`: flit serialisation and
/// PHY latency in router cycles, the router port's width, the receive buffer per VC and the
/// credit round trip it covers.
nlohmann::json package_link_figures(const ArchConfig& arch);

/// Throws InputError for a config the network package.router.model asks for cannot build
/// (a D2D credit round trip beyond the VC router's counters), so a caller can refuse it
/// before anything runs.
void check_package_network(const ArchConfig& arch);

/// The package network package.router.model asks for, as SystemC module `name`; its
/// routers, links and PHYs book energy into `ledger`.
std::unique_ptr<PackageNetwork> make_package_network(const char* name, const ArchConfig& arch, EnergyLedger& ledger);

}  // namespace mcmsim
