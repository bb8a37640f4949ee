#include "sim/memory_port.h"

#include <stdexcept>

namespace mcmsim {

namespace {
constexpr std::int64_t kControlPacketBytes = 16;  ///< a write acknowledgement: one header flit
}

MemoryPort::MemoryPort(sc_core::sc_module_name name, int memory_index, Network& net)
    : sc_core::sc_module(name), socket("socket"), node_(net.memory_node(memory_index)), net_(net),
      energy_ext_(new LayerEnergyExtension), queue_(wake_event_) {
    net_.attach(node_, this);
    gp_.set_extension(energy_ext_);
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
            serve(e.packet, now);
            continue;
        }
        // The response leaves for the chiplet that asked.
        net_.inject(node_, e.packet->src_node, e.packet, now);
    }
    queue_.rearm();
}

void MemoryPort::serve(Packet* req, Tick now) {
    ++requests_;
    bool read = req->kind == PacketKind::DramReadReq;
    if (!read && req->kind != PacketKind::DramWriteData)
        throw std::logic_error(std::string(name()) + ": unexpected packet kind");
    auto len = static_cast<std::size_t>(req->request_bytes);
    if (scratch_.size() < len) scratch_.resize(len);
    gp_.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    gp_.set_address(req->address);
    gp_.set_data_ptr(scratch_.data());
    gp_.set_data_length(static_cast<unsigned>(len));
    gp_.set_streaming_width(static_cast<unsigned>(len));
    gp_.set_byte_enable_ptr(nullptr);
    gp_.set_dmi_allowed(false);
    gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    energy_ext_->account = req->layer_energy;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp_, delay);
    if (gp_.is_response_error())
        throw std::runtime_error(std::string(name()) + ": DRAM access failed at address " +
                                 std::to_string(req->address) + ": " + gp_.get_response_string());

    // The request packet is consumed; its record becomes the response travelling back.
    int requester = req->src_node;
    Packet* resp = net_.new_packet();
    *resp = *req;
    resp->kind = read ? PacketKind::DramReadResp : PacketKind::DramWriteAck;
    resp->payload_bytes = read ? req->request_bytes : 0;
    resp->wire_bytes = read ? req->request_bytes : kControlPacketBytes;
    resp->src_node = requester;  // inject() sends to this node (it re-stamps the source)
    resp->tail_lag = 0;
    resp->hops = 0;
    net_.delivered(req);
    queue_.push(now + delay.value(), Event{resp, true});
}

}  // namespace mcmsim
