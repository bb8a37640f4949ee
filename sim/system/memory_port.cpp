#include "sim/system/memory_port.h"

#include "hw/common/packet_format.h"

#include <stdexcept>

namespace mcmsim {

MemoryPort::MemoryPort(sc_core::sc_module_name name, int memory_index, PackageNetwork& net)
    : sc_core::sc_module(name), socket("socket"), node_(net.memory_node(memory_index)), net_(net), queue_(wake_event_) {
    net_.attach(node_, this);
    socket.register_nb_transport_bw(this, &MemoryPort::nb_transport_bw);
    SC_METHOD(wake);
    sensitive << wake_event_;
    dont_initialize();
}

void MemoryPort::arrive(Packet* p, Tick when) { queue_.push(when, Event{p, false}); }

void MemoryPort::wake() {
    queue_.woke();
    Tick now = now_ticks();
    Event e{nullptr, false};
    while (queue_.pop_due(now, e)) {
        if (!e.respond) {
            serve(e.packet);
            continue;
        }
        // The response leaves for the chiplet that asked.
        net_.inject(node_, e.packet->src_node, e.packet, now);
    }
    queue_.rearm();
}

void MemoryPort::serve(Packet* req) {
    ++requests_;
    const bool read = req->kind == PacketKind::DramReadReq;
    if (!read && req->kind != PacketKind::DramWriteData) throw std::logic_error(std::string(name()) + ": unexpected packet kind");
    tlm::tlm_generic_payload* gp = pool_.allocate(static_cast<unsigned>(req->request_bytes));
    gp->set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    gp->set_address(req->address);
    auto* ext = new LayerEnergyExtension;
    ext->account = req->layer_energy;
    gp->set_auto_extension(ext);  // freed when the payload returns to the pool

    // The request packet is consumed; its record becomes the response travelling back.
    Packet* resp = net_.new_packet();
    *resp = *req;
    resp->kind = read ? PacketKind::DramReadResp : PacketKind::DramWriteAck;
    resp->payload_bytes = read ? req->request_bytes : 0;
    resp->wire_bytes = read ? req->request_bytes : kControlPacketBytes;
    resp->tail_lag = 0;
    resp->hops = 0;
    net_.delivered(req);
    in_flight_.emplace(gp, resp);
    waiting_.push_back(gp);
    issue_next();
}

/// Base protocol: one request in its request phase at a time; the next waits for END_REQ.
void MemoryPort::issue_next() {
    while (!request_busy_ && !waiting_.empty()) {
        tlm::tlm_generic_payload* gp = waiting_.front();
        waiting_.pop_front();
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        request_busy_ = true;
        held_ = gp;
        tlm::tlm_sync_enum s = socket->nb_transport_fw(*gp, phase, delay);
        if (s == tlm::TLM_COMPLETED) {  // refused or served at once
            request_busy_ = false;
            completed(*gp, now_ticks() + delay.value());
        } else if (s == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
            request_busy_ = false;
        }  // TLM_ACCEPTED: END_REQ comes later through nb_transport_bw
    }
}

tlm::tlm_sync_enum MemoryPort::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase == tlm::END_REQ) {
        if (held_ == &gp) request_busy_ = false;
        issue_next();
        return tlm::TLM_ACCEPTED;
    }
    if (phase == tlm::BEGIN_RESP) {
        // A response implies the end of that transaction's own request phase (base protocol).
        if (request_busy_ && held_ == &gp) request_busy_ = false;
        completed(gp, now_ticks() + delay.value());
        phase = tlm::END_RESP;
        issue_next();
        return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
}

void MemoryPort::completed(tlm::tlm_generic_payload& gp, Tick when) {
    auto it = in_flight_.find(&gp);
    if (it == in_flight_.end()) throw std::logic_error(std::string(name()) + ": response for an unknown request");
    if (gp.is_response_error())
        throw std::runtime_error(std::string(name()) + ": DRAM access failed at address " + std::to_string(gp.get_address()) +
                                 ": " + gp.get_response_string());
    Packet* resp = it->second;
    in_flight_.erase(it);
    gp.release();
    queue_.push(std::max(when, now_ticks()), Event{resp, true});
}

}  // namespace mcmsim
