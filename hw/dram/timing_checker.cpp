#include "hw/dram/timing_checker.h"

#include <sstream>

namespace mcmsim {

namespace {
constexpr std::size_t kKeepViolations = 20;
int k(DramCommand c) { return static_cast<int>(c); }
}  // namespace

TimingChecker::TimingChecker(const DramConfig& cfg) : cfg_(cfg), t_(dram_ticks(cfg.timing)) {
    using C = DramCommand;
    const DramTicks& t = t_;
    rules_ = {
        {C::Act, C::Rd, SameBank, t.tRCD, "tRCD"},
        {C::Act, C::Wr, SameBank, t.tRCD, "tRCD"},
        {C::Act, C::Pre, SameBank, t.tRAS, "tRAS"},
        {C::Act, C::Act, SameBank, t.tRC, "tRC"},
        {C::Pre, C::Act, SameBank, t.tRP, "tRP"},
        {C::Rd, C::Pre, SameBank, t.tRTP, "tRTP"},
        {C::Wr, C::Pre, SameBank, t.write_to_precharge(), "tWR"},
        {C::Pre, C::RefPb, SameBank, t.tRP, "tRP (before REFPB)"},
        {C::RefPb, C::Act, SameBank, t.tRFCpb, "tRFCpb"},
        {C::Act, C::Act, SameBankGroup, t.tRRD_L, "tRRD_L"},
        {C::Rd, C::Rd, SameBankGroup, t.tCCD_L, "tCCD_L"},
        {C::Wr, C::Wr, SameBankGroup, t.tCCD_L, "tCCD_L"},
        {C::Wr, C::Rd, SameBankGroup, t.write_to_read_l(), "tWTR_L"},
        {C::Act, C::Act, SameRank, t.tRRD_S, "tRRD_S"},
        {C::Act, C::RefPb, SameRank, t.tRRD_S, "tRRD_S (before REFPB)"},
        {C::RefPb, C::Act, SameRank, t.tRRD_S, "tRRD_S (after REFPB)"},
        {C::RefPb, C::RefPb, SameRank, t.tRRD_S, "tRRD_S (REFPB to REFPB)"},
        {C::Rd, C::Rd, SameRank, t.tCCD_S, "tCCD_S"},
        {C::Wr, C::Wr, SameRank, t.tCCD_S, "tCCD_S"},
        {C::Wr, C::Rd, SameRank, t.write_to_read_s(), "tWTR_S"},
        {C::Pre, C::Ref, SameRank, t.tRP, "tRP (before REF)"},
        {C::Ref, C::Act, SameRank, t.tRFC, "tRFC"},
        {C::Ref, C::Ref, SameRank, t.tRFC, "tRFC (REF to REF)"},
        {C::Ref, C::RefPb, SameRank, t.tRFC, "tRFC (REF to REFPB)"},
        {C::Rd, C::Wr, SameUnit, t.tRTW, "tRTW"},
    };
    const auto& g = cfg.org;
    bg_count_ = static_cast<std::size_t>(g.bank_groups);
    bank_count_ = static_cast<std::size_t>(g.banks_per_group);
    Last none;
    none.fill(kNever);
    Unit u;
    u.banks.assign(static_cast<std::size_t>(g.ranks * g.banks_per_rank()), Bank{none, -1});
    u.groups.assign(static_cast<std::size_t>(g.ranks * g.bank_groups), none);
    u.ranks.assign(static_cast<std::size_t>(g.ranks), none);
    u.faw.assign(static_cast<std::size_t>(g.ranks), {});
    u.faw_count.assign(static_cast<std::size_t>(g.ranks), 0);
    u.unit = none;
    units_.assign(static_cast<std::size_t>(cfg.units()), u);
}

void TimingChecker::violation(const IssuedCommand& c, const std::string& what) {
    ++count_;
    if (violations_.size() >= kKeepViolations) return;
    std::ostringstream s;
    s << "unit " << c.unit << " rank " << c.rank << " bg " << c.bank_group << " bank " << c.bank << ": " << to_string(c.cmd)
      << " at " << c.time << " ps: " << what;
    violations_.push_back(s.str());
}

Tick TimingChecker::last_in_scope(const Unit& u, const IssuedCommand& c, Scope s, DramCommand kind) const {
    const std::size_t g = c.rank * bg_count_ + c.bank_group;
    switch (s) {
        case SameBank:
            return u.banks[g * bank_count_ + c.bank].last[static_cast<std::size_t>(k(kind))];
        case SameBankGroup:
            return u.groups[g][static_cast<std::size_t>(k(kind))];
        case SameRank:
            return u.ranks[c.rank][static_cast<std::size_t>(k(kind))];
        case SameUnit:
            return u.unit[static_cast<std::size_t>(k(kind))];
    }
    return kNever;
}

void TimingChecker::on_command(const IssuedCommand& c) {
    ++checked_;
    if (c.unit >= units_.size() || c.rank >= units_[0].ranks.size() || c.bank_group >= bg_count_ || c.bank >= bank_count_) {
        violation(c, "no such unit/rank/bank");
        return;
    }
    Unit& u = units_[c.unit];
    Bank& bank = u.banks[(c.rank * bg_count_ + c.bank_group) * bank_count_ + c.bank];
    // Command bus: one command per clock, in time order.
    if (u.last_cmd != kNever && c.time < u.last_cmd + t_.tCK)
        violation(c, "command bus: less than tCK after the previous command");
    check_distances(u, c);
    check_state(u, bank, c);
    record(u, bank, c);
}

void TimingChecker::check_distances(const Unit& u, const IssuedCommand& c) {
    for (const Rule& r : rules_) {
        if (r.after != c.cmd) continue;
        if (c.cmd == DramCommand::Ref && r.scope == SameBank) continue;
        const Tick last = last_in_scope(u, c, r.scope, r.before);
        if (last != kNever && c.time < last + r.distance)
            violation(c, std::string(r.name) + ": " + std::to_string(c.time - last) + " ps after " + to_string(r.before) +
                             ", need " + std::to_string(r.distance));
    }
    // All-bank refresh: every bank's own ACT/PRE history counts (tRC, tRP via rank PRE above).
    if (c.cmd == DramCommand::Ref) {
        const std::size_t rank_first = c.rank * bg_count_ * bank_count_, rank_banks = bg_count_ * bank_count_;
        for (std::size_t b = rank_first; b < rank_first + rank_banks; ++b) {
            if (u.banks[b].open_row >= 0) violation(c, "REF with a bank open");
            Tick a = u.banks[b].last[static_cast<std::size_t>(k(DramCommand::RefPb))];
            if (a != kNever && c.time < a + t_.tRFCpb) violation(c, "tRFCpb before REF");
        }
    }
}

void TimingChecker::check_state(Unit& u, Bank& bank, const IssuedCommand& c) {
    switch (c.cmd) {
        case DramCommand::Act:
            if (bank.open_row >= 0) violation(c, "ACT to an open bank");
            break;
        case DramCommand::Rd:
        case DramCommand::Wr:
            if (bank.open_row < 0) violation(c, "column command to a closed bank");
            else if (bank.open_row != static_cast<std::int64_t>(c.row)) violation(c, "column command to another row");
            break;
        case DramCommand::RefPb:
            if (bank.open_row >= 0) violation(c, "REFPB to an open bank");
            break;
        default:
            break;
    }
    // Four-activate window.
    if (c.cmd == DramCommand::Act) {
        auto& ring = u.faw[c.rank];
        int& n = u.faw_count[c.rank];
        if (n >= 4) {
            Tick oldest = ring[static_cast<std::size_t>(n % 4)];
            if (c.time < oldest + t_.tFAW) violation(c, "tFAW: a fifth ACT within tFAW");
        }
        ring[static_cast<std::size_t>(n % 4)] = c.time;
        ++n;
    }
    // Data bus: bursts must not overlap; a rank switch needs tRTRS between them.
    if (c.cmd == DramCommand::Rd || c.cmd == DramCommand::Wr) {
        Tick start = c.time + (c.cmd == DramCommand::Rd ? t_.CL : t_.CWL);
        Tick need = u.data_end + (u.data_rank >= 0 && u.data_rank != c.rank ? t_.tRTRS : 0);
        if (u.data_rank >= 0 && start < need) violation(c, "data bus: burst overlaps the previous one");
        u.data_end = start + t_.tBURST;
        u.data_rank = c.rank;
    }
}

void TimingChecker::record(Unit& u, Bank& bank, const IssuedCommand& c) {
    const auto ki = static_cast<std::size_t>(k(c.cmd));
    if (c.cmd == DramCommand::Ref) {
        const std::size_t rank_first = c.rank * bg_count_ * bank_count_, rank_banks = bg_count_ * bank_count_;
        for (std::size_t b = rank_first; b < rank_first + rank_banks; ++b) u.banks[b].last[ki] = c.time;
    } else {
        bank.last[ki] = c.time;
    }
    const std::size_t g = c.rank * bg_count_ + c.bank_group;
    u.groups[g][ki] = c.time;
    u.ranks[c.rank][ki] = c.time;
    u.unit[ki] = c.time;
    u.last_cmd = c.time;
    if (c.cmd == DramCommand::Act) bank.open_row = c.row;
    if (c.cmd == DramCommand::Pre) bank.open_row = -1;
}

}  // namespace mcmsim
