#include "mapper/collectives.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace mcmsim {

const char* to_string(Collective c) {
    switch (c) {
        case Collective::Direct: return "direct";
        case Collective::Ring: return "ring";
        case Collective::TwoD: return "2d";
        case Collective::Tree: return "tree";
    }
    return "?";
}

Collective collective_from_string(const std::string& s) {
    if (s == "direct") return Collective::Direct;
    if (s == "ring") return Collective::Ring;
    if (s == "2d") return Collective::TwoD;
    if (s == "tree") return Collective::Tree;
    throw std::invalid_argument("collective \"" + s + "\" (expected direct, ring, 2d or tree)");
}

std::vector<std::string> collective_names() { return {"direct", "ring", "2d", "tree"}; }

RingOrder ring_order(int rows, int cols) {
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
    return r;
}

namespace {

/// Collects forwarding edges, then lists them breadth first from the root so that every
/// hop comes after the hop that feeds it.
class HopTree {
public:
    HopTree(int chiplets, int root) : children_(static_cast<std::size_t>(chiplets)), root_(root) {}

    void add(int from, int to, bool consumer) { children_[static_cast<std::size_t>(from)].push_back({to, consumer}); }

    /// A chain root -> seq[0] -> seq[1] -> ...
    void chain(int from, const std::vector<int>& seq, const std::vector<bool>& consumer) {
        for (int c : seq) {
            add(from, c, consumer[static_cast<std::size_t>(c)]);
            from = c;
        }
    }

    std::vector<CollectiveHop> hops() const {
        std::vector<CollectiveHop> out;
        std::vector<std::pair<int, int>> frontier{{root_, -1}};  // (chiplet, hop that reached it)
        for (int depth = 0; !frontier.empty(); ++depth) {
            std::vector<std::pair<int, int>> next;
            for (auto [node, via] : frontier)
                for (auto [to, consumer] : children_[static_cast<std::size_t>(node)]) {
                    out.push_back(CollectiveHop{node, to, via, depth, consumer});
                    next.push_back({to, static_cast<int>(out.size()) - 1});
                }
            frontier = std::move(next);
        }
        return out;
    }

private:
    std::vector<std::vector<std::pair<int, bool>>> children_;
    int root_;
};

}  // namespace

std::vector<CollectiveHop> collective_hops(Collective algorithm, int rows, int cols, int root,
                                           const std::vector<int>& dests) {
    const int n = rows * cols;
    std::vector<bool> is_dest(static_cast<std::size_t>(n), false);
    for (int d : dests) {
        if (d < 0 || d >= n || d == root || is_dest[static_cast<std::size_t>(d)])
            throw std::invalid_argument("collective_hops: destinations must be distinct chiplets other than the root");
        is_dest[static_cast<std::size_t>(d)] = true;
    }
    HopTree tree(n, root);
    switch (algorithm) {
        case Collective::Direct:
            for (int d : dests) tree.add(root, d, true);
            break;
        case Collective::Ring:
        case Collective::Tree: {
            const RingOrder ring = ring_order(rows, cols);
            std::vector<int> pos(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) pos[static_cast<std::size_t>(ring.order[static_cast<std::size_t>(i)])] = i;
            const int rp = pos[static_cast<std::size_t>(root)];
            auto rel = [&](int c) { return (pos[static_cast<std::size_t>(c)] - rp + n) % n; };
            std::vector<int> seq = dests;  // in ring order after the root
            std::sort(seq.begin(), seq.end(), [&](int a, int b) { return rel(a) < rel(b); });
            if (algorithm == Collective::Tree) {
                // Recursive halving of the order (root at index 0): whoever holds [lo, hi)
                // hands its second half to that half's first chiplet, largest half first.
                seq.insert(seq.begin(), root);
                std::vector<std::pair<int, int>> ranges{{0, static_cast<int>(seq.size())}};
                for (std::size_t i = 0; i < ranges.size(); ++i) {
                    auto [lo, hi] = ranges[i];
                    while (hi - lo > 1) {
                        const int mid = lo + (hi - lo + 1) / 2;
                        tree.add(seq[static_cast<std::size_t>(lo)], seq[static_cast<std::size_t>(mid)], true);
                        ranges.push_back({mid, hi});
                        hi = mid;
                    }
                }
                break;
            }
            std::vector<int> one_way, other_way;
            if (ring.cyclic) {
                // Round the cycle both ways: the first half of the order clockwise, the rest
                // counter-clockwise from the far end.
                const std::size_t k = (seq.size() + 1) / 2;
                one_way.assign(seq.begin(), seq.begin() + static_cast<std::ptrdiff_t>(k));
                other_way.assign(seq.rbegin(), seq.rend() - static_cast<std::ptrdiff_t>(k));
            } else {
                // Along the path: each side of the root outwards.
                auto at = [&](int c) { return pos[static_cast<std::size_t>(c)]; };
                for (int c : seq) (at(c) > rp ? one_way : other_way).push_back(c);
                std::sort(one_way.begin(), one_way.end(), [&](int a, int b) { return at(a) < at(b); });
                std::sort(other_way.begin(), other_way.end(), [&](int a, int b) { return at(a) > at(b); });
            }
            tree.chain(root, one_way, is_dest);
            tree.chain(root, other_way, is_dest);
            break;
        }
        case Collective::TwoD: {
            const int r0 = root / cols, c0 = root % cols;
            std::vector<bool> column_needed(static_cast<std::size_t>(cols), false);
            for (int d : dests) column_needed[static_cast<std::size_t>(d % cols)] = true;
            // Row phase: a chain each way from the root through the columns that need the bytes.
            std::vector<int> right, left;
            for (int c = c0 + 1; c < cols; ++c)
                if (column_needed[static_cast<std::size_t>(c)]) right.push_back(r0 * cols + c);
            for (int c = c0 - 1; c >= 0; --c)
                if (column_needed[static_cast<std::size_t>(c)]) left.push_back(r0 * cols + c);
            tree.chain(root, right, is_dest);
            tree.chain(root, left, is_dest);
            // Column phase: each chiplet of the root's row, a chain each way along its column.
            for (int c = 0; c < cols; ++c) {
                if (!column_needed[static_cast<std::size_t>(c)]) continue;
                std::vector<int> down, up;
                for (int r = r0 + 1; r < rows; ++r)
                    if (is_dest[static_cast<std::size_t>(r * cols + c)]) down.push_back(r * cols + c);
                for (int r = r0 - 1; r >= 0; --r)
                    if (is_dest[static_cast<std::size_t>(r * cols + c)]) up.push_back(r * cols + c);
                tree.chain(r0 * cols + c, down, is_dest);
                tree.chain(r0 * cols + c, up, is_dest);
            }
            break;
        }
    }
    return tree.hops();
}

std::vector<CollectiveHop> collective_hops(Collective algorithm, int pkg_rows, int pkg_cols, const ChipletGroup& group,
                                           int root, const std::vector<int>& dests) {
    const ChipletGroup g = group.on(pkg_rows, pkg_cols);
    if (g == ChipletGroup{0, 0, pkg_rows, pkg_cols} || algorithm == Collective::Direct)
        return collective_hops(algorithm, pkg_rows, pkg_cols, root, dests);
    if (!g.fits(pkg_rows, pkg_cols)) throw std::invalid_argument("collective_hops: the group lies outside the package");
    std::vector<int> local;
    for (int d : dests) {
        const int i = g.local(d, pkg_cols);
        if (i < 0) throw std::invalid_argument("collective_hops: destinations must lie in the group");
        local.push_back(i);
    }
    std::vector<CollectiveHop> out;
    int local_root = g.local(root, pkg_cols);
    if (local_root < 0 && !dests.empty()) {
        // The bytes enter the group once, at the destination nearest to the root.
        auto steps = [&](int a, int b) { return std::abs(a / pkg_cols - b / pkg_cols) + std::abs(a % pkg_cols - b % pkg_cols); };
        std::size_t e = 0;
        for (std::size_t i = 1; i < dests.size(); ++i) {
            const int si = steps(root, dests[i]), se = steps(root, dests[e]);
            if (si < se || (si == se && dests[i] < dests[e])) e = i;
        }
        out.push_back(CollectiveHop{root, dests[e], -1, 0, true});
        local_root = local[e];
        local.erase(local.begin() + static_cast<std::ptrdiff_t>(e));
    }
    if (local_root < 0) return out;  // no destinations
    const int entry = static_cast<int>(out.size());  // 1 when the bytes came in from outside
    for (CollectiveHop h : collective_hops(algorithm, g.rows, g.cols, local_root, local)) {
        h.from = g.chiplet(h.from, pkg_cols);
        h.to = g.chiplet(h.to, pkg_cols);
        h.parent = h.parent >= 0 ? h.parent + entry : entry - 1;  // the entry hop feeds the group's roots
        h.depth += entry;
        out.push_back(h);
    }
    return out;
}

}  // namespace mcmsim
