#pragma once
// Geometry and routing of the package: chiplets on a grid of rows x cols, one router each,
// and the die-to-die links between them. Pure C++, the one description of the package that
// the packet network (to forward packets), the VC network (its router graph and routing,
// NocTopology::of_mesh and PackageRouting), the plan builder and the analytical model (to
// load links) share, so that all of them see exactly the same links and paths.
//
// Routing depends only on the router a packet is at and its destination, on every topology,
// so the routed paths towards one destination form a tree (the analytical model loads links
// tree by tree). The package topologies ("topology" in the arch config's package):
//  mesh           4 ports per router (E, W, N, S); dimension-order routing, XY or YX.
//  mesh_diagonal  the mesh plus die-to-die links between diagonal neighbours (NE, NW, SE,
//                 SW; MCMComm-style). Routing is diagonal-first: diagonal hops while both
//                 offsets are non-zero, then straight along the one dimension left (so XY
//                 and YX agree). Paths are minimal: max(|dr|, |dc|) hops (Chebyshev
//                 distance). Deadlock: a packet takes one diagonal direction, then one
//                 straight one, so channel dependencies only go diagonal -> straight.
//  torus          the mesh plus a wrap-around link closing every row and column into a ring
//                 (E of the last column leads to the first; a ring of two routers has one
//                 link each way: E, and its wrap-around back). Dimension order (XY or YX),
//                 the short way round each ring, ties the positive way (E, S). Deadlock: the
//                 VC networks use dateline classes (dateline_step).
//  graph          any connected set of links between chiplets (PackageConfig::edges), up to
//                 kMeshPorts per router, port k being a router's k-th link in the list.
//                 Routing is up*/down* (Autonet), made a function of (router, destination):
//                 see graph() below. Paths are legal up*/down* paths, minimal among them for
//                 most pairs, not always minimal in the graph.
#include "hw/config/package_config.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mcmsim {

/// Router ports. Diagonal ports exist only on mesh_diagonal packages. On a graph package the
/// values are port numbers only: port k is the router's k-th link.
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
/// Network ports per router (Local excluded): the stride of link ids. A plain mesh or a torus
/// uses the first four; slots without a link have none.
constexpr int kMeshPorts = 8;

const char* to_string(Port p);
/// The link class of the link behind grid port `p` (meshes and tori; MeshTopology::link_class
/// answers for every topology).
constexpr LinkClass link_class_of(Port p) {
    return static_cast<int>(p) >= static_cast<int>(Port::NorthEast) ? LinkClass::Diagonal
           : p == Port::East || p == Port::West                     ? LinkClass::Row
                                                                    : LinkClass::Column;
}
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

/// Offset along a ring of `size` routers from position `from` to `to`, the short way round:
/// > 0 the positive direction, < 0 the negative one; ties go the positive way.
constexpr int ring_offset(int from, int to, int size) {
    const int d = ((to - from) % size + size) % size;
    return d == 0 ? 0 : d <= size / 2 ? d : d - size;
}

class MeshTopology {
public:
    /// A mesh, with or without diagonal links.
    MeshTopology(int rows, int cols, Routing routing, bool diagonals = false);
    /// A torus: every row and column closed into a ring.
    static MeshTopology torus(int rows, int cols, Routing routing);
    /// A graph of `edges` between the chiplets of a rows x cols grid (row-major ids). Throws
    /// std::invalid_argument for an edge outside the grid or onto itself, a repeated edge, a
    /// router with more than kMeshPorts links, or a graph that is not connected.
    ///
    /// Routing, up*/down* by destination: a breadth-first search from router 0 (ports in
    /// order) gives each router a level; a link to a router of lower (level, id) is "up". A
    /// legal path takes up links, then only down links, so no cycle of channel dependencies
    /// can close in any VC class. For each destination, the routers that can reach it on down
    /// links alone take the shortest such path; every other router takes an up link towards
    /// the nearest of them (fewest hops in all). The root reaches everything downwards, so
    /// every router has a path, and a packet that has gone down is only ever at routers whose
    /// path stays down. Ties go to the lowest port.
    static MeshTopology graph(int rows, int cols, const std::vector<PackageEdge>& edges);
    /// The package's topology: its size, "topology", "routing" and, for a graph, "edges".
    static MeshTopology of_package(const PackageConfig& p);

    PackageTopology kind() const { return kind_; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int routers() const { return rows_ * cols_; }
    int row_of(int router) const { return router / cols_; }
    int col_of(int router) const { return router % cols_; }
    int id(int row, int col) const { return row * cols_ + col; }
    bool diagonals() const { return kind_ == PackageTopology::MeshDiagonal; }
    bool torus() const { return kind_ == PackageTopology::Torus; }
    Routing routing() const { return routing_; }

    bool has_neighbor(int router, Port p) const;
    int neighbor(int router, Port p) const;  ///< -1 where the port has no link
    /// The port of `router` that leads to `next`, or Local when they are not neighbours.
    Port port_to(int router, int next) const;

    /// Output port a packet at `at` takes towards `dst` (Local when at == dst): every router of
    /// every package network takes this decision.
    Port next_port(int at, int dst) const;
    /// Routers visited from src to dst, both included.
    std::vector<int> path(int src, int dst) const;
    /// Router-to-router hops of the routed path: Manhattan distance on a mesh, Chebyshev
    /// distance with diagonals, ring distances on a torus, the path's length on a graph.
    int hops(int src, int dst) const;

    /// Directed router-to-router links are numbered router * kMeshPorts + port.
    int link_slots() const { return routers() * kMeshPorts; }
    static int link_id(int router, Port p) { return router * kMeshPorts + static_cast<int>(p); }
    /// Link ids along the path src -> dst.
    std::vector<int> path_links(int src, int dst) const;
    /// Link ids along an explicit route (routers, consecutive ones neighbours; not checked).
    std::vector<int> route_links(const std::vector<int>& route) const;
    /// The link class of link `link` (row, column or diagonal: which link config it uses).
    LinkClass link_class(int link) const;
    /// The port through which link `link` enters the router at its far end: the opposite
    /// grid port on a mesh or torus, the far router's port back on a graph.
    Port in_port(int link) const;
    /// Whether link `link` is a torus's wrap-around link (its ring's dateline).
    bool wraps(int link) const;
    /// Dateline VC classes on a torus: a packet taking link `link` uses the lower class (0)
    /// until it crosses the wrap-around link of the ring it travels and the upper class (1)
    /// after, and starts again below on its next ring. `dim` (the link class of the ring, -1
    /// before the first hop) and `cls` are the packet's state, updated for the hop; the class
    /// of the VC the hop enters is returned. Shortest-way routing crosses a ring's wrap-around
    /// at most once, so neither class closes a ring of channel dependencies.
    int dateline_step(int link, int& dim, int& cls) const;
    std::string router_name(int router) const;  ///< "r2_3" (row 2, col 3)
    /// "r2_3.E", "r2_3.NE" on meshes and tori; "r2_3-r3_0" (from, to) on graphs.
    std::string link_name(int link) const;
    /// Energy ledger accounts of a router ("router_2_3") and of a link ("link.r2_3.E"): both
    /// package networks and the analytical model book into these.
    std::string router_account(int router) const;
    std::string link_account(int link) const { return "link." + link_name(link); }

private:
    /// What a graph's routing needs, made once and shared by copies.
    struct GraphTables {
        std::vector<int> neighbor;           ///< [link slot]: -1 without a link
        std::vector<LinkClass> link_class;   ///< [link slot]
        std::vector<std::int8_t> next_port;  ///< [at * routers + dst]: -1 when at == dst
        std::vector<int> hops;               ///< [src * routers + dst]
    };
    MeshTopology(PackageTopology kind, int rows, int cols, Routing routing);
    /// The grid routing decision of a mesh on the offsets (rows, columns) left.
    Port mesh_step(int dr, int dc) const;

    PackageTopology kind_;
    int rows_, cols_;
    Routing routing_;
    std::shared_ptr<const GraphTables> graph_;  ///< graphs only
};

}  // namespace mcmsim
