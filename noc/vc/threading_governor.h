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
/// and again. A probe's figure is its wall time per router step (all its cycles' time over
/// all their steps; the network times a cycle from its start to the next one's, so that the
/// serial part between cycles counts), after a few cycles to settle in (a worker that slept through the other
/// way's probe needs waking). It is the total, not a typical cycle, because the total is
/// what a run pays: a worker descheduled now and then leaves most cycles fast and a few
/// very slow. (8x8 at 0.3 on this 2-core machine, 16 runs each way alternating, one thread
/// 3.4-4.4 M flit-hops/s: choosing by the median cycle, two threads gave 2.9-5.1 M, median
/// 4.25, 5 runs below 4 M; by the total, 3.2-5.4 M, median 4.5, 2 runs below 4 M.)
/// The workers keep the work unless one thread is clearly faster, and while they keep it,
/// each window of cycles is judged against their probe. This moves work between threads
/// only: the simulated result is the same either way.
class ThreadingGovernor {
public:
    bool use_workers() const { return phase_ == Phase::ProbeWorkers || (phase_ == Phase::Keep && keep_workers_); }
    /// A cycle stepped the way use_workers() said took `seconds` for `router_steps`.
    void record(double seconds, std::size_t router_steps) {
        const int cycle = cycles_++;
        if (phase_ == Phase::Keep) {
            if (cycles_ == (keep_workers_ ? kKeepWorkersCycles : keep_alone_cycles())) {
                next(Phase::ProbeWorkers);
                return;
            }
            if (keep_workers_) watch_workers(seconds, router_steps);
            return;
        }
        if (cycle >= kSettleCycles) add(seconds, router_steps);
        if (cycles_ < kProbeCycles) return;
        if (phase_ == Phase::ProbeWorkers) {
            with_workers_ = per_step();
            next(Phase::ProbeAlone);
        } else {
            keep_workers_ = with_workers_ < kClearlyFaster * per_step();
            losses_in_a_row_ = keep_workers_ ? 0 : std::min(losses_in_a_row_ + 1, kMaxBackOff + 1);
            next(Phase::Keep);
        }
    }

private:
    enum class Phase { ProbeWorkers, ProbeAlone, Keep };
    static constexpr int kProbeCycles = 160, kSettleCycles = 32;
    /// How long a choice stands. One thread's is shorter: it is also the right choice while
    /// the network fills up (a cycle's work grows), and then it must not last. But each
    /// probe of workers that lose costs its 160 cycles at their pace (on a busy host 2-5x one
    /// thread's), so after each loss in a row one thread keeps the work twice as long, up to
    /// 16x (16384 cycles: the probes then cost under 2 % of the run).
    static constexpr int kKeepWorkersCycles = 4096, kKeepAloneCycles = 1024, kMaxBackOff = 4;
    int keep_alone_cycles() const { return kKeepAloneCycles << std::min(std::max(losses_in_a_row_ - 1, 0), kMaxBackOff); }
    static constexpr double kClearlyFaster = 1.15;  ///< one thread must beat the workers by this
    /// While the workers keep the work, windows of this many cycles are judged against their
    /// probe; one this much slower triggers a probe of one thread.
    static constexpr int kWatchCycles = 64;
    static constexpr double kClearlySlower = 1.5;

    /// While the workers keep the work: if a window of cycles runs clearly slower than their
    /// probe did (the machine took the second core away, so handoffs wait for the
    /// scheduler), measure one thread now instead of at the end of the stretch. The window
    /// stands in for a fresh probe with the workers.
    void watch_workers(double seconds, std::size_t router_steps) {
        add(seconds, router_steps);
        if (++window_cycles_ < kWatchCycles) return;
        const double now = per_step();
        window_cycles_ = 0;
        seconds_ = 0;
        steps_ = 0;
        if (now > kClearlySlower * with_workers_) {
            with_workers_ = now;
            next(Phase::ProbeAlone);
        }
    }
    void add(double seconds, std::size_t router_steps) {
        seconds_ += seconds;
        steps_ += router_steps;
    }
    double per_step() const { return steps_ ? seconds_ / static_cast<double>(steps_) : 0.0; }
    void next(Phase p) {
        phase_ = p;
        cycles_ = 0;
        window_cycles_ = 0;
        seconds_ = 0;
        steps_ = 0;
    }

    Phase phase_ = Phase::ProbeWorkers;
    int cycles_ = 0;
    int window_cycles_ = 0;    ///< cycles in the current watch window
    double seconds_ = 0;       ///< time of the probe's (or window's) cycles so far
    std::size_t steps_ = 0;    ///< their router steps
    double with_workers_ = 0;  ///< seconds per router step in the last probe with workers
    bool keep_workers_ = true;
    int losses_in_a_row_ = 0;  ///< probes in a row that one thread won
};

}  // namespace mcmsim
