#pragma once
// The analytical model's estimator (analytical_model.h), shared by the files that implement
// it: the priced plan as the schedules read it (per-op costs, flows, DRAM costs), the storage
// kept between estimates, and the Estimator itself. Pricing, energy and statistics are in
// analytical_model.cpp, the one-pass message schedule in message_schedule.cpp, the packet
// schedule in packet_schedule.cpp. Internal to the mapper: include analytical_model.h instead.
// Pure C++.
#include "mapper/model/analytical_model.h"

#include "hw/compute/compute_cost.h"
#include "mapper/model/flow_receivers.h"
#include "mapper/model/message_cost.h"
#include "mapper/model/package_paths.h"
#include "mapper/model/packet_events.h"
#include "mapper/model/ready_queue.h"
#include "mapper/model/tile_cost_cache.h"
#include "traces/plan/plan_routes.h"

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcmsim::estimator {

/// The scheduler's view of one op, 24 bytes: walking PlanOps (and their heap-held lists) a
/// second time would cost more than the scheduling itself.
struct OpCost {
    double own_ns;  ///< compute: its time on the unit
    /// Send: its FlowCosts. DRAM: flows_begin indexes its DramCost.
    std::uint32_t flows_begin, flows_end;
    int chiplet;
    OpKind kind;
};

/// One transfer of a send op, 16 bytes: a plan holds many more transfers than ops.
struct FlowCost {
    double wire;         ///< bytes on the wire (whole flits), as a double: times are wire x ns/byte
    std::uint32_t slot;  ///< where Workspace::receivers keeps the recv op that waits for it
    /// Its path in Estimator::PathTables: below nodes^2 the node pair whose precomputed path
    /// it takes, else nodes^2 + its source route's number in routed_.
    int path;
};

/// A DRAM op as the scheduler sees it: the memory serves it in order of issue at its
/// bandwidth, and its data crosses the package on the path between the two ends.
struct DramCost {
    double request_ns;  ///< read: the request's head latency to the memory; write: the data's
    double access_ns;   ///< the memory's access latency
    double memory_ns;   ///< its bytes over the memory's bandwidth
    double wire;        ///< data bytes on the wire
    double reply_ns;    ///< write: the acknowledgement's head latency back
    int path;           ///< node pair of the data's direction
    int back;           ///< node pair of the other direction (packet granularity: a read's requests)
    int memory;
    bool read;
};

/// What the scheduler tracks of an op while it waits, together: a flow's arrival touches one
/// cache line.
struct OpSchedule {
    double ready;    ///< when its last dependency ended
    double arrival;  ///< recv: when its last flow arrived
    int pending;     ///< dependencies (plus flows, for a recv) not yet done
};

/// An edge of the dependency graph, in its source op's list of successors: the op that
/// depends on it, and the source's next edge (kNoEdge after the last). Lists are built as the
/// plan is read, each op's before any op that depends on it (dependencies name earlier ops),
/// with no pass to count and place them afterwards. They list an op's successors latest
/// first; the order does not matter: releasing a successor sets its ready time to a maximum
/// and queues it under a key (time, index) that orders the queue whenever it was pushed.
struct SuccEdge {
    std::uint32_t to, next;
};
constexpr std::uint32_t kNoEdge = 0xFFFFFFFFu;

/// Storage the estimator reuses from one estimate to the next, one per thread: optimisers
/// price thousands of plans, and fresh megabytes for each would cost more in page faults than
/// the pricing itself. Only capacity carries over, never content: an estimate writes every
/// element before it reads it (the vectors that only grow are never read past what it wrote).
/// The exceptions are `tiles` and `paths`: compute costs, which depend on the chiplet config
/// and tile alone, and the package's paths, which depend on the arch alone.
struct Workspace {
    KeyIndex ids;                   ///< op id -> dense index
    FlowReceivers receivers;        ///< flow -> its recv op
    std::vector<OpCost> cost;       ///< grows only
    std::vector<OpSchedule> sched;  ///< grows only
    std::vector<FlowCost> flows;    ///< grows only
    std::vector<SuccEdge> edges;
    std::vector<std::uint32_t> first_succ;  ///< per op: its first SuccEdge, kNoEdge when none (grows only)
    std::vector<DramCost> drams;
    std::vector<double> ni_ns, ni_sorted, ni_prefix;  ///< a send's flows at its network interface
    ReadyQueue ready;
    PacketGroupPool packets;  ///< packet granularity: groups in flight
    TileCostCache tiles;      ///< results of compute_cost, kept for as long as the chiplet is the same
    PackagePathsCache paths;  ///< the package's node-pair paths, kept for as long as the arch is the same
};

template <class T>
void grow_to(std::vector<T>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
}

class PacketSchedule;  // the packet granularity's schedule while it runs (packet_schedule.cpp)

class Estimator {
public:
    Estimator(const ArchConfig& arch, const Plan& plan, const EstimateOptions& options, Workspace& ws)
        : arch_(arch), plan_(plan), options_(options), ws_(ws), pp_(ws.paths.get(arch)), mc_(pp_.message_cost()),
          links_(pp_.links()), trees_(pp_.trees()), n_(pp_.chiplets()), nodes_(pp_.nodes()), routers_(trees_.routers()),
          ni_bw_(arch.chiplet.ni_bandwidth_gbps) {
        const auto memories = arch.memories.size();
        load_.assign(links_n_, 0);
        link_wire_.assign(links_n_, 0);
        inbound_.assign(pairs_n_, 0);
        router_wire_.assign(static_cast<std::size_t>(routers_), 0);
        dram_total_.assign(memories, 0);
        dram_pj_.assign(memories, 0.0);
        for (const MemoryConfig& m : arch.memories)
            stream_pj_.push_back({dram_stream_pj_per_bit(m.dram, false), dram_stream_pj_per_bit(m.dram, true)});
        chiplet_pj_.assign(static_cast<std::size_t>(n_), {});
        ws_.tiles.use(arch.chiplet);
        worst_ns_.assign(plan.layers.size(), 0.0);
        worst_link_.assign(plan.layers.size(), -1);
    }

    Estimate run() {
        index_plan();
        price_all();
        if (options_.granularity == Granularity::Packet) schedule_packets();
        else schedule();
        book_energy();
        book_static_energy();
        layer_stats();
        return std::move(est_);
    }

private:
    std::size_t pair(int a, int b) const { return pp_.pair(a, b); }
    static std::size_t at(int i) { return static_cast<std::size_t>(i); }

    /// Books `wire` bytes from node a to node b on the package's path, in the layer being
    /// priced: injection and ejection links now, the mesh by router pair (spread along the
    /// routing trees when the layer is complete). Loads give energy and each layer's
    /// bottleneck; timing comes from the schedule's link reservations.
    void carry(int a, int b, std::int64_t wire) {
        load_[at(pp_.inject(a))] += wire;
        load_[at(pp_.eject(b))] += wire;
        inbound_[at(pp_.router_of(b)) * at(routers_) + at(pp_.router_of(a))] += wire;
    }

    /// Asks the cache for an op's heap-held lists (dependencies, transfers) one op ahead, all
    /// their lines at once: they sit at unpredictable addresses, and reading a plan's transfers
    /// line by line as they come would stall on every line.
    static void prefetch_lists(const PlanOp& op) {
        if (!op.deps.empty()) __builtin_prefetch(op.deps.data());
        const char* t = reinterpret_cast<const char*>(op.transfers.data());
        const std::size_t bytes = std::min<std::size_t>(op.transfers.size() * sizeof(Transfer), 8192);
        for (std::size_t off = 0; off < bytes; off += 64) __builtin_prefetch(t + off);
    }

    /// Sizes what pricing stores. The plan itself is read once, by price_all: a plan's ops
    /// and transfers sit at unpredictable heap addresses, and a second walk over them (to index
    /// ids and flows first) would miss the cache on every op again.
    void index_plan();

    /// Prices every op, layer by layer (dense order is layer order): what each op costs on its
    /// own, and the layer's traffic on the package links (energy, bottleneck statistics).
    /// Indexes the plan on the way: op ids (dependencies name earlier ops, validate_plan) and
    /// each flow's recv op (FlowReceivers: a send's flows find theirs when they run).
    void price_all();

    void price(std::size_t i, const PlanOp& op);

    /// A send op's transfers: their recvs, sizes and paths, and their bytes on the package.
    void price_send(OpCost& c, const PlanOp& op);

    /// The hot loop of pricing (every transfer of the plan): works on raw rows of the
    /// traffic tables, with its state in locals. The common transfer (the size of the one
    /// before, on the package's routes, a dense flow id) goes through an inner loop that calls
    /// nothing, so that the compiler keeps that state in registers.
    void price_flows(OpCost& c, const Transfer* begin, const Transfer* end);

    /// A flow on a source route: its links (with their head times) kept and loaded.
    void book_routed(int src, int dst, const std::vector<int>& route, std::int64_t wire);

    /// With the layer's traffic complete: load the mesh links (router pairs' bytes spread
    /// along the routing trees; source routes are booked already), then book the layer's NoC
    /// and D2D energy and its bottleneck link from the integer loads.
    void finish_layer(std::size_t layer);

    /// A plan that validate_plan rejects: a flow that no recv op receives.
    [[noreturn]] void no_recv(std::uint32_t slot) const {
        throw std::logic_error("analytical model: flow " + std::to_string(ws_.receivers.flow_of(slot)) +
                               " has no recv (validate_plan)");
    }

    /// Where the scheduler finds a flow's path: one table, the package's node-pair paths
    /// (FlowCost::path < nodes^2) and then the plan's source routes, so that a flow's path is
    /// one load. The package's own table when the plan has no source routes, else both copied
    /// into all_paths_. A raw pointer taken once: through the members the compiler reloads it
    /// for every flow.
    struct PathTables {
        const PathRef* all;
        const PathRef& operator[](int path) const { return all[path]; }
    };

    /// What both schedules start from: the priced ops, their successors, the paths and
    /// receivers, the ready queue holding every op without dependencies (at time 0), and
    /// idle compute units, links and memories.
    struct ScheduleStart {
        const OpCost* cost;
        OpSchedule* sched;
        const FlowCost* flows;
        const std::uint32_t* first_succ;  ///< per op: its successor list (SuccEdge)
        const SuccEdge* edges;
        PathTables paths;
        FlowReceivers::View receivers;
        std::vector<double> compute_free;  ///< per chiplet: when its compute unit is free
        double* link_free;                 ///< link_free_'s storage
        OpTimes* times;                    ///< est_.ops's storage
    };
    ScheduleStart start_schedule();
    /// PathTables' table, once the plan is priced.
    const PathRef* path_table();
    /// Checks that all `done` ops ran and sets the estimate's latency (the last op's end).
    void finish_schedule(std::size_t done);

    /// The list schedule: ops in order of readiness, one compute unit per chiplet, and the
    /// package's links and memories reserved by messages in the order they are issued (see
    /// reserve_rest): a send's flows interleaved, each on its own path; a DRAM read's
    /// request, its memory, then its data's path; a write's data path, then its memory.
    void schedule();
    /// schedule()'s DRAM read or write issued at `t`: when it is done.
    double dram_end(const DramCost& d, double t, PathTables paths, double* link_free);
    /// schedule()'s send: its flows, interleaved from `leave` on, each on its path, and
    /// their recvs queued once they have all their flows. Returns when its last byte has
    /// left. A function of its own (not inlined), so that its loop, the estimate's hottest,
    /// keeps its pointers in registers rather than on the stack of the schedule around it.
    __attribute__((noinline)) double send_flows(const FlowCost* f, const FlowCost* last, double leave, OpSchedule* sched,
                                                PathTables paths, FlowReceivers::View receivers, double* link_free);

    /// The packet granularity (analytical_model.h): a discrete-event schedule. Ops run as in
    /// schedule() (one compute unit per chiplet, a send's flows interleaved on its network
    /// interface), but what they put on the package travels as groups of
    /// packets_per_event packets, each an event at every link it reaches (PacketGroup). A link
    /// serves groups in the order they reach it, for their bytes at the slowest rate so far on
    /// their path (cut-through, as in reserve_rest), and a group reaches the next link the
    /// next link's head time after it started on this one: a wait here is a wait there too.
    /// DRAM traffic is events as well: the memory is one more server, in order of arrival.
    /// Events share the ready queue with ops (group slot s has index ops + s). Ties: ops first,
    /// in plan order, then groups in the order their events were pushed (ReadyQueue::push's
    /// sequence number), as the simulator's routers serve heads that arrive in the same tick.
    void schedule_packets();
    friend class PacketSchedule;

    /// Component accounts: every router, link, PHY, memory and chiplet has one, idle or not,
    /// as in the simulation's ledger. NoC and D2D energy from the traffic totals: per router
    /// its flits, per link its bytes (integers, so the order messages came in does not matter).
    void book_energy();

    /// Energy that accrues with time rather than with work: chiplet leakage and DRAM
    /// background power and refresh over the estimated run.
    void book_static_energy();

    /// Per layer: its bottleneck link and that link's load time. Built in place, moving every
    /// value (braced json lists copy each value, and copying the array copies it all again).
    void layer_stats();

    const ArchConfig& arch_;
    const Plan& plan_;
    const EstimateOptions& options_;
    Workspace& ws_;
    const PackagePaths& pp_;  ///< the package's nodes and node-pair paths (per-thread cache)
    const MessageCost& mc_;
    const PackageLinks& links_;
    const RouteTrees& trees_;
    int n_, nodes_, routers_;
    double ni_bw_;
    const HeadLatencyTerms& flit_terms_ = pp_.flit_terms();
    const std::vector<double>& ns_per_byte_ = pp_.ns_per_byte();  ///< per link
    std::size_t ops_ = 0;
    // Traffic of the layer being priced, and totals.
    std::size_t links_n_ = static_cast<std::size_t>(links_.count());
    std::size_t pairs_n_ = static_cast<std::size_t>(routers_) * static_cast<std::size_t>(routers_);
    std::vector<std::int64_t> load_;         ///< per link: the layer's bytes on the wire (mesh: once spread)
    std::vector<std::int64_t> inbound_;      ///< per (destination, source router): the layer's bytes to spread
    std::vector<std::int64_t> link_wire_;    ///< per link, whole plan
    std::vector<std::int64_t> router_wire_;  ///< per router: bytes through it (book_energy)
    std::size_t flow_count_ = 0;             ///< flows priced so far
    PathStore routed_;                       ///< the paths of flows with a source route
    std::size_t routed_count_ = 0;
    std::vector<PathRef> all_paths_;     ///< PathTables' storage when the plan has source routes
    std::vector<PathStep> route_steps_;  ///< scratch: one source route's steps
    std::int64_t last_bytes_ = -1, last_wire_ = 0;
    // While scheduling: when each link and memory is next free.
    std::vector<double> link_free_, memory_free_;
    // Per memory.
    std::vector<std::int64_t> dram_total_;  ///< the plan's bytes
    std::vector<double> dram_pj_;
    std::vector<std::array<double, 2>> stream_pj_;  ///< pJ/bit of a write, of a read
    // Compute.
    std::vector<std::array<double, kEnergyCategories>> chiplet_pj_;
    // Per layer.
    std::vector<double> worst_ns_;
    std::vector<int> worst_link_;
    EnergyAccount* layer_acc_ = nullptr;
    std::vector<EnergyAccount*> accounts_;  ///< book_energy: the ledger's accounts, in PackagePaths::Names::sorted order
    Estimate est_;
};

}  // namespace mcmsim::estimator
