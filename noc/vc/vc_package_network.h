#pragma once
// The package network of flit-level VC routers (package.router.model "vc"): a VcNetwork on
// the package mesh (NocTopology::of_mesh) routed as the mesh routes (MeshRouting), every
// channel a die-to-die link from the start: the link config's bandwidth becomes (fractional)
// flit serialisation, its PHY latency whole cycles, and its link layer a receive buffer that
// covers the credit round trip; the router port to it is as wide as the link needs unless
// package.router.port_flits narrows it. Packets become ceil(wire / flit) flits (at least the
// head). Each node's NI (a chiplet's, or a memory's PHY) pushes and takes packets at its own
// bandwidth, and the router's local port serves the nodes attached to it at their combined
// bandwidth; a memory's PHY adds its latency at both ends. inject() returns when the
// sender's NI has pushed the packet (back-pressure inside the network is not seen by the
// sender).
//
// Energy: routers and links book each flit into their own accounts as it moves (each router
// on the thread that steps it); a packet's plan layer is booked when its tail leaves, for all
// its flits at once over the routers and links it crossed, and a memory PHY books the flits
// it carries at both ends, as the packet network's PHY links do.
//
// Deadlock freedom: with 2 or more VCs, eastbound and westbound packets use separate VC
// halves, which makes any mix of minimal routes deadlock-free (see send()). Source routes
// that are not minimal are followed too but carry no such guarantee (the watchdog names the
// stuck routers if they ever close a cycle); nor do source routes with a single VC.
#include "noc/package_network.h"
#include "noc/vc/vc_network.h"

#include <systemc>

#include <functional>
#include <queue>
#include <vector>

namespace mcmsim {

class VcPackageNetwork : public sc_core::sc_module, public PackageNetwork {
public:
    VcPackageNetwork(sc_core::sc_module_name name, const ArchConfig& arch, EnergyLedger& ledger);

    void attach(int node, NetworkEndpoint* endpoint) override;
    std::int64_t flit_hops() const override { return vc_.flit_hops(); }
    std::vector<std::string> busy_routers() const override;
    nlohmann::json stats_json(Tick elapsed) const override;
    void set_threads(int threads) override { vc_.set_threads(threads); }

    /// The flit-level network underneath (its own statistics, e.g. flit order at ejection).
    const VcNetwork& vc() const { return vc_; }
    VcNetwork& vc() { return vc_; }

private:
    Tick send(Packet* p, Tick ready) override;

    /// Packets whose sender's NI has not pushed them yet (it is busy with earlier ones):
    /// created in the VC network at the cycle their NI starts them, in send order.
    struct Deferred : TrafficDriver {
        struct Entry {
            Cycle cycle;
            std::uint64_t seq;
            Packet* packet;
            int flits;
            bool operator>(const Entry& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
        };
        VcPackageNetwork* net = nullptr;
        std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
        std::uint64_t seq = 0;
        Cycle next_cycle() const override { return queue.empty() ? -1 : queue.top().cycle; }
        void fire(Cycle now) override;
    };
    /// Creates `p` in the VC network at `cycle` (now, or through `deferred_`).
    void create(Packet* p, int flits, Cycle cycle);

    /// Hands packets whose tail left the VC network to their endpoints.
    struct Delivery : EjectionListener {
        VcPackageNetwork* net = nullptr;
        void flit_ejected(const FlitPacket&, const Flit&, Cycle) override {}
        void packet_ejected(const FlitPacket& p, Cycle tail) override;
    };

    std::int64_t flit_bytes_;
    double period_ps_;
    VcNetwork vc_;
    Delivery delivery_;
    Deferred deferred_;
    std::vector<NetworkEndpoint*> endpoints_;
    /// Ticks node `node`'s NI (or memory PHY) takes for `flits` whole flits.
    Tick serial_ticks(int node, std::int64_t flits) const;

    std::vector<Tick> ni_free_;      ///< per node: when its NI has pushed its queued flits
    std::vector<Tick> eject_free_;   ///< per node: when its NI has taken the packets delivered to it
    std::vector<double> node_gbps_;  ///< per node: NI or PHY bandwidth
    std::vector<Tick> phy_delay_;    ///< per node: extra latency (memory PHYs)
    /// per node: the memory PHY's account and energy per flit (nullptr, 0 for chiplet NIs)
    std::vector<EnergyAccount*> phy_account_;
    std::vector<double> phy_pj_per_flit_;
    double router_pj_per_flit_;             ///< per router a flit crosses
    std::vector<double> link_pj_per_flit_;  ///< per mesh link slot: a flit's energy over it
    std::vector<double> path_pj_per_flit_;  ///< [src router x routers + dst router]: over the routed path
    /// A flit's link energy over the packet's path (its source route, or the package's routing).
    double path_link_pj_per_flit(const Packet* p) const;
    /// Books a memory PHY's energy for `flits` (none at a chiplet's NI).
    void book_phy(int node, std::int64_t flits, EnergyAccount* layer);
    bool vc_classes_;  ///< eastbound / westbound VC halves (2+ VCs)
};

}  // namespace mcmsim
