#include "noc/routing/routing_function.h"

namespace mcmsim {

RouteDecision MeshRouting::route(int at, int dst, RouteState&, const PortLoad*) const {
    const Port p = mesh_.step_towards(t_.row_of(dst) - t_.row_of(at), t_.col_of(dst) - t_.col_of(at));
    return {grid_port(p), VcClass::Any};
}

}  // namespace mcmsim
