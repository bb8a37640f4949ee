#pragma once
// A thread that runs one piece of work per network cycle, on request: the VcNetwork hands
// it a lane of routers to step, steps its own lane meanwhile, then waits for it. A busy
// network does this tens of thousands of times per simulated second, each piece lasting
// microseconds, so either side waiting for the other first spins for a few microseconds (a
// wake-up through the kernel costs about as much as the work), then sleeps on a condition
// variable: with more threads than free cores, a spinning waiter would only keep the thread
// it waits for off the core.
//
// The work never calls SystemC: it touches only the lane's routers and the lane.
#include <atomic>
#include <condition_variable>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <utility>
#include <functional>
#include <mutex>
#include <thread>

namespace mcmsim {

class LaneWorker {
public:
    explicit LaneWorker(std::function<void()> work);
    ~LaneWorker();
    LaneWorker(const LaneWorker&) = delete;
    LaneWorker& operator=(const LaneWorker&) = delete;

    /// Runs the work once, on the worker's thread. Everything written before this call is
    /// visible to the work.
    void start();
    /// Returns once the run started last has finished (everything it wrote is then visible),
    /// rethrowing what it threw.
    void wait();

private:
    void loop();

    std::function<void()> work_;
    std::uint64_t requested_ = 0;                ///< runs asked for (the caller's side only)
    std::atomic<std::uint64_t> started_{0};      ///< runs asked for, as the worker sees them
    std::atomic<std::uint64_t> begun_{0};        ///< runs the worker has begun
    std::atomic<std::uint64_t> finished_{0};     ///< runs done
    std::atomic<bool> worker_sleeps_{false}, caller_sleeps_{false}, stop_{false};
    std::mutex mutex_;
    std::condition_variable work_ready_, work_done_;
    std::exception_ptr error_;
    std::thread thread_;  // last: the thread starts once the members above exist
};

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
