#pragma once
// Routing functions: given where a head flit is and where it goes, the output port and the
// VC class it may use downstream. All are minimal. Deadlock freedom comes from the turn
// rules of each algorithm, and on tori from dateline VC classes.
#include "hw/topology/noc_topology.h"
#include "noc/vc/flit.h"

#include <memory>
#include <string>

namespace mcmsim {

/// Which downstream VCs a packet may take: the lower or the upper half (dateline / escape
/// classes), or any of them.
enum class VcClass : std::uint8_t { Lower = 0, Upper = 1, Any = 2 };

struct RouteDecision {
    int port = kLocalPort;
    VcClass vc_class = VcClass::Any;
};

/// What an adaptive algorithm may look at: free buffer slots behind each output port.
class PortLoad {
public:
    virtual ~PortLoad() = default;
    virtual int free_slots(int port) const = 0;
};

class RoutingFunction {
public:
    virtual ~RoutingFunction() = default;
    /// Route the head of a packet at router `at` towards router `dst`; `state` travels with the
    /// packet. `load` is null when routing off-line (zero-load model, path walks).
    virtual RouteDecision route(int at, int dst, RouteState& state, const PortLoad* load) const = 0;
    /// True when route() depends on `at` and `dst` only (no state, no load) and leaves the VC
    /// class open (Any): then a router may look its decisions up in a table made once.
    virtual bool position_only() const { return false; }
};

/// The package's routing on the router graph built from it (NocTopology::of_mesh):
/// MeshTopology::next_port decides, so a VC network walks the paths the packet network and
/// the analytical model walk: dimension order on a mesh (deadlock-free by its turns),
/// diagonal-first on a mesh with diagonals (channel dependencies go diagonal -> straight),
/// dimension order the short way round each ring on a torus, up*/down* by destination on a
/// graph (no cycle in any class). With `dateline` on a torus, a packet uses the lower VC class
/// until it crosses its ring's wrap-around link and the upper class after it
/// (MeshTopology::dateline_step), which breaks the cyclic channel dependency of the ring.
class PackageRouting : public RoutingFunction {
public:
    PackageRouting(const MeshTopology& mesh, bool dateline) : mesh_(mesh), dateline_(dateline && mesh.torus()) {}
    RouteDecision route(int at, int dst, RouteState& state, const PortLoad* load) const override;
    bool position_only() const override { return !dateline_; }

private:
    MeshTopology mesh_;
    bool dateline_;
};

/// West-first minimal adaptive (Glass & Ni turn model): all west hops first, then adaptively
/// among the productive east/north/south ports, preferring the one with more free slots.
class WestFirst : public RoutingFunction {
public:
    explicit WestFirst(const NocTopology& t) : t_(t) {}
    RouteDecision route(int at, int dst, RouteState& state, const PortLoad* load) const override;

private:
    const NocTopology& t_;
};

/// Shortest legal up*/down* paths on any graph, as a table per (router, phase, destination).
/// A breadth-first spanning tree from router 0 ranks routers by level (ties by id); a link
/// towards a lower rank is "up". Legal routes take zero or more up links, then only down
/// links, so no cycle of channel dependencies can close (Autonet). Paths are computed with
/// Boost.Graph breadth-first searches on the (router, phase) state graph; they are minimal
/// among legal routes, not always minimal in the graph.
class UpDownTable : public RoutingFunction {
public:
    explicit UpDownTable(const NocTopology& t);
    RouteDecision route(int at, int dst, RouteState& state, const PortLoad* load) const override;

private:
    const NocTopology& t_;
    int n_;
    std::vector<int> rank_;       ///< lower = closer to the root
    std::vector<int> next_port_;  ///< [(phase * n + at) * n + dst], -1 when unreachable
};

/// The routing function a config asks for (validated by the config reader).
std::unique_ptr<RoutingFunction> make_routing(const NocConfig& c, const NocTopology& t);

}  // namespace mcmsim
