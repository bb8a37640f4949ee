#include "hw/dram/dram_traffic.h"

namespace mcmsim {

namespace {
/// When the transaction entered the target (kept in the payload's address-independent slot).
struct IssueTime : tlm::tlm_extension<IssueTime> {
    Tick at = 0;
    tlm::tlm_extension_base* clone() const override { return new IssueTime(*this); }
    void copy_from(const tlm::tlm_extension_base& o) override { at = static_cast<const IssueTime&>(o).at; }
};
}  // namespace

DramTrafficGenerator::DramTrafficGenerator(sc_core::sc_module_name name, const DramTrafficConfig& cfg, std::uint64_t capacity)
    : sc_core::sc_module(name), socket("socket"), cfg_(cfg),
      footprint_(cfg.footprint_bytes ? std::min(cfg.footprint_bytes, capacity) : capacity), rng_(cfg.seed) {
    if (cfg_.stride_bytes == 0) cfg_.stride_bytes = cfg_.request_bytes;
    footprint_ -= footprint_ % cfg_.request_bytes;
    socket.register_nb_transport_bw(this, &DramTrafficGenerator::nb_transport_bw);
    SC_METHOD(send);
    sensitive << send_event_;
}

std::uint64_t DramTrafficGenerator::next_address() {
    const std::uint64_t size = cfg_.request_bytes;
    switch (cfg_.pattern) {
        case DramPattern::Random: {
            std::uniform_int_distribution<std::uint64_t> d(0, footprint_ / size - 1);
            return d(rng_) * size;
        }
        case DramPattern::Stream:
        case DramPattern::Strided: {
            const std::uint64_t a = cursor_ % footprint_;
            cursor_ += cfg_.pattern == DramPattern::Stream ? size : cfg_.stride_bytes;
            return a - a % size;
        }
    }
    return 0;
}

void DramTrafficGenerator::send() {
    while (!request_open_ && issued_ < cfg_.requests && in_flight_ < cfg_.max_in_flight) {
        tlm::tlm_generic_payload* gp = pool_.allocate(cfg_.request_bytes);
        const bool read = cfg_.read_ratio >= 1.0 || coin_(rng_) < cfg_.read_ratio;
        gp->set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        gp->set_address(next_address());
        IssueTime* it = nullptr;
        gp->get_extension(it);
        if (!it) {
            it = new IssueTime;
            gp->set_extension(it);  // not auto: survives the pool's reset(), freed with the payload
        }
        it->at = now_ticks();
        if (first_ == kNever) first_ = now_ticks();
        ++issued_;
        ++in_flight_;
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        request_open_ = true;
        const tlm::tlm_sync_enum s = socket->nb_transport_fw(*gp, phase, delay);
        if (s == tlm::TLM_UPDATED && phase == tlm::END_REQ) request_open_ = false;
        if (s == tlm::TLM_COMPLETED) {  // error or ignored: count it done at once
            request_open_ = false;
            --in_flight_;
            ++completed_;
            gp->release();
        }
    }
}

tlm::tlm_sync_enum DramTrafficGenerator::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                         sc_core::sc_time& delay) {
    (void)delay;
    if (phase == tlm::END_REQ) {
        request_open_ = false;
        send_event_.notify(sc_core::SC_ZERO_TIME);
        return tlm::TLM_ACCEPTED;
    }
    if (phase == tlm::BEGIN_RESP) {
        if (request_open_) request_open_ = false;  // BEGIN_RESP implies END_REQ
        IssueTime* it = nullptr;
        gp.get_extension(it);
        const Tick now = now_ticks();
        latency_sum_ += now - (it ? it->at : now);
        last_ = now;
        bytes_ += gp.get_data_length();
        ++completed_;
        --in_flight_;
        gp.release();
        send_event_.notify(sc_core::SC_ZERO_TIME);
        phase = tlm::END_RESP;
        return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
}

}  // namespace mcmsim
