#include "mapper/plan_builder/collective_synthesis.h"

#include "hw/topology/mesh_topology.h"

#include <algorithm>
#include <array>
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
    // The links the package's routes between the group's chiplets take (on a mesh, those
    // inside the group's rectangle; on a torus or a graph a route may leave it), in id order.
    std::vector<int> slot_index(static_cast<std::size_t>(topo.link_slots()), -1);
    std::vector<int> used;
    for (int i = 0; i < g.size(); ++i)
        for (int j = 0; j < g.size(); ++j)
            if (i != j)
                for (int l : topo.path_links(g.chiplet(i, p.cols), g.chiplet(j, p.cols)))
                    if (slot_index[static_cast<std::size_t>(l)] < 0)
                        slot_index[static_cast<std::size_t>(l)] = 0, used.push_back(l);
    std::sort(used.begin(), used.end());
    for (int l : used) {
        const LinkClass c = topo.link_class(l);
        slot_index[static_cast<std::size_t>(l)] = static_cast<int>(graph.links.size());
        graph.links.push_back(SynthesisLink{l / kMeshPorts, topo.neighbor(l / kMeshPorts, static_cast<Port>(l % kMeshPorts)),
                                            1.0 / d2d_hop_gbps(p, c), p.link_of(c).latency_ns + p.router.latency_ns()});
    }
    graph.routes.resize(static_cast<std::size_t>(graph.nodes * graph.nodes));
    for (int i = 0; i < g.size(); ++i)
        for (int j = 0; j < g.size(); ++j) {
            if (i == j) continue;
            const int u = g.chiplet(i, p.cols), v = g.chiplet(j, p.cols);
            std::vector<int>& r = graph.routes[static_cast<std::size_t>(u * graph.nodes + v)];
            for (int l : topo.path_links(u, v)) r.push_back(slot_index[static_cast<std::size_t>(l)]);
        }
    return graph;
}

int synthesis_chunks(std::int64_t bytes, std::int64_t packet_bytes, int most) {
    const std::int64_t per_chunk = kSynthesisChunkPackets * std::max<std::int64_t>(1, packet_bytes);
    return static_cast<int>(std::clamp<std::int64_t>(bytes / per_chunk, 1, std::max(1, most)));
}

namespace {

/// A chunk while the phase is synthesised.
struct ChunkState {
    int root;
    std::int64_t bytes;
    std::vector<int> hop_in;   ///< [node] the hop that brings it (-1: the root)
    std::vector<int> holders;  ///< nodes it has been promised to, the root first
    struct Hop {
        int from, to, parent, step;
    };
    std::vector<Hop> hops;
};

constexpr int kLacks = std::numeric_limits<int>::max();

/// What one step of the time-expanded network still takes, in bytes per resource.
struct StepCapacity {
    std::vector<double> link, out, in;
};

}  // namespace

SynthesisedPhase synthesise_multicasts_uncached(const SynthesisGraph& g, const std::vector<MulticastDemand>& demands) {
    const auto n = static_cast<std::size_t>(g.nodes);
    auto check_node = [&](int v, const char* what) {
        if (v < 0 || v >= g.nodes)
            throw std::invalid_argument(std::string("collective synthesis: ") + what + " outside the graph");
    };
    std::vector<ChunkState> chunks;
    // [chunk x nodes + node] the step after which the node holds the chunk (-1: its root;
    // kLacks: not yet), one array for the scan's locality.
    std::vector<int> held_from;
    std::vector<int> chunk_demand;
    std::vector<std::vector<int>> needs(n);  // [node] chunks it lacks and has not been promised
    std::size_t lacking = 0;
    std::int64_t largest = 0;
    for (std::size_t d = 0; d < demands.size(); ++d) {
        const MulticastDemand& m = demands[d];
        check_node(m.root, "a root");
        if (m.chunks < 1) throw std::invalid_argument("collective synthesis: a multicast needs at least one chunk");
        if (m.bytes < m.chunks) throw std::invalid_argument("collective synthesis: a chunk needs at least one byte");
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
            largest = std::max(largest, c.bytes);
            held_from.resize(held_from.size() + n, kLacks);
            c.hop_in.assign(n, -1);
            held_from[chunks.size() * n + static_cast<std::size_t>(m.root)] = -1;
            c.holders.push_back(m.root);
            const int id = static_cast<int>(chunks.size());
            for (int v : dests) needs[static_cast<std::size_t>(v)].push_back(id);
            lacking += dests.size();
            chunks.push_back(std::move(c));
            chunk_demand.push_back(static_cast<int>(d));
        }
    }
    SynthesisedPhase phase;
    phase.demands.resize(demands.size());
    if (lacking == 0) {
        for (std::size_t ci = 0; ci < chunks.size(); ++ci)
            phase.demands[static_cast<std::size_t>(chunk_demand[ci])].push_back({chunks[ci].bytes, {}});
        return phase;
    }

    // The step: long enough for the largest chunk on the slowest link, and for `lanes` of them
    // through an NI, `lanes` being how many links it takes to fill the NI.
    double slowest = 0;
    for (const SynthesisLink& l : g.links) slowest = std::max(slowest, l.ns_per_byte);
    const int lanes = g.ni_ns_per_byte > 0 ? std::max(1, static_cast<int>(std::ceil(slowest / g.ni_ns_per_byte - 1e-9))) : 1;
    const double big = static_cast<double>(largest);
    phase.step_ns = std::max(big * slowest, lanes * big * g.ni_ns_per_byte);
    const double step = phase.step_ns;
    constexpr double kSlack = 1e-9;  // relative: capacities are sums of doubles
    StepCapacity cap;
    auto refill = [&]() {
        cap.link.resize(g.links.size());
        std::fill(cap.link.begin(), cap.link.end(), step * (1 + kSlack));
        const double ni = g.ni_ns_per_byte > 0 ? step / g.ni_ns_per_byte * (1 + kSlack) : std::numeric_limits<double>::infinity();
        cap.out.assign(n, ni);
        cap.in.assign(n, ni);
    };

    // [node][length - 1] the nodes whose route to it is that many links long, up to the reach.
    std::vector<std::array<std::vector<int>, kSynthesisReach>> near(n);
    for (int v = 0; v < g.nodes; ++v)
        for (int u = 0; u < g.nodes; ++u) {
            const std::size_t len = g.route(u, v).size();
            if (u != v && len >= 1 && len <= static_cast<std::size_t>(kSynthesisReach))
                near[static_cast<std::size_t>(v)][len - 1].push_back(u);
        }
    std::vector<double> sent(n, 0);   // [node] bytes it has been given to send so far
    std::vector<int> received(n, 0);  // [node] chunks promised to it so far
    std::vector<int> order(n);
    double makespan = 0;
    for (int s = 0; lacking > 0; ++s) {
        refill();
        double step_bytes_time = 0, step_latency = 0;
        bool any = false;
        // Passes: in each, every destination takes at most one chunk, the least served first,
        // so that the step's capacity is shared out rather than taken by the first in line.
        for (bool progress = true; progress;) {
            progress = false;
            for (std::size_t v = 0; v < n; ++v) order[v] = static_cast<int>(v);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return received[a] < received[b]; });
            for (int vi : order) {
                const auto v = static_cast<std::size_t>(vi);
                std::vector<int>& want = needs[v];
                if (want.empty() || cap.in[v] <= 0) continue;
                // The best (chunk, holder) for v: the shortest route, the rarest chunk, the holder
                // with the most of this step's NI left, then the least loaded, then ids. The
                // route's length comes first, so the holders one hop away are tried first, then
                // two, then the roots farther away; the first level with a candidate decides.
                using Key = std::tuple<std::size_t, std::size_t, double, double, int, int>;
                bool found = false;
                Key best{};
                std::size_t wi_best = 0;
                auto consider = [&](std::size_t wi, const ChunkState& c, int u, const std::vector<int>& route) {
                    const auto uu = static_cast<std::size_t>(u);
                    const double bytes = static_cast<double>(c.bytes);
                    if (held_from[static_cast<std::size_t>(want[wi]) * n + uu] >= s || bytes > cap.out[uu]) return;
                    double upstream = g.ni_ns_per_byte;
                    for (int l : route) {
                        upstream = std::max(upstream, g.links[static_cast<std::size_t>(l)].ns_per_byte);
                        if (bytes * upstream > cap.link[static_cast<std::size_t>(l)]) return;
                    }
                    const Key key{route.size(), c.holders.size(), -cap.out[uu], sent[uu], want[wi], u};
                    if (!found || key < best) found = true, best = key, wi_best = wi;
                };
                // What a holder's NI and route can still take this step: a holder without room
                // for the smallest lacking chunk is passed over at once (the exact test, per
                // chunk, is consider()'s).
                double smallest = std::numeric_limits<double>::infinity();
                for (int ci : want)
                    smallest = std::min(smallest, static_cast<double>(chunks[static_cast<std::size_t>(ci)].bytes));
                if (smallest > cap.in[v]) continue;
                auto room = [&](int u, const std::vector<int>& route) {
                    double r = cap.out[static_cast<std::size_t>(u)], upstream = g.ni_ns_per_byte;
                    for (int l : route) {
                        upstream = std::max(upstream, g.links[static_cast<std::size_t>(l)].ns_per_byte);
                        r = std::min(r, cap.link[static_cast<std::size_t>(l)] / upstream);
                    }
                    return r * (1 + 1e-9);
                };
                for (int level = 0; level < kSynthesisReach && !found; ++level)
                    for (int u : near[v][static_cast<std::size_t>(level)]) {
                        const std::vector<int>& route = g.route(u, vi);
                        if (room(u, route) < smallest) continue;
                        for (std::size_t wi = 0; wi < want.size(); ++wi) {
                            const ChunkState& c = chunks[static_cast<std::size_t>(want[wi])];
                            if (static_cast<double>(c.bytes) > cap.in[v]) continue;
                            consider(wi, c, u, route);
                        }
                    }
                if (!found)
                    for (std::size_t wi = 0; wi < want.size(); ++wi) {
                        const ChunkState& c = chunks[static_cast<std::size_t>(want[wi])];
                        const std::vector<int>& route = g.route(c.root, vi);
                        if (static_cast<double>(c.bytes) > cap.in[v] || static_cast<int>(route.size()) <= kSynthesisReach)
                            continue;
                        consider(wi, c, c.root, route);
                    }
                if (!found) continue;
                const int ci = std::get<4>(best), from = std::get<5>(best);
                ChunkState& c = chunks[static_cast<std::size_t>(ci)];
                const double bytes = static_cast<double>(c.bytes);
                const std::vector<int>& route = g.route(from, vi);
                double latency = g.router_latency_ns, serial = bytes * g.ni_ns_per_byte;
                for (int l : route) {
                    const SynthesisLink& link = g.links[static_cast<std::size_t>(l)];
                    serial = std::max(serial, bytes * link.ns_per_byte);
                    cap.link[static_cast<std::size_t>(l)] -= serial;  // held while the stream passes
                    latency += link.latency_ns;
                }
                const auto uf = static_cast<std::size_t>(from);
                cap.out[uf] -= bytes;
                cap.in[v] -= bytes;
                step_bytes_time = std::max(step_bytes_time, serial);
                step_latency = std::max(step_latency, latency);
                sent[uf] += bytes;
                ++received[v];
                held_from[static_cast<std::size_t>(ci) * n + v] = s;
                c.holders.push_back(vi);
                c.hop_in[v] = static_cast<int>(c.hops.size());
                c.hops.push_back(ChunkState::Hop{from, vi, c.hop_in[uf], s});
                want[wi_best] = want.back();
                want.pop_back();
                --lacking;
                progress = any = true;
            }
        }
        if (!any) throw std::logic_error("collective synthesis: nothing can bring the chunks still lacking");
        // The step as the synthesiser's model times it: its NIs' and links' busiest, plus the
        // longest head latency.
        double busiest = step_bytes_time;
        const double ni_full = g.ni_ns_per_byte > 0 ? step / g.ni_ns_per_byte * (1 + kSlack) : 0;
        if (g.ni_ns_per_byte > 0)
            for (std::size_t v = 0; v < n; ++v)
                busiest =
                    std::max({busiest, (ni_full - cap.in[v]) * g.ni_ns_per_byte, (ni_full - cap.out[v]) * g.ni_ns_per_byte});
        for (std::size_t l = 0; l < g.links.size(); ++l) busiest = std::max(busiest, step * (1 + kSlack) - cap.link[l]);
        makespan += busiest + step_latency;
        phase.steps = s + 1;
    }
    for (std::size_t ci = 0; ci < chunks.size(); ++ci) {
        const ChunkState& c = chunks[ci];
        SynthesisedPhase::Chunk out{c.bytes, {}};
        // Hops were made step by step, so parents come first already.
        for (const ChunkState::Hop& h : c.hops) out.hops.push_back(CollectiveHop{h.from, h.to, h.parent, h.step, true});
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
