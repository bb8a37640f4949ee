#include "noc/vc_router.h"

#include "noc/packet.h"
#include "noc/vc_network.h"

#include <algorithm>
#include <stdexcept>

namespace mcmsim {

namespace {
EnergyAccount* payload_energy(Packet* p) { return p->layer_energy; }
constexpr Cycle kNoWake = std::numeric_limits<Cycle>::max();

/// VCs [lo, hi) a VC class may use: dateline / escape classes split the VCs in halves.
std::pair<int, int> class_range(VcClass c, int vcs) {
    switch (c) {
        case VcClass::Lower: return {0, vcs / 2};
        case VcClass::Upper: return {vcs / 2, vcs};
        case VcClass::Any: break;
    }
    return {0, vcs};
}
}  // namespace

VcRouter::VcRouter(sc_core::sc_module_name name, int id, VcNetwork& net, const NocConfig& cfg, int ports)
    : sc_core::sc_module(name), id_(id), net_(net), cfg_(cfg), ports_(ports), vcs_(cfg.router.vcs),
      route_cycles_(cfg.router.lookahead ? 0 : cfg.router.stages.route), va_cycles_(cfg.router.stages.vc_alloc),
      traversal_cycles_(cfg.router.stages.switch_alloc + cfg.router.stages.switch_traversal),
      in_(static_cast<std::size_t>(ports)), out_(static_cast<std::size_t>(ports)),
      sa_choice_(static_cast<std::size_t>(ports), -1) {
    const int depth = cfg.router.buffer_depth;
    slots_.resize(static_cast<std::size_t>(ports * vcs_ * depth));
    for (int i = 0; i < ports; ++i) {
        in_[i].vcs.resize(static_cast<std::size_t>(vcs_));
        for (int v = 0; v < vcs_; ++v) in_[i].vcs[v].buffer.bind(&slots_[static_cast<std::size_t>((i * vcs_ + v) * depth)], depth);
    }
    // Port 0 ejects into the local sink: always room, no VCs to allocate.
    out_[kLocalPort].eject = true;
    out_[kLocalPort].connected = true;
}

void VcRouter::connect_output(int port, VcRouter* down, int down_port, const NocLinkConfig& link, int channel) {
    OutputPort& o = out_[port];
    o.connected = true;
    o.down = down;
    o.down_port = down_port;
    o.channel = channel;
    o.latency = link.latency_cycles;
    o.cycles_per_flit = link.cycles_per_flit;
    o.credits.assign(static_cast<std::size_t>(vcs_), cfg_.router.buffer_depth);
    o.owned.assign(static_cast<std::size_t>(vcs_), 0);
    o.va_arbiters.assign(static_cast<std::size_t>(vcs_), RoundRobinArbiter{});
    o.pending.resize(static_cast<std::size_t>(vcs_ * cfg_.router.buffer_depth));
}

void VcRouter::connect_input(int port, VcRouter* up, int up_port, int credit_delay) {
    in_[port].up = up;
    in_[port].up_port = up_port;
    in_[port].credit_delay = credit_delay;
}

void VcRouter::receive(int port, int vc, const Flit& f, Cycle arrival) {
    InputPort& p = in_[port];
    p.vcs[vc].buffer.push(BufferedFlit{f, arrival});
    p.occupied |= std::uint64_t{1} << vc;
    net_.schedule(this, arrival);
}

void VcRouter::credit(int port, int vc, Cycle at) {
    OutputPort& o = out_[port];
    std::size_t slot = static_cast<std::size_t>(o.pending_head + o.pending_size) % o.pending.size();
    o.pending[slot] = PendingCredit{at, vc};
    ++o.pending_size;
    net_.schedule(this, at);
}

int VcRouter::buffered_flits() const {
    int n = 0;
    for (const InputPort& p : in_)
        for (const InputVc& q : p.vcs) n += q.buffer.size();
    return n;
}

int VcRouter::free_slots(int port) const {
    const OutputPort& o = out_[port];
    int n = 0;
    for (int c : o.credits) n += c;
    return n;
}

void VcRouter::step(Cycle now) {
    next_wake_ = kNoWake;
    va_blocked_ = ni_blocked_ = moved_ = false;
    apply_credits(now);
    inject_from_source(now);
    compute_routes_and_request_vcs(now);
    if (!va_requests_.empty()) allocate_vcs(now);
    allocate_switch(now);
    // A flit that left may have freed what a blocked VC or the NI waits for: look again.
    if (moved_ && (va_blocked_ || ni_blocked_)) wake_no_later_than(now + 1);
    if (next_wake_ != kNoWake) net_.schedule(this, next_wake_);
}

void VcRouter::apply_credits(Cycle now) {
    for (OutputPort& o : out_) {
        while (o.pending_size && o.pending[static_cast<std::size_t>(o.pending_head)].at <= now) {
            ++o.credits[o.pending[static_cast<std::size_t>(o.pending_head)].vc];
            if (++o.pending_head == static_cast<int>(o.pending.size())) o.pending_head = 0;
            --o.pending_size;
        }
        if (o.pending_size) wake_no_later_than(o.pending[static_cast<std::size_t>(o.pending_head)].at);
    }
}

// The network interface: one flit per cycle into a local input VC. A packet takes an empty
// VC so that it never queues behind another packet's blocked tail.
void VcRouter::inject_from_source(Cycle now) {
    if (source_.empty()) return;
    InputPort& local = in_[kLocalPort];
    if (ni_vc_ < 0) {
        std::uint64_t empty = 0;
        for (int v = 0; v < vcs_; ++v)
            if (local.vcs[v].buffer.empty() && local.vcs[v].state == VcState::Idle) empty |= std::uint64_t{1} << v;
        ni_vc_ = round_robin_pick(empty, ni_last_, vcs_);
        if (ni_vc_ < 0) {  // a flit leaving this router frees one
            ni_blocked_ = true;
            return;
        }
        ni_last_ = ni_vc_;
    }
    InputVc& q = local.vcs[ni_vc_];
    if (q.buffer.size() >= q.buffer.capacity()) {
        ni_blocked_ = true;
        return;
    }
    std::uint32_t id = source_.front();
    FlitPacket& p = net_.packets()[id];
    Flit f;
    f.packet = id;
    f.index = static_cast<std::uint16_t>(p.injected);
    f.head = p.injected == 0;
    f.tail = p.injected + 1 == p.flits;
    ++p.injected;
    const Cycle arrival = now + cfg_.ni_latency_cycles;
    q.buffer.push(BufferedFlit{f, arrival});
    local.occupied |= std::uint64_t{1} << ni_vc_;
    ++stats_.injected_flits;
    net_.flit_injected(now);
    wake_no_later_than(arrival);
    if (f.tail) {
        source_.pop_front();
        ni_vc_ = -1;
    }
    if (!source_.empty()) wake_no_later_than(now + 1);
}

// RC for heads that reached the front of their VC, then VA requests for routed heads.
void VcRouter::compute_routes_and_request_vcs(Cycle now) {
    va_requests_.clear();
    for (int i = 0; i < ports_; ++i) {
        InputPort& port = in_[i];
        for (std::uint64_t m = port.occupied & ~port.active; m; m &= m - 1) {
            const int v = __builtin_ctzll(m);
            InputVc& q = port.vcs[v];
            const BufferedFlit& front = q.buffer.front();
            const Cycle t0 = std::max(front.arrival, q.front_since);
            if (t0 > now) {
                wake_no_later_than(t0);
                continue;
            }
            if (q.state == VcState::Idle) {
                if (!front.flit.head) throw std::logic_error(std::string(name()) + ": body flit without a head");
                FlitPacket& p = net_.packets()[front.flit.packet];
                RouteDecision d = routing_->route(id_, p.dst, p.route, this);
                if (!out_[d.port].connected)
                    throw std::logic_error(std::string(name()) + ": routed to unconnected port " + std::to_string(d.port));
                q.out_port = d.port;
                q.vc_class = d.vc_class;
                q.state = VcState::WaitingForVc;
                q.ready_at = t0 + route_cycles_;
                ++stats_.packets;
            }
            if (q.ready_at > now) {
                wake_no_later_than(q.ready_at);
                continue;
            }
            OutputPort& o = out_[q.out_port];
            if (o.eject) {  // the sink has no VCs: straight to SA
                q.out_vc = 0;
                q.state = VcState::Active;
                port.active |= std::uint64_t{1} << v;
                q.ready_at = now + va_cycles_;
                wake_no_later_than(q.ready_at);
                continue;
            }
            // Input stage of the separable allocator: each VC asks for one free output VC.
            int ovc = pick_output_vc(q, o);
            if (ovc < 0) {  // all taken: a tail leaving this router frees one
                va_blocked_ = true;
                continue;
            }
            va_requests_.push_back(VaRequest{q.out_port, ovc, i * vcs_ + v});
        }
    }
}

int VcRouter::pick_output_vc(InputVc& q, const OutputPort& o) const {
    auto [lo, hi] = class_range(q.vc_class, vcs_);
    const int n = hi - lo;
    int start = q.va_last + 1 - lo;
    if (start < 0 || start >= n) start = 0;
    for (int k = 0; k < n; ++k) {
        int v = lo + (start + k) % n;
        if (!o.owned[v]) return v;
    }
    return -1;
}

// Output stage of the separable VC allocator: each requested output VC grants one request.
void VcRouter::allocate_vcs(Cycle now) {
    const int inputs = ports_ * vcs_;
    for (const VaRequest& r : va_requests_) out_[r.out_port].va_arbiters[r.out_vc].request(r.input, inputs);
    for (const VaRequest& r : va_requests_) {
        RoundRobinArbiter& arb = out_[r.out_port].va_arbiters[r.out_vc];
        if (arb.winner() != r.input) {
            ++stats_.va_conflicts;
            wake_no_later_than(now + 1);
            continue;
        }
        arb.grant(r.input);
        OutputPort& o = out_[r.out_port];
        o.owned[r.out_vc] = 1;
        InputVc& q = in_[r.input / vcs_].vcs[r.input % vcs_];
        q.out_vc = r.out_vc;
        q.va_last = r.out_vc;
        q.state = VcState::Active;
        in_[r.input / vcs_].active |= std::uint64_t{1} << (r.input % vcs_);
        q.ready_at = now + va_cycles_;
        wake_no_later_than(q.ready_at);
    }
    for (const VaRequest& r : va_requests_) out_[r.out_port].va_arbiters[r.out_vc].reset();
}

// Separable input-first switch allocation: each input port puts forward one VC whose front
// flit is ready, holds a VC downstream and has a credit for it; each output port grants one.
void VcRouter::allocate_switch(Cycle now) {
    sa_requested_.clear();
    for (int i = 0; i < ports_; ++i) {
        InputPort& port = in_[i];
        std::uint64_t ready = 0;
        for (std::uint64_t m = port.occupied & port.active; m; m &= m - 1) {
            const int v = __builtin_ctzll(m);
            InputVc& q = port.vcs[v];
            const Cycle t = std::max(q.buffer.front().arrival, q.ready_at);
            if (t > now) {
                wake_no_later_than(t);
                continue;
            }
            const OutputPort& o = out_[q.out_port];
            if (o.free_at > now) {
                wake_no_later_than(o.free_at);
                continue;
            }
            if (!o.eject && o.credits[q.out_vc] == 0) continue;  // the credit wakes us
            ready |= std::uint64_t{1} << v;
        }
        sa_choice_[i] = -1;
        if (!ready) continue;
        if (ready & (ready - 1)) wake_no_later_than(now + 1);  // the others retry next cycle
        const int v = round_robin_pick(ready, port.sa_last, vcs_);
        sa_choice_[i] = v;
        OutputPort& o = out_[port.vcs[v].out_port];
        o.sa_arbiter.request(i, ports_);
        if (o.sa_arbiter.winner() == i && std::find(sa_requested_.begin(), sa_requested_.end(), port.vcs[v].out_port) == sa_requested_.end())
            sa_requested_.push_back(port.vcs[v].out_port);
    }
    for (int op : sa_requested_) {
        RoundRobinArbiter& arb = out_[op].sa_arbiter;
        const int i = arb.winner();
        arb.grant(i);
        arb.reset();
        in_[i].sa_last = sa_choice_[i];
        traverse(i, sa_choice_[i], now);
        sa_choice_[i] = -1;
    }
    for (int i = 0; i < ports_; ++i)
        if (sa_choice_[i] >= 0) {  // lost at the output
            ++stats_.sa_conflicts;
            out_[in_[i].vcs[sa_choice_[i]].out_port].sa_arbiter.reset();
            wake_no_later_than(now + 1);
        }
}

void VcRouter::book_energy(const Flit& f, const OutputPort& o) {
    energy_->add(EnergyCategory::Noc, pj_per_flit_);
    EnergyAccount* layer = nullptr;
    if (Packet* payload = net_.packets()[f.packet].payload) layer = payload_energy(payload);
    if (layer) layer->add(EnergyCategory::Noc, pj_per_flit_);
    if (o.energy) {
        o.energy->add(o.category, o.pj_per_flit);
        if (layer) layer->add(o.category, o.pj_per_flit);
    }
}

void VcRouter::traverse(int in_port, int vc, Cycle now) {
    InputPort& port = in_[in_port];
    InputVc& q = port.vcs[vc];
    const Flit f = q.buffer.front().flit;
    q.buffer.pop();
    if (q.buffer.empty()) port.occupied &= ~(std::uint64_t{1} << vc);
    if (port.up) port.up->credit(port.up_port, vc, now + port.credit_delay);
    ++stats_.flits;
    OutputPort& o = out_[q.out_port];
    if (energy_) book_energy(f, o);
    const Cycle departs = now + traversal_cycles_;
    if (o.eject) {
        ++stats_.ejected_flits;
        net_.eject(f, departs + cfg_.ni_latency_cycles);
    } else {
        --o.credits[q.out_vc];
        o.free_at = now + o.cycles_per_flit;
        ++o.flits;
        if (f.head) ++net_.packets()[f.packet].hops;
        // The head of a flit is received after the link latency; a serialising link needs
        // cycles_per_flit cycles for the whole flit (latency already includes one).
        o.down->receive(o.down_port, q.out_vc, f, departs + o.latency + o.cycles_per_flit - 1);
    }
    net_.flit_moved(now);
    if (f.tail) {
        if (!o.eject) o.owned[q.out_vc] = 0;
        q.state = VcState::Idle;
        port.active &= ~(std::uint64_t{1} << vc);
        q.front_since = now + 1;
        if (!q.buffer.empty()) wake_no_later_than(std::max(now + 1, q.buffer.front().arrival));
    } else {
        q.ready_at = now + 1;
        if (!q.buffer.empty()) wake_no_later_than(std::max(now + 1, q.buffer.front().arrival));
    }
    moved_ = true;
}

}  // namespace mcmsim
