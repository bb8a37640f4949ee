#pragma once
// Round-robin arbitration, the building block of the separable allocators in the VC router:
// among the requesters, grant the first one after the last winner (rotating priority), so
// that no requester starves.
#include <cstdint>

namespace mcmsim {

class RoundRobinArbiter {
public:
    /// Clears the requests of this round.
    void reset() {
        best_ = -1;
        best_distance_ = -1;
    }
    /// Adds requester `i` out of `n`.
    void request(int i, int n) {
        int d = i - last_ - 1;
        if (d < 0) d += n;
        if (best_ < 0 || d < best_distance_) {
            best_ = i;
            best_distance_ = d;
        }
    }
    /// The winner of this round (-1 if nobody asked). Call grant() to move the priority.
    int winner() const { return best_; }
    void grant(int i) { last_ = i; }

private:
    int last_ = -1;
    int best_ = -1, best_distance_ = -1;
};

/// Requesters held in a bit mask (VCs of one input port): the first set bit at or after the
/// one following the last winner.
inline int round_robin_pick(std::uint64_t mask, int last, int n) {
    if (!mask) return -1;
    int start = last + 1 >= n ? 0 : last + 1;
    std::uint64_t upper = mask & (~std::uint64_t{0} << start);
    return upper ? __builtin_ctzll(upper) : __builtin_ctzll(mask);
}

}  // namespace mcmsim
