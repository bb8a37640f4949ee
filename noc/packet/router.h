#pragma once
// A packet-level router of the package network: virtual cut-through over the same virtual
// channels and receive buffers as the flit-level VC router (noc/vc), at packet granularity.
//
// Each input (a neighbour's link, or a local node: a chiplet's NI or a memory's PHY) has
// `vcs` VCs, each a FIFO of packets holding at most its buffer's flits. The front packet of a
// VC is routed by the shared MeshTopology (or follows its source route), pays the pipeline
// latency after its head has arrived and the packet before it has left, then needs a VC of
// its class at the next router with room for it (credits); with one, it reserves its output
// link (free when the previous packet's tail has passed) and leaves. Its buffer space is
// credited back to the upstream router when its tail has left, one link latency later.
// Packets that find no credit wait, in order of arrival, for their output's next credit.
// Ejection has no credits: the endpoint takes what arrives.
//
// As in the VC router, eastbound packets (destination column >= source column) use the lower
// half of the VCs and westbound ones the upper half, so that any mix of minimal routes is
// deadlock-free; on a torus the halves are dateline classes instead. A local node's packets
// wait in an unbounded source queue, in order, for a local VC with room.
//
// Event-driven: the router sleeps until a head arrives, a front is due or a credit returns.
#include "hw/energy/energy_ledger.h"
#include "hw/time/timed_queue.h"
#include "hw/topology/mesh_topology.h"
#include "noc/package_network.h"
#include "noc/packet/link.h"
#include "noc/packet/packet.h"

#include <systemc>

#include <array>
#include <deque>
#include <vector>

namespace mcmsim {

struct RouterStats {
    std::int64_t packets = 0;
    std::int64_t flits = 0;
    Tick max_wait = 0;  ///< longest a routed head waited to leave (credits and its link)
};

/// A router's buffers, as the VC router has them (package_vc_config).
struct RouterBuffers {
    int vcs = 1;
    bool classes = false;  ///< eastbound / westbound VC halves (2+ VCs)
    /// Per link class: flits per VC of an input fed by a die-to-die link of that class.
    std::array<int, kLinkClasses> link_flits{1, 1, 1};
    int local_flits = 1;  ///< per VC of a local input (NI or memory PHY)
    /// An ideal router instead: no buffer limit, and a switch that takes every packet at once,
    /// so a packet waits only for its output link.
    bool ideal = false;
    /// Per link class: what a router port to a die-to-die link of that class moves through the switch.
    std::array<double, kLinkClasses> mesh_port_gbps{1, 1, 1};
    double local_port_gbps = 1;  ///< what the local (ejection) port moves through the switch
};

class Router : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Router);
    Router(sc_core::sc_module_name name, int id, const MeshTopology& topo, Tick pipeline, std::int64_t flit_bytes,
           double energy_pj_per_flit, EnergyAccount* energy, const RouterBuffers& buffers);

    /// Output `p` drives `link` into `next`.
    void connect(Port p, Link* link, Router* next);
    /// Local `node` (a chiplet's NI or a memory's PHY) injects here and ejects over `eject`
    /// into `endpoint` (null until the node attaches; again to set it).
    void attach(int node, Link* eject, NetworkEndpoint* endpoint);

    /// A packet from local `node` has reached this router's local port at `head_arrival`.
    void inject(Packet* p, int node, Tick head_arrival);

    int id() const { return id_; }
    const RouterStats& stats() const { return stats_; }
    /// Packets in this router's buffers and source queues.
    std::size_t queued() const { return resident_; }

private:
    enum class EventKind : std::uint8_t { Arrive, Front, Credit, LocalCredit, Admit };
    struct Event {
        EventKind kind;
        std::int16_t input;  ///< Arrive, Front: input; Credit: output port; LocalCredit, Admit: local
        std::int16_t vc;
        std::int32_t flits;  ///< Credit, LocalCredit: flits returned
        Packet* packet;      ///< Arrive, Admit
    };
    struct Waiting {
        Packet* packet;
        Tick arrival;  ///< head fully received
    };
    struct InputVc {
        std::deque<Waiting> fifo;
        Tick tail_left = 0;    ///< when the previous packet's tail left this VC
        Tick ready_at = 0;     ///< when the front was (or will be) routed
        bool pending = false;  ///< the front has a Front event due or waits for a credit
    };
    struct Local {
        int node;
        Link* eject;
        NetworkEndpoint* endpoint;
        std::deque<Waiting> source;  ///< packets the NI has pushed, not yet in a local VC
        std::vector<int> credits;    ///< per local VC: free flits
    };

    void wake();
    void arrive(Packet* p, int input, int vc, Tick head_arrival, Tick now);
    /// Ideal router: the head is routed and its output link reserved on arrival.
    void forward_ideal(Packet* p, Tick now);
    void schedule_front(int input, int vc, Tick now);
    void try_front(int input, int vc, Tick now);
    bool try_leave(int input, int vc, Tick now);
    /// How long packet `p` holds its input port crossing the switch to an output of `gbps`.
    static Tick crossing(double gbps, const Packet* p);
    void release(int input, int vc, const Packet* p, const Link::Transit& out, Tick now);
    /// A VC of output `out` for class `cls` with `need` free flits (round robin), or -1.
    int pick_vc(int out, int cls, int need) const;
    void admit(int local, Tick now);
    void serve_waiting(int out, int cls, Tick now);
    /// VCs [lo, hi) a packet of class `cls` may use.
    std::pair<int, int> class_vcs(int cls) const;
    int input_vcs_at(int input) const { return input * buffers_.vcs; }
    int input_of_local(int local) const { return kMeshPorts + local; }
    int local_of_node(int node) const;
    int occupy_flits(const Packet* p, int capacity) const;
    /// Flits per VC of the input behind output port `out` (its link's class).
    int link_flits(int out) const { return buffers_.link_flits[static_cast<std::size_t>(out_class(out))]; }
    /// The link class of output `out`'s link.
    LinkClass out_class(int out) const { return topo_.link_class(MeshTopology::link_id(id_, static_cast<Port>(out))); }
    /// The class of the VC `p` takes behind output `out`: its own, or on a torus its dateline
    /// class after the hop (MeshTopology::dateline_step; the packet's state is not changed).
    int next_class(const Packet* p, int out) const;
    /// The waiting list (per output) a blocked packet joins: its class, or the shared one.
    int wait_class(const Packet* p) const;
    Port out_port(const Packet* p) const;
    bool ejects_here(const Packet* p) const;

    int id_;
    const MeshTopology& topo_;
    Tick pipeline_;
    std::int64_t flit_bytes_;
    double energy_pj_per_flit_;
    EnergyAccount* energy_;
    RouterBuffers buffers_;
    std::array<Link*, kMeshPorts> out_{};
    std::array<Router*, kMeshPorts> next_{};
    std::array<int, kMeshPorts> next_input_{};                             ///< the input of next_[p] that out_[p] feeds
    std::array<Router*, kMeshPorts> up_{};                                 ///< per mesh input: the router feeding it
    std::array<int, kMeshPorts> up_port_{};                                ///< per mesh input: that router's output
    std::array<Tick, kMeshPorts> up_latency_{};                            ///< per mesh input: the credit's way back
    std::vector<int> credits_;                                             ///< per (output port, VC): free flits downstream
    std::array<int, kMeshPorts> last_vc_{};                                ///< per output: the VC given last
    std::array<std::deque<std::pair<int, int>>, kMeshPorts * 3> waiting_;  ///< per (output, class): (input, vc)
    std::vector<InputVc> in_;                                              ///< per (input, VC); inputs: mesh ports, then locals
    std::vector<Tick> in_free_;                                            ///< per input: when its port is free to cross again
    std::vector<Local> locals_;
    sc_core::sc_event wake_event_;
    TimedQueue<Event> queue_;
    RouterStats stats_;
    std::size_t resident_ = 0;
};

}  // namespace mcmsim
