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
    /// rethrowing what it threw. False if the worker had not even begun that run a few
    /// microseconds into this call: it was off its core (the machine is busy) or asleep.
    bool wait();

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

/// Whether handing work to the workers pays. With fewer free cores than threads (other jobs
/// on the machine) a worker is often off its core when work arrives, and each handoff then
/// costs a wake-up and a wait, far more than the work. When over a window of handoffs too
/// many were slow, the caller does all the work itself for a while (doubling the while at
/// each bad window), then tries again. This only moves work between threads: the simulated
/// result is the same either way.
class HandoffGovernor {
public:
    bool worth_trying(std::int64_t now) const { return now >= alone_until_; }
    void record(bool prompt, std::int64_t now) {
        slow_ += prompt ? 0 : 1;
        if (++handoffs_ < kWindow) return;
        if (slow_ * 4 > kWindow) {
            alone_until_ = now + alone_for_;
            alone_for_ = std::min<std::int64_t>(2 * alone_for_, kLongestAlone);
        } else {
            alone_for_ = kShortestAlone;
        }
        handoffs_ = slow_ = 0;
    }

private:
    static constexpr int kWindow = 256;  ///< handoffs judged together
    static constexpr std::int64_t kShortestAlone = 1000, kLongestAlone = 1 << 20;  ///< cycles
    int handoffs_ = 0, slow_ = 0;
    std::int64_t alone_until_ = -1, alone_for_ = kShortestAlone;
};

}  // namespace mcmsim
