#pragma once
// Request selection inside one bank's queue: the strategy behind FR-FCFS and FCFS. The
// controller asks each bank with work for the burst it would serve next; across banks it
// then takes the command that can issue first (column commands before row commands on ties).
#include "hw/dram/burst.h"
#include "hw/dram/dram_config.h"

#include <deque>
#include <memory>

namespace mcmsim {

class BankScheduler {
public:
    virtual ~BankScheduler() = default;
    /// With `open_row` open (or -1), the burst to serve next from `q` (non-empty), and whether
    /// it hits the open row. A miss means: precharge (if open) then activate for it.
    virtual Burst* pick(const std::deque<Burst*>& q, std::int64_t open_row, bool& hit) const = 0;
};

/// First-ready, first-come first-served: the oldest row hit, else the oldest request.
class FrFcfsScheduler : public BankScheduler {
public:
    Burst* pick(const std::deque<Burst*>& q, std::int64_t open_row, bool& hit) const override {
        if (open_row >= 0)
            for (Burst* b : q)
                if (b->row == static_cast<std::uint32_t>(open_row)) {
                    hit = true;
                    return b;
                }
        hit = false;
        return q.front();
    }
};

/// Strict arrival order within a bank.
class FcfsScheduler : public BankScheduler {
public:
    Burst* pick(const std::deque<Burst*>& q, std::int64_t open_row, bool& hit) const override {
        hit = open_row >= 0 && q.front()->row == static_cast<std::uint32_t>(open_row);
        return q.front();
    }
};

inline std::unique_ptr<BankScheduler> make_scheduler(SchedulerKind k) {
    if (k == SchedulerKind::Fcfs) return std::make_unique<FcfsScheduler>();
    return std::make_unique<FrFcfsScheduler>();
}

}  // namespace mcmsim
