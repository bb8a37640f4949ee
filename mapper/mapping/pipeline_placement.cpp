#include "mapper/mapping/pipeline_placement.h"

#include "hw/common/input_error.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace mcmsim {

namespace {

/// The smallest possible largest-segment MACs over all cuts of `macs` into `segments`
/// non-empty contiguous parts: best[s][i] = min over j of max(best[s-1][j], sum(j..i)).
std::int64_t min_bottleneck(const std::vector<std::int64_t>& prefix, int segments) {
    const std::size_t n = prefix.size() - 1;
    constexpr std::int64_t kInf = std::numeric_limits<std::int64_t>::max();
    std::vector<std::int64_t> prev(n + 1, kInf), cur(n + 1, kInf);
    for (std::size_t i = 1; i <= n; ++i) prev[i] = prefix[i];
    for (int s = 2; s <= segments; ++s) {
        std::fill(cur.begin(), cur.end(), kInf);
        for (std::size_t i = static_cast<std::size_t>(s); i <= n; ++i)
            for (std::size_t j = static_cast<std::size_t>(s) - 1; j < i; ++j)
                cur[i] = std::min(cur[i], std::max(prev[j], prefix[i] - prefix[j]));
        std::swap(prev, cur);
    }
    return prev[n];
}

/// Columns per segment: one each, then each further column to the segment with the most MACs
/// per column (ties: the earlier one).
IdVector<int> apportion_columns(const IdVector<std::int64_t>& macs, int cols) {
    IdVector<int> given(macs.size(), 1);
    for (int left = cols - macs.size(); left > 0; --left) {
        int best = 0;
        for (int s = 1; s < macs.size(); ++s)  // macs[s] / given[s] > macs[best] / given[best]
            if (static_cast<__int128>(macs[s]) * given[best] > static_cast<__int128>(macs[best]) * given[s]) best = s;
        ++given[best];
    }
    return given;
}

PipelinePlacement finish(const Workload& w, int rows, int cols, const std::vector<std::size_t>& firsts) {
    PipelinePlacement p;
    p.segment_of.assign(w.layers.size(), 0);
    IdVector<std::int64_t> macs;  // [segment]
    for (std::size_t s = 0; s < firsts.size(); ++s) {
        PipelineSegment seg;
        seg.first = firsts[s];
        seg.last = s + 1 < firsts.size() ? firsts[s + 1] : w.layers.size();
        for (std::size_t l = seg.first; l < seg.last; ++l) {
            seg.macs += w.layers[l].macs();
            p.segment_of[l] = static_cast<int>(s);
        }
        macs.push_back(seg.macs);
        p.segments.push_back(seg);
    }
    const IdVector<int> band = apportion_columns(macs, cols);
    int col = 0;
    for (int s = 0; s < p.segments.size(); ++s) {
        p.segments[s].group = ChipletGroup{0, col, rows, band[s]};
        col += band[s];
    }
    return p;
}

void check_count(const Workload& w, int cols, int segments) {
    if (segments < 1 || segments > cols || static_cast<std::size_t>(segments) > w.layers.size())
        throw RequestError(
            "segments",
            "a segment count from 1 to " +
                std::to_string(std::min<std::size_t>(static_cast<std::size_t>(std::max(cols, 0)), w.layers.size())) +
                " (at most one per grid column and per layer)",
            std::to_string(segments));
}

}  // namespace

PipelinePlacement pipeline_placement(const Workload& w, int rows, int cols, int segments) {
    check_count(w, cols, segments);
    const std::size_t n = w.layers.size();
    std::vector<std::int64_t> prefix(n + 1, 0);
    for (std::size_t l = 0; l < n; ++l) prefix[l + 1] = prefix[l] + w.layers[l].macs();
    const std::int64_t limit = min_bottleneck(prefix, segments);
    // Front to back, each segment as long as the limit allows while leaving one layer for
    // every segment still to come. A cut reaching the limit exists, and taking the most layers
    // each time never leaves the rest needing more segments than there are.
    std::vector<std::size_t> firsts;
    std::size_t at = 0;
    for (int s = 0; s < segments; ++s) {
        firsts.push_back(at);
        const std::size_t keep = static_cast<std::size_t>(segments - s - 1);  // layers left for the later segments
        std::size_t end = at + 1;
        if (keep == 0) end = n;
        else
            while (end < n - keep && prefix[end + 1] - prefix[at] <= limit) ++end;
        at = end;
    }
    if (prefix[n] - prefix[firsts.back()] > limit) throw std::logic_error("pipeline_placement: cut above the bottleneck");
    return finish(w, rows, cols, firsts);
}

PipelinePlacement pipeline_placement_at(const Workload& w, int rows, int cols, const std::vector<std::size_t>& starts) {
    check_count(w, cols, static_cast<int>(starts.size()) + 1);
    std::vector<std::size_t> firsts{0};
    for (std::size_t s : starts) {
        if (s <= firsts.back() || s >= w.layers.size())
            throw InputError("", "segment boundaries", "first layers increasing from 1 to " + std::to_string(w.layers.size() - 1),
                             std::to_string(s));
        firsts.push_back(s);
    }
    return finish(w, rows, cols, firsts);
}

void apply_placement(Mapping& m, const PipelinePlacement& p, std::int64_t micro_batch) {
    if (m.layers.size() != p.segment_of.size()) throw std::invalid_argument("apply_placement: one segment per layer");
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const int s = p.segment_of[l];
        m.layers[l].segment = s;
        m.layers[l].group = p.segments[s].group;
    }
    m.micro_batch = micro_batch;
}

}  // namespace mcmsim
