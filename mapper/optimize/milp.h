#pragma once
// The closed-form MILP (formulation.h), solved by COIN-OR CBC through mip_solver.h. Pure C++.
// `mcmsim map --optimizer milp` solves the layered formulation (chain_formulation.h); from
// this model it takes balanced_units(), the shares that balance one layer's most-loaded
// resource, as extra candidates. run_milp() solves the whole closed-form model and is checked
// against its enumeration (exhaustive.h) in the tests. Collectives are not modelled here:
// every layer gets the direct collective.
//
// Variables per layer l, partition option d, route policy rho, chiplet i:
//   x[l,d,rho] in {0,1}   the layer's option and route          sum_{d,rho} x[l,d,rho] = 1
//   u[l,d,rho,i] integer  share units of chiplet i              sum_i u[l,d,rho,i] = U x[l,d,rho]
//   a[l,d,rho,i] in {0,1} chiplet i has work                    a <= u <= U a
//   T_l >= 0              the layer's bottleneck time
// The min-max is linearised by one row per chiplet and per resource (DRAM, PHY, mesh link, NI):
//   T_l >= c_l sum_{d,rho} u[l,d,rho,i]
//   T_l >= (1/B_e) sum_{d,rho,i : e on i's rho path} (V_d u/U + F_d a)   (V, F: bytes in or out)
// and the data-movement energy is linear: E = sum (V_d u/U + F_d a) x energy per byte of i.
// Objectives: latency = min sum_l T_l; energy = min E + P_leak sum_l T_l (both separate by
// layer, so each layer is its own MILP). EdP = (sum T)(E_fixed + E + P_leak sum T) is not
// linear; it is minimised over the workload's (latency, energy) Pareto front. Per-layer costs
// are independent, so that front is the merge of the layers' own fronts (a layer's dominated
// options cannot be part of a non-dominated sum), and each layer's front is found exactly by
// iterating an energy bound ("epsilon constraint"): min T_l s.t. E_l <= B, then
// min E_l s.t. T_l <= T*, record the point, B := E* - 1e-7 E*, until infeasible. The best EdP
// point of the merged front is the optimum (up to the 1e-7 energy step). With
// `max_front_points` > 0 (large instances) each layer's bound moves in at most that many
// steps over its energy range: an approximation, reported as not exact. `max_solves` (a count:
// the same result on any machine) or `budget_s` (wall clock) stops the front search between
// solves; the fronts found so far are merged, and layers not reached keep the baseline.
#include "mapper/optimize/formulation.h"

#include <functional>
#include <string>

namespace mcmsim {

struct MilpOptions {
    Objective objective = Objective::Edp;
    int max_front_points = 0;  ///< per layer; 0: the whole front (exact)
    /// Large instances: one model per (option, route) instead of one per layer, CBC stopped
    /// at a relative gap and a node limit (deterministic, unlike a time limit).
    bool split_combos = false;
    double gap = 1e-10;
    int max_nodes = 0;                                  ///< 0: none
    int max_solves = 0;                                 ///< CBC solves over all layers (0: none)
    double budget_s = 0;                                ///< wall limit over all solves (0: none)
    std::function<void(int, double, double)> progress;  ///< step, best value, elapsed s
};

struct MilpResult {
    Genome best;
    Score score;        ///< formulation objective of `best`
    bool exact = true;  ///< false: lambda sweep, or a solve stopped by the budget
    int solves = 0;
    std::string method;  ///< "per-layer" (latency, energy), "per-layer fronts" (EdP)
};

MilpResult run_milp(const Formulation& f, const MilpOptions& o);

/// Layer l's share units under partition option `option` and route `route` of f's space that
/// make its bottleneck time least in the closed-form formulation (MCMComm's min-max
/// balancing: less work where data arrives over busier links or from farther away), by CBC
/// within the relative `gap` and `max_nodes` branch-and-bound nodes (0: none).
IdVector<int> balanced_units(const Formulation& f, std::size_t l, int option, int route, double gap, int max_nodes);

}  // namespace mcmsim
