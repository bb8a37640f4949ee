#pragma once
// Analytical zero-load latency of the VC network, the reference the simulator is tested
// against. Convention: latency runs from packet creation (it enters the NI source queue)
// to the cycle its tail flit leaves the ejection channel:
//
//   head: T_head = t_ni + sum over routers on the path of P + sum over links (latency + s - 1) + t_ni
//
// with P the router pipeline (RC+VA+SA+ST cycles, RC dropped with lookahead), t_ni the
// injection / ejection channel latency and s a link's cycles per flit (1 on die; the flit
// serialisation of a die-to-die link). On uniform on-die paths the tail follows the head
// by L - 1 cycles: T0 = T_head + (L - 1). A serialising link spaces flits s cycles apart;
// downstream, body flits need only SA+ST (they skip RC and VA) and catch up with the head
// again. So the tail is computed by the same recursion flit by flit, with no queueing:
//   SA_j = max(arrival_j + (j == 0 ? RC + VA : 0), SA_{j-1} + s_out),
//   arrival at the next router = SA_j + SA + ST + latency + s_out - 1, ejection + t_ni.
// (Buffers are assumed deep enough to cover the credit round trip.)
#include "hw/topology/noc_topology.h"
#include "noc/noc_config.h"
#include "noc/routing/routing_function.h"

namespace mcmsim {

struct ZeroLoadPath {
    int hops = 0;       ///< router-to-router links
    double cycles = 0;  ///< T0
};

ZeroLoadPath zero_load_path(const VcNetworkConfig& c, const NocTopology& t, const RoutingFunction& r, int src, int dst,
                            int flits);

}  // namespace mcmsim
