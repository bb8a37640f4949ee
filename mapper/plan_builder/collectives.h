#pragma once
// Collective algorithms for one-to-many data movement: how one chiplet's bytes reach several
// chiplets that all need the same bytes (the all-gather and multicast patterns of a layer's
// input redistribution). Pure C++, no plan types: the plan builder turns the hops into
// send/recv transfers, a relay forwarding only after its own recv (store and forward).
//
//  direct  the root sends every destination its own copy (one hop each, routed by the package).
//  ring    a Hamiltonian ring of the grid in snake order, so that neighbours on the ring are
//          neighbours in the package (rows x cols with an even side; otherwise, e.g. 1 x n or
//          3 x 3, the snake path, closed into a ring on a torus by its wrap-around links). The bytes travel both ways round from
//          the root, about half of the destinations each way, each destination forwarding to the next one on its side. In a full
//          all-gather every hop is one package link.
//  2d      along the root's grid row first (a chain each way from the root, through every
//          column that holds a destination), then each chiplet of that row along its column
//          (a chain each way). A row chiplet relays even when it needs nothing itself. Or
//          columns first (DimOrder), as Themis orders its chunks.
//  tree    a binomial tree over the destinations in ring order from the root: a chiplet that
//          holds the bytes for a range of the order sends them to the first chiplet of the
//          range's second half, which becomes responsible for that half (ceil(log2(n + 1))
//          rounds for n destinations).
//  synth   not here: synthesised for the package's links, all multicasts of a phase at
//          once (collective_synthesis.h; the plan builder's transfer batch asks for them).
//  themis  not here: 2d trees in chunks, each chunk rows or columns first as the phase's link
//          loads ask (themis_schedule.h).
#include "hw/common/id_vector.h"
#include "mapper/mapping/chiplet_group.h"
#include "mapper/mapping/mapping.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace mcmsim {

/// Which dimension a 2d tree takes first: along the root's row, or along its column.
enum class DimOrder { RowsFirst, ColumnsFirst };

/// One forwarding step: `from` sends the bytes to `to`. `parent` indexes the hop that brought
/// them to `from` (-1: `from` is the root); `depth` is the number of hops before this one.
struct CollectiveHop {
    int from = 0, to = 0;
    int parent = -1;
    int depth = 0;
    bool consumer = true;  ///< `to` needs the bytes (false: a 2d row relay that only forwards)
};

/// The grid's chiplets (row-major ids) in ring order starting at chiplet 0, and whether the
/// order closes into a cycle (false: a path, e.g. a 1 x n line or an odd x odd grid of a
/// mesh; `wraps`, a torus, closes those through its wrap-around links).
struct RingOrder {
    std::vector<int> order;
    bool cyclic = false;
};
RingOrder ring_order(int rows, int cols, bool wraps = false);

/// The hops by which `root`'s bytes reach every chiplet of `dests` (distinct, root excluded)
/// under `algorithm` on a rows x cols grid. Every destination is the `to` of exactly one hop;
/// a hop's parent comes before it. Direct gives one depth-0 hop per destination.
std::vector<CollectiveHop> collective_hops(Collective algorithm, int rows, int cols, int root, const std::vector<int>& dests);

/// The same on a group of a pkg_rows x pkg_cols package (package ids): the rings, rows and
/// columns are the group's own, so a layer placed on a band of the package keeps its relays
/// inside the band. `dests` lie in the group. A root outside the group (a producer placed
/// on another group) sends once to the destination nearest to it (fewest grid steps, then
/// the lowest id), which then acts as the root for the rest. The whole package as the group
/// gives exactly the hops of the overload above.
std::vector<CollectiveHop> collective_hops(Collective algorithm, int pkg_rows, int pkg_cols, const ChipletGroup& group, int root,
                                           const std::vector<int>& dests);

/// Where bytes from `root`, outside a group, enter it: the index in `dests` (non-empty) of
/// the destination fewest grid steps away on a grid of `pkg_cols` columns, ties to the
/// lowest id.
std::size_t group_entry(int root, const std::vector<int>& dests, int pkg_cols);

/// collective_hops() for a caller that asks thousands of times (the plan builder): keeps its
/// working memory and the last grid's ring order from one call to the next.
class CollectivePlanner {
public:
    /// The hops of collective_hops(algorithm, pkg_rows, pkg_cols, group, root, dests), valid
    /// until the next call.
    const std::vector<CollectiveHop>& hops(Collective algorithm, int pkg_rows, int pkg_cols, const ChipletGroup& group, int root,
                                           const std::vector<int>& dests);
    /// The same on the whole rows x cols grid (collective_hops() without a group).
    const std::vector<CollectiveHop>& hops(Collective algorithm, int rows, int cols, int root, const std::vector<int>& dests);
    /// Whether the whole grid's rows and columns wrap around (a torus): its ring closes.
    void set_wraps(bool wraps) { wraps_ = wraps; }
    /// Which dimension the next 2d trees take first (rows, unless set).
    void set_order(DimOrder order) { order_ = order; }

private:
    void grid_hops(Collective algorithm, int rows, int cols, int root, const std::vector<int>& dests, bool wraps,
                   std::vector<CollectiveHop>& out);
    // The forwarding edges of the relayed algorithms (grid_hops() has set is_dest_).
    void ring_edges(Collective algorithm, int rows, int cols, int root, const std::vector<int>& dests, bool wraps);
    void two_d_edges(int rows, int cols, int root, const std::vector<int>& dests, bool columns_first);
    // The forwarding edges of one call, in the order added per chiplet.
    void add(int from, int to, bool consumer);
    void chain(int from, const std::vector<int>& seq);  ///< from -> seq[0] -> seq[1] -> ...
    /// The edges breadth first from the root: every hop after the hop that feeds it.
    void list_hops(int root, std::vector<CollectiveHop>& out);

    struct Edge {
        int to;
        bool consumer;
        int next;  ///< the next edge of the same chiplet, -1: none
    };
    IdVector<Edge> edges_;
    IdVector<int> first_, last_;    ///< [chiplet] its first and last edge (-1: none)
    IdVector<char> is_dest_;        ///< [chiplet] a destination of this call
    IdVector<char> column_needed_;  ///< [line crossing the first] 2d: holds a destination
    bool wraps_ = false;
    DimOrder order_ = DimOrder::RowsFirst;
    int ring_rows_ = -1, ring_cols_ = -1;  ///< the grid ring_ and pos_ are for
    bool ring_wraps_ = false;
    RingOrder ring_;
    IdVector<int> pos_;  ///< [chiplet] its place in ring_.order
    std::vector<int> seq_, one_way_, other_way_, right_, left_, down_, up_, local_;
    std::vector<std::pair<std::size_t, std::size_t>> ranges_;  ///< tree: ranges of seq_ still to hand out
    std::vector<std::pair<int, int>> frontier_, next_;
    std::vector<CollectiveHop> out_, group_hops_;
};

}  // namespace mcmsim
