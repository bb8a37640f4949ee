#include "mapper/analytical_model.h"

#include "hw/compute/compute_cost.h"
#include "mapper/message_cost.h"
#include "mapper/ready_queue.h"
#include "mapper/tile_cost_cache.h"
#include "traces/plan_routes.h"

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>

namespace mcmsim {

namespace {

/// The scheduler's view of one op, 32 bytes: walking PlanOps (and their heap-held lists) a
/// second time would cost more than the scheduling itself.
struct OpCost {
    double fixed_ns;  ///< DRAM ops: zero-load latencies there and back, and the access
    /// Compute: its time on the unit. Send: its bytes through the network interface. DRAM: its
    /// bytes through the NI, its busiest link and its memory (once its layer is complete).
    double own_ns;
    std::uint32_t flows_begin, flows_end;  ///< send ops: their FlowCosts
    int chiplet;
    OpKind kind;
};

/// One transfer of a send op, 16 bytes: ~70k of them in a ResNet-50 plan.
struct FlowCost {
    double done_ns;     ///< own bytes through the NI; per layer: max with its busiest link
    std::uint32_t recv; ///< dense index of the recv op that waits for it
    /// >= 0: the node pair whose precomputed path it takes; < 0: -1 - index into routed_.
    int path;
};

/// A flow that follows a source route from the plan.
struct RoutedFlow {
    double fixed_ns = 0;
    std::uint32_t links_begin = 0, links_end = 0;  ///< into route_links_
};

/// A DRAM op waiting for its layer's loads to be complete.
struct DramOp {
    std::uint32_t op = 0;
    int from = 0, to = 0;  ///< the nodes its data goes between
};

/// What the scheduler tracks of an op while it waits, together: a flow's arrival touches one
/// cache line.
struct OpSchedule {
    double ready;    ///< when its last dependency ended
    double arrival;  ///< recv: when its last flow arrived
    int pending;     ///< dependencies (plus flows, for a recv) not yet done
    int stage;       ///< recv, while pricing: the latest relay stage of the sends that feed it
};

/// Consecutive flows of a layer in one relay stage.
struct StageRun {
    std::uint32_t begin, end;
    int stage;
};

/// A flow on a source route, waiting for its stage's loads.
struct RoutedRef {
    std::uint32_t flow;
    int stage;
};

/// An edge of the dependency graph (dense indices).
struct DepEdge {
    std::uint32_t from, to;
};

/// Storage the estimator reuses from one estimate to the next, one per thread: optimisers
/// price thousands of plans, and fresh megabytes for each would cost more in page faults than
/// the pricing itself. Only capacity carries over, never content: an estimate writes every
/// element before it reads it (the vectors that only grow are never read past what it wrote).
/// The exception is `tiles`: compute costs, which depend on the chiplet config and tile alone.
struct Workspace {
    KeyIndex ids, flow_recv;  ///< op id -> dense index; flow -> its recv op
    std::vector<std::pair<const PlanOp*, std::uint32_t>> recvs;
    std::vector<OpCost> cost;       ///< grows only
    std::vector<OpSchedule> sched;  ///< grows only
    std::vector<FlowCost> flows;    ///< grows only
    std::vector<DepEdge> edges;
    std::vector<std::uint32_t> succ_begin, succ, fill;
    ReadyQueue ready;
    TileCostCache tiles;  ///< results of compute_cost, kept for as long as the chiplet is the same
};

template <class T>
void grow_to(std::vector<T>& v, std::size_t n) {
    if (v.size() < n) v.resize(n);
}

class Estimator {
public:
    Estimator(const ArchConfig& arch, const Plan& plan, Workspace& ws)
        : arch_(arch), plan_(plan), ws_(ws), mc_(arch), links_(mc_.links()), trees_(mc_.topology()),
          n_(links_.chiplets), nodes_(links_.chiplets + links_.memories), routers_(mc_.topology().routers()),
          flit_(arch.package.router.flit_bytes), ni_bw_(arch.chiplet.ni_bandwidth_gbps) {
        build_pairs();
        const auto links = links_n_, memories = arch.memories.size();
        const auto r2 = pairs_n_;
        load_.assign(links, 0);  // stage 0; later stages come when a layer has them
        link_wire_.assign(links, 0);
        link_ns_.assign(links, 0.0);
        inbound_.assign(r2, 0);
        inbound_total_.assign(r2, 0);
        busiest_.assign(r2, 0.0);
        pair_busiest_.assign(static_cast<std::size_t>(nodes_) * static_cast<std::size_t>(nodes_), 0.0);
        router_wire_.assign(static_cast<std::size_t>(routers_), 0);
        dram_bytes_.assign(memories, 0);
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
        schedule();
        book_energy();
        book_static_energy();
        layer_stats();
        return std::move(est_);
    }

private:
    std::size_t pair(int a, int b) const { return static_cast<std::size_t>(a) * static_cast<std::size_t>(nodes_) + static_cast<std::size_t>(b); }
    static std::size_t at(int i) { return static_cast<std::size_t>(i); }

    /// Per node (chiplets 0..n-1 at routers 0..n-1, then memories): its router, injection and
    /// ejection links. Per node pair: zero-load head latencies, walked once per estimate along
    /// the routing trees (no route vectors).
    void build_pairs() {
        const MeshTopology& topo = mc_.topology();
        for (int v = 0; v < nodes_; ++v) {
            if (v < n_) {
                router_of_.push_back(v);
                inject_.push_back(links_.ni_in(v));
                eject_.push_back(links_.ni_out(v));
            } else {
                const int m = v - n_;
                const auto& mc = arch_.memories[at(m)];
                router_of_.push_back(topo.id(mc.attach_row, mc.attach_col));
                inject_.push_back(links_.phy_to_noc(m));
                eject_.push_back(links_.phy_from_noc(m));
            }
        }
        const auto nn = static_cast<std::size_t>(nodes_) * static_cast<std::size_t>(nodes_);
        head_flit_ns_.assign(nn, 0.0);
        head_control_ns_.assign(nn, 0.0);
        const HeadLatencyTerms flit = mc_.head_latency_terms(flit_);
        const HeadLatencyTerms control = mc_.head_latency_terms(mc_.control_wire_bytes());
        for (int a = 0; a < nodes_; ++a)
            for (int b = 0; b < nodes_; ++b) {
                if (a >= n_ && b >= n_) continue;  // memory-to-memory traffic does not exist
                const int ra = router_of_[at(a)], rb = router_of_[at(b)];
                const int routers = trees_.routers_on_path(ra, rb);
                // Both packet sizes in one walk of the path: injection, mesh links, ejection.
                double tf = flit.start(routers), tail_f = 0, tc = control.start(routers), tail_c = 0;
                auto add = [&](int l) {
                    flit.add(l, tf, tail_f);
                    control.add(l, tc, tail_c);
                };
                add(inject_[at(a)]);
                for (int r = ra; r != rb; r = trees_.next_router(rb, r)) add(trees_.next_link(rb, r));
                add(eject_[at(b)]);
                const std::size_t p = pair(a, b);
                head_flit_ns_[p] = tf + tail_f;
                head_control_ns_[p] = tc + tail_c;
            }
    }

    /// Books `wire` bytes from node a to node b on the package's path, in the layer being
    /// priced: injection and ejection links now, the mesh by router pair (spread along the
    /// routing trees when the layer is complete).
    void carry(int a, int b, std::int64_t wire) {
        load_[at(inject_[at(a)])] += wire;
        load_[at(eject_[at(b)])] += wire;
        inbound_[at(router_of_[at(b)]) * at(routers_) + at(router_of_[at(a)])] += wire;
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

    /// Dense index (plan order) of every op id and the recv op of every flow: one pass over
    /// the ops, then one over the receiving side's transfers. Sizes what pricing stores.
    void index_plan() {
        std::size_t n = 0;
        for (const PlanLayer& l : plan_.layers) n += l.ops.size();
        ws_.ids.prepare(n);
        ws_.recvs.clear();
        // Stages first: a send raises the stage of recvs that come after it in the file.
        grow_to(ws_.sched, n);
        std::size_t i = 0, sent = 0, received = 0, deps = 0;
        for (const PlanLayer& l : plan_.layers)
            for (const PlanOp& op : l.ops) {
                ws_.ids.insert(op.id, i);
                ws_.sched[i].stage = 0;
                deps += op.deps.size();
                if (op.kind == OpKind::Send) sent += op.transfer_count();
                else if (op.kind == OpKind::Recv) {
                    received += op.transfer_count();
                    ws_.recvs.emplace_back(&op, static_cast<std::uint32_t>(i));
                }
                ++i;
            }
        ws_.flow_recv.prepare(received);
        const auto& recvs = ws_.recvs;
        for (std::size_t k = 0; k < recvs.size(); ++k) {
            if (k + 1 < recvs.size()) prefetch_lists(*recvs[k + 1].first);
            const PlanOp& op = *recvs[k].first;
            if (op.transfers.empty()) ws_.flow_recv.insert(op.flow, recvs[k].second);
            else
                for (const Transfer& t : op.transfers) ws_.flow_recv.insert(t.flow, recvs[k].second);
        }
        grow_to(ws_.cost, n);
        grow_to(ws_.flows, sent);
        ws_.edges.clear();
        ws_.edges.reserve(deps);
        ops_ = n;
    }

    /// Prices every op, layer by layer (dense order is layer order): ops' own costs first,
    /// then, with the layer's loads complete, what congestion adds to its transfers.
    ///
    /// A layer's transfers fall into relay stages, told from the plan alone: a send that waits
    /// for no recv op of its own layer is stage 0 (all transfers of a direct plan, which move
    /// in one phase); a send that waits for such recvs is one stage after the latest send
    /// feeding them (a collective's relay forwarding what it received). Loads are kept per
    /// (layer, stage), so a relayed hop competes with the hops of its own stage, not with the
    /// whole layer's traffic once per stage. Stages follow file order: a feeding send listed
    /// after the send that waits for its recv is not counted (the plan builder lists feeders
    /// first).
    void price_all() {
        std::size_t i = 0;
        for (std::size_t layer = 0; layer < plan_.layers.size(); ++layer) {
            layer_acc_ = &est_.ledger.layer_account(layer);
            const std::vector<PlanOp>& ops = plan_.layers[layer].ops;
            const std::size_t first = i;  // the layer's first dense index
            for (std::size_t k = 0; k < ops.size(); ++k, ++i) {
                const PlanOp& op = ops[k];
                if (k + 1 < ops.size()) prefetch_lists(ops[k + 1]);
                ws_.cost[i] = OpCost{0.0, 0.0, 0, 0, op.chiplet, op.kind};
                OpSchedule& sc = ws_.sched[i];  // its stage is set already (index_plan, earlier sends)
                sc.ready = sc.arrival = 0.0;
                sc.pending = static_cast<int>(op.deps.size());
                const bool send = op.kind == OpKind::Send;
                int stage = 0;
                for (std::int64_t d : op.deps) {
                    const std::size_t j = ws_.ids.find(d);
                    if (j == KeyIndex::kNone) throw std::out_of_range("analytical model: no op " + std::to_string(d) + " (validate_plan)");
                    ws_.edges.push_back(DepEdge{static_cast<std::uint32_t>(j), static_cast<std::uint32_t>(i)});
                    if (send && j >= first && ws_.cost[j].kind == OpKind::Recv) stage = std::max(stage, ws_.sched[j].stage + 1);
                }
                price(i, op, stage);
            }
            finish_layer(layer);
        }
    }

    void price(std::size_t i, const PlanOp& op, int stage) {
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
                return;
            case OpKind::Send:
                price_send(c, op, stage);
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
                dram_bytes_[m] += op.bytes;
                c.fixed_ns = head_control_ns_[pair(op.chiplet, there)] + mem.dram.access_latency_ns + head_flit_ns_[pair(there, op.chiplet)];
                c.own_ns = static_cast<double>(data) / ni_bw_;
                // The direction the data takes; its layer's loads decide the rest (finish_layer).
                layer_drams_.push_back(DramOp{static_cast<std::uint32_t>(i), read ? there : op.chiplet, read ? op.chiplet : there});
                return;
            }
        }
    }

    /// A send op's transfers, in order: each one's time through the NI (they leave one after
    /// another), its recv, its bytes on the package.
    void price_send(OpCost& c, const PlanOp& op, int stage) {
        if (static_cast<unsigned>(op.chiplet) >= static_cast<unsigned>(n_)) throw std::logic_error("analytical model: send on no chiplet (validate_plan)");
        use_stage(stage);
        c.flows_begin = static_cast<std::uint32_t>(flow_count_);
        if (op.transfers.empty()) {
            const Transfer single{op.peer, op.bytes, op.flow, op.route};
            price_flows(c, &single, &single + 1, stage);
        } else
            price_flows(c, op.transfers.data(), op.transfers.data() + op.transfers.size(), stage);
        c.flows_end = static_cast<std::uint32_t>(flow_count_);
        // Recvs fed by a relay stage make the sends that wait for them a later stage (stage 0,
        // every send of a direct plan, is what a recv starts with).
        if (stage > 0)
            for (std::uint32_t f = c.flows_begin; f < c.flows_end; ++f) {
                int& s = ws_.sched[ws_.flows[f].recv].stage;
                s = std::max(s, stage);
            }
        if (!stage_runs_.empty() && stage_runs_.back().stage == stage && stage_runs_.back().end == c.flows_begin)
            stage_runs_.back().end = c.flows_end;
        else
            stage_runs_.push_back(StageRun{c.flows_begin, c.flows_end, stage});
    }

    /// Makes room for the loads of relay stage `stage` of the layer being priced.
    void use_stage(int stage) {
        if (stage < stages_) return;
        const auto n = static_cast<std::size_t>(stage) + 1;
        if (load_.size() < n * links_n_) {
            load_.resize(n * links_n_, 0);  // stage slices in order: the earlier ones stay put
            inbound_.resize(n * pairs_n_, 0);
        }
        stages_ = stage + 1;
    }

    /// The hot loop of the model (~70k transfers in a ResNet-50 plan): works on raw rows of
    /// the traffic tables, with its state in locals.
    void price_flows(OpCost& c, const Transfer* begin, const Transfer* end, int stage) {
        const int a = c.chiplet;
        std::int64_t* load = &load_[at(stage) * links_n_];  // the stage's slices
        // Chiplet peers: ejection link ni_out(peer), router peer.
        std::int64_t* eject = &load[at(links_.ni_out(0))];
        std::int64_t* into = &inbound_[at(stage) * pairs_n_ + at(router_of_[at(a)])];  // + peer router * routers
        const std::size_t stride = at(routers_);
        const int row = a * nodes_;
        const auto chiplets = static_cast<unsigned>(n_);
        FlowCost* out = &ws_.flows[flow_count_];
        double own = 0;
        std::int64_t injected = 0;  // on the package's routes (source routes book their own)
        std::int64_t bytes = last_bytes_, wire = last_wire_;
        double ni_ns = last_ni_ns_;
        for (const Transfer* t = begin; t != end; ++t, ++out) {
            // A grouped send mostly repeats one size: split it into packets once.
            if (t->bytes != bytes) {
                bytes = t->bytes;
                wire = mc_.wire_bytes(bytes);
                ni_ns = static_cast<double>(wire) / ni_bw_;
            }
            const std::size_t recv = ws_.flow_recv.find(t->flow);
            const int peer = t->peer;
            if (recv == KeyIndex::kNone || static_cast<unsigned>(peer) >= chiplets)
                throw std::logic_error("analytical model: flow " + std::to_string(t->flow) + " has no recv or no destination (validate_plan)");
            out->done_ns = ni_ns;
            out->recv = static_cast<std::uint32_t>(recv);
            own += ni_ns;
            if (t->route.empty()) {
                out->path = row + peer;
                eject[peer] += wire;
                into[at(peer) * stride] += wire;
                injected += wire;
            } else {
                out->path = -1 - static_cast<int>(routed_.size());
                book_routed(a, peer, t->route, wire, load);
                routed_flows_.push_back(RoutedRef{static_cast<std::uint32_t>(out - ws_.flows.data()), stage});
            }
        }
        last_bytes_ = bytes;
        last_wire_ = wire;
        last_ni_ns_ = ni_ns;
        flow_count_ = static_cast<std::size_t>(out - ws_.flows.data());
        c.own_ns = own;
        load[at(inject_[at(a)])] += injected;
    }

    /// A flow on a source route: its links loaded and its routers counted one by one.
    void book_routed(int src, int dst, const std::vector<int>& route, std::int64_t wire, std::int64_t* load) {
        RoutedFlow rf;
        rf.links_begin = static_cast<std::uint32_t>(route_links_.size());
        route_links_.push_back(links_.ni_in(src));
        for (std::size_t h = 1; h < route.size(); ++h) {
            int l = link_between(mc_.topology(), route[h - 1], route[h]);
            if (l < 0)
                throw std::logic_error("analytical model: route steps from router " + std::to_string(route[h - 1]) +
                                       " to non-neighbour " + std::to_string(route[h]) + " (validate_plan_routes)");
            route_links_.push_back(l);
        }
        route_links_.push_back(links_.ni_out(dst));
        rf.links_end = static_cast<std::uint32_t>(route_links_.size());
        const int routers = static_cast<int>(route.size());
        rf.fixed_ns = mc_.head_latency_ns(&route_links_[rf.links_begin], rf.links_end - rf.links_begin, routers, flit_);
        routed_.push_back(rf);
        for (std::uint32_t k = rf.links_begin; k < rf.links_end; ++k) load[at(route_links_[k])] += wire;
        for (int router : route) router_wire_[at(router)] += wire;
    }

    /// With the layer's traffic complete: load the mesh links (router pairs' bytes spread
    /// along the routing trees; source routes are booked already), stage by stage; then give
    /// every flow the time its busiest link needs for its stage's load, and every DRAM op the
    /// time its busiest link (stage 0, where DRAM traffic is booked) or memory needs. Books the
    /// layer's NoC and D2D energy and its bottleneck from the whole layer's load.
    void finish_layer(std::size_t layer) {
        const auto routers = at(routers_);
        const auto stages = at(stages_);
        for (std::size_t s = 0; s < stages; ++s) {
            std::int64_t* in = &inbound_[s * pairs_n_];
            for (std::size_t k = 0; k < pairs_n_; ++k) inbound_total_[k] += in[k];
            for (std::size_t d = 0; d < routers; ++d) trees_.forward(static_cast<int>(d), &in[d * routers], &load_[s * links_n_]);
            std::fill(in, in + pairs_n_, 0);
        }
        // The whole layer's loads: integers, so the sum over stages is exact in any order.
        const std::int64_t* total = load_.data();
        if (stages > 1) {
            layer_load_.assign(load_.begin(), load_.begin() + static_cast<std::ptrdiff_t>(links_n_));
            for (std::size_t s = 1; s < stages; ++s)
                for (std::size_t l = 0; l < links_n_; ++l) layer_load_[l] += load_[s * links_n_ + l];
            total = layer_load_.data();
        }
        // Link times, the layer's bottleneck and D2D energy, from integer loads. Router visits:
        // a message visits one router per mesh link it crosses plus the one it leaves by.
        double worst = 0, d2d = 0;
        int worst_link = -1;
        std::int64_t visits = 0;
        for (std::size_t l = 0; l < links_n_; ++l) {
            const double load = static_cast<double>(total[l]);
            const double t = link_ns_[l] = load / links_.bandwidth_gbps[l];
            if (t > worst) {
                worst = t;
                worst_link = static_cast<int>(l);
            }
            if (links_.is_d2d[l]) d2d += load * 8.0 * links_.energy_pj_per_bit[l];
        }
        for (int l = 0; l < links_.mesh_slots; ++l) visits += total[at(l)];
        for (int v = 0; v < nodes_; ++v) visits += total[at(eject_[at(v)])];
        for (std::size_t l = 0; l < links_n_; ++l) link_wire_[l] += total[l];
        worst_ns_[layer] = worst;
        worst_link_[layer] = worst_link;
        // Every message is whole flits, so one division gives the flits x routers visited.
        layer_acc_->add(EnergyCategory::Noc, static_cast<double>(visits / flit_) * arch_.package.router.energy_pj_per_flit);
        layer_acc_->add(EnergyCategory::D2d, d2d);
        for (std::size_t s = 0; s < stages; ++s) {
            std::int64_t* load = &load_[s * links_n_];
            if (stages > 1)  // one stage: link_ns_ holds its times already
                for (std::size_t l = 0; l < links_n_; ++l) link_ns_[l] = static_cast<double>(load[l]) / links_.bandwidth_gbps[l];
            std::fill(load, load + links_n_, 0);
            price_stage(static_cast<int>(s));
        }
        stage_runs_.clear();
        routed_flows_.clear();
        layer_drams_.clear();
        stages_ = 1;
        for (std::size_t m = 0; m < dram_bytes_.size(); ++m) {
            dram_total_[m] += dram_bytes_[m];
            dram_bytes_[m] = 0;
        }
    }

    /// With link_ns_ holding one stage's link times: the busiest link of every node pair
    /// (injection, mesh along the trees, ejection), given to the stage's flows, and to the
    /// layer's DRAM ops with stage 0.
    void price_stage(int stage) {
        const auto routers = at(routers_);
        for (std::size_t d = 0; d < routers; ++d) trees_.busiest(static_cast<int>(d), link_ns_.data(), &busiest_[d], routers);
        const auto nodes = at(nodes_);
        for (std::size_t v = 0; v < nodes; ++v) eject_ns_[v] = link_ns_[at(eject_[v])];
        for (std::size_t a = 0; a < nodes; ++a) {
            const double inject = link_ns_[at(inject_[a])];
            const double* mesh = &busiest_[at(router_of_[a]) * routers];  // from a's router
            double* out = &pair_busiest_[a * nodes];
            for (std::size_t b = 0; b < at(n_); ++b) out[b] = std::max(std::max(inject, mesh[b]), eject_ns_[b]);  // chiplet b: router b
            for (std::size_t b = at(n_); b < nodes; ++b) out[b] = std::max(std::max(inject, mesh[at(router_of_[b])]), eject_ns_[b]);
        }
        FlowCost* flows = ws_.flows.data();
        for (const StageRun& r : stage_runs_) {
            if (r.stage != stage) continue;
            for (FlowCost* f = flows + r.begin, *end = flows + r.end; f != end; ++f)
                if (f->path >= 0) f->done_ns = std::max(f->done_ns, pair_busiest_[at(f->path)]);
        }
        for (const RoutedRef& k : routed_flows_) {
            if (k.stage != stage) continue;
            FlowCost& fc = flows[k.flow];
            const RoutedFlow& rf = routed_[at(-1 - fc.path)];
            double t = fc.done_ns;
            for (std::uint32_t l = rf.links_begin; l < rf.links_end; ++l) t = std::max(t, link_ns_[at(route_links_[l])]);
            fc.done_ns = t;
        }
        if (stage != 0) return;
        for (const DramOp& d : layer_drams_) {
            OpCost& c = ws_.cost[d.op];
            const auto m = at(std::max(d.from, d.to) - n_);  // the memory end
            const double t = std::max(c.own_ns, pair_busiest_[pair(d.from, d.to)]);
            c.own_ns = std::max(t, static_cast<double>(dram_bytes_[m]) / arch_.memories[m].dram.bandwidth_gbps());
        }
    }

    void schedule() {
        const std::size_t n = ops_;
        const std::vector<OpCost>& cost = ws_.cost;
        std::vector<OpSchedule>& sched = ws_.sched;
        const FlowCost* flows = ws_.flows.data();
        // Successors in one flat array (CSR).
        auto& succ_begin = ws_.succ_begin;
        auto& succ = ws_.succ;
        succ_begin.assign(n + 1, 0);
        grow_to(succ, ws_.edges.size());
        for (const DepEdge& e : ws_.edges) ++succ_begin[e.from + 1];
        for (std::size_t i = 0; i < n; ++i) succ_begin[i + 1] += succ_begin[i];
        ws_.fill.assign(succ_begin.begin(), succ_begin.end() - 1);
        for (const DepEdge& e : ws_.edges) succ[ws_.fill[e.from]++] = e.to;
        ReadyQueue& pq = ws_.ready;
        pq.clear();
        pq.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            if (sched[i].pending == 0) pq.push(0.0, static_cast<std::uint32_t>(i));
        std::vector<double> compute_free(at(std::max(plan_.chiplets, 0)), 0.0);
        est_.ops.resize(n);
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
            OpTimes& ot = est_.ops[i];
            double end = t;
            switch (c.kind) {
                case OpKind::Compute: {
                    double& free = compute_free[at(c.chiplet)];
                    ot.start_ns = std::max(t, free);
                    end = free = ot.start_ns + c.own_ns;
                    break;
                }
                case OpKind::Send:
                    ot.start_ns = t;
                    end = t + c.own_ns;
                    for (const FlowCost* f = flows + c.flows_begin, *last = flows + c.flows_end; f != last; ++f) {
                        const double fixed = f->path >= 0 ? head_flit_ns_[at(f->path)] : routed_[at(-1 - f->path)].fixed_ns;
                        OpSchedule& r = sched[f->recv];
                        r.arrival = std::max(r.arrival, t + fixed + f->done_ns);
                        // A recv's own start is set by its dependencies.
                        if (--r.pending == 0) pq.push(std::max(r.ready, r.arrival), f->recv);
                    }
                    break;
                case OpKind::Recv:
                    ot.start_ns = sched[i].ready;
                    end = std::max(sched[i].ready, sched[i].arrival);
                    break;
                case OpKind::DramRead:
                case OpKind::DramWrite:
                    ot.start_ns = t;
                    end = t + c.fixed_ns + c.own_ns;
                    break;
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

    /// Component accounts: every router, link, PHY, memory and chiplet has one, idle or not,
    /// as in the simulation's ledger. NoC and D2D energy from the traffic totals: per router
    /// its flits, per link its bytes (integers, so the order messages came in does not matter).
    void book_energy() {
        const MeshTopology& topo = mc_.topology();
        const double flit_pj = arch_.package.router.energy_pj_per_flit;
        // Bytes through each router: the whole plan's router pairs along the trees (every
        // router on a path, both ends too), plus the source routes booked one by one.
        const auto routers = at(routers_);
        for (std::size_t d = 0; d < routers; ++d) {
            std::int64_t* through = &inbound_total_[d * routers];
            trees_.forward(static_cast<int>(d), through, load_.data());  // load_: scratch now
            for (std::size_t r = 0; r < routers; ++r) router_wire_[r] += through[r];
        }
        for (int r = 0; r < topo.routers(); ++r)
            est_.ledger.account("router_" + std::to_string(topo.row_of(r)) + "_" + std::to_string(topo.col_of(r)))
                .add(EnergyCategory::Noc, static_cast<double>(router_wire_[at(r)] / flit_) * flit_pj);
        std::vector<EnergyAccount*> link_acc(static_cast<std::size_t>(links_.count()), nullptr);
        for (int l = 0; l < links_.mesh_slots; ++l) link_acc[static_cast<std::size_t>(l)] = &est_.ledger.account("link." + topo.link_name(l));
        for (int m = 0; m < links_.memories; ++m) {
            EnergyAccount& phy = est_.ledger.account("phy." + arch_.memories[static_cast<std::size_t>(m)].name);
            link_acc[static_cast<std::size_t>(links_.phy_to_noc(m))] = link_acc[static_cast<std::size_t>(links_.phy_from_noc(m))] = &phy;
        }
        for (std::size_t l = 0; l < link_wire_.size(); ++l)
            if (links_.is_d2d[l] && link_wire_[l] > 0)
                link_acc[l]->add(EnergyCategory::D2d, static_cast<double>(link_wire_[l]) * 8.0 * links_.energy_pj_per_bit[l]);
        for (int c = 0; c < n_; ++c) {
            EnergyAccount& acc = est_.ledger.account("chiplet." + std::to_string(c));
            for (EnergyCategory cat : {EnergyCategory::Compute, EnergyCategory::Sram})
                acc.add(cat, chiplet_pj_[static_cast<std::size_t>(c)][static_cast<int>(cat)]);
        }
        for (int m = 0; m < links_.memories; ++m)
            est_.ledger.account("dram." + arch_.memories[static_cast<std::size_t>(m)].name)
                .add(EnergyCategory::Dram, dram_pj_[static_cast<std::size_t>(m)]);
    }

    /// Energy that accrues with time rather than with work: chiplet leakage and DRAM
    /// background power and refresh over the estimated run.
    void book_static_energy() {
        const double t = est_.latency_ns;
        for (int c = 0; c < links_.chiplets; ++c)
            est_.ledger.account("chiplet." + std::to_string(c)).add(EnergyCategory::Leakage, leakage_energy_pj(arch_.chiplet, t));
        for (std::size_t m = 0; m < arch_.memories.size(); ++m) {
            const DramConfig& d = arch_.memories[m].dram;
            // Rows stay open while the device is busy (open page) and refresh closes them, so
            // the device is active for about the share of the run its transfers take.
            const double bytes = static_cast<double>(dram_total_[m]);
            double active = t > 0 ? bytes / d.bandwidth_gbps() / t : 0.0;
            est_.ledger.account("dram." + arch_.memories[m].name)
                .add(EnergyCategory::Dram, dram_background_mw(d, active) * t + dram_refresh_pj(d, t));
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
    Workspace& ws_;
    MessageCost mc_;
    const PackageLinks& links_;
    RouteTrees trees_;
    int n_, nodes_, routers_;
    std::int64_t flit_;
    double ni_bw_;
    std::size_t ops_ = 0;
    std::vector<int> router_of_, inject_, eject_;          ///< per node
    std::vector<double> head_flit_ns_, head_control_ns_;   ///< per node pair (a * nodes + b)
    // Traffic of the layer being priced, and totals.
    std::size_t links_n_ = static_cast<std::size_t>(links_.count());
    std::size_t pairs_n_ = static_cast<std::size_t>(routers_) * static_cast<std::size_t>(routers_);
    int stages_ = 1;                           ///< relay stages of the layer being priced
    /// Per (stage, link): bytes on the wire (mesh: once spread); stage s at s * links_n_.
    std::vector<std::int64_t> load_;
    /// Per (stage, destination, source router): bytes to spread; stage s at s * pairs_n_.
    std::vector<std::int64_t> inbound_;
    std::vector<std::int64_t> layer_load_;     ///< per link: the layer's stages together
    std::vector<std::int64_t> inbound_total_;  ///< the same, whole plan
    std::vector<std::int64_t> link_wire_;      ///< per link, whole plan
    std::vector<std::int64_t> router_wire_;    ///< per router: source-routed bytes through it
    std::vector<double> link_ns_;              ///< per link: the layer's load over its bandwidth
    std::vector<double> eject_ns_ = std::vector<double>(static_cast<std::size_t>(nodes_));  ///< per node
    std::vector<double> busiest_;              ///< per (source, destination) router: busiest mesh link
    std::vector<double> pair_busiest_;         ///< per node pair: busiest link of its path
    std::size_t flow_count_ = 0;               ///< flows priced so far
    std::vector<StageRun> stage_runs_;         ///< the layer's flows by relay stage
    std::vector<RoutedRef> routed_flows_;      ///< the layer's flows on source routes
    std::vector<DramOp> layer_drams_;
    std::vector<RoutedFlow> routed_;           ///< flows with a source route
    std::vector<int> route_links_;
    std::int64_t last_bytes_ = -1, last_wire_ = 0;
    double last_ni_ns_ = 0;
    // Per memory.
    std::vector<std::int64_t> dram_bytes_, dram_total_;  ///< the layer's, the plan's
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

Estimate estimate_plan(const ArchConfig& arch, const Plan& plan) {
    thread_local Workspace workspace;
    return Estimator(arch, plan, workspace).run();
}

}  // namespace mcmsim
