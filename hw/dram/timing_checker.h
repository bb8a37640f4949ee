#pragma once
// Replays an issued command stream and reports every timing or state violation.
//
// Deliberately written apart from the controller: the controller tracks "earliest next time"
// per resource, the checker states each JEDEC rule as (earlier command, later command, scope,
// minimum distance) and looks up the last command of each kind in that scope. A rule the
// controller forgets to honour shows up here instead of being silently mirrored.
#include "hw/dram/dram_command.h"
#include "hw/dram/dram_config.h"
#include "hw/dram/dram_timing.h"

#include <array>
#include <string>
#include <vector>

namespace mcmsim {

class TimingChecker {
public:
    explicit TimingChecker(const DramConfig& cfg);

    /// Checks `c` against everything seen before on its unit, then records it. Commands of one
    /// unit must come in time order (that itself is checked).
    void on_command(const IssuedCommand& c);

    const std::vector<std::string>& violations() const { return violations_; }
    std::size_t violation_count() const { return count_; }
    std::size_t checked() const { return checked_; }

private:
    enum Scope { SameBank, SameBankGroup, SameRank, SameUnit };
    struct Rule {
        DramCommand before, after;
        Scope scope;
        Tick distance;
        const char* name;
    };
    /// Last time of each command kind, or kNever when there was none.
    using Last = std::array<Tick, kDramCommandKinds>;
    struct Bank {
        Last last;
        std::int64_t open_row = -1;
    };
    struct Unit {
        std::vector<Bank> banks;               ///< [rank][bank group][bank]
        std::vector<Last> groups;              ///< [rank][bank group]
        std::vector<Last> ranks;               ///< [rank]
        std::vector<std::array<Tick, 4>> faw;  ///< last four ACTs per rank (ring)
        std::vector<int> faw_count;
        Last unit;
        Tick last_cmd = kNever, data_end = 0;
        int data_rank = -1;
    };

    void violation(const IssuedCommand& c, const std::string& what);
    Tick last_in_scope(const Unit& u, const IssuedCommand& c, Scope s, DramCommand k) const;
    /// The minimum distances to earlier commands (the rule table, and per-bank refresh before REF).
    void check_distances(const Unit& u, const IssuedCommand& c);
    /// Open and closed rows, the four-activate window and the data bus.
    void check_state(Unit& u, Bank& bank, const IssuedCommand& c);
    /// Remembers the command in every scope it belongs to.
    void record(Unit& u, Bank& bank, const IssuedCommand& c);

    DramConfig cfg_;
    DramTicks t_;
    std::vector<Rule> rules_;
    std::vector<Unit> units_;
    std::vector<std::string> violations_;  ///< the first few, as text
    std::size_t count_ = 0, checked_ = 0;
    std::size_t bg_count_, bank_count_;
};

}  // namespace mcmsim
