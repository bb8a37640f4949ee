#pragma once
// The DRAM interface as a TLM-2.0 target (thin model, deepened into a full controller later):
// channels interleaved by address, each serving one request at a time at its bandwidth after
// a fixed access latency. Loosely timed through b_transport: the returned delay includes
// queueing behind earlier requests to the same channel.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <nlohmann/json.hpp>
#include <vector>

namespace mcmsim {

/// Lets an initiator name the layer a DRAM access works for, so its energy is attributed.
struct LayerEnergyExtension : tlm::tlm_extension<LayerEnergyExtension> {
    EnergyAccount* account = nullptr;
    tlm::tlm_extension_base* clone() const override { return new LayerEnergyExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        account = static_cast<const LayerEnergyExtension&>(other).account;
    }
};

class DramTarget : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<DramTarget> socket;

    DramTarget(sc_core::sc_module_name name, const DramConfig& cfg, EnergyAccount* energy);

    std::int64_t reads() const { return reads_; }
    std::int64_t writes() const { return writes_; }
    std::int64_t bytes_read() const { return bytes_read_; }
    std::int64_t bytes_written() const { return bytes_written_; }
    nlohmann::json stats_json(Tick elapsed) const;

private:
    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

    DramConfig cfg_;
    EnergyAccount* energy_;
    Tick latency_;
    std::vector<Tick> channel_free_;
    std::vector<Tick> channel_busy_;
    std::int64_t reads_ = 0, writes_ = 0, bytes_read_ = 0, bytes_written_ = 0;
};

}  // namespace mcmsim
