#include "noc/routing/routing_function.h"

namespace mcmsim {

RouteDecision WestFirst::route(int at, int dst, RouteState&, const PortLoad* load) const {
    int dc = t_.col_of(dst) - t_.col_of(at), dr = t_.row_of(dst) - t_.row_of(at);
    // Turns into the west are forbidden, so every west hop must come first.
    if (dc < 0) return {kWest, VcClass::Any};
    int x = dc > 0 ? kEast : -1, y = dr ? (dr > 0 ? kSouth : kNorth) : -1;
    if (x < 0 && y < 0) return {kLocalPort, VcClass::Any};
    if (x < 0) return {y, VcClass::Any};
    if (y < 0) return {x, VcClass::Any};
    // Both productive: the emptier downstream buffer; X on a tie (and when routing off-line).
    if (load && load->free_slots(y) > load->free_slots(x)) return {y, VcClass::Any};
    return {x, VcClass::Any};
}

}  // namespace mcmsim
