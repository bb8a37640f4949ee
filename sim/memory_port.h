#pragma once
// Where the package network meets a DRAM interface: turns request packets into TLM-2.0
// transactions on the DRAM target and sends responses back when the target says the data
// is ready. All DRAM traffic of a simulation goes through one of these.
#include "hw/dram/dram_target.h"
#include "hw/time/timed_queue.h"
#include "noc/network.h"

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <vector>

namespace mcmsim {

class MemoryPort : public sc_core::sc_module, public NetworkEndpoint {
public:
    SC_HAS_PROCESS(MemoryPort);
    tlm_utils::simple_initiator_socket<MemoryPort> socket;

    MemoryPort(sc_core::sc_module_name name, int memory_index, Network& net);

    void arrive(Packet* p, Tick when) override;
    std::int64_t requests() const { return requests_; }
    std::size_t pending_events() const { return queue_.size(); }

private:
    struct Event {
        Packet* packet;
        bool respond;  ///< false: a request arrives; true: its response leaves now
    };
    void wake();
    void serve(Packet* p, Tick now);

    int node_;
    Network& net_;
    tlm::tlm_generic_payload gp_;  ///< reused for every access: b_transport completes in the call
    LayerEnergyExtension* energy_ext_;  ///< owned by gp_ (freed with it)
    std::vector<unsigned char> scratch_;
    std::int64_t requests_ = 0;
    sc_core::sc_event wake_event_;
    TimedQueue<Event> queue_;
};

}  // namespace mcmsim
