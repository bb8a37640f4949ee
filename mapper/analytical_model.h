#pragma once
// The analytical model behind `mcmsim estimate`: prices a plan in microseconds of wall time.
//
// Every op gets a duration from closed-form figures, and the plan's dependency graph (plus
// send->recv edges and one compute unit per chiplet) is list-scheduled in order of readiness:
//  - compute: the chiplet's own cost function (hw/compute/compute_cost.h), as the simulator;
//  - transfers: zero-load head latency along the routed path (routers, links, PHYs) plus a
//    congestion term: the flow cannot finish before the most loaded link on its path has
//    moved its relay stage's load in that layer (per-link loads: bytes over bandwidth), nor
//    before its own bytes have crossed its network interface. Stages come from the plan: a
//    send waiting for no recv of its layer is stage 0 (all of a direct plan: one phase); one
//    waiting for such recvs (a collective's relay) is one after the latest send feeding them;
//  - DRAM: access latency plus the memory's load in that layer over its bandwidth.
// Energy: compute, SRAM, NoC and D2D are exact (the same cost function, packets, flits, hops
// and bytes the simulation books, in the same ledger categories). DRAM is approximated: a
// stream opens each row once (per-command energies), background power is active for the share
// of the run the transfers take, refresh every tREFI; chiplet leakage over the estimated run.
// Link loads of a layer (and stage) are spread along one routing tree per destination router
// (message_cost.h RouteTrees), not path by path. Each thread keeps the model's scratch storage
// (a few MB for a ResNet-50 plan) from one estimate to the next: capacity only, never a plan's
// results; the one thing remembered is compute_cost per tile while the chiplet config stays the
// same (a pure function of both: mapper/tile_cost_cache.h).
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
