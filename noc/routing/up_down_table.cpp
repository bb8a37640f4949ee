#include "noc/routing/routing_function.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>

#include <stdexcept>

namespace mcmsim {

namespace {
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

/// Hop counts from `source` over `g` (-1 unreachable).
std::vector<int> bfs_distances(const Graph& g, int source) {
    const auto n = boost::num_vertices(g);
    std::vector<int> dist(n, 0);
    std::vector<boost::default_color_type> color(n);
    boost::breadth_first_search(
        g, static_cast<Graph::vertex_descriptor>(source),
        boost::visitor(boost::make_bfs_visitor(boost::record_distances(dist.data(), boost::on_tree_edge())))
            .color_map(boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, g))));
    for (std::size_t v = 0; v < n; ++v)
        if (color[v] == boost::white_color) dist[v] = -1;
    return dist;
}
}  // namespace

UpDownTable::UpDownTable(const NocTopology& t) : t_(t), n_(t.routers()) {
    const int n = n_, ports = t.ports();
    // 1. Levels of a BFS spanning tree from router 0; rank orders (level, id).
    Graph links(static_cast<std::size_t>(n));
    for (const NocChannel& c : t.channels())
        boost::add_edge(static_cast<std::size_t>(c.src), static_cast<std::size_t>(c.dst), links);
    std::vector<int> level = bfs_distances(links, 0);
    for (int r = 0; r < n; ++r)
        if (level[static_cast<std::size_t>(r)] < 0)
            throw std::invalid_argument("table routing: router " + t.router_name(r) + " is not connected");
    rank_.resize(static_cast<std::size_t>(n));
    auto is_up = [&](int from, int to) {
        int lf = level[static_cast<std::size_t>(from)], lt = level[static_cast<std::size_t>(to)];
        return lt < lf || (lt == lf && to < from);
    };
    // 2. State graph, reversed: vertex phase * n + r. Forward edges (u,0)->(v,0) for up links,
    // (u,0)->(v,1) and (u,1)->(v,1) for down links; a BFS from (dst, *) on the reverse graph
    // gives every state's distance to dst.
    Graph reverse(static_cast<std::size_t>(2 * n + 1));
    const int sink = 2 * n;  // joins (dst,0) and (dst,1)
    for (const NocChannel& c : t.channels()) {
        if (is_up(c.src, c.dst)) {
            boost::add_edge(static_cast<std::size_t>(c.dst), static_cast<std::size_t>(c.src), reverse);
        } else {
            boost::add_edge(static_cast<std::size_t>(n + c.dst), static_cast<std::size_t>(c.src), reverse);
            boost::add_edge(static_cast<std::size_t>(n + c.dst), static_cast<std::size_t>(n + c.src), reverse);
        }
    }
    next_port_.assign(static_cast<std::size_t>(2 * n * n), -1);
    for (int dst = 0; dst < n; ++dst) {
        Graph g = reverse;
        boost::add_edge(static_cast<std::size_t>(sink), static_cast<std::size_t>(dst), g);
        boost::add_edge(static_cast<std::size_t>(sink), static_cast<std::size_t>(n + dst), g);
        std::vector<int> dist = bfs_distances(g, sink);
        for (int phase = 0; phase < 2; ++phase)
            for (int at = 0; at < n; ++at) {
                if (at == dst) continue;
                int best = -1, best_d = 0;
                for (int p = 1; p < ports; ++p) {
                    int ch = t.out_channel(at, p);
                    if (ch < 0) continue;
                    int to = t.channel(ch).dst;
                    bool up = is_up(at, to);
                    if (phase == 1 && up) continue;
                    int d = dist[static_cast<std::size_t>((up ? 0 : n) + to)];
                    if (d < 0) continue;
                    if (best < 0 || d < best_d) {
                        best = p;
                        best_d = d;
                    }
                }
                next_port_[static_cast<std::size_t>((phase * n + at) * n + dst)] = best;
            }
    }
    for (int r = 0; r < n; ++r) rank_[static_cast<std::size_t>(r)] = level[static_cast<std::size_t>(r)];
}

RouteDecision UpDownTable::route(int at, int dst, RouteState& state, const PortLoad*) const {
    if (at == dst) return {kLocalPort, VcClass::Any};
    int port = next_port_[static_cast<std::size_t>((state.down * n_ + at) * n_ + dst)];
    if (port < 0)
        throw std::logic_error("table routing: no legal route from " + t_.router_name(at) + " to " + t_.router_name(dst));
    int to = t_.channel(t_.out_channel(at, port)).dst;
    int la = rank_[static_cast<std::size_t>(at)], lt = rank_[static_cast<std::size_t>(to)];
    bool up = lt < la || (lt == la && to < at);
    if (!up) state.down = 1;
    return {port, VcClass::Any};
}

}  // namespace mcmsim
