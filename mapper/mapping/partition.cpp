#include "mapper/mapping/partition.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace mcmsim {

std::string PartitionOption::name() const {
    auto lower = [](Dim d) {
        std::string s = to_string(d);
        s[0] = static_cast<char>(s[0] - 'A' + 'a');
        return s;
    };
    return one_dimensional() ? lower(rows_dim) : lower(rows_dim) + "x" + lower(cols_dim);
}

std::optional<PartitionOption> parse_partition_option(std::string_view s) {
    if (s.size() == 1) {
        if (auto d = parse_choice<Dim>(s)) return PartitionOption{*d, *d};
        return std::nullopt;
    }
    if (s.size() != 3 || (s[1] != 'x' && s[1] != 'X')) return std::nullopt;
    const auto rows = parse_choice<Dim>(s.substr(0, 1)), cols = parse_choice<Dim>(s.substr(2, 1));
    if (!rows || !cols || *rows == *cols) return std::nullopt;
    return PartitionOption{*rows, *cols};
}

std::string Partition::describe() const {
    std::string s = to_string(rows_dim);
    if (!one_dimensional()) s += std::string(" x ") + to_string(cols_dim);
    bool uniform = shares.empty() && row_shares.empty() && col_shares.empty();
    return s + (uniform ? " uniform" : " non-uniform");
}

IdVector<Range> split_range(std::int64_t extent, int parts, const std::vector<double>& weights) {
    IdVector<double> w = weights.empty() ? IdVector<double>(parts, 1.0) : IdVector<double>(weights);  // [part]
    if (w.size() != parts) throw std::invalid_argument("split_range: one weight per part");
    for (double& x : w) x = std::max(0.0, x);
    double total = std::accumulate(w.begin(), w.end(), 0.0);
    if (total <= 0) w.assign(w.size(), 1.0), total = static_cast<double>(parts);
    // Largest-remainder rounding keeps the parts summing exactly to the extent.
    IdVector<std::int64_t> size(parts);        // [part]
    std::vector<std::pair<double, int>> rest;  // (remainder, part)
    std::int64_t given = 0;
    for (int i = 0; i < parts; ++i) {
        double exact = static_cast<double>(extent) * w[i] / total;
        size[i] = static_cast<std::int64_t>(exact);
        given += size[i];
        rest.push_back({exact - static_cast<double>(size[i]), i});
    }
    std::stable_sort(rest.begin(), rest.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t j = 0; given < extent; ++j, ++given) ++size[rest[j % rest.size()].second];
    IdVector<Range> out;
    std::int64_t at = 0;
    for (std::int64_t s : size) {
        out.push_back(Range{at, at + s});
        at += s;
    }
    return out;
}

std::int64_t extent(const Layer& L, Dim d) {
    switch (d) {
        case Dim::N:
            return L.n * L.heads;
        case Dim::K:
            return L.k;
        case Dim::C:
            return L.kind == LayerKind::Vector ? 1 : L.c / L.groups;
        case Dim::P:
            return L.p;
        case Dim::Q:
            return L.q;
    }
    return 0;
}

namespace {

Range& field(WorkBox& b, Dim d) {
    switch (d) {
        case Dim::N:
            return b.n;
        case Dim::K:
            return b.k;
        case Dim::C:
            return b.c;
        case Dim::P:
            return b.p;
        case Dim::Q:
            return b.q;
    }
    return b.k;
}

/// A Vector layer has nothing to reduce: a C split of it splits its channels instead (and a
/// rows x cols split that would then name K twice takes P for the columns).
Partition effective_partition(const Layer& L, Partition part) {
    if (L.kind != LayerKind::Vector) return part;
    const bool one = part.one_dimensional();
    if (part.rows_dim == Dim::C) part.rows_dim = Dim::K;
    if (part.cols_dim == Dim::C) part.cols_dim = Dim::K;
    if (!one && part.rows_dim == part.cols_dim) part.cols_dim = part.rows_dim == Dim::K ? Dim::P : Dim::K;
    return part;
}

}  // namespace

IdVector<WorkBox> partition_layer(const Layer& L, const Partition& requested, int rows, int cols) {
    const Partition part = effective_partition(L, requested);
    WorkBox whole{{0, extent(L, Dim::N)}, {0, L.k}, {0, extent(L, Dim::C)}, {0, L.p}, {0, L.q}};
    const int n = rows * cols;
    IdVector<WorkBox> out(n, whole);
    if (part.one_dimensional()) {
        const IdVector<Range> ranges = split_range(extent(L, part.rows_dim), n, part.shares);
        for (int i = 0; i < n; ++i) field(out[i], part.rows_dim) = ranges[i];
        return out;
    }
    const IdVector<Range> along_rows = split_range(extent(L, part.rows_dim), rows, part.row_shares);
    const IdVector<Range> along_cols = split_range(extent(L, part.cols_dim), cols, part.col_shares);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            WorkBox& b = out[r * cols + c];
            field(b, part.rows_dim) = along_rows[r];
            field(b, part.cols_dim) = along_cols[c];
        }
    return out;
}

}  // namespace mcmsim
