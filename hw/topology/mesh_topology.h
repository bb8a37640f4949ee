#pragma once
// Geometry and routing of the package mesh. Pure C++, shared by the SystemC network (to
// forward packets) and the mapper's analytical model (to load links), so that both see
// exactly the same paths.
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
    East = 0, West = 1, North = 2, South = 3,
    NorthEast = 4, NorthWest = 5, SouthEast = 6, SouthWest = 7,
    Local = 8
};
/// Network ports per router (Local excluded): the stride of link ids. A plain mesh uses the
/// first four; its diagonal slots have no link.
constexpr int kMeshPorts = 8;

const char* to_string(Port p);

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
    Port next_port(int at, int dst) const;
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

private:
    int rows_, cols_;
    Routing routing_;
    bool diagonals_;
};

}  // namespace mcmsim
