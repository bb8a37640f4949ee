#pragma once
// Sweep points evaluated in child processes, at most N at a time: each point gets a directory
// DIR/points/<hash>/ with its resolved arch (arch.json) and what to do with it (point.json);
// the child (`mcmsim sweep-point DIR/points/<hash>`) writes result.json there and its console
// output beside it. A child that fails is the point's failure (its last stderr line is the
// reason), never the sweep's.
#include "sim/sweep/sweep_points.h"
#include "sim/sweep/sweep_store.h"

#include <sys/types.h>

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mcmsim {

/// The point's directory with its inputs written (the arch and the job).
std::string prepare_point_dir(const std::string& out_dir, const SweepPoint& p, const SweepSpec& spec);

class ChildPool {
public:
    /// `self`: the mcmsim executable; `slots`: children at once.
    ChildPool(std::string self, std::string out_dir, const SweepSpec& spec, int slots);

    bool has_slot() const { return static_cast<int>(running_.size()) < slots_; }
    std::size_t running() const { return running_.size(); }
    /// Starts `p`'s child; `tag` comes back with its result.
    void start(const SweepPoint& p, std::size_t tag);
    /// Children that ended: (tag, result). Waits for one when `block` and any is running.
    std::vector<std::pair<std::size_t, PointResult>> reap(bool block);

private:
    struct Child {
        std::size_t tag;
        std::string dir;
        std::chrono::steady_clock::time_point start;
    };
    PointResult result_of(const Child& c, int status) const;
    std::string self_, out_dir_;
    const SweepSpec& spec_;
    int slots_;
    std::map<pid_t, Child> running_;
};

}  // namespace mcmsim
