#pragma once
// The package network of flit-level VC routers (package.router.model "vc"): a VcNetwork on
// the package mesh (NocTopology::of_mesh) routed as the mesh routes (MeshRouting), every
// channel a die-to-die link from the start: the link config's bandwidth becomes flit
// serialisation and its PHY latency whole cycles. Packets become ceil(wire / flit) flits
// (at least the head); a memory's PHY adds its latency at both ends (its bandwidth is not
// modelled), and inject() returns when the sender's NI has pushed the last flit at one flit
// per cycle (back-pressure inside the network is not seen by the sender).
//
// Deadlock freedom: with 2 or more VCs, eastbound and westbound packets use separate VC
// halves, which makes any mix of minimal routes deadlock-free (see send()). Source routes
// that are not minimal are followed too but carry no such guarantee (the watchdog names the
// stuck routers if they ever close a cycle); nor do source routes with a single VC.
#include "noc/package_network.h"
#include "noc/vc/vc_network.h"

#include <systemc>

#include <vector>

namespace mcmsim {

class VcPackageNetwork : public sc_core::sc_module, public PackageNetwork {
public:
    VcPackageNetwork(sc_core::sc_module_name name, const ArchConfig& arch, EnergyLedger& ledger);

    void attach(int node, NetworkEndpoint* endpoint) override;
    std::int64_t flit_hops() const override { return vc_.flit_hops(); }
    std::vector<std::string> busy_routers() const override;
    nlohmann::json stats_json(Tick elapsed) const override;

    /// The flit-level network underneath (its own statistics, e.g. flit order at ejection).
    const VcNetwork& vc() const { return vc_; }

private:
    Tick send(Packet* p, Tick ready) override;

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
    std::vector<NetworkEndpoint*> endpoints_;
    std::vector<Tick> ni_free_;    ///< per node: when its NI has pushed its queued flits
    std::vector<Tick> phy_delay_;  ///< per node: extra latency (memory PHYs)
    bool vc_classes_;              ///< eastbound / westbound VC halves (2+ VCs)
};

}  // namespace mcmsim
