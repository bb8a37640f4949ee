#include "mapper/plan_builder/collective_synthesis.h"

#include "hw/topology/mesh_topology.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>

namespace mcmsim {

bool SynthesisGraph::operator==(const SynthesisGraph& o) const {
    if (nodes != o.nodes || ni_ns_per_byte != o.ni_ns_per_byte || router_latency_ns != o.router_latency_ns ||
        links.size() != o.links.size() || routes != o.routes)
        return false;
    for (std::size_t i = 0; i < links.size(); ++i) {
        const SynthesisLink &a = links[i], &b = o.links[i];
        if (a.from != b.from || a.to != b.to || a.ns_per_byte != b.ns_per_byte || a.latency_ns != b.latency_ns) return false;
    }
    return true;
}

SynthesisGraph package_synthesis_graph(const PackageConfig& p, const ChipletGroup& group, double ni_gbps) {
    const MeshTopology topo = MeshTopology::of_package(p);
    const ChipletGroup g = group.on(p.rows, p.cols);
    SynthesisGraph graph;
    graph.nodes = p.rows * p.cols;
    graph.ni_ns_per_byte = ni_gbps > 0 ? 1.0 / ni_gbps : 0;
    graph.router_latency_ns = p.router.latency_ns();
    const double ns_per_byte = 1.0 / d2d_hop_gbps(p);
    const double latency = p.link.latency_ns + p.router.latency_ns();
    for (int i = 0; i < g.size(); ++i) {
        const int u = g.chiplet(i, p.cols);
        for (int port = 0; port < kMeshPorts; ++port) {
            const int v = topo.neighbor(u, static_cast<Port>(port));
            if (v < 0 || g.local(v, p.cols) < 0) continue;
            graph.links.push_back(SynthesisLink{u, v, ns_per_byte, latency});
        }
    }
    std::sort(graph.links.begin(), graph.links.end(),
              [](const SynthesisLink& a, const SynthesisLink& b) { return std::tie(a.from, a.to) < std::tie(b.from, b.to); });
    auto link_index = [&](int from, int to) {
        const auto it = std::lower_bound(
            graph.links.begin(), graph.links.end(), std::make_pair(from, to),
            [](const SynthesisLink& l, const std::pair<int, int>& k) { return std::make_pair(l.from, l.to) < k; });
        return static_cast<int>(it - graph.links.begin());
    };
    graph.routes.resize(static_cast<std::size_t>(graph.nodes * graph.nodes));
    for (int i = 0; i < g.size(); ++i)
        for (int j = 0; j < g.size(); ++j) {
            if (i == j) continue;
            const int u = g.chiplet(i, p.cols), v = g.chiplet(j, p.cols);
            const std::vector<int> path = topo.path(u, v);  // inside the group's rectangle
            std::vector<int>& r = graph.routes[static_cast<std::size_t>(u * graph.nodes + v)];
            for (std::size_t k = 0; k + 1 < path.size(); ++k) r.push_back(link_index(path[k], path[k + 1]));
        }
    return graph;
}

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

struct ChunkState {
    int root;
    std::int64_t bytes;
    std::vector<double> landed;  ///< [node] when the chunk is there (kNever: not yet promised)
    std::vector<int> hop_in;     ///< [node] the hop that brings it (-1: the root)
    std::vector<int> holders;    ///< nodes it has been promised to, the root first
    struct Hop {
        int from, to, parent;
        double start;
    };
    std::vector<Hop> hops;
};

}  // namespace

SynthesisedPhase synthesise_multicasts_uncached(const SynthesisGraph& g, const std::vector<MulticastDemand>& demands) {
    const auto n = static_cast<std::size_t>(g.nodes);
    auto check_node = [&](int v, const char* what) {
        if (v < 0 || v >= g.nodes)
            throw std::invalid_argument(std::string("collective synthesis: ") + what + " outside the graph");
    };
    std::vector<ChunkState> chunks;
    std::vector<int> chunk_demand;
    std::vector<std::vector<int>> needs(n);  // [node] chunks it lacks and has not been promised
    std::size_t lacking = 0;
    for (std::size_t d = 0; d < demands.size(); ++d) {
        const MulticastDemand& m = demands[d];
        check_node(m.root, "a root");
        if (m.chunks < 1) throw std::invalid_argument("collective synthesis: a multicast needs at least one chunk");
        std::vector<int> dests;
        for (int v : m.dests) {
            check_node(v, "a destination");
            if (v == m.root || std::find(dests.begin(), dests.end(), v) != dests.end()) continue;
            if (g.route(m.root, v).empty())
                throw std::invalid_argument("collective synthesis: no route from " + std::to_string(m.root) + " to destination " +
                                            std::to_string(v));
            dests.push_back(v);
        }
        const std::int64_t piece = m.bytes / m.chunks;
        for (int k = 0; k < m.chunks; ++k) {
            ChunkState c;
            c.root = m.root;
            c.bytes = k + 1 == m.chunks ? m.bytes - piece * (m.chunks - 1) : piece;
            c.landed.assign(n, kNever);
            c.hop_in.assign(n, -1);
            c.landed[static_cast<std::size_t>(m.root)] = 0;
            c.holders.push_back(m.root);
            const int id = static_cast<int>(chunks.size());
            for (int v : dests) needs[static_cast<std::size_t>(v)].push_back(id);
            lacking += dests.size();
            chunks.push_back(std::move(c));
            chunk_demand.push_back(static_cast<int>(d));
        }
    }
    std::vector<double> link_free(g.links.size(), 0), ni_out(n, 0), ni_in(n, 0);
    double makespan = 0;
    // Earliest landing first, landings within a tie quantum equal (see the header); the key:
    // quantised landing, the holder's bytes to send so far, the chunk's holders, the route's
    // links, chunk, holder, destination, exact landing.
    using Key = std::tuple<std::int64_t, double, std::size_t, std::size_t, int, int, std::size_t, double>;
    std::vector<double> sent(n, 0);  // [node] bytes it has been given to send so far
    for (; lacking > 0; --lacking) {
        bool found = false;
        Key best{};
        int from = -1;
        std::size_t wi_best = 0;
        double best_start = 0;
        for (std::size_t v = 0; v < n; ++v) {
            const std::vector<int>& want = needs[v];
            for (std::size_t wi = 0; wi < want.size(); ++wi) {
                const ChunkState& c = chunks[static_cast<std::size_t>(want[wi])];
                const double bytes = static_cast<double>(c.bytes);
                for (int u : c.holders) {
                    const std::vector<int>& route = g.route(u, static_cast<int>(v));
                    if (static_cast<int>(route.size()) > kSynthesisReach && u != c.root) continue;
                    double start =
                        std::max({c.landed[static_cast<std::size_t>(u)], ni_out[static_cast<std::size_t>(u)], ni_in[v]});
                    double serial = 0, latency = g.router_latency_ns;
                    for (int l : route) {
                        const SynthesisLink& link = g.links[static_cast<std::size_t>(l)];
                        start = std::max(start, link_free[static_cast<std::size_t>(l)]);
                        serial = std::max(serial, bytes * link.ns_per_byte);
                        latency += link.latency_ns;
                    }
                    const double finish = start + latency + std::max(serial, bytes * g.ni_ns_per_byte);
                    const double quantum = std::max(serial, bytes * g.ni_ns_per_byte) * kSynthesisTieFraction;
                    const auto slot = static_cast<std::int64_t>(quantum > 0 ? std::floor(finish / quantum) : 0);
                    const Key key{slot,  sent[static_cast<std::size_t>(u)], c.holders.size(), route.size(), want[wi], u, v,
                                  finish};
                    if (!found || key < best) found = true, best = key, from = u, wi_best = wi, best_start = start;
                }
            }
        }
        if (!found) throw std::logic_error("collective synthesis: nothing can bring the chunks still lacking");
        const int ci = std::get<4>(best);
        const auto v = std::get<6>(best);
        ChunkState& c = chunks[static_cast<std::size_t>(ci)];
        const double bytes = static_cast<double>(c.bytes);
        const std::vector<int>& route = g.route(from, static_cast<int>(v));
        double serial = 0;
        for (int l : route) serial = std::max(serial, bytes * g.links[static_cast<std::size_t>(l)].ns_per_byte);
        for (int l : route) link_free[static_cast<std::size_t>(l)] = best_start + serial;
        const double ni = bytes * g.ni_ns_per_byte;
        ni_out[static_cast<std::size_t>(from)] = best_start + ni;
        ni_in[v] = best_start + ni;
        makespan = std::max(makespan, std::get<7>(best));
        c.landed[v] = std::get<7>(best);
        sent[static_cast<std::size_t>(from)] += bytes;
        c.holders.push_back(static_cast<int>(v));
        c.hop_in[v] = static_cast<int>(c.hops.size());
        c.hops.push_back(ChunkState::Hop{from, static_cast<int>(v), c.hop_in[static_cast<std::size_t>(from)], best_start});
        std::vector<int>& want = needs[v];
        want[wi_best] = want.back();
        want.pop_back();
    }
    // Rounds: the distinct start times in order. A hop starts after its parent has landed, so
    // its round is beyond its parent's; hops are listed by start, parents first.
    std::vector<double> starts;
    for (const ChunkState& c : chunks)
        for (const ChunkState::Hop& h : c.hops) starts.push_back(h.start);
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    SynthesisedPhase phase;
    phase.demands.resize(demands.size());
    std::vector<std::size_t> order;
    std::vector<int> index;
    for (std::size_t ci = 0; ci < chunks.size(); ++ci) {
        const ChunkState& c = chunks[ci];
        order.resize(c.hops.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return c.hops[a].start < c.hops[b].start; });
        index.assign(c.hops.size(), -1);
        for (std::size_t i = 0; i < order.size(); ++i) index[order[i]] = static_cast<int>(i);
        SynthesisedPhase::Chunk out{c.bytes, {}};
        for (std::size_t i : order) {
            const ChunkState::Hop& h = c.hops[i];
            const int round = static_cast<int>(std::lower_bound(starts.begin(), starts.end(), h.start) - starts.begin());
            out.hops.push_back(
                CollectiveHop{h.from, h.to, h.parent < 0 ? -1 : index[static_cast<std::size_t>(h.parent)], round, true});
        }
        phase.demands[static_cast<std::size_t>(chunk_demand[ci])].push_back(std::move(out));
    }
    phase.makespan_ns = makespan;
    return phase;
}

namespace {

struct CacheEntry {
    SynthesisGraph graph;
    std::vector<MulticastDemand> demands;
    SynthesisedPhase phase;
};

std::size_t hash_of(const SynthesisGraph& g, const std::vector<MulticastDemand>& demands) {
    std::size_t h = std::hash<int>{}(g.nodes);
    auto mix = [&h](std::size_t x) { h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    mix(g.links.size());
    for (const SynthesisLink& l : g.links)
        mix(std::hash<double>{}(l.ns_per_byte) ^ static_cast<std::size_t>(l.from * 131 + l.to));
    for (const MulticastDemand& m : demands) {
        mix(static_cast<std::size_t>(m.root));
        mix(static_cast<std::size_t>(m.bytes));
        mix(static_cast<std::size_t>(m.chunks));
        for (int d : m.dests) mix(static_cast<std::size_t>(d));
    }
    return h;
}

// Bounded: an optimiser's run asks for a few thousand distinct phases at most; past the
// bound the cache starts over rather than grow without limit.
constexpr std::size_t kCacheEntries = 4096;
std::mutex cache_mutex;
std::unordered_map<std::size_t, std::vector<CacheEntry>> cache;
std::size_t cache_size = 0;
std::atomic<std::int64_t> cache_hits{0};

}  // namespace

SynthesisedPhase synthesise_multicasts(const SynthesisGraph& graph, const std::vector<MulticastDemand>& demands) {
    const std::size_t h = hash_of(graph, demands);
    {
        std::lock_guard<std::mutex> lock(cache_mutex);
        auto it = cache.find(h);
        if (it != cache.end())
            for (const CacheEntry& e : it->second)
                if (e.graph == graph && e.demands == demands) {
                    ++cache_hits;
                    return e.phase;
                }
    }
    SynthesisedPhase phase = synthesise_multicasts_uncached(graph, demands);
    std::lock_guard<std::mutex> lock(cache_mutex);
    if (cache_size >= kCacheEntries) cache.clear(), cache_size = 0;
    cache[h].push_back(CacheEntry{graph, demands, phase});
    ++cache_size;
    return phase;
}

std::int64_t synthesis_cache_hits() { return cache_hits.load(); }

}  // namespace mcmsim
