#pragma once
// The analytical model behind `mcmsim estimate`: prices a plan in microseconds of wall time.
//
// Every op gets its own cost from closed-form figures, and the plan's dependency graph (plus
// send->recv edges and one compute unit per chiplet) is list-scheduled in order of readiness.
// Congestion is time-aware: every package link and every memory is a first-come-first-served
// resource with a "free at" time, and messages reserve them in the order they reach them, so
// traffic only competes with traffic that overlaps it in time (a weight prefetch issued during
// the previous layer loads the links then, not in its own layer):
//  - compute: the chiplet's own cost function (hw/compute/compute_cost.h), as the simulator;
//  - transfers: a send releases its flows one by one as its network interface frees; each
//    flow reserves its path's links as one virtual-cut-through message (a link is busy from
//    the head's arrival until the tail has left, and the tail never outruns the link before),
//    so a flow arrives after its zero-load head latency plus its bottleneck's serialisation
//    plus any queueing on its path. Flows are events of their own, so senders interleave;
//  - DRAM: the request's head latency, then the memory in order of arrival at its bandwidth,
//    its access latency, and the data's path reserved like a flow (a write: the path first,
//    then the memory, then the acknowledgement).
// Energy: compute, SRAM, NoC and D2D are exact (the same cost function, packets, flits, hops
// and bytes the simulation books, in the same ledger categories). DRAM is approximated: a
// stream opens each row once (per-command energies), background power is active for the share
// of the run the transfers take, refresh every tREFI; chiplet leakage over the estimated run.
// Per-layer link loads (bytes, spread along one routing tree per destination router, see
// message_cost.h RouteTrees) give the energy and each layer's bottleneck link in the stats.
// Each thread keeps the model's scratch storage (a few MB for a ResNet-50 plan) from one
// estimate to the next: capacity only, never a plan's results; the things remembered are
// compute_cost per tile while the chiplet config stays the same (a pure function of both:
// mapper/tile_cost_cache.h) and the package's node-pair paths while the package stays the same
// (mapper/package_paths.h). The plan is read once (its ops and transfers are most of an
// estimate's memory traffic): op ids and flows are indexed while the ops are priced.
// Pure C++.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "traces/plan.h"
#include "traces/plan_index.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace mcmsim {

struct Estimate {
    std::vector<OpTimes> ops;  ///< by dense plan index
    EnergyLedger ledger;
    double latency_ns = 0;
    nlohmann::json stats;  ///< per-layer bottleneck links and loads
};

Estimate estimate_plan(const ArchConfig& arch, const Plan& plan);

}  // namespace mcmsim
