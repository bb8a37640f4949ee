#include "mapper/mapping/mapping.h"

namespace mcmsim {

RoutePolicy package_route_policy(const PackageConfig& p) {
    if (p.topology == PackageTopology::Torus || p.topology == PackageTopology::Graph) return RoutePolicy::Package;
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

std::vector<RoutePolicy> searched_route_policies(PackageTopology topology) {
    if (topology == PackageTopology::Torus || topology == PackageTopology::Graph) return {RoutePolicy::Package};
    std::vector<RoutePolicy> r{RoutePolicy::XY, RoutePolicy::YX, RoutePolicy::Split};
    if (topology == PackageTopology::MeshDiagonal) r.push_back(RoutePolicy::Diagonal);
    return r;
}

bool route_policy_fits(RoutePolicy r, PackageTopology topology) {
    return r == RoutePolicy::Package || topology == PackageTopology::Mesh || topology == PackageTopology::MeshDiagonal;
}

}  // namespace mcmsim
