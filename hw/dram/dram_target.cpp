#include "hw/dram/dram_target.h"

#include <algorithm>

namespace mcmsim {

DramTarget::DramTarget(sc_core::sc_module_name name, const DramConfig& cfg, EnergyAccount* energy)
    : sc_core::sc_module(name), socket("socket"), cfg_(cfg), energy_(energy),
      latency_(ns_to_ticks(cfg.access_latency_ns)),
      channel_free_(static_cast<std::size_t>(cfg.channels), 0),
      channel_busy_(static_cast<std::size_t>(cfg.channels), 0) {
    socket.register_b_transport(this, &DramTarget::b_transport);
}

void DramTarget::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    const Tick issue = now_ticks() + delay.value();
    const std::uint64_t addr = gp.get_address();
    const std::int64_t len = gp.get_data_length();
    const auto capacity = static_cast<std::uint64_t>(cfg_.capacity_bytes);
    if (addr > capacity || static_cast<std::uint64_t>(len) > capacity - addr) {
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    // Split the request at interleave boundaries; each piece occupies its channel.
    Tick done = issue;
    std::int64_t offset = 0;
    while (offset < len) {
        std::uint64_t a = addr + static_cast<std::uint64_t>(offset);
        std::int64_t in_chunk = cfg_.interleave_bytes - static_cast<std::int64_t>(a % cfg_.interleave_bytes);
        std::int64_t piece = std::min(in_chunk, len - offset);
        auto ch = static_cast<std::size_t>((a / cfg_.interleave_bytes) % cfg_.channels);
        Tick xfer = transfer_ticks(static_cast<double>(piece), cfg_.channel_bandwidth_gbps);
        Tick start = std::max(issue, channel_free_[ch]);
        channel_free_[ch] = start + xfer;
        channel_busy_[ch] += xfer;
        done = std::max(done, start + latency_ + xfer);
        offset += piece;
    }
    double pj = static_cast<double>(len) * 8.0 * cfg_.energy_pj_per_bit;
    if (energy_) energy_->add(EnergyCategory::Dram, pj);
    LayerEnergyExtension* ext = nullptr;
    gp.get_extension(ext);
    if (ext && ext->account) ext->account->add(EnergyCategory::Dram, pj);
    if (gp.is_read()) {
        ++reads_;
        bytes_read_ += len;
    } else {
        ++writes_;
        bytes_written_ += len;
    }
    delay += to_sc_time(done - issue);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

nlohmann::json DramTarget::stats_json(Tick elapsed) const {
    Tick busy = 0;
    for (Tick b : channel_busy_) busy += b;
    double util = elapsed ? static_cast<double>(busy) / (static_cast<double>(elapsed) * cfg_.channels) : 0.0;
    return {{"reads", reads_},
            {"writes", writes_},
            {"bytes_read", bytes_read_},
            {"bytes_written", bytes_written_},
            {"channel_utilization", util}};
}

}  // namespace mcmsim
