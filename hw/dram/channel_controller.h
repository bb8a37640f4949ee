#pragma once
// The controller of one unit (a channel or pseudo-channel): bank state, FR-FCFS over per-bank
// read and write queues with write draining, open/closed page policy, refresh, and the timing
// rules. Pure C++ working on integer picoseconds, so the same engine serves the AT path (a
// SystemC method advances it to "now" and sleeps until next_time()) and the LT path
// (b_transport runs it ahead until its request is done).
//
// Event-driven: instead of ticking every clock, it keeps for every resource (bank, bank
// group, rank, data bus, command bus) the earliest time each command kind may issue, picks
// the command that can go first and jumps to that time.
#include "hw/dram/burst.h"
#include "hw/dram/dram_command.h"
#include "hw/dram/dram_config.h"
#include "hw/dram/dram_timing.h"
#include "hw/dram/refresh_policy.h"
#include "hw/dram/scheduler.h"

#include <array>
#include <deque>
#include <memory>
#include <vector>

namespace mcmsim {

/// What the controller tells its owner.
class ControllerListener {
public:
    virtual ~ControllerListener() = default;
    /// A command went out; `b` is the burst it serves (null for PRE-for-refresh and REF).
    virtual void on_command(const IssuedCommand& c, const Burst* b) = 0;
    /// A burst's data transfer ends at `done` (> the command time).
    virtual void on_burst_done(Burst* b, Tick done) = 0;
    /// Background time of one rank since the last report: `active` with a bank open, `idle` not.
    virtual void on_background(std::uint32_t unit, Tick active, Tick idle) = 0;
};

struct ControllerStats {
    std::array<std::int64_t, kDramCommandKinds> commands{};
    std::int64_t reads = 0, writes = 0;
    Tick data_busy = 0;  ///< time the data bus carried bursts
};

class ChannelController {
public:
    ChannelController(const DramConfig& cfg, const DramTicks& t, std::uint32_t unit, ControllerListener* l);

    /// Queues `b` (its arrival time may lie ahead of the controller's clock).
    void enqueue(Burst* b);
    /// Issues every command that can go at or before `until`; returns next_time().
    Tick advance(Tick until);
    /// Issues commands until every queued burst is done (LT: runs ahead of simulated time).
    void drain();
    /// Books background energy up to `t` (the end of a run: the idle tail counts too).
    void close_accounts(Tick t) { account_background(t); }
    /// When the next command (or refresh) is due; kNever when idle for good.
    Tick next_time() const { return next_; }

    std::size_t queued() const { return reads_ + writes_; }
    /// Queued bursts, or rows the closed-page policy still has to close.
    bool has_work() const { return reads_ + writes_ > 0 || closes_ > 0; }
    const ControllerStats& stats() const { return stats_; }
    /// REF count plus REFPB count / banks: full refreshes of each rank so far, plus those
    /// that fell due while idle up to `until`.
    double refreshes_through(Tick until) const;
    Tick last_command_time() const { return floor_; }

private:
    struct Bank {
        std::deque<Burst*> reads, writes;
        std::int64_t open_row = -1;
        Tick act = 0, pre = 0, rd = 0, wr = 0;  ///< earliest next command of each kind
        bool close_after = false;               ///< closed-page: precharge when idle
        bool listed = false;                    ///< in busy_
        std::uint32_t group = 0, rank = 0;      ///< indices into groups_ and ranks_ (no divisions)
        // The scheduler's choice per queue (0 reads, 1 writes), valid until the queue or the
        // open row changes: saves re-scanning every queue on every command.
        mutable Burst* pick[2] = {nullptr, nullptr};
        mutable bool hit[2] = {false, false};
        mutable bool fresh[2] = {false, false};
        mutable Tick local[2] = {0, 0};  ///< the pick's earliest time from bank terms and arrival
        mutable DramCommand cmd[2] = {DramCommand::Act, DramCommand::Act};  ///< the pick's next command
        void stale() { fresh[0] = fresh[1] = false; }
    };
    struct Group {
        Tick act = 0, rd = 0, wr = 0;
    };
    struct Rank {
        Tick act = 0, rd = 0, wr = 0, ref = 0;
        std::array<Tick, 4> faw{};
        int acts = 0;
        int open = 0;    ///< open banks (background state)
        Tick since = 0;  ///< background accounted up to here
    };
    struct Candidate {
        Tick time = kNever;
        DramCommand cmd = DramCommand::Act;
        std::uint32_t bank = 0;  ///< flat bank index within the unit
        Burst* burst = nullptr;
        bool valid() const { return time != kNever; }
    };

    std::uint32_t flat(std::uint32_t rank, std::uint32_t bg, std::uint32_t bank) const {
        return (rank * bgs_ + bg) * banks_per_group_ + bank;
    }
    Candidate best() const;
    void consider(Candidate& best, const Candidate& c) const;
    Tick act_time(std::uint32_t bank) const;
    Tick column_time(std::uint32_t bank, bool write) const;
    bool blocked(std::uint32_t bank) const;
    void issue(const Candidate& c);
    /// What each command does to the bank, its group and rank at time `t` (the timing state the
    /// next commands are held to); a column command returns when its data is done.
    void activated(Bank& k, Group& g, Rank& r, const Burst* b, Tick t);
    void precharged(Bank& k, Rank& r, Tick t);
    Tick column_done(Bank& k, Group& g, Rank& r, std::uint32_t rank, Burst* b, Tick t);
    void refreshed_rank(Rank& r, std::uint32_t rank, Tick t);
    void refreshed_bank(Bank& k, Rank& r, Tick t);
    void account_background(Tick t);
    void update_write_mode();
    void unlist_idle();

    DramConfig cfg_;
    DramTicks t_;
    std::uint32_t unit_;
    ControllerListener* listener_;
    std::unique_ptr<BankScheduler> scheduler_;
    std::unique_ptr<RefreshPolicy> refresh_;
    std::uint32_t bgs_, banks_per_group_, banks_per_rank_;
    std::vector<Bank> banks_;
    std::vector<Group> groups_;
    std::vector<Rank> ranks_;
    std::vector<std::uint32_t> busy_;  ///< banks with queued bursts or a pending close

    // Unit-wide: command bus, data bus, read-to-write turnaround.
    Tick cmd_free_ = 0, data_end_ = 0, wr_after_rd_ = 0;
    int data_rank_ = -1;
    Tick floor_ = 0;  ///< time of the last command (commands issue in time order)
    bool write_mode_ = false;
    std::size_t reads_ = 0, writes_ = 0, closes_ = 0;
    // Refresh in progress (once due, it blocks its rank or bank until issued).
    bool refreshing_ = false;
    RefreshTarget ref_target_;
    Tick ref_due_ = 0;
    std::int64_t refs_ = 0, refpbs_ = 0;
    Tick next_ = kNever;
    bool dirty_ = true;  ///< state changed (enqueue) since next_ was computed
    Candidate last_;     ///< best() when advance() last returned (valid while !dirty_)
    bool last_ok_ = false;
    ControllerStats stats_;
};

}  // namespace mcmsim
