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
#include "hw/energy/energy_ledger.h"
#include "noc/flit.h"
#include "noc/noc_config.h"
#include "noc/round_robin.h"
#include "noc/routing/routing_function.h"

#include <systemc>

#include <deque>
#include <string>
#include <vector>

namespace mcmsim {

class VcNetwork;

struct VcRouterStats {
    std::int64_t flits = 0;         ///< flits through the crossbar (= buffer writes = reads)
    std::int64_t packets = 0;       ///< head flits routed
    std::int64_t injected_flits = 0;
    std::int64_t ejected_flits = 0;
    std::int64_t va_conflicts = 0;  ///< VA requests that lost
    std::int64_t sa_conflicts = 0;  ///< SA requests that lost
};

class VcRouter : public sc_core::sc_module, private PortLoad {
public:
    VcRouter(sc_core::sc_module_name name, int id, VcNetwork& net, const NocConfig& cfg, int ports);

    /// Wiring: output `port` feeds input `down_port` of `down` over a link of class `link`.
    void connect_output(int port, VcRouter* down, int down_port, const NocLinkConfig& link, int channel);
    /// Wiring: input `port` is fed by output `up_port` of `up`; credits take `credit_delay`.
    void connect_input(int port, VcRouter* up, int up_port, int credit_delay);

    /// The network interface queues a new packet for injection (unbounded source queue).
    void enqueue(std::uint32_t packet) { source_.push_back(packet); }
    /// A flit from upstream, fully received at `arrival`, into VC `vc` of input `port`.
    void receive(int port, int vc, const Flit& f, Cycle arrival);
    /// A credit for VC `vc` of output `port` becomes usable at `at`.
    void credit(int port, int vc, Cycle at);

    /// Does everything due at `now` and asks the network for the next wake-up.
    void step(Cycle now);

    int id() const { return id_; }
    const VcRouterStats& stats() const { return stats_; }
    /// Flits held in input buffers (received or still on the wire), and queued at the NI.
    int buffered_flits() const;
    std::size_t source_queue() const { return source_.size(); }
    /// Flits that crossed the link behind output `port` (0 for the ejection port).
    std::int64_t link_flits(int port) const { return out_[port].flits; }
    int link_channel(int port) const { return out_[port].channel; }
    /// Full-system use: book energy per flit as it moves (router account, link accounts, and
    /// the layer account of the packet's payload). Synthetic runs book totals at the end.
    void set_energy(EnergyAccount* router, double pj_per_flit) {
        energy_ = router;
        pj_per_flit_ = pj_per_flit;
    }
    void set_link_energy(int port, EnergyAccount* link, double pj_per_flit, EnergyCategory category) {
        out_[port].energy = link;
        out_[port].pj_per_flit = pj_per_flit;
        out_[port].category = category;
    }

    Cycle wake_at = -1;  ///< earliest cycle the network will call step() (scheduler bookkeeping)

private:
    enum class VcState : std::uint8_t { Idle, WaitingForVc, Active };
    struct InputVc {
        FlitRing buffer;
        VcState state = VcState::Idle;
        VcClass vc_class = VcClass::Any;
        int out_port = -1, out_vc = -1;
        Cycle ready_at = 0;     ///< earliest cycle of the next stage (VA, or SA for the next flit)
        Cycle front_since = 0;  ///< when the front flit became the front (after the previous tail)
        int va_last = -1;       ///< round-robin pointer over output VCs
    };
    struct InputPort {
        std::vector<InputVc> vcs;
        std::uint64_t occupied = 0;  ///< bit v: VC v has flits
        std::uint64_t active = 0;    ///< bit v: VC v holds an output VC (its flits only need SA)
        int sa_last = -1;
        VcRouter* up = nullptr;
        int up_port = -1, credit_delay = 1;
    };
    struct PendingCredit {
        Cycle at;
        int vc;
    };
    struct OutputPort {
        bool eject = false;
        bool connected = false;
        VcRouter* down = nullptr;
        int down_port = -1, channel = -1;
        int latency = 1, cycles_per_flit = 1;
        std::vector<int> credits;
        std::vector<std::uint8_t> owned;  ///< output VC allocated to a packet
        std::vector<RoundRobinArbiter> va_arbiters;  ///< one per output VC
        RoundRobinArbiter sa_arbiter;                ///< over input ports
        std::vector<PendingCredit> pending;  ///< ring: credits on their way back, in arrival order
        int pending_head = 0, pending_size = 0;
        Cycle free_at = 0;  ///< serialising links accept a flit every cycles_per_flit
        std::int64_t flits = 0;
        EnergyAccount* energy = nullptr;
        double pj_per_flit = 0;
        EnergyCategory category = EnergyCategory::Noc;
    };
    struct VaRequest {
        int out_port, out_vc, input;  ///< input = port * vcs + vc
    };

    void apply_credits(Cycle now);
    void inject_from_source(Cycle now);
    void compute_routes_and_request_vcs(Cycle now);
    void allocate_vcs(Cycle now);
    void allocate_switch(Cycle now);
    void traverse(int in_port, int vc, Cycle now);
    void book_energy(const Flit& f, const OutputPort& o);
    int pick_output_vc(InputVc& q, const OutputPort& o) const;
    void wake_no_later_than(Cycle t) {
        if (t < next_wake_) next_wake_ = t;
    }
    int free_slots(int port) const override;

    int id_;
    VcNetwork& net_;
    const NocConfig& cfg_;
    const RoutingFunction* routing_ = nullptr;
    int ports_, vcs_;
    int route_cycles_, va_cycles_, traversal_cycles_;  ///< traversal = SA + ST
    std::vector<InputPort> in_;
    std::vector<OutputPort> out_;
    std::deque<std::uint32_t> source_;
    std::vector<BufferedFlit> slots_;  ///< every input VC buffer of this router
    bool va_blocked_ = false, ni_blocked_ = false, moved_ = false;
    int ni_vc_ = -1;      ///< local input VC the packet at the head of the source queue is entering
    int ni_last_ = -1;
    std::vector<VaRequest> va_requests_;
    std::vector<int> sa_choice_;       ///< per input port: the VC it put forward in SA
    std::vector<int> sa_requested_;    ///< output ports with SA requests this cycle
    Cycle next_wake_ = 0;
    VcRouterStats stats_;
    EnergyAccount* energy_ = nullptr;
    double pj_per_flit_ = 0;

    friend class VcNetwork;
};

}  // namespace mcmsim
