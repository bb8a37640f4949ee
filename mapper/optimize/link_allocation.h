#pragma once
// Workload-aware link bandwidth allocation (after LIBRA): given a cost model of package links
// (hw/config/link_cost_model.h) and a budget in its unit, how much bandwidth each link class
// (rows, columns, diagonals) should get so that a workload's plan runs fastest, or with the
// least EdP. Pure C++.
//
// Every link of a class gets the same bandwidth B_c per direction; the allocation spends
//   sum_c n_c x k_c x B_c = budget
// (n_c the class's directed links, k_c the cost of 1 GB/s of its link's preset). The plan is
// mapped once and priced by the analytical model under each candidate split of the budget;
// the split is searched over the simplex of the classes' shares: a grid of shares, then a
// golden-section search in the bracket around the best grid point (two classes; with three,
// the diagonals' share on the outer grid). The uniform allocation of the same budget gives
// every class the same bandwidth. A class whose links would fall below 1 GB/s (no link worth
// its PHY), or a budget that cannot give every class that much, is refused; so is one that
// would take a link beyond the configs' greatest bandwidth.
#include "hw/config/arch_config.h"
#include "hw/config/link_cost_model.h"
#include "mapper/optimize/objective.h"
#include "traces/plan/plan.h"

#include <array>
#include <cstddef>

namespace mcmsim {

struct LinkAllocation {
    std::array<int, kLinkClasses> links{};        ///< directed links per class (0: none)
    std::array<double, kLinkClasses> per_gbps{};  ///< cost of 1 GB/s of the class's link
    std::array<double, kLinkClasses> gbps{};      ///< bandwidth per direction, per class
    double cost = 0;                              ///< sum_c links x per_gbps x gbps
    Score score;                                  ///< the analytical model of the plan under it
    std::size_t evaluations = 0;                  ///< plans priced
};

/// The package's link classes, their directed link counts and costs, and the cost of its own
/// bandwidths. InputError (the cost model's file) when a class's link has no cost.
LinkAllocation current_allocation(const ArchConfig& arch, const LinkCostModel& m);

/// `arch` with the links of each class at `gbps` per direction (latency, energy, preset kept);
/// classes the package has no links of are left alone.
ArchConfig with_link_bandwidths(const ArchConfig& arch, const std::array<double, kLinkClasses>& gbps);

/// Bandwidth per class when class c takes share[c] of `budget`: share x budget / (links x
/// per_gbps), from `costs` (current_allocation); classes without links stay 0.
std::array<double, kLinkClasses> gbps_of_shares(const LinkAllocation& costs, double budget,
                                                const std::array<double, kLinkClasses>& share);

/// Every class at the same bandwidth, `budget` spent; `plan` priced under it.
LinkAllocation uniform_allocation(const ArchConfig& arch, const LinkCostModel& m, double budget, const Plan& plan);

/// The split of `budget` that minimises `objective` of `plan` in the analytical model.
/// RequestError (field "budget") for a budget that is not positive or that cannot give every
/// class 1 GB/s per link, or that would take a class beyond the configs' greatest bandwidth.
LinkAllocation allocate_links(const ArchConfig& arch, const LinkCostModel& m, double budget, const Plan& plan,
                              Objective objective);

}  // namespace mcmsim
