#include "noc/routing/routing_function.h"

namespace mcmsim {

RouteDecision DiagonalFirst::route(int at, int dst, RouteState&, const PortLoad*) const {
    int dc = t_.col_of(dst) - t_.col_of(at), dr = t_.row_of(dst) - t_.row_of(at);
    if (dc && dr) {
        if (dr < 0) return {dc > 0 ? kNorthEast : kNorthWest, VcClass::Any};
        return {dc > 0 ? kSouthEast : kSouthWest, VcClass::Any};
    }
    if (dc) return {dc > 0 ? kEast : kWest, VcClass::Any};
    if (dr) return {dr > 0 ? kSouth : kNorth, VcClass::Any};
    return {kLocalPort, VcClass::Any};
}

}  // namespace mcmsim
