#pragma once
// Where and when a run moved its bytes and did its work, from the plan and the op times alone,
// so that a simulation and an estimate are described the same way (report.json "activity",
// drawn by the HTML report):
//  - per chiplet: MACs, compute busy time (its compute ops' durations; they run one at a
//    time) and MAC utilisation over the run;
//  - per directed package link: the payload bytes routed over it (each transfer along its
//    source route or the package's routing; each DRAM read from the memory's router to the
//    chiplet's, each write back) and its busy fraction, bytes over the link's bandwidth over
//    the run;
//  - over time, in equal bins of the run: each memory's bandwidth and each of the busiest
//    links' utilisation, reconstructed from the op times: every movement reaches a link (or
//    memory) when its op starts, and the link serves them first come, first served at its
//    bandwidth (the memory at the DRAM's). So no bin exceeds the bandwidth and each link's
//    busy time adds up to its bytes over its bandwidth; it is an occupancy at the plan's
//    granularity, not a packet trace (the simulation's own per-link figures are in "stats").
// Pure C++.
#include "hw/config/arch_config.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"

#include <nlohmann/json.hpp>

namespace mcmsim {

struct ActivityOptions {
    int bins = 120;          ///< time bins of the timeline
    int timeline_links = 8;  ///< busiest links drawn over time
};

/// report.json's "activity" object for a run of `latency_ns`.
nlohmann::json run_activity(const ArchConfig& arch, const PlanIndex& index, const std::vector<OpTimes>& times, double latency_ns,
                            const ActivityOptions& options = {});

}  // namespace mcmsim
