#include "noc/vc/lane_worker.h"

#include <chrono>

namespace mcmsim {

namespace {
/// How long the caller spins for a run the worker has begun before it sleeps: a few times
/// the work of one lane in a busy cycle.
constexpr std::chrono::microseconds kCallerSpin{20};
/// How long an idle worker spins for the next run before it sleeps: longer than a whole
/// cycle, serial part included, on a slow host (8x8 at 0.3: 64 router steps at up to
/// ~500 ns each, ~30 us). A worker that slept between two cycles wakes too late for the
/// next (tens of microseconds or more on a VM), the caller steps its lane, and the worker
/// then sleeps again: two threads ran as one plus the wake-ups.
constexpr std::chrono::microseconds kWorkerSpin{200};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/// Spins until `ready()` or until `limit` has passed; true if ready.
template <class Ready>
bool spin_until(Ready ready, std::chrono::microseconds limit) {
    const auto give_up = std::chrono::steady_clock::now() + limit;
    for (unsigned n = 1;; ++n) {
        if (ready()) return true;
        cpu_relax();
        if (n % 64 == 0 && std::chrono::steady_clock::now() > give_up) return ready();
    }
}

/// Then sleeps until `ready()`. `sleeps` tells the other side to notify `cv`; the flag is set
/// under the mutex and every flag and counter access is sequentially consistent, so either
/// this side sees the other's update or the other side sees the flag (and, taking the mutex
/// to notify, cannot notify before the wait began): no wake-up is lost.
template <class Ready>
void sleep_until(Ready ready, std::atomic<bool>& sleeps, std::mutex& m, std::condition_variable& cv) {
    std::unique_lock<std::mutex> lock(m);
    sleeps.store(true);
    cv.wait(lock, ready);
    sleeps.store(false);
}

void notify_if_asleep(const std::atomic<bool>& sleeps, std::mutex& m, std::condition_variable& cv) {
    if (!sleeps.load()) return;
    std::lock_guard<std::mutex> lock(m);
    cv.notify_one();
}
}  // namespace

LaneWorker::LaneWorker(std::function<void()> work) : work_(std::move(work)), thread_([this] { loop(); }) {}

LaneWorker::~LaneWorker() {
    stop_.store(true);
    start();
    thread_.join();
}

void LaneWorker::start() {
    started_.store(++requested_);
    notify_if_asleep(worker_sleeps_, mutex_, work_ready_);
}

void LaneWorker::wait() {
    std::uint64_t previous = requested_ - 1;
    if (claimed_.compare_exchange_strong(previous, requested_)) {
        work_();  // the worker had not begun: this thread does the run
        return;
    }
    auto done = [this] { return finished_.load() == requested_; };
    if (!spin_until(done, kCallerSpin)) sleep_until(done, caller_sleeps_, mutex_, work_done_);
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void LaneWorker::loop() {
    for (std::uint64_t seen = 0;;) {
        auto asked = [&] { return started_.load() != seen; };
        if (!spin_until(asked, kWorkerSpin)) sleep_until(asked, worker_sleeps_, mutex_, work_ready_);
        // The latest run: those before it were done by the caller while this thread slept.
        seen = started_.load();
        if (stop_.load()) return;
        std::uint64_t previous = seen - 1;
        if (!claimed_.compare_exchange_strong(previous, seen)) continue;  // the caller has it
        try {
            work_();
        } catch (...) {
            error_ = std::current_exception();  // read by wait(), after finished_ is published
        }
        finished_.store(seen);
        notify_if_asleep(caller_sleeps_, mutex_, work_done_);
    }
}

}  // namespace mcmsim
