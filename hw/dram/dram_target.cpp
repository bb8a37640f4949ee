#include "hw/dram/dram_target.h"

#include <algorithm>
#include <cstring>

namespace mcmsim {

namespace {
constexpr std::uint64_t kPageBytes = 4096;
constexpr std::size_t kBurstBlock = 1024;

DramConfig checked(const DramConfig& cfg) {
    DramConfig c = cfg;
    validate_dram(c);  // hand-built configs too: a bad one must not reach the controller
    derive_dram(c);
    return c;
}
}  // namespace

DramTarget::DramTarget(sc_core::sc_module_name name, const DramConfig& cfg, EnergyAccount* energy, DramTargetOptions opt)
    : sc_core::sc_module(name), socket("socket"), cfg_(checked(cfg)), t_(dram_ticks(cfg_.timing)), energy_(energy), opt_(opt),
      mapper_(cfg_), energy_model_(cfg_), agenda_(wake_event_), capacity_bursts_(cfg_.queue_depth * cfg_.units()) {
    const auto n = static_cast<std::size_t>(cfg_.units());
    for (std::size_t u = 0; u < n; ++u)
        units_.push_back(
            std::make_unique<ChannelController>(cfg_, t_, static_cast<std::uint32_t>(u), static_cast<ControllerListener*>(this)));
    armed_.assign(n, kNever);
    touch_stamp_.assign(n, 0);
    unit_energy_.resize(n);
    if (opt_.check_timing) checker_ = std::make_unique<TimingChecker>(cfg_);
    socket.register_b_transport(this, &DramTarget::b_transport);
    socket.register_nb_transport_fw(this, &DramTarget::nb_transport_fw);
    socket.register_transport_dbg(this, &DramTarget::transport_dbg);
    SC_METHOD(wake);  // runs once at time 0 too: arms idle refresh when asked for
    sensitive << wake_event_;
}

DramTarget::~DramTarget() = default;

// ---- pools ---------------------------------------------------------------------------------

Burst* DramTarget::new_burst() {
    if (free_bursts_.empty()) {
        burst_blocks_.push_back(std::make_unique<Burst[]>(kBurstBlock));
        for (std::size_t i = 0; i < kBurstBlock; ++i) free_bursts_.push_back(&burst_blocks_.back()[i]);
    }
    Burst* b = free_bursts_.back();
    free_bursts_.pop_back();
    return b;
}

DramRequest* DramTarget::new_request() {
    if (free_requests_.empty()) {
        all_requests_.push_back(std::make_unique<DramRequest>());
        return all_requests_.back().get();
    }
    DramRequest* r = free_requests_.back();
    free_requests_.pop_back();
    *r = DramRequest{};
    return r;
}

// ---- requests ------------------------------------------------------------------------------

bool DramTarget::check_address(tlm::tlm_generic_payload& gp) const {
    const std::uint64_t addr = gp.get_address();
    const std::uint64_t len = gp.get_data_length();
    const auto capacity = static_cast<std::uint64_t>(cfg_.capacity_bytes);
    if (len == 0 || addr > capacity || len > capacity - addr) {
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return false;
    }
    if (gp.get_byte_enable_ptr()) {
        gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return false;
    }
    return true;
}

int DramTarget::bursts_of(const tlm::tlm_generic_payload& gp) const {
    const std::uint64_t bb = mapper_.burst_bytes();
    const std::uint64_t first = gp.get_address() / bb, last = (gp.get_address() + gp.get_data_length() - 1) / bb;
    return static_cast<int>(last - first + 1);
}

void DramTarget::copy_data(tlm::tlm_generic_payload& gp) {
    // Functional effect when the target takes the request: later requests see earlier writes in
    // the order the initiators sent them.
    std::uint64_t addr = gp.get_address();
    unsigned char* p = gp.get_data_ptr();
    std::uint64_t left = gp.get_data_length();
    while (left > 0) {
        const std::uint64_t page = addr / kPageBytes, off = addr % kPageBytes;
        const std::uint64_t n = std::min(left, kPageBytes - off);
        auto it = pages_.find(page);
        if (gp.is_write()) {
            if (it == pages_.end()) {
                it = pages_.emplace(page, std::make_unique<unsigned char[]>(kPageBytes)).first;
                std::memset(it->second.get(), 0, kPageBytes);
            }
            std::memcpy(it->second.get() + off, p, n);
        } else if (it == pages_.end()) {
            std::memset(p, 0, n);
        } else {
            std::memcpy(p, it->second.get() + off, n);
        }
        addr += n;
        p += n;
        left -= n;
    }
}

DramRequest* DramTarget::start(tlm::tlm_generic_payload& gp, Tick arrival, bool at) {
    DramRequest* r = new_request();
    r->gp = &gp;
    r->arrival = arrival;
    r->done = arrival;
    r->at = at;
    r->write = gp.is_write();
    LayerEnergyExtension* ext = nullptr;
    gp.get_extension(ext);
    r->layer = ext ? ext->account : nullptr;
    const std::int64_t len = gp.get_data_length();
    if (r->write) {
        ++writes_;
        bytes_written_ += len;
    } else {
        ++reads_;
        bytes_read_ += len;
    }
    if (opt_.store_data) copy_data(gp);

    // Split into bursts; each goes to the controller of its unit.
    const std::uint64_t bb = mapper_.burst_bytes();
    const std::uint64_t end = gp.get_address() + gp.get_data_length();
    ++stamp_;
    touched_.clear();
    for (std::uint64_t a = gp.get_address() / bb * bb; a < end; a += bb) {
        const DramCoord c = mapper_.decode(a);
        Burst* b = new_burst();
        b->request = r;
        b->arrival = arrival;
        b->seq = seq_++;
        b->write = r->write;
        b->rank = static_cast<std::uint16_t>(c.rank);
        b->bank_group = static_cast<std::uint16_t>(c.bank_group);
        b->bank = static_cast<std::uint16_t>(c.bank);
        b->row = c.row;
        b->column = c.column;
        const std::uint32_t u = mapper_.unit_of(c);
        units_[u]->enqueue(b);
        ++r->bursts;
        if (touch_stamp_[u] != stamp_) {
            touch_stamp_[u] = stamp_;
            touched_.push_back(u);
        }
    }
    r->bursts_left = r->bursts;
    return r;
}

void DramTarget::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) {
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    if (!check_address(gp)) return;
    const Tick now = now_ticks();
    DramRequest* r = start(gp, now + delay.value(), false);
    // Run the controllers this request touches ahead until its bursts are done.
    const std::vector<std::uint32_t> touched = touched_;
    for (std::uint32_t u : touched) {
        units_[u]->drain();
        arm(u);  // refresh keeps going in AT time
    }
    delay = to_sc_time(r->done - now);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    free_requests_.push_back(r);
}

void DramTarget::accept(tlm::tlm_generic_payload& gp, Tick arrival) {
    in_flight_bursts_ += bursts_of(gp);
    start(gp, arrival, true);
    const Tick now = now_ticks();
    for (std::uint32_t u : touched_) {
        units_[u]->advance(now);
        arm(u);
    }
}

tlm::tlm_sync_enum DramTarget::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase == tlm::BEGIN_REQ) {
        if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) {
            gp.set_response_status(tlm::TLM_OK_RESPONSE);
            return tlm::TLM_COMPLETED;
        }
        if (!check_address(gp)) return tlm::TLM_COMPLETED;
        gp.acquire();
        if (in_flight_bursts_ > 0 && in_flight_bursts_ + bursts_of(gp) > capacity_bursts_) {
            held_ = &gp;  // END_REQ follows when a response frees room (backpressure)
            return tlm::TLM_ACCEPTED;
        }
        accept(gp, now_ticks() + delay.value());
        phase = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    if (phase == tlm::END_RESP) {
        if (in_response_) {
            finish(in_response_);
            in_response_ = nullptr;
        }
        send_responses();
        return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
}

unsigned int DramTarget::transport_dbg(tlm::tlm_generic_payload& gp) {
    const std::uint64_t capacity = static_cast<std::uint64_t>(cfg_.capacity_bytes);
    if (gp.get_address() >= capacity) return 0;
    const auto len = static_cast<unsigned>(std::min<std::uint64_t>(gp.get_data_length(), capacity - gp.get_address()));
    if (gp.get_command() == tlm::TLM_IGNORE_COMMAND || len == 0) return 0;
    gp.set_data_length(len);
    copy_data(gp);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return len;
}

// ---- event-driven core -----------------------------------------------------------------------

void DramTarget::arm(std::uint32_t u) {
    if (!opt_.idle_refresh && !units_[u]->has_work()) return;
    const Tick next = std::max(units_[u]->next_time(), now_ticks());
    if (next == kNever || next >= armed_[u]) return;
    armed_[u] = next;
    agenda_.push(next, Wake{static_cast<int>(u), nullptr});
}

void DramTarget::wake() {
    agenda_.woke();
    const Tick now = now_ticks();
    if (!started_) {
        started_ = true;
        if (opt_.idle_refresh)
            for (std::uint32_t u = 0; u < units_.size(); ++u) arm(u);
    }
    Wake w;
    while (agenda_.pop_due(now, w)) {
        if (w.unit >= 0) {
            const auto u = static_cast<std::uint32_t>(w.unit);
            if (armed_[u] <= now) armed_[u] = kNever;
            units_[u]->advance(now);
            arm(u);
        } else {
            ready_.push_back(w.response);
        }
    }
    send_responses();
    agenda_.rearm();
}

void DramTarget::send_responses() {
    while (!in_response_ && ready_head_ < ready_.size()) {
        DramRequest* r = ready_[ready_head_++];
        r->gp->set_response_status(tlm::TLM_OK_RESPONSE);
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        in_response_ = r;
        const tlm::tlm_sync_enum s = socket->nb_transport_bw(*r->gp, phase, delay);
        if (s == tlm::TLM_ACCEPTED && in_response_ == r) break;  // END_RESP will follow
        if (in_response_ == r) {                                 // TLM_COMPLETED, or TLM_UPDATED with END_RESP
            in_response_ = nullptr;
            finish(r);
        }
    }
    if (ready_head_ == ready_.size()) {
        ready_.clear();
        ready_head_ = 0;
    }
}

void DramTarget::finish(DramRequest* r) {
    in_flight_bursts_ -= r->bursts;
    tlm::tlm_generic_payload* gp = r->gp;
    free_requests_.push_back(r);
    gp->release();
    // Room again: take the held request.
    if (held_ && in_flight_bursts_ + bursts_of(*held_) <= capacity_bursts_) {
        tlm::tlm_generic_payload* h = held_;
        held_ = nullptr;
        accept(*h, now_ticks());
        tlm::tlm_phase phase = tlm::END_REQ;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->nb_transport_bw(*h, phase, delay);
    }
}

// ---- controller callbacks ----------------------------------------------------------------------

void DramTarget::on_command(const IssuedCommand& c, const Burst* b) {
    if (checker_) checker_->on_command(c);
    if (observer_) observer_(c);
    double pj = energy_model_.command_pj(c.cmd);
    UnitEnergy& ue = unit_energy_[c.unit];
    switch (c.cmd) {
        case DramCommand::Act:
            ue.act += pj;
            break;
        case DramCommand::Rd:
            ue.rd += pj;
            break;
        case DramCommand::Wr:
            ue.wr += pj;
            break;
        case DramCommand::Ref:
        case DramCommand::RefPb:
            ue.ref += pj;
            break;
        case DramCommand::Pre:
            break;
    }
    if (c.cmd == DramCommand::Rd || c.cmd == DramCommand::Wr) {
        const double io = energy_model_.io_pj();
        ue.io += io;
        pj += io;
    }
    if (pj == 0.0) return;
    if (energy_) energy_->add(EnergyCategory::Dram, pj);
    // Energy caused by a request (its ACT, its bursts) also goes to the layer it works for.
    if (b && b->request->layer) b->request->layer->add(EnergyCategory::Dram, pj);
}

void DramTarget::on_burst_done(Burst* b, Tick done) {
    DramRequest* r = b->request;
    free_bursts_.push_back(b);
    r->done = std::max(r->done, done);
    if (--r->bursts_left > 0) return;
    ++done_requests_;
    latency_sum_ += r->done - r->arrival;
    if (!r->write) {
        ++done_reads_;
        read_latency_sum_ += r->done - r->arrival;
    }
    if (r->at) agenda_.push(r->done, Wake{-1, r});
}

void DramTarget::on_background(std::uint32_t unit, Tick active, Tick idle) {
    const double pj = energy_model_.background_pj(active, idle);
    unit_energy_[unit].background += pj;
    if (energy_ && pj > 0) energy_->add(EnergyCategory::Dram, pj);
}

// ---- statistics ------------------------------------------------------------------------------

std::int64_t DramTarget::command_count(DramCommand c) const {
    std::int64_t n = 0;
    for (const auto& u : units_) n += u->stats().commands[static_cast<std::size_t>(c)];
    return n;
}

double DramTarget::row_hit_rate() const {
    const auto cols = static_cast<double>(command_count(DramCommand::Rd) + command_count(DramCommand::Wr));
    if (cols == 0) return 0.0;
    return std::max(0.0, (cols - static_cast<double>(command_count(DramCommand::Act))) / cols);
}

double DramTarget::refreshes_per_rank(Tick until) const {
    double n = 0;
    for (const auto& u : units_) n += u->refreshes_through(until);
    return n / static_cast<double>(units_.size() * static_cast<std::size_t>(cfg_.org.ranks));
}

void DramTarget::end_of_run(Tick end) {
    for (auto& u : units_) u->close_accounts(end);
}

double DramTarget::energy_pj() const {
    double e = 0;
    for (const auto& u : unit_energy_) e += u.total();
    return e;
}

nlohmann::json DramTarget::stats_json(Tick elapsed) const {
    Tick busy = 0;
    for (const auto& u : units_) busy += u->stats().data_busy;
    const double units = static_cast<double>(units_.size());
    const double util = elapsed ? static_cast<double>(busy) / (static_cast<double>(elapsed) * units) : 0.0;
    const double bits = static_cast<double>(bytes_read_ + bytes_written_) * 8.0;
    nlohmann::json channels = nlohmann::json::array();
    for (std::size_t i = 0; i < units_.size(); ++i) {
        const ControllerStats& s = units_[i]->stats();
        const UnitEnergy& e = unit_energy_[i];
        const auto cols = static_cast<double>(s.reads + s.writes);
        const auto acts = static_cast<double>(s.commands[static_cast<std::size_t>(DramCommand::Act)]);
        channels.push_back({{"unit", i},
                            {"reads", s.reads},
                            {"writes", s.writes},
                            {"activates", s.commands[static_cast<std::size_t>(DramCommand::Act)]},
                            {"row_hit_rate", cols > 0 ? std::max(0.0, (cols - acts) / cols) : 0.0},
                            {"refreshes", units_[i]->refreshes_through(elapsed)},
                            {"utilization", elapsed ? static_cast<double>(s.data_busy) / static_cast<double>(elapsed) : 0.0},
                            {"energy_pj",
                             {{"total", e.total()},
                              {"act_pre", e.act},
                              {"read", e.rd},
                              {"write", e.wr},
                              {"refresh", e.ref},
                              {"io", e.io},
                              {"background", e.background}}}});
    }
    nlohmann::json j = {
        {"reads", reads_},
        {"writes", writes_},
        {"bytes_read", bytes_read_},
        {"bytes_written", bytes_written_},
        {"channel_utilization", util},
        {"row_hit_rate", row_hit_rate()},
        {"activates", command_count(DramCommand::Act)},
        {"precharges", command_count(DramCommand::Pre)},
        {"refreshes_per_rank", refreshes_per_rank(elapsed)},
        {"avg_latency_ns", avg_latency_ns()},
        {"avg_read_latency_ns", done_reads_ ? ticks_to_ns(read_latency_sum_) / static_cast<double>(done_reads_) : 0.0},
        {"energy_pj", energy_pj()},
        {"energy_pj_per_bit", bits > 0 ? energy_pj() / bits : 0.0},
        {"channels", channels}};
    if (checker_) j["timing_violations"] = checker_->violation_count();
    return j;
}

}  // namespace mcmsim
