#pragma once
// A synthetic approximately-timed initiator for the DRAM target: stream, random or strided
// addresses, a read/write mix, a bounded number of transactions in flight. Used by
// `mcmsim dram`, the benchmark and the tests.
#include "hw/common/choice.h"
#include "hw/dram/memory_manager.h"
#include "hw/time/sim_time.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <cstdint>
#include <random>
#include <string>

namespace mcmsim {

enum class DramPattern { Stream, Random, Strided };

template <>
struct ChoiceNames<DramPattern> {
    static constexpr std::pair<DramPattern, const char*> all[] = {
        {DramPattern::Stream, "stream"}, {DramPattern::Random, "random"}, {DramPattern::Strided, "strided"}};
};

struct DramTrafficConfig {
    DramPattern pattern = DramPattern::Stream;
    std::uint64_t stride_bytes = 0;  ///< strided: distance between requests (0: request size)
    double read_ratio = 1.0;
    std::int64_t requests = 100000;
    std::uint64_t seed = 1;
    std::uint32_t request_bytes = 64;
    std::uint64_t footprint_bytes = 0;  ///< addresses wrap at this (0: the device capacity)
    int max_in_flight = 256;
};

class DramTrafficGenerator : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<DramTrafficGenerator> socket;

    SC_HAS_PROCESS(DramTrafficGenerator);
    DramTrafficGenerator(sc_core::sc_module_name name, const DramTrafficConfig& cfg, std::uint64_t capacity_bytes);

    std::int64_t completed() const { return completed_; }
    std::int64_t bytes() const { return bytes_; }
    Tick first_request() const { return first_; }
    Tick last_response() const { return last_; }
    double avg_latency_ns() const { return completed_ ? ticks_to_ns(latency_sum_) / static_cast<double>(completed_) : 0.0; }
    bool done() const { return completed_ == cfg_.requests; }

private:
    void send();
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
    std::uint64_t next_address();

    DramTrafficConfig cfg_;
    std::uint64_t footprint_;
    PayloadPool pool_;
    std::mt19937_64 rng_;
    std::uniform_real_distribution<double> coin_{0.0, 1.0};
    sc_core::sc_event send_event_;
    std::int64_t issued_ = 0, completed_ = 0, in_flight_ = 0, bytes_ = 0;
    bool request_open_ = false;  ///< BEGIN_REQ sent, END_REQ not yet seen
    std::uint64_t cursor_ = 0;
    Tick first_ = kNever, last_ = 0, latency_sum_ = 0;
};

}  // namespace mcmsim
