#include "mapper/transfer_batch.h"

#include <algorithm>

namespace mcmsim {

TransferBatch::TransferBatch(const PackageConfig& package)
    : rows_(package.rows), cols_(package.cols), n_(package.rows * package.cols),
      topo_(package.rows, package.cols, Routing::XY),
      topo_yx_(package.rows, package.cols, Routing::YX),
      topo_package_(MeshTopology::of_package(package)),
      package_topo_(topo_package_.diagonals() ? &topo_package_ : (package.routing == "yx" ? &topo_yx_ : &topo_)),
      pair_links_(static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_)),
      link_load_(static_cast<std::size_t>(topo_package_.link_slots()), 0) {}

void TransferBatch::begin_layer(Collective collective, const ChipletGroup& group) {
    collective_ = collective;
    group_ = group;
    package_bytes_ = package_link_bytes_ = 0;
    std::fill(link_load_.begin(), link_load_.end(), 0);
}

std::int64_t TransferBatch::max_link_bytes() const { return *std::max_element(link_load_.begin(), link_load_.end()); }

void TransferBatch::transfer(int from, int to, std::int64_t bytes, std::vector<std::int64_t> deps) {
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    pending_.push_back(Pending{from, to, bytes, std::move(deps)});
}

void TransferBatch::multicast(int from, const std::vector<int>& dests, std::int64_t bytes,
                              const std::vector<std::int64_t>& ready) {
    const std::vector<CollectiveHop> hops =
        collective_hops(collective_, rows_, cols_, group_, from, dests);
    const std::size_t base = pending_.size();
    for (const CollectiveHop& h : hops) {
        if (h.parent < 0) {
            transfer(h.from, h.to, bytes, ready);
        } else {
            const std::size_t parent = base + static_cast<std::size_t>(h.parent);
            pending_[parent].relays = true;
            pending_.push_back(Pending{h.from, h.to, bytes, {}});
            pending_.back().parent = static_cast<std::int64_t>(parent);
        }
        pending_.back().depth = h.depth;
        pending_.back().consumed = h.consumer;
    }
}

void TransferBatch::account_flow(int from, int to, std::int64_t bytes, const std::vector<int>& route) {
    package_bytes_ += bytes;
    auto& cached = pair_links_[static_cast<std::size_t>(from) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(to)];
    if (route.empty() && cached.empty()) cached = topo_package_.path_links(from, to);
    std::vector<int> routed;
    if (!route.empty()) routed = topo_package_.route_links(route);
    for (int link : route.empty() ? cached : routed) {
        package_link_bytes_ += bytes;
        link_load_[static_cast<std::size_t>(link)] += bytes;
    }
}

void TransferBatch::paths(RoutePolicy policy, int from, int to, std::vector<std::pair<std::vector<int>, int>>& out) const {
    out.clear();
    const bool straight = topo_.row_of(from) == topo_.row_of(to) || topo_.col_of(from) == topo_.col_of(to);
    auto route = [&](const MeshTopology& t) {
        // The package routes this way itself: leave the route out.
        if (straight || &t == package_topo_) return std::vector<int>{};
        return t.path(from, to);
    };
    switch (policy) {
        case RoutePolicy::XY: out.push_back({route(topo_), 1}); return;
        case RoutePolicy::YX: out.push_back({route(topo_yx_), 1}); return;
        case RoutePolicy::Diagonal: out.push_back({{}, 1}); return;  // the package routes so
        case RoutePolicy::Split:
            if (straight) out.push_back({{}, 1});
            else out = {{route(topo_), 2}, {route(topo_yx_), 2}};
            return;
    }
}

/// Emits the transfers collected since the last flush, relay stage by relay stage (depth
/// 0: the transfers that wait for computed data; depth d: hops forwarded by a chiplet that
/// received them at depth d - 1). Per depth: one send op per (source chiplet,
/// dependencies), in order of first appearance, listing its transfers in the order they
/// were made (the order the chiplet injects them); then, per relay chiplet, one recv op for
/// the bytes it forwards, which its forwarding sends wait for. Last, one recv op per
/// destination chiplet for all the bytes it only keeps. Returns, per chiplet, the recv ops
/// whose bytes it needs.
std::vector<std::vector<std::int64_t>> TransferBatch::flush(PlanLayer& layer, RoutePolicy policy, OpSink& sink) {
    std::vector<std::vector<std::int64_t>> needed(static_cast<std::size_t>(n_));
    if (pending_.empty()) return needed;
    int max_depth = 0;
    for (const Pending& p : pending_) max_depth = std::max(max_depth, p.depth);
    FlushScratch& sc = scratch_;
    const auto n = static_cast<std::size_t>(n_);
    sc.relay_recv.assign(pending_.size(), -1);  // per relayed hop: the recv at its destination
    sc.kept.resize(n);                          // per destination (emptied by make_recv)
    sc.relayed.resize(n);
    sc.relayed_hops.resize(n);
    sc.groups_of.resize(n);
    auto& kept = sc.kept;
    auto& relayed = sc.relayed;
    auto& relayed_hops = sc.relayed_hops;
    auto& members = sc.members;  // group -> pending indices (the first sc.groups)
    auto& routes = sc.routes;
    for (int depth = 0; depth <= max_depth; ++depth) {
        // Group the sends; a source usually has one dependency set per stage, so a linear
        // scan over its groups is enough.
        for (auto& g : sc.groups_of) g.clear();
        for (std::size_t g = 0; g < sc.groups; ++g) members[g].clear();
        sc.groups = 0;
        for (std::size_t i = 0; i < pending_.size(); ++i) {
            Pending& p = pending_[i];
            if (p.depth != depth) continue;
            if (p.parent >= 0) p.deps = {sc.relay_recv[static_cast<std::size_t>(p.parent)]};
            auto& mine = sc.groups_of[static_cast<std::size_t>(p.from)];
            std::size_t g = sc.groups;
            for (std::size_t cand : mine)
                if (pending_[members[cand].front()].deps == p.deps) g = cand;
            if (g == sc.groups) {
                mine.push_back(g);
                if (members.size() == sc.groups) members.emplace_back();
                ++sc.groups;
            }
            members[g].push_back(i);
        }
        for (std::size_t gi = 0; gi < sc.groups; ++gi) {
            const auto& g = members[gi];
            const Pending& head = pending_[g.front()];
            PlanOp& s = sink.add_op(layer, head.from, OpKind::Send, head.deps);
            s.transfers.reserve(g.size());  // one per hop, two for a split route
            for (std::size_t i : g) {
                const Pending& p = pending_[i];
                paths(policy, p.from, p.to, routes);
                std::int64_t left = p.bytes;
                for (std::size_t r = 0; r < routes.size() && left > 0; ++r) {
                    // Split halves: the first path takes the rounded-down half.
                    std::int64_t bytes = r + 1 == routes.size() ? left : p.bytes / routes[r].second;
                    if (bytes <= 0) continue;
                    left -= bytes;
                    Transfer t;
                    t.peer = p.to, t.bytes = bytes, t.flow = sink.new_flow(), t.route = std::move(routes[r].first);
                    account_flow(p.from, p.to, bytes, t.route);
                    const auto to = static_cast<std::size_t>(p.to);
                    (p.relays ? relayed : kept)[to].push_back(Transfer{p.from, bytes, t.flow, {}});
                    s.bytes += bytes;
                    s.transfers.push_back(std::move(t));
                }
                if (p.relays) relayed_hops[static_cast<std::size_t>(p.to)].push_back(i);
            }
        }
        for (int c = 0; c < n_; ++c) {
            auto& in = relayed[static_cast<std::size_t>(c)];
            if (in.empty()) continue;
            const std::int64_t id = make_recv(layer, sink, c, in);
            bool consumed = false;
            for (std::size_t i : relayed_hops[static_cast<std::size_t>(c)]) {
                sc.relay_recv[i] = id;
                consumed = consumed || pending_[i].consumed;
            }
            relayed_hops[static_cast<std::size_t>(c)].clear();
            if (consumed) needed[static_cast<std::size_t>(c)].push_back(id);
        }
    }
    for (int c = 0; c < n_; ++c)
        if (!kept[static_cast<std::size_t>(c)].empty())
            needed[static_cast<std::size_t>(c)].push_back(make_recv(layer, sink, c, kept[static_cast<std::size_t>(c)]));
    pending_.clear();
    return needed;
}

void TransferBatch::flush_into(PlanLayer& layer, RoutePolicy policy, OpSink& sink,
                               std::vector<std::vector<std::int64_t>>& deps) {
    std::vector<std::vector<std::int64_t>> recv = flush(layer, policy, sink);
    for (int c = 0; c < n_; ++c) {
        auto& d = deps[static_cast<std::size_t>(c)];
        d.insert(d.end(), recv[static_cast<std::size_t>(c)].begin(), recv[static_cast<std::size_t>(c)].end());
    }
}

std::int64_t TransferBatch::make_recv(PlanLayer& layer, OpSink& sink, int chiplet, std::vector<Transfer>& in) {
    PlanOp& r = sink.add_op(layer, chiplet, OpKind::Recv, {});
    for (const Transfer& t : in) r.bytes += t.bytes;
    r.transfers = std::move(in);
    in.clear();
    return r.id;
}

}  // namespace mcmsim
