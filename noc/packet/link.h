#pragma once
// A unidirectional link: bandwidth, latency, energy per bit. Links are data, not modules:
// the router that owns the output port computes when a packet can start on it (when the
// previous one has finished serialising) and when its head and tail reach the far end.
#include "hw/energy/energy_ledger.h"
#include "hw/time/tick.h"

#include <string>

namespace mcmsim {

struct LinkParams {
    double bandwidth_gbps = 1;  ///< GB/s = bytes per ns
    double latency_ns = 0;
    double energy_pj_per_bit = 0;
    EnergyCategory category = EnergyCategory::D2d;
    /// Into a receiving NI or memory PHY, which takes flits of several packets at once (one
    /// buffer per virtual channel, as the flit-level network's NIs): a packet holds it only
    /// for its own serialisation, though its tail arrives no sooner than slower links before
    /// it let it.
    bool ejection = false;
};

class Link {
public:
    Link(std::string name, const LinkParams& params, std::int64_t flit_bytes, EnergyAccount* energy);

    struct Transit {
        Tick start;         ///< first bit leaves
        Tick head_arrival;  ///< first flit fully received at the far end
        Tick tail_lag;      ///< serialisation of the rest of the packet
        Tick end;           ///< last bit leaves: the link is free again
    };
    /// Reserves the link for a packet of `wire_bytes` whose head is ready at `ready` and whose
    /// tail trails the head by `tail_lag` (set by slower links upstream); books energy and
    /// stats (also into `layer_energy`, the account of the layer the packet works for).
    /// The link stays occupied until the tail has passed: max(own serialisation, upstream lag);
    /// an ejection link only for its own serialisation.
    Transit send(Tick ready, std::int64_t wire_bytes, EnergyAccount* layer_energy, Tick tail_lag = 0);

    const std::string& name() const { return name_; }
    const LinkParams& params() const { return params_; }
    std::int64_t bytes() const { return bytes_; }
    std::int64_t packets() const { return packets_; }
    Tick busy_ticks() const { return busy_; }
    Tick free_at() const { return free_at_; }

private:
    std::string name_;
    LinkParams params_;
    std::int64_t flit_bytes_;
    Tick latency_;
    EnergyAccount* energy_;
    Tick free_at_ = 0;
    Tick busy_ = 0;
    std::int64_t bytes_ = 0, packets_ = 0;
};

}  // namespace mcmsim
