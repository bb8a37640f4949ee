#pragma once
// The simulated package, assembled from an arch config and driven by an execution plan:
// chiplets, the package network, memory ports and DRAM targets, and a watchdog.
// simulate_plan() elaborates it, runs it to completion and checks it (SystemC elaborates once
// per process: one simulation per process).
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace mcmsim {

struct SimOptions {
    /// The watchdog stops a run in which no op finished for this long (simulated time).
    double watchdog_ns = 1e7;
    /// Threads that step the package network (the flit-level one uses them; the report does
    /// not depend on how many).
    int threads = 1;
    /// Told now and then as ops finish (ops done, ops in the plan, simulated ns), about a
    /// thousand times a run. It adds no simulation event: the report does not depend on it.
    std::function<void(std::size_t, std::size_t, double)> progress;
};

struct SimResult {
    std::vector<OpTimes> ops;  ///< by dense plan index
    EnergyLedger ledger;
    double simulated_ns = 0;
    std::uint64_t events = 0;  ///< SystemC delta cycles (deterministic)
    bool completed = false;    ///< every op ran
    bool conservation_ok = false;
    nlohmann::json checks;  ///< what was checked, with the counts
    nlohmann::json stats;   ///< network, memories, chiplets
};

SimResult simulate_plan(const ArchConfig& arch, const Plan& plan, const SimOptions& options = {});

}  // namespace mcmsim
