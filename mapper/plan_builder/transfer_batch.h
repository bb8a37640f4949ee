#pragma once
// The plan builder's transfers between chiplets: held as they are made during a phase of a
// plan layer (its input redistribution, its weight multicast, its reduction), then grouped
// into send and recv ops by flush(); and the layer's package byte accounting (bytes, bytes x
// links, per-link loads). Pure C++.
#include "hw/common/id_vector.h"
#include "hw/config/package_config.h"
#include "hw/topology/mesh_topology.h"
#include "mapper/mapping/chiplet_group.h"
#include "mapper/mapping/mapping.h"
#include "mapper/plan_builder/collective_synthesis.h"
#include "mapper/plan_builder/collectives.h"
#include "mapper/plan_builder/op_sink.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mcmsim {

/// Op ids a transfer waits for, borrowed from a vector or a single id for the length of a
/// call (the callee copies them): one id then needs no vector of its own.
struct OpIds {
    OpIds(const std::vector<std::int64_t>& v) : data(v.data()), size(v.size()) {}
    OpIds(const std::int64_t& one) : data(&one), size(1) {}
    const std::int64_t* data;
    std::size_t size;
};

class TransferBatch {
public:
    /// `ni_gbps`: each chiplet's NI bandwidth, which synthesised collectives plan with.
    explicit TransferBatch(const PackageConfig& package, double ni_gbps = 0);

    /// The package's own routing (diagonal-first if it has diagonals): hops and link paths.
    const MeshTopology& package_topology() const { return topo_package_; }

    /// A new plan layer: collectives relay inside `group`; the byte counts restart.
    void begin_layer(Collective collective, const ChipletGroup& group);
    /// Synth: chunks per multicast (0, the default: synthesis_chunks of its bytes).
    void set_synthesis_chunks(int chunks) { synthesis_chunks_ = chunks; }

    /// A point-to-point transfer, held until flush() groups it with the phase's others.
    void transfer(int from, int to, std::int64_t bytes, OpIds deps);
    /// `bytes` that every chiplet of `dests` (two or more, `from` excluded) needs, moved by the
    /// layer's collective: its first hops wait for `ready`, every relayed hop for the recv
    /// that brought the bytes to its source (flush() makes those recvs). Under synth the trees
    /// of all the phase's multicasts are synthesised together when the phase is flushed.
    void multicast(int from, const std::vector<int>& dests, std::int64_t bytes, OpIds ready);

    /// Partial sums of `bytes` on every chiplet of `members` (two or more, `owner` among them),
    /// which `owner` needs summed: reduced along the layer's collective's trees from the owner
    /// run backwards (reduction_trees.cpp). A chiplet of a tree adds what its children send
    /// into its own partial sums (a compute op of `adds_per_byte` vector ops per byte added,
    /// labelled `tile`) and sends the sum to its parent; `own[i]` made members[i]'s partial
    /// sums (`own` empty: they are there from the start). After flush(), reduced()[i] is the op of the i-th reduction's last sum,
    /// on the owner. Under direct every member sends the owner its partial sums.
    void reduce(int owner, const std::vector<int>& members, std::int64_t bytes, const std::vector<std::int64_t>& own,
                double adds_per_byte, const std::string& tile);
    /// The owners' final sums of the reductions of the last flush, in the order asked.
    const std::vector<std::int64_t>& reduced() const { return reduced_; }

    /// Emits the transfers held since the last flush into `layer`; returns, per chiplet, the
    /// recv ops whose bytes it needs (details in transfer_batch.cpp).
    ChipletDeps flush(PlanLayer& layer, RoutePolicy policy, OpSink& sink);
    /// flush(), with each chiplet's recvs added to what its compute waits for.
    void flush_into(PlanLayer& layer, RoutePolicy policy, OpSink& sink, ChipletDeps& deps);

    /// Counts one flow (an empty route: the package's routing) in the layer's package bytes.
    void account_flow(int from, int to, std::int64_t bytes, const std::vector<int>& route);

    /// This layer so far: bytes sent between chiplets, bytes x package links crossed, and the
    /// busiest directed package link's bytes.
    std::int64_t package_bytes() const { return package_bytes_; }
    std::int64_t package_link_bytes() const { return package_link_bytes_; }
    std::int64_t max_link_bytes() const;

private:
    /// A source route a flow takes: the package's own routing (no route), or the XY or YX
    /// path; `share`: the flow's bytes divided by it go this way (the last path: what is left).
    enum class RouteKind { Package, XY, YX };
    struct Path {
        RouteKind kind;
        int share;
    };
    /// The paths a flow from `from` to `to` takes under `policy` (one or two); returns how many.
    int paths(RoutePolicy policy, int from, int to, Path (&out)[2]) const;
    /// The routers of a path (empty for the package's routing) and the package links it
    /// crosses, computed once per plan and pair.
    const std::vector<int>& route_of(RouteKind kind, int from, int to);
    const std::vector<int>& links_of(RouteKind kind, int from, int to);
    /// Adds one flow's bytes to the layer's package bytes, crossing `links`.
    void account_links(std::int64_t bytes, const std::vector<int>& links);
    /// One of the phase's multicasts under synth, held until flush() synthesises them all.
    struct Deferred {
        int from;
        std::vector<int> dests;
        std::int64_t bytes;
        std::size_t ready_at, ready_n;
    };
    std::vector<Deferred> deferred_;
    int synthesis_chunks_ = 0;
    /// One reduce() call: its members, each member's partial-sum deps (in deps_), the add ops
    /// per byte, the owner's final sum once made.
    struct Reduction {
        int owner;
        std::vector<int> members;
        std::int64_t bytes;
        std::vector<std::pair<std::size_t, std::size_t>> own;  ///< [member] (deps_at, deps_n)
        double adds_per_byte;
        std::string tile;
    };
    std::vector<Reduction> reductions_;
    std::vector<Reduction> deferred_reductions_;  ///< synth: synthesised at flush()
    /// Themis: the phase's multicasts and reductions, chunked and ordered at flush().
    std::vector<Deferred> themis_multicasts_;
    std::vector<Reduction> themis_reductions_;
    /// Cuts the phase's Themis collectives into chunks, orders each chunk's dimensions
    /// (themis_schedule.h) and adds their 2d trees, chunk k a stage after chunk k - 1.
    void schedule_themis();
    std::vector<std::int64_t> reduced_;
    int trees_ = 0;  ///< reduce trees made this phase
    /// The hops of `r`'s reduce tree(s) from a broadcast tree `hops` of `bytes` out of the
    /// owner: every hop reversed, at stage `last_depth` - its depth.
    void add_reduce_hops(int r, const std::vector<CollectiveHop>& hops, std::int64_t bytes, int last_depth);
    /// Before a stage's sends: each reduce hop of the stage waits for what its sender adds
    /// (the sum of its children's recvs and its own partial sums, an add op when there is
    /// more than one).
    void prepare_reduce_hops(PlanLayer& layer, OpSink& sink, int depth);
    /// After the last stage: each reduction's final sum on its owner.
    void finish_reductions(PlanLayer& layer, OpSink& sink);
    /// The sender's own partial-sum deps of a reduce hop (none when it is not a member).
    std::pair<std::size_t, std::size_t> own_deps(int r, int chiplet) const;
    /// Synthesises the deferred multicasts and reductions and adds their hops to pending_.
    void synthesise_deferred();
    /// The phase `demands_of` gives, synthesised with at most kSynthesisCoarseChunks chunks
    /// per demand and with at most kSynthesisMaxChunks (unless set_synthesis_chunks fixed
    /// them): whichever the synthesiser times shorter.
    SynthesisedPhase synthesise_finest_that_pays(const std::function<std::vector<MulticastDemand>(int most)>& demands_of) const;
    /// Adds one tree's hops carrying `bytes`; `entry`: the pending hop that brought the bytes
    /// into the group (-1: the tree's root holds them, its first hops wait for `ready`).
    void add_hops(const std::vector<CollectiveHop>& hops, std::int64_t bytes, std::int64_t entry, std::size_t ready_at,
                  std::size_t ready_n, int stage_offset = 0);
    const PackageConfig& package_;
    double ni_gbps_ = 0;
    SynthesisGraph synth_graph_;  ///< of synth_group_
    ChipletGroup synth_group_{-1, -1, -1, -1};
    // flush(), stage by stage: the pending hops sorted by relay stage (returns the deepest),
    // one stage's hops grouped into sends (per source and dependencies), one send op per group.
    int sort_by_stage();
    /// Lockstep: after a step's sends, each chiplet's one recv of the step's bytes.
    void end_step(PlanLayer& layer, OpSink& sink, ChipletDeps& needed);
    void group_sends(int depth);
    void make_send(PlanLayer& layer, RoutePolicy policy, OpSink& sink, const std::vector<std::size_t>& group);
    /// One recv op for `in` (emptied, its memory kept for the next); returns its id.
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
        std::size_t deps_at = 0;   ///< its dependencies: deps_[deps_at, deps_at + deps_n), sorted, unique
        std::size_t deps_n = 0;    ///< (a relayed hop: set by flush())
        std::int64_t parent = -1;  ///< relayed hop: the pending hop that brings the bytes to `from`
        int depth = 0;             ///< relay stage (0: not relayed)
        bool relays = false;       ///< `to` forwards these bytes
        bool consumed = true;      ///< `to` needs these bytes (not only forwards them)
        int reduction = -1;        ///< a reduce hop: its reduce() call
        int tree = -1;             ///< a reduce hop: its tree (one per reduction and chunk)
    };
    std::vector<Pending> pending_;    ///< transfers of the current phase, in the order made
    std::vector<std::int64_t> deps_;  ///< the pending transfers' dependency lists, back to back
    /// Appends `ids` to deps_ sorted and unique; returns where they start (their count in `n`).
    std::size_t add_deps(OpIds ids, std::size_t& n);
    bool same_deps(const Pending& a, const Pending& b) const;

    /// flush()'s working storage, kept from one flush to the next (a plan makes thousands):
    /// per pending hop its relay recv; per chiplet the transfers it keeps or relays, its
    /// relayed hops and its send groups; per group its pending hops (the first groups_ in use).
    struct FlushScratch {
        std::vector<std::int64_t> relay_recv;
        IdVector<std::vector<Transfer>> kept, relayed;
        IdVector<std::vector<std::size_t>> relayed_hops, groups_of;
        std::vector<std::vector<std::size_t>> members;
        std::size_t groups = 0;
        IdVector<std::size_t> stage_first;                           ///< [relay stage] where its hops start in by_stage
        std::vector<std::size_t> by_stage;                           ///< pending hops by relay stage
        bool lockstep = false;                                       ///< a synthesised phase, kept step by step
        IdVector<std::vector<std::int64_t>> last_sends, step_sends;  ///< [chiplet] lockstep: sends of its last step, this step's
        std::vector<std::vector<std::size_t>> tree_inputs;           ///< reduce hops by (tree, destination): tree * n + to
        IdVector<int> last_send_step;                                ///< [chiplet] lockstep: the step of its last sends
        IdVector<std::int64_t> last_recv;                            ///< [chiplet] lockstep: its latest recv
        IdVector<int> last_recv_step;                                ///< [chiplet] lockstep: that recv's step
        int step = 0;                                                ///< lockstep: the step being made
    } scratch_;
    CollectivePlanner collectives_;  ///< multicast()'s hops

    std::int64_t package_bytes_ = 0, package_link_bytes_ = 0;
    /// Per RouteKind, [from * n + to]: the path's routers (XY, YX) and its package links,
    /// filled lazily (a routed path is computed once per plan, not once per flow).
    IdVector<std::vector<int>> routes_[3];
    IdVector<std::vector<int>> links_[3];
    IdVector<std::int64_t> link_load_;  ///< [link] bytes per directed package link, this layer
};

}  // namespace mcmsim
