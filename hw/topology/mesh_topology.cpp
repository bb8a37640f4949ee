#include "hw/topology/mesh_topology.h"

#include <cstdlib>

namespace mcmsim {

const char* to_string(Port p) {
    switch (p) {
        case Port::East: return "E";
        case Port::West: return "W";
        case Port::North: return "N";
        case Port::South: return "S";
        case Port::Local: return "L";
    }
    return "?";
}

MeshTopology::MeshTopology(int rows, int cols, Routing routing)
    : rows_(rows), cols_(cols), routing_(routing) {}

bool MeshTopology::has_neighbor(int router, Port p) const { return neighbor(router, p) >= 0; }

int MeshTopology::neighbor(int router, Port p) const {
    int r = row_of(router), c = col_of(router);
    switch (p) {
        case Port::East: return c + 1 < cols_ ? id(r, c + 1) : -1;
        case Port::West: return c > 0 ? id(r, c - 1) : -1;
        case Port::North: return r > 0 ? id(r - 1, c) : -1;
        case Port::South: return r + 1 < rows_ ? id(r + 1, c) : -1;
        case Port::Local: return router;
    }
    return -1;
}

Port MeshTopology::next_port(int at, int dst) const {
    int dr = row_of(dst) - row_of(at), dc = col_of(dst) - col_of(at);
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

std::vector<int> MeshTopology::path(int src, int dst) const {
    std::vector<int> out{src};
    for (int at = src; at != dst;) {
        at = neighbor(at, next_port(at, dst));
        out.push_back(at);
    }
    return out;
}

int MeshTopology::hops(int src, int dst) const {
    return std::abs(row_of(src) - row_of(dst)) + std::abs(col_of(src) - col_of(dst));
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

std::string MeshTopology::router_name(int router) const {
    return "r" + std::to_string(row_of(router)) + "_" + std::to_string(col_of(router));
}

std::string MeshTopology::link_name(int link) const {
    return router_name(link / kMeshPorts) + "." + to_string(static_cast<Port>(link % kMeshPorts));
}

}  // namespace mcmsim
