#pragma once
// Router graphs for the flit-level network: which router port leads to which router.
// Pure C++ (no SystemC), so routing functions, the analytical zero-load model and tests can
// all walk the same graph.
//
// Port 0 of every router is its local port (injection / ejection). Grid topologies give the
// network ports fixed meanings (GridPort) so that dimension-order routing can name them; a
// port a router does not have simply has no channel.
#include <string>
#include <vector>

namespace mcmsim {

enum class NocTopologyKind { Mesh, Torus, DiagonalMesh, Graph };

constexpr int kLocalPort = 0;
/// Fixed port numbers on grid routers. Diagonal ports exist only on diagonal meshes.
enum GridPort : int { kEast = 1, kWest = 2, kNorth = 3, kSouth = 4, kNorthEast = 5, kNorthWest = 6,
                      kSouthEast = 7, kSouthWest = 8 };

/// A directed router-to-router link.
struct NocChannel {
    int src = -1, src_port = -1;  ///< leaves router `src` through its output port `src_port`
    int dst = -1, dst_port = -1;  ///< enters router `dst` through its input port `dst_port`
    int link_class = 0;           ///< which link parameters apply (index into the config's link table)
    bool dateline = false;        ///< torus wrap-around: crossing it moves a packet to the upper VC class
    int dim = -1;                 ///< 0 = X (along a row), 1 = Y (along a column), 2 = diagonal
};

class NocTopology {
public:
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
    std::vector<NocChannel>& mutable_channels() { return channels_; }

    /// Fewest router-to-router hops between two routers (breadth-first on the graph).
    int min_hops(int src, int dst) const;
    std::string router_name(int r) const;  ///< "r2_3"
    std::string channel_name(int c) const; ///< "r2_3.E"

private:
    NocTopology(NocTopologyKind kind, int rows, int cols, int ports);
    void add_channel(int src, int src_port, int dst, int dst_port, int dim, bool dateline);

    NocTopologyKind kind_;
    int rows_, cols_, ports_;
    std::vector<int> out_, in_;
    std::vector<int> row_, col_;          ///< per router
    std::vector<NocChannel> channels_;
    std::vector<std::vector<int>> dist_;  ///< all-pairs hop counts, computed once
    std::vector<std::string> names_;      ///< custom graphs only
};

const char* grid_port_name(int port);

}  // namespace mcmsim
