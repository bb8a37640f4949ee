#include "hw/topology/noc_topology.h"

#include <algorithm>
#include <deque>

namespace mcmsim {

NocTopology::NocTopology(NocTopologyKind kind, int rows, int cols, int ports)
    : kind_(kind), rows_(rows), cols_(cols), ports_(ports), out_(static_cast<std::size_t>(rows * cols * ports), -1), in_(out_) {
    for (int r = 0; r < rows * cols; ++r) {
        row_.push_back(r / cols);
        col_.push_back(r % cols);
    }
}

const char* NocTopology::kind_name() const {
    switch (kind_) {
        case NocTopologyKind::Mesh:
            return "mesh";
        case NocTopologyKind::Torus:
            return "torus";
        case NocTopologyKind::DiagonalMesh:
            return "diagonal_mesh";
        case NocTopologyKind::Graph:
            return "graph";
    }
    return "?";
}

void NocTopology::add_channel(int src, int src_port, int dst, int dst_port, int dim, bool dateline) {
    NocChannel c;
    c.src = src;
    c.src_port = src_port;
    c.dst = dst;
    c.dst_port = dst_port;
    c.dim = dim;
    c.dateline = dateline;
    out_[src * ports_ + src_port] = static_cast<int>(channels_.size());
    in_[dst * ports_ + dst_port] = static_cast<int>(channels_.size());
    channels_.push_back(c);
}

namespace {

/// 0 = X (along a row), 1 = Y (along a column), 2 = diagonal: the link class's number, which
/// the package's VC network takes as the channel's link class.
int dim_of(Port p) { return static_cast<int>(link_class_of(p)); }

constexpr Port kStraight[] = {Port::East, Port::West, Port::North, Port::South};

}  // namespace

NocTopology NocTopology::of_mesh(const MeshTopology& m) {
    NocTopology t(m.diagonals() ? NocTopologyKind::DiagonalMesh : NocTopologyKind::Mesh, m.rows(), m.cols(),
                  m.diagonals() ? grid_port(Port::SouthWest) + 1 : grid_port(Port::South) + 1);
    for (int r = 0; r < m.routers(); ++r)
        for (int pi = 0; pi < kMeshPorts; ++pi) {
            const auto p = static_cast<Port>(pi);
            const int nb = m.neighbor(r, p);
            if (nb >= 0) t.add_channel(r, grid_port(p), nb, grid_port(opposite(p)), dim_of(p), false);
        }
    return t;
}

// Geometry only: the routing of the mesh is the routing function's (make_routing).
NocTopology NocTopology::mesh(int rows, int cols) { return of_mesh(MeshTopology(rows, cols, Routing::XY)); }

NocTopology NocTopology::diagonal_mesh(int rows, int cols) { return of_mesh(MeshTopology(rows, cols, Routing::XY, true)); }

NocTopology NocTopology::torus(int rows, int cols) {
    NocTopology t(NocTopologyKind::Torus, rows, cols, grid_port(Port::South) + 1);
    for (int r = 0; r < t.routers(); ++r)
        for (const Port p : kStraight) {
            const PortStep s = step_of(p);
            const int dim = dim_of(p), size = dim == 0 ? cols : rows;
            if (size < 2) continue;                             // a ring of one router has no links
            if (size == 2 && (s.dr < 0 || s.dc < 0)) continue;  // 2-rings: one link per direction pair
            int nr = t.row_of(r) + s.dr, nc = t.col_of(r) + s.dc;
            const bool wrap = nr < 0 || nr >= rows || nc < 0 || nc >= cols;
            nr = (nr + rows) % rows;
            nc = (nc + cols) % cols;
            t.add_channel(r, grid_port(p), t.id(nr, nc), grid_port(opposite(p)), dim, wrap);
        }
    return t;
}

NocTopology NocTopology::graph(std::vector<std::string> names, const std::vector<GraphLink>& links) {
    const int n = static_cast<int>(names.size());
    std::vector<int> degree(static_cast<std::size_t>(n), 0);
    for (const GraphLink& l : links) {
        ++degree[static_cast<std::size_t>(l.a)];
        ++degree[static_cast<std::size_t>(l.b)];
    }
    int ports = 1;
    for (int d : degree) ports = std::max(ports, d + 1);
    NocTopology t(NocTopologyKind::Graph, 1, n, ports);
    t.names_ = std::move(names);
    std::vector<int> next_port(static_cast<std::size_t>(n), 1);
    for (const GraphLink& l : links) {
        int pa = next_port[static_cast<std::size_t>(l.a)]++, pb = next_port[static_cast<std::size_t>(l.b)]++;
        t.add_channel(l.a, pa, l.b, pb, -1, false);
        t.channels_.back().link_class = l.link_class;
        t.add_channel(l.b, pb, l.a, pa, -1, false);
        t.channels_.back().link_class = l.link_class;
    }
    return t;
}

int NocTopology::min_hops(int src, int dst) const {
    if (dist_.empty()) {
        auto& d = const_cast<std::vector<std::vector<int>>&>(dist_);
        d.assign(routers(), std::vector<int>(routers(), -1));
        for (int s = 0; s < routers(); ++s) {
            std::deque<int> q{s};
            d[s][s] = 0;
            while (!q.empty()) {
                int at = q.front();
                q.pop_front();
                for (int p = 1; p < ports_; ++p) {
                    int c = out_channel(at, p);
                    if (c < 0 || d[s][channels_[c].dst] >= 0) continue;
                    d[s][channels_[c].dst] = d[s][at] + 1;
                    q.push_back(channels_[c].dst);
                }
            }
        }
    }
    return dist_[src][dst];
}

std::string NocTopology::router_name(int r) const {
    if (!names_.empty()) return names_[static_cast<std::size_t>(r)];
    return grid_router_name(row_of(r), col_of(r));
}

std::string NocTopology::channel_name(int c) const {
    if (!names_.empty()) return router_name(channels_[c].src) + ".p" + std::to_string(channels_[c].src_port);
    return router_name(channels_[c].src) + "." + to_string(mesh_port(channels_[c].src_port));
}

}  // namespace mcmsim
