#pragma once
// The table `mcmsim map` prints: per layer, how the mapper split it (partition, shares, route
// policy, collective), what its data movement costs in bytes, and what the analytical model
// predicts for it. Lets an architect read a mapping decision without opening the plan.
#include "mapper/model/analytical_model.h"
#include "traces/plan/plan.h"

#include <ostream>

namespace mcmsim {

/// Writes the per-layer mapping table and a totals line for `plan` priced by `est`.
void print_map_summary(std::ostream& out, const Plan& plan, const Estimate& est);

}  // namespace mcmsim
