#include "noc/routing/routing_function.h"

namespace mcmsim {

std::unique_ptr<RoutingFunction> make_routing(const NocConfig& c, const NocTopology& t) {
    if (c.routing == NocRouting::Table) return std::make_unique<UpDownTable>(t);
    const Routing order = c.routing != NocRouting::YX ? Routing::XY : Routing::YX;
    if (c.topology == NocTopologyKind::Torus)
        return std::make_unique<PackageRouting>(MeshTopology::torus(t.rows(), t.cols(), order), c.dateline);
    if (c.routing == NocRouting::WestFirst) return std::make_unique<WestFirst>(t);
    // Meshes route like the package mesh (diagonal-first where XY and YX agree).
    const bool diagonals = c.routing == NocRouting::Diagonal;
    return std::make_unique<PackageRouting>(MeshTopology(t.rows(), t.cols(), order, diagonals), false);
}

RouteDecision PackageRouting::route(int at, int dst, RouteState& state, const PortLoad*) const {
    const Port p = mesh_.next_port(at, dst);
    if (p == Port::Local || !dateline_) return {grid_port(p), VcClass::Any};
    int dim = state.dim, cls = state.vc_class;
    mesh_.dateline_step(MeshTopology::link_id(at, p), dim, cls);
    state.dim = static_cast<std::int8_t>(dim);
    state.vc_class = static_cast<std::uint8_t>(cls);
    return {grid_port(p), cls ? VcClass::Upper : VcClass::Lower};
}

}  // namespace mcmsim
