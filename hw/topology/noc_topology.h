#pragma once
// Router graphs for the flit-level network: which router port leads to which router.
// Pure C++ (no SystemC), so routing functions, the analytical zero-load model and tests can
// all walk the same graph.
//
// Port 0 of every router is its local port (injection / ejection). Grid topologies give the
// network ports the fixed meanings of the package mesh's ports (GridPort: port p + 1 is
// mesh Port p), so that grid routing can name them and a grid's channels are the mesh's
// links; a port a router does not have simply has no channel. Meshes, with or without
// diagonals, are built from MeshTopology's geometry (of_mesh): the package mesh is
// described once, in mesh_topology.h.
#include "hw/topology/mesh_topology.h"

#include <string>
#include <vector>

namespace mcmsim {

enum class NocTopologyKind { Mesh, Torus, DiagonalMesh, Graph };

constexpr int kLocalPort = 0;
/// The grid router port of mesh port `p`, and back.
constexpr int grid_port(Port p) { return p == Port::Local ? kLocalPort : static_cast<int>(p) + 1; }
constexpr Port mesh_port(int grid_port) { return grid_port == kLocalPort ? Port::Local : static_cast<Port>(grid_port - 1); }
/// Fixed port numbers on grid routers. Diagonal ports exist only on diagonal meshes.
enum GridPort : int {
    kEast = grid_port(Port::East),
    kWest = grid_port(Port::West),
    kNorth = grid_port(Port::North),
    kSouth = grid_port(Port::South),
    kNorthEast = grid_port(Port::NorthEast),
    kNorthWest = grid_port(Port::NorthWest),
    kSouthEast = grid_port(Port::SouthEast),
    kSouthWest = grid_port(Port::SouthWest)
};

/// A directed router-to-router link.
struct NocChannel {
    int src = -1, src_port = -1;  ///< leaves router `src` through its output port `src_port`
    int dst = -1, dst_port = -1;  ///< enters router `dst` through its input port `dst_port`
    int link_class = 0;           ///< which link parameters apply (index into the network's link classes)
    bool dateline = false;        ///< torus wrap-around: crossing it moves a packet to the upper VC class
    int dim = -1;                 ///< 0 = X (along a row), 1 = Y (along a column), 2 = diagonal
};

class NocTopology {
public:
    /// The router graph of a package: one channel per MeshTopology link, in link id order
    /// (router by router, ports E, W, N, S, NE, NW, SE, SW, or a graph's ports in order), named
    /// like the link, its `dim` the link's class and `dateline` set on a torus's wrap-around
    /// links. Kind Mesh, DiagonalMesh, Torus or Graph as the package's topology.
    static NocTopology of_mesh(const MeshTopology& m);
    static NocTopology mesh(int rows, int cols);
    static NocTopology torus(int rows, int cols);
    /// Mesh plus the four diagonal links of every grid square (MCMComm-style).
    static NocTopology diagonal_mesh(int rows, int cols);

    /// A bidirectional link of a custom graph between routers `a` and `b`.
    struct GraphLink {
        int a, b;
        int link_class;
    };
    /// Any graph: routers named `names`, ports numbered 1.. in the order links mention them.
    static NocTopology graph(std::vector<std::string> names, const std::vector<GraphLink>& links);

    NocTopologyKind kind() const { return kind_; }
    const char* kind_name() const;
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int routers() const { return rows_ * cols_; }
    int row_of(int r) const { return row_[static_cast<std::size_t>(r)]; }  // tables: routing runs per head
    int col_of(int r) const { return col_[static_cast<std::size_t>(r)]; }
    int id(int row, int col) const { return row * cols_ + col; }
    int ports() const { return ports_; }  ///< per router, local port included

    /// Channel leaving `router` through `port`, or -1.
    int out_channel(int router, int port) const { return out_[router * ports_ + port]; }
    /// Channel entering `router` through `port`, or -1.
    int in_channel(int router, int port) const { return in_[router * ports_ + port]; }
    const std::vector<NocChannel>& channels() const { return channels_; }
    const NocChannel& channel(int c) const { return channels_[c]; }
    /// Channel `c` uses the parameters of link class `link_class` (die-to-die links between
    /// the chiplets of a hierarchical network).
    void set_link_class(int c, int link_class) { channels_[static_cast<std::size_t>(c)].link_class = link_class; }

    /// Fewest router-to-router hops between two routers (breadth-first on the graph).
    int min_hops(int src, int dst) const;
    std::string router_name(int r) const;   ///< "r2_3"
    std::string channel_name(int c) const;  ///< "r2_3.E" (grids, as MeshTopology::link_name), "a.p1" (graphs)

private:
    NocTopology(NocTopologyKind kind, int rows, int cols, int ports);
    void add_channel(int src, int src_port, int dst, int dst_port, int dim, bool dateline);

    NocTopologyKind kind_;
    int rows_, cols_, ports_;
    std::vector<int> out_, in_;
    std::vector<int> row_, col_;  ///< per router
    std::vector<NocChannel> channels_;
    std::vector<std::vector<int>> dist_;      ///< all-pairs hop counts, computed once
    std::vector<std::string> names_;          ///< custom graphs only
    std::vector<std::string> channel_names_;  ///< package graphs only: MeshTopology::link_name
};

}  // namespace mcmsim
