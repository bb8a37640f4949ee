#pragma once
// A thread that runs one piece of work per network cycle, on request: the VcNetwork hands
// it a lane of routers to step, steps its own lane meanwhile, then waits for it. A busy
// network does this tens of thousands of times per simulated second, each piece lasting
// microseconds, so either side waiting for the other first spins (a wake-up through the
// kernel costs more than the work: the caller for a few microseconds, an idle worker for
// longer than a cycle), then sleeps on a condition variable: with more threads than free
// cores, a spinning waiter would only keep the thread it waits for off the core.
//
// A run belongs to whichever side claims it first. The caller, done with its own lane,
// claims a run the worker has not begun and does it itself: a worker that went to sleep
// takes tens of microseconds to wake on a virtual machine (its idle vCPU must be scheduled
// again), several cycles' work, and waiting for it made every cycle that slow, long enough
// for the worker to fall asleep again before the next (8x8 at 0.1: two threads ran at half
// one thread's speed during their probes).
//
// The work never calls SystemC: it touches only the lane's routers and the lane.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

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
    /// rethrowing what it threw; runs it on the caller's thread if the worker has not begun it.
    void wait();

private:
    void loop();

    std::function<void()> work_;
    std::uint64_t requested_ = 0;             ///< runs asked for (the caller's side only)
    std::atomic<std::uint64_t> started_{0};   ///< runs asked for, as the worker sees them
    std::atomic<std::uint64_t> claimed_{0};   ///< the last run either side has begun
    std::atomic<std::uint64_t> finished_{0};  ///< runs done
    std::atomic<bool> worker_sleeps_{false}, caller_sleeps_{false}, stop_{false};
    std::mutex mutex_;
    std::condition_variable work_ready_, work_done_;
    std::exception_ptr error_;
    std::thread thread_;  // last: the thread starts once the members above exist
};

}  // namespace mcmsim
