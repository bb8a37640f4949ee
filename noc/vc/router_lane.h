#pragma once
// One lane of a VcNetwork: a block of routers stepped by one thread, with everything a cycle
// of theirs writes that is not router state: their wake calendar, the VC allocation scratch,
// and what they hand to routers of other lanes.
//
// Why lanes: a busy network steps every router every cycle, and within a cycle the routers
// are independent (flits and credits between routers take at least one cycle). So the
// routers of a cycle can be stepped by several threads, as long as no thread writes into a
// router another thread is stepping. A lane therefore never touches another lane's routers
// during a cycle: a flit or credit for one is posted here and delivered by the network once
// all lanes have finished the cycle (it is due a cycle later at the earliest, so nothing
// can miss it). Ejections are logged too, with one lane as with several, and replayed in
// router order once the cycle is done, because the listener and the packet pool are shared
// and what the listener does with them (a full system's endpoints wake in that order) must
// not depend on which lane stepped which router. So the result does not depend on how many
// lanes there are nor on which thread steps which lane; with one lane nothing is posted.
#include "noc/vc/flit.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

class VcRouter;

/// A VC allocation request of this cycle (input VC asks for output VC).
struct VaRequest {
    int out_port, out_vc, port, vc;
    int distance;  ///< round-robin distance from the output VC's last winner
};

/// A flit that crossed into another lane: VcRouter::receive() of `to`, delivered later.
struct PostedFlit {
    VcRouter* to;
    int port, vc;
    Flit flit;
    Cycle arrival;
};

/// A credit for a router of another lane: VcRouter::credit() of `to`, delivered later.
struct PostedCredit {
    VcRouter* to;
    int port, vc;
    Cycle at;
};

/// A flit leaving the network at router `router`: VcNetwork::eject(), replayed after the cycle.
struct LoggedEjection {
    Flit flit;
    Cycle when;
    int router;
    std::uint32_t seq;  ///< order within the lane's cycle (a router's own flits keep theirs)
};

struct RouterLane {
    /// Wake calendar of the lane's routers: a wheel of per-cycle buckets (VcNetwork sizes it
    /// longer than any delay a router asks for). Buckets may hold stale entries.
    std::vector<std::vector<VcRouter*>> wheel;
    std::int64_t scheduled = 0;  ///< entries in the wheel, stale ones included

    // VC allocation scratch of the router being stepped (a lane steps one at a time): its
    // requests, and per output VC the shortest round-robin distance asked (INT_MAX between
    // steps). One copy per lane stays in cache; one per router would not.
    std::vector<VaRequest> va_requests;
    std::vector<int> va_shortest;

    /// With more than one lane: cross-lane flits and credits of this cycle.
    bool posts = false;
    std::vector<PostedFlit> flits_out;
    std::vector<PostedCredit> credits_out;
    /// Ejections of this cycle (with any number of lanes).
    std::vector<LoggedEjection> ejections;

    std::int64_t flits_injected = 0;
    Cycle last_progress = 0;  ///< last cycle a flit of this lane's routers moved or entered
};

}  // namespace mcmsim
