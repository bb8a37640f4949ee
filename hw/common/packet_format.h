#pragma once
// How messages become packets and packets become flits: the one arithmetic the chiplets,
// memory ports, both package networks and the analytical model share. Pure C++: the mapper
// prices exactly the packets the simulator sends.
#include <algorithm>
#include <cstdint>

namespace mcmsim {

/// Bytes on the wire of a control packet: a DRAM read request or a write acknowledgement
/// (one header flit; data packets carry their payload only).
constexpr std::int64_t kControlPacketBytes = 16;

/// Flits a packet of `wire_bytes` occupies: a partial last flit still takes a whole flit.
constexpr std::int64_t flits_of(std::int64_t wire_bytes, std::int64_t flit_bytes) {
    return (wire_bytes + flit_bytes - 1) / flit_bytes;
}

/// Bytes a packet of `wire_bytes` occupies on a link: its whole flits.
constexpr std::int64_t whole_flit_bytes(std::int64_t wire_bytes, std::int64_t flit_bytes) {
    return flits_of(wire_bytes, flit_bytes) * flit_bytes;
}

/// The package's packet format: flit size and the largest packet a message is split into.
struct PacketFormat {
    std::int64_t flit_bytes = 32;
    std::int64_t max_packet_bytes = 1024;

    /// Payload of the next packet of a message with `remaining` bytes still to send: senders
    /// cut a message front to back into packets of max_packet_bytes, the last one shorter.
    constexpr std::int64_t next_packet_bytes(std::int64_t remaining) const { return std::min(remaining, max_packet_bytes); }
    /// Packets a message of `bytes` is split into.
    constexpr std::int64_t packets(std::int64_t bytes) const { return (bytes + max_packet_bytes - 1) / max_packet_bytes; }
    constexpr std::int64_t flits(std::int64_t wire_bytes) const { return flits_of(wire_bytes, flit_bytes); }
    constexpr std::int64_t whole_flits(std::int64_t wire_bytes) const { return whole_flit_bytes(wire_bytes, flit_bytes); }
    /// Bytes on the wire (whole flits) of a message of `bytes` payload: its full packets and
    /// the shorter last one, each rounded to whole flits.
    constexpr std::int64_t message_wire_bytes(std::int64_t bytes) const {
        const std::int64_t full = bytes / max_packet_bytes, rest = bytes % max_packet_bytes;
        return full * whole_flits(max_packet_bytes) + (rest ? whole_flits(rest) : 0);
    }
    /// Bytes on the wire of one control packet (request or acknowledgement).
    constexpr std::int64_t control_wire_bytes() const { return whole_flits(kControlPacketBytes); }
};

}  // namespace mcmsim
