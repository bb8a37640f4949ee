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
/// that follow the work from core to core (the 8x8 mesh at 0.1 flits/node/cycle), nor when
/// the machine has no free core (a worker off its core makes every handoff wait for the
/// scheduler). So the network alternates: a short probe with the workers, a short probe
/// without, then the faster way for a long stretch, and again. Only time per router step
/// is compared, so the work of the cycles need not be alike. This moves work between
/// threads only: the simulated result is the same either way.
class ThreadingGovernor {
public:
    bool use_workers() const { return phase_ == Phase::ProbeWorkers || (phase_ == Phase::Keep && keep_workers_); }
    /// A cycle stepped the way use_workers() said took `seconds` for `router_steps`.
    void record(double seconds, std::size_t router_steps) {
        seconds_ += seconds;
        steps_ += router_steps;
        if (++cycles_ < (phase_ == Phase::Keep ? kKeepCycles : kProbeCycles)) return;
        const double per_step = steps_ ? seconds_ / static_cast<double>(steps_) : 0.0;
        switch (phase_) {
            case Phase::ProbeWorkers:
                with_workers_ = per_step;
                phase_ = Phase::ProbeAlone;
                break;
            case Phase::ProbeAlone:
                keep_workers_ = with_workers_ < per_step;
                phase_ = Phase::Keep;
                break;
            case Phase::Keep: phase_ = Phase::ProbeWorkers; break;
        }
        cycles_ = 0;
        seconds_ = 0;
        steps_ = 0;
    }

private:
    enum class Phase { ProbeWorkers, ProbeAlone, Keep };
    static constexpr int kProbeCycles = 128, kKeepCycles = 4096;
    Phase phase_ = Phase::ProbeWorkers;
    int cycles_ = 0;
    double seconds_ = 0;
    std::size_t steps_ = 0;
    double with_workers_ = 0;  ///< seconds per router step in the last probe with workers
    bool keep_workers_ = true;
};

}  // namespace mcmsim
