// The analytical model's discrete-event schedule (packet granularity): see Estimator::schedule_packets.
#include "mapper/model/estimator.h"

#include <cmath>
#include <vector>

namespace mcmsim::estimator {

/// One run of the packet-granularity schedule: the priced plan's tables, the ready queue of ops
/// and packet-group events, and the groups in flight. Each step is a member so that the whole
/// run stays in this file and the compiler keeps the tables in registers across them.
class PacketSchedule {
public:
    explicit PacketSchedule(Estimator& e)
        : e_(e), s_(e.start_schedule()), n_(e.ops_), cost_(s_.cost), sched_(s_.sched), flows_(s_.flows),
          first_succ_(s_.first_succ), edges_(s_.edges), paths_(s_.paths), receivers_(s_.receivers), pq_(e.ws_.ready),
          link_free_(s_.link_free), times_(s_.times), pool_(e.ws_.packets),
          // A group's bytes on the wire: packets_per_event full packets (the last of a message
          // takes what is left). A read group's requests are priced as one control packet (the
          // simulator sends one per data packet): they are small next to the data, which comes
          // back on the other direction's links, and this is the variant that was validated.
          group_wire_(static_cast<double>(e.mc_.wire_bytes(e.arch_.package.max_packet_bytes)) *
                      static_cast<double>(e.options_.packets_per_event)),
          request_wire_(static_cast<double>(e.mc_.control_wire_bytes())) {
        pool_.clear();
    }

    void run() {
        while (!pq_.empty()) {
            const ReadyQueue::Item item = pq_.pop();
            if (item.i >= n_) advance_group(item.i, item.t);
            else run_op(item.i, item.t);
        }
        e_.finish_schedule(done_);
    }

private:
    int groups_of(double wire) const { return std::max(1, static_cast<int>(std::ceil(wire / group_wire_ - 1e-9))); }

    /// Group events are numbered in the order they are pushed: among equal times the queue
    /// serves the earlier push first (ReadyQueue::push), as the simulator's routers serve
    /// packets whose heads arrive in the same tick. Saturates rather than wraps (past 2^32
    /// pushes, ties fall back to slot order).
    std::uint32_t next_push() { return pushes_ == UINT32_MAX ? pushes_ : ++pushes_; }

    /// An op has ended at `end`: its successors may become ready.
    void release(std::uint32_t i, double end) {
        for (std::uint32_t e = first_succ_[i]; e != kNoEdge; e = edges_[e].next) {
            const std::uint32_t s = edges_[e].to;
            OpSchedule& o = sched_[s];
            o.ready = std::max(o.ready, end);
            if (--o.pending == 0) pq_.push(std::max(o.ready, cost_[s].kind == OpKind::Recv ? o.arrival : 0.0), s);
        }
    }

    /// One of a DRAM op's groups is done at `t` (read: its data has arrived; write: it is
    /// acknowledged); the op ends with its last group (pending counts them, arrival keeps
    /// the latest).
    void dram_group_done(std::uint32_t i, double t) {
        OpSchedule& o = sched_[i];
        o.arrival = std::max(o.arrival, t);
        if (--o.pending > 0) return;
        times_[i].end_ns = o.arrival;
        release(i, o.arrival);
    }

    /// A group that has crossed its whole path, tail arrived at g.tail + g.head_ns.
    void arrived(const PacketGroup& g) {
        const double tail = g.tail + g.head_ns;
        if (g.kind == PacketGroupKind::Flow) {
            OpSchedule& r = sched_[g.op];
            r.arrival = std::max(r.arrival, tail);
            if (--r.pending == 0) pq_.push(std::max(r.ready, r.arrival), g.op);
        } else dram_group_done(g.op, tail);
    }

    /// A group whose head leaves its first link at `t` (that link already reserved, its tail
    /// gone at `tail`): an event at its next link, or, with no link after the first, at its
    /// end (a memory serves what has arrived, so a group to one waits for that).
    void launch(const PathRef& p, double t, double tail, double wire, PacketGroupKind kind, std::uint32_t op, std::uint32_t dram,
                double share) {
        const PacketGroup g{p.rest, p.rest + p.records, wire, tail, p.head_ns, share, op, dram, 0, kind};
        const bool to_memory = kind == PacketGroupKind::ReadRequest || kind == PacketGroupKind::WriteData;
        if (p.records == 0 && !to_memory) {
            arrived(g);
            return;
        }
        const std::uint32_t slot = pool_.add(g);
        pq_.push(p.records ? t + p.rest->z[0] : tail + p.head_ns, static_cast<std::uint32_t>(n_ + slot), next_push());
    }

    /// A DRAM group at its memory at `t`: served in order of arrival, at the memory's
    /// bandwidth for its share of the op's bytes. A read's data leaves once served (and
    /// accessed) as soon as the memory's interface is free; a write is acknowledged.
    void at_memory(const PacketGroup& g, double t) {
        const DramCost& d = e_.ws_.drams[g.dram];
        double& memory = e_.memory_free_[Estimator::at(d.memory)];
        memory = std::max(t, memory) + d.memory_ns * g.share;
        if (g.kind == PacketGroupKind::WriteData) {
            dram_group_done(g.op, memory + d.access_ns + d.reply_ns);
            return;
        }
        const PathRef& p = paths_[d.path];
        double& out = link_free_[p.first_link];
        const double wire = d.wire * g.share;
        const double leave = std::max(memory + d.access_ns, out);
        out = leave + wire * p.first_hold;
        launch(p, leave, out, wire, PacketGroupKind::ReadData, g.op, 0, 0.0);
    }

    /// Event `i` (group slot i - ops) reaches its next link, or its memory, at `t`.
    void advance_group(std::uint32_t i, double t) {
        const auto slot = static_cast<std::uint32_t>(i - n_);
        PacketGroup& g = pool_[slot];
        if (g.step == g.end) {
            const PacketGroup here = g;  // at_memory may add groups, moving the pool
            at_memory(here, t);
            pool_.remove(slot);
            return;
        }
        const int lane = g.lane;
        const double z = g.step->z[lane];
        double& free = link_free_[g.step->link[lane]];
        const double start = std::max(t, free);
        free = start + g.wire * g.step->hold[lane];
        g.tail = std::max(g.tail, free - z);
        // The second lane of a path's last record repeats the first when the path has an odd
        // number of steps: then the record is done.
        if (lane == 0 && g.step->link[1] != g.step->link[0]) g.lane = 1;
        else {
            ++g.step;
            g.lane = 0;
        }
        if (g.step != g.end) {
            // Its head reaches the next link as long after starting here as on a free
            // network: a wait here delays it there.
            pq_.push(start + (g.step->z[g.lane] - z), i, next_push());
        } else if (g.kind == PacketGroupKind::ReadRequest || g.kind == PacketGroupKind::WriteData) {
            pq_.push(g.tail + g.head_ns, i, next_push());  // the memory serves it once it has arrived
        } else {
            arrived(g);
            pool_.remove(slot);
        }
    }

    /// Op `i`, ready at `t`, runs.
    void run_op(std::uint32_t i, double t) {
        const OpCost& c = cost_[i];
        OpTimes& ot = times_[i];
        ot.start_ns = t;
        double end = t;
        switch (c.kind) {
            case OpKind::Compute: {
                double& free = s_.compute_free[Estimator::at(c.chiplet)];
                ot.start_ns = std::max(t, free);
                end = free = ot.start_ns + c.own_ns;
                break;
            }
            case OpKind::Send:
                end = send(c, t);
                break;
            case OpKind::Recv:
                ot.start_ns = sched_[i].ready;
                end = std::max(sched_[i].ready, sched_[i].arrival);
                break;
            case OpKind::DramRead:
            case OpKind::DramWrite:
                dram(c, i, t);
                ++done_;
                return;  // it ends with its last group (dram_group_done), not here
        }
        ot.end_ns = end;
        ++done_;
        release(i, end);
    }

    /// The flows share the network interface group by group, one group of each in turn (as
    /// the chiplet's DMA interleaves them packet by packet). Returns when the last has left.
    double send(const OpCost& c, double t) {
        double& ni_free = link_free_[Estimator::at(e_.pp_.inject(c.chiplet))];
        double leave = std::max(t, ni_free);
        const std::size_t count = c.flows_end - c.flows_begin;
        std::vector<double>& left = e_.ws_.ni_ns;        // per flow: wire bytes still to leave
        std::vector<double>& groups = e_.ws_.ni_sorted;  // per flow: groups still to leave
        left.resize(count);
        groups.resize(count);
        for (std::size_t k = 0; k < count; ++k) {
            const FlowCost& f = flows_[c.flows_begin + k];
            const std::uint32_t recv = receivers_.recv_of(f.slot);
            if (recv == FlowReceivers::kNone) e_.no_recv(f.slot);
            const int g = groups_of(f.wire);
            sched_[recv].pending += g - 1;  // it counted the flow once
            left[k] = f.wire;
            groups[k] = g;
        }
        for (bool more = true; more;) {
            more = false;
            for (std::size_t k = 0; k < count; ++k) {
                if (groups[k] <= 0) continue;
                const FlowCost& f = flows_[c.flows_begin + k];
                const PathRef& p = paths_[f.path];
                const double w = groups[k] == 1 ? left[k] : std::min(left[k], group_wire_);
                launch(p, leave, leave + w * p.first_hold, w, PacketGroupKind::Flow, receivers_.recv_of(f.slot), 0, 0.0);
                leave += w * p.first_hold;
                left[k] -= w;
                groups[k] -= 1;
                more = more || groups[k] > 0;
            }
        }
        ni_free = leave;
        return leave;
    }

    /// A DRAM op's groups leave the chiplet's network interface when it is free: a read's
    /// requests (one control packet's bytes each), a write's data.
    void dram(const OpCost& c, std::uint32_t i, double t) {
        const DramCost& d = e_.ws_.drams[c.flows_begin];
        const PathRef& out = paths_[d.read ? d.back : d.path];
        double& ni_free = link_free_[out.first_link];
        const int groups = groups_of(d.wire);
        sched_[i].pending = groups;
        sched_[i].arrival = 0;
        double left = d.wire;
        for (int k = 0; k < groups; ++k) {
            const double w = std::min(left, group_wire_);
            const double wire = d.read ? request_wire_ : w;
            const double from = std::max(t, ni_free);
            ni_free = from + wire * out.first_hold;
            launch(out, from, ni_free, wire, d.read ? PacketGroupKind::ReadRequest : PacketGroupKind::WriteData, i, c.flows_begin,
                   d.wire > 0 ? w / d.wire : 1.0);
            left -= w;
        }
    }

    Estimator& e_;
    Estimator::ScheduleStart s_;
    const std::size_t n_;
    const OpCost* const cost_;
    OpSchedule* const sched_;
    const FlowCost* const flows_;
    const std::uint32_t* const first_succ_;
    const SuccEdge* const edges_;
    const Estimator::PathTables paths_;
    const FlowReceivers::View receivers_;
    ReadyQueue& pq_;
    double* const link_free_;
    OpTimes* const times_;
    PacketGroupPool& pool_;
    const double group_wire_, request_wire_;
    std::size_t done_ = 0;
    std::uint32_t pushes_ = 0;
};

void Estimator::schedule_packets() { PacketSchedule(*this).run(); }

}  // namespace mcmsim::estimator
