#include "mapper/plan_builder/transfer_batch.h"

#include "mapper/plan_builder/themis_schedule.h"

#include <algorithm>
#include <array>

namespace mcmsim {

TransferBatch::TransferBatch(const PackageConfig& package, double ni_gbps)
    : package_(package), ni_gbps_(ni_gbps), rows_(package.rows), cols_(package.cols), n_(package.rows * package.cols),
      topo_(package.rows, package.cols, Routing::XY), topo_yx_(package.rows, package.cols, Routing::YX),
      topo_package_(MeshTopology::of_package(package)),
      package_topo_(topo_package_.kind() != PackageTopology::Mesh ? &topo_package_
                                                                  : (package.routing == Routing::YX ? &topo_yx_ : &topo_)),
      link_load_(topo_package_.link_slots(), 0) {
    collectives_.set_wraps(topo_package_.torus());
    const int pairs = n_ * n_;
    for (RouteKind k : {RouteKind::XY, RouteKind::YX}) routes_[static_cast<int>(k)].resize(pairs);
    for (auto& links : links_) links.resize(pairs);
}

void TransferBatch::begin_layer(Collective collective, const ChipletGroup& group) {
    collective_ = collective;
    group_ = group;
    package_bytes_ = package_link_bytes_ = 0;
    std::fill(link_load_.begin(), link_load_.end(), 0);
}

std::int64_t TransferBatch::max_link_bytes() const { return *std::max_element(link_load_.begin(), link_load_.end()); }

std::size_t TransferBatch::add_deps(OpIds ids, std::size_t& n) {
    const std::size_t at = deps_.size();
    for (std::size_t i = 0; i < ids.size; ++i) deps_.push_back(ids.data[i]);  // a few ids: no range insert
    n = ids.size;
    if (n <= 1) return at;
    const auto first = deps_.begin() + static_cast<std::ptrdiff_t>(at);
    std::sort(first, deps_.end());
    deps_.erase(std::unique(first, deps_.end()), deps_.end());
    n = deps_.size() - at;
    return at;
}

bool TransferBatch::same_deps(const Pending& a, const Pending& b) const {
    if (a.deps_n != b.deps_n) return false;
    if (a.deps_at == b.deps_at) return true;
    const auto first = deps_.begin() + static_cast<std::ptrdiff_t>(a.deps_at);
    return std::equal(first, first + static_cast<std::ptrdiff_t>(a.deps_n),
                      deps_.begin() + static_cast<std::ptrdiff_t>(b.deps_at));
}

void TransferBatch::transfer(int from, int to, std::int64_t bytes, OpIds deps) {
    Pending p{from, to, bytes};
    p.deps_at = add_deps(deps, p.deps_n);
    pending_.push_back(p);
}

void TransferBatch::multicast(int from, const std::vector<int>& dests, std::int64_t bytes, OpIds ready) {
    std::size_t ready_n = 0;
    const std::size_t ready_at = add_deps(ready, ready_n);  // shared by the first hops
    if (collective_ == Collective::Synth) {
        deferred_.push_back(Deferred{from, dests, bytes, ready_at, ready_n});
        return;
    }
    if (collective_ == Collective::Themis) {
        themis_multicasts_.push_back(Deferred{from, dests, bytes, ready_at, ready_n});
        return;
    }
    add_hops(collectives_.hops(collective_, rows_, cols_, group_, from, dests), bytes, -1, ready_at, ready_n);
}

void TransferBatch::add_hops(const std::vector<CollectiveHop>& hops, std::int64_t bytes, std::int64_t entry, std::size_t ready_at,
                             std::size_t ready_n, int stage_offset) {
    const std::size_t base = pending_.size();
    const int depth0 = entry < 0 ? 0 : pending_[static_cast<std::size_t>(entry)].depth + 1;
    for (const CollectiveHop& h : hops) {
        Pending p{h.from, h.to, bytes};
        const std::int64_t parent = h.parent >= 0 ? static_cast<std::int64_t>(base) + h.parent : entry;
        if (parent < 0) {
            p.deps_at = ready_at, p.deps_n = ready_n;
        } else {
            pending_[static_cast<std::size_t>(parent)].relays = true;
            p.parent = parent;
        }
        p.depth = h.depth + depth0 + stage_offset;
        p.consumed = h.consumer;
        pending_.push_back(p);
    }
}

// All the phase's multicasts at once, on the links among the layer's group. A root outside
// the group sends its bytes in once, to the destination nearest to it (as the fixed
// algorithms do), which then roots the synthesised tree.
void TransferBatch::synthesise_deferred() {
    const ChipletGroup g = group_.on(rows_, cols_);
    if (!(g == synth_group_)) {
        synth_graph_ = package_synthesis_graph(package_, g, ni_gbps_);
        synth_group_ = g;
    }
    // Chunks per demand: at most `most`, or as many as asked.
    auto chunks_of = [&](std::int64_t bytes, int most) {
        return synthesis_chunks_ > 0 ? static_cast<int>(std::min<std::int64_t>(synthesis_chunks_, bytes))
                                     : synthesis_chunks(bytes, package_.max_packet_bytes, most);
    };
    // The phase's multicasts with each cut into at most `most` chunks.
    std::vector<int> entry_to(deferred_.size(), -1);
    auto multicasts_of = [&](int most) {
        std::vector<MulticastDemand> demands;
        demands.reserve(deferred_.size());
        for (std::size_t i = 0; i < deferred_.size(); ++i) {
            const Deferred& d = deferred_[i];
            MulticastDemand m{d.from, d.dests, d.bytes, chunks_of(d.bytes, most)};
            if (g.local(d.from, cols_) < 0 && !d.dests.empty()) {
                const std::size_t e = group_entry(d.from, d.dests, cols_);
                entry_to[i] = d.dests[e];
                m.root = d.dests[e];
                m.dests.erase(m.dests.begin() + static_cast<std::ptrdiff_t>(e));
            }
            demands.push_back(std::move(m));
        }
        return demands;
    };
    int steps = 0;
    if (!deferred_.empty()) {
        const SynthesisedPhase phase = synthesise_finest_that_pays(multicasts_of);
        steps = phase.steps;
        for (std::size_t i = 0; i < deferred_.size(); ++i) {
            const Deferred& d = deferred_[i];
            std::int64_t entry = -1;
            if (entry_to[i] >= 0) {
                Pending p{d.from, entry_to[i], d.bytes};
                p.deps_at = d.ready_at, p.deps_n = d.ready_n;
                entry = static_cast<std::int64_t>(pending_.size());
                pending_.push_back(p);
            }
            // A hop's depth is the synthesiser's round, so each relay forwards a chunk in the
            // stage after the one it arrived in, not after everything it receives.
            for (const SynthesisedPhase::Chunk& c : phase.demands[i]) add_hops(c.hops, c.bytes, entry, d.ready_at, d.ready_n);
        }
        deferred_.clear();
    }
    if (!deferred_reductions_.empty()) {
        // Each reduction as the broadcast of its owner's slice to the members, synthesised
        // for the whole phase at once and reversed in time, after any multicasts' steps.
        auto broadcasts_of = [&](int most) {
            std::vector<MulticastDemand> demands;
            for (const Reduction& r : deferred_reductions_) {
                MulticastDemand m{r.owner, {}, r.bytes, chunks_of(r.bytes, most)};
                for (int c : r.members)
                    if (c != r.owner) m.dests.push_back(c);
                demands.push_back(std::move(m));
            }
            return demands;
        };
        const SynthesisedPhase phase = synthesise_finest_that_pays(broadcasts_of);
        for (std::size_t i = 0; i < deferred_reductions_.size(); ++i) {
            const int ri = static_cast<int>(reductions_.size());
            reductions_.push_back(std::move(deferred_reductions_[i]));
            for (const SynthesisedPhase::Chunk& c : phase.demands[i])
                add_reduce_hops(ri, c.hops, c.bytes, steps + phase.steps - 1);
        }
        deferred_reductions_.clear();
    }
}

void TransferBatch::schedule_themis() {
    const ChipletGroup g = group_.on(rows_, cols_);
    auto chunks_of = [&](std::int64_t bytes) {
        return synthesis_chunks_ > 0 ? static_cast<int>(std::min<std::int64_t>(synthesis_chunks_, bytes))
                                     : synthesis_chunks(bytes, package_.max_packet_bytes, kSynthesisMaxChunks);
    };
    // Each class's bandwidth over the links inside the group, which the 2d trees use.
    std::array<double, kLinkClasses> class_gbps{};
    for (int l = 0; l < topo_package_.link_slots(); ++l) {
        const int a = l / kMeshPorts, b = topo_package_.neighbor(a, static_cast<Port>(l % kMeshPorts));
        if (b < 0 || g.local(a, cols_) < 0 || g.local(b, cols_) < 0) continue;
        const LinkClass c = topo_package_.link_class(l);
        class_gbps[static_cast<std::size_t>(c)] += d2d_hop_gbps(package_, c);
    }
    // The link-bytes per byte a tree of each order puts on each class, on the package's routes.
    auto demand_of = [&](int root, const std::vector<int>& dests, std::int64_t bytes) {
        ThemisDemand d{bytes, chunks_of(bytes), {}};
        for (DimOrder o : {DimOrder::RowsFirst, DimOrder::ColumnsFirst}) {
            collectives_.set_order(o);
            for (const CollectiveHop& h : collectives_.hops(Collective::TwoD, rows_, cols_, group_, root, dests))
                for (int l : links_of(RouteKind::Package, h.from, h.to))
                    d.class_bytes_per_byte[static_cast<std::size_t>(o)][static_cast<std::size_t>(topo_package_.link_class(l))] +=
                        1;
        }
        return d;
    };
    std::vector<ThemisDemand> demands;
    std::vector<std::vector<int>> others;  // per reduction: its members but the owner
    for (const Deferred& d : themis_multicasts_) demands.push_back(demand_of(d.from, d.dests, d.bytes));
    for (const Reduction& r : themis_reductions_) {
        others.emplace_back();
        for (int c : r.members)
            if (c != r.owner) others.back().push_back(c);
        demands.push_back(demand_of(r.owner, others.back(), r.bytes));
    }
    const std::vector<std::vector<DimOrder>> orders = themis_orders(demands, class_gbps);
    auto chunk_bytes = [](std::int64_t bytes, int chunks, int k) {
        const std::int64_t piece = bytes / chunks;
        return k + 1 == chunks ? bytes - piece * (chunks - 1) : piece;
    };
    // Multicasts: chunk k of each starts a stage after chunk k - 1, so that a relay forwards
    // one chunk while the next arrives.
    std::size_t i = 0;
    for (const Deferred& d : themis_multicasts_) {
        for (int k = 0; k < demands[i].chunks; ++k) {
            collectives_.set_order(orders[i][static_cast<std::size_t>(k)]);
            add_hops(collectives_.hops(Collective::TwoD, rows_, cols_, group_, d.from, d.dests),
                     chunk_bytes(d.bytes, demands[i].chunks, k), -1, d.ready_at, d.ready_n, k);
        }
        ++i;
    }
    // Reductions: the same trees run backwards, all ending at the phase's last stage.
    std::vector<std::vector<std::vector<CollectiveHop>>> trees;
    int last = 0;
    for (std::size_t r = 0; r < themis_reductions_.size(); ++r, ++i) {
        trees.emplace_back();
        for (int k = 0; k < demands[i].chunks; ++k) {
            collectives_.set_order(orders[i][static_cast<std::size_t>(k)]);
            trees.back().push_back(
                collectives_.hops(Collective::TwoD, rows_, cols_, group_, themis_reductions_[r].owner, others[r]));
            for (const CollectiveHop& h : trees.back().back()) last = std::max(last, h.depth + k);
        }
    }
    for (std::size_t r = 0; r < themis_reductions_.size(); ++r) {
        const int ri = static_cast<int>(reductions_.size());
        const std::int64_t bytes = themis_reductions_[r].bytes;
        const int chunks = static_cast<int>(trees[r].size());
        reductions_.push_back(std::move(themis_reductions_[r]));
        for (int k = 0; k < chunks; ++k)
            add_reduce_hops(ri, trees[r][static_cast<std::size_t>(k)], chunk_bytes(bytes, chunks, k), last - k);
    }
    collectives_.set_order(DimOrder::RowsFirst);
    themis_multicasts_.clear();
    themis_reductions_.clear();
}

SynthesisedPhase TransferBatch::synthesise_finest_that_pays(
    const std::function<std::vector<MulticastDemand>(int most)>& demands_of) const {
    // Finer chunks pipeline deeper through the relays but leave the steps less to match, so
    // the synthesiser's own timing of both cuts picks (ties to the coarser).
    const std::vector<MulticastDemand> demands = demands_of(kSynthesisCoarseChunks);
    SynthesisedPhase phase = synthesise_multicasts(synth_graph_, demands);
    if (synthesis_chunks_ == 0) {
        const std::vector<MulticastDemand> finer = demands_of(kSynthesisMaxChunks);
        if (!(finer == demands)) {
            SynthesisedPhase fine = synthesise_multicasts(synth_graph_, finer);
            if (fine.makespan_ns < phase.makespan_ns) phase = std::move(fine);
        }
    }
    return phase;
}

void TransferBatch::account_links(std::int64_t bytes, const std::vector<int>& links) {
    package_bytes_ += bytes;
    for (int link : links) {
        package_link_bytes_ += bytes;
        link_load_[link] += bytes;
    }
}

void TransferBatch::account_flow(int from, int to, std::int64_t bytes, const std::vector<int>& route) {
    if (route.empty()) account_links(bytes, links_of(RouteKind::Package, from, to));
    else account_links(bytes, topo_package_.route_links(route));
}

const std::vector<int>& TransferBatch::route_of(RouteKind kind, int from, int to) {
    static const std::vector<int> none;
    if (kind == RouteKind::Package) return none;
    auto& r = routes_[static_cast<int>(kind)][from * n_ + to];
    if (r.empty()) r = (kind == RouteKind::XY ? topo_ : topo_yx_).path(from, to);
    return r;
}

const std::vector<int>& TransferBatch::links_of(RouteKind kind, int from, int to) {
    auto& l = links_[static_cast<int>(kind)][from * n_ + to];
    if (l.empty() && from != to)
        l = kind == RouteKind::Package ? topo_package_.path_links(from, to) : topo_package_.route_links(route_of(kind, from, to));
    return l;
}

int TransferBatch::paths(RoutePolicy policy, int from, int to, Path (&out)[2]) const {
    if (!route_policy_fits(RoutePolicy::XY, topo_package_.kind())) policy = RoutePolicy::Package;  // routed by its own rules
    const bool straight = topo_.row_of(from) == topo_.row_of(to) || topo_.col_of(from) == topo_.col_of(to);
    auto route = [&](const MeshTopology& t, RouteKind kind) {
        // The package routes this way itself: leave the route out.
        return straight || &t == package_topo_ ? RouteKind::Package : kind;
    };
    switch (policy) {
        case RoutePolicy::XY:
            out[0] = {route(topo_, RouteKind::XY), 1};
            return 1;
        case RoutePolicy::YX:
            out[0] = {route(topo_yx_, RouteKind::YX), 1};
            return 1;
        case RoutePolicy::Diagonal:
        case RoutePolicy::Package:
            out[0] = {RouteKind::Package, 1};
            return 1;  // the package routes so
        case RoutePolicy::Split:
            if (straight) {
                out[0] = {RouteKind::Package, 1};
                return 1;
            }
            out[0] = {route(topo_, RouteKind::XY), 2};
            out[1] = {route(topo_yx_, RouteKind::YX), 2};
            return 2;
    }
    return 0;
}

/// Emits the transfers collected since the last flush, relay stage by relay stage (depth
/// 0: the transfers that wait for computed data; depth d: hops forwarded by a chiplet that
/// received them at depth d - 1). Per depth: one send op per (source chiplet,
/// dependencies), in order of first appearance, listing its transfers in the order they
/// were made (the order the chiplet injects them); then, per relay chiplet, one recv op for
/// the bytes it forwards, which its forwarding sends wait for. Last, one recv op per
/// destination chiplet for all the bytes it only keeps. Returns, per chiplet, the recv ops
/// whose bytes it needs.
ChipletDeps TransferBatch::flush(PlanLayer& layer, RoutePolicy policy, OpSink& sink) {
    ChipletDeps needed(n_);
    flush_into(layer, policy, sink, needed);
    return needed;
}

void TransferBatch::flush_into(PlanLayer& layer, RoutePolicy policy, OpSink& sink, ChipletDeps& needed) {
    FlushScratch& sc = scratch_;
    // Synthesised trees keep their steps (collective_synthesis.h): a chiplet's sends of a step
    // wait for its sends of the step before, as its NI takes them in the synthesised order,
    // and it receives each step's bytes, kept or relayed, in one recv.
    reduced_.clear();
    sc.lockstep = !deferred_.empty() || !deferred_reductions_.empty();
    if (sc.lockstep) {
        sc.last_sends.resize(n_);
        sc.step_sends.resize(n_);
        sc.last_recv.assign(n_, -1);
        sc.last_send_step.assign(n_, -1);
        sc.last_recv_step.assign(n_, -1);
        for (int c = 0; c < n_; ++c) sc.last_sends[c].clear(), sc.step_sends[c].clear();
        synthesise_deferred();
    }
    if (!themis_multicasts_.empty() || !themis_reductions_.empty()) schedule_themis();
    if (pending_.empty()) {
        if (!reductions_.empty()) finish_reductions(layer, sink);
        return;
    }
    sc.relay_recv.assign(pending_.size(), -1);  // per relayed hop: the recv at its destination
    sc.kept.resize(n_);                         // per destination (emptied by make_recv)
    sc.relayed.resize(n_);
    sc.relayed_hops.resize(n_);
    sc.groups_of.resize(n_);
    const int max_depth = sort_by_stage();
    const bool reducing = !reductions_.empty();
    if (reducing) {
        sc.tree_inputs.assign(static_cast<std::size_t>(trees_) * n_, {});
        for (std::size_t i = 0; i < pending_.size(); ++i)
            if (pending_[i].tree >= 0)
                sc.tree_inputs[static_cast<std::size_t>(pending_[i].tree) * n_ + pending_[i].to].push_back(i);
    }
    for (int depth = 0; depth <= max_depth; ++depth) {
        sc.step = depth;
        if (reducing) prepare_reduce_hops(layer, sink, depth);
        group_sends(depth);
        for (std::size_t g = 0; g < sc.groups; ++g) make_send(layer, policy, sink, sc.members[g]);
        if (sc.lockstep) {
            end_step(layer, sink, needed);
            continue;
        }
        // The relays' recvs, which their forwarding sends of the next stage wait for.
        for (int c = 0; c < n_; ++c) {
            auto& in = sc.relayed[c];
            if (in.empty()) continue;
            const std::int64_t id = make_recv(layer, sink, c, in);
            bool consumed = false;
            for (std::size_t i : sc.relayed_hops[c]) {
                sc.relay_recv[i] = id;
                consumed = consumed || pending_[i].consumed;
            }
            sc.relayed_hops[c].clear();
            if (consumed) needed[c].push_back(id);
        }
    }
    for (int c = 0; c < n_; ++c)
        if (!sc.kept[c].empty()) needed[c].push_back(make_recv(layer, sink, c, sc.kept[c]));
    if (reducing) finish_reductions(layer, sink);
    pending_.clear();
    deps_.clear();
}

void TransferBatch::end_step(PlanLayer& layer, OpSink& sink, ChipletDeps& needed) {
    FlushScratch& sc = scratch_;
    for (int c = 0; c < n_; ++c) {
        if (!sc.step_sends[c].empty()) std::swap(sc.last_sends[c], sc.step_sends[c]), sc.step_sends[c].clear();
        auto& in = sc.relayed[c];
        if (in.empty() && sc.kept[c].empty()) continue;
        const bool keeps = !sc.kept[c].empty();
        in.insert(in.end(), sc.kept[c].begin(), sc.kept[c].end());
        sc.kept[c].clear();
        const std::int64_t id = make_recv(layer, sink, c, in);
        sc.last_recv[c] = id;
        sc.last_recv_step[c] = sc.step;
        bool consumed = keeps;
        for (std::size_t i : sc.relayed_hops[c]) {
            sc.relay_recv[i] = id;
            consumed = consumed || pending_[i].consumed;
        }
        sc.relayed_hops[c].clear();
        if (consumed) needed[c].push_back(id);
    }
}

int TransferBatch::sort_by_stage() {
    int max_depth = 0;
    for (const Pending& p : pending_) max_depth = std::max(max_depth, p.depth);
    // A counting sort, each stage's hops in the order made: a ring's stages are many.
    FlushScratch& sc = scratch_;
    auto& first = sc.stage_first;
    first.assign(max_depth + 2, 0);
    for (const Pending& p : pending_) ++first[p.depth + 1];
    for (int d = 1; d < first.size(); ++d) first[d] += first[d - 1];
    sc.by_stage.resize(pending_.size());
    for (std::size_t i = 0; i < pending_.size(); ++i) sc.by_stage[first[pending_[i].depth]++] = i;
    for (int d = first.size() - 1; d > 0; --d) first[d] = first[d - 1];  // back to each stage's start
    first[0] = 0;
    return max_depth;
}

void TransferBatch::group_sends(int depth) {
    // A source usually has one dependency set per stage, so a linear scan over its groups is
    // enough.
    FlushScratch& sc = scratch_;
    auto& members = sc.members;
    for (auto& g : sc.groups_of) g.clear();
    for (std::size_t g = 0; g < sc.groups; ++g) members[g].clear();
    sc.groups = 0;
    for (std::size_t k = sc.stage_first[depth]; k < sc.stage_first[depth + 1]; ++k) {
        const std::size_t i = sc.by_stage[k];
        Pending& p = pending_[i];
        if (p.parent >= 0) p.deps_at = add_deps({sc.relay_recv[static_cast<std::size_t>(p.parent)]}, p.deps_n);
        auto& mine = sc.groups_of[p.from];
        std::size_t g = sc.groups;
        for (std::size_t cand : mine)
            if (same_deps(pending_[members[cand].front()], p)) g = cand;
        if (g == sc.groups) {
            mine.push_back(g);
            if (members.size() == sc.groups) members.emplace_back();
            ++sc.groups;
        }
        members[g].push_back(i);
    }
}

void TransferBatch::make_send(PlanLayer& layer, RoutePolicy policy, OpSink& sink, const std::vector<std::size_t>& group) {
    FlushScratch& sc = scratch_;
    const Pending& head = pending_[group.front()];
    const auto deps_first = deps_.begin() + static_cast<std::ptrdiff_t>(head.deps_at);
    std::vector<std::int64_t> deps(deps_first, deps_first + static_cast<std::ptrdiff_t>(head.deps_n));
    if (sc.lockstep) {
        auto add = [&deps](std::int64_t id) {
            if (id >= 0 && std::find(deps.begin(), deps.end(), id) == deps.end()) deps.push_back(id);
        };
        for (std::int64_t id : sc.last_sends[head.from]) add(id);
        // A chiplet that sent nothing in the step before would start this step's sends a step
        // early, onto receivers still taking that step's bytes: the latest recv it had since
        // its last sends marks where it is in the schedule.
        const int from = head.from;
        if (sc.last_send_step[from] < sc.step - 1 && sc.last_recv_step[from] >= sc.last_send_step[from]) add(sc.last_recv[from]);
    }
    PlanOp& s = sink.add_op(layer, head.from, OpKind::Send, std::move(deps));
    if (sc.lockstep) sc.step_sends[head.from].push_back(s.id), sc.last_send_step[head.from] = sc.step;
    // One transfer per hop, two for a split route.
    s.transfers.reserve(policy == RoutePolicy::Split ? 2 * group.size() : group.size());
    for (std::size_t i : group) {
        const Pending& p = pending_[i];
        Path routes[2];
        const int count = paths(policy, p.from, p.to, routes);
        std::int64_t left = p.bytes;
        for (int r = 0; r < count && left > 0; ++r) {
            // Split halves: the first path takes the rounded-down half.
            std::int64_t bytes = r + 1 == count ? left : p.bytes / routes[r].share;
            if (bytes <= 0) continue;
            left -= bytes;
            const std::int64_t flow = sink.new_flow();
            account_links(bytes, links_of(routes[r].kind, p.from, p.to));
            (p.relays ? sc.relayed : sc.kept)[p.to].push_back(Transfer{p.from, bytes, flow, {}});
            s.bytes += bytes;
            s.transfers.push_back(Transfer{p.to, bytes, flow, route_of(routes[r].kind, p.from, p.to)});
        }
        if (p.relays) sc.relayed_hops[p.to].push_back(i);
    }
}

std::int64_t TransferBatch::make_recv(PlanLayer& layer, OpSink& sink, int chiplet, std::vector<Transfer>& in) {
    PlanOp& r = sink.add_op(layer, chiplet, OpKind::Recv, {});
    for (const Transfer& t : in) r.bytes += t.bytes;
    r.transfers.assign(in.begin(), in.end());  // exactly its size; `in` keeps its memory
    in.clear();
    return r.id;
}

}  // namespace mcmsim
