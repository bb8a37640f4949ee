#include "noc/routing/routing_function.h"

namespace mcmsim {

RouteDecision MeshDimensionOrder::route(int at, int dst, RouteState&, const PortLoad*) const {
    int dc = t_.col_of(dst) - t_.col_of(at), dr = t_.row_of(dst) - t_.row_of(at);
    int x = dc > 0 ? kEast : kWest, y = dr > 0 ? kSouth : kNorth;
    if (x_first_) {
        if (dc) return {x, VcClass::Any};
        if (dr) return {y, VcClass::Any};
    } else {
        if (dr) return {y, VcClass::Any};
        if (dc) return {x, VcClass::Any};
    }
    return {kLocalPort, VcClass::Any};
}

namespace {

/// Offset along a ring of `size` the short way: > 0 positive direction, < 0 negative.
int ring_offset(int from, int to, int size) {
    int d = ((to - from) % size + size) % size;
    if (d == 0) return 0;
    return d <= size / 2 ? d : d - size;
}

}  // namespace

RouteDecision TorusDimensionOrder::route(int at, int dst, RouteState& state, const PortLoad*) const {
    int dc = ring_offset(t_.col_of(at), t_.col_of(dst), t_.cols());
    int dr = ring_offset(t_.row_of(at), t_.row_of(dst), t_.rows());
    int port = kLocalPort;
    if (x_first_) port = dc ? (dc > 0 ? kEast : kWest) : dr ? (dr > 0 ? kSouth : kNorth) : kLocalPort;
    else port = dr ? (dr > 0 ? kSouth : kNorth) : dc ? (dc > 0 ? kEast : kWest) : kLocalPort;
    if (port == kLocalPort || !dateline_) return {port, VcClass::Any};
    const NocChannel& ch = t_.channel(t_.out_channel(at, port));
    if (ch.dim != state.dim) {  // a new ring: start again below the dateline
        state.dim = static_cast<std::int8_t>(ch.dim);
        state.vc_class = 0;
    }
    if (ch.dateline) state.vc_class = 1;
    return {port, state.vc_class ? VcClass::Upper : VcClass::Lower};
}

std::unique_ptr<RoutingFunction> make_routing(const NocConfig& c, const NocTopology& t) {
    if (c.routing == NocRouting::Table) return std::make_unique<UpDownTable>(t);
    const bool x_first = c.routing != NocRouting::YX;
    if (c.topology == NocTopologyKind::Torus) return std::make_unique<TorusDimensionOrder>(t, x_first, c.dateline);
    if (c.routing == NocRouting::WestFirst) return std::make_unique<WestFirst>(t);
    if (c.routing == NocRouting::Diagonal) return std::make_unique<DiagonalFirst>(t);
    return std::make_unique<MeshDimensionOrder>(t, x_first);
}

}  // namespace mcmsim
