#pragma once
// Package-network configuration: topology, routing, routers and die-to-die links.
#include "hw/common/packet_format.h"
#include "hw/config/json_input.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcmsim {

/// Which links join the chiplets' routers (hw/topology/mesh_topology.h): the 4 straight
/// neighbours, also the 4 diagonal ones (routed diagonal-first), the straight ones closed
/// into rings, or any graph the config lists (`edges`).
enum class PackageTopology { Mesh, MeshDiagonal, Torus, Graph };
/// Dimension-order routing of the package mesh: columns first (XY) or rows first (YX).
enum class Routing { XY, YX };
/// The router model of the package network: the fast packet-level model or the flit-level
/// VC router.
enum class RouterModel { Packet, Vc };

/// The packet model's routers: ideal (unbounded buffers, a switch that takes any number of
/// packets at once: packets wait only for busy links) or the VC router's (its VCs, buffer
/// sizes and credits, and a switch each input crosses to one output at a time, at packet
/// granularity).
enum class PacketBuffers { Unbounded, Vc };

template <>
struct ChoiceNames<PacketBuffers> {
    static constexpr std::pair<PacketBuffers, const char*> all[] = {{PacketBuffers::Unbounded, "unbounded"},
                                                                    {PacketBuffers::Vc, "vc"}};
};
template <>
struct ChoiceNames<PackageTopology> {
    static constexpr std::pair<PackageTopology, const char*> all[] = {{PackageTopology::Mesh, "mesh"},
                                                                      {PackageTopology::MeshDiagonal, "mesh_diagonal"},
                                                                      {PackageTopology::Torus, "torus"},
                                                                      {PackageTopology::Graph, "graph"}};
};
template <>
struct ChoiceNames<Routing> {
    static constexpr std::pair<Routing, const char*> all[] = {{Routing::XY, "xy"}, {Routing::YX, "yx"}};
};
template <>
struct ChoiceNames<RouterModel> {
    static constexpr std::pair<RouterModel, const char*> all[] = {{RouterModel::Packet, "packet"}, {RouterModel::Vc, "vc"}};
};

/// Which package links a link class covers: along a row (east-west), along a column
/// (north-south), or diagonal (mesh_diagonal packages).
enum class LinkClass { Row, Column, Diagonal };
constexpr int kLinkClasses = 3;

template <>
struct ChoiceNames<LinkClass> {
    static constexpr std::pair<LinkClass, const char*> all[] = {
        {LinkClass::Row, "row"}, {LinkClass::Column, "column"}, {LinkClass::Diagonal, "diagonal"}};
};

/// A link of a graph package, both directions: between chiplets `a` and `b` (row-major ids
/// on the package grid), of link class `link_class` (by default from where the two sit: the
/// same row, the same column, or neither).
struct PackageEdge {
    int a = 0, b = 0;
    LinkClass link_class = LinkClass::Row;
    bool operator==(const PackageEdge& o) const { return a == o.a && b == o.b && link_class == o.link_class; }
};

/// A die-to-die package link, per direction.
struct LinkConfig {
    std::string preset;
    double bandwidth_gbps = 25;  ///< GB/s per direction
    double latency_ns = 2;       ///< PHY + adapter + flight, head flit
    double energy_pj_per_bit = 0.5;
};

/// The router inside each chiplet that joins it to the package network.
struct RouterConfig {
    double clock_ghz = 1.0;
    std::int64_t pipeline_cycles = 4;  ///< RC, VA, SA, ST (vc: RC takes pipeline_cycles - 3)
    std::int64_t flit_bytes = 32;
    double energy_pj_per_flit = 1.0;
    /// Packet: the fast packet-level model (virtual cut-through, buffers as packet_buffers
    /// says); Vc: the flit-level VC router (noc/vc/vc_router.h) with the fields below.
    RouterModel model = RouterModel::Packet;
    /// packet model only: ideal routers, or the VC router's buffers (vcs, buffer_depth,
    /// d2d_buffer_flits), credits and switch ports (PacketBuffers).
    PacketBuffers packet_buffers = PacketBuffers::Unbounded;
    std::int64_t vcs = 8;           ///< vc model, and packet_buffers vc
    std::int64_t buffer_depth = 8;  ///< vc model, and packet_buffers vc: flits per VC
    /// Flits a port to a die-to-die link moves per cycle; 0: as many as the link carries
    /// (port_flits_for). A narrower port caps the link at what the router can feed it.
    std::int64_t port_flits = 0;
    /// vc model, and packet_buffers vc: flits per VC of a die-to-die input's receive buffer; 0: enough to cover
    /// the credit round trip (noc_config.h), at least buffer_depth.
    std::int64_t d2d_buffer_flits = 0;
    double latency_ns() const { return static_cast<double>(pipeline_cycles) / clock_ghz; }
    /// Bytes per ns (GB/s) one flit per cycle carries.
    double flit_gbps() const { return static_cast<double>(flit_bytes) * clock_ghz; }
};

struct PackageConfig;
/// Flits per cycle of a router port to a die-to-die link of class `c`: the config's, or the
/// fewest that carry the link's bandwidth.
std::int64_t port_flits_for(const PackageConfig& p, LinkClass c = LinkClass::Row);
/// What a die-to-die hop of class `c` carries: the link's bandwidth, or less when the router
/// port feeding it is narrower. Every network model uses this figure.
double d2d_hop_gbps(const PackageConfig& p, LinkClass c = LinkClass::Row);
/// Whether the package's routers are ideal (the packet model with unbounded buffers): no
/// buffer limit, and a switch that takes any number of packets at once. Every other router
/// model lets each input cross the switch to one output at a time.
inline bool ideal_routers(const PackageConfig& p);
/// What a valid package config does that its author may not mean (a router port narrower
/// than its link), one line each starting with the JSON pointer.
std::vector<std::string> package_warnings(const PackageConfig& p);

struct PackageConfig {
    int rows = 1, cols = 1;
    PackageTopology topology = PackageTopology::Mesh;
    Routing routing = Routing::XY;
    bool diagonals() const { return topology == PackageTopology::MeshDiagonal; }
    /// Graph packages only: the links, each both ways, in the order that numbers ports.
    std::vector<PackageEdge> edges;
    /// Whether the package has links of class `c`.
    bool has_link_class(LinkClass c) const;
    LinkConfig link;  ///< every link the classes below do not override
    /// Per link class (LinkClass order): a link config of its own ("links" in the config),
    /// or none: `link`.
    std::array<std::optional<LinkConfig>, kLinkClasses> class_links;
    const LinkConfig& link_of(LinkClass c) const {
        const auto& o = class_links[static_cast<std::size_t>(c)];
        return o ? *o : link;
    }
    /// Whether any class has a link of its own.
    bool classed_links() const {
        for (const auto& o : class_links)
            if (o) return true;
        return false;
    }
    RouterConfig router;
    std::int64_t max_packet_bytes = 1024;  ///< messages are split into packets of at most this
    PacketFormat packet_format() const { return PacketFormat{router.flit_bytes, max_packet_bytes}; }
};

/// Reads a link preset or override object into `l` (absent fields keep their value).
void read_link_fields(JsonObject& o, LinkConfig& l);
/// Reads the arch config's "package" object; link presets resolve relative to `arch_file`.
PackageConfig read_package(JsonObject o, const std::string& arch_file);
nlohmann::json package_to_json(const PackageConfig& p);

inline bool ideal_routers(const PackageConfig& p) {
    return p.router.model == RouterModel::Packet && p.router.packet_buffers == PacketBuffers::Unbounded;
}

}  // namespace mcmsim
