#pragma once
// Whether a synthetic load point is beyond saturation, judged from its measurement window.
// A load is sustainable when the backlog (packets created and not yet delivered: the source
// queues and the network) is stationary: then what is accepted equals what is offered.
// Past the knee the backlog grows without bound, which shows in two ways, each tested on
// its own:
//
//   throughput: accepted < (1 - kThroughputTolerance) x offered. Flits ejected in the window
//     are exactly the flits created in it minus the growth of the flits inside over it, so a
//     stable network falls short only by a change of its population, which Little's law
//     bounds by offered x nodes x mean latency: a fraction (mean latency / window) of offered.
//     5 % covers that for latencies up to window / 20: 500 cycles in the default window, the
//     latency above which BookSim2 calls a run unstable (latency_thres).
//   backlog growth: the window is cut into kSamples equal samples and the backlog is
//     averaged over each (every packet adds the cycles it spent inside during the sample). An
//     unstable queue grows by (offered - accepted) every cycle, so the sample means rise
//     throughout the window; a stable one gives samples (hundreds of cycles, far longer than
//     a packet stays) that are independent draws of one distribution. A Mann-Kendall trend
//     test tells the two apart: its statistic S = sum over sample pairs i < j of
//     sign(x_j - x_i) is symmetric about 0 with variance n(n-1)(2n+5)/18 for independent
//     samples, and z = (S - 1) / sd > kTrendZ (one-sided p = 0.001) flags a rising trend. So
//     that a significant but negligible drift (a stable point whose warm-up was a little
//     short) is not called saturated, the backlog of the window's second half must also
//     average more than kGrowthTolerance above that of its first half: 5 %, the relative
//     change between successive samples within which BookSim2 calls a run converged
//     (stopping_thres, acc_stopping_thres).
//
// The backlog is measured in window time, not by packet creation: the latency of packets
// created late in the window is shortened by the drain (injection stops, the queues empty
// faster than under load), which would bend a latency trend down at its end.
//
// Besides, a point whose measured packets did not all come out by the drain limit, or whose
// network did not empty, is saturated: its latency is unknown (only the packets that made it
// out would be averaged), its backlog samples are incomplete, and the network is not in a
// state to start another point from.
#include <cstdint>
#include <optional>
#include <vector>

namespace mcmsim {

struct SaturationCriteria {
    static constexpr int kSamples = 10;                   ///< samples of the measurement window
    static constexpr double kThroughputTolerance = 0.05;  ///< accepted may fall this far below offered
    static constexpr double kTrendZ = 3.09;               ///< Mann-Kendall z, one-sided p = 0.001
    static constexpr double kGrowthTolerance = 0.05;      ///< second-half over first-half backlog
};

struct SaturationVerdict {
    bool saturated = false;
    bool undelivered = false;                    ///< measured packets still inside at the drain limit
    bool not_drained = false;                    ///< the network did not empty by the drain limit
    bool throughput = false;                     ///< accepted below (1 - tolerance) x offered
    bool backlog_growth = false;                 ///< the sample backlogs rise (trend and growth both)
    double throughput_shortfall = 0;             ///< 1 - accepted / offered (0 when nothing was offered)
    std::optional<double> backlog_trend_z;       ///< Mann-Kendall z of the sample means (none: not drained)
    std::optional<double> backlog_growth_ratio;  ///< second-half mean / first-half mean - 1
};

/// Mann-Kendall z = (S - 1) / sqrt(n(n-1)(2n+5)/18) for S > 0, (S + 1) / sd for S < 0, 0 for
/// S = 0 (ties count 0 in S and are ignored in the variance, which only makes the test more
/// conservative). 0 for fewer than two values.
double mann_kendall_z(const std::vector<double>& x);

/// The verdict for a point: offered and accepted in flits/node/cycle over the window,
/// `backlog` the mean packets inside over each sample of the window, in time order (read
/// only when the network drained: until then some packets have not reported their stay).
SaturationVerdict judge_saturation(double offered, double accepted, bool drained, std::int64_t undelivered,
                                   const std::vector<double>& backlog);

}  // namespace mcmsim
