// The package topologies beyond the mesh: a torus (wrap-around links, the short way round,
// dateline classes) and a graph (any links, up*/down* routing by destination). Expected
// paths are worked out by hand from the definitions; deadlock freedom is checked on the
// channel dependency graph every routed path induces, which must have no cycle.
#include "hw/config/arch_config.h"
#include "hw/config/package_config.h"
#include "hw/topology/mesh_topology.h"
#include "hw/topology/noc_topology.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

namespace mcmsim {
namespace test_package_topology {

TEST(PackageTorus, WrapAroundLinksCloseEveryRingTheShortWayRound) {
    const MeshTopology t = MeshTopology::torus(4, 5, Routing::XY);
    EXPECT_TRUE(t.torus());
    EXPECT_EQ(t.neighbor(0, Port::West), 4);            // row 0 wraps to its last column
    EXPECT_EQ(t.neighbor(0, Port::North), t.id(3, 0));  // column 0 wraps to its last row
    EXPECT_EQ(t.neighbor(4, Port::East), 0);
    EXPECT_EQ(t.neighbor(0, Port::NorthEast), -1);  // no diagonals
    EXPECT_TRUE(t.wraps(MeshTopology::link_id(0, Port::West)));
    EXPECT_FALSE(t.wraps(MeshTopology::link_id(0, Port::East)));
    // (0,0) to (0,4): one hop west round the wrap rather than four east.
    EXPECT_EQ(t.next_port(0, 4), Port::West);
    EXPECT_EQ(t.hops(0, 4), 1);
    // Corner to corner: one hop each way round.
    EXPECT_EQ(t.hops(0, t.id(3, 4)), 2);
    EXPECT_EQ(t.path(0, t.id(3, 4)), (std::vector<int>{0, 4, t.id(3, 4)}));
    // YX takes the column first.
    EXPECT_EQ(MeshTopology::torus(4, 5, Routing::YX).path(0, t.id(3, 4)), (std::vector<int>{0, t.id(3, 0), t.id(3, 4)}));
    // Wrap links are of their ring's class.
    EXPECT_EQ(t.link_class(MeshTopology::link_id(0, Port::West)), LinkClass::Row);
    EXPECT_EQ(t.link_class(MeshTopology::link_id(0, Port::North)), LinkClass::Column);
    EXPECT_EQ(t.in_port(MeshTopology::link_id(0, Port::West)), Port::East);
}

TEST(PackageTorus, TiesGoThePositiveWayAndRingsOfTwoHaveOneLinkEachWay) {
    const MeshTopology ring = MeshTopology::torus(1, 4, Routing::XY);
    EXPECT_EQ(ring.next_port(0, 2), Port::East);  // two either way: east
    EXPECT_EQ(ring.next_port(2, 0), Port::East);  // and from 2, east again, over the wrap
    EXPECT_EQ(ring.path(2, 0), (std::vector<int>{2, 3, 0}));
    EXPECT_EQ(ring.neighbor(0, Port::North), -1);  // a column of one router has no links
    const MeshTopology two = MeshTopology::torus(1, 2, Routing::XY);
    EXPECT_EQ(two.neighbor(0, Port::East), 1);
    EXPECT_EQ(two.neighbor(1, Port::East), 0);
    EXPECT_TRUE(two.wraps(MeshTopology::link_id(1, Port::East)));
    EXPECT_EQ(two.neighbor(0, Port::West), -1);
    EXPECT_EQ(two.neighbor(1, Port::West), -1);
    EXPECT_EQ(two.path(1, 0), (std::vector<int>{1, 0}));
}

/// The VC classes a packet takes hop by hop along the routed path.
std::vector<int> dateline_classes(const MeshTopology& t, int src, int dst) {
    std::vector<int> out;
    int dim = -1, cls = 0;
    for (int l : t.path_links(src, dst)) out.push_back(t.dateline_step(l, dim, cls));
    return out;
}

TEST(PackageTorus, DatelineClassRisesAtTheWrapAndRestartsOnTheNextRing) {
    const MeshTopology ring = MeshTopology::torus(1, 5, Routing::XY);
    EXPECT_EQ(dateline_classes(ring, 3, 1), (std::vector<int>{0, 0}));  // 3 -> 2 -> 1, no wrap
    EXPECT_EQ(dateline_classes(ring, 4, 1), (std::vector<int>{1, 1}));  // 4 -> 0 over the wrap -> 1
    const MeshTopology t = MeshTopology::torus(3, 3, Routing::XY);
    // (0,2) -> (0,0) east over the wrap, then (0,0) -> (1,0) south: a new ring, lower again.
    EXPECT_EQ(t.path(t.id(0, 2), t.id(1, 0)), (std::vector<int>{t.id(0, 2), t.id(0, 0), t.id(1, 0)}));
    EXPECT_EQ(dateline_classes(t, t.id(0, 2), t.id(1, 0)), (std::vector<int>{1, 0}));
}

/// Whether the channel dependency graph of every routed path has a cycle. A node is a
/// (link, VC class) pair; each path adds an edge between consecutive hops.
bool dependency_cycle(const MeshTopology& t, bool classes) {
    std::map<std::pair<int, int>, std::set<std::pair<int, int>>> next;
    for (int a = 0; a < t.routers(); ++a)
        for (int b = 0; b < t.routers(); ++b) {
            std::vector<std::pair<int, int>> hops;
            int dim = -1, cls = 0;
            for (int l : t.path_links(a, b)) hops.emplace_back(l, classes ? t.dateline_step(l, dim, cls) : 0);
            for (std::size_t i = 1; i < hops.size(); ++i) next[hops[i - 1]].insert(hops[i]);
        }
    std::map<std::pair<int, int>, int> state;  // 1 on the stack, 2 done
    std::function<bool(const std::pair<int, int>&)> visit = [&](const std::pair<int, int>& v) {
        state[v] = 1;
        for (const auto& w : next[v]) {
            if (state[w] == 1) return true;
            if (state[w] == 0 && visit(w)) return true;
        }
        state[v] = 2;
        return false;
    };
    for (const auto& [v, out] : next)
        if (state[v] == 0 && visit(v)) return true;
    return false;
}

TEST(PackageTorus, DatelineClassesBreakTheRingsDependencyCycles) {
    // Rings of 4 and more: shorter ones route every pair in one hop per ring, with no chain.
    for (auto [rows, cols] : {std::pair<int, int>{1, 6}, {4, 4}, {3, 5}, {2, 4}}) {
        const MeshTopology t = MeshTopology::torus(rows, cols, Routing::XY);
        EXPECT_TRUE(dependency_cycle(t, false)) << rows << "x" << cols << ": a ring's links close a cycle";
        EXPECT_FALSE(dependency_cycle(t, true)) << rows << "x" << cols;
    }
}

/// A ring of six as a graph on a 1 x 6 grid.
MeshTopology six_ring() {
    std::vector<PackageEdge> e;
    for (int i = 0; i < 6; ++i) e.push_back({i, (i + 1) % 6, LinkClass::Row});
    return MeshTopology::graph(1, 6, e);
}

// Levels from router 0: 0; 1 and 5; 2 and 4; 3. Up leads to a lower (level, id). 2 -> 3 is
// down and 3 -> 4 up, so 2 cannot reach 4 through 3: it climbs to the root and comes down.
// 3 -> 4 is up (level 3 to 2), a path of its own. Towards 2, only 1 and 0 come down to it;
// 4 climbs through 5 to 0 first.
TEST(PackageGraph, UpDownRoutesOnARingByHand) {
    const MeshTopology g = six_ring();
    EXPECT_EQ(g.kind(), PackageTopology::Graph);
    EXPECT_EQ(g.path(2, 4), (std::vector<int>{2, 1, 0, 5, 4}));
    EXPECT_EQ(g.hops(2, 4), 4);
    EXPECT_EQ(g.path(3, 4), (std::vector<int>{3, 4}));
    EXPECT_EQ(g.path(4, 2), (std::vector<int>{4, 5, 0, 1, 2}));
    EXPECT_EQ(g.path(3, 2), (std::vector<int>{3, 2}));
    EXPECT_EQ(g.hops(0, 3), 3);
    // Ports in list order: router 0 is in links 0-1 (its port 0) and 5-0 (its port 1).
    EXPECT_EQ(g.neighbor(0, static_cast<Port>(0)), 1);
    EXPECT_EQ(g.neighbor(0, static_cast<Port>(1)), 5);
    EXPECT_EQ(g.neighbor(0, static_cast<Port>(2)), -1);
    // 5's links: 4-5 (its port 0), then 5-0 (its port 1), through which 0 -> 5 enters.
    EXPECT_EQ(g.in_port(MeshTopology::link_id(0, static_cast<Port>(1))), static_cast<Port>(1));
    EXPECT_EQ(g.link_name(MeshTopology::link_id(0, static_cast<Port>(1))), "r0_0-r0_5");
}

/// An irregular 3 x 4 graph: rows with gaps, an express link along a column, a diagonal.
std::vector<PackageEdge> irregular_edges() {
    return {{0, 1, LinkClass::Row},    {1, 2, LinkClass::Row},    {2, 3, LinkClass::Row},      {4, 5, LinkClass::Row},
            {6, 7, LinkClass::Row},    {8, 9, LinkClass::Row},    {9, 10, LinkClass::Row},     {10, 11, LinkClass::Row},
            {0, 4, LinkClass::Column}, {4, 8, LinkClass::Column}, {3, 7, LinkClass::Column},   {7, 11, LinkClass::Column},
            {2, 6, LinkClass::Column}, {1, 9, LinkClass::Column}, {5, 10, LinkClass::Diagonal}};
}

TEST(PackageGraph, PathsAreTreesPerDestinationAndFreeOfDependencyCycles) {
    const MeshTopology g = MeshTopology::graph(3, 4, irregular_edges());
    for (int dst = 0; dst < g.routers(); ++dst)
        for (int src = 0; src < g.routers(); ++src) {
            const std::vector<int> p = g.path(src, dst);
            ASSERT_EQ(p.front(), src);
            ASSERT_EQ(p.back(), dst);
            EXPECT_EQ(static_cast<int>(p.size()) - 1, g.hops(src, dst));
            EXPECT_EQ(std::set<int>(p.begin(), p.end()).size(), p.size()) << "a router twice from " << src << " to " << dst;
            for (std::size_t i = 1; i < p.size(); ++i) {
                EXPECT_NE(g.port_to(p[i - 1], p[i]), Port::Local);
                // From any router on the way, the rest of the path is that router's own.
                EXPECT_EQ(g.path(p[i], dst), std::vector<int>(p.begin() + static_cast<std::ptrdiff_t>(i), p.end()));
            }
        }
    EXPECT_FALSE(dependency_cycle(g, false));
    // The same links routed by shortest paths alone would close cycles: the check can fail.
    EXPECT_TRUE(dependency_cycle(MeshTopology::torus(1, 6, Routing::XY), false));
    // Where a link is on the shortest path and legal, it is taken: 1 -> 9 is one express hop.
    EXPECT_EQ(g.hops(1, 9), 1);
    EXPECT_EQ(g.link_class(MeshTopology::link_id(5, g.port_to(5, 10))), LinkClass::Diagonal);
}

TEST(PackageGraph, BadGraphsAreRejected) {
    EXPECT_THROW(MeshTopology::graph(1, 3, {{0, 1, LinkClass::Row}}), std::invalid_argument);  // 2 cut off
    EXPECT_THROW(MeshTopology::graph(1, 2, {{0, 0, LinkClass::Row}}), std::invalid_argument);
    EXPECT_THROW(MeshTopology::graph(1, 2, {{0, 1, LinkClass::Row}, {1, 0, LinkClass::Row}}), std::invalid_argument);
    EXPECT_THROW(MeshTopology::graph(1, 2, {{0, 2, LinkClass::Row}}), std::invalid_argument);
}

// The router graph of the VC networks: one channel per link, its far end's input the link's
// in_port, dateline set on a torus's wrap links only, names as the package's.
TEST(PackageGraph, NocTopologyFollowsThePackage) {
    const MeshTopology g = MeshTopology::graph(3, 4, irregular_edges());
    const NocTopology t = NocTopology::of_mesh(g);
    EXPECT_EQ(t.kind(), NocTopologyKind::Graph);
    EXPECT_EQ(t.channels().size(), 2 * irregular_edges().size());
    for (int c = 0; c < static_cast<int>(t.channels().size()); ++c) {
        const NocChannel& ch = t.channel(c);
        const int link = MeshTopology::link_id(ch.src, mesh_port(ch.src_port));
        EXPECT_EQ(ch.dst, g.neighbor(ch.src, mesh_port(ch.src_port)));
        EXPECT_EQ(mesh_port(ch.dst_port), g.in_port(link));
        EXPECT_EQ(t.channel_name(c), g.link_name(link));
        EXPECT_FALSE(ch.dateline);
    }
    const MeshTopology torus = MeshTopology::torus(2, 3, Routing::XY);
    const NocTopology tt = NocTopology::of_mesh(torus);
    EXPECT_EQ(tt.kind(), NocTopologyKind::Torus);
    int datelines = 0;
    for (const NocChannel& ch : tt.channels()) datelines += ch.dateline;
    // Rows of 3: two wrap links each (E of the last, W of the first); columns of 2: one (S).
    EXPECT_EQ(datelines, 2 * 2 + 3 * 1);
}

TEST(PackageGraph, ArchConfigReadsEdgesAndWritesThemBack) {
    json doc = json::parse(R"({"rows": 2, "cols": 3, "topology": "graph",
        "edges": [[0, 1], [1, 2], {"between": [0, 4], "class": "row"}, [3, 4], [2, 5], [1, 4]]})");
    const PackageConfig p = read_package(json_root(doc, "pkg.json").object(), "pkg.json");
    ASSERT_EQ(p.edges.size(), 6u);
    EXPECT_EQ(p.edges[2], (PackageEdge{0, 4, LinkClass::Row}));  // as given, not by position
    EXPECT_EQ(p.edges[3].link_class, LinkClass::Row);
    EXPECT_EQ(p.edges[4].link_class, LinkClass::Column);
    EXPECT_TRUE(p.has_link_class(LinkClass::Column));
    EXPECT_FALSE(p.has_link_class(LinkClass::Diagonal));
    const json back = package_to_json(p);
    EXPECT_FALSE(back.contains("routing"));
    const PackageConfig again = read_package(json_root(back, "back.json").object(), "back.json");
    EXPECT_EQ(again.edges, p.edges);
}

}  // namespace test_package_topology
}  // namespace mcmsim
