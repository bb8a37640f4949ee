#pragma once
// Input-queued virtual-channel router: wormhole switching, credit-based flow control, and a
// four-stage pipeline for head flits:
//
//   RC  route computation       (routing/routing_function.h; skipped with lookahead routing)
//   VA  VC allocation           separable input-first, round-robin (allocate_vcs)
//   SA  switch allocation       separable input-first, round-robin (allocate_switch)
//   ST  switch traversal        then the link to the next router (or the ejection channel)
//
// Body and tail flits follow the head's VC and only compete in SA; the tail frees the VC.
// Each stage's length comes from the config, so the head spends RC+VA+SA+ST cycles per router.
//
// Timing is event-driven: the router is a named SystemC module with statistics but no
// process of its own. VcNetwork calls step() only at cycles the router asked for, and step()
// ends by computing the next cycle anything here can progress (a flit arrives, a stage
// finishes, an allocation is retried). A router blocked on credits sleeps until the credit
// arrives; an idle router costs nothing.
//
// Layout for speed: under load a router is stepped almost every cycle and each step looks
// at every VC holding flits, so that look must be cheap. Each input VC keeps in one small
// record the cycle its front flit can take its next stage (`due`) and the front flit itself
// (with the route a head carries); the allocators, RC and ST read these records, never the
// flit buffers nor the packet record. The records of a router sit in one array; the flits
// queued behind the fronts (slot-major, restarting at slot 0 when emptied), credits and VC
// ownership in flat arrays and bit masks. Buffer slots are only touched when a flit arrives
// at a VC that already holds one.
#include "hw/energy/energy_ledger.h"
#include "noc/noc_config.h"
#include "noc/routing/routing_function.h"
#include "noc/vc/flit.h"
#include "noc/vc/round_robin.h"
#include "noc/vc/router_lane.h"
#include "noc/vc/small_ring.h"

#include <systemc>

#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcmsim {

class VcNetwork;

struct VcRouterStats {
    std::int64_t flits = 0;    ///< flits through the crossbar (= buffer writes = reads)
    std::int64_t packets = 0;  ///< head flits routed
    std::int64_t injected_flits = 0;
    std::int64_t ejected_flits = 0;
    std::int64_t va_conflicts = 0;  ///< VA requests that lost
    std::int64_t sa_conflicts = 0;  ///< SA requests that lost
};

/// Fixed point for sub-cycle link timing: one cycle is 2^16 units, so that a flit taking
/// 2.55 cycles on a link is not rounded to 3 and a run stays exact and deterministic.
constexpr std::int64_t kFpCycle = std::int64_t{1} << 16;
inline std::int32_t to_fp(double cycles) {
    return static_cast<std::int32_t>(std::llround(cycles * static_cast<double>(kFpCycle)));
}

class VcRouter : public sc_core::sc_module, private PortLoad {
public:
    VcRouter(sc_core::sc_module_name name, int id, VcNetwork& net, const VcNetworkConfig& cfg, int ports);

    /// Wiring: output `port` feeds input `down_port` of `down` over a link of class `link`.
    void connect_output(int port, VcRouter* down, int down_port, const NocLinkConfig& link, int channel);
    /// Wiring: input `port` is fed by output `up_port` of `up`; credits take `credit_delay`.
    void connect_input(int port, VcRouter* up, int up_port, int credit_delay);

    /// The local port's bandwidth, for injection and ejection: cycles per flit (fractional)
    /// and flits per cycle.
    void set_local_port(double cycles_per_flit, int flits_per_cycle) {
        out_[kLocalPort].serial_fp = to_fp(cycles_per_flit);
        out_[kLocalPort].width = static_cast<std::int16_t>(std::max(1, flits_per_cycle));
    }
    /// The network interface queues a new packet for injection (unbounded source queue).
    void enqueue(std::uint32_t packet) {
        source_.push_back(packet);
        ++queued_;
    }
    /// A flit from upstream, fully received at `arrival`, into VC `vc` of input `port`.
    void receive(int port, int vc, const Flit& f, Cycle arrival);
    /// A credit for VC `vc` of output `port` becomes usable at `at`.
    void credit(int port, int vc, Cycle at);

    /// Does everything due at `now` and asks the network for the next wake-up.
    void step(Cycle now);
    /// Cache hints, issued while the router stepped before this one runs: the VC masks of
    /// each port (`masks`), or the records of the VCs holding flits (`records`). The state
    /// of a whole network does not fit the L1 cache and every busy router is stepped each
    /// cycle, so without them each step starts with a series of cache misses.
    void prefetch_masks() const {
        __builtin_prefetch(&stats_);  // the third hot line (the masks' loads bring the first two)
        for (int i = 0; i < ports_; ++i) {
            __builtin_prefetch(&in_[i]);
            __builtin_prefetch(&out_[i]);
        }
    }
    void prefetch_records() const {
        for (int i = 0; i < ports_; ++i)
            for (std::uint64_t m = in_[static_cast<std::size_t>(i)].occupied; m; m &= m - 1)
                __builtin_prefetch(&ivc_[static_cast<std::size_t>(i * vcs_ + __builtin_ctzll(m))]);
    }

    /// Cache hints for a neighbour about to call receive() or credit() on this router.
    void prefetch_receive(int port, int v) const {
        __builtin_prefetch(&ivc_[static_cast<std::size_t>(port * vcs_ + v)], 1);
        __builtin_prefetch(&in_[port], 1);
    }
    void prefetch_credit(int port) const { __builtin_prefetch(&out_[port].pending, 1); }

    int id() const { return id_; }
    const VcRouterStats& stats() const { return stats_; }
    /// Flits held in input buffers (received or still on the wire), and queued at the NI.
    int buffered_flits() const;
    std::size_t source_queue() const { return source_.size() + ni_open_.size(); }
    /// Flits that crossed the link behind output `port` (0 for the ejection port).
    std::int64_t link_flits(int port) const { return out_[port].flits; }
    int link_channel(int port) const { return out_[port].channel; }
    /// Full-system use: book energy per flit as it moves, into the router's account and its
    /// links' (each written only by the thread stepping this router). Who the flit's energy
    /// is for (a plan layer) is the network's owner's business, booked when the packet leaves.
    /// Synthetic runs book totals at the end instead.
    void set_energy(EnergyAccount* router, double pj_per_flit) {
        energy_ = router;
        pj_per_flit_ = pj_per_flit;
    }
    void set_link_energy(int port, EnergyAccount* link, double pj_per_flit, EnergyCategory category) {
        out_[port].energy = link;
        out_[port].pj_per_flit = pj_per_flit;
        out_[port].category = category;
    }

    /// Earliest cycle the network will call step() (scheduler bookkeeping). First of the hot
    /// members below, on a cache line of its own: see the member list.
    alignas(64) Cycle wake_at = -1;

private:
    enum class VcState : std::uint8_t { Idle, WaitingForVc, Active };
    /// One input VC: its front flit, the ring of flits behind it (slots in slots_) and its
    /// allocation state. 32 bytes, aligned so that no record straddles two cache lines. The
    /// front flit lives here, not in the ring: with short packets most VCs hold one flit, so
    /// a flit usually moves from one record to the next without touching a buffer slot.
    struct alignas(32) InputVc {
        /// When the front flit can take its next stage: RC (Idle), VA (WaitingForVc) or SA
        /// (Active). Kept up to date whenever the front or the state changes. Needs no
        /// separate "not before" cycle: a flit pushed into an empty VC arrives after the
        /// previous one left (links and the NI take at least a cycle), so its arrival is its
        /// due cycle; a flit moving up to the front is due at max(arrival, next cycle).
        Cycle due = 0;
        /// The front flit (valid while size > 0); a head carries its route (see Flit).
        Flit front;
        std::uint16_t head = 0;  ///< ring position of the first flit behind the front
        std::uint16_t size = 0;  ///< flits held, the front included
        // State and class share a byte so that the VC allocator's round-robin pointer fits
        // the record too: with one-flit packets it is read at every hop.
        VcState state : 2;
        VcClass vc_class : 2;
        std::int8_t out_port = -1, out_vc = -1;
        /// The output VC this VC was granted last: its next request starts after it.
        std::int8_t ovc_last = -1;
        InputVc() : state(VcState::Idle), vc_class(VcClass::Any) {}
    };
    static_assert(sizeof(InputVc) == 32, "two input VC records per cache line");
    /// One cache line.
    struct alignas(64) InputPort {
        std::uint64_t occupied = 0;  ///< bit v: VC v has flits
        std::uint64_t active = 0;    ///< bit v: VC v holds an output VC (its flits only need SA)
        /// Bit v: VC v found no credit for its output VC; its next credit clears the bit
        /// (`owner_`). SA skips these VCs without reading their records.
        std::uint64_t credit_wait = 0;
        /// Bit v: VC v found every output VC of its class taken; a tail leaving through that
        /// output clears the bit (`va_waiters_`). RC/VA skip these VCs.
        std::uint64_t va_wait = 0;
        VcRouter* up = nullptr;
        std::int16_t sa_last = -1;  ///< VCs and ports number at most 64
        std::int16_t up_port = -1;
        std::int16_t credit_delay = 1;
        bool up_elsewhere = false;  ///< `up` is in another lane: credits go by post
    };
    /// A credit for VC `vc`, usable from cycle `at`.
    struct PendingCredit {
        Cycle at;
        int vc;
    };
    /// Two cache lines: what SA and ST read, then the credits on their way back.
    struct alignas(64) OutputPort {
        Cycle free_at = 0;         ///< first cycle the port may send again (see traverse)
        std::int64_t free_fp = 0;  ///< when the link finishes its last flit, in kFpCycle units
        std::uint64_t owned = 0;   ///< bit v: output VC v is allocated to a packet
        VcRouter* down = nullptr;
        std::int64_t flits = 0;
        RoundRobinArbiter sa_arbiter;  ///< over input ports
        int down_port = -1;
        int latency = 1;
        std::int32_t serial_fp = kFpCycle;  ///< serialisation of one flit, in kFpCycle units
        std::int16_t width = 1;             ///< flits the port moves per cycle
        std::int16_t sent = 0;              ///< flits sent in cycle sent_cycle
        Cycle sent_cycle = -1;
        bool eject = false;  ///< the local port (kLocalPort) only
        bool connected = false;
        bool down_elsewhere = false;  ///< `down` is in another lane: flits go by post
        /// Ring of credits on their way back, in arrival order. At most one per cycle leaves
        /// the downstream input, so with short links the few entries in the same cache line
        /// suffice; a longer link's ring moves to the heap (and grows if ever full).
        SmallRing<PendingCredit, 3> pending;
        // Cold.
        int channel = -1;
        EnergyAccount* energy = nullptr;
        double pj_per_flit = 0;
        EnergyCategory category = EnergyCategory::Noc;
    };

    InputVc& vc(int port, int v) { return ivc_[static_cast<std::size_t>(port * vcs_ + v)]; }
    const InputVc& vc(int port, int v) const { return ivc_[static_cast<std::size_t>(port * vcs_ + v)]; }
    /// Slot k of every VC lies together (slot-major), and an emptied ring restarts at slot 0:
    /// light traffic then keeps to the first slots of all VCs, a few cache lines per router.
    BufferedFlit& slot(int port, int v, int k) { return slots_[static_cast<std::size_t>(k * ports_ * vcs_ + port * vcs_ + v)]; }
    void push(int port, int v, const BufferedFlit& f);

    std::int16_t& credits(int port, int v) { return credits_[static_cast<std::size_t>(port * vcs_ + v)]; }
    /// Last input VC ([port * vcs + vc]) granted output VC `v` of `port`: the round-robin
    /// pointer of that output VC's arbiter.
    std::int16_t& va_last(int port, int v) { return va_last_[static_cast<std::size_t>(port * vcs_ + v)]; }
    /// Source-routed head at this router after `hops` links: the port towards the next router.
    RouteDecision follow_path(const FlitPacket& p, int hops) const;

    void apply_credits(Cycle now);
    void inject_from_source(Cycle now);
    bool inject_one(Cycle now);  ///< one flit from the source queue, if the NI and a VC take it
    void compute_routes_and_request_vcs(Cycle now);
    void allocate_vcs(Cycle now);
    void grant_vc(const VaRequest& r, Cycle now);
    void allocate_switch(Cycle now);
    /// Moves the front flit of input VC `vc`; true when the VC's next flit of the same packet
    /// has arrived and may follow in this cycle on a port wider than one flit.
    bool traverse(int in_port, int vc, Cycle now);
    /// Books a flit onto output `o`'s link in cycle `now`; returns the cycles from `now` to the
    /// end of its serialisation, rounded up (1 for a flit that takes one cycle or less).
    Cycle serialise(OutputPort& o, Cycle now);
    bool can_follow(int in_port, int vc, Cycle now) const;
    /// A VC of `in_port` whose front flit may go to output `op` in this cycle too (a wide
    /// port with room left), or -1.
    int next_for_output(int in_port, int op, Cycle now) const;
    void book_energy(const OutputPort& o);
    int pick_output_vc(int port, int v, const OutputPort& o);
    /// Which neighbours are in another lane (after VcNetwork::set_threads).
    void mark_links_to_other_lanes();
    void wake_no_later_than(Cycle t) {
        if (t < next_wake_) next_wake_ = t;
    }
    int free_slots(int port) const override;

    // Hot members, right after wake_at: every step reads them, and so do the neighbours'
    // receive() and credit() calls. A whole network's state does not stay in the L1 cache
    // between two steps of a router, so each line read here is likely a miss: they fit in
    // three lines (wake_at's, then the arrays and sizes, then routing and statistics), and
    // the per-port and per-VC arrays are plain pointers (8 bytes, not 24).
    std::uint64_t ports_occupied_ = 0;   ///< bit p: some VC of input p holds flits (allocators skip the rest)
    std::uint64_t credits_pending_ = 0;  ///< bit p: output p has credits on their way back
    Cycle next_wake_ = 0;
    VcNetwork& net_;
    RouterLane* lane_ = nullptr;  ///< set by the network; its calendar, scratch and posts
    std::unique_ptr<InputPort[]> in_;
    std::unique_ptr<InputVc[]> ivc_;  ///< [port * vcs + vc]
    std::unique_ptr<OutputPort[]> out_;
    /// [port * vcs + vc]: free slots in the downstream VC (2 bytes: 16 VCs in half a line).
    std::unique_ptr<std::int16_t[]> credits_;
    std::unique_ptr<std::int16_t[]> va_last_;  ///< [port * vcs + vc], see va_last()
    std::unique_ptr<BufferedFlit[]> slots_;    ///< every input VC buffer of this router, see slot()
    /// [input port * ports + output port]: bit v, input VC v was routed to that output (set
    /// at RC, stale once the VC is idle again). SA drops every VC bound for a busy output with
    /// one mask, without reading their records.
    std::unique_ptr<std::uint64_t[]> bound_for_;
    /// [port * vcs + vc] of an output VC: the input VC it was last granted to, whose
    /// credit_wait bit its credits clear.
    struct Owner {
        std::int8_t port = -1, vc = -1;
    };
    std::unique_ptr<Owner[]> owner_;
    /// [output port]: bit i, input port i has VCs in va_wait for this output.
    std::unique_ptr<std::uint64_t[]> va_waiters_;
    /// Bit p: output p is wired (RC checks its decisions against it without reading out_).
    std::uint64_t connected_ = 0;
    int ports_, vcs_, depth_;      ///< depth_: ring capacity of every VC (the deepest input's)
    int local_depth_;              ///< flits per VC of the NI's input
    std::int64_t ni_free_fp_ = 0;  ///< the NI finishes pushing its last flit, in kFpCycle units
    Cycle ni_sent_cycle_ = -1;
    int ni_sent_ = 0;
    int id_;
    std::uint32_t queued_ = 0;  ///< packets not fully injected (source_ and ni_open_), kept here: those lie in the cold part
    std::int16_t route_cycles_, va_cycles_, traversal_cycles_;  ///< traversal = SA + ST
    bool ni_blocked_ = false, moved_ = false;
    const RoutingFunction* routing_ = nullptr;
    /// [destination]: the output port, when the routing function depends on position only
    /// (null otherwise): one byte read instead of a call that divides router ids into rows
    /// and columns, for every head at every hop.
    const std::uint8_t* route_table_ = nullptr;
    EnergyAccount* energy_ = nullptr;
    VcRouterStats stats_;
    // Cold: read once per packet, or construction, the network interface's queue, reports.
    struct NiInjection {
        std::uint32_t packet;
        int vc;
    };
    std::vector<NiInjection> ni_open_;  ///< packets the NI has started, oldest first
    int ni_last_ = -1;
    double pj_per_flit_ = 0;
    const VcNetworkConfig& cfg_;
    std::deque<std::uint32_t> source_;

    friend class VcNetwork;
};

}  // namespace mcmsim
