#pragma once
// A compute chiplet executing its share of the execution plan.
//
// Engines: one compute unit (ops run one at a time, in plan order of readiness), a DMA that
// issues DRAM reads/writes as request packets, and a network interface that injects sends.
// The compute unit times and prices each op with compute_cost() (hw/compute/compute_cost.h),
// the same function the analytical model uses: a PE array with its buffers for ops that carry
// a shape, ceil(MACs / MACs per cycle) for ops that only give a MAC count. MAC and vector
// energy are booked as Compute, buffer accesses as Sram; leakage is booked by book_leakage()
// once the run's length is known.
// An op starts when its dependencies are done. A send (one transfer or a grouped list) injects
// its transfers in list order, each one's packets back to back, following the transfer's
// source route when it has one; it is done when its last packet has left the NI. A recv
// completes when every byte of each of its flows has arrived.
// Event-driven: the chiplet sleeps until a packet arrives or an op finishes.
#include "hw/common/packet_format.h"
#include "hw/compute/compute_cost.h"
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/timed_queue.h"
#include "noc/package_network.h"
#include "traces/plan/plan_index.h"

#include <systemc>

#include <functional>

#include <deque>
#include <unordered_map>
#include <vector>

namespace mcmsim {

/// Per-op timing shared by all chiplets, indexed by the plan's dense op index.
struct OpTiming {
    Tick start = kNever;
    Tick end = kNever;
};

class Chiplet : public sc_core::sc_module, public NetworkEndpoint {
public:
    SC_HAS_PROCESS(Chiplet);
    Chiplet(sc_core::sc_module_name name, int index, const ChipletConfig& cfg, const PacketFormat& format, PackageNetwork& net,
            EnergyLedger& ledger, const PlanIndex& plan, std::vector<OpTiming>& timing);

    void arrive(Packet* p, Tick when) override;

    std::size_t ops_total() const { return ops_.size(); }
    std::size_t ops_done() const { return done_count_; }
    /// Called with the simulated time whenever one of this chiplet's ops finishes.
    void on_op_finished(std::function<void(Tick)> f) { on_finish_ = std::move(f); }
    std::size_t pending_events() const { return queue_.size(); }
    std::int64_t macs_done() const { return macs_done_; }
    Tick compute_busy() const { return compute_busy_; }
    /// Cycles the compute unit spent (array + vector); MAC utilisation of the busy time is
    /// macs_done() / (compute_cycles() x macs_per_cycle()).
    std::int64_t compute_cycles() const { return compute_cycles_; }
    /// DRAM bytes re-tiling added to this chiplet's compute ops (the plan's DRAM reads should
    /// carry them; see ComputeCost::dram_refetch_bytes).
    std::int64_t dram_refetch_bytes() const { return dram_refetch_bytes_; }
    /// Flows this chiplet receives, and how many of them have all their bytes.
    std::size_t flows_expected() const { return flow_left_.size(); }
    std::size_t flows_complete() const { return flows_complete_; }
    /// Books leakage_mw x run length into this chiplet's Compute energy (no layer owns it).
    /// Call once, after the run, with the run's end; returns the energy booked (pJ).
    double book_leakage(Tick run_end);
    /// One line per op that has not finished, saying what it waits for (deadlock report).
    void describe_waiting(std::vector<std::string>& out, std::size_t limit) const;

private:
    struct LocalOp {
        std::size_t global;  ///< dense plan index
        const PlanOp* op;
        int deps_left;
        std::int64_t bytes_left;  ///< recv / dram ops: bytes still to arrive or be acknowledged
        bool started = false, done = false;
        std::vector<std::size_t> dependents;  ///< local indices
    };
    struct Event {
        Packet* packet = nullptr;  ///< an arrival, or
        std::size_t finished = 0;  ///< an op (local index) that finishes now
    };

    void wake();
    void start(std::size_t local, Tick now);
    void finish(std::size_t local, Tick now);
    void try_compute(Tick now);
    void on_packet(Packet* p, Tick now);
    void account_bytes(std::size_t local, std::int64_t bytes, Tick now);

    int index_;
    ChipletConfig cfg_;
    PacketFormat format_;
    PackageNetwork& net_;
    EnergyLedger& ledger_;
    EnergyAccount& energy_;
    const PlanIndex& plan_;
    std::vector<OpTiming>& timing_;

    std::vector<LocalOp> ops_;
    std::unordered_map<std::size_t, std::size_t> local_of_global_;
    /// flow id -> (local recv op, slot in flow_left_)
    std::unordered_map<std::int64_t, std::pair<std::size_t, std::size_t>> recv_of_flow_;
    std::vector<std::int64_t> send_left_;  ///< bytes still to packetise, per transfer of the send being started
    std::vector<std::int64_t> flow_left_;  ///< bytes still to arrive, per received flow
    std::size_t flows_complete_ = 0;
    std::deque<std::size_t> compute_ready_;
    bool compute_busy_now_ = false;
    bool started_ = false;
    std::size_t done_count_ = 0;
    std::function<void(Tick)> on_finish_;
    std::int64_t macs_done_ = 0;
    Tick compute_busy_ = 0;
    std::int64_t compute_cycles_ = 0;
    std::int64_t dram_refetch_bytes_ = 0;
    bool leakage_booked_ = false;

    sc_core::sc_event wake_event_;
    TimedQueue<Event> queue_;
};

}  // namespace mcmsim
