#pragma once
// What moves through the VC network. A packet is cut into flits: the head carries the route,
// body flits follow it through the VCs the head allocated, the tail releases them. Flits are
// small values copied between ring buffers; the packet's bookkeeping lives once in a pooled
// FlitPacket record that flits point to by index (the head carries a copy of what routing needs).
#include "noc/noc_config.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

struct Packet;  // full-system packet (noc/packet/packet.h) riding on a flit packet, if any

/// Per-packet routing state the head carries from router to router.
struct RouteState {
    std::int8_t dim = -1;       ///< dimension of the last hop (torus dateline bookkeeping)
    std::uint8_t vc_class = 0;  ///< 1 once the packet crossed the dateline of its current dimension
    std::uint8_t down = 0;      ///< up*/down*: 1 once the packet took a down link (no more ups)
};

struct FlitPacket {
    int src = -1, dst = -1;  ///< routers (one node per router)
    int flits = 1;
    Cycle created = 0;   ///< enters the source queue
    int hops = 0;        ///< router-to-router links the head crossed (counted when routed onto one)
    int next_eject = 0;  ///< index of the next flit expected at the destination (order check)
    int injected = 0;    ///< flits handed to the router so far
    RouteState route;
    bool measured = false;  ///< created during the measurement window
    /// VC class the packet keeps on every hop when its routing function leaves the choice
    /// open (Any): the VC package network's east/west split for source routes (vc_package_network.cpp).
    std::uint8_t vc_class = 2;  ///< a VcClass value (routing_function.h); 2 = Any
    Packet* payload = nullptr;
    /// Source route: routers from src to dst, both included (null: the routing function).
    /// The head at router path[i] has crossed i links (`hops`), so it leaves for path[i + 1].
    const std::vector<int>* path = nullptr;
};

/// A flit: 16 bytes, copied between buffers. The head also carries what route computation
/// needs of its packet (destination, hops so far, routing state), copied from the FlitPacket
/// when it is injected: RC then reads only the copy of the front flit that the input VC keeps
/// in its own record, never a per-packet record scattered over the pool (a cache miss per hop
/// under load). The destination publishes hops and route back into the FlitPacket when the
/// head is ejected. Body flits leave the route fields unused.
struct Flit {
    std::uint32_t packet = 0;   ///< index into the packet pool
    std::uint16_t index = 0;    ///< 0 = head
    std::uint16_t dst = 0;      ///< head: destination router (a VcNetwork has at most 65536)
    std::uint16_t hops = 0;     ///< head: router-to-router links crossed so far
    RouteState route;           ///< head: routing state (FlitPacket::route)
    std::uint8_t vc_class = 2;  ///< head: FlitPacket::vc_class
    bool head : 1, tail : 1;
    bool has_path : 1;  ///< head: source-routed, follows FlitPacket::path
    Flit() : head(false), tail(false), has_path(false) {}
};
static_assert(sizeof(Flit) == 16, "flit copies sit in 32-byte input VC records");

/// Flit in an input buffer with the cycle it is fully received (it may still be on the wire).
struct BufferedFlit {
    Flit flit;
    Cycle arrival = 0;
};

/// Packet records, recycled through a free list: a run creates a record per packet, and
/// allocating each one would dominate the run time.
class FlitPacketPool {
public:
    std::uint32_t get() {
        if (free_.empty()) {
            records_.emplace_back();
            return static_cast<std::uint32_t>(records_.size() - 1);
        }
        std::uint32_t i = free_.back();
        free_.pop_back();
        records_[i] = FlitPacket{};
        return i;
    }
    void put(std::uint32_t i) { free_.push_back(i); }
    FlitPacket& operator[](std::uint32_t i) { return records_[i]; }
    const FlitPacket& operator[](std::uint32_t i) const { return records_[i]; }
    std::size_t in_use() const { return records_.size() - free_.size(); }

private:
    std::vector<FlitPacket> records_;
    std::vector<std::uint32_t> free_;
};

}  // namespace mcmsim
