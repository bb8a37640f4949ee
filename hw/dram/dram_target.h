#pragma once
// The DRAM interface as a TLM-2.0 target: a cycle-approximate memory controller per unit
// (channel or pseudo-channel) behind one socket.
//
//  - Approximately timed: nb_transport_fw with the base-protocol phases. BEGIN_REQ is
//    answered with END_REQ at once while the controller queues have room (else END_REQ is
//    sent when room frees); BEGIN_RESP goes out when the last burst's data has transferred,
//    one response at a time (the next waits for END_RESP or a TLM_COMPLETED return).
//  - Loosely timed: b_transport queues the request and runs the controllers ahead until it is
//    done; the annotated delay includes queueing and refresh. Without waits, so callable from
//    an SC_METHOD. (A later LT request sees the controllers' clocks where the earlier ones left
//    them: LT keeps bank parallelism within a request, AT also across requests.)
//  - transport_dbg reads and writes the backing store (when data is stored).
// Requests are split into bursts at the device's burst size and routed by the address map.
#include "hw/dram/address_mapper.h"
#include "hw/dram/channel_controller.h"
#include "hw/dram/dram_config.h"
#include "hw/dram/dram_energy.h"
#include "hw/dram/timing_checker.h"
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"
#include "hw/time/timed_queue.h"

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <vector>

namespace mcmsim {

/// Lets an initiator name the layer a DRAM access works for, so its energy is attributed.
struct LayerEnergyExtension : tlm::tlm_extension<LayerEnergyExtension> {
    EnergyAccount* account = nullptr;
    tlm::tlm_extension_base* clone() const override { return new LayerEnergyExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        account = static_cast<const LayerEnergyExtension&>(other).account;
    }
};

struct DramTargetOptions {
    bool store_data = false;    ///< keep written bytes and return them on reads
    bool check_timing = false;  ///< replay every command through a TimingChecker
    /// Wake up for refreshes while idle. Off by default so that a simulation with nothing
    /// left to do ends (SystemC stops when no event is pending); the refreshes that fell due
    /// meanwhile are then issued, at their due times, when the next request arrives.
    bool idle_refresh = false;
};

/// One transaction in flight.
struct DramRequest {
    tlm::tlm_generic_payload* gp = nullptr;
    EnergyAccount* layer = nullptr;
    Tick arrival = 0, done = 0;
    int bursts = 0, bursts_left = 0;
    bool at = false, write = false;
};

class DramTarget : public sc_core::sc_module, private ControllerListener {
public:
    tlm_utils::simple_target_socket<DramTarget> socket;

    SC_HAS_PROCESS(DramTarget);
    DramTarget(sc_core::sc_module_name name, const DramConfig& cfg, EnergyAccount* energy, DramTargetOptions opt = {});
    ~DramTarget() override;

    std::int64_t reads() const { return reads_; }
    std::int64_t writes() const { return writes_; }
    std::int64_t bytes_read() const { return bytes_read_; }
    std::int64_t bytes_written() const { return bytes_written_; }
    nlohmann::json stats_json(Tick elapsed) const;

    const DramConfig& config() const { return cfg_; }
    const DramTicks& ticks() const { return t_; }
    const AddressMapper& mapper() const { return mapper_; }
    /// Timing violations found by the checker (0 when checking is off).
    std::size_t timing_violations() const { return checker_ ? checker_->violation_count() : 0; }
    const TimingChecker* checker() const { return checker_.get(); }
    /// Every issued command also goes to `f` (tests record the stream).
    void observe_commands(std::function<void(const IssuedCommand&)> f) { observer_ = std::move(f); }
    /// Full refreshes per rank (averaged over units and ranks) through `until`.
    double refreshes_per_rank(Tick until) const;
    std::int64_t command_count(DramCommand c) const;
    /// Row hits: column commands that needed no ACT, over all column commands.
    double row_hit_rate() const;
    double energy_pj() const;
    /// End of the run at `end`: background energy of every channel is booked up to it.
    void end_of_run(Tick end);
    double avg_latency_ns() const {
        return done_requests_ ? ticks_to_ns(latency_sum_) / static_cast<double>(done_requests_) : 0.0;
    }
    std::size_t units() const { return units_.size(); }

private:
    struct Wake {
        int unit = -1;                    ///< a controller's next command time, or
        DramRequest* response = nullptr;  ///< a response that is due
    };
    struct UnitEnergy {
        double act = 0, rd = 0, wr = 0, ref = 0, io = 0, background = 0;
        double total() const { return act + rd + wr + ref + io + background; }
    };

    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
    unsigned int transport_dbg(tlm::tlm_generic_payload& gp);
    void wake();

    bool check_address(tlm::tlm_generic_payload& gp) const;
    int bursts_of(const tlm::tlm_generic_payload& gp) const;
    DramRequest* start(tlm::tlm_generic_payload& gp, Tick arrival, bool at);
    void accept(tlm::tlm_generic_payload& gp, Tick arrival);
    void arm(std::uint32_t unit);
    void send_responses();
    void finish(DramRequest* r);
    void copy_data(tlm::tlm_generic_payload& gp);

    // ControllerListener
    void on_command(const IssuedCommand& c, const Burst* b) override;
    void on_burst_done(Burst* b, Tick done) override;
    void on_background(std::uint32_t unit, Tick active, Tick idle) override;

    Burst* new_burst();
    DramRequest* new_request();

    DramConfig cfg_;
    DramTicks t_;
    EnergyAccount* energy_;
    DramTargetOptions opt_;
    AddressMapper mapper_;
    DramEnergyModel energy_model_;
    std::vector<std::unique_ptr<ChannelController>> units_;
    std::unique_ptr<TimingChecker> checker_;
    std::function<void(const IssuedCommand&)> observer_;

    // AT machinery: one method, one event.
    sc_core::sc_event wake_event_;
    TimedQueue<Wake> agenda_;
    std::vector<Tick> armed_;          ///< earliest pending wake per unit
    std::vector<DramRequest*> ready_;  ///< responses due, oldest first
    std::size_t ready_head_ = 0;
    bool started_ = false;
    DramRequest* in_response_ = nullptr;        ///< BEGIN_RESP sent, END_RESP awaited
    tlm::tlm_generic_payload* held_ = nullptr;  ///< BEGIN_REQ waiting for queue room
    std::int64_t in_flight_bursts_ = 0, capacity_bursts_;

    // Pools (bursts and requests are recycled, never freed while running).
    std::vector<std::unique_ptr<Burst[]>> burst_blocks_;
    std::vector<Burst*> free_bursts_;
    std::vector<std::unique_ptr<DramRequest>> all_requests_;
    std::vector<DramRequest*> free_requests_;
    std::vector<std::uint32_t> touched_;
    std::vector<std::uint64_t> touch_stamp_;
    std::uint64_t stamp_ = 0, seq_ = 0;

    // Backing store: 4 KiB pages, created on first write.
    std::unordered_map<std::uint64_t, std::unique_ptr<unsigned char[]>> pages_;

    std::int64_t reads_ = 0, writes_ = 0, bytes_read_ = 0, bytes_written_ = 0;
    std::int64_t done_requests_ = 0, done_reads_ = 0;
    Tick latency_sum_ = 0, read_latency_sum_ = 0;
    std::vector<UnitEnergy> unit_energy_;
};

}  // namespace mcmsim
