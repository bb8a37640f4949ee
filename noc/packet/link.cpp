#include "noc/packet/link.h"

#include "hw/common/packet_format.h"

#include <algorithm>

namespace mcmsim {

Link::Link(std::string name, const LinkParams& params, std::int64_t flit_bytes, EnergyAccount* energy)
    : name_(std::move(name)), params_(params), flit_bytes_(flit_bytes), latency_(ns_to_ticks(params.latency_ns)),
      energy_(energy) {}

Link::Transit Link::send(Tick ready, std::int64_t wire_bytes, EnergyAccount* layer_energy, Tick tail_lag) {
    // Whole flits cross the wire: a partial last flit still occupies a full flit slot.
    const std::int64_t bytes_on_wire = whole_flit_bytes(wire_bytes, flit_bytes_);
    Tick serialise = transfer_ticks(static_cast<double>(bytes_on_wire), params_.bandwidth_gbps);
    Tick first_flit = transfer_ticks(static_cast<double>(flit_bytes_), params_.bandwidth_gbps);
    Tick start = std::max(ready, free_at_);
    Tick lag = std::max(tail_lag, serialise - first_flit);
    const Tick held = params_.ejection ? serialise : first_flit + lag;
    free_at_ = start + held;
    busy_ += held;
    bytes_ += bytes_on_wire;
    ++packets_;
    double pj = static_cast<double>(bytes_on_wire) * 8.0 * params_.energy_pj_per_bit;
    if (energy_) energy_->add(params_.category, pj);
    if (layer_energy) layer_energy->add(params_.category, pj);
    return Transit{start, start + latency_ + first_flit, lag, start + first_flit + lag};
}

}  // namespace mcmsim
