#include "mapper/optimize/route_policy.h"

namespace mcmsim {

std::vector<std::string> route_policies() {
    return {to_string(RoutePolicy::XY), to_string(RoutePolicy::YX), to_string(RoutePolicy::Split)};
}

void set_route_policy(LayerMapping& lm, const std::string& policy) { lm.route = route_policy_from_string(policy); }

}  // namespace mcmsim
