#pragma once
// When refreshes fall due and what they cover: the strategy behind all-bank and per-bank
// refresh. The controller asks for the next due time; once it is reached it blocks the
// target (a rank, or one bank), precharges it, issues REF/REFPB and reports it back.
#include "hw/dram/dram_config.h"
#include "hw/time/tick.h"

#include <memory>
#include <vector>

namespace mcmsim {

struct RefreshTarget {
    int rank = 0;
    int bank = -1;  ///< flat bank index within the rank; -1 = all banks (REF)
};

class RefreshPolicy {
public:
    virtual ~RefreshPolicy() = default;
    virtual Tick next_due() const = 0;
    virtual RefreshTarget next_target() const = 0;
    /// The refresh returned by next_target() has been issued: schedule the following one.
    virtual void issued() = 0;
    /// Refreshes that fall due in [0, until] (for counts over an idle tail).
    virtual std::int64_t due_through(Tick until) const = 0;
};

/// REF every tREFI per rank; ranks staggered by tREFI / ranks so they do not stall together.
class AllBankRefresh : public RefreshPolicy {
public:
    AllBankRefresh(Tick trefi, int ranks) : trefi_(trefi), due_(static_cast<std::size_t>(ranks)) {
        for (int r = 0; r < ranks; ++r)
            due_[static_cast<std::size_t>(r)] = trefi + static_cast<Tick>(r) * trefi / static_cast<Tick>(ranks);
    }
    Tick next_due() const override { return due_[earliest()]; }
    RefreshTarget next_target() const override { return {static_cast<int>(earliest()), -1}; }
    void issued() override { due_[earliest()] += trefi_; }
    std::int64_t due_through(Tick until) const override {
        std::int64_t n = 0;
        const auto ranks = static_cast<Tick>(due_.size());
        for (std::size_t r = 0; r < due_.size(); ++r) {
            Tick first = trefi_ + static_cast<Tick>(r) * trefi_ / ranks;
            if (until >= first) n += static_cast<std::int64_t>((until - first) / trefi_ + 1);
        }
        return n;
    }

private:
    std::size_t earliest() const {
        std::size_t best = 0;
        for (std::size_t r = 1; r < due_.size(); ++r)
            if (due_[r] < due_[best]) best = r;
        return best;
    }
    Tick trefi_;
    std::vector<Tick> due_;
};

/// REFPB to one bank every tREFI / banks, round robin over the banks of each rank.
class PerBankRefresh : public RefreshPolicy {
public:
    PerBankRefresh(Tick trefi, int ranks, int banks)
        : step_(trefi / static_cast<Tick>(banks)), banks_(banks), ranks_(ranks), due_(step_) {}
    Tick next_due() const override { return due_; }
    RefreshTarget next_target() const override {
        const auto n = static_cast<int>(count_);
        return {n % ranks_, (n / ranks_) % banks_};
    }
    void issued() override {
        ++count_;
        if (count_ % static_cast<std::uint64_t>(ranks_) == 0) due_ += step_;
    }
    std::int64_t due_through(Tick until) const override {
        return until >= step_ ? static_cast<std::int64_t>((until / step_) * static_cast<Tick>(ranks_)) : 0;
    }

private:
    Tick step_;
    int banks_, ranks_;
    Tick due_;
    std::uint64_t count_ = 0;
};

inline std::unique_ptr<RefreshPolicy> make_refresh_policy(const DramConfig& cfg, Tick trefi) {
    const int ranks = static_cast<int>(cfg.org.ranks);
    if (cfg.refresh == RefreshMode::PerBank)
        return std::make_unique<PerBankRefresh>(trefi, ranks, static_cast<int>(cfg.org.banks_per_rank()));
    return std::make_unique<AllBankRefresh>(trefi, ranks);
}

}  // namespace mcmsim
