#include "noc/synthetic/zero_load_model.h"

#include <algorithm>
#include <vector>

namespace mcmsim {

ZeroLoadPath zero_load_path(const VcNetworkConfig& c, const NocTopology& t, const RoutingFunction& r, int src, int dst,
                            int flits) {
    ZeroLoadPath out;
    const int head_stages = (c.router.lookahead ? 0 : c.router.stages.route) + c.router.stages.vc_alloc;
    const int traversal = c.router.stages.switch_alloc + c.router.stages.switch_traversal;
    // Arrival of every flit at the current router; the NI injects one flit per cycle.
    std::vector<double> arrival(static_cast<std::size_t>(flits));
    for (int j = 0; j < flits; ++j) arrival[static_cast<std::size_t>(j)] = c.ni_latency_cycles + j;
    RouteState state;
    for (int at = src;;) {
        RouteDecision d = r.route(at, dst, state, nullptr);
        int spacing = 1, tail_delay = c.ni_latency_cycles;
        const NocChannel* ch = nullptr;
        if (d.port != kLocalPort) {
            ch = &t.channel(t.out_channel(at, d.port));
            const NocLinkConfig& l = c.links[static_cast<std::size_t>(ch->link_class)];
            spacing = l.cycles_per_flit;
            tail_delay = l.latency_cycles + l.cycles_per_flit - 1;
        }
        double prev_sa = 0;
        for (int j = 0; j < flits; ++j) {
            double& a = arrival[static_cast<std::size_t>(j)];
            double sa = j == 0 ? a + head_stages : std::max(a, prev_sa + spacing);
            prev_sa = sa;
            a = sa + traversal + tail_delay;
        }
        if (!ch) break;
        ++out.hops;
        at = ch->dst;
    }
    out.cycles = arrival.back();
    return out;
}

}  // namespace mcmsim
