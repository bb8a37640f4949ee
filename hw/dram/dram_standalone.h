#pragma once
// The DRAM model on its own (`mcmsim dram`): synthetic traffic through the TLM-2.0 (AT)
// interface, then bandwidth, efficiency, latency, row hits, energy and refreshes; idle
// latencies measured with isolated requests on one controller. Runs the SystemC kernel: once
// per process.
#include "hw/dram/dram_config.h"
#include "hw/dram/dram_traffic.h"

#include <nlohmann/json.hpp>

#include <string>

namespace mcmsim {

/// Isolated read latencies on one controller: closed row, then a hit, then a conflict, each
/// long after the previous one (no queueing) and before the first refresh.
struct IdleLatency {
    double hit_ns = 0, closed_ns = 0, conflict_ns = 0;
};
IdleLatency measure_idle_latency(const DramConfig& cfg);

struct DramStandaloneResult {
    nlohmann::json json;  ///< what `mcmsim dram --json` prints
    std::string text;     ///< the same, as a few lines
    std::int64_t timing_violations = 0;
};

/// Runs `traffic` on the device `cfg` (named `preset` in the output); `check_timing` replays
/// every command through the timing checker.
DramStandaloneResult run_dram_standalone(const DramConfig& cfg, const std::string& preset, const DramTrafficConfig& traffic,
                                         bool check_timing);

}  // namespace mcmsim
