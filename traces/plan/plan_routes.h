#pragma once
// Checks a plan against the package it will run on: its chiplet and memory counts, chiplet
// groups and source routes. validate_plan cannot: it does not know the package.
#include "hw/config/arch_config.h"
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

/// The plan addresses this package: its chiplet and memory counts, chiplet groups inside the
/// grid, routes that exist in it, DRAM accesses inside their memory, transfers no larger
/// than the package's memory capacity, and compute ops of at most 1000 s at the chiplet's peak. Mismatches are InputErrors naming
/// `file`.
void check_plan_fits(const Plan& plan, const ArchConfig& arch, const std::string& file);

}  // namespace mcmsim
