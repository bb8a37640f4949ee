#pragma once
// Checks a plan's source routes against the package they will run on. validate_plan cannot:
// it does not know the package. The CLI calls this once it has both the plan and the arch.
#include "hw/topology/mesh_topology.h"
#include "traces/plan/plan.h"

#include <string>

namespace mcmsim {

/// The directed link id from router `a` to its neighbour `b`, or -1 when they are not
/// neighbours in `topo` (any port the topology offers, diagonals included).
int link_between(const MeshTopology& topo, int a, int b);

/// Every route starts at the sender's router, ends at the receiver's router (chiplet i sits at
/// router i) and steps between neighbouring routers. Throws InputError naming `file` and the
/// transfer's JSON pointer ("/layers/3/ops/17/transfers/2/route/4").
void validate_plan_routes(const Plan& plan, const MeshTopology& topo, const std::string& file);

}  // namespace mcmsim
