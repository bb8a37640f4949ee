#include "hw/topology/mesh_topology.h"

#include "hw/config/package_config.h"

#include <algorithm>
#include <cstdlib>

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

MeshTopology::MeshTopology(int rows, int cols, Routing routing, bool diagonals)
    : rows_(rows), cols_(cols), routing_(routing), diagonals_(diagonals) {}

MeshTopology MeshTopology::of_package(const PackageConfig& p) { return MeshTopology(p.rows, p.cols, p.routing, p.diagonals()); }

bool MeshTopology::has_neighbor(int router, Port p) const { return neighbor(router, p) >= 0; }

int MeshTopology::neighbor(int router, Port p) const {
    if (is_diagonal(p) && !diagonals_) return -1;
    if (p == Port::Local) return router;
    const PortStep s = step_of(p);
    const int nr = row_of(router) + s.dr, nc = col_of(router) + s.dc;
    return nr >= 0 && nr < rows_ && nc >= 0 && nc < cols_ ? id(nr, nc) : -1;
}

Port MeshTopology::port_to(int router, int next) const {
    for (int p = 0; p < kMeshPorts; ++p)
        if (neighbor(router, static_cast<Port>(p)) == next) return static_cast<Port>(p);
    return Port::Local;
}

Port MeshTopology::step_towards(int dr, int dc) const {
    if (diagonals_ && dr != 0 && dc != 0) {
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

std::vector<int> MeshTopology::path(int src, int dst) const {
    std::vector<int> out{src};
    for (int at = src; at != dst;) {
        at = neighbor(at, next_port(at, dst));
        out.push_back(at);
    }
    return out;
}

int MeshTopology::hops(int src, int dst) const {
    const int dr = std::abs(row_of(src) - row_of(dst)), dc = std::abs(col_of(src) - col_of(dst));
    return diagonals_ ? std::max(dr, dc) : dr + dc;
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

std::string grid_router_name(int row, int col) { return "r" + std::to_string(row) + "_" + std::to_string(col); }

std::string MeshTopology::router_name(int router) const { return grid_router_name(row_of(router), col_of(router)); }

std::string MeshTopology::router_account(int router) const {
    return "router_" + std::to_string(row_of(router)) + "_" + std::to_string(col_of(router));
}

std::string MeshTopology::link_name(int link) const {
    return router_name(link / kMeshPorts) + "." + to_string(static_cast<Port>(link % kMeshPorts));
}

}  // namespace mcmsim
