#include "chiplets/chiplet.h"

#include <cmath>
#include <stdexcept>

namespace mcmsim {

Chiplet::Chiplet(sc_core::sc_module_name name, int index, const ChipletConfig& cfg, const PacketFormat& format,
                 PackageNetwork& net, EnergyLedger& ledger, const PlanIndex& plan, std::vector<OpTiming>& timing)
    : sc_core::sc_module(name), index_(index), cfg_(cfg), format_(format), net_(net), ledger_(ledger),
      energy_(ledger.account(std::string("chiplet.") + std::to_string(index))), plan_(plan), timing_(timing),
      queue_(wake_event_) {
    for (std::size_t g = 0; g < plan.size(); ++g) {
        const PlanOp* op = plan.ops[g];
        if (op->chiplet != index) continue;
        local_of_global_[g] = ops_.size();
        ops_.push_back(LocalOp{g, op, static_cast<int>(op->deps.size()), op->bytes, false, false, {}});
        if (op->kind == OpKind::Recv)
            for (std::size_t t = 0; t < op->transfer_count(); ++t) {
                const TransferRef x = op->transfer(t);
                recv_of_flow_[x.flow] = {ops_.size() - 1, flow_left_.size()};
                flow_left_.push_back(x.bytes);
            }
    }
    for (std::size_t l = 0; l < ops_.size(); ++l)
        for (std::int64_t dep : ops_[l].op->deps) ops_[local_of_global_.at(plan.index(dep))].dependents.push_back(l);
    net_.attach(net_.chiplet_node(index_), this);
    SC_METHOD(wake);
    sensitive << wake_event_;
}

void Chiplet::arrive(Packet* p, Tick when) {
    Event e;
    e.packet = p;
    queue_.push(when, e);
}

void Chiplet::wake() {
    queue_.woke();
    Tick now = now_ticks();
    if (!started_) {
        started_ = true;
        for (std::size_t l = 0; l < ops_.size(); ++l)
            if (ops_[l].deps_left == 0) start(l, now);
    }
    Event e;
    while (queue_.pop_due(now, e)) {
        if (e.packet) on_packet(e.packet, now);
        else finish(e.finished, now);
    }
    queue_.rearm();
}

void Chiplet::start(std::size_t l, Tick now) {
    LocalOp& o = ops_[l];
    const PlanOp& op = *o.op;
    EnergyAccount& layer = ledger_.layer_account(static_cast<std::size_t>(plan_.layer_of[o.global]));
    auto finish_at = [&](Tick t) {
        Event e;
        e.finished = l;
        queue_.push(t, e);
    };
    switch (op.kind) {
        case OpKind::Compute:
            compute_ready_.push_back(l);
            try_compute(now);
            return;  // timing starts when the compute unit takes it
        case OpKind::Recv:
            // Bytes may have arrived before the op's own dependencies were met.
            o.started = true;
            timing_[o.global].start = now;
            if (o.bytes_left == 0) finish_at(now);
            return;
        case OpKind::Send: {
            // The DMA serves a send's transfers as concurrent channels, one packet of each in
            // turn (round robin in list order): a scatter to many chiplets loads all their
            // paths at once instead of sending to one destination after another, which would
            // make every sender of an all-to-all hit the same receiver at the same time.
            Tick last = now;
            const std::size_t count = op.transfer_count();
            send_left_.resize(count);
            for (std::size_t t = 0; t < count; ++t) send_left_[t] = op.transfer(t).bytes;
            for (std::size_t active = count; active > 0;) {
                active = 0;
                for (std::size_t t = 0; t < count; ++t) {
                    std::int64_t& left = send_left_[t];
                    if (left <= 0) continue;
                    const TransferRef x = op.transfer(t);
                    const std::int64_t n = format_.next_packet_bytes(left);
                    Packet* p = net_.new_packet();
                    p->kind = PacketKind::Data;
                    p->payload_bytes = p->wire_bytes = n;
                    p->tag = x.flow;
                    p->route = x.route;
                    p->layer_energy = &layer;
                    last = net_.inject(net_.chiplet_node(index_), net_.chiplet_node(x.peer), p, now);
                    left -= n;
                    if (left > 0) ++active;
                }
            }
            o.started = true;
            timing_[o.global].start = now;
            finish_at(last);
            return;
        }
        case OpKind::DramRead:
        case OpKind::DramWrite: {
            bool read = op.kind == OpKind::DramRead;
            std::uint64_t address = op.address;
            for (std::int64_t left = op.bytes; left > 0;) {
                const std::int64_t n = format_.next_packet_bytes(left);
                Packet* p = net_.new_packet();
                p->kind = read ? PacketKind::DramReadReq : PacketKind::DramWriteData;
                p->payload_bytes = read ? 0 : n;
                p->wire_bytes = read ? kControlPacketBytes : n;
                p->request_bytes = n;
                p->address = address;
                p->tag = static_cast<std::int64_t>(o.global);
                p->layer_energy = &layer;
                net_.inject(net_.chiplet_node(index_), net_.memory_node(op.memory), p, now);
                address += static_cast<std::uint64_t>(n);
                left -= n;
            }
            o.started = true;
            timing_[o.global].start = now;
            if (op.bytes <= 0) finish_at(now);
            return;
        }
    }
}

void Chiplet::try_compute(Tick now) {
    if (compute_busy_now_ || compute_ready_.empty()) return;
    std::size_t l = compute_ready_.front();
    compute_ready_.pop_front();
    LocalOp& o = ops_[l];
    const PlanOp& op = *o.op;
    compute_busy_now_ = true;
    o.started = true;
    timing_[o.global].start = now;
    const ComputeCost cost = compute_cost(cfg_, op.work());
    const Tick dur = static_cast<Tick>(cycles_to_ps(cfg_, cost.cycles));  // a tick is 1 ps
    compute_busy_ += dur;
    compute_cycles_ += cost.cycles;
    dram_refetch_bytes_ += cost.dram_refetch_bytes;
    const double mac_pj = cost.compute_energy_pj();
    const double sram_pj = cost.sram_energy_pj;
    EnergyAccount& layer = ledger_.layer_account(static_cast<std::size_t>(plan_.layer_of[o.global]));
    energy_.add(EnergyCategory::Compute, mac_pj);
    energy_.add(EnergyCategory::Sram, sram_pj);
    layer.add(EnergyCategory::Compute, mac_pj);
    layer.add(EnergyCategory::Sram, sram_pj);
    Event e;
    e.finished = l;
    queue_.push(now + dur, e);
}

double Chiplet::book_leakage(Tick run_end) {
    if (leakage_booked_) throw std::logic_error(std::string(name()) + ": leakage booked twice");
    leakage_booked_ = true;
    const double pj = leakage_energy_pj(cfg_, ticks_to_ns(run_end));
    energy_.add(EnergyCategory::Leakage, pj);
    return pj;
}

void Chiplet::finish(std::size_t l, Tick now) {
    LocalOp& o = ops_[l];
    if (o.done) throw std::logic_error(std::string(name()) + ": op finished twice");
    o.done = true;
    ++done_count_;
    timing_[o.global].end = now;
    if (on_finish_) on_finish_(now);
    if (o.op->kind == OpKind::Compute) {
        macs_done_ += o.op->macs;
        compute_busy_now_ = false;
    }
    for (std::size_t d : o.dependents)
        if (--ops_[d].deps_left == 0) start(d, now);
    if (o.op->kind == OpKind::Compute) try_compute(now);
}

void Chiplet::account_bytes(std::size_t l, std::int64_t bytes, Tick now) {
    LocalOp& o = ops_[l];
    o.bytes_left -= bytes;
    if (o.bytes_left < 0)
        throw std::logic_error(std::string(name()) + ": more bytes than op " + std::to_string(o.op->id) + " expects");
    if (o.bytes_left == 0 && o.started) finish(l, now);
}

void Chiplet::on_packet(Packet* p, Tick now) {
    switch (p->kind) {
        case PacketKind::Data: {
            auto it = recv_of_flow_.find(p->tag);
            if (it == recv_of_flow_.end())
                throw std::logic_error(std::string(name()) + ": data for unknown flow " + std::to_string(p->tag));
            std::int64_t& left = flow_left_[it->second.second];
            left -= p->payload_bytes;
            if (left < 0)
                throw std::logic_error(std::string(name()) + ": more bytes than flow " + std::to_string(p->tag) + " carries");
            if (left == 0) ++flows_complete_;
            account_bytes(it->second.first, p->payload_bytes, now);
            break;
        }
        case PacketKind::DramReadResp:
        case PacketKind::DramWriteAck:
            account_bytes(local_of_global_.at(static_cast<std::size_t>(p->tag)), p->request_bytes, now);
            break;
        default:
            throw std::logic_error(std::string(name()) + ": unexpected packet kind");
    }
    net_.delivered(p);
}

void Chiplet::describe_waiting(std::vector<std::string>& out, std::size_t limit) const {
    for (const LocalOp& o : ops_) {
        if (o.done || out.size() >= limit) continue;
        const PlanOp& op = *o.op;
        std::string what = std::string(name()) + " op " + std::to_string(op.id) + " (" + to_string(op.kind);
        if (op.kind == OpKind::Recv) {
            // Name the flows still short of bytes (a few: a grouped recv may wait for dozens).
            int named = 0;
            for (std::size_t t = 0; t < op.transfer_count() && named < 3; ++t) {
                const TransferRef x = op.transfer(t);
                if (flow_left_[recv_of_flow_.at(x.flow).second] == 0) continue;
                what += (named++ ? ", flow " : " flow ") + std::to_string(x.flow) + " from chiplet " + std::to_string(x.peer);
            }
        }
        what += ")";
        if (o.deps_left > 0) what += " waits for " + std::to_string(o.deps_left) + " dependencies";
        else if (!o.started) what += " waits for the compute unit";
        else what += " waits for " + std::to_string(o.bytes_left) + " bytes";
        out.push_back(what);
    }
}

}  // namespace mcmsim
