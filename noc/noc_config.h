#pragma once
// Configuration of the flit-level network (the "vc" router model): what every VC network
// needs (VcNetworkConfig: the VC router micro-architecture and the link classes) and the
// standalone NoC dialect around it (NocConfig: topology, routing, synthetic traffic), read
// strictly from JSON (configs/noc/*.json): unknown keys, zero VCs, unknown topologies or a
// routing algorithm that does not fit the topology are InputErrors naming file and JSON
// pointer. The package network builds its VcNetworkConfig from the arch config instead.
#include "hw/config/json_input.h"
#include "hw/topology/noc_topology.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcmsim {

using Cycle = std::int64_t;  ///< router clock cycles
/// "No wake-up pending": later than any cycle a simulation reaches.
constexpr Cycle kNoWake = std::numeric_limits<Cycle>::max();

/// Routing algorithms of the flit-level network. Table: up*/down* tables over any graph.
enum class NocRouting { XY, YX, WestFirst, Diagonal, Table };

template <>
struct ChoiceNames<NocRouting> {
    static constexpr std::pair<NocRouting, const char*> all[] = {{NocRouting::XY, "xy"},
                                                                 {NocRouting::YX, "yx"},
                                                                 {NocRouting::WestFirst, "west_first"},
                                                                 {NocRouting::Diagonal, "diagonal"},
                                                                 {NocRouting::Table, "table"}};
};

/// Cycles each pipeline stage takes for a head flit. Body flits skip RC and VA.
struct RouterStages {
    int route = 1;             ///< RC: route computation (0 with lookahead routing)
    int vc_alloc = 1;          ///< VA
    int switch_alloc = 1;      ///< SA
    int switch_traversal = 1;  ///< ST
    int total() const { return route + vc_alloc + switch_alloc + switch_traversal; }
};

/// Router energy per flit, split the Orion way.
struct RouterEnergy {
    double buffer_write_pj = 12.0;
    double buffer_read_pj = 12.0;
    double crossbar_pj = 15.0;
    double allocation_pj = 2.7;
    double per_flit() const { return buffer_write_pj + buffer_read_pj + crossbar_pj + allocation_pj; }
};

struct VcRouterConfig {
    double clock_ghz = 1.0;
    int vcs = 16;
    int buffer_depth = 8;  ///< flits per VC
    int flit_bits = 128;
    RouterStages stages;
    bool lookahead = false;  ///< route computed one hop ahead: the RC stage disappears
    RouterEnergy energy;
    /// Cycles a head flit spends in a router (RC + VA + SA + ST, RC dropped with lookahead).
    int pipeline_cycles() const { return stages.total() - (lookahead ? stages.route : 0); }
};

/// One kind of link. On-die links are given in cycles and bits; die-to-die links by a preset
/// (bandwidth, PHY latency, energy) and converted to the router clock: a flit is serialised
/// over flit_bits / (8 * bandwidth / clock) cycles, a fraction kept exactly (a 2.55-cycle
/// flit is not rounded to 3: flits start 2.55 cycles apart on average), and the PHY latency
/// rounds up to whole cycles. Behind a die-to-die link sits the link layer's receive buffer:
/// each VC of the input it feeds holds enough flits to cover the credit round trip, so that
/// a lone packet streams at the link's bandwidth.
struct NocLinkConfig {
    std::string name;    ///< "on_die" or the D2D class name
    std::string preset;  ///< D2D preset it came from, if any
    bool die_to_die = false;
    int latency_cycles = 1;     ///< head flit: wire / PHY latency, including one flit slot
    int width_bits = 128;       ///< on-die only
    double bandwidth_gbps = 0;  ///< D2D only, per direction
    double latency_ns = 0;      ///< D2D only
    double energy_pj_per_bit = 0.1;
    double cycles_per_flit = 1;  ///< derived: serialisation of one flit (fractional for D2D)
    /// Flits the router port feeding this link moves per cycle: as many as the link carries
    /// (ceil(1 / cycles_per_flit)) unless a config narrows it; 0 until resolved.
    int port_flits = 0;
    /// Flits per VC in the input buffer this link feeds; 0: the router's buffer_depth.
    int buffer_flits = 0;
    std::string where;  ///< JSON pointer the link was read from, for messages
};

/// What a flit-level network needs besides its router graph and routing function.
struct VcNetworkConfig {
    VcRouterConfig router;
    /// Link classes, indexed by NocChannel::link_class. Standalone: [0] on-die, [1..] D2D.
    std::vector<NocLinkConfig> links;
    int ni_latency_cycles = 1;  ///< injection and ejection channels
    /// The network interface: cycles per flit (fractional) and flits per cycle of the local
    /// port, for injection and ejection alike. Standalone networks: one flit per cycle.
    double ni_cycles_per_flit = 1;
    int ni_port_flits = 1;
    Cycle watchdog_cycles = 10000;  ///< no flit moved for this long with flits inside: deadlock
    double period_ps() const { return 1000.0 / router.clock_ghz; }
};

/// A standalone NoC (mcmsim noc): the network's parameters, its graph and routing, and the
/// defaults of the synthetic traffic that drives it.
struct NocConfig : VcNetworkConfig {
    std::string file;  ///< where it came from (for messages)
    std::string name;
    NocTopologyKind topology = NocTopologyKind::Mesh;
    int rows = 8, cols = 8;
    /// Hierarchical packages: each chiplet holds a chiplet_rows x chiplet_cols on-die mesh;
    /// mesh links between routers of different chiplets are die-to-die links (links[1]).
    /// 0 = a flat network.
    int chiplet_rows = 0, chiplet_cols = 0;
    /// Custom graphs: router names and bidirectional links (link_class indexes `links`).
    std::vector<std::string> graph_nodes;
    std::vector<NocTopology::GraphLink> graph_links;
    NocRouting routing = NocRouting::XY;
    bool dateline = true;  ///< torus only: split VCs into two dateline classes
    int packet_flits = 1;  ///< default for synthetic traffic
};

/// Flits per VC of the NI's input: enough for the next packet's head to go through route
/// computation and VC allocation while the current one drains at the widest link port's
/// rate, so that back-to-back packets leave without a gap (at least buffer_depth).
int ni_buffer_flits(const VcNetworkConfig& c);

/// Loads and validates a NoC config file.
NocConfig load_noc_config(const std::string& path);
/// Reads a NoC config object (the whole file, or an arch config's package section later).
NocConfig read_noc_config(JsonObject o, const std::string& file);
/// Resolves derived link fields (cycles per flit, latency in cycles, port width, receive
/// buffer) for `router`.
void resolve_link(NocLinkConfig& l, const VcRouterConfig& router);
/// Cycles from a flit leaving an output port until the credit for its buffer slot is back,
/// when the downstream router forwards it at once: the link both ways, the downstream
/// pipeline for a head, and one cycle each to apply credit and allocate.
int credit_round_trip_cycles(const NocLinkConfig& l, const VcRouterConfig& router);
/// Flits per VC that keep a link busy over the credit round trip: ceil(round trip × flits
/// per cycle) + 1, the rate being the link's or the port's, whichever is lower.
int round_trip_buffer_flits(const NocLinkConfig& l, const VcRouterConfig& router);
/// A resolved link the VC router cannot hold — its credit counters and buffer indices are
/// 16-bit — as {expected, found} for an input error; nothing when it fits.
std::optional<std::pair<std::string, std::string>> vc_link_limit(const NocLinkConfig& l);
/// Topology graph described by the config.
NocTopology build_topology(const NocConfig& c);
nlohmann::json noc_config_to_json(const NocConfig& c);

}  // namespace mcmsim
