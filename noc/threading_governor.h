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
            if (cycles_ == (keep_workers_ ? kKeepWorkersCycles : kKeepAloneCycles)) next(Phase::ProbeWorkers);
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
