#pragma once
// Stops a simulation that makes no progress. Every `interval` it compares the number of
// finished ops with the last look; if nothing finished and work remains, it stops the kernel
// and records what is waiting (the caller names the stuck ops). While work remains it keeps
// the kernel alive, so a deadlock (no events left) is still caught at the next check.
#include "hw/time/sim_time.h"

#include <systemc>

#include <functional>

namespace mcmsim {

class Watchdog : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Watchdog);
    /// `progress` returns finished ops; `total` is how many must finish.
    Watchdog(sc_core::sc_module_name name, Tick interval, std::function<std::size_t()> progress, std::size_t total)
        : sc_core::sc_module(name), interval_(interval), progress_(std::move(progress)), total_(total) {
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
        if (now == last_) {
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
    std::size_t last_ = 0;
    bool fired_ = false;
    Tick fired_at_ = 0;
    sc_core::sc_event tick_;
};

}  // namespace mcmsim
