#pragma once
// The analytical model's packet granularity (analytical_model.h): groups of packets in flight
// on the package, each an event at every link it reaches, and the pool that keeps them.
//
// A group is not priced in one go like a message (link_reservation.h): it reaches the next
// link of its path at the time of its event, and the link serves it after every group that
// reached it earlier. That is what orders traffic by arrival rather than by issue. The pool
// hands freed slots out again, last freed first, so that an estimate keeps the storage of the
// groups in flight hot and allocates nothing per event. Group events of
// equal time pop in the order they were pushed (a sequence number, packet_schedule.cpp), not
// by slot; the pool's order is fixed all the same: the schedule is deterministic. Pure C++.
#include "mapper/model/link_reservation.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

/// What a group is, and so what happens when it has crossed its path.
enum class PacketGroupKind : std::uint8_t {
    Flow,         ///< part of a send's flow: counts down its recv op
    ReadRequest,  ///< a DRAM read's requests: the memory serves them, then the data leaves
    ReadData,     ///< a DRAM read's data: counts down the read op
    WriteData,    ///< a DRAM write's data: the memory serves it, then it is acknowledged
};

/// A group of packets in flight. Its path's steps after the first (the first, the injection
/// link, is reserved when the group leaves), the next one at `step`, in lane `lane`.
struct PacketGroup {
    const StepPair* step;  ///< the record of the next link to reach; == end: all crossed
    const StepPair* end;
    double wire;         ///< bytes on the wire
    double tail;         ///< when its tail has left the links so far, minus the last one's head time
    double head_ns;      ///< the path's zero-load head latency: tail + head_ns is its arrival
    double share;        ///< DRAM groups: their part of the op's bytes (0..1)
    std::uint32_t op;    ///< the recv op (Flow) or the DRAM op it belongs to
    std::uint32_t dram;  ///< DRAM groups: the op's DramCost
    int lane;            ///< 0 or 1 within `step`
    PacketGroupKind kind;
};

/// Groups in flight, by slot. A slot's event in the ready queue carries index ops + slot.
class PacketGroupPool {
public:
    void clear() {
        groups_.clear();
        free_.clear();
    }
    /// Stores `g` in a free slot (the last freed one first) and returns the slot.
    std::uint32_t add(const PacketGroup& g) {
        if (!free_.empty()) {
            const std::uint32_t s = free_.back();
            free_.pop_back();
            groups_[s] = g;
            return s;
        }
        groups_.push_back(g);
        return static_cast<std::uint32_t>(groups_.size() - 1);
    }
    void remove(std::uint32_t slot) { free_.push_back(slot); }
    PacketGroup& operator[](std::uint32_t slot) { return groups_[slot]; }

private:
    std::vector<PacketGroup> groups_;
    std::vector<std::uint32_t> free_;
};

}  // namespace mcmsim
