#pragma once
// Packet-latency statistics on a Boost.Histogram integer axis (one bin per cycle up to 64k
// cycles, overflow beyond): mean exactly, quantiles from the cumulative bin counts.
#include "noc/noc_config.h"

#include <boost/histogram.hpp>

#include <algorithm>
#include <cstdint>

namespace mcmsim {

class LatencyHistogram {
public:
    LatencyHistogram() : h_(boost::histogram::make_histogram(boost::histogram::axis::integer<>(0, kBins))) {}

    void add(Cycle latency) {
        h_(static_cast<int>(std::min<Cycle>(latency, kBins)));
        sum_ += static_cast<double>(latency);
        max_ = std::max(max_, latency);
        ++count_;
    }
    std::int64_t count() const { return count_; }
    double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }
    Cycle max() const { return max_; }
    /// Smallest latency L with at least fraction q of the packets at or below L.
    double quantile(double q) const {
        if (!count_) return 0;
        const double need = q * static_cast<double>(count_);
        double seen = 0;
        for (auto&& bin : boost::histogram::indexed(h_)) {  // in-range bins, in order
            seen += *bin;
            if (seen >= need) return static_cast<double>(bin.bin());
        }
        return static_cast<double>(max_);  // in the overflow bin
    }

private:
    static constexpr int kBins = 1 << 16;
    decltype(boost::histogram::make_histogram(boost::histogram::axis::integer<>(0, 1))) h_;
    double sum_ = 0;
    Cycle max_ = 0;
    std::int64_t count_ = 0;
};

}  // namespace mcmsim
