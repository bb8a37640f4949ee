#pragma once
// The VC network's choice, cycle by cycle, between stepping every lane of routers on this
// thread and handing lanes to the workers (lane_worker.h). Pure C++.
#include <algorithm>
#include <cstddef>

namespace mcmsim {

/// Whether handing lanes to the workers pays, decided by measuring both ways. It does not
/// when a cycle holds too little work to hide two cross-core handoffs and the cache lines
/// that follow the work from core to core, nor when the machine has no free core (a worker
/// off its core makes every handoff wait for the scheduler). So the network alternates: a
/// short probe with the workers, a short probe without, then the faster way for a stretch,
/// and again. A probe's figure is the median time per router step over its cycles,
/// after a few cycles to settle in (a worker that slept through the other way's probe needs
/// waking): one cycle the machine spent elsewhere must not decide. The workers keep the work
/// unless one thread is clearly faster. This moves work between threads only: the simulated
/// result is the same either way.
class ThreadingGovernor {
public:
    bool use_workers() const { return phase_ == Phase::ProbeWorkers || (phase_ == Phase::Keep && keep_workers_); }
    /// A cycle stepped the way use_workers() said took `seconds` for `router_steps`.
    void record(double seconds, std::size_t router_steps) {
        const int cycle = cycles_++;
        if (phase_ == Phase::Keep) {
            if (cycles_ == (keep_workers_ ? kKeepWorkersCycles : kKeepAloneCycles)) {
                next(Phase::ProbeWorkers);
                return;
            }
            if (keep_workers_ && router_steps > 0) watch_workers(seconds / static_cast<double>(router_steps));
            return;
        }
        if (cycle >= kSettleCycles && router_steps > 0)
            samples_[samples_n_++] = seconds / static_cast<double>(router_steps);
        if (cycles_ < kProbeCycles) return;
        const double median = median_sample();
        if (phase_ == Phase::ProbeWorkers) {
            with_workers_ = median;
            next(Phase::ProbeAlone);
        } else {
            keep_workers_ = with_workers_ < kClearlyFaster * median;
            next(Phase::Keep);
        }
    }

private:
    enum class Phase { ProbeWorkers, ProbeAlone, Keep };
    static constexpr int kProbeCycles = 160, kSettleCycles = 32;
    /// How long a choice stands. One thread's is shorter: it is also the right choice while
    /// the network fills up (a cycle's work grows), and then it must not last.
    static constexpr int kKeepWorkersCycles = 4096, kKeepAloneCycles = 1024;
    static constexpr double kClearlyFaster = 1.15;  ///< one thread must beat the workers by this
    /// While the workers keep the work, windows of this many cycles are judged against their
    /// probe; one this much slower triggers a probe of one thread.
    static constexpr int kWatchCycles = 64;
    static constexpr double kClearlySlower = 1.5;

    /// While the workers keep the work: if a window of cycles runs clearly slower than their
    /// probe did (the machine took the second core away, so every handoff waits for the
    /// scheduler), measure one thread now instead of at the end of the stretch. The window
    /// stands in for a fresh probe with the workers.
    void watch_workers(double per_step) {
        samples_[samples_n_++] = per_step;
        if (samples_n_ < kWatchCycles) return;
        const double median = median_sample();
        samples_n_ = 0;
        if (median > kClearlySlower * with_workers_) {
            with_workers_ = median;
            next(Phase::ProbeAlone);
        }
    }
    void next(Phase p) {
        phase_ = p;
        cycles_ = 0;
        samples_n_ = 0;
    }
    double median_sample() {
        if (samples_n_ == 0) return 0.0;
        double* mid = samples_ + samples_n_ / 2;
        std::nth_element(samples_, mid, samples_ + samples_n_);
        return *mid;
    }

    Phase phase_ = Phase::ProbeWorkers;
    int cycles_ = 0;
    double samples_[kProbeCycles] = {};  ///< seconds per router step of each probe cycle
    int samples_n_ = 0;
    double with_workers_ = 0;  ///< median seconds per router step in the last probe with workers
    bool keep_workers_ = true;
};

}  // namespace mcmsim
