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

NocTopology NocTopology::of_mesh(const MeshTopology& m) {
    NocTopologyKind kind = NocTopologyKind::Mesh;
    int ports = grid_port(Port::South) + 1;
    switch (m.kind()) {
        case PackageTopology::Mesh:
            break;
        case PackageTopology::Torus:
            kind = NocTopologyKind::Torus;
            break;
        case PackageTopology::MeshDiagonal:
            kind = NocTopologyKind::DiagonalMesh;
            ports = grid_port(Port::SouthWest) + 1;
            break;
        case PackageTopology::Graph:
            kind = NocTopologyKind::Graph;
            ports = kMeshPorts + 1;
            break;
    }
    NocTopology t(kind, m.rows(), m.cols(), ports);
    // 0 = X (along a row), 1 = Y (along a column), 2 = diagonal: the link class's number,
    // which the package's VC network takes as the channel's link class.
    for (int r = 0; r < m.routers(); ++r)
        for (int pi = 0; pi < kMeshPorts; ++pi) {
            const auto p = static_cast<Port>(pi);
            const int nb = m.neighbor(r, p);
            if (nb < 0) continue;
            const int link = MeshTopology::link_id(r, p);
            t.add_channel(r, grid_port(p), nb, grid_port(m.in_port(link)), static_cast<int>(m.link_class(link)), m.wraps(link));
            if (kind == NocTopologyKind::Graph) t.channel_names_.push_back(m.link_name(link));
        }
    return t;
}

// Geometry only: the routing of the mesh is the routing function's (make_routing).
NocTopology NocTopology::mesh(int rows, int cols) { return of_mesh(MeshTopology(rows, cols, Routing::XY)); }

NocTopology NocTopology::diagonal_mesh(int rows, int cols) { return of_mesh(MeshTopology(rows, cols, Routing::XY, true)); }

NocTopology NocTopology::torus(int rows, int cols) { return of_mesh(MeshTopology::torus(rows, cols, Routing::XY)); }

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
    if (!channel_names_.empty()) return channel_names_[static_cast<std::size_t>(c)];
    if (!names_.empty()) return router_name(channels_[c].src) + ".p" + std::to_string(channels_[c].src_port);
    return router_name(channels_[c].src) + "." + to_string(mesh_port(channels_[c].src_port));
}

}  // namespace mcmsim
