#pragma once
// A module's agenda: items due at future ticks plus the one sc_event that wakes the module
// at the earliest of them. This is the DRAMSys controller pattern in miniature: a module
// does all work that is due, then arms a single event for its next wake time, and costs
// nothing while idle. (sc_event keeps only its earliest pending notification, which is
// exactly what we want: an earlier push simply overrides a later pending wake.)
#include "hw/time/sim_time.h"

#include <queue>
#include <vector>

namespace mcmsim {

template <typename T>
class TimedQueue {
public:
    explicit TimedQueue(sc_core::sc_event& wake) : wake_(wake) {}

    /// Schedule `item` for tick `due` (>= now).
    void push(Tick due, T item) {
        heap_.push(Entry{due, seq_++, std::move(item)});
        if (due < armed_) {
            armed_ = due;
            wake_.notify(to_sc_time(due - now_ticks()));
        }
    }

    /// Call at the start of the wake-up handler: the pending notification has fired.
    void woke() { armed_ = kNever; }

    /// Pops the next item due at or before `now`; false when none is due.
    bool pop_due(Tick now, T& out) {
        if (heap_.empty() || heap_.top().due > now) return false;
        out = std::move(const_cast<Entry&>(heap_.top()).item);
        heap_.pop();
        return true;
    }

    /// Call at the end of the handler: arms the wake-up for the earliest remaining item.
    void rearm() {
        if (heap_.empty()) return;
        Tick due = heap_.top().due;
        if (due < armed_) {
            armed_ = due;
            wake_.notify(to_sc_time(due - now_ticks()));
        }
    }

    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }

private:
    struct Entry {
        Tick due;
        std::uint64_t seq;  ///< FIFO among equal ticks: deterministic order
        T item;
        bool operator>(const Entry& o) const { return due != o.due ? due > o.due : seq > o.seq; }
    };
    sc_core::sc_event& wake_;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
    std::uint64_t seq_ = 0;
    Tick armed_ = kNever;
};

}  // namespace mcmsim
