#pragma once
// The analytical model's hottest loop: a message reserving the links of its path, each link a
// first-come-first-served server with a "free at" time (hundreds of thousands of link
// reservations per whole-network estimate), and the path layout it reads.
//
// A path's first step is its injection link, which a message reaches at once (head time 0);
// the scheduler treats it on its own (a send's flows queue on their network interface one after
// another). The other steps sit two to a record, so that two links are reserved with one
// instruction per operation (SSE2, in every x86-64 CPU; elsewhere the same operations one
// step at a time): each lane does the very operations the one-step code does, in the same
// order, and the result is a maximum, which does not depend on the order it is taken in.
// Pure C++.
#include <algorithm>
#include <cstdint>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mcmsim {

/// One link of a path: when an unloaded message's head reaches it, counted from the
/// message's start (routers' pipelines and earlier links' latency and first flit), and how
/// long a byte holds it: the slowest link so far on the path (cut-through: the tail cannot
/// leave before it has arrived), in ns per byte.
struct PathStep {
    int link;
    double z;
    double hold;
};

/// Two consecutive steps of a path (after its first): per lane, the step's PathStep. A path
/// with an odd number of them repeats its last step in the last record's second lane: both
/// lanes read the link's free time before either writes it, compute the same value and store
/// it twice, which is the one step exactly.
struct StepPair {
    double z[2];
    double hold[2];
    std::int32_t link[2];
};

/// A path as the scheduler reads it, one per node pair or source route.
struct PathRef {
    const StepPair* rest;     ///< the steps after the first, two to a record
    std::uint32_t records;    ///< how many records
    std::int32_t first_link;  ///< the injection link (head time 0)
    double first_hold;        ///< its hold, ns per byte
    double head_ns;           ///< zero-load head latency of a one-flit packet
};

/// Paths packed for the scheduler. Takes paths one by one (StepWriter's steps), then hands
/// out their PathRefs, which point into it: valid until it takes another path or is cleared.
class PathStore {
public:
    void clear();
    /// Appends a path (injection link first); returns its number.
    std::uint32_t add(const std::vector<PathStep>& steps, double head_ns);
    /// Every path added, by number.
    const PathRef* refs();

private:
    std::vector<StepPair> pairs_;
    std::vector<PathRef> refs_;
    std::vector<std::size_t> rest_at_;  ///< per path: its first record in pairs_
    bool pointers_ = false;             ///< refs_' rest pointers are set
};

/// Reserves the links of a path after its first step for a message of `wire` bytes that left
/// at `t`. Each link is a first-come-first-served queue that the message joins when its head
/// would reach it on a free network (t plus the head's zero-load time to it), in the order
/// messages leave: queueing at one link does not delay the message's arrival at the next, so
/// the message's wait is the longest single wait on its path, not their sum (behind a
/// congested link its bytes come out at that link's rate, and the links after it see no queue
/// of their own from it). A link stays busy for the slowest serialisation so far on the path
/// (virtual cut-through, as the simulator's packet links: a packet's tail cannot leave before
/// it has arrived). Returns when the tail has left the last link, minus that link's head time,
/// at least `e` (the same for the steps before: a floor). The tail reaches the destination at
/// the result + the path's head latency.
///
/// Per step: f = max(t + z, f) + wire * hold; e = max(e, f - z). The two steps of a record are
/// consecutive on the path, so never the same link (a link leads away from the router the one
/// before it leads into), or the same step twice.
inline double reserve_rest(double* free, const StepPair* p, std::uint32_t records, double t, double e, double wire) {
    const StepPair* const end = p + records;
#if defined(__SSE2__)
    const __m128d tt = _mm_set1_pd(t), ww = _mm_set1_pd(wire);
    __m128d ee = _mm_set1_pd(e);
    for (; p != end; ++p) {
        double* f0 = free + p->link[0];
        double* f1 = free + p->link[1];
        const __m128d z = _mm_loadu_pd(p->z);
        __m128d f = _mm_loadh_pd(_mm_load_sd(f0), f1);
        // std::max(a, b) is b > a ? b : a, which is _mm_max_pd(b, a), NaNs and zeros alike.
        f = _mm_add_pd(_mm_max_pd(f, _mm_add_pd(tt, z)), _mm_mul_pd(ww, _mm_loadu_pd(p->hold)));
        _mm_store_sd(f0, f);
        _mm_storeh_pd(f1, f);
        ee = _mm_max_pd(_mm_sub_pd(f, z), ee);
    }
    return std::max(_mm_cvtsd_f64(ee), _mm_cvtsd_f64(_mm_unpackhi_pd(ee, ee)));
#else
    for (; p != end; ++p) {
        double& f0 = free[p->link[0]];
        double& f1 = free[p->link[1]];
        const double old0 = f0, old1 = f1;  // both read first, as the two lanes do
        f0 = std::max(t + p->z[0], old0) + wire * p->hold[0];
        f1 = std::max(t + p->z[1], old1) + wire * p->hold[1];
        e = std::max(e, std::max(f0 - p->z[0], f1 - p->z[1]));
    }
    return e;
#endif
}

/// A whole path (reserve_rest after the injection link, whose head time is 0: t + 0 is t and
/// f - 0 is f, so this is the general step's arithmetic).
inline double reserve_path(double* free, const PathRef& p, double t, double e, double wire) {
    double& f = free[p.first_link];
    f = std::max(t, f) + wire * p.first_hold;
    return reserve_rest(free, p.rest, p.records, t, std::max(e, f), wire);
}

}  // namespace mcmsim
