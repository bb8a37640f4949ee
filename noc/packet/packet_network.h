#pragma once
// The package network of packet-level routers and links (package.router.model "packet"):
// one Router per chiplet, a die-to-die Link per direction between neighbours, network
// interface links for the chiplets (on-die: limited by the NI bandwidth, no package energy)
// and PHY links for the memories. Virtual cut-through over the VC router's virtual channels
// and buffers (noc/packet/router.h): packets wait for a busy link and for room downstream.
#include "noc/package_network.h"
#include "noc/packet/link.h"
#include "noc/packet/router.h"

#include <systemc>

#include <memory>
#include <string>
#include <vector>

namespace mcmsim {

class PacketNetwork : public sc_core::sc_module, public PackageNetwork {
public:
    PacketNetwork(sc_core::sc_module_name name, const ArchConfig& arch, EnergyLedger& ledger);

    void attach(int node, NetworkEndpoint* endpoint) override;
    std::int64_t flit_hops() const override;
    std::vector<std::string> busy_routers() const override;
    nlohmann::json stats_json(Tick elapsed) const override;

private:
    Tick send(Packet* p, Tick ready) override;
    Link* make_link(const std::string& name, const LinkParams& params, EnergyAccount* energy);

    std::int64_t flit_bytes_;
    bool classes_ = false;  ///< eastbound / westbound VC halves
    std::vector<std::unique_ptr<Router>> routers_;
    std::vector<std::unique_ptr<Link>> links_;
    std::vector<Link*> inject_, eject_;  ///< per node
};

}  // namespace mcmsim
