#include "mapper/optimize/route_policy.h"

namespace mcmsim {

std::vector<std::string> route_policies() {
    return {to_string(RoutePolicy::XY), to_string(RoutePolicy::YX), to_string(RoutePolicy::Split),
            to_string(RoutePolicy::Diagonal)};
}

std::vector<std::string> searched_route_policies(bool diagonal_links) {
    std::vector<std::string> r{to_string(RoutePolicy::XY), to_string(RoutePolicy::YX), to_string(RoutePolicy::Split)};
    if (diagonal_links) r.push_back(to_string(RoutePolicy::Diagonal));
    return r;
}

void set_route_policy(LayerMapping& lm, const std::string& policy) { lm.route = route_policy_from_string(policy); }

}  // namespace mcmsim
