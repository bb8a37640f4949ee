#include "noc/synthetic/saturation_check.h"

#include <cmath>

namespace mcmsim {

double mann_kendall_z(const std::vector<double>& x) {
    const std::size_t n = x.size();
    if (n < 2) return 0.0;
    double s = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) s += (x[j] > x[i]) - (x[j] < x[i]);
    const double nn = static_cast<double>(n);
    const double sd = std::sqrt(nn * (nn - 1) * (2 * nn + 5) / 18.0);
    if (s > 0) return (s - 1) / sd;  // continuity correction: S moves in steps of 2
    if (s < 0) return (s + 1) / sd;
    return 0.0;
}

SaturationVerdict judge_saturation(double offered, double accepted, bool drained, std::int64_t undelivered,
                                   const std::vector<double>& backlog) {
    using C = SaturationCriteria;
    SaturationVerdict v;
    v.undelivered = undelivered > 0;
    v.not_drained = !drained;
    v.throughput_shortfall = offered > 0 ? 1.0 - accepted / offered : 0.0;
    v.throughput = v.throughput_shortfall > C::kThroughputTolerance;
    if (drained && !backlog.empty()) {
        v.backlog_trend_z = mann_kendall_z(backlog);
        double half[2] = {0, 0};
        std::size_t count[2] = {0, 0};
        for (std::size_t k = 0; k < backlog.size(); ++k) {
            const int h = 2 * k < backlog.size() ? 0 : 1;
            half[h] += backlog[k];
            ++count[h];
        }
        const double first = count[0] ? half[0] / static_cast<double>(count[0]) : 0.0;
        if (first > 0 && count[1]) v.backlog_growth_ratio = half[1] / static_cast<double>(count[1]) / first - 1.0;
        v.backlog_growth = *v.backlog_trend_z > C::kTrendZ && v.backlog_growth_ratio.value_or(0.0) > C::kGrowthTolerance;
    }
    v.saturated = v.undelivered || v.not_drained || v.throughput || v.backlog_growth;
    return v;
}

}  // namespace mcmsim
