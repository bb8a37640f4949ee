#pragma once
// What travels through the package network. Packets are pooled: a simulation moves millions
// of them and allocating each one would dominate the run time.
#include "hw/energy/energy_ledger.h"
#include "hw/time/tick.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace mcmsim {

enum class PacketKind : std::uint8_t {
    Data,           ///< tensor bytes of a send/recv flow
    DramReadReq,    ///< chiplet -> memory: read `bytes` at `address`
    DramReadResp,   ///< memory -> chiplet: the data
    DramWriteData,  ///< chiplet -> memory: data to write
    DramWriteAck,   ///< memory -> chiplet: write done
};

struct Packet {
    PacketKind kind = PacketKind::Data;
    int src_node = -1, dst_node = -1;  ///< network endpoints (chiplets first, then memories)
    int dst_router = -1;
    std::int64_t payload_bytes = 0;  ///< bytes the packet carries for its op
    std::int64_t wire_bytes = 0;     ///< bytes on the wire (payload, or a header-only request)
    std::int64_t tag = -1;           ///< flow id (Data) or op id (DRAM traffic)
    std::uint64_t address = 0;
    std::int64_t request_bytes = 0;         ///< DRAM requests and acks: bytes read or written
    EnergyAccount* layer_energy = nullptr;  ///< the layer this traffic works for
    /// Source route chosen by the mapper (plan op `route`): routers from the source's router
    /// to the destination's router, both included. Null: the package's routing algorithm.
    /// Points into the plan, which outlives the simulation, so pooled packets copy nothing.
    const std::vector<int>* route = nullptr;
    Tick created = 0;
    Tick tail_lag = 0;  ///< how far the tail trails the head (largest serialisation seen)
    int hops = 0;
    /// packet model: 0 eastbound VCs, 1 westbound, 2 any (one class); on a torus the dateline
    /// class of the VC the packet is in (2 until its first hop)
    std::uint8_t vc_class = 2;
    std::int8_t ring = -1;          ///< packet model on a torus: the link class of its last hop
    std::int32_t credit_flits = 0;  ///< packet model: buffer flits it holds at its current router
    Tick in_span = 0;               ///< packet model: how long after its head its tail entered that router's buffer
};

/// Free-list pool: packets are recycled, never freed during a run.
class PacketPool {
public:
    Packet* get() {
        if (free_.empty()) {
            storage_.push_back(std::make_unique<Packet>());
            return storage_.back().get();
        }
        Packet* p = free_.back();
        free_.pop_back();
        *p = Packet{};
        return p;
    }
    void put(Packet* p) { free_.push_back(p); }
    std::size_t allocated() const { return storage_.size(); }
    std::size_t in_use() const { return storage_.size() - free_.size(); }

private:
    std::vector<std::unique_ptr<Packet>> storage_;
    std::vector<Packet*> free_;
};

}  // namespace mcmsim
