#include "mapper/analytical_model.h"

#include "hw/common/input_error.h"
#include "hw/compute/compute_cost.h"
#include "mapper/flow_receivers.h"
#include "mapper/message_cost.h"
#include "mapper/package_paths.h"
#include "mapper/packet_events.h"
#include "mapper/ready_queue.h"
#include "mapper/tile_cost_cache.h"
#include "traces/plan_routes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace mcmsim {

namespace {

/// The scheduler's view of one op, 24 bytes: walking PlanOps (and their heap-held lists) a
/// second time would cost more than the scheduling itself.
struct OpCost {
    double own_ns;  ///< compute: its time on the unit
    /// Send: its FlowCosts. DRAM: flows_begin indexes its DramCost.
    std::uint32_t flows_begin, flows_end;
    int chiplet;
    OpKind kind;
};

/// One transfer of a send op, 16 bytes: ~70k of them in a ResNet-50 plan.
struct FlowCost {
    double wire;         ///< bytes on the wire (whole flits), as a double: times are wire x ns/byte
    std::uint32_t slot;  ///< where Workspace::receivers keeps the recv op that waits for it
    /// >= 0: the node pair whose precomputed path it takes; < 0: -1 - its source route's
    /// number in routed_.
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

/// An edge of the dependency graph (dense indices).
struct DepEdge {
    std::uint32_t from, to;
};

/// Storage the estimator reuses from one estimate to the next, one per thread: optimisers
/// price thousands of plans, and fresh megabytes for each would cost more in page faults than
/// the pricing itself. Only capacity carries over, never content: an estimate writes every
/// element before it reads it (the vectors that only grow are never read past what it wrote).
/// The exceptions are `tiles` and `paths`: compute costs, which depend on the chiplet config
/// and tile alone, and the package's paths, which depend on the arch alone.
struct Workspace {
    KeyIndex ids;              ///< op id -> dense index
    FlowReceivers receivers;   ///< flow -> its recv op
    std::vector<OpCost> cost;       ///< grows only
    std::vector<OpSchedule> sched;  ///< grows only
    std::vector<FlowCost> flows;    ///< grows only
    std::vector<DepEdge> edges;
    std::vector<std::uint32_t> succ_begin, succ, fill;
    std::vector<DramCost> drams;
    ReadyQueue ready;
    PacketPool packets;  ///< packet granularity: groups in flight
    TileCostCache tiles;  ///< results of compute_cost, kept for as long as the chiplet is the same
    PackagePathsCache paths;  ///< the package's node-pair paths, kept for as long as the arch is the same
};

template <class T>
void grow_to(std::vector<T>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
}

class Estimator {
public:
    Estimator(const ArchConfig& arch, const Plan& plan, const EstimateOptions& options, Workspace& ws)
        : arch_(arch), plan_(plan), options_(options), ws_(ws), pp_(ws.paths.get(arch)), mc_(pp_.message_cost()),
          links_(pp_.links()), trees_(pp_.trees()), n_(pp_.chiplets()), nodes_(pp_.nodes()), routers_(trees_.routers()),
          flit_(arch.package.router.flit_bytes), ni_bw_(arch.chiplet.ni_bandwidth_gbps) {
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
        else
            schedule();
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
    /// their lines at once: they sit at unpredictable addresses, and reading a plan's ~100k
    /// transfers line by line as they come would stall on every line.
    static void prefetch_lists(const PlanOp& op) {
        if (!op.deps.empty()) __builtin_prefetch(op.deps.data());
        const char* t = reinterpret_cast<const char*>(op.transfers.data());
        const std::size_t bytes = std::min<std::size_t>(op.transfers.size() * sizeof(Transfer), 8192);
        for (std::size_t off = 0; off < bytes; off += 64) __builtin_prefetch(t + off);
    }

    /// Sizes what pricing stores. The plan itself is read once, by price_all: a plan's ops
    /// and transfers sit at unpredictable heap addresses, and a second walk over them (to index
    /// ids and flows first) cost as much as a fifth of an estimate.
    void index_plan() {
        std::size_t n = 0;
        for (const PlanLayer& l : plan_.layers) n += l.ops.size();
        ws_.ids.prepare(n);
        // Flow ids are 0, 1, 2, ... in mapper plans, ~10 per op: a bound well above that keeps
        // them in the flat table, and a sparse hand-written plan's memory in check.
        ws_.receivers.start(std::max<std::size_t>(64 * n, std::size_t{1} << 20));
        ws_.drams.clear();
        grow_to(ws_.sched, n);
        grow_to(ws_.cost, n);
        ws_.edges.clear();
        ops_ = n;
    }

    /// Prices every op, layer by layer (dense order is layer order): what each op costs on its
    /// own, and the layer's traffic on the package links (energy, bottleneck statistics).
    /// Indexes the plan on the way: op ids (dependencies name earlier ops, validate_plan) and
    /// each flow's recv op (FlowReceivers: a send's flows find theirs when they run).
    void price_all() {
        std::size_t i = 0;
        for (std::size_t layer = 0; layer < plan_.layers.size(); ++layer) {
            layer_acc_ = &est_.ledger.layer_account(layer);
            const std::vector<PlanOp>& ops = plan_.layers[layer].ops;
            for (std::size_t k = 0; k < ops.size(); ++k, ++i) {
                const PlanOp& op = ops[k];
                if (k + 1 < ops.size()) prefetch_lists(ops[k + 1]);
                ws_.ids.insert(op.id, i);
                ws_.cost[i] = OpCost{0.0, 0, 0, op.chiplet, op.kind};
                OpSchedule& sc = ws_.sched[i];
                sc.ready = sc.arrival = 0.0;
                sc.pending = static_cast<int>(op.deps.size());
                for (std::int64_t d : op.deps) {
                    const std::size_t j = ws_.ids.find(d);
                    if (j == KeyIndex::kNone) throw std::out_of_range("analytical model: no op " + std::to_string(d) + " (validate_plan)");
                    ws_.edges.push_back(DepEdge{static_cast<std::uint32_t>(j), static_cast<std::uint32_t>(i)});
                }
                price(i, op);
            }
            finish_layer(layer);
        }
        ws_.receivers.finish();
    }

    void price(std::size_t i, const PlanOp& op) {
        OpCost& c = ws_.cost[i];
        switch (op.kind) {
            case OpKind::Compute: {
                // The chiplet model's own cost function: same cycles, same energy.
                const TileCost& cost = ws_.tiles.cost(op);
                auto& chip = chiplet_pj_[at(op.chiplet)];
                chip[static_cast<int>(EnergyCategory::Compute)] += cost.compute_pj;
                chip[static_cast<int>(EnergyCategory::Sram)] += cost.sram_pj;
                layer_acc_->add(EnergyCategory::Compute, cost.compute_pj);
                layer_acc_->add(EnergyCategory::Sram, cost.sram_pj);
                c.own_ns = cost.ns;
                return;
            }
            case OpKind::Recv:
                ws_.sched[i].pending += static_cast<int>(op.transfer_count());  // released by its flows
                if (op.transfers.empty()) ws_.receivers.receive(op.flow, static_cast<std::uint32_t>(i));
                else
                    ws_.receivers.receive_all(op.transfers.data(), op.transfers.data() + op.transfers.size(), static_cast<std::uint32_t>(i));
                return;
            case OpKind::Send:
                price_send(c, op);
                return;
            case OpKind::DramRead:
            case OpKind::DramWrite: {
                const bool read = op.kind == OpKind::DramRead;
                const auto m = at(op.memory);
                const auto& mem = arch_.memories[m];
                const std::int64_t data = mc_.wire_bytes(op.bytes);
                const std::int64_t control = mc_.packets(op.bytes) * mc_.control_wire_bytes();
                const int there = n_ + op.memory;
                carry(op.chiplet, there, read ? control : data);
                carry(there, op.chiplet, read ? data : control);
                double pj = static_cast<double>(op.bytes) * 8.0 * stream_pj_[m][read ? 1 : 0];
                dram_pj_[m] += pj;
                layer_acc_->add(EnergyCategory::Dram, pj);
                dram_total_[m] += op.bytes;
                DramCost d;
                d.read = read;
                d.memory = op.memory;
                d.access_ns = mem.dram.access_latency_ns;
                d.memory_ns = static_cast<double>(op.bytes) / mem.dram.bandwidth_gbps();
                d.wire = static_cast<double>(data);
                if (read) {
                    d.request_ns = pp_.head_control_ns(pair(op.chiplet, there));
                    d.reply_ns = 0;
                    d.path = static_cast<int>(pair(there, op.chiplet));
                    d.back = static_cast<int>(pair(op.chiplet, there));
                } else {
                    d.request_ns = pp_.head_flit_ns(pair(op.chiplet, there));
                    d.reply_ns = pp_.head_control_ns(pair(there, op.chiplet));
                    d.path = static_cast<int>(pair(op.chiplet, there));
                    d.back = static_cast<int>(pair(there, op.chiplet));
                }
                c.flows_begin = static_cast<std::uint32_t>(ws_.drams.size());
                ws_.drams.push_back(d);
                return;
            }
        }
    }

    /// A send op's transfers: their recvs, sizes and paths, and their bytes on the package.
    void price_send(OpCost& c, const PlanOp& op) {
        if (static_cast<unsigned>(op.chiplet) >= static_cast<unsigned>(n_)) throw std::logic_error("analytical model: send on no chiplet (validate_plan)");
        c.flows_begin = static_cast<std::uint32_t>(flow_count_);
        grow_to(ws_.flows, flow_count_ + op.transfer_count());
        if (op.transfers.empty()) {
            const Transfer single{op.peer, op.bytes, op.flow, op.route};
            price_flows(c, &single, &single + 1);
        } else
            price_flows(c, op.transfers.data(), op.transfers.data() + op.transfers.size());
        c.flows_end = static_cast<std::uint32_t>(flow_count_);
    }

    /// The hot loop of pricing (~70k transfers in a ResNet-50 plan): works on raw rows of the
    /// traffic tables, with its state in locals. The common transfer (the size of the one
    /// before, on the package's routes, a dense flow id) goes through an inner loop that calls
    /// nothing, so that the compiler keeps that state in registers.
    void price_flows(OpCost& c, const Transfer* begin, const Transfer* end) {
        const int a = c.chiplet;
        std::int64_t* load = load_.data();
        // Chiplet peers: ejection link ni_out(peer), router peer.
        std::int64_t* eject = &load[at(links_.ni_out(0))];
        std::int64_t* into = &inbound_[at(pp_.router_of(a))];  // + peer router * routers
        const std::size_t stride = at(routers_);
        const int row = a * nodes_;
        const auto chiplets = static_cast<unsigned>(n_);
        FlowCost* const flows = ws_.flows.data();
        FlowCost* out = flows + flow_count_;
        FlowReceivers& receivers = ws_.receivers;
        const std::size_t dense = receivers.dense_limit();
        std::int64_t injected = 0;  // on the package's routes (source routes book their own)
        std::int64_t bytes = last_bytes_, wire = last_wire_;
        for (const Transfer* t = begin; t != end;) {
            // A grouped send mostly repeats one size: split it into packets once.
            if (t->bytes != bytes) {
                bytes = t->bytes;
                wire = mc_.wire_bytes(bytes);
            }
            const double wire_d = static_cast<double>(wire);
            for (; t != end && t->bytes == bytes && t->route.empty() && static_cast<unsigned>(t->peer) < chiplets &&
                   static_cast<std::uint64_t>(t->flow) < dense;
                 ++t, ++out) {
                const int peer = t->peer;
                out->wire = wire_d;
                out->slot = static_cast<std::uint32_t>(t->flow);  // FlowReceivers::slot_of
                out->path = row + peer;
                eject[peer] += wire;
                into[at(peer) * stride] += wire;
                injected += wire;
            }
            if (t == end || t->bytes != bytes) continue;
            // The others one by one: a source route, a sparse flow id, a peer that is no chiplet.
            const int peer = t->peer;
            if (static_cast<unsigned>(peer) >= chiplets)
                throw std::logic_error("analytical model: flow " + std::to_string(t->flow) + " has no destination (validate_plan)");
            out->wire = wire_d;
            out->slot = receivers.slot_of(t->flow);
            if (t->route.empty()) {
                out->path = row + peer;
                eject[peer] += wire;
                into[at(peer) * stride] += wire;
                injected += wire;
            } else {
                out->path = -1 - static_cast<int>(routed_count_++);
                book_routed(a, peer, t->route, wire);
            }
            ++t;
            ++out;
        }
        last_bytes_ = bytes;
        last_wire_ = wire;
        flow_count_ = static_cast<std::size_t>(out - flows);
        load[at(pp_.inject(a))] += injected;
    }

    /// A flow on a source route: its links (with their head times) kept and loaded.
    void book_routed(int src, int dst, const std::vector<int>& route, std::int64_t wire) {
        route_steps_.clear();
        StepWriter steps(route_steps_, flit_terms_, ns_per_byte_, 0.0);
        auto add = [&](int l, bool after_router) {
            steps.add(l, after_router);
            load_[at(l)] += wire;
        };
        add(links_.ni_in(src), false);
        for (std::size_t h = 1; h < route.size(); ++h) {
            int l = link_between(mc_.topology(), route[h - 1], route[h]);
            if (l < 0)
                throw std::logic_error("analytical model: route steps from router " + std::to_string(route[h - 1]) +
                                       " to non-neighbour " + std::to_string(route[h]) + " (validate_plan_routes)");
            add(l, true);
        }
        add(links_.ni_out(dst), true);
        // Its head latency: the head's time to the last step, plus that step's hop.
        routed_.add(route_steps_, steps.z());
        // Routers count what their incoming links carry (book_energy), the injection link
        // as entering the sender's router: where a route must start (validate_plan_routes).
        // Should it start elsewhere, its first router is the one that sees the bytes.
        router_wire_[at(route.front())] += wire;
        router_wire_[at(pp_.router_of(src))] -= wire;
    }

    /// With the layer's traffic complete: load the mesh links (router pairs' bytes spread
    /// along the routing trees; source routes are booked already), then book the layer's NoC
    /// and D2D energy and its bottleneck link from the integer loads.
    void finish_layer(std::size_t layer) {
        const auto routers = at(routers_);
        for (std::size_t d = 0; d < routers; ++d) trees_.drain(static_cast<int>(d), &inbound_[d * routers], load_.data());
        // Router visits: a message visits one router per mesh link it crosses plus the one it
        // leaves by: one per link it takes but its injection link.
        std::int64_t visits = 0;
        for (int v = 0; v < nodes_; ++v) visits -= load_[at(pp_.inject(v))];
        double worst = 0, d2d = 0;
        int worst_link = -1;
        for (std::size_t l = 0; l < links_n_; ++l) {
            const std::int64_t bytes = load_[l];
            if (bytes == 0) continue;  // most of a layer's links (and the mesh's empty slots): no bottleneck, + 0.0 pJ
            visits += bytes;
            link_wire_[l] += bytes;
            load_[l] = 0;
            const double load = static_cast<double>(bytes);
            const double t = load / links_.bandwidth_gbps[l];
            if (t > worst) {
                worst = t;
                worst_link = static_cast<int>(l);
            }
            if (links_.is_d2d[l]) d2d += load * 8.0 * links_.energy_pj_per_bit[l];
        }
        worst_ns_[layer] = worst;
        worst_link_[layer] = worst_link;
        // Every message is whole flits, so one division gives the flits x routers visited.
        layer_acc_->add(EnergyCategory::Noc, static_cast<double>(visits / flit_) * arch_.package.router.energy_pj_per_flit);
        layer_acc_->add(EnergyCategory::D2d, d2d);
    }

    /// Where the scheduler finds a flow's path: the package's node-pair paths (FlowCost::path
    /// >= 0) or the plan's source routes (< 0). Raw pointers taken once: through the members
    /// the compiler reloads them for every flow.
    struct PathTables {
        const PathRef* pairs;
        const PathRef* routed;
        const PathRef& operator[](int path) const { return path >= 0 ? pairs[path] : routed[-1 - path]; }
    };

    /// A plan that validate_plan rejects: a flow that no recv op receives.
    [[noreturn]] void no_recv(std::uint32_t slot) const {
        throw std::logic_error("analytical model: flow " + std::to_string(ws_.receivers.flow_of(slot)) + " has no recv (validate_plan)");
    }

    /// Successors of every op in one flat array (CSR): ws_.succ from ws_.succ_begin[i] to
    /// ws_.succ_begin[i + 1].
    void build_successors() {
        const std::size_t n = ops_;
        ws_.succ_begin.assign(n + 1, 0);
        grow_to(ws_.succ, ws_.edges.size());
        std::uint32_t* const succ_begin = ws_.succ_begin.data();
        std::uint32_t* const succ = ws_.succ.data();
        for (const DepEdge& e : ws_.edges) ++succ_begin[e.from + 1];
        for (std::size_t i = 0; i < n; ++i) succ_begin[i + 1] += succ_begin[i];
        ws_.fill.assign(succ_begin, succ_begin + n);
        for (const DepEdge& e : ws_.edges) succ[ws_.fill[e.from]++] = e.to;
    }

    /// The list schedule: ops in order of readiness, one compute unit per chiplet, and the
    /// package's links and memories reserved by messages in the order they are issued (see
    /// reserve_rest): a send's flows one after another, each on its own path; a DRAM read's
    /// request, its memory, then its data's path; a write's data path, then its memory.
    void schedule() {
        const std::size_t n = ops_;
        // Raw pointers into storage that does not change size from here on: through the
        // vectors the compiler reloads them after every call (a push onto the queue).
        const OpCost* const cost = ws_.cost.data();
        OpSchedule* const sched = ws_.sched.data();
        const FlowCost* flows = ws_.flows.data();
        build_successors();
        const std::uint32_t* const succ_begin = ws_.succ_begin.data();
        const std::uint32_t* const succ = ws_.succ.data();
        const PathTables paths{pp_.paths(), routed_.refs()};
        const FlowReceivers::View receivers = ws_.receivers.view();
        ReadyQueue& pq = ws_.ready;
        pq.clear();
        pq.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            if (sched[i].pending == 0) pq.push(0.0, static_cast<std::uint32_t>(i));
        std::vector<double> compute_free(at(std::max(plan_.chiplets, 0)), 0.0);
        link_free_.assign(links_n_, 0.0);
        double* const link_free = link_free_.data();
        memory_free_.assign(arch_.memories.size(), 0.0);
        est_.ops.resize(n);
        OpTimes* const times = est_.ops.data();
        std::size_t done = 0;
        while (!pq.empty()) {
            const ReadyQueue::Item item = pq.pop();
            const double t = item.t;
            const std::uint32_t i = item.i;
            // The op after this one is most likely the queue's next: fetch a send's flows now.
            if (!pq.empty()) {
                const OpCost& next = cost[pq.next_index()];
                if (next.kind == OpKind::Send) {
                    const char* p = reinterpret_cast<const char*>(flows + next.flows_begin);
                    const std::size_t bytes = std::min<std::size_t>((next.flows_end - next.flows_begin) * sizeof(FlowCost), 2048);
                    for (std::size_t off = 0; off < bytes; off += 64) __builtin_prefetch(p + off);
                }
            }
            const OpCost& c = cost[i];
            OpTimes& ot = times[i];
            ot.start_ns = t;
            double end = t;
            switch (c.kind) {
                case OpKind::Compute: {
                    double& free = compute_free[at(c.chiplet)];
                    ot.start_ns = std::max(t, free);
                    end = free = ot.start_ns + c.own_ns;
                    break;
                }
                case OpKind::Send: {
                    // Every flow's path starts on the sender's network interface (head time 0),
                    // which is free when the flow before it has left: its reservation is the
                    // flow's departure plus its bytes' time there (reserve_path's first step),
                    // kept here until the last flow has left.
                    double& ni_free = link_free[at(pp_.inject(c.chiplet))];
                    double leave = std::max(t, ni_free);
                    for (const FlowCost* f = flows + c.flows_begin, *last = flows + c.flows_end; f != last; ++f) {
                        const PathRef& p = paths[f->path];
                        const std::uint32_t recv = receivers.recv_of(f->slot);
                        if (recv == FlowReceivers::kNone) no_recv(f->slot);
                        OpSchedule& r = sched[recv];
                        const double left = leave + f->wire * p.first_hold;
                        r.arrival = std::max(r.arrival, reserve_rest(link_free, p.rest, p.records, leave, left, f->wire) + p.head_ns);
                        leave = left;
                        // A recv's own start is set by its dependencies.
                        if (--r.pending == 0) pq.push(std::max(r.ready, r.arrival), recv);
                    }
                    // Done once its last byte has left through the network interface.
                    ni_free = end = leave;
                    break;
                }
                case OpKind::Recv:
                    ot.start_ns = sched[i].ready;
                    end = std::max(sched[i].ready, sched[i].arrival);
                    break;
                case OpKind::DramRead:
                case OpKind::DramWrite: {
                    const DramCost& d = ws_.drams[c.flows_begin];
                    double& memory = memory_free_[at(d.memory)];
                    const PathRef& p = paths[d.path];
                    // The memory is one more first-come-first-served stage, which the request
                    // (read) or the data's head (write) reaches after its head latency.
                    const double arrive = t + d.request_ns;
                    memory = std::max(arrive, memory) + d.memory_ns;
                    if (d.read) {
                        // Its data leaves after the access latency, and not before it is read.
                        const double leave = arrive + d.access_ns;
                        end = reserve_path(link_free, p, leave, memory + d.access_ns, d.wire) + p.head_ns;
                    } else {
                        const double tail = reserve_path(link_free, p, t, 0.0, d.wire) + p.head_ns;
                        end = std::max(memory, tail) + d.access_ns + d.reply_ns;
                    }
                    break;
                }
            }
            ot.end_ns = end;
            ++done;
            for (std::uint32_t k = succ_begin[i]; k < succ_begin[i + 1]; ++k) {
                const std::uint32_t s = succ[k];
                OpSchedule& o = sched[s];
                o.ready = std::max(o.ready, end);
                if (--o.pending == 0) pq.push(std::max(o.ready, cost[s].kind == OpKind::Recv ? o.arrival : 0.0), s);
            }
        }
        if (done != n) throw std::logic_error("analytical model: plan has ops that can never run");
        for (const auto& o : est_.ops) est_.latency_ns = std::max(est_.latency_ns, o.end_ns);
    }

    /// The packet granularity (analytical_model.h): a discrete-event schedule. Ops run as in
    /// schedule() (one compute unit per chiplet, a send's flows leaving its network interface
    /// one after another), but what they put on the package travels as groups of
    /// packets_per_event packets, each an event at every link it reaches (PacketGroup). A link
    /// serves groups in the order they reach it, for their bytes at the slowest rate so far on
    /// their path (cut-through, as in reserve_rest), and a group reaches the next link the
    /// next link's head time after it started on this one: a wait here is a wait there too.
    /// DRAM traffic is events as well: the memory is one more server, in order of arrival.
    /// Events share the ready queue with ops (group slot s has index ops + s), so ties break
    /// by index: ops first, in plan order, then groups by slot.
    void schedule_packets() {
        const std::size_t n = ops_;
        const OpCost* const cost = ws_.cost.data();
        OpSchedule* const sched = ws_.sched.data();
        const FlowCost* const flows = ws_.flows.data();
        build_successors();
        const std::uint32_t* const succ_begin = ws_.succ_begin.data();
        const std::uint32_t* const succ = ws_.succ.data();
        const PathTables paths{pp_.paths(), routed_.refs()};
        const FlowReceivers::View receivers = ws_.receivers.view();
        ReadyQueue& pq = ws_.ready;
        pq.clear();
        pq.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            if (sched[i].pending == 0) pq.push(0.0, static_cast<std::uint32_t>(i));
        std::vector<double> compute_free(at(std::max(plan_.chiplets, 0)), 0.0);
        link_free_.assign(links_n_, 0.0);
        double* const link_free = link_free_.data();
        memory_free_.assign(arch_.memories.size(), 0.0);
        est_.ops.resize(n);
        OpTimes* const times = est_.ops.data();
        PacketPool& pool = ws_.packets;
        pool.clear();
        // A group's bytes on the wire: packets_per_event full packets (the last of a message
        // takes what is left). A read group's requests are priced as one control packet (the
        // simulator sends one per data packet): they are small next to the data, which comes
        // back on the other direction's links, and this is the variant that was validated.
        const double group_wire =
            static_cast<double>(mc_.wire_bytes(arch_.package.max_packet_bytes)) * static_cast<double>(options_.packets_per_event);
        const double request_wire = static_cast<double>(mc_.control_wire_bytes());
        const auto groups_of = [&](double wire) { return std::max(1, static_cast<int>(std::ceil(wire / group_wire - 1e-9))); };
        std::size_t done = 0;

        // An op has ended at `end`: its successors may become ready.
        const auto release = [&](std::uint32_t i, double end) {
            for (std::uint32_t k = succ_begin[i]; k < succ_begin[i + 1]; ++k) {
                const std::uint32_t s = succ[k];
                OpSchedule& o = sched[s];
                o.ready = std::max(o.ready, end);
                if (--o.pending == 0) pq.push(std::max(o.ready, cost[s].kind == OpKind::Recv ? o.arrival : 0.0), s);
            }
        };
        // One of a DRAM op's groups is done at `t` (read: its data has arrived; write: it is
        // acknowledged); the op ends with its last group (pending counts them, arrival keeps
        // the latest).
        const auto dram_group_done = [&](std::uint32_t i, double t) {
            OpSchedule& o = sched[i];
            o.arrival = std::max(o.arrival, t);
            if (--o.pending > 0) return;
            times[i].end_ns = o.arrival;
            release(i, o.arrival);
        };
        // A group that has crossed its whole path, tail arrived at g.tail + g.head_ns.
        const auto arrived = [&](const PacketGroup& g) {
            const double tail = g.tail + g.head_ns;
            if (g.kind == PacketGroupKind::Flow) {
                OpSchedule& r = sched[g.op];
                r.arrival = std::max(r.arrival, tail);
                if (--r.pending == 0) pq.push(std::max(r.ready, r.arrival), g.op);
            } else
                dram_group_done(g.op, tail);
        };
        // A group whose head leaves its first link at `t` (that link already reserved, its
        // tail gone at `tail`): an event at its next link, or, with no link after the first,
        // at its end (a memory serves what has arrived, so a group to one waits for that).
        const auto launch = [&](const PathRef& p, double t, double tail, double wire, PacketGroupKind kind, std::uint32_t op,
                                std::uint32_t dram, double share) {
            const PacketGroup g{p.rest, p.rest + p.records, wire, tail, p.head_ns, share, op, dram, 0, kind};
            const bool to_memory = kind == PacketGroupKind::ReadRequest || kind == PacketGroupKind::WriteData;
            if (p.records == 0 && !to_memory) {
                arrived(g);
                return;
            }
            const std::uint32_t slot = pool.add(g);
            pq.push(p.records ? t + p.rest->z[0] : tail + p.head_ns, static_cast<std::uint32_t>(n + slot));
        };
        // A DRAM group at its memory at `t`: served in order of arrival, at the memory's
        // bandwidth for its share of the op's bytes. A read's data leaves once served (and
        // accessed) as soon as the memory's interface is free; a write is acknowledged.
        const auto at_memory = [&](const PacketGroup& g, double t) {
            const DramCost& d = ws_.drams[g.dram];
            double& memory = memory_free_[at(d.memory)];
            memory = std::max(t, memory) + d.memory_ns * g.share;
            if (g.kind == PacketGroupKind::WriteData) {
                dram_group_done(g.op, memory + d.access_ns + d.reply_ns);
                return;
            }
            const PathRef& p = paths[d.path];
            double& out = link_free[p.first_link];
            const double wire = d.wire * g.share;
            const double leave = std::max(memory + d.access_ns, out);
            out = leave + wire * p.first_hold;
            launch(p, leave, out, wire, PacketGroupKind::ReadData, g.op, 0, 0.0);
        };

        while (!pq.empty()) {
            const ReadyQueue::Item item = pq.pop();
            const double t = item.t;
            const std::uint32_t i = item.i;
            if (i >= n) {
                // A group reaching its next link (or its memory) at t.
                const auto slot = static_cast<std::uint32_t>(i - n);
                PacketGroup& g = pool[slot];
                if (g.step == g.end) {
                    const PacketGroup here = g;  // at_memory may add groups, moving the pool
                    at_memory(here, t);
                    pool.remove(slot);
                    continue;
                }
                const int lane = g.lane;
                const double z = g.step->z[lane];
                double& free = link_free[g.step->link[lane]];
                const double start = std::max(t, free);
                free = start + g.wire * g.step->hold[lane];
                g.tail = std::max(g.tail, free - z);
                // The second lane of a path's last record repeats the first when the path
                // has an odd number of steps: then the record is done.
                if (lane == 0 && g.step->link[1] != g.step->link[0]) g.lane = 1;
                else {
                    ++g.step;
                    g.lane = 0;
                }
                if (g.step != g.end) {
                    // Its head reaches the next link as long after starting here as on a free
                    // network: a wait here delays it there.
                    pq.push(start + (g.step->z[g.lane] - z), i);
                } else if (g.kind == PacketGroupKind::ReadRequest || g.kind == PacketGroupKind::WriteData) {
                    pq.push(g.tail + g.head_ns, i);  // the memory serves it once it has arrived
                } else {
                    arrived(g);
                    pool.remove(slot);
                }
                continue;
            }
            const OpCost& c = cost[i];
            OpTimes& ot = times[i];
            ot.start_ns = t;
            double end = t;
            switch (c.kind) {
                case OpKind::Compute: {
                    double& free = compute_free[at(c.chiplet)];
                    ot.start_ns = std::max(t, free);
                    end = free = ot.start_ns + c.own_ns;
                    break;
                }
                case OpKind::Send: {
                    // The flows leave the network interface one after another, as in
                    // schedule(); each splits into groups that leave it back to back.
                    double& ni_free = link_free[at(pp_.inject(c.chiplet))];
                    double leave = std::max(t, ni_free);
                    for (const FlowCost* f = flows + c.flows_begin, *last = flows + c.flows_end; f != last; ++f) {
                        const PathRef& p = paths[f->path];
                        const std::uint32_t recv = receivers.recv_of(f->slot);
                        if (recv == FlowReceivers::kNone) no_recv(f->slot);
                        const int groups = groups_of(f->wire);
                        sched[recv].pending += groups - 1;  // it counted the flow once
                        double left = f->wire, from = leave;
                        for (int k = 0; k < groups; ++k) {
                            const double w = std::min(left, group_wire);
                            launch(p, from, from + w * p.first_hold, w, PacketGroupKind::Flow, recv, 0, 0.0);
                            from += w * p.first_hold;
                            left -= w;
                        }
                        leave += f->wire * p.first_hold;
                    }
                    ni_free = end = leave;
                    break;
                }
                case OpKind::Recv:
                    ot.start_ns = sched[i].ready;
                    end = std::max(sched[i].ready, sched[i].arrival);
                    break;
                case OpKind::DramRead:
                case OpKind::DramWrite: {
                    // Its groups leave the chiplet's network interface when it is free: a
                    // read's requests (one control packet's bytes each), a write's data. The
                    // op ends with its last group (dram_group_done), not here.
                    const DramCost& d = ws_.drams[c.flows_begin];
                    const PathRef& out = paths[d.read ? d.back : d.path];
                    double& ni_free = link_free[out.first_link];
                    const int groups = groups_of(d.wire);
                    sched[i].pending = groups;
                    sched[i].arrival = 0;
                    double left = d.wire;
                    for (int k = 0; k < groups; ++k) {
                        const double w = std::min(left, group_wire);
                        const double wire = d.read ? request_wire : w;
                        const double from = std::max(t, ni_free);
                        ni_free = from + wire * out.first_hold;
                        launch(out, from, ni_free, wire, d.read ? PacketGroupKind::ReadRequest : PacketGroupKind::WriteData, i,
                               c.flows_begin, d.wire > 0 ? w / d.wire : 1.0);
                        left -= w;
                    }
                    ++done;
                    continue;
                }
            }
            ot.end_ns = end;
            ++done;
            release(i, end);
        }
        if (done != n) throw std::logic_error("analytical model: plan has ops that can never run");
        for (const auto& o : est_.ops) est_.latency_ns = std::max(est_.latency_ns, o.end_ns);
    }

    /// Component accounts: every router, link, PHY, memory and chiplet has one, idle or not,
    /// as in the simulation's ledger. NoC and D2D energy from the traffic totals: per router
    /// its flits, per link its bytes (integers, so the order messages came in does not matter).
    void book_energy() {
        const MeshTopology& topo = mc_.topology();
        const double flit_pj = arch_.package.router.energy_pj_per_flit;
        // Bytes through each router: every message visits the router each of its links leads
        // into (its injection link leads into its first router, a mesh link into the next), and
        // no other, so the links' totals give the routers' (integers: exact in any order).
        const int* enters = pp_.router_entered();
        for (std::size_t l = 0; l < links_n_; ++l)
            if (enters[l] >= 0) router_wire_[at(enters[l])] += link_wire_[l];
        const PackagePaths::Names& names = pp_.names();
        for (int r = 0; r < topo.routers(); ++r)
            est_.ledger.account(names.router[at(r)])
                .add(EnergyCategory::Noc, static_cast<double>(router_wire_[at(r)] / flit_) * flit_pj);
        std::vector<EnergyAccount*> link_acc(static_cast<std::size_t>(links_.count()), nullptr);
        for (int l = 0; l < links_.mesh_slots; ++l) link_acc[static_cast<std::size_t>(l)] = &est_.ledger.account(names.link[at(l)]);
        for (int m = 0; m < links_.memories; ++m) {
            EnergyAccount& phy = est_.ledger.account(names.phy[at(m)]);
            link_acc[static_cast<std::size_t>(links_.phy_to_noc(m))] = link_acc[static_cast<std::size_t>(links_.phy_from_noc(m))] = &phy;
        }
        for (std::size_t l = 0; l < link_wire_.size(); ++l)
            if (links_.is_d2d[l] && link_wire_[l] > 0)
                link_acc[l]->add(EnergyCategory::D2d, static_cast<double>(link_wire_[l]) * 8.0 * links_.energy_pj_per_bit[l]);
        for (int c = 0; c < n_; ++c) {
            EnergyAccount& acc = est_.ledger.account(names.chiplet[at(c)]);
            for (EnergyCategory cat : {EnergyCategory::Compute, EnergyCategory::Sram})
                acc.add(cat, chiplet_pj_[static_cast<std::size_t>(c)][static_cast<int>(cat)]);
        }
        for (int m = 0; m < links_.memories; ++m)
            est_.ledger.account(names.dram[at(m)]).add(EnergyCategory::Dram, dram_pj_[static_cast<std::size_t>(m)]);
    }

    /// Energy that accrues with time rather than with work: chiplet leakage and DRAM
    /// background power and refresh over the estimated run.
    void book_static_energy() {
        const double t = est_.latency_ns;
        for (int c = 0; c < links_.chiplets; ++c)
            est_.ledger.account(pp_.names().chiplet[at(c)]).add(EnergyCategory::Leakage, leakage_energy_pj(arch_.chiplet, t));
        for (std::size_t m = 0; m < arch_.memories.size(); ++m) {
            const DramConfig& d = arch_.memories[m].dram;
            // Rows stay open while the device is busy (open page) and refresh closes them, so
            // the device is active for about the share of the run its transfers take.
            const double bytes = static_cast<double>(dram_total_[m]);
            double active = t > 0 ? bytes / d.bandwidth_gbps() / t : 0.0;
            est_.ledger.account(pp_.names().dram[m]).add(EnergyCategory::Dram, dram_background_mw(d, active) * t + dram_refresh_pj(d, t));
        }
    }

    /// Per layer: its bottleneck link and that link's load time. Built in place, moving every
    /// value (braced json lists copy each value, and copying the array copies it all again).
    void layer_stats() {
        nlohmann::json layers = nlohmann::json::array();
        const MeshTopology& topo = mc_.topology();
        for (std::size_t l = 0; l < plan_.layers.size(); ++l) {
            nlohmann::json& layer = layers.emplace_back(nlohmann::json::object());
            layer["name"] = plan_.layers[l].name;
            layer["bottleneck_link"] = worst_link_[l] < 0 ? std::string() : link_name(worst_link_[l], topo);
            layer["bottleneck_ns"] = worst_ns_[l];
        }
        est_.stats = nlohmann::json::object();
        est_.stats["layers"] = std::move(layers);
    }

    std::string link_name(int k, const MeshTopology& topo) const {
        if (k < links_.mesh_slots) return "link." + topo.link_name(k);
        k -= links_.mesh_slots;
        if (k < 2 * links_.chiplets) return "ni." + std::to_string(k % links_.chiplets) + (k < links_.chiplets ? ".in" : ".out");
        k -= 2 * links_.chiplets;
        const std::string& m = arch_.memories[static_cast<std::size_t>(k % links_.memories)].name;
        return "phy." + m + (k < links_.memories ? ".to_noc" : ".from_noc");
    }

    const ArchConfig& arch_;
    const Plan& plan_;
    const EstimateOptions& options_;
    Workspace& ws_;
    const PackagePaths& pp_;  ///< the package's nodes and node-pair paths (per-thread cache)
    const MessageCost& mc_;
    const PackageLinks& links_;
    const RouteTrees& trees_;
    int n_, nodes_, routers_;
    std::int64_t flit_;
    double ni_bw_;
    const HeadLatencyTerms& flit_terms_ = pp_.flit_terms();
    const std::vector<double>& ns_per_byte_ = pp_.ns_per_byte();  ///< per link
    std::size_t ops_ = 0;
    // Traffic of the layer being priced, and totals.
    std::size_t links_n_ = static_cast<std::size_t>(links_.count());
    std::size_t pairs_n_ = static_cast<std::size_t>(routers_) * static_cast<std::size_t>(routers_);
    std::vector<std::int64_t> load_;           ///< per link: the layer's bytes on the wire (mesh: once spread)
    std::vector<std::int64_t> inbound_;        ///< per (destination, source router): the layer's bytes to spread
    std::vector<std::int64_t> link_wire_;      ///< per link, whole plan
    std::vector<std::int64_t> router_wire_;    ///< per router: bytes through it (book_energy)
    std::size_t flow_count_ = 0;               ///< flows priced so far
    PathStore routed_;                         ///< the paths of flows with a source route
    std::size_t routed_count_ = 0;
    std::vector<PathStep> route_steps_;        ///< scratch: one source route's steps
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
    Estimate est_;
};

}  // namespace

const char* granularity_name(Granularity g) { return g == Granularity::Packet ? "packet" : "message"; }

Granularity parse_granularity(const std::string& name, const std::string& where) {
    if (name == "message") return Granularity::Message;
    if (name == "packet") return Granularity::Packet;
    throw InputError("", where, "message or packet", "'" + name + "'");
}

Estimate estimate_plan(const ArchConfig& arch, const Plan& plan, const EstimateOptions& options) {
    if (options.packets_per_event < 1)
        throw std::invalid_argument("analytical model: packets_per_event must be >= 1, not " +
                                    std::to_string(options.packets_per_event));
    thread_local Workspace workspace;
    return Estimator(arch, plan, options, workspace).run();
}

}  // namespace mcmsim
