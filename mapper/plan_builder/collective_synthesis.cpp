#include "mapper/plan_builder/collective_synthesis.h"

#include "hw/topology/mesh_topology.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>

namespace mcmsim {

bool SynthesisGraph::operator==(const SynthesisGraph& o) const {
    if (nodes != o.nodes || ni_ns_per_byte != o.ni_ns_per_byte || links.size() != o.links.size()) return false;
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
    return graph;
}

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

/// Hop counts between every pair of nodes over the graph's links (-1: unreachable).
std::vector<int> hop_distances(const SynthesisGraph& g) {
    const auto n = static_cast<std::size_t>(g.nodes);
    std::vector<std::vector<int>> out(n);
    for (const SynthesisLink& l : g.links) out[static_cast<std::size_t>(l.from)].push_back(l.to);
    std::vector<int> dist(n * n, -1);
    std::deque<int> queue;
    for (std::size_t s = 0; s < n; ++s) {
        int* d = &dist[s * n];
        d[s] = 0;
        queue.assign(1, static_cast<int>(s));
        while (!queue.empty()) {
            const int u = queue.front();
            queue.pop_front();
            for (int v : out[static_cast<std::size_t>(u)])
                if (d[v] < 0) d[v] = d[u] + 1, queue.push_back(v);
        }
    }
    return dist;
}

struct ChunkState {
    int demand, index;
    std::int64_t bytes;
    std::vector<double> landed;   ///< [node] when the chunk is there (kNever: not yet)
    std::vector<char> promised;   ///< [node] holds it or a link is bringing it
    std::vector<char> dest;       ///< [node] needs it
    std::vector<int> hop_in;      ///< [node] the hop that brings it (-1: the root)
    std::vector<int> depth;       ///< [node] hops from the root
    std::vector<int> dests;       ///< the destinations
    int lacking = 0;              ///< destinations not promised
    int spread = 1;               ///< nodes holding or promised it
    std::vector<CollectiveHop> hops;
};

struct Landing {
    double at;
    int chunk, node;
    bool operator>(const Landing& o) const { return std::tie(at, chunk, node) > std::tie(o.at, o.chunk, o.node); }
};

}  // namespace

SynthesisedPhase synthesise_multicasts_uncached(const SynthesisGraph& g, const std::vector<MulticastDemand>& demands) {
    const auto n = static_cast<std::size_t>(g.nodes);
    auto check_node = [&](int v, const char* what) {
        if (v < 0 || v >= g.nodes) throw std::invalid_argument(std::string("collective synthesis: ") + what + " outside the graph");
    };
    const std::vector<int> dist = hop_distances(g);
    std::vector<ChunkState> chunks;
    SynthesisedPhase phase;
    phase.demands.resize(demands.size());
    for (std::size_t d = 0; d < demands.size(); ++d) {
        const MulticastDemand& m = demands[d];
        check_node(m.root, "a root");
        if (m.chunks < 1) throw std::invalid_argument("collective synthesis: a multicast needs at least one chunk");
        for (int v : m.dests) {
            check_node(v, "a destination");
            if (dist[static_cast<std::size_t>(m.root) * n + static_cast<std::size_t>(v)] < 0)
                throw std::invalid_argument("collective synthesis: destination " + std::to_string(v) + " unreachable from " +
                                            std::to_string(m.root));
        }
        const std::int64_t piece = m.bytes / m.chunks;
        for (int k = 0; k < m.chunks; ++k) {
            ChunkState c;
            c.demand = static_cast<int>(d);
            c.index = k;
            c.bytes = k + 1 == m.chunks ? m.bytes - piece * (m.chunks - 1) : piece;
            c.landed.assign(n, kNever);
            c.promised.assign(n, 0);
            c.dest.assign(n, 0);
            c.hop_in.assign(n, -1);
            c.depth.assign(n, 0);
            c.landed[static_cast<std::size_t>(m.root)] = 0;
            c.promised[static_cast<std::size_t>(m.root)] = 1;
            for (int v : m.dests)
                if (v != m.root && !c.dest[static_cast<std::size_t>(v)]) {
                    c.dest[static_cast<std::size_t>(v)] = 1;
                    c.dests.push_back(v);
                    ++c.lacking;
                }
            chunks.push_back(std::move(c));
        }
    }
    int lacking = 0;
    std::vector<std::vector<int>> held(n);  // [node] chunks landed there, in landing order
    for (std::size_t c = 0; c < chunks.size(); ++c) {
        lacking += chunks[c].lacking;
        if (chunks[c].lacking) held[static_cast<std::size_t>(demands[static_cast<std::size_t>(chunks[c].demand)].root)].push_back(static_cast<int>(c));
    }
    std::vector<double> link_free(g.links.size(), 0), ni_out(n, 0), ni_in(n, 0);
    std::priority_queue<Landing, std::vector<Landing>, std::greater<Landing>> landings;
    double t = 0, makespan = 0;
    // A relay is worth it when it brings the chunk closer to a destination that lacks it.
    auto relay_helps = [&](const ChunkState& c, int u, int v) {
        for (int d : c.dests)
            if (!c.promised[static_cast<std::size_t>(d)] && dist[static_cast<std::size_t>(v) * n + static_cast<std::size_t>(d)] <
                                                                   dist[static_cast<std::size_t>(u) * n + static_cast<std::size_t>(d)])
                return true;
        return false;
    };
    while (lacking > 0) {
        while (!landings.empty() && landings.top().at <= t) {
            const Landing l = landings.top();
            landings.pop();
            chunks[static_cast<std::size_t>(l.chunk)].landed[static_cast<std::size_t>(l.node)] = l.at;
            held[static_cast<std::size_t>(l.node)].push_back(l.chunk);
        }
        for (std::size_t li = 0; li < g.links.size() && lacking > 0; ++li) {
            const SynthesisLink& link = g.links[li];
            const auto u = static_cast<std::size_t>(link.from), v = static_cast<std::size_t>(link.to);
            if (link_free[li] > t || ni_out[u] > t || ni_in[v] > t) continue;
            int best = -1;
            std::tuple<int, int, double, int> best_key{};
            for (int ci : held[u]) {
                const ChunkState& c = chunks[static_cast<std::size_t>(ci)];
                if (c.promised[v] || !c.lacking) continue;
                const bool needs = c.dest[v] != 0;
                if (!needs && !relay_helps(c, link.from, link.to)) continue;
                const std::tuple<int, int, double, int> key{needs ? 0 : 1, c.spread, c.landed[u], ci};
                if (best < 0 || key < best_key) best = ci, best_key = key;
            }
            if (best < 0) continue;
            ChunkState& c = chunks[static_cast<std::size_t>(best)];
            const double bytes = static_cast<double>(c.bytes);
            const double serial = bytes * link.ns_per_byte, ni = bytes * g.ni_ns_per_byte;
            link_free[li] = t + serial;
            ni_out[u] = t + ni;
            ni_in[v] = t + ni;
            const double at = t + link.latency_ns + std::max(serial, ni);
            makespan = std::max(makespan, at);
            c.promised[v] = 1;
            ++c.spread;
            if (c.dest[v]) --c.lacking, --lacking;
            c.depth[v] = c.hop_in[u] < 0 ? 0 : c.depth[u] + 1;
            c.hop_in[v] = static_cast<int>(c.hops.size());
            c.hops.push_back(CollectiveHop{link.from, link.to, c.hop_in[u], c.depth[v], c.dest[v] != 0});
            landings.push(Landing{at, best, link.to});
        }
        if (lacking == 0) break;
        // The next moment anything changes: a chunk lands, or a link or NI frees.
        double next = landings.empty() ? kNever : landings.top().at;
        for (std::size_t li = 0; li < g.links.size(); ++li)
            if (link_free[li] > t) next = std::min(next, link_free[li]);
        for (std::size_t v = 0; v < n; ++v) {
            if (ni_out[v] > t) next = std::min(next, ni_out[v]);
            if (ni_in[v] > t) next = std::min(next, ni_in[v]);
        }
        if (next == kNever) throw std::logic_error("collective synthesis: no link can bring the chunks still lacking");
        t = next;
    }
    // Hop depths were taken from the sender's depth when the hop started, which is final by
    // then: a chunk reaches a node once.
    for (ChunkState& c : chunks)
        phase.demands[static_cast<std::size_t>(c.demand)].push_back(SynthesisedPhase::Chunk{c.bytes, std::move(c.hops)});
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
    for (const SynthesisLink& l : g.links) mix(std::hash<double>{}(l.ns_per_byte) ^ static_cast<std::size_t>(l.from * 131 + l.to));
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
