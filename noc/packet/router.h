#pragma once
// A packet-level router of the package network: head flits are routed by the shared
// MeshTopology (or follow the packet's source route), pay the pipeline latency, then wait
// for their output link to be free (virtual cut-through with unbounded buffers).
// Event-driven: the router sleeps until the next head arrives; nothing happens per cycle.
#include "hw/energy/energy_ledger.h"
#include "hw/time/timed_queue.h"
#include "hw/topology/mesh_topology.h"
#include "noc/package_network.h"
#include "noc/packet/link.h"
#include "noc/packet/packet.h"

#include <systemc>

#include <array>
#include <vector>

namespace mcmsim {

struct RouterStats {
    std::int64_t packets = 0;
    std::int64_t flits = 0;
    Tick max_wait = 0;  ///< longest a head waited for its output link
};

class Router : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Router);
    Router(sc_core::sc_module_name name, int id, const MeshTopology& topo, Tick pipeline, std::int64_t flit_bytes,
           double energy_pj_per_flit, EnergyAccount* energy);

    void connect(Port p, Link* link, Router* next);
    void attach(int node, Link* eject, NetworkEndpoint* endpoint);

    /// A head flit arrives at `head_arrival`.
    void receive(Packet* p, Tick head_arrival) { queue_.push(head_arrival, p); }

    int id() const { return id_; }
    const RouterStats& stats() const { return stats_; }
    std::size_t queued() const { return queue_.size(); }

private:
    void wake();
    void forward(Packet* p, Tick now);

    struct Local {
        int node;
        Link* eject;
        NetworkEndpoint* endpoint;
    };

    int id_;
    const MeshTopology& topo_;
    Tick pipeline_;
    std::int64_t flit_bytes_;
    double energy_pj_per_flit_;
    EnergyAccount* energy_;
    std::array<Link*, kMeshPorts> out_{};
    std::array<Router*, kMeshPorts> next_{};
    std::vector<Local> locals_;
    sc_core::sc_event wake_event_;
    TimedQueue<Packet*> queue_;
    RouterStats stats_;
};

}  // namespace mcmsim
