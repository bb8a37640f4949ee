#pragma once
// How a layer's work is split over the chiplet grid.
//
// A layer's iteration space is N x K x C x P x Q (batch, output channels, input channels per
// group, output rows, output columns; R x S of the filter always stay whole). A partition
// gives every chiplet a box of it:
//  - one dimension split over all chiplets (rows_dim == cols_dim), in row-major order, or
//  - one dimension split along the grid rows and another along the grid columns.
// Shares make the split non-uniform (MCMComm): a chiplet's part is proportional to its share.
// Splitting C leaves partial sums that must be reduced; splitting P or Q needs input halos.
// A batched MatMul folds its heads into N (n·heads independent products) and has M = P,
// N = K, K = C. A Vector layer has no reduction (C has extent 1), so a C split of it splits
// its channels (K) instead.
// Pure C++.
#include "hw/common/id_vector.h"
#include "mapper/workload/workload.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcmsim {

enum class Dim { N, K, C, P, Q };

/// Upper case is how plans describe a partition ("K uniform"); lower case how options name it.
template <>
struct ChoiceNames<Dim> {
    static constexpr std::pair<Dim, const char*> all[] = {{Dim::N, "N"}, {Dim::N, "n"}, {Dim::K, "K"}, {Dim::K, "k"},
                                                          {Dim::C, "C"}, {Dim::C, "c"}, {Dim::P, "P"}, {Dim::P, "p"},
                                                          {Dim::Q, "Q"}, {Dim::Q, "q"}};
};

struct Range {
    std::int64_t lo = 0, hi = 0;
    std::int64_t size() const { return hi > lo ? hi - lo : 0; }
    bool empty() const { return hi <= lo; }
    bool operator==(const Range& o) const { return lo == o.lo && hi == o.hi; }
};
/// Inline: the plan builder intersects ranges millions of times per optimisation.
inline Range intersect(Range a, Range b) { return Range{a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi}; }

/// The part of a layer one chiplet computes.
struct WorkBox {
    Range n, k, c, p, q;
    bool empty() const { return n.empty() || k.empty() || c.empty() || p.empty() || q.empty(); }
    /// Same output region (n, k, p, q), whatever the input-channel range.
    bool same_output(const WorkBox& o) const { return n == o.n && k == o.k && p == o.p && q == o.q; }
};

struct Partition {
    Dim rows_dim = Dim::K;
    Dim cols_dim = Dim::K;
    /// 1-D split: one share per chiplet (row-major); 2-D: one per grid row and one per column.
    /// Empty means uniform.
    std::vector<double> shares, row_shares, col_shares;

    bool one_dimensional() const { return rows_dim == cols_dim; }
    std::string describe() const;  ///< "K over 36" or "P x K (6 x 6)"
};

/// A partition's dimensions without shares: one dimension over all chiplets (rows_dim ==
/// cols_dim) or one along grid rows and one along grid columns. Named "k" or "pxk".
struct PartitionOption {
    Dim rows_dim = Dim::K, cols_dim = Dim::K;
    bool one_dimensional() const { return rows_dim == cols_dim; }
    std::string name() const;  ///< "k" or "pxk"
    Partition uniform() const { return Partition{rows_dim, cols_dim, {}, {}, {}}; }
    bool operator==(const PartitionOption& o) const { return rows_dim == o.rows_dim && cols_dim == o.cols_dim; }
};

/// "k" (a dimension: n, k, c, p, q) or "pxk" (two different dimensions, rows x columns);
/// nothing for anything else.
std::optional<PartitionOption> parse_partition_option(std::string_view s);

/// Splits [0, extent) into parts proportional to `weights` (uniform when empty): whole
/// numbers by largest remainder, ties to the lower index, so the result is deterministic.
/// One range per part.
IdVector<Range> split_range(std::int64_t extent, int parts, const std::vector<double>& weights);

/// Extent of `d` in layer `L` (C counts input channels per group; N counts heads too).
std::int64_t extent(const Layer& L, Dim d);

/// One box per chiplet (row-major over a rows x cols grid); boxes may be empty when a
/// dimension is smaller than the number of parts.
IdVector<WorkBox> partition_layer(const Layer& L, const Partition& part, int rows, int cols);

}  // namespace mcmsim
