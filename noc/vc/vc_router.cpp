#include "noc/vc/vc_router.h"

#include "noc/vc/vc_network.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace mcmsim {

namespace {
/// VCs [lo, hi) a VC class may use: dateline / escape classes split the VCs in halves.
std::pair<int, int> class_range(VcClass c, int vcs) {
    switch (c) {
        case VcClass::Lower:
            return {0, vcs / 2};
        case VcClass::Upper:
            return {vcs / 2, vcs};
        case VcClass::Any:
            break;
    }
    return {0, vcs};
}

/// Bits [lo, hi) set (hi <= 64).
std::uint64_t bit_range(int lo, int hi) {
    const std::uint64_t below_hi = hi >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << hi) - 1;
    return below_hi & (~std::uint64_t{0} << lo);
}
// Every VC's ring holds as many flits as the deepest input buffer: a D2D input's receive
// buffer is sized by its link (NocLinkConfig::buffer_flits).
int deepest_buffer(const VcNetworkConfig& cfg) {
    int depth = ni_buffer_flits(cfg);
    for (const NocLinkConfig& l : cfg.links) depth = std::max(depth, l.buffer_flits);
    return depth;
}

}  // namespace

VcRouter::VcRouter(sc_core::sc_module_name name, int id, VcNetwork& net, const VcNetworkConfig& cfg, int ports)
    : sc_core::sc_module(name), net_(net), ports_(ports), vcs_(cfg.router.vcs), depth_(deepest_buffer(cfg)),
      local_depth_(ni_buffer_flits(cfg)), id_(id),
      route_cycles_(static_cast<std::int16_t>(cfg.router.lookahead ? 0 : cfg.router.stages.route)),
      va_cycles_(static_cast<std::int16_t>(cfg.router.stages.vc_alloc)),
      traversal_cycles_(static_cast<std::int16_t>(cfg.router.stages.switch_alloc + cfg.router.stages.switch_traversal)),
      cfg_(cfg) {
    if (vcs_ > 64) throw std::invalid_argument(std::string(this->name()) + ": at most 64 VCs per port");
    if (ports > 64) throw std::invalid_argument(std::string(this->name()) + ": at most 64 ports");  // port bit masks
    const auto vcs = static_cast<std::size_t>(ports * vcs_);
    in_ = std::make_unique<InputPort[]>(static_cast<std::size_t>(ports));
    ivc_ = std::make_unique<InputVc[]>(vcs);
    out_ = std::make_unique<OutputPort[]>(static_cast<std::size_t>(ports));
    if (depth_ > std::numeric_limits<std::int16_t>::max())
        throw std::invalid_argument(std::string(this->name()) + ": at most 32767 flits per VC buffer");
    credits_ = std::make_unique<std::int16_t[]>(vcs);  // value-initialised: 0
    va_last_ = std::make_unique<std::int16_t[]>(vcs);
    std::fill_n(va_last_.get(), vcs, std::int16_t{-1});
    slots_ = std::make_unique<BufferedFlit[]>(vcs * static_cast<std::size_t>(depth_));
    bound_for_ = std::make_unique<std::uint64_t[]>(static_cast<std::size_t>(ports * ports));
    owner_ = std::make_unique<Owner[]>(vcs);
    va_waiters_ = std::make_unique<std::uint64_t[]>(static_cast<std::size_t>(ports));
    // Port 0 ejects into the local sink: always room, no VCs to allocate.
    out_[kLocalPort].eject = true;
    out_[kLocalPort].connected = true;
    out_[kLocalPort].serial_fp = to_fp(cfg.ni_cycles_per_flit);
    out_[kLocalPort].width = static_cast<std::int16_t>(std::max(1, cfg.ni_port_flits));
    connected_ = std::uint64_t{1} << kLocalPort;
}

void VcRouter::connect_output(int port, VcRouter* down, int down_port, const NocLinkConfig& link, int channel) {
    OutputPort& o = out_[port];
    o.connected = true;
    connected_ |= std::uint64_t{1} << port;
    o.down = down;
    o.down_port = down_port;
    o.channel = channel;
    o.latency = link.latency_cycles;
    o.serial_fp = to_fp(link.cycles_per_flit);
    o.width = static_cast<std::int16_t>(std::max(1, link.port_flits));
    const int downstream_depth = link.buffer_flits > 0 ? link.buffer_flits : cfg_.router.buffer_depth;
    for (int v = 0; v < vcs_; ++v) {
        credits(port, v) = static_cast<std::int16_t>(downstream_depth);
        va_last(port, v) = -1;
    }
    o.owned = 0;
    o.pending.clear();
}

void VcRouter::connect_input(int port, VcRouter* up, int up_port, int credit_delay) {
    if (credit_delay > std::numeric_limits<std::int16_t>::max())
        throw std::invalid_argument(std::string(name()) + ": credit delay above 32767 cycles");
    in_[port].up = up;
    in_[port].up_port = static_cast<std::int16_t>(up_port);
    in_[port].credit_delay = static_cast<std::int16_t>(credit_delay);
}

void VcRouter::mark_links_to_other_lanes() {
    for (int p = 0; p < ports_; ++p) {
        in_[p].up_elsewhere = in_[p].up && in_[p].up->lane_ != lane_;
        out_[p].down_elsewhere = out_[p].down && out_[p].down->lane_ != lane_;
    }
}

void VcRouter::push(int port, int v, const BufferedFlit& f) {
    InputVc& q = vc(port, v);
    if (q.size++ == 0) {  // the new flit is the front: it lives in the record, no slot
        in_[port].occupied |= std::uint64_t{1} << v;
        ports_occupied_ |= std::uint64_t{1} << port;
        q.front = f.flit;
        q.due = f.arrival;  // the previous flit left before it arrived (see InputVc::due)
        return;
    }
    int at = q.head + q.size - 2;  // behind the front and the size - 2 flits queued before
    if (at >= depth_) at -= depth_;
    slot(port, v, at) = f;
}

void VcRouter::receive(int port, int vc, const Flit& f, Cycle arrival) {
    push(port, vc, BufferedFlit{f, arrival});
    net_.schedule(this, arrival);
}

void VcRouter::credit(int port, int vc, Cycle at) {
    OutputPort& o = out_[port];
    o.pending.push_back(PendingCredit{at, vc});
    credits_pending_ |= std::uint64_t{1} << port;
    net_.schedule(this, at);
}

int VcRouter::buffered_flits() const {
    int n = 0;
    for (int i = 0; i < ports_ * vcs_; ++i) n += ivc_[i].size;
    return n;
}

int VcRouter::free_slots(int port) const {
    int n = 0;
    for (int v = 0; v < vcs_; ++v) n += credits_[static_cast<std::size_t>(port * vcs_ + v)];
    return n;
}

void VcRouter::step(Cycle now) {
    next_wake_ = kNoWake;
    ni_blocked_ = moved_ = false;
    if (credits_pending_) apply_credits(now);
    if (queued_) inject_from_source(now);
    compute_routes_and_request_vcs(now);
    if (!lane_->va_requests.empty()) allocate_vcs(now);
    allocate_switch(now);
    // A flit that left may have freed what the NI waits for: look again. (VCs waiting for an
    // output VC are woken by the tail that frees one, in traverse.)
    if (moved_) {
        lane_->last_progress = now;  // the watchdog's evidence (once per step, not per flit)
        if (ni_blocked_) wake_no_later_than(now + 1);
    }
    if (next_wake_ != kNoWake) net_.schedule(this, next_wake_);
}

void VcRouter::apply_credits(Cycle now) {
    for (std::uint64_t m = credits_pending_; m; m &= m - 1) {
        const int port = __builtin_ctzll(m);
        OutputPort& o = out_[port];
        while (!o.pending.empty() && o.pending.front().at <= now) {
            const int v = o.pending.front().vc;
            ++credits(port, v);
            // The VC that holds this output VC may have stopped for want of it.
            const Owner w = owner_[static_cast<std::size_t>(port * vcs_ + v)];
            if (w.port >= 0) in_[w.port].credit_wait &= ~(std::uint64_t{1} << w.vc);
            o.pending.pop_front();
        }
        if (!o.pending.empty()) wake_no_later_than(o.pending.front().at);
        else credits_pending_ &= ~(std::uint64_t{1} << port);
    }
}

// The network interface: flits into local input VCs at the NI's bandwidth, up to
// ni_port_flits per cycle. Each packet takes an empty VC, so that it never queues behind
// another packet's blocked tail, and the NI keeps pushing the oldest packet it has started
// whose VC has room; only when every started packet is blocked does it start the next one
// (its virtual output queues: a packet bound for a congested output does not stall the
// packets behind it).
bool VcRouter::inject_one(Cycle now) {
    const std::int64_t now_fp = now * kFpCycle;
    if (ni_sent_cycle_ != now) ni_sent_cycle_ = now, ni_sent_ = 0;
    if (ni_free_fp_ >= now_fp + kFpCycle || ni_sent_ >= out_[kLocalPort].width) {
        wake_no_later_than(std::max(now + 1, ni_free_fp_ / kFpCycle));
        return false;
    }
    std::size_t at = 0;
    while (at < ni_open_.size() && vc(kLocalPort, ni_open_[at].vc).size >= local_depth_) ++at;
    if (at == ni_open_.size()) {
        if (source_.empty()) {
            ni_blocked_ = true;
            return false;
        }
        const std::uint32_t next = source_.front();
        if (net_.packets()[next].created > now) {  // queued ahead of its start (its sender's NI is busy)
            // It starts at its creation, or when a started packet's VC takes a flit again,
            // whichever comes first.
            wake_no_later_than(net_.packets()[next].created);
            if (!ni_open_.empty()) ni_blocked_ = true;
            return false;
        }
        // Empty and idle: no flits and no output VC held (a VC waiting for VA holds a flit).
        const InputPort& local = in_[kLocalPort];
        std::uint64_t taken = 0;
        for (const NiInjection& e : ni_open_) taken |= std::uint64_t{1} << e.vc;
        const std::uint64_t empty = ~(local.occupied | local.active | taken) & bit_range(0, vcs_);
        const int v = round_robin_pick(empty, ni_last_, vcs_);
        if (v < 0) {  // a flit leaving this router frees one
            ni_blocked_ = true;
            return false;
        }
        ni_last_ = v;
        source_.pop_front();
        ni_open_.push_back(NiInjection{next, v});
    }
    const NiInjection e = ni_open_[at];
    ni_free_fp_ = std::max(ni_free_fp_, now_fp) + out_[kLocalPort].serial_fp;
    ++ni_sent_;
    FlitPacket& p = net_.packets()[e.packet];
    Flit f;
    f.packet = e.packet;
    f.index = static_cast<std::uint16_t>(p.injected);
    f.head = p.injected == 0;
    f.tail = p.injected + 1 == p.flits;
    if (f.head) {  // the head enters the network: it carries what RC needs of the packet
        f.dst = static_cast<std::uint16_t>(p.dst);
        f.hops = static_cast<std::uint16_t>(p.hops);
        f.route = p.route;
        f.vc_class = p.vc_class;
        f.has_path = p.path != nullptr;
    }
    ++p.injected;
    const Cycle arrival = now + cfg_.ni_latency_cycles - 1 + (ni_free_fp_ - now_fp + kFpCycle - 1) / kFpCycle;
    push(kLocalPort, e.vc, BufferedFlit{f, arrival});
    ++stats_.injected_flits;
    ++lane_->flits_injected;
    lane_->last_progress = now;
    wake_no_later_than(arrival);
    if (f.tail) {
        ni_open_.erase(ni_open_.begin() + static_cast<std::ptrdiff_t>(at));
        --queued_;
    }
    return true;
}

// inject_one asks for the wake-up that can let it go on (the NI's next free cycle, the next
// packet's creation), or flags ni_blocked_ when only a flit leaving this router can.
void VcRouter::inject_from_source(Cycle now) {
    while (queued_ && inject_one(now)) {}
}

RouteDecision VcRouter::follow_path(const FlitPacket& p, int hops) const {
    const std::vector<int>& path = *p.path;
    const std::size_t next = static_cast<std::size_t>(hops) + 1;
    if (next >= path.size()) return {kLocalPort, VcClass::Any};
    const NocTopology& t = net_.topology();
    for (int port = 1; port < ports_; ++port) {
        const int ch = t.out_channel(id_, port);
        if (ch >= 0 && t.channel(ch).dst == path[next]) return {port, VcClass::Any};
    }
    throw std::logic_error(std::string(name()) + ": source route leads to " + t.router_name(path[next]) + ", not a neighbour");
}

// RC for heads that reached the front of their VC, then VA requests for routed heads.
void VcRouter::compute_routes_and_request_vcs(Cycle now) {
    std::vector<VaRequest>& requests = lane_->va_requests;
    requests.clear();
    for (std::uint64_t pm = ports_occupied_; pm; pm &= pm - 1) {
        const int i = __builtin_ctzll(pm);
        InputPort& port = in_[i];
        for (std::uint64_t m = port.occupied & ~port.active & ~port.va_wait; m; m &= m - 1) {
            const int v = __builtin_ctzll(m);
            InputVc& q = vc(i, v);
            if (q.due > now) {
                wake_no_later_than(q.due);
                continue;
            }
            if (q.state == VcState::Idle) {
                Flit& h = q.front;
                if (!h.head) throw std::logic_error(std::string(name()) + ": body flit without a head");
                RouteDecision d;
                if (h.has_path) d = follow_path(net_.packets()[h.packet], h.hops);
                else if (route_table_) d.port = route_table_[h.dst];
                else d = routing_->route(id_, h.dst, h.route, this);
                if (d.vc_class == VcClass::Any) d.vc_class = static_cast<VcClass>(h.vc_class);
                if (!(connected_ >> d.port & 1))
                    throw std::logic_error(std::string(name()) + ": routed to unconnected port " + std::to_string(d.port));
                // The head will cross the link behind this port (counted here, where the
                // head is at hand anyway; follow_path reads hops before this).
                if (d.port != kLocalPort && ++h.hops == 0)
                    throw std::logic_error(std::string(name()) + ": a packet took more than 65535 hops");
                if (q.out_port >= 0) bound_for_[static_cast<std::size_t>(i * ports_ + q.out_port)] &= ~(std::uint64_t{1} << v);
                q.out_port = static_cast<std::int8_t>(d.port);
                bound_for_[static_cast<std::size_t>(i * ports_ + d.port)] |= std::uint64_t{1} << v;
                q.vc_class = d.vc_class;
                q.state = VcState::WaitingForVc;
                q.due += route_cycles_;  // due was max(arrival, previous tail + 1)
                ++stats_.packets;
                if (q.due > now) {
                    wake_no_later_than(q.due);
                    continue;
                }
            }
            if (q.out_port == kLocalPort) {  // the sink has no VCs: straight to SA
                q.out_vc = 0;
                q.state = VcState::Active;
                port.active |= std::uint64_t{1} << v;
                q.due = now + va_cycles_;  // the front has arrived
                wake_no_later_than(q.due);
                continue;
            }
            // Input stage of the separable allocator: each VC asks for one free output VC.
            int ovc = pick_output_vc(i, v, out_[q.out_port]);
            if (ovc < 0) {  // all taken: a tail leaving through that output frees one
                port.va_wait |= std::uint64_t{1} << v;
                va_waiters_[static_cast<std::size_t>(q.out_port)] |= std::uint64_t{1} << i;
                continue;
            }
            requests.push_back(VaRequest{q.out_port, ovc, i, v, 0});
        }
    }
}

// The first free output VC of the packet's class at or after the one it had last.
int VcRouter::pick_output_vc(int port, int v, const OutputPort& o) {
    const InputVc& q = vc(port, v);
    auto [lo, hi] = class_range(q.vc_class, vcs_);
    const std::uint64_t free = ~o.owned & bit_range(lo, hi);
    if (!free) return -1;
    int start = q.ovc_last + 1;
    if (start < lo || start >= hi) start = lo;
    const std::uint64_t upper = free & (~std::uint64_t{0} << start);
    return __builtin_ctzll(upper ? upper : free);
}

// Output stage of the separable VC allocator: each requested output VC grants one request,
// round-robin over input VCs: the one closest after its last winner. Only the pointers are
// per router (2 bytes each); the shortest distance of each output VC this round is kept in
// the lane's scratch array, shared by the lane's routers and so always in cache.
void VcRouter::allocate_vcs(Cycle now) {
    const int inputs = ports_ * vcs_;
    std::vector<VaRequest>& requests = lane_->va_requests;
    std::vector<int>& shortest = lane_->va_shortest;  // INT_MAX except during this call
    if (requests.size() == 1) {                       // the common case: a lone request wins
        grant_vc(requests.front(), now);
        return;
    }
    for (VaRequest& r : requests) {
        int d = r.port * vcs_ + r.vc - va_last(r.out_port, r.out_vc) - 1;
        if (d < 0) d += inputs;
        r.distance = d;
        int& s = shortest[static_cast<std::size_t>(r.out_port * vcs_ + r.out_vc)];
        if (d < s) s = d;
    }
    for (const VaRequest& r : requests) {
        if (r.distance != shortest[static_cast<std::size_t>(r.out_port * vcs_ + r.out_vc)]) {
            ++stats_.va_conflicts;
            wake_no_later_than(now + 1);
            continue;
        }
        grant_vc(r, now);
    }
    for (const VaRequest& r : requests)
        shortest[static_cast<std::size_t>(r.out_port * vcs_ + r.out_vc)] = std::numeric_limits<int>::max();
}

void VcRouter::grant_vc(const VaRequest& r, Cycle now) {
    va_last(r.out_port, r.out_vc) = static_cast<std::int16_t>(r.port * vcs_ + r.vc);
    out_[r.out_port].owned |= std::uint64_t{1} << r.out_vc;
    InputVc& q = vc(r.port, r.vc);
    q.out_vc = static_cast<std::int8_t>(r.out_vc);
    q.ovc_last = static_cast<std::int8_t>(r.out_vc);
    q.state = VcState::Active;
    in_[r.port].active |= std::uint64_t{1} << r.vc;
    in_[r.port].credit_wait &= ~(std::uint64_t{1} << r.vc);
    owner_[static_cast<std::size_t>(r.out_port * vcs_ + r.out_vc)] =
        Owner{static_cast<std::int8_t>(r.port), static_cast<std::int8_t>(r.vc)};
    q.due = now + va_cycles_;  // the front (a head) has arrived
    wake_no_later_than(q.due);
}

// Separable input-first switch allocation: each input port puts forward one VC whose front
// flit is ready, holds a VC downstream and has a credit for it; each output port grants one.
void VcRouter::allocate_switch(Cycle now) {
    std::uint64_t requested = 0, chosen = 0;  // output ports asked for, input ports that asked
    std::int8_t choice[64];                   // per input port in `chosen`: the VC it put forward
    // Outputs still sending an earlier flit: under load most VCs wait for one of these.
    std::uint64_t busy = 0;
    for (std::uint64_t om = connected_; om; om &= om - 1) {
        const int op = __builtin_ctzll(om);
        if (out_[op].free_at > now) busy |= std::uint64_t{1} << op;
    }
    for (std::uint64_t pm = ports_occupied_; pm; pm &= pm - 1) {
        const int i = __builtin_ctzll(pm);
        InputPort& port = in_[i];
        std::uint64_t ready = 0, asking = port.occupied & port.active & ~port.credit_wait;
        if (!asking) continue;
        // VCs bound for a busy output wait for it (the router looks again when it frees).
        for (std::uint64_t om = busy; om; om &= om - 1) {
            const int op = __builtin_ctzll(om);
            const std::uint64_t waiting = asking & bound_for_[static_cast<std::size_t>(i * ports_ + op)];
            if (!waiting) continue;
            wake_no_later_than(out_[op].free_at);
            asking &= ~waiting;
        }
        for (std::uint64_t m = asking; m; m &= m - 1) {
            const int v = __builtin_ctzll(m);
            const InputVc& q = vc(i, v);
            const OutputPort& o = out_[q.out_port];
            if (q.due > now) {
                wake_no_later_than(q.due);
                continue;
            }
            if (!o.eject && credits(q.out_port, q.out_vc) == 0) {  // the credit wakes us
                port.credit_wait |= std::uint64_t{1} << v;
                continue;
            }
            ready |= std::uint64_t{1} << v;
        }
        if (!ready) continue;
        if (ready & (ready - 1)) wake_no_later_than(now + 1);  // the others retry next cycle
        const int v = round_robin_pick(ready, port.sa_last, vcs_);
        choice[i] = static_cast<std::int8_t>(v);
        chosen |= std::uint64_t{1} << i;
        const InputVc& q = vc(i, v);
        const int op = q.out_port;
        OutputPort& o = out_[op];
        o.sa_arbiter.request(i, ports_);
        requested |= std::uint64_t{1} << op;
        // Cache hints for traverse() below, if this request wins: the lines the flit and its
        // credit will touch in the neighbours (their state is not in the L1 cache by now).
        // (Not for a neighbour in another lane: its thread may be using those lines.)
        if (!o.eject && !o.down_elsewhere) o.down->prefetch_receive(o.down_port, q.out_vc);
        if (port.up && !port.up_elsewhere) port.up->prefetch_credit(port.up_port);
    }
    // Outputs in port order: each one's winner goes (different outputs touch different
    // downstream routers, so the order is immaterial).
    for (; requested; requested &= requested - 1) {
        RoundRobinArbiter& arb = out_[__builtin_ctzll(requested)].sa_arbiter;
        const int i = arb.winner();
        arb.grant(i);
        arb.reset();
        in_[i].sa_last = static_cast<std::int16_t>(choice[i]);
        chosen &= ~(std::uint64_t{1} << i);
        // A port wider than a flit takes the packet's next flits in the same cycle, as far as
        // they have arrived, credits last and the link keeps up.
        const int op = vc(i, choice[i]).out_port;
        for (bool more = traverse(i, choice[i], now); more && can_follow(i, choice[i], now);) more = traverse(i, choice[i], now);
        // ... and when that packet ends, the next packets of this input bound for the same
        // output, in the same cycle.
        for (int v; (v = next_for_output(i, op, now)) >= 0;)
            for (bool more = traverse(i, v, now); more && can_follow(i, v, now);) more = traverse(i, v, now);
    }
    for (; chosen; chosen &= chosen - 1) {  // lost at the output
        ++stats_.sa_conflicts;
        wake_no_later_than(now + 1);
    }
}

void VcRouter::book_energy(const OutputPort& o) {
    energy_->add(EnergyCategory::Noc, pj_per_flit_);
    if (o.energy) o.energy->add(o.category, o.pj_per_flit);
}

// The port moves up to `width` flits a cycle, and its link starts each flit once the previous
// one has been serialised (fractional cycles kept in fixed point): the next flit may go in
// the cycle in which the link frees.
Cycle VcRouter::serialise(OutputPort& o, Cycle now) {
    const std::int64_t now_fp = now * kFpCycle;
    o.free_fp = std::max(o.free_fp, now_fp) + o.serial_fp;
    if (o.sent_cycle != now) o.sent_cycle = now, o.sent = 0;
    ++o.sent;
    Cycle next = o.free_fp / kFpCycle;
    if (next <= now) next = o.sent < o.width ? now : now + 1;
    o.free_at = next;
    return (o.free_fp - now_fp + kFpCycle - 1) / kFpCycle;
}

int VcRouter::next_for_output(int in_port, int op, Cycle now) const {
    const OutputPort& o = out_[op];
    if (o.width == 1 || o.free_at > now) return -1;
    for (std::uint64_t m = in_[in_port].occupied & in_[in_port].active; m; m &= m - 1) {
        const int v = __builtin_ctzll(m);
        const InputVc& q = vc(in_port, v);
        if (q.out_port == op && q.due <= now && (o.eject || credits_[static_cast<std::size_t>(op * vcs_ + q.out_vc)] > 0))
            return v;
    }
    return -1;
}

bool VcRouter::can_follow(int in_port, int v, Cycle now) const {
    const InputVc& q = vc(in_port, v);
    if (!q.size || q.state != VcState::Active || q.due > now + 1) return false;
    const OutputPort& o = out_[q.out_port];
    return o.free_at <= now && (o.eject || credits_[static_cast<std::size_t>(q.out_port * vcs_ + q.out_vc)] > 0);
}

bool VcRouter::traverse(int in_port, int v, Cycle now) {
    InputPort& port = in_[in_port];
    InputVc& q = vc(in_port, v);
    const Flit f = q.front;
    if (--q.size == 0) {
        port.occupied &= ~(std::uint64_t{1} << v);
        if (!port.occupied) ports_occupied_ &= ~(std::uint64_t{1} << in_port);
    }
    if (port.up) {
        if (!port.up_elsewhere) port.up->credit(port.up_port, v, now + port.credit_delay);
        else lane_->credits_out.push_back(PostedCredit{port.up, port.up_port, v, now + port.credit_delay});
    }
    ++stats_.flits;
    OutputPort& o = out_[q.out_port];
    if (energy_) book_energy(o);
    const Cycle departs = now + traversal_cycles_;
    // The whole flit is received after the link (or NI) latency, which includes one cycle of
    // serialisation, plus whatever more its serialisation takes.
    const Cycle serial = serialise(o, now);
    if (o.eject) {
        ++stats_.ejected_flits;
        const Cycle at = departs + cfg_.ni_latency_cycles + serial - 1;
        lane_->ejections.push_back(LoggedEjection{f, at, id_, static_cast<std::uint32_t>(lane_->ejections.size())});
    } else {
        --credits(q.out_port, q.out_vc);
        ++o.flits;
        const Cycle arrival = departs + o.latency + serial - 1;
        if (!o.down_elsewhere) o.down->receive(o.down_port, q.out_vc, f, arrival);
        else lane_->flits_out.push_back(PostedFlit{o.down, o.down_port, q.out_vc, f, arrival});
    }
    if (f.tail) {
        if (!o.eject) {
            o.owned &= ~(std::uint64_t{1} << q.out_vc);
            // Its output VC is free: the VCs waiting for one of this output ask again next
            // cycle (all VCs of their ports, which is simpler and as exact: the others find
            // theirs still taken).
            std::uint64_t& waiters = va_waiters_[static_cast<std::size_t>(q.out_port)];
            if (waiters) {
                for (std::uint64_t w = waiters; w; w &= w - 1) in_[__builtin_ctzll(w)].va_wait = 0;
                waiters = 0;
                wake_no_later_than(now + 1);
            }
        }
        q.state = VcState::Idle;
        port.active &= ~(std::uint64_t{1} << v);
    }
    bool follows = false;
    if (q.size) {  // the first queued flit moves into the record
        const BufferedFlit& next = slot(in_port, v, q.head);
        q.front = next.flit;
        // Idle: the next packet's head may start RC the cycle after this tail; Active: the
        // next flit may start SA next cycle, or follow in this one through a wide port.
        follows = next.arrival <= now;
        q.due = std::max(next.arrival, now + 1);
        if (q.size == 1) q.head = 0;  // queue emptied: restart at slot 0 (see slot())
        else if (++q.head == depth_) q.head = 0;
        wake_no_later_than(q.due);
    }
    moved_ = true;
    return follows;
}

}  // namespace mcmsim
