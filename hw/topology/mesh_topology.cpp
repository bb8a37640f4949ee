#include "hw/topology/mesh_topology.h"

#include "hw/config/package_config.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace mcmsim {

const char* to_string(Port p) {
    switch (p) {
        case Port::East:
            return "E";
        case Port::West:
            return "W";
        case Port::North:
            return "N";
        case Port::South:
            return "S";
        case Port::NorthEast:
            return "NE";
        case Port::NorthWest:
            return "NW";
        case Port::SouthEast:
            return "SE";
        case Port::SouthWest:
            return "SW";
        case Port::Local:
            return "L";
    }
    return "?";
}

MeshTopology::MeshTopology(PackageTopology kind, int rows, int cols, Routing routing)
    : kind_(kind), rows_(rows), cols_(cols), routing_(routing) {}

MeshTopology::MeshTopology(int rows, int cols, Routing routing, bool diagonals)
    : MeshTopology(diagonals ? PackageTopology::MeshDiagonal : PackageTopology::Mesh, rows, cols, routing) {}

MeshTopology MeshTopology::torus(int rows, int cols, Routing routing) {
    return MeshTopology(PackageTopology::Torus, rows, cols, routing);
}

MeshTopology MeshTopology::graph(int rows, int cols, const std::vector<PackageEdge>& edges) {
    MeshTopology t(PackageTopology::Graph, rows, cols, Routing::XY);
    const int n = rows * cols;
    const auto un = static_cast<std::size_t>(n);
    auto fail = [](const std::string& why) { throw std::invalid_argument("package graph: " + why); };
    GraphTables g;
    g.neighbor.assign(un * kMeshPorts, -1);
    g.link_class.assign(un * kMeshPorts, LinkClass::Row);
    std::vector<int> ports(un, 0);
    for (const PackageEdge& e : edges) {
        if (e.a < 0 || e.a >= n || e.b < 0 || e.b >= n || e.a == e.b) fail("a link outside the grid or onto itself");
        for (int p = 0; p < ports[static_cast<std::size_t>(e.a)]; ++p)
            if (g.neighbor[static_cast<std::size_t>(e.a * kMeshPorts + p)] == e.b) fail("a repeated link");
        for (const auto& [from, to] : {std::pair<int, int>{e.a, e.b}, std::pair<int, int>{e.b, e.a}}) {
            int& k = ports[static_cast<std::size_t>(from)];
            if (k == kMeshPorts) fail("more than " + std::to_string(kMeshPorts) + " links at one router");
            g.neighbor[static_cast<std::size_t>(from * kMeshPorts + k)] = to;
            g.link_class[static_cast<std::size_t>(from * kMeshPorts + k)] = e.link_class;
            ++k;
        }
    }
    auto nb = [&](int r, int p) { return g.neighbor[static_cast<std::size_t>(r * kMeshPorts + p)]; };
    // Levels of a breadth-first search from router 0; "up" leads to a lower (level, id).
    std::vector<int> level(un, -1);
    std::vector<int> queue{0};
    level[0] = 0;
    for (std::size_t q = 0; q < queue.size(); ++q)
        for (int p = 0; p < kMeshPorts; ++p) {
            const int x = nb(queue[q], p);
            if (x >= 0 && level[static_cast<std::size_t>(x)] < 0) {
                level[static_cast<std::size_t>(x)] = level[static_cast<std::size_t>(queue[q])] + 1;
                queue.push_back(x);
            }
        }
    if (static_cast<int>(queue.size()) != n) fail("routers not connected to router 0");
    auto up = [&](int from, int to) {
        return std::make_pair(level[static_cast<std::size_t>(to)], to) <
               std::make_pair(level[static_cast<std::size_t>(from)], from);
    };
    // Routers by rank, root first: an up link leads to an earlier one.
    std::vector<int> by_rank(queue);
    std::sort(by_rank.begin(), by_rank.end(), [&](int a, int b) { return up(b, a); });
    g.next_port.assign(un * un, -1);
    std::vector<int> cost(un);
    for (int dst = 0; dst < n; ++dst) {
        // Down-only distances to dst: a breadth-first search back along down links.
        std::fill(cost.begin(), cost.end(), -1);
        cost[static_cast<std::size_t>(dst)] = 0;
        std::vector<int> frontier{dst};
        for (std::size_t q = 0; q < frontier.size(); ++q) {
            const int y = frontier[q];
            for (int p = 0; p < kMeshPorts; ++p) {
                const int x = nb(y, p);  // x -> y is down when y -> x is up
                if (x >= 0 && up(y, x) && cost[static_cast<std::size_t>(x)] < 0) {
                    cost[static_cast<std::size_t>(x)] = cost[static_cast<std::size_t>(y)] + 1;
                    frontier.push_back(x);
                }
            }
        }
        std::vector<bool> down_only(un);
        for (int r = 0; r < n; ++r) down_only[static_cast<std::size_t>(r)] = cost[static_cast<std::size_t>(r)] >= 0;
        // The others climb: in rank order, every up neighbour has its cost already.
        for (int r : by_rank) {
            if (down_only[static_cast<std::size_t>(r)]) continue;
            for (int p = 0; p < kMeshPorts; ++p) {
                const int x = nb(r, p);
                if (x < 0 || !up(r, x)) continue;
                const int c = cost[static_cast<std::size_t>(x)] + 1;
                int& mine = cost[static_cast<std::size_t>(r)];
                if (mine < 0 || c < mine) mine = c;
            }
        }
        for (int r = 0; r < n; ++r) {
            if (r == dst) continue;
            const bool down = down_only[static_cast<std::size_t>(r)];
            for (int p = 0; p < kMeshPorts; ++p) {
                const int x = nb(r, p);
                if (x < 0 || up(r, x) == down) continue;  // down-only routers go down, the others up
                if (down && !down_only[static_cast<std::size_t>(x)]) continue;
                if (cost[static_cast<std::size_t>(x)] + 1 == cost[static_cast<std::size_t>(r)]) {
                    g.next_port[static_cast<std::size_t>(r) * un + static_cast<std::size_t>(dst)] = static_cast<std::int8_t>(p);
                    break;
                }
            }
        }
    }
    g.hops.assign(un * un, 0);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            for (int at = a; at != b; ++g.hops[static_cast<std::size_t>(a) * un + static_cast<std::size_t>(b)])
                at = nb(at, g.next_port[static_cast<std::size_t>(at) * un + static_cast<std::size_t>(b)]);
    t.graph_ = std::make_shared<const GraphTables>(std::move(g));
    return t;
}

MeshTopology MeshTopology::of_package(const PackageConfig& p) {
    switch (p.topology) {
        case PackageTopology::Torus:
            return torus(p.rows, p.cols, p.routing);
        case PackageTopology::Graph:
            return graph(p.rows, p.cols, p.edges);
        case PackageTopology::Mesh:
        case PackageTopology::MeshDiagonal:
            break;
    }
    return MeshTopology(p.rows, p.cols, p.routing, p.diagonals());
}

bool MeshTopology::has_neighbor(int router, Port p) const { return neighbor(router, p) >= 0; }

int MeshTopology::neighbor(int router, Port p) const {
    if (p == Port::Local) return router;
    if (graph_) return graph_->neighbor[static_cast<std::size_t>(link_id(router, p))];
    if (is_diagonal(p) && kind_ != PackageTopology::MeshDiagonal) return -1;
    const PortStep s = step_of(p);
    int nr = row_of(router) + s.dr, nc = col_of(router) + s.dc;
    if (kind_ == PackageTopology::Torus) {
        // A ring of one has no links; a ring of two has one each way, E (or S) and its wrap.
        const int size = s.dc ? cols_ : rows_;
        if (size < 2 || (size == 2 && (s.dr < 0 || s.dc < 0))) return -1;
        return id((nr + rows_) % rows_, (nc + cols_) % cols_);
    }
    return nr >= 0 && nr < rows_ && nc >= 0 && nc < cols_ ? id(nr, nc) : -1;
}

Port MeshTopology::port_to(int router, int next) const {
    for (int p = 0; p < kMeshPorts; ++p)
        if (neighbor(router, static_cast<Port>(p)) == next) return static_cast<Port>(p);
    return Port::Local;
}

Port MeshTopology::mesh_step(int dr, int dc) const {
    if (kind_ == PackageTopology::MeshDiagonal && dr != 0 && dc != 0) {
        if (dr < 0) return dc > 0 ? Port::NorthEast : Port::NorthWest;
        return dc > 0 ? Port::SouthEast : Port::SouthWest;
    }
    Port horizontal = dc > 0 ? Port::East : Port::West;
    Port vertical = dr > 0 ? Port::South : Port::North;
    if (routing_ == Routing::XY) {
        if (dc != 0) return horizontal;
        if (dr != 0) return vertical;
    } else {
        if (dr != 0) return vertical;
        if (dc != 0) return horizontal;
    }
    return Port::Local;
}

Port MeshTopology::next_port(int at, int dst) const {
    if (graph_) {
        const std::int8_t p =
            graph_->next_port[static_cast<std::size_t>(at) * static_cast<std::size_t>(routers()) + static_cast<std::size_t>(dst)];
        return p < 0 ? Port::Local : static_cast<Port>(p);
    }
    if (kind_ == PackageTopology::Torus)
        return mesh_step(ring_offset(row_of(at), row_of(dst), rows_), ring_offset(col_of(at), col_of(dst), cols_));
    return mesh_step(row_of(dst) - row_of(at), col_of(dst) - col_of(at));
}

std::vector<int> MeshTopology::path(int src, int dst) const {
    std::vector<int> out{src};
    for (int at = src; at != dst;) {
        at = neighbor(at, next_port(at, dst));
        out.push_back(at);
    }
    return out;
}

int MeshTopology::hops(int src, int dst) const {
    if (graph_)
        return graph_->hops[static_cast<std::size_t>(src) * static_cast<std::size_t>(routers()) + static_cast<std::size_t>(dst)];
    if (kind_ == PackageTopology::Torus)
        return std::abs(ring_offset(row_of(src), row_of(dst), rows_)) + std::abs(ring_offset(col_of(src), col_of(dst), cols_));
    const int dr = std::abs(row_of(src) - row_of(dst)), dc = std::abs(col_of(src) - col_of(dst));
    return diagonals() ? std::max(dr, dc) : dr + dc;
}

std::vector<int> MeshTopology::path_links(int src, int dst) const {
    std::vector<int> out;
    for (int at = src; at != dst;) {
        Port p = next_port(at, dst);
        out.push_back(link_id(at, p));
        at = neighbor(at, p);
    }
    return out;
}

std::vector<int> MeshTopology::route_links(const std::vector<int>& route) const {
    std::vector<int> out;
    for (std::size_t h = 1; h < route.size(); ++h) out.push_back(link_id(route[h - 1], port_to(route[h - 1], route[h])));
    return out;
}

LinkClass MeshTopology::link_class(int link) const {
    if (graph_) return graph_->link_class[static_cast<std::size_t>(link)];
    return link_class_of(static_cast<Port>(link % kMeshPorts));
}

Port MeshTopology::in_port(int link) const {
    const auto p = static_cast<Port>(link % kMeshPorts);
    if (graph_) return port_to(neighbor(link / kMeshPorts, p), link / kMeshPorts);
    return opposite(p);
}

bool MeshTopology::wraps(int link) const {
    if (kind_ != PackageTopology::Torus) return false;
    const int router = link / kMeshPorts;
    const PortStep s = step_of(static_cast<Port>(link % kMeshPorts));
    const int r = row_of(router) + s.dr, c = col_of(router) + s.dc;
    return r < 0 || r >= rows_ || c < 0 || c >= cols_;
}

int MeshTopology::dateline_step(int link, int& dim, int& cls) const {
    const int d = static_cast<int>(link_class(link));
    if (d != dim) dim = d, cls = 0;  // a new ring: below the dateline again
    if (wraps(link)) cls = 1;
    return cls;
}

std::string grid_router_name(int row, int col) { return "r" + std::to_string(row) + "_" + std::to_string(col); }

std::string MeshTopology::router_name(int router) const { return grid_router_name(row_of(router), col_of(router)); }

std::string MeshTopology::router_account(int router) const {
    return "router_" + std::to_string(row_of(router)) + "_" + std::to_string(col_of(router));
}

std::string MeshTopology::link_name(int link) const {
    if (graph_)
        return router_name(link / kMeshPorts) + "-" +
               router_name(neighbor(link / kMeshPorts, static_cast<Port>(link % kMeshPorts)));
    return router_name(link / kMeshPorts) + "." + to_string(static_cast<Port>(link % kMeshPorts));
}

}  // namespace mcmsim
