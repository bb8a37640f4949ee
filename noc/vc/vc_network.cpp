#include "noc/vc/vc_network.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mcmsim {

VcNetwork::VcNetwork(sc_core::sc_module_name name, const NocConfig& cfg)
    : VcNetwork(name, cfg, build_topology(cfg), [&cfg](const NocTopology& t) { return make_routing(cfg, t); }) {}

VcNetwork::VcNetwork(sc_core::sc_module_name name, VcNetworkConfig cfg, NocTopology topology, const RoutingMaker& routing)
    : sc_core::sc_module(name), cfg_(std::move(cfg)), topo_(std::move(topology)), routing_(routing(topo_)) {
    if (topo_.routers() > 65536) throw std::invalid_argument("VcNetwork: at most 65536 routers (flits carry 16-bit ids)");
    // A flit entering an empty VC must arrive after the VC's previous flit left (VcRouter::InputVc::due).
    bool slow_enough = cfg_.ni_latency_cycles >= 1;
    for (const NocLinkConfig& l : cfg_.links) slow_enough = slow_enough && l.latency_cycles >= 1;
    if (!slow_enough) throw std::invalid_argument("VcNetwork: links and the NI take at least one cycle");
    for (int r = 0; r < topo_.routers(); ++r) {
        routers_.push_back(std::make_unique<VcRouter>(topo_.router_name(r).c_str(), r, *this, cfg_, topo_.ports()));
        routers_.back()->routing_ = routing_.get();
    }
    build_route_tables();
    int longest = cfg_.ni_latency_cycles + cfg_.router.stages.total();
    for (int c = 0; c < static_cast<int>(topo_.channels().size()); ++c) {
        const NocChannel& ch = topo_.channel(c);
        if (ch.link_class < 0 || ch.link_class >= static_cast<int>(cfg_.links.size()))
            throw std::invalid_argument("VcNetwork: channel " + topo_.channel_name(c) + " names no link class");
        const NocLinkConfig& link = cfg_.links[static_cast<std::size_t>(ch.link_class)];
        routers_[ch.src]->connect_output(ch.src_port, routers_[ch.dst].get(), ch.dst_port, link, c);
        routers_[ch.dst]->connect_input(ch.dst_port, routers_[ch.src].get(), ch.src_port, link.latency_cycles);
        longest = std::max(longest,
                           cfg_.router.stages.total() + link.latency_cycles + static_cast<int>(std::ceil(link.cycles_per_flit)));
    }
    std::size_t size = 64;
    while (size < static_cast<std::size_t>(2 * longest + 2)) size *= 2;
    wheel_mask_ = static_cast<Cycle>(size - 1);
    // A slow link moves one flit every so many cycles: the watchdog waits at least a few of
    // the longest single steps (a flit's serialisation, flight and pipeline) before it calls
    // the network stuck.
    watchdog_cycles_ = std::max<Cycle>(cfg_.watchdog_cycles, 4 * static_cast<Cycle>(longest));
    lanes_.push_back(make_lane());
    for (auto& r : routers_) r->lane_ = lanes_[0].get();
    SC_METHOD(run);
    sensitive << wake_;
    dont_initialize();
}

std::unique_ptr<RouterLane> VcNetwork::make_lane() const {
    auto lane = std::make_unique<RouterLane>();
    lane->wheel.resize(static_cast<std::size_t>(wheel_mask_ + 1));
    const auto inputs = static_cast<std::size_t>(topo_.ports() * cfg_.router.vcs);
    lane->va_shortest.assign(inputs, std::numeric_limits<int>::max());
    lane->va_requests.reserve(inputs);
    return lane;
}

void VcNetwork::set_threads(int threads) {
    if (threads < 1) throw std::invalid_argument("VcNetwork: at least one thread");
    threads = std::min(threads, topo_.routers());
    if (threads == static_cast<int>(lanes_.size())) return;
    if (pool_.in_use() || lanes_[0]->scheduled) throw std::logic_error("VcNetwork: set_threads before any traffic");
    workers_.clear();
    lanes_.clear();
    for (int k = 0; k < threads; ++k) {
        lanes_.push_back(make_lane());
        lanes_.back()->posts = threads > 1;
    }
    // Blocks of consecutive ids: on a mesh, bands of whole rows, so that only the links
    // between two bands carry posts.
    const int block = (topo_.routers() + threads - 1) / threads;
    for (int r = 0; r < topo_.routers(); ++r)
        routers_[static_cast<std::size_t>(r)]->lane_ = lanes_[static_cast<std::size_t>(r / block)].get();
    for (auto& r : routers_) r->mark_links_to_other_lanes();
    for (int k = 1; k < threads; ++k)
        workers_.push_back(std::make_unique<LaneWorker>([this, k] { step_lane(*lanes_[static_cast<std::size_t>(k)]); }));
}

// Routing that depends on position only is asked once per (router, destination), up to a
// table of 1 MB (1024 routers); larger networks keep asking the function at every hop.
void VcNetwork::build_route_tables() {
    const auto n = static_cast<std::size_t>(topo_.routers());
    if (!routing_->position_only() || n > 1024 || topo_.ports() > 255) return;
    route_tables_.assign(n * n, 0);
    for (std::size_t at = 0; at < n; ++at) {
        for (std::size_t dst = 0; dst < n; ++dst) {
            RouteState unused;
            const RouteDecision d = routing_->route(static_cast<int>(at), static_cast<int>(dst), unused, nullptr);
            route_tables_[at * n + dst] = static_cast<std::uint8_t>(d.port);
        }
        routers_[at]->route_table_ = &route_tables_[at * n];
    }
}

std::int64_t VcNetwork::flits_injected() const {
    std::int64_t n = 0;
    for (const auto& lane : lanes_) n += lane->flits_injected;
    return n;
}

Cycle VcNetwork::last_progress() const {
    Cycle c = 0;
    for (const auto& lane : lanes_) c = std::max(c, lane->last_progress);
    return c;
}

Cycle VcNetwork::now() const { return static_cast<Cycle>(static_cast<double>(now_ticks()) / cfg_.period_ps() + 0.5); }

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
    r->lane_->wheel[static_cast<std::size_t>(at & wheel_mask_)].push_back(r);
    ++r->lane_->scheduled;
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
    ++flits_ejected_;
    if (listener_) listener_->flit_ejected(p, f, when);
    if (!f.tail) return;
    ++packets_ejected_;
    --packets_waiting_;
    if (listener_) listener_->packet_ejected(p, when);
    pool_.put(f.packet);
}

Cycle VcNetwork::next_due() const {
    Cycle next = kNoWake;
    for (const auto& lane : lanes_) {
        if (lane->scheduled == 0) continue;
        for (Cycle c = current_ + 1; c <= current_ + wheel_mask_ + 1 && c < next; ++c)
            if (!lane->wheel[static_cast<std::size_t>(c & wheel_mask_)].empty()) next = c;
    }
    return next;
}

void VcNetwork::step_lane(RouterLane& lane) {
    auto& bucket = lane.wheel[static_cast<std::size_t>(current_ & wheel_mask_)];
    for (std::size_t i = 0; i < bucket.size(); ++i) {
        VcRouter* r = bucket[i];
        // Cache hints two routers ahead (masks) and one ahead (the records the masks name).
        if (i + 2 < bucket.size()) bucket[i + 2]->prefetch_masks();
        if (i + 1 < bucket.size()) bucket[i + 1]->prefetch_records();
        if (r->wake_at != current_) continue;  // stale: it was rescheduled
        r->wake_at = -1;
        r->step(current_);
    }
    lane.scheduled -= static_cast<std::int64_t>(bucket.size());
    bucket.clear();
}

void VcNetwork::step_lanes_in_parallel() {
    // A handoff costs about as much as stepping a few routers: with little to do in the
    // other lanes, this thread steps them itself (the result is the same either way).
    constexpr std::size_t kRoutersWorthAHandoff = 4;
    std::size_t due = 0, elsewhere = 0;
    for (std::size_t k = 0; k < lanes_.size(); ++k) {
        const std::size_t n = lanes_[k]->wheel[static_cast<std::size_t>(current_ & wheel_mask_)].size();
        due += n;
        if (k) elsewhere += n;
    }
    if (elsewhere < kRoutersWorthAHandoff) {
        measured_.cycle = -1;
        for (auto& lane : lanes_) step_lane(*lane);
    } else {
        const auto start = std::chrono::steady_clock::now();
        if (measured_.cycle >= 0)
            threading_.record(std::chrono::duration<double>(start - measured_.start).count(), measured_.router_steps);
        measured_ = MeasuredCycle{current_, start, due};
        if (threading_.use_workers()) {
            for (auto& w : workers_) w->start();
            step_lane(*lanes_[0]);
            for (auto& w : workers_) w->wait();
        } else {
            for (auto& lane : lanes_) step_lane(*lane);
        }
    }
    deliver_posts();
}

// Between two cycles, with every lane at rest: what crossed from one lane into another, in
// lane order, then the ejections.
void VcNetwork::deliver_posts() {
    for (auto& lane : lanes_) {
        for (const PostedFlit& p : lane->flits_out) p.to->receive(p.port, p.vc, p.flit, p.arrival);
        for (const PostedCredit& c : lane->credits_out) c.to->credit(c.port, c.vc, c.at);
        lane->flits_out.clear();
        lane->credits_out.clear();
    }
    deliver_ejections();
}

// In router order, each router's flits in the order it sent them: lanes hold blocks of
// consecutive routers, so sorting each lane's log and taking the lanes in order replays the
// same sequence whatever the number of lanes and whatever order a lane's calendar stepped
// its routers in.
void VcNetwork::deliver_ejections() {
    for (auto& lane : lanes_) {
        std::vector<LoggedEjection>& log = lane->ejections;
        if (log.size() > 1)
            std::sort(log.begin(), log.end(), [](const LoggedEjection& a, const LoggedEjection& b) {
                return a.router != b.router ? a.router < b.router : a.seq < b.seq;
            });
        for (const LoggedEjection& e : log) eject(e.flit, e.when);
        log.clear();
    }
}

void VcNetwork::run() {
    // A cycle is stepped once the instant it falls in is quiet: a packet other modules create
    // at this instant is then always in this cycle, never in the next because the kernel
    // happened to run this method before theirs (nor only in exhaustive stepping).
    if (sc_core::sc_pending_activity_at_current_time()) {
        wake_.notify(sc_core::SC_ZERO_TIME);
        return;
    }
    current_ = now();
    armed_ = -1;
    running_ = true;  // wake-ups asked for from here on are picked up below, no notify needed
    if (driver_) {
        Cycle d = driver_->next_cycle();
        if (d >= 0 && d <= current_) driver_->fire(current_);
    }
    if (lanes_.size() == 1) {
        step_lane(*lanes_[0]);
        deliver_ejections();
    } else {
        step_lanes_in_parallel();
    }
    if (exhaustive_ && (flits_inside() > 0 || packets_waiting_ > 0))
        for (auto& r : routers_) schedule(r.get(), current_ + 1);
    running_ = false;
    last_processed_ = current_;

    // Watchdog: flits inside and none moved for a long time, or nothing left that could move them.
    Cycle next = next_due();
    Cycle d = driver_ ? driver_->next_cycle() : -1;
    if (d >= 0 && d <= current_) d = current_ + 1;
    const std::int64_t inside = flits_inside();
    const bool stuck_long = inside > 0 && current_ - last_progress() > watchdog_cycles_;
    const bool nothing_left = next == kNoWake && d < 0 && (inside > 0 || packets_waiting_ > 0);
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
        if (r->stats().flits)
            ledger.account(r->name()).add(EnergyCategory::Noc, static_cast<double>(r->stats().flits) * per_flit);
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
        routers.push_back({{"name", r->name()},
                           {"flits", s.flits},
                           {"packets", s.packets},
                           {"va_conflicts", s.va_conflicts},
                           {"sa_conflicts", s.sa_conflicts},
                           {"energy_pj", static_cast<double>(s.flits) * per_flit}});
    }
    for (std::size_t c = 0; c < topo_.channels().size(); ++c) {
        const NocChannel& ch = topo_.channel(static_cast<int>(c));
        std::int64_t flits = routers_[ch.src]->link_flits(ch.src_port);
        if (!flits) continue;
        const NocLinkConfig& l = cfg_.links[static_cast<std::size_t>(ch.link_class)];
        links.push_back(
            {{"name", topo_.channel_name(static_cast<int>(c))},
             {"class", l.name},
             {"flits", flits},
             {"utilization", elapsed ? static_cast<double>(flits * l.cycles_per_flit) / static_cast<double>(elapsed) : 0.0},
             {"energy_pj", static_cast<double>(flits) * cfg_.router.flit_bits * l.energy_pj_per_bit}});
    }
    nlohmann::json classes = nlohmann::json::array();
    for (const NocLinkConfig& l : cfg_.links)
        classes.push_back({{"class", l.name},
                           {"cycles_per_flit", l.cycles_per_flit},
                           {"latency_cycles", l.latency_cycles},
                           {"port_flits", l.port_flits},
                           {"buffer_flits", l.buffer_flits > 0 ? l.buffer_flits : cfg_.router.buffer_depth},
                           {"credit_round_trip_cycles", credit_round_trip_cycles(l, cfg_.router)}});
    return {{"flits_injected", flits_injected()},
            {"flits_ejected", flits_ejected_},
            {"flit_hops", flit_hops()},
            {"link_classes", classes},
            {"routers", routers},
            {"links", links}};
}

}  // namespace mcmsim
