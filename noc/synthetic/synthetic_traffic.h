#pragma once
// Synthetic-traffic mode of the VC network (`mcmsim noc`), BookSim-style: every node injects
// packets by a Bernoulli process at R flits/node/cycle (R / L packets per cycle), to
// destinations given by a traffic pattern. Each load point runs three phases:
//   warm-up      traffic flows, nothing is measured;
//   measurement  packets created now are "measured"; flits ejected now count as accepted;
//   drain        injection stops and the network empties, so every measured packet finishes;
//                a drain limit that comes first leaves the point undelivered (no latency).
// Latency: creation to tail ejection (see zero_load_model.h); hops: router-to-router links.
// Several load points run back to back in one simulation (SystemC elaborates once per
// process); a sweep stops after the first saturated point (saturation_check.h).
//
// Patterns (k x k grids, N routers): uniform (any router, itself included, so the mean hop
// count is the textbook n(k^2-1)/(3k)); transpose (r,c) -> (c,r); bitcomp ~i; bitrev and
// shuffle (rotate left) on the bits of i (N a power of two); neighbor (r, c+1 mod k); hotspot:
// 20 % of packets to the centre router, the rest uniform.
#include "hw/energy/energy_ledger.h"
#include "noc/noc_config.h"
#include "noc/synthetic/saturation_check.h"
#include "noc/vc/vc_network.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace mcmsim {

enum class TrafficPattern { Uniform, Transpose, BitComplement, BitReverse, Shuffle, Hotspot, Neighbor };

template <>
struct ChoiceNames<TrafficPattern> {
    static constexpr std::pair<TrafficPattern, const char*> all[] = {
        {TrafficPattern::Uniform, "uniform"},       {TrafficPattern::Transpose, "transpose"},
        {TrafficPattern::BitComplement, "bitcomp"}, {TrafficPattern::BitReverse, "bitrev"},
        {TrafficPattern::Shuffle, "shuffle"},       {TrafficPattern::Hotspot, "hotspot"},
        {TrafficPattern::Neighbor, "neighbor"}};
};

class TrafficPatternGenerator {
public:
    /// RequestError (field "traffic") when the pattern does not fit the topology (bit
    /// patterns need 2^n routers, transpose a square grid).
    TrafficPatternGenerator(TrafficPattern p, const NocTopology& t);
    int destination(int src, std::mt19937_64& rng) const;
    /// Destinations of `src` with their probabilities (for analytical averages).
    std::vector<std::pair<int, double>> distribution(int src) const;

private:
    int fixed(int src) const;
    TrafficPattern p_;
    const NocTopology& t_;
    int bits_ = 0, hotspot_ = 0;
};

struct SyntheticOptions {
    TrafficPattern pattern = TrafficPattern::Uniform;
    std::vector<double> rates{0.1};  ///< flits/node/cycle, one load point each
    int packet_flits = 1;
    Cycle warmup = 1000, measure = 10000;
    Cycle drain_limit = 0;  ///< 0: 10 x measure + 10000
    std::uint64_t seed = 1;
    int threads = 1;                   ///< threads stepping the routers (VcNetwork::set_threads): speed only
    bool exhaustive_stepping = false;  ///< VcNetwork::set_exhaustive_stepping: speed only
};

struct SyntheticPoint {
    double rate = 0;
    double offered = 0, accepted = 0;  ///< flits/node/cycle in the measurement window
    /// Over the measured packets, in cycles and links; none when a measured packet was not
    /// delivered (an average of the delivered ones alone would leave out the slowest) or
    /// none was measured.
    std::optional<double> avg_packet_latency, p99_packet_latency, avg_hops;
    double zero_load_latency = 0;  ///< analytical, this pattern and packet length
    bool saturated = false;        ///< saturation.saturated
    bool drained = true;           ///< the network emptied before the drain limit
    SaturationVerdict saturation;
    /// Mean packets inside (source queues and network) over each sample of the measurement
    /// window, in time order; empty when the network did not drain (stays not all known).
    std::vector<double> backlog;
    std::int64_t packets_measured = 0;     ///< created in the measurement window
    std::int64_t undelivered_packets = 0;  ///< of those, still inside at the drain limit
    std::int64_t flit_hops = 0;
    double max_link_utilization = 0;
    Cycle cycles = 0;  ///< simulated cycles of the point (all phases)
    double wall_s = 0;
    /// Delivered over measured packets (1 when none was measured).
    double delivered_fraction() const;
    nlohmann::json to_json() const;
};

struct SyntheticRun {
    std::vector<SyntheticPoint> points;
    bool deadlocked = false;
    Cycle deadlock_cycle = 0;
    std::vector<std::string> stuck_routers;
    std::int64_t flits_injected = 0, flits_ejected = 0, packets_ejected = 0, order_violations = 0;
    int threads = 1;         ///< as used (at most one per router)
    nlohmann::json network;  ///< per-router and per-link statistics
};

/// Average analytical zero-load latency of a pattern.
double pattern_zero_load(const NocConfig& c, const NocTopology& t, const RoutingFunction& r, const TrafficPatternGenerator& g,
                         int flits);

/// Builds the network, runs every load point, returns the figures. Elaborates SystemC
/// modules: call once per process. Energy is booked into `ledger` when given.
SyntheticRun run_synthetic(const NocConfig& cfg, const SyntheticOptions& opt, EnergyLedger* ledger = nullptr);

}  // namespace mcmsim
