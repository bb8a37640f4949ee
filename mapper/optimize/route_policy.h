#pragma once
// The one place where a searched route policy meets the plan builder's LayerMapping, so the
// optimisers do not depend on how (or whether) the plan builder stores it. Pure C++.
#include "mapper/plan_builder.h"

#include <string>
#include <vector>

namespace mcmsim {

/// Route policies a layer's flows can follow in a built plan ("xy": the package default;
/// "diagonal": the package's own routing, diagonal hops first on a mesh_diagonal package).
std::vector<std::string> route_policies();

/// The policies worth searching on a package: xy, yx, split, and diagonal only when the
/// package has diagonal links (elsewhere it is the package's dimension order again).
std::vector<std::string> searched_route_policies(bool diagonal_links);

/// Sets layer mapping `lm`'s route policy; "xy" is always accepted.
void set_route_policy(LayerMapping& lm, const std::string& policy);

}  // namespace mcmsim
