#include "noc/routing/routing_function.h"

namespace mcmsim {

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

}  // namespace mcmsim
