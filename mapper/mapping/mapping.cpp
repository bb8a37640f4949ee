#include "mapper/mapping/mapping.h"

namespace mcmsim {

RoutePolicy package_route_policy(const PackageConfig& p) {
    if (p.diagonals()) return RoutePolicy::Diagonal;
    return p.routing == Routing::YX ? RoutePolicy::YX : RoutePolicy::XY;
}

Mapping uniform_mapping(const Workload& w, const Partition& p) {
    Mapping m;
    LayerMapping lm;
    lm.partition = p;
    m.layers.assign(w.layers.size(), lm);
    return m;
}

std::vector<RoutePolicy> searched_route_policies(bool diagonal_links) {
    std::vector<RoutePolicy> r{RoutePolicy::XY, RoutePolicy::YX, RoutePolicy::Split};
    if (diagonal_links) r.push_back(RoutePolicy::Diagonal);
    return r;
}

}  // namespace mcmsim
