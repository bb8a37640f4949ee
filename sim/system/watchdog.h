#pragma once
// Stops a simulation that makes no progress. Every `interval` it compares the number of
// finished ops with the last look. If nothing finished, work remains and no model has anything
// scheduled (every module asleep with nobody to wake it: a deadlock), it stops the kernel; the
// caller then names the stuck ops. A long op in flight is progress pending, not a deadlock.
// While work remains it keeps the kernel alive, so a deadlock (no events left) is still caught
// at the next check.
#include "hw/time/sim_time.h"

#include <systemc>

#include <functional>

namespace mcmsim {

class Watchdog : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Watchdog);
    /// `progress` returns finished ops; `total` is how many must finish; `pending` tells
    /// whether any model still has an event scheduled.
    Watchdog(sc_core::sc_module_name name, Tick interval, std::function<std::size_t()> progress, std::size_t total,
             std::function<bool()> pending)
        : sc_core::sc_module(name), interval_(interval), progress_(std::move(progress)), total_(total),
          pending_(std::move(pending)) {
        SC_METHOD(check);
        sensitive << tick_;
        dont_initialize();
        tick_.notify(to_sc_time(interval_));
    }

    bool fired() const { return fired_; }
    Tick fired_at() const { return fired_at_; }

private:
    void check() {
        std::size_t now = progress_();
        if (now >= total_) return;  // done: let the kernel run out of events
        // Nothing finished since the last look: a deadlock if nothing is scheduled either, a
        // livelock if events keep coming for kPatience looks without any op finishing.
        idle_checks_ = now == last_ ? idle_checks_ + 1 : 0;
        if (idle_checks_ > 0 && (!pending_() || idle_checks_ >= kPatience)) {
            fired_ = true;
            fired_at_ = now_ticks();
            sc_core::sc_stop();
            return;
        }
        last_ = now;
        tick_.notify(to_sc_time(interval_));
    }

    Tick interval_;
    std::function<std::size_t()> progress_;
    std::size_t total_;
    std::function<bool()> pending_;
    static constexpr int kPatience = 100;
    std::size_t last_ = 0;
    int idle_checks_ = 0;
    bool fired_ = false;
    Tick fired_at_ = 0;
    sc_core::sc_event tick_;
};

}  // namespace mcmsim
