#include "noc/packet/router.h"

#include "hw/common/packet_format.h"

#include <algorithm>
#include <stdexcept>

namespace mcmsim {

namespace {
constexpr int kAnyClass = 2;
}

Router::Router(sc_core::sc_module_name name, int id, const MeshTopology& topo, Tick pipeline, std::int64_t flit_bytes,
               double energy_pj_per_flit, EnergyAccount* energy, const RouterBuffers& buffers)
    : sc_core::sc_module(name), id_(id), topo_(topo), pipeline_(pipeline), flit_bytes_(flit_bytes),
      energy_pj_per_flit_(energy_pj_per_flit), energy_(energy), buffers_(buffers), queue_(wake_event_) {
    buffers_.vcs = std::max(1, buffers_.vcs);
    buffers_.classes = buffers_.classes && buffers_.vcs >= 2;
    credits_.resize(static_cast<std::size_t>(kMeshPorts * buffers_.vcs));
    for (int out = 0; out < kMeshPorts; ++out) std::fill_n(credits_.begin() + out * buffers_.vcs, buffers_.vcs, link_flits(out));
    in_.resize(static_cast<std::size_t>(kMeshPorts * buffers_.vcs));
    in_free_.assign(kMeshPorts, 0);
    last_vc_.fill(-1);
    SC_METHOD(wake);
    sensitive << wake_event_;
    dont_initialize();
}

void Router::connect(Port p, Link* link, Router* next) {
    const int o = static_cast<int>(p);
    const int in = static_cast<int>(topo_.in_port(MeshTopology::link_id(id_, p)));
    out_[o] = link;
    next_[o] = next;
    next_input_[o] = in;
    next->up_[in] = this;
    next->up_port_[in] = o;
    next->up_latency_[in] = ns_to_ticks(link->params().latency_ns);
}

void Router::attach(int node, Link* eject, NetworkEndpoint* endpoint) {
    for (Local& l : locals_)
        if (l.node == node) {
            l.eject = eject;
            l.endpoint = endpoint;
            return;
        }
    Local l{node, eject, endpoint, {}, std::vector<int>(static_cast<std::size_t>(buffers_.vcs), buffers_.local_flits)};
    locals_.push_back(std::move(l));
    in_.resize(static_cast<std::size_t>((kMeshPorts + static_cast<int>(locals_.size())) * buffers_.vcs));
    in_free_.resize(static_cast<std::size_t>(kMeshPorts) + locals_.size(), 0);
}

int Router::local_of_node(int node) const {
    for (std::size_t j = 0; j < locals_.size(); ++j)
        if (locals_[j].node == node) return static_cast<int>(j);
    throw std::logic_error("router " + topo_.router_name(id_) + ": no endpoint for node " + std::to_string(node));
}

void Router::inject(Packet* p, int node, Tick head_arrival) {
    ++resident_;
    queue_.push(head_arrival, Event{EventKind::Admit, static_cast<std::int16_t>(local_of_node(node)), 0, 0, p});
}

std::pair<int, int> Router::class_vcs(int cls) const {
    if (!buffers_.classes || cls == kAnyClass) return {0, buffers_.vcs};
    return cls == 0 ? std::pair<int, int>{0, buffers_.vcs / 2} : std::pair<int, int>{buffers_.vcs / 2, buffers_.vcs};
}

int Router::next_class(const Packet* p, int out) const {
    if (!buffers_.classes || !topo_.torus()) return p->vc_class;
    int dim = p->ring, cls = p->vc_class == kAnyClass ? 0 : p->vc_class;
    return topo_.dateline_step(MeshTopology::link_id(id_, static_cast<Port>(out)), dim, cls);
}

int Router::wait_class(const Packet* p) const {
    // Without classes every VC serves every packet: one waiting list per output.
    return buffers_.classes ? next_class(p, static_cast<int>(out_port(p))) : kAnyClass;
}

int Router::occupy_flits(const Packet* p, int capacity) const {
    // A packet longer than a VC's buffer streams through it (wormhole): it needs it empty.
    const auto flits = static_cast<int>(std::max<std::int64_t>(1, flits_of(p->wire_bytes, flit_bytes_)));
    return std::min(flits, capacity);
}

bool Router::ejects_here(const Packet* p) const {
    // A source route ends at its last router; else the packet leaves at its destination.
    return p->route ? static_cast<std::size_t>(p->hops) + 1 >= p->route->size() : p->dst_router == id_;
}

Port Router::out_port(const Packet* p) const {
    return p->route ? topo_.port_to(id_, (*p->route)[static_cast<std::size_t>(p->hops) + 1])
                    : topo_.next_port(id_, p->dst_router);
}

void Router::wake() {
    queue_.woke();
    const Tick now = now_ticks();
    Event e{};
    while (queue_.pop_due(now, e)) {
        switch (e.kind) {
            case EventKind::Arrive:
                if (buffers_.ideal) forward_ideal(e.packet, now);
                else arrive(e.packet, e.input, e.vc, now, now);
                break;
            case EventKind::Front:
                try_front(e.input, e.vc, now);
                break;
            case EventKind::Credit:
                credits_[static_cast<std::size_t>(e.input * buffers_.vcs + e.vc)] += e.flits;
                serve_waiting(e.input, buffers_.classes ? (e.vc < buffers_.vcs / 2 ? 0 : 1) : kAnyClass, now);
                break;
            case EventKind::LocalCredit:
                locals_[static_cast<std::size_t>(e.input)].credits[static_cast<std::size_t>(e.vc)] += e.flits;
                admit(e.input, now);
                break;
            case EventKind::Admit:
                if (buffers_.ideal) {
                    forward_ideal(e.packet, now);
                    break;
                }
                locals_[static_cast<std::size_t>(e.input)].source.push_back(Waiting{e.packet, now});
                admit(e.input, now);
                break;
        }
    }
    queue_.rearm();
}

void Router::forward_ideal(Packet* p, Tick now) {
    --resident_;
    const std::int64_t flits = flits_of(p->wire_bytes, flit_bytes_);
    ++stats_.packets;
    stats_.flits += flits;
    const double pj = static_cast<double>(flits) * energy_pj_per_flit_;
    if (energy_) energy_->add(EnergyCategory::Noc, pj);
    if (p->layer_energy) p->layer_energy->add(EnergyCategory::Noc, pj);
    const Tick ready = now + pipeline_;
    if (ejects_here(p)) {
        const Local& l = locals_[static_cast<std::size_t>(local_of_node(p->dst_node))];
        if (!l.endpoint)
            throw std::logic_error("router " + topo_.router_name(id_) + ": nothing attached to node " +
                                   std::to_string(p->dst_node));
        const Link::Transit t = l.eject->send(ready, p->wire_bytes, p->layer_energy, p->tail_lag);
        stats_.max_wait = std::max(stats_.max_wait, t.start - ready);
        l.endpoint->arrive(p, t.head_arrival + t.tail_lag);
        return;
    }
    const auto out = static_cast<std::size_t>(out_port(p));
    const Link::Transit t = out_[out]->send(ready, p->wire_bytes, p->layer_energy, p->tail_lag);
    stats_.max_wait = std::max(stats_.max_wait, t.start - ready);
    p->tail_lag = t.tail_lag;
    ++p->hops;
    Router* next = next_[out];
    ++next->resident_;
    next->queue_.push(t.head_arrival, Event{EventKind::Arrive, static_cast<std::int16_t>(next_input_[out]), 0, 0, p});
}

void Router::admit(int local, Tick now) {
    Local& l = locals_[static_cast<std::size_t>(local)];
    // In order: the NI pushes its oldest packet first, so one that finds no room holds the rest.
    while (!l.source.empty()) {
        Packet* p = l.source.front().packet;
        const int need = occupy_flits(p, buffers_.local_flits);
        auto [lo, hi] = class_vcs(p->vc_class);
        int v = -1;
        for (int k = lo; k < hi; ++k)
            if (l.credits[static_cast<std::size_t>(k)] >= need &&
                (v < 0 || l.credits[static_cast<std::size_t>(k)] > l.credits[static_cast<std::size_t>(v)]))
                v = k;
        if (v < 0) return;
        l.credits[static_cast<std::size_t>(v)] -= need;
        p->credit_flits = need;
        const Tick arrival = l.source.front().arrival;
        l.source.pop_front();
        arrive(p, input_of_local(local), v, arrival, now);
    }
}

void Router::arrive(Packet* p, int input, int vc, Tick head_arrival, Tick now) {
    InputVc& q = in_[static_cast<std::size_t>(input_vcs_at(input) + vc)];
    q.fifo.push_back(Waiting{p, head_arrival});
    if (!q.pending && q.fifo.size() == 1) schedule_front(input, vc, now);
}

void Router::schedule_front(int input, int vc, Tick now) {
    InputVc& q = in_[static_cast<std::size_t>(input_vcs_at(input) + vc)];
    q.pending = true;
    // Its head is routed once it has arrived and the packet before it has left the buffer.
    const Tick ready = std::max(now, std::max(q.fifo.front().arrival, q.tail_left) + pipeline_);
    q.ready_at = ready;
    queue_.push(ready, Event{EventKind::Front, static_cast<std::int16_t>(input), static_cast<std::int16_t>(vc), 0, nullptr});
}

void Router::try_front(int input, int vc, Tick now) {
    if (try_leave(input, vc, now)) return;
    if (in_free_[static_cast<std::size_t>(input)] > now) return;  // a Front is due when the port frees
    const Packet* p = in_[static_cast<std::size_t>(input_vcs_at(input) + vc)].fifo.front().packet;
    waiting_[static_cast<std::size_t>(static_cast<int>(out_port(p)) * 3 + wait_class(p))].emplace_back(input, vc);
}

int Router::pick_vc(int out, int cls, int need) const {
    auto [lo, hi] = class_vcs(cls);
    // Round robin over the class's VCs, from the one after the VC given last.
    int start = last_vc_[static_cast<std::size_t>(out)] + 1;
    if (start < lo || start >= hi) start = lo;
    for (int k = 0; k < hi - lo; ++k) {
        const int v = lo + (start - lo + k) % (hi - lo);
        if (credits_[static_cast<std::size_t>(out * buffers_.vcs + v)] >= need) return v;
    }
    return -1;
}

bool Router::try_leave(int input, int vc, Tick now) {
    InputVc& q = in_[static_cast<std::size_t>(input_vcs_at(input) + vc)];
    Packet* p = q.fifo.front().packet;
    const std::int64_t flits = flits_of(p->wire_bytes, flit_bytes_);
    // An input port crosses the switch to one output at a time (as the VC router's switch
    // allocator grants each input one output a cycle): a packet waits for the one before it
    // from another VC of this input to have crossed.
    Tick& port_free = in_free_[static_cast<std::size_t>(input)];
    if (port_free > now) {
        queue_.push(port_free,
                    Event{EventKind::Front, static_cast<std::int16_t>(input), static_cast<std::int16_t>(vc), 0, nullptr});
        return false;
    }
    if (ejects_here(p)) {
        const Local& l = locals_[static_cast<std::size_t>(local_of_node(p->dst_node))];
        if (!l.endpoint)
            throw std::logic_error("router " + topo_.router_name(id_) + ": nothing attached to node " +
                                   std::to_string(p->dst_node));
        const Link::Transit t = l.eject->send(now, p->wire_bytes, p->layer_energy, p->tail_lag);
        ++stats_.packets;
        stats_.flits += flits;
        stats_.max_wait = std::max(stats_.max_wait, t.start - q.ready_at);
        const double pj = static_cast<double>(flits) * energy_pj_per_flit_;
        if (energy_) energy_->add(EnergyCategory::Noc, pj);
        if (p->layer_energy) p->layer_energy->add(EnergyCategory::Noc, pj);
        port_free = t.start + crossing(buffers_.local_port_gbps, p);
        release(input, vc, p, t, now);
        l.endpoint->arrive(p, t.head_arrival + t.tail_lag);
        return true;
    }
    const int out = static_cast<int>(out_port(p));
    const int need = occupy_flits(p, link_flits(out));
    const int cls = next_class(p, out);
    const int v = pick_vc(out, cls, need);
    if (v < 0) return false;
    p->vc_class = static_cast<std::uint8_t>(cls);
    p->ring = static_cast<std::int8_t>(out_class(out));
    credits_[static_cast<std::size_t>(out * buffers_.vcs + v)] -= need;
    last_vc_[static_cast<std::size_t>(out)] = v;
    ++stats_.packets;
    stats_.flits += flits;
    const double pj = static_cast<double>(flits) * energy_pj_per_flit_;
    if (energy_) energy_->add(EnergyCategory::Noc, pj);
    if (p->layer_energy) p->layer_energy->add(EnergyCategory::Noc, pj);
    const Link::Transit t = out_[static_cast<std::size_t>(out)]->send(now, p->wire_bytes, p->layer_energy, p->tail_lag);
    stats_.max_wait = std::max(stats_.max_wait, t.start - q.ready_at);
    port_free = t.start + crossing(buffers_.mesh_port_gbps[static_cast<std::size_t>(out_class(out))], p);
    release(input, vc, p, t, now);
    p->tail_lag = t.tail_lag;
    p->credit_flits = need;
    p->in_span = t.end - t.start;
    ++p->hops;
    Router* next = next_[static_cast<std::size_t>(out)];
    ++next->resident_;
    next->queue_.push(t.head_arrival,
                      Event{EventKind::Arrive, static_cast<std::int16_t>(next_input_[static_cast<std::size_t>(out)]),
                            static_cast<std::int16_t>(v), 0, p});
    return true;
}

void Router::release(int input, int vc, const Packet* p, const Link::Transit& out, Tick now) {
    InputVc& q = in_[static_cast<std::size_t>(input_vcs_at(input) + vc)];
    q.fifo.pop_front();
    q.tail_left = out.end;
    q.pending = false;
    --resident_;
    // A packet's credits are all taken when its head leaves upstream, a flit early by its place
    // in the packet; they come back as if all left with the head, shifted the same way, so each
    // flit's slot is held as long as it is held flit by flit: from the head's departure until
    // the tail has left, less the time the tail trailed the head coming in. The credit then
    // takes the link's latency back to the router that fed it (a local port's NI sits next
    // to it).
    const Tick tail_left = std::max(out.start, out.end - p->in_span);
    if (input < kMeshPorts) {
        Router* up = up_[static_cast<std::size_t>(input)];
        up->queue_.push(tail_left + up_latency_[static_cast<std::size_t>(input)],
                        Event{EventKind::Credit, static_cast<std::int16_t>(up_port_[static_cast<std::size_t>(input)]),
                              static_cast<std::int16_t>(vc), p->credit_flits, nullptr});
    } else {
        queue_.push(tail_left, Event{EventKind::LocalCredit, static_cast<std::int16_t>(input - kMeshPorts),
                                     static_cast<std::int16_t>(vc), p->credit_flits, nullptr});
    }
    if (!q.fifo.empty()) schedule_front(input, vc, now);
}

void Router::serve_waiting(int out, int cls, Tick now) {
    auto& w = waiting_[static_cast<std::size_t>(out * 3 + cls)];
    // In order of arrival: the longest-waiting front goes first when room opens up (one whose
    // input port is busy tries again when it frees, and may then wait anew).
    while (!w.empty()) {
        const auto [input, vc] = w.front();
        const Packet* p = in_[static_cast<std::size_t>(input_vcs_at(input) + vc)].fifo.front().packet;
        if (pick_vc(out, next_class(p, out), occupy_flits(p, link_flits(out))) < 0) return;
        w.pop_front();
        try_leave(input, vc, now);
    }
}

Tick Router::crossing(double gbps, const Packet* p) { return ns_to_ticks(static_cast<double>(p->wire_bytes) / gbps); }

}  // namespace mcmsim
