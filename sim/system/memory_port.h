#pragma once
// Where the package network meets a DRAM interface: turns request packets into TLM-2.0
// transactions on the DRAM target (approximately timed: BEGIN_REQ/END_REQ/BEGIN_RESP/END_RESP,
// so many requests are in flight and the controllers exploit bank parallelism) and sends the
// responses back over the network when the target delivers them. All DRAM traffic of a
// simulation goes through one of these.
#include "hw/dram/dram_target.h"
#include "hw/dram/memory_manager.h"
#include "hw/time/timed_queue.h"
#include "noc/package_network.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <deque>
#include <unordered_map>

namespace mcmsim {

class MemoryPort : public sc_core::sc_module, public NetworkEndpoint {
public:
    SC_HAS_PROCESS(MemoryPort);
    tlm_utils::simple_initiator_socket<MemoryPort> socket;

    MemoryPort(sc_core::sc_module_name name, int memory_index, PackageNetwork& net);

    void arrive(Packet* p, Tick when) override;
    std::int64_t requests() const { return requests_; }
    /// Events scheduled in this port (the watchdog's notion of "something will still happen").
    std::size_t pending_events() const { return queue_.size(); }
    /// Requests sent to the DRAM or waiting to be sent, not yet answered (deadlock report).
    std::size_t outstanding() const { return waiting_.size() + in_flight_.size(); }

private:
    struct Event {
        Packet* packet;
        bool respond;  ///< false: a request arrives; true: its response leaves now
    };
    void wake();
    void serve(Packet* req);
    void issue_next();
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
    void completed(tlm::tlm_generic_payload& gp, Tick when);

    int node_;
    PackageNetwork& net_;
    PayloadPool pool_;
    std::deque<tlm::tlm_generic_payload*> waiting_;                     ///< built, not yet sent (request channel busy)
    bool request_busy_ = false;                                         ///< a BEGIN_REQ awaits its END_REQ
    tlm::tlm_generic_payload* held_ = nullptr;                          ///< the last request sent (the one awaiting END_REQ)
    std::unordered_map<tlm::tlm_generic_payload*, Packet*> in_flight_;  ///< payload -> its response
    std::int64_t requests_ = 0;
    sc_core::sc_event wake_event_;
    TimedQueue<Event> queue_;
};

}  // namespace mcmsim
