#include "noc/vc_network.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mcmsim {

namespace {
constexpr Cycle kNoWake = std::numeric_limits<Cycle>::max();
}

VcNetwork::VcNetwork(sc_core::sc_module_name name, const NocConfig& cfg)
    : sc_core::sc_module(name), cfg_(cfg), topo_(build_topology(cfg_)), routing_(make_routing(cfg_, topo_)) {
    if (topo_.routers() > 65536) throw std::invalid_argument("VcNetwork: at most 65536 routers (flits carry 16-bit ids)");
    // A flit entering an empty VC must arrive after the VC's previous flit left (VcRouter::InputVc::due).
    bool slow_enough = cfg_.ni_latency_cycles >= 1;
    for (const NocLinkConfig& l : cfg_.links) slow_enough = slow_enough && l.latency_cycles >= 1;
    if (!slow_enough) throw std::invalid_argument("VcNetwork: links and the NI take at least one cycle");
    for (int r = 0; r < topo_.routers(); ++r) {
        routers_.push_back(std::make_unique<VcRouter>(topo_.router_name(r).c_str(), r, *this, cfg_, topo_.ports()));
        routers_.back()->routing_ = routing_.get();
    }
    int longest = cfg_.ni_latency_cycles + cfg_.router.stages.total();
    for (int c = 0; c < static_cast<int>(topo_.channels().size()); ++c) {
        const NocChannel& ch = topo_.channel(c);
        const NocLinkConfig& link = cfg_.links.at(static_cast<std::size_t>(ch.link_class));
        routers_[ch.src]->connect_output(ch.src_port, routers_[ch.dst].get(), ch.dst_port, link, c);
        routers_[ch.dst]->connect_input(ch.dst_port, routers_[ch.src].get(), ch.src_port, link.latency_cycles);
        longest = std::max(longest, cfg_.router.stages.total() + link.latency_cycles + link.cycles_per_flit);
    }
    std::size_t size = 64;
    while (size < static_cast<std::size_t>(2 * longest + 2)) size *= 2;
    wheel_.resize(size);
    wheel_mask_ = static_cast<Cycle>(size - 1);
    SC_METHOD(run);
    sensitive << wake_;
    dont_initialize();
}

void VcNetwork::reserve_va_requests(int inputs) {
    const auto n = static_cast<std::size_t>(inputs);
    if (va_shortest_.size() < n) va_shortest_.resize(n, std::numeric_limits<int>::max());
    va_requests_.reserve(n);
}

Cycle VcNetwork::now() const {
    return static_cast<Cycle>(static_cast<double>(now_ticks()) / cfg_.period_ps() + 0.5);
}

// Wakes the network at cycle `at`, timed from the cycle's absolute time: with a period that
// is not a whole number of ps (1.96 GHz), delays summed from one wake-up to the next would
// drift, and after a few million wake-ups now() would round to a neighbouring cycle and skip
// the routers waiting in this one's calendar slot.
void VcNetwork::notify_at(Cycle at) {
    const auto target = static_cast<sc_dt::uint64>(std::llround(static_cast<double>(at) * cfg_.period_ps()));
    const sc_dt::uint64 t = now_ticks();
    wake_.notify(sc_core::sc_time::from_value(target > t ? target - t : 0));
}

void VcNetwork::schedule_checked(VcRouter* r, Cycle at) {
    const Cycle base = running_ ? current_ : now();
    if (at < base) throw std::logic_error("VcNetwork: wake-up in the past");
    if (at - base > wheel_mask_) throw std::logic_error("VcNetwork: wake-up beyond the calendar");
    r->wake_at = at;
    wheel_[static_cast<std::size_t>(at & wheel_mask_)].push_back(r);
    ++scheduled_;
    // Outside run() (traffic from other modules): make sure the network wakes up in time.
    if (!running_ && (armed_ < 0 || at < armed_)) {
        armed_ = at;
        notify_at(at);
    }
}

void VcNetwork::set_driver(TrafficDriver* d) {
    driver_ = d;
    Cycle first = d ? d->next_cycle() : -1;
    if (first < 0 || running_) return;
    const Cycle base = now();
    if (armed_ < 0 || first < armed_) {
        armed_ = std::max(first, base);
        notify_at(armed_);
    }
}

std::uint32_t VcNetwork::create_packet(int src, int dst, int flits, Cycle created, Packet* payload) {
    // Traffic from other modules may arrive after this cycle was stepped: it starts at the next.
    if (!running_ && created <= last_processed_) created = last_processed_ + 1;
    std::uint32_t id = pool_.get();
    FlitPacket& p = pool_[id];
    p.src = src;
    p.dst = dst;
    p.flits = flits;
    p.created = created;
    p.payload = payload;
    ++packets_waiting_;
    routers_[src]->enqueue(id);
    schedule(routers_[src].get(), created);
    return id;
}

void VcNetwork::eject(const Flit& f, Cycle when) {
    FlitPacket& p = pool_[f.packet];
    // Routers counted hops (and kept routing state) in the head: publish them.
    if (f.head) {
        p.hops = f.hops;
        p.route = f.route;
    }
    if (f.index != p.next_eject) ++order_violations_;
    ++p.next_eject;
    --flits_inside_;
    ++flits_ejected_;
    if (listener_) listener_->flit_ejected(p, f, when);
    if (!f.tail) return;
    ++packets_ejected_;
    --packets_waiting_;
    if (listener_) listener_->packet_ejected(p, when);
    pool_.put(f.packet);
}

Cycle VcNetwork::next_due() const {
    if (scheduled_ == 0) return kNoWake;
    for (Cycle c = current_ + 1; c <= current_ + wheel_mask_ + 1; ++c)
        if (!wheel_[static_cast<std::size_t>(c & wheel_mask_)].empty()) return c;
    return kNoWake;
}

void VcNetwork::run() {
    current_ = now();
    armed_ = -1;
    running_ = true;  // wake-ups asked for from here on are picked up below, no notify needed
    if (driver_) {
        Cycle d = driver_->next_cycle();
        if (d >= 0 && d <= current_) driver_->fire(current_);
    }
    auto& bucket = wheel_[static_cast<std::size_t>(current_ & wheel_mask_)];
    for (std::size_t i = 0; i < bucket.size(); ++i) {
        VcRouter* r = bucket[i];
        // Cache hints two routers ahead (masks) and one ahead (the records the masks name).
        if (i + 2 < bucket.size()) bucket[i + 2]->prefetch_masks();
        if (i + 1 < bucket.size()) bucket[i + 1]->prefetch_records();
        if (r->wake_at != current_) continue;  // stale: it was rescheduled
        r->wake_at = -1;
        r->step(current_);
    }
    scheduled_ -= static_cast<std::int64_t>(bucket.size());
    bucket.clear();
    running_ = false;
    last_processed_ = current_;

    // Watchdog: flits inside and none moved for a long time, or nothing left that could move them.
    Cycle next = next_due();
    Cycle d = driver_ ? driver_->next_cycle() : -1;
    if (d >= 0 && d <= current_) d = current_ + 1;
    const bool stuck_long = flits_inside_ > 0 && current_ - last_progress_ > cfg_.watchdog_cycles;
    const bool nothing_left = next == kNoWake && d < 0 && (flits_inside_ > 0 || packets_waiting_ > 0);
    if (stuck_long || nothing_left) {
        deadlocked_ = true;
        deadlock_cycle_ = current_;
        sc_core::sc_stop();
        return;
    }
    if (d >= 0 && d < next) next = d;
    if (next == kNoWake) return;
    armed_ = next;
    notify_at(next);
}

std::int64_t VcNetwork::flit_hops() const {
    std::int64_t n = 0;
    for (const auto& r : routers_)
        for (int p = 1; p < topo_.ports(); ++p) n += r->link_flits(p);
    return n;
}

std::vector<std::int64_t> VcNetwork::channel_flits() const {
    std::vector<std::int64_t> out(topo_.channels().size(), 0);
    for (std::size_t c = 0; c < out.size(); ++c) {
        const NocChannel& ch = topo_.channel(static_cast<int>(c));
        out[c] = routers_[ch.src]->link_flits(ch.src_port);
    }
    return out;
}

std::vector<std::string> VcNetwork::busy_routers() const {
    std::vector<std::string> out;
    for (const auto& r : routers_) {
        int n = r->buffered_flits();
        if (n > 0 || r->source_queue() > 0)
            out.push_back(std::string(r->name()) + " (" + std::to_string(n) + " flits buffered, " +
                          std::to_string(r->source_queue()) + " packets queued)");
    }
    return out;
}

void VcNetwork::book_energy(EnergyLedger& ledger) const {
    const double per_flit = cfg_.router.energy.per_flit();
    for (const auto& r : routers_) {
        if (r->stats().flits) ledger.account(r->name()).add(EnergyCategory::Noc, static_cast<double>(r->stats().flits) * per_flit);
    }
    for (std::size_t c = 0; c < topo_.channels().size(); ++c) {
        const NocChannel& ch = topo_.channel(static_cast<int>(c));
        std::int64_t flits = routers_[ch.src]->link_flits(ch.src_port);
        if (!flits) continue;
        const NocLinkConfig& l = cfg_.links[static_cast<std::size_t>(ch.link_class)];
        double pj = static_cast<double>(flits) * cfg_.router.flit_bits * l.energy_pj_per_bit;
        ledger.account(std::string(name()) + ".link." + topo_.channel_name(static_cast<int>(c)))
            .add(l.die_to_die ? EnergyCategory::D2d : EnergyCategory::Noc, pj);
    }
}

nlohmann::json VcNetwork::stats_json(Cycle elapsed) const {
    nlohmann::json routers = nlohmann::json::array(), links = nlohmann::json::array();
    const double per_flit = cfg_.router.energy.per_flit();
    for (const auto& r : routers_) {
        const VcRouterStats& s = r->stats();
        if (!s.flits) continue;
        routers.push_back({{"name", r->name()}, {"flits", s.flits}, {"packets", s.packets},
                           {"va_conflicts", s.va_conflicts}, {"sa_conflicts", s.sa_conflicts},
                           {"energy_pj", static_cast<double>(s.flits) * per_flit}});
    }
    for (std::size_t c = 0; c < topo_.channels().size(); ++c) {
        const NocChannel& ch = topo_.channel(static_cast<int>(c));
        std::int64_t flits = routers_[ch.src]->link_flits(ch.src_port);
        if (!flits) continue;
        const NocLinkConfig& l = cfg_.links[static_cast<std::size_t>(ch.link_class)];
        links.push_back({{"name", topo_.channel_name(static_cast<int>(c))}, {"class", l.name}, {"flits", flits},
                         {"utilization", elapsed ? static_cast<double>(flits * l.cycles_per_flit) / static_cast<double>(elapsed) : 0.0},
                         {"energy_pj", static_cast<double>(flits) * cfg_.router.flit_bits * l.energy_pj_per_bit}});
    }
    return {{"flits_injected", flits_injected_}, {"flits_ejected", flits_ejected_}, {"flit_hops", flit_hops()},
            {"routers", routers}, {"links", links}};
}

}  // namespace mcmsim
