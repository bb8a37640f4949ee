#pragma once
// Sizes of the messages the chiplets, memory ports and the analytical model agree on.
// Pure C++: the mapper prices exactly the packets the simulator sends.
#include <cstdint>

namespace mcmsim {

/// Bytes on the wire of a control packet: a DRAM read request or a write acknowledgement
/// (one header flit; data packets carry their payload only).
constexpr std::int64_t kControlPacketBytes = 16;

}  // namespace mcmsim
