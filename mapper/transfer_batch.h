#pragma once
// The plan builder's transfers between chiplets: held as they are made during a phase of a
// plan layer (its input redistribution, its weight multicast, its reduction), then grouped
// into send and recv ops by flush(); and the layer's package byte accounting (bytes, bytes x
// links, per-link loads). Pure C++.
#include "hw/config/package_config.h"
#include "hw/topology/mesh_topology.h"
#include "mapper/chiplet_group.h"
#include "mapper/collectives.h"
#include "mapper/op_sink.h"
#include "mapper/plan_builder.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace mcmsim {

class TransferBatch {
public:
    explicit TransferBatch(const PackageConfig& package);

    /// The package's own routing (diagonal-first if it has diagonals): hops and link paths.
    const MeshTopology& package_topology() const { return topo_package_; }

    /// A new plan layer: collectives relay inside `group`; the byte counts restart.
    void begin_layer(Collective collective, const ChipletGroup& group);

    /// A point-to-point transfer, held until flush() groups it with the phase's others.
    void transfer(int from, int to, std::int64_t bytes, std::vector<std::int64_t> deps);
    /// `bytes` that every chiplet of `dests` (two or more, `from` excluded) needs, moved by the
    /// layer's collective: its first hops wait for `ready`, every relayed hop for the recv
    /// that brought the bytes to its source (flush() makes those recvs).
    void multicast(int from, const std::vector<int>& dests, std::int64_t bytes, const std::vector<std::int64_t>& ready);

    /// Emits the transfers held since the last flush into `layer`; returns, per chiplet, the
    /// recv ops whose bytes it needs (details in transfer_batch.cpp).
    std::vector<std::vector<std::int64_t>> flush(PlanLayer& layer, RoutePolicy policy, OpSink& sink);
    /// flush(), with each chiplet's recvs added to what its compute waits for.
    void flush_into(PlanLayer& layer, RoutePolicy policy, OpSink& sink, std::vector<std::vector<std::int64_t>>& deps);

    /// Counts one flow (an empty route: the package's routing) in the layer's package bytes.
    void account_flow(int from, int to, std::int64_t bytes, const std::vector<int>& route);

    /// This layer so far: bytes sent between chiplets, bytes x package links crossed, and the
    /// busiest directed package link's bytes.
    std::int64_t package_bytes() const { return package_bytes_; }
    std::int64_t package_link_bytes() const { return package_link_bytes_; }
    std::int64_t max_link_bytes() const;

private:
    /// The source routes a flow from `from` to `to` takes under `policy`, with the share of
    /// the bytes each carries (sums to 1). An empty route: the package's own routing.
    void paths(RoutePolicy policy, int from, int to, std::vector<std::pair<std::vector<int>, int>>& out) const;
    /// One recv op for `in` (emptied); returns its id.
    static std::int64_t make_recv(PlanLayer& layer, OpSink& sink, int chiplet, std::vector<Transfer>& in);

    int rows_, cols_, n_;
    MeshTopology topo_;
    MeshTopology topo_yx_;
    MeshTopology topo_package_;         ///< the package's own routing (diagonal-first if it has diagonals)
    const MeshTopology* package_topo_;  ///< whichever of the above the package routes like
    Collective collective_ = Collective::Direct;
    ChipletGroup group_;

    struct Pending {
        int from, to;
        std::int64_t bytes;
        std::vector<std::int64_t> deps;  ///< sorted, unique (a relayed hop: set by flush())
        std::int64_t parent = -1;        ///< relayed hop: the pending hop that brings the bytes to `from`
        int depth = 0;                   ///< relay stage (0: not relayed)
        bool relays = false;             ///< `to` forwards these bytes
        bool consumed = true;            ///< `to` needs these bytes (not only forwards them)
    };
    std::vector<Pending> pending_;  ///< transfers of the current phase, in the order made

    /// flush()'s working storage, kept from one flush to the next (a plan makes thousands):
    /// per pending hop its relay recv; per chiplet the transfers it keeps or relays, its
    /// relayed hops and its send groups; per group its pending hops (the first groups_ in use).
    struct FlushScratch {
        std::vector<std::int64_t> relay_recv;
        std::vector<std::vector<Transfer>> kept, relayed;
        std::vector<std::vector<std::size_t>> relayed_hops, groups_of, members;
        std::size_t groups = 0;
        std::vector<std::pair<std::vector<int>, int>> routes;
    } scratch_;

    std::int64_t package_bytes_ = 0, package_link_bytes_ = 0;
    std::vector<std::vector<int>> pair_links_;  ///< [from * n + to] package links of the routed path, filled lazily
    std::vector<std::int64_t> link_load_;       ///< bytes per directed package link, this layer
};

}  // namespace mcmsim
