#include "hw/dram/channel_controller.h"

#include <algorithm>
#include <stdexcept>

namespace mcmsim {

namespace {
bool is_column(DramCommand c) { return c == DramCommand::Rd || c == DramCommand::Wr; }
}  // namespace

ChannelController::ChannelController(const DramConfig& cfg, const DramTicks& t, std::uint32_t unit, ControllerListener* l)
    : cfg_(cfg), t_(t), unit_(unit), listener_(l), scheduler_(make_scheduler(cfg.scheduler)),
      refresh_(make_refresh_policy(cfg, t.tREFI)), bgs_(static_cast<std::uint32_t>(cfg.org.bank_groups)),
      banks_per_group_(static_cast<std::uint32_t>(cfg.org.banks_per_group)),
      banks_per_rank_(static_cast<std::uint32_t>(cfg.org.banks_per_rank())) {
    const auto ranks = static_cast<std::size_t>(cfg.org.ranks);
    banks_.resize(ranks * banks_per_rank_);
    groups_.resize(ranks * bgs_);
    ranks_.resize(ranks);
    for (std::uint32_t i = 0; i < banks_.size(); ++i) {
        banks_[i].group = i / banks_per_group_;
        banks_[i].rank = i / banks_per_rank_;
    }
    next_ = refresh_->next_due();
}

void ChannelController::enqueue(Burst* b) {
    const std::uint32_t i = flat(b->rank, b->bank_group, b->bank);
    Bank& k = banks_[i];
    dirty_ = true;
    k.fresh[b->write ? 1 : 0] = false;
    if (b->write) {
        k.writes.push_back(b);
        ++writes_;
    } else {
        k.reads.push_back(b);
        ++reads_;
    }
    if (!k.listed) {
        k.listed = true;
        busy_.push_back(i);
    }
}

bool ChannelController::blocked(std::uint32_t bank) const {
    if (!refreshing_ || bank / banks_per_rank_ != static_cast<std::uint32_t>(ref_target_.rank)) return false;
    return ref_target_.bank < 0 || bank % banks_per_rank_ == static_cast<std::uint32_t>(ref_target_.bank);
}

Tick ChannelController::act_time(std::uint32_t i) const {
    const Bank& k = banks_[i];
    const Rank& r = ranks_[k.rank];
    Tick t = std::max({k.act, groups_[k.group].act, r.act, cmd_free_, floor_});
    // Four-activate window: the fifth ACT waits for the oldest of the last four + tFAW.
    if (r.acts >= 4) t = std::max(t, r.faw[static_cast<std::size_t>(r.acts % 4)] + t_.tFAW);
    return t;
}

Tick ChannelController::column_time(std::uint32_t i, bool write) const {
    const Bank& k = banks_[i];
    const Group& g = groups_[k.group];
    const std::uint32_t rank = k.rank;
    const Rank& r = ranks_[rank];
    Tick t = write ? std::max({k.wr, g.wr, r.wr, wr_after_rd_}) : std::max({k.rd, g.rd, r.rd});
    t = std::max({t, cmd_free_, floor_});
    // Data bus: this burst's data may start only after the previous burst (plus a rank switch).
    const Tick latency = write ? t_.CWL : t_.CL;
    if (data_rank_ >= 0) {
        const Tick need = data_end_ + (static_cast<std::uint32_t>(data_rank_) != rank ? t_.tRTRS : 0);
        if (need > latency) t = std::max(t, need - latency);
    }
    return t;
}

void ChannelController::consider(Candidate& best, const Candidate& c) const {
    if (c.time > best.time) return;
    if (c.time == best.time && best.valid()) {
        // Ties: column commands first (they move data), then refresh work, then the oldest.
        auto rank_of = [](const Candidate& x) { return is_column(x.cmd) ? 0 : (x.burst ? 2 : 1); };
        const int a = rank_of(c), b = rank_of(best);
        if (a > b) return;
        if (a == b && c.burst && best.burst && c.burst->seq >= best.burst->seq) return;
    }
    best = c;
}

ChannelController::Candidate ChannelController::best() const {
    Candidate best;
    const Tick base = std::max(cmd_free_, floor_);
    const int m = write_mode_ ? 1 : 0;
    for (std::uint32_t i : busy_) {
        if (refreshing_ && blocked(i)) continue;
        const Bank& k = banks_[i];
        const auto& q = m ? k.writes : k.reads;
        // Closed page: the precharge is due as soon as legal; a hit that arrives earlier
        // still goes first (and re-decides the close when it issues).
        if (k.close_after && k.open_row >= 0) consider(best, {std::max(k.pre, base), DramCommand::Pre, i, nullptr});
        if (q.empty()) continue;
        Burst* b;
        if (!k.fresh[m]) {
            bool h = false;
            b = scheduler_->pick(q, k.open_row, h);
            k.pick[m] = b;
            k.hit[m] = h;
            k.fresh[m] = true;
            if (h) {
                k.cmd[m] = b->write ? DramCommand::Wr : DramCommand::Rd;
                k.local[m] = std::max(b->write ? k.wr : k.rd, b->arrival);
            } else if (k.open_row >= 0) {
                k.cmd[m] = DramCommand::Pre;
                k.local[m] = std::max(k.pre, b->arrival);
            } else {
                k.cmd[m] = DramCommand::Act;
                k.local[m] = std::max(k.act, b->arrival);
            }
        } else {
            b = k.pick[m];
        }
        // A lower bound later than the best so far cannot win (consider() would drop it):
        // skip the full timing computation.
        const Tick lb = std::max(k.local[m], base);
        if (lb > best.time) continue;
        switch (k.cmd[m]) {
            case DramCommand::Rd:
            case DramCommand::Wr:
                consider(best, {std::max(column_time(i, b->write), b->arrival), k.cmd[m], i, b});
                break;
            case DramCommand::Pre:
                consider(best, {lb, DramCommand::Pre, i, b});
                break;
            default:
                consider(best, {std::max(act_time(i), b->arrival), DramCommand::Act, i, b});
                break;
        }
    }
    if (refreshing_) {
        // Close what the refresh covers, then refresh it.
        const std::uint32_t first = static_cast<std::uint32_t>(ref_target_.rank) * banks_per_rank_;
        const std::uint32_t lo = ref_target_.bank < 0 ? first : first + static_cast<std::uint32_t>(ref_target_.bank);
        const std::uint32_t hi = ref_target_.bank < 0 ? first + banks_per_rank_ : lo + 1;
        bool any_open = false;
        Tick ready = std::max({cmd_free_, floor_, ref_due_});
        for (std::uint32_t i = lo; i < hi; ++i) {
            const Bank& k = banks_[i];
            if (k.open_row >= 0) {
                any_open = true;
                consider(best, {std::max({k.pre, cmd_free_, floor_}), DramCommand::Pre, i, nullptr});
            }
            ready = std::max(ready, k.act);
        }
        if (!any_open) {
            const Rank& r = ranks_[static_cast<std::size_t>(ref_target_.rank)];
            if (ref_target_.bank < 0) consider(best, {std::max(ready, r.ref), DramCommand::Ref, lo, nullptr});
            else consider(best, {std::max(ready, r.act), DramCommand::RefPb, lo, nullptr});
        }
    }
    return best;
}

void ChannelController::account_background(Tick t) {
    Tick active = 0, idle = 0;
    for (Rank& r : ranks_) {
        if (t <= r.since) continue;
        (r.open > 0 ? active : idle) += t - r.since;
        r.since = t;
    }
    if (active + idle > 0) listener_->on_background(unit_, active, idle);
}

void ChannelController::update_write_mode() {
    if (!write_mode_) {
        if (writes_ >= static_cast<std::size_t>(cfg_.write_high_watermark) || (reads_ == 0 && writes_ > 0)) write_mode_ = true;
    } else if (writes_ == 0 || (reads_ > 0 && writes_ <= static_cast<std::size_t>(cfg_.write_low_watermark))) {
        write_mode_ = false;
    }
}

void ChannelController::issue(const Candidate& c) {
    const Tick t = c.time;
    account_background(t);
    floor_ = t;
    cmd_free_ = t + t_.tCK;
    const std::uint32_t i = c.bank;
    Bank& k = banks_[i];
    Group& g = groups_[k.group];
    const std::uint32_t rank = k.rank;
    Rank& r = ranks_[rank];
    const std::uint32_t in_rank = i % banks_per_rank_;
    k.stale();  // its open row or a queue changes
    IssuedCommand ic;
    ic.time = t;
    ic.cmd = c.cmd;
    ic.unit = unit_;
    ic.rank = static_cast<std::uint16_t>(rank);
    ic.bank_group = static_cast<std::uint16_t>(in_rank / banks_per_group_);
    ic.bank = static_cast<std::uint16_t>(in_rank % banks_per_group_);
    ic.row = k.open_row >= 0 ? static_cast<std::uint32_t>(k.open_row) : 0;
    Tick done = 0;
    switch (c.cmd) {
        case DramCommand::Act:
            activated(k, g, r, c.burst, t);
            ic.row = c.burst->row;
            break;
        case DramCommand::Pre:
            precharged(k, r, t);
            break;
        case DramCommand::Rd:
        case DramCommand::Wr:
            done = column_done(k, g, r, rank, c.burst, t);
            break;
        case DramCommand::Ref:
            refreshed_rank(r, rank, t);
            ic.bank_group = 0;
            ic.bank = 0;
            break;
        case DramCommand::RefPb:
            refreshed_bank(k, r, t);
            break;
    }
    ++stats_.commands[static_cast<std::size_t>(c.cmd)];
    listener_->on_command(ic, c.burst);
    if (done) listener_->on_burst_done(c.burst, done);
    // A bank with nothing left to do leaves the scan list.
    if (k.listed && k.reads.empty() && k.writes.empty() && !(k.close_after && k.open_row >= 0)) {
        k.listed = false;
        busy_.erase(std::find(busy_.begin(), busy_.end(), i));
    }
}

void ChannelController::activated(Bank& k, Group& g, Rank& r, const Burst* b, Tick t) {
    k.open_row = b->row;
    k.rd = std::max(k.rd, t + t_.tRCD);
    k.wr = std::max(k.wr, t + t_.tRCD);
    k.pre = std::max(k.pre, t + t_.tRAS);
    k.act = std::max(k.act, t + t_.tRC);
    g.act = std::max(g.act, t + t_.tRRD_L);
    r.act = std::max(r.act, t + t_.tRRD_S);
    r.faw[static_cast<std::size_t>(r.acts % 4)] = t;
    ++r.acts;
    ++r.open;
}

void ChannelController::precharged(Bank& k, Rank& r, Tick t) {
    k.open_row = -1;
    if (k.close_after) --closes_;
    k.close_after = false;
    k.act = std::max(k.act, t + t_.tRP);
    --r.open;
}

Tick ChannelController::column_done(Bank& k, Group& g, Rank& r, std::uint32_t rank, Burst* b, Tick t) {
    auto& q = b->write ? k.writes : k.reads;
    q.erase(std::find(q.begin(), q.end(), b));
    if (b->write) {
        --writes_;
        ++stats_.writes;
        k.pre = std::max(k.pre, t + t_.write_to_precharge());
        g.rd = std::max(g.rd, t + t_.write_to_read_l());
        r.rd = std::max(r.rd, t + t_.write_to_read_s());
        g.wr = std::max(g.wr, t + t_.tCCD_L);
        r.wr = std::max(r.wr, t + t_.tCCD_S);
        data_end_ = t + t_.CWL + t_.tBURST;
    } else {
        --reads_;
        ++stats_.reads;
        k.pre = std::max(k.pre, t + t_.tRTP);
        g.rd = std::max(g.rd, t + t_.tCCD_L);
        r.rd = std::max(r.rd, t + t_.tCCD_S);
        wr_after_rd_ = std::max(wr_after_rd_, t + t_.tRTW);
        data_end_ = t + t_.CL + t_.tBURST;
    }
    data_rank_ = static_cast<int>(rank);
    stats_.data_busy += t_.tBURST;
    if (cfg_.page_policy == PagePolicy::Closed) {
        // Closed page: close the row once no queued burst wants it.
        auto same_row = [&](const Burst* x) { return x->row == b->row; };
        const bool close =
            std::none_of(k.reads.begin(), k.reads.end(), same_row) && std::none_of(k.writes.begin(), k.writes.end(), same_row);
        if (close && !k.close_after) ++closes_;
        if (!close && k.close_after) --closes_;
        k.close_after = close;
    }
    return data_end_;
}

void ChannelController::refreshed_rank(Rank& r, std::uint32_t rank, Tick t) {
    const std::size_t first = static_cast<std::size_t>(rank) * banks_per_rank_;
    for (std::size_t b = first; b < first + banks_per_rank_; ++b) {
        banks_[b].act = std::max(banks_[b].act, t + t_.tRFC);
        banks_[b].stale();
    }
    r.ref = t + t_.tRFC;
    r.act = std::max(r.act, t + t_.tRFC);
    refreshing_ = false;
    refresh_->issued();
    ++refs_;
}

void ChannelController::refreshed_bank(Bank& k, Rank& r, Tick t) {
    k.act = std::max(k.act, t + t_.tRFCpb);
    r.act = std::max(r.act, t + t_.tRRD_S);
    refreshing_ = false;
    refresh_->issued();
    ++refpbs_;
}

Tick ChannelController::advance(Tick until) {
    // Nothing queued since the last call and nothing due by `until`: same answer as before.
    if (!dirty_ && until < next_) return next_;
    // Without an enqueue since the last return the state is unchanged: so is its best command.
    bool reuse = !dirty_ && last_ok_;
    dirty_ = false;
    last_ok_ = false;
    for (;;) {
        const bool mode = write_mode_;
        update_write_mode();
        Candidate c = reuse && mode == write_mode_ ? last_ : best();
        reuse = false;
        if (!refreshing_) {
            const Tick due = refresh_->next_due();
            // A refresh falling due before the next command changes what may issue next.
            if (due <= std::min(c.time, until)) {
                refreshing_ = true;
                ref_target_ = refresh_->next_target();
                ref_due_ = due;
                floor_ = std::max(floor_, due);
                continue;
            }
            if (!c.valid() || c.time > until) {
                next_ = std::min(c.time, due);
                last_ = c;
                last_ok_ = true;
                return next_;
            }
        } else if (!c.valid() || c.time > until) {
            if (!c.valid()) throw std::logic_error("dram controller: refresh without a command to issue");
            next_ = c.time;
            last_ = c;
            last_ok_ = true;
            return next_;
        }
        issue(c);
    }
}

void ChannelController::drain() {
    advance(floor_);
    while (queued() > 0) advance(next_);
}

double ChannelController::refreshes_through(Tick until) const {
    const auto due = static_cast<double>(refresh_->due_through(until));
    if (cfg_.refresh == RefreshMode::PerBank)
        return std::max(static_cast<double>(refpbs_), due) / static_cast<double>(banks_per_rank_);
    return std::max(static_cast<double>(refs_), due);
}

}  // namespace mcmsim
