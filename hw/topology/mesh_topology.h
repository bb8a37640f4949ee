#pragma once
// Geometry and routing of the package mesh. Pure C++, the one description of the mesh that
// the packet network (to forward packets), the VC network (its router graph and routing,
// NocTopology::of_mesh and MeshRouting), the plan builder and the analytical model (to load
// links) share, so that all of them see exactly the same links and paths.
//
// Two package topologies ("topology" in the arch config's package):
//  mesh           4 ports per router (E, W, N, S); dimension-order routing, XY or YX.
//  mesh_diagonal  the mesh plus die-to-die links between diagonal neighbours (NE, NW, SE,
//                 SW; MCMComm-style). Routing is diagonal-first: diagonal hops while both
//                 offsets are non-zero, then straight along the one dimension left (so XY
//                 and YX agree). Paths are minimal: max(|dr|, |dc|) hops (Chebyshev
//                 distance). Deadlock: a packet takes one diagonal direction, then one
//                 straight one, so channel dependencies only go diagonal -> straight.
#include "hw/config/package_config.h"

#include <string>
#include <vector>

namespace mcmsim {

/// Router ports. Diagonal ports exist only on mesh_diagonal packages.
enum class Port : int {
    East = 0,
    West = 1,
    North = 2,
    South = 3,
    NorthEast = 4,
    NorthWest = 5,
    SouthEast = 6,
    SouthWest = 7,
    Local = 8
};
/// Network ports per router (Local excluded): the stride of link ids. A plain mesh uses the
/// first four; its diagonal slots have no link.
constexpr int kMeshPorts = 8;

const char* to_string(Port p);
/// The link class of the link behind network port `p`.
constexpr LinkClass link_class_of(Port p) {
    return static_cast<int>(p) >= static_cast<int>(Port::NorthEast) ? LinkClass::Diagonal
           : p == Port::East || p == Port::West                     ? LinkClass::Row
                                                                    : LinkClass::Column;
}
/// The link class of mesh link slot `link` (router x kMeshPorts + port).
constexpr LinkClass link_class_of_slot(int link) { return link_class_of(static_cast<Port>(link % kMeshPorts)); }
/// The name of the router at (row, col) of a grid: "r2_3".
std::string grid_router_name(int row, int col);

/// Row and column offset from a router to its neighbour behind port `p` (0, 0 for Local).
struct PortStep {
    int dr, dc;
};
constexpr PortStep step_of(Port p) {
    switch (p) {
        case Port::East:
            return {0, 1};
        case Port::West:
            return {0, -1};
        case Port::North:
            return {-1, 0};
        case Port::South:
            return {1, 0};
        case Port::NorthEast:
            return {-1, 1};
        case Port::NorthWest:
            return {-1, -1};
        case Port::SouthEast:
            return {1, 1};
        case Port::SouthWest:
            return {1, -1};
        case Port::Local:
            break;
    }
    return {0, 0};
}
constexpr bool is_diagonal(Port p) { return p >= Port::NorthEast && p <= Port::SouthWest; }
/// The port of the neighbour that leads back: a link's far end enters through it.
constexpr Port opposite(Port p) {
    switch (p) {
        case Port::East:
            return Port::West;
        case Port::West:
            return Port::East;
        case Port::North:
            return Port::South;
        case Port::South:
            return Port::North;
        case Port::NorthEast:
            return Port::SouthWest;
        case Port::NorthWest:
            return Port::SouthEast;
        case Port::SouthEast:
            return Port::NorthWest;
        case Port::SouthWest:
            return Port::NorthEast;
        case Port::Local:
            break;
    }
    return Port::Local;
}

class MeshTopology {
public:
    MeshTopology(int rows, int cols, Routing routing, bool diagonals = false);
    /// The package's mesh: its size, "topology" and "routing".
    static MeshTopology of_package(const PackageConfig& p);

    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int routers() const { return rows_ * cols_; }
    int row_of(int router) const { return router / cols_; }
    int col_of(int router) const { return router % cols_; }
    int id(int row, int col) const { return row * cols_ + col; }
    bool diagonals() const { return diagonals_; }
    Routing routing() const { return routing_; }

    bool has_neighbor(int router, Port p) const;
    int neighbor(int router, Port p) const;  ///< -1 at the mesh edge, or a diagonal on a plain mesh
    /// The port of `router` that leads to `next`, or Local when they are not neighbours.
    Port port_to(int router, int next) const;

    /// Output port a packet at `at` takes towards `dst` (Local when at == dst).
    Port next_port(int at, int dst) const { return step_towards(row_of(dst) - row_of(at), col_of(dst) - col_of(at)); }
    /// The routing decision itself, on the offsets (rows, columns) left to the destination:
    /// every router of every package network takes it.
    Port step_towards(int dr, int dc) const;
    /// Routers visited from src to dst, both included.
    std::vector<int> path(int src, int dst) const;
    /// Router-to-router hops of the routed path: Manhattan distance, or Chebyshev distance
    /// with diagonals.
    int hops(int src, int dst) const;

    /// Directed router-to-router links are numbered router * kMeshPorts + port.
    int link_slots() const { return routers() * kMeshPorts; }
    static int link_id(int router, Port p) { return router * kMeshPorts + static_cast<int>(p); }
    /// Link ids along the path src -> dst.
    std::vector<int> path_links(int src, int dst) const;
    /// Link ids along an explicit route (routers, consecutive ones neighbours; not checked).
    std::vector<int> route_links(const std::vector<int>& route) const;
    std::string router_name(int router) const;  ///< "r2_3" (row 2, col 3)
    std::string link_name(int link) const;      ///< "r2_3.E", "r2_3.NE"
    /// Energy ledger accounts of a router ("router_2_3") and of a link ("link.r2_3.E"): both
    /// package networks and the analytical model book into these.
    std::string router_account(int router) const;
    std::string link_account(int link) const { return "link." + link_name(link); }

private:
    int rows_, cols_;
    Routing routing_;
    bool diagonals_;
};

}  // namespace mcmsim
