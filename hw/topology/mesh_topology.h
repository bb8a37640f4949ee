#pragma once
// Geometry and dimension-order routing of the package mesh. Pure C++, shared by the SystemC
// network (to forward packets) and the mapper's analytical model (to load links), so that
// both see exactly the same paths.
#include <string>
#include <vector>

namespace mcmsim {

enum class Port : int { East = 0, West = 1, North = 2, South = 3, Local = 4 };
constexpr int kMeshPorts = 4;  ///< network ports per router (Local excluded)

const char* to_string(Port p);

enum class Routing { XY, YX };

class MeshTopology {
public:
    MeshTopology(int rows, int cols, Routing routing);

    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int routers() const { return rows_ * cols_; }
    int row_of(int router) const { return router / cols_; }
    int col_of(int router) const { return router % cols_; }
    int id(int row, int col) const { return row * cols_ + col; }

    bool has_neighbor(int router, Port p) const;
    int neighbor(int router, Port p) const;  ///< -1 at the mesh edge

    /// Output port a packet at `at` takes towards `dst` (Local when at == dst).
    Port next_port(int at, int dst) const;
    /// Routers visited from src to dst, both included.
    std::vector<int> path(int src, int dst) const;
    int hops(int src, int dst) const;

    /// Directed router-to-router links are numbered router * 4 + port.
    int link_slots() const { return routers() * kMeshPorts; }
    static int link_id(int router, Port p) { return router * kMeshPorts + static_cast<int>(p); }
    /// Link ids along the path src -> dst.
    std::vector<int> path_links(int src, int dst) const;
    std::string router_name(int router) const;  ///< "r2_3" (row 2, col 3)
    std::string link_name(int link) const;      ///< "r2_3.E"

private:
    int rows_, cols_;
    Routing routing_;
};

}  // namespace mcmsim
