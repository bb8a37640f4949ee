#include "noc/routing/routing_function.h"

namespace mcmsim {

std::unique_ptr<RoutingFunction> make_routing(const NocConfig& c, const NocTopology& t) {
    if (c.routing == NocRouting::Table) return std::make_unique<UpDownTable>(t);
    const bool x_first = c.routing != NocRouting::YX;
    if (c.topology == NocTopologyKind::Torus) return std::make_unique<TorusDimensionOrder>(t, x_first, c.dateline);
    if (c.routing == NocRouting::WestFirst) return std::make_unique<WestFirst>(t);
    // Meshes route like the package mesh (diagonal-first where XY and YX agree).
    const bool diagonals = c.routing == NocRouting::Diagonal;
    return std::make_unique<MeshRouting>(t, MeshTopology(t.rows(), t.cols(), x_first ? Routing::XY : Routing::YX, diagonals));
}

}  // namespace mcmsim
