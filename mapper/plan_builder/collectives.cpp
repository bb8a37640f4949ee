#include "mapper/plan_builder/collectives.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace mcmsim {

RingOrder ring_order(int rows, int cols, bool wraps) {
    RingOrder r;
    auto id = [&](int row, int col) { return row * cols + col; };
    if (rows >= 2 && cols >= 2 && (rows % 2 == 0 || cols % 2 == 0)) {
        // Along the first line, snake back and forth over the others leaving out their first
        // element, then return along the left-out elements: an even number of snake lines
        // ends next to the return path.
        const bool by_rows = rows % 2 == 0;
        const int lines = by_rows ? rows : cols, len = by_rows ? cols : rows;
        auto at = [&](int line, int i) { return by_rows ? id(line, i) : id(i, line); };
        for (int i = 0; i < len; ++i) r.order.push_back(at(0, i));
        for (int line = 1; line < lines; ++line)
            for (int j = 1; j < len; ++j) r.order.push_back(at(line, line % 2 == 1 ? len - j : j));
        for (int line = lines - 1; line >= 1; --line) r.order.push_back(at(line, 0));
        r.cyclic = true;
        return r;
    }
    // A line, or odd x odd (a grid graph with an odd number of nodes has no Hamiltonian
    // cycle): the snake path.
    for (int row = 0; row < rows; ++row)
        for (int j = 0; j < cols; ++j) r.order.push_back(id(row, row % 2 == 0 ? j : cols - 1 - j));
    // On a torus the wrap-around links close the path: a 1 x n line's ends are neighbours, an
    // odd x odd grid's two links apart.
    r.cyclic = wraps && r.order.size() > 2;
    return r;
}

void CollectivePlanner::add(int from, int to, bool consumer) {
    const int e = edges_.size();
    edges_.push_back(Edge{to, consumer, -1});
    int& last = last_[from];
    if (last < 0) first_[from] = e;
    else edges_[last].next = e;
    last = e;
}

void CollectivePlanner::chain(int from, const std::vector<int>& seq) {
    for (int c : seq) {
        add(from, c, is_dest_[c] != 0);
        from = c;
    }
}

void CollectivePlanner::list_hops(int root, std::vector<CollectiveHop>& out) {
    out.clear();
    frontier_.assign(1, {root, -1});  // (chiplet, hop that reached it)
    for (int depth = 0; !frontier_.empty(); ++depth) {
        next_.clear();
        for (auto [node, via] : frontier_)
            for (int e = first_[node]; e >= 0; e = edges_[e].next) {
                const Edge& edge = edges_[e];
                out.push_back(CollectiveHop{node, edge.to, via, depth, edge.consumer});
                next_.push_back({edge.to, static_cast<int>(out.size()) - 1});
            }
        frontier_.swap(next_);
    }
}

const std::vector<CollectiveHop>& CollectivePlanner::hops(Collective algorithm, int rows, int cols, int root,
                                                          const std::vector<int>& dests) {
    grid_hops(algorithm, rows, cols, root, dests, wraps_, out_);
    return out_;
}

void CollectivePlanner::grid_hops(Collective algorithm, int rows, int cols, int root, const std::vector<int>& dests, bool wraps,
                                  std::vector<CollectiveHop>& out) {
    const int n = rows * cols;
    is_dest_.assign(n, 0);
    for (int d : dests) {
        if (d < 0 || d >= n || d == root || is_dest_[d])
            throw std::invalid_argument("collective_hops: destinations must be distinct chiplets other than the root");
        is_dest_[d] = 1;
    }
    edges_.clear();
    first_.assign(n, -1);
    last_.assign(n, -1);
    switch (algorithm) {
        case Collective::Direct:
            for (int d : dests) add(root, d, true);
            break;
        case Collective::Ring:
        case Collective::Tree:
            ring_edges(algorithm, rows, cols, root, dests, wraps);
            break;
        case Collective::TwoD:
            two_d_edges(rows, cols, root, dests, order_ == DimOrder::ColumnsFirst);
            break;
        case Collective::Themis:  // chunks and their orders need the whole phase
            throw std::invalid_argument("collective_hops: themis chunks come from themis_orders()");
        case Collective::Synth:  // needs the package's links and the whole phase
            throw std::invalid_argument("collective_hops: synth trees come from synthesise_multicasts()");
    }
    list_hops(root, out);
}

/// Ring and tree: the destinations in ring order from the root; a tree halves that order, a
/// ring chains it both ways round (or along the path, each side of the root outwards).
void CollectivePlanner::ring_edges(Collective algorithm, int rows, int cols, int root, const std::vector<int>& dests,
                                   bool wraps) {
    const int n = rows * cols;
    if (rows != ring_rows_ || cols != ring_cols_ || wraps != ring_wraps_) {
        ring_ = ring_order(rows, cols, wraps);
        pos_.resize(n);
        int at = 0;
        for (int c : ring_.order) pos_[c] = at++;
        ring_rows_ = rows, ring_cols_ = cols, ring_wraps_ = wraps;
    }
    const IdVector<int>& pos = pos_;
    const int rp = pos[root];
    auto rel = [&](int c) { return (pos[c] - rp + n) % n; };
    std::vector<int>& seq = seq_;  // in ring order after the root
    seq.assign(dests.begin(), dests.end());
    std::sort(seq.begin(), seq.end(), [&](int a, int b) { return rel(a) < rel(b); });
    if (algorithm == Collective::Tree) {
        // Recursive halving of the order (root at index 0): whoever holds [lo, hi) hands its
        // second half to that half's first chiplet, largest half first.
        seq.insert(seq.begin(), root);
        ranges_.assign(1, {0, seq.size()});
        for (std::size_t i = 0; i < ranges_.size(); ++i) {
            auto [lo, hi] = ranges_[i];
            while (hi - lo > 1) {
                const std::size_t mid = lo + (hi - lo + 1) / 2;
                add(seq[lo], seq[mid], true);
                ranges_.push_back({mid, hi});
                hi = mid;
            }
        }
        return;
    }
    std::vector<int>& one_way = one_way_;
    std::vector<int>& other_way = other_way_;
    one_way.clear(), other_way.clear();
    if (ring_.cyclic) {
        // Round the cycle both ways: the first half of the order clockwise, the rest
        // counter-clockwise from the far end.
        const std::size_t k = (seq.size() + 1) / 2;
        one_way.assign(seq.begin(), seq.begin() + static_cast<std::ptrdiff_t>(k));
        other_way.assign(seq.rbegin(), seq.rend() - static_cast<std::ptrdiff_t>(k));
    } else {
        // Along the path: each side of the root outwards.
        auto at = [&](int c) { return pos[c]; };
        for (int c : seq) (at(c) > rp ? one_way : other_way).push_back(c);
        std::sort(one_way.begin(), one_way.end(), [&](int a, int b) { return at(a) < at(b); });
        std::sort(other_way.begin(), other_way.end(), [&](int a, int b) { return at(a) > at(b); });
    }
    chain(root, one_way);
    chain(root, other_way);
}

/// 2d: along the root's row, then along each column from that row (or, columns first, along
/// its column, then along each row from it).
void CollectivePlanner::two_d_edges(int rows, int cols, int root, const std::vector<int>& dests, bool columns_first) {
    // Position `a` along the first line, `b` across it: a column and a row, or the reverse.
    const int along = columns_first ? rows : cols, across = columns_first ? cols : rows;
    auto id = [&](int a, int b) { return columns_first ? a * cols + b : b * cols + a; };
    const int a0 = columns_first ? root / cols : root % cols, b0 = columns_first ? root % cols : root / cols;
    column_needed_.assign(along, 0);  // [a]: a crossing line holds a destination
    for (int d : dests) column_needed_[columns_first ? d / cols : d % cols] = 1;
    // First phase: a chain each way from the root through the crossing lines that need the bytes.
    right_.clear(), left_.clear();
    for (int a = a0 + 1; a < along; ++a)
        if (column_needed_[a]) right_.push_back(id(a, b0));
    for (int a = a0 - 1; a >= 0; --a)
        if (column_needed_[a]) left_.push_back(id(a, b0));
    chain(root, right_);
    chain(root, left_);
    // Second phase: each chiplet of the root's line, a chain each way along its crossing line.
    for (int a = 0; a < along; ++a) {
        if (!column_needed_[a]) continue;
        down_.clear(), up_.clear();
        for (int b = b0 + 1; b < across; ++b)
            if (is_dest_[id(a, b)]) down_.push_back(id(a, b));
        for (int b = b0 - 1; b >= 0; --b)
            if (is_dest_[id(a, b)]) up_.push_back(id(a, b));
        chain(id(a, b0), down_);
        chain(id(a, b0), up_);
    }
}

const std::vector<CollectiveHop>& CollectivePlanner::hops(Collective algorithm, int pkg_rows, int pkg_cols,
                                                          const ChipletGroup& group, int root, const std::vector<int>& dests) {
    const ChipletGroup g = group.on(pkg_rows, pkg_cols);
    if (g == ChipletGroup{0, 0, pkg_rows, pkg_cols} || algorithm == Collective::Direct)
        return hops(algorithm, pkg_rows, pkg_cols, root, dests);
    if (!g.fits(pkg_rows, pkg_cols)) throw std::invalid_argument("collective_hops: the group lies outside the package");
    std::vector<int>& local = local_;
    local.clear();
    for (int d : dests) {
        const int i = g.local(d, pkg_cols);
        if (i < 0) throw std::invalid_argument("collective_hops: destinations must lie in the group");
        local.push_back(i);
    }
    std::vector<CollectiveHop>& out = out_;
    out.clear();
    int local_root = g.local(root, pkg_cols);
    if (local_root < 0 && !dests.empty()) {
        // The bytes enter the group once, at the destination nearest to the root.
        const std::size_t e = group_entry(root, dests, pkg_cols);
        out.push_back(CollectiveHop{root, dests[e], -1, 0, true});
        local_root = local[e];
        local.erase(local.begin() + static_cast<std::ptrdiff_t>(e));
    }
    if (local_root < 0) return out;                  // no destinations
    const int entry = static_cast<int>(out.size());  // 1 when the bytes came in from outside
    grid_hops(algorithm, g.rows, g.cols, local_root, local, false, group_hops_);
    for (CollectiveHop h : group_hops_) {
        h.from = g.chiplet(h.from, pkg_cols);
        h.to = g.chiplet(h.to, pkg_cols);
        h.parent = h.parent >= 0 ? h.parent + entry : entry - 1;  // the entry hop feeds the group's roots
        h.depth += entry;
        out.push_back(h);
    }
    return out;
}

std::size_t group_entry(int root, const std::vector<int>& dests, int pkg_cols) {
    auto steps = [&](int a, int b) { return std::abs(a / pkg_cols - b / pkg_cols) + std::abs(a % pkg_cols - b % pkg_cols); };
    std::size_t e = 0;
    for (std::size_t i = 1; i < dests.size(); ++i) {
        const int si = steps(root, dests[i]), se = steps(root, dests[e]);
        if (si < se || (si == se && dests[i] < dests[e])) e = i;
    }
    return e;
}

std::vector<CollectiveHop> collective_hops(Collective algorithm, int rows, int cols, int root, const std::vector<int>& dests) {
    CollectivePlanner planner;
    return planner.hops(algorithm, rows, cols, root, dests);
}

std::vector<CollectiveHop> collective_hops(Collective algorithm, int pkg_rows, int pkg_cols, const ChipletGroup& group, int root,
                                           const std::vector<int>& dests) {
    CollectivePlanner planner;
    return planner.hops(algorithm, pkg_rows, pkg_cols, group, root, dests);
}

}  // namespace mcmsim
