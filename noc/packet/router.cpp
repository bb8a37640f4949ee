#include "noc/packet/router.h"

#include "hw/common/packet_format.h"

#include <algorithm>
#include <stdexcept>

namespace mcmsim {

Router::Router(sc_core::sc_module_name name, int id, const MeshTopology& topo, Tick pipeline, std::int64_t flit_bytes,
               double energy_pj_per_flit, EnergyAccount* energy)
    : sc_core::sc_module(name), id_(id), topo_(topo), pipeline_(pipeline), flit_bytes_(flit_bytes),
      energy_pj_per_flit_(energy_pj_per_flit), energy_(energy), queue_(wake_event_) {
    SC_METHOD(wake);
    sensitive << wake_event_;
    dont_initialize();
}

void Router::connect(Port p, Link* link, Router* next) {
    out_[static_cast<int>(p)] = link;
    next_[static_cast<int>(p)] = next;
}

void Router::attach(int node, Link* eject, NetworkEndpoint* endpoint) { locals_.push_back(Local{node, eject, endpoint}); }

void Router::wake() {
    queue_.woke();
    Tick now = now_ticks();
    Packet* p = nullptr;
    while (queue_.pop_due(now, p)) forward(p, now);
    queue_.rearm();
}

void Router::forward(Packet* p, Tick now) {
    const std::int64_t flits = flits_of(p->wire_bytes, flit_bytes_);
    ++stats_.packets;
    stats_.flits += flits;
    double pj = static_cast<double>(flits) * energy_pj_per_flit_;
    if (energy_) energy_->add(EnergyCategory::Noc, pj);
    if (p->layer_energy) p->layer_energy->add(EnergyCategory::Noc, pj);

    Tick ready = now + pipeline_;
    // A source route ends at its last router; else the packet leaves at its destination.
    const bool last = p->route ? static_cast<std::size_t>(p->hops) + 1 >= p->route->size() : p->dst_router == id_;
    if (last) {
        for (const Local& l : locals_) {
            if (l.node != p->dst_node) continue;
            Link::Transit t = l.eject->send(ready, p->wire_bytes, p->layer_energy, p->tail_lag);
            stats_.max_wait = std::max(stats_.max_wait, t.start - ready);
            l.endpoint->arrive(p, t.head_arrival + t.tail_lag);
            return;
        }
        throw std::logic_error("router " + topo_.router_name(id_) + ": no endpoint for node " + std::to_string(p->dst_node));
    }
    Port port =
        p->route ? topo_.port_to(id_, (*p->route)[static_cast<std::size_t>(p->hops) + 1]) : topo_.next_port(id_, p->dst_router);
    int i = static_cast<int>(port);
    Link::Transit t = out_[i]->send(ready, p->wire_bytes, p->layer_energy, p->tail_lag);
    stats_.max_wait = std::max(stats_.max_wait, t.start - ready);
    p->tail_lag = t.tail_lag;
    ++p->hops;
    next_[i]->receive(p, t.head_arrival);
}

}  // namespace mcmsim
