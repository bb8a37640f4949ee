// The analytical model's discrete-event schedule (packet granularity): see Estimator::schedule_packets.
#include "mapper/model/estimator.h"

#include <cmath>

namespace mcmsim::estimator {

void Estimator::schedule_packets() {
    ScheduleStart s = start_schedule();
    const std::size_t n = ops_;
    const OpCost* const cost = s.cost;
    OpSchedule* const sched = s.sched;
    const FlowCost* const flows = s.flows;
    const std::uint32_t* const first_succ = s.first_succ;
    const SuccEdge* const edges = s.edges;
    const PathTables paths = s.paths;
    const FlowReceivers::View receivers = s.receivers;
    ReadyQueue& pq = ws_.ready;
    std::vector<double>& compute_free = s.compute_free;
    double* const link_free = s.link_free;
    OpTimes* const times = s.times;
    PacketGroupPool& pool = ws_.packets;
    pool.clear();
    // A group's bytes on the wire: packets_per_event full packets (the last of a message
    // takes what is left). A read group's requests are priced as one control packet (the
    // simulator sends one per data packet): they are small next to the data, which comes
    // back on the other direction's links, and this is the variant that was validated.
    const double group_wire =
        static_cast<double>(mc_.wire_bytes(arch_.package.max_packet_bytes)) * static_cast<double>(options_.packets_per_event);
    const double request_wire = static_cast<double>(mc_.control_wire_bytes());
    const auto groups_of = [&](double wire) { return std::max(1, static_cast<int>(std::ceil(wire / group_wire - 1e-9))); };
    std::size_t done = 0;
    // Group events are numbered in the order they are pushed: among equal times the queue
    // serves the earlier push first (ReadyQueue::push), as the simulator's routers serve
    // packets whose heads arrive in the same tick. Saturates rather than wraps (past 2^32
    // pushes, ties fall back to slot order).
    std::uint32_t pushes = 0;
    const auto next_push = [&pushes] { return pushes == UINT32_MAX ? pushes : ++pushes; };

    // An op has ended at `end`: its successors may become ready.
    const auto release = [&](std::uint32_t i, double end) {
        for (std::uint32_t e = first_succ[i]; e != kNoEdge; e = edges[e].next) {
            const std::uint32_t s = edges[e].to;
            OpSchedule& o = sched[s];
            o.ready = std::max(o.ready, end);
            if (--o.pending == 0) pq.push(std::max(o.ready, cost[s].kind == OpKind::Recv ? o.arrival : 0.0), s);
        }
    };
    // One of a DRAM op's groups is done at `t` (read: its data has arrived; write: it is
    // acknowledged); the op ends with its last group (pending counts them, arrival keeps
    // the latest).
    const auto dram_group_done = [&](std::uint32_t i, double t) {
        OpSchedule& o = sched[i];
        o.arrival = std::max(o.arrival, t);
        if (--o.pending > 0) return;
        times[i].end_ns = o.arrival;
        release(i, o.arrival);
    };
    // A group that has crossed its whole path, tail arrived at g.tail + g.head_ns.
    const auto arrived = [&](const PacketGroup& g) {
        const double tail = g.tail + g.head_ns;
        if (g.kind == PacketGroupKind::Flow) {
            OpSchedule& r = sched[g.op];
            r.arrival = std::max(r.arrival, tail);
            if (--r.pending == 0) pq.push(std::max(r.ready, r.arrival), g.op);
        } else
            dram_group_done(g.op, tail);
    };
    // A group whose head leaves its first link at `t` (that link already reserved, its
    // tail gone at `tail`): an event at its next link, or, with no link after the first,
    // at its end (a memory serves what has arrived, so a group to one waits for that).
    const auto launch = [&](const PathRef& p, double t, double tail, double wire, PacketGroupKind kind, std::uint32_t op,
                            std::uint32_t dram, double share) {
        const PacketGroup g{p.rest, p.rest + p.records, wire, tail, p.head_ns, share, op, dram, 0, kind};
        const bool to_memory = kind == PacketGroupKind::ReadRequest || kind == PacketGroupKind::WriteData;
        if (p.records == 0 && !to_memory) {
            arrived(g);
            return;
        }
        const std::uint32_t slot = pool.add(g);
        pq.push(p.records ? t + p.rest->z[0] : tail + p.head_ns, static_cast<std::uint32_t>(n + slot), next_push());
    };
    // A DRAM group at its memory at `t`: served in order of arrival, at the memory's
    // bandwidth for its share of the op's bytes. A read's data leaves once served (and
    // accessed) as soon as the memory's interface is free; a write is acknowledged.
    const auto at_memory = [&](const PacketGroup& g, double t) {
        const DramCost& d = ws_.drams[g.dram];
        double& memory = memory_free_[at(d.memory)];
        memory = std::max(t, memory) + d.memory_ns * g.share;
        if (g.kind == PacketGroupKind::WriteData) {
            dram_group_done(g.op, memory + d.access_ns + d.reply_ns);
            return;
        }
        const PathRef& p = paths[d.path];
        double& out = link_free[p.first_link];
        const double wire = d.wire * g.share;
        const double leave = std::max(memory + d.access_ns, out);
        out = leave + wire * p.first_hold;
        launch(p, leave, out, wire, PacketGroupKind::ReadData, g.op, 0, 0.0);
    };

    while (!pq.empty()) {
        const ReadyQueue::Item item = pq.pop();
        const double t = item.t;
        const std::uint32_t i = item.i;
        if (i >= n) {
            // A group reaching its next link (or its memory) at t.
            const auto slot = static_cast<std::uint32_t>(i - n);
            PacketGroup& g = pool[slot];
            if (g.step == g.end) {
                const PacketGroup here = g;  // at_memory may add groups, moving the pool
                at_memory(here, t);
                pool.remove(slot);
                continue;
            }
            const int lane = g.lane;
            const double z = g.step->z[lane];
            double& free = link_free[g.step->link[lane]];
            const double start = std::max(t, free);
            free = start + g.wire * g.step->hold[lane];
            g.tail = std::max(g.tail, free - z);
            // The second lane of a path's last record repeats the first when the path
            // has an odd number of steps: then the record is done.
            if (lane == 0 && g.step->link[1] != g.step->link[0]) g.lane = 1;
            else {
                ++g.step;
                g.lane = 0;
            }
            if (g.step != g.end) {
                // Its head reaches the next link as long after starting here as on a free
                // network: a wait here delays it there.
                pq.push(start + (g.step->z[g.lane] - z), i, next_push());
            } else if (g.kind == PacketGroupKind::ReadRequest || g.kind == PacketGroupKind::WriteData) {
                pq.push(g.tail + g.head_ns, i, next_push());  // the memory serves it once it has arrived
            } else {
                arrived(g);
                pool.remove(slot);
            }
            continue;
        }
        const OpCost& c = cost[i];
        OpTimes& ot = times[i];
        ot.start_ns = t;
        double end = t;
        switch (c.kind) {
            case OpKind::Compute: {
                double& free = compute_free[at(c.chiplet)];
                ot.start_ns = std::max(t, free);
                end = free = ot.start_ns + c.own_ns;
                break;
            }
            case OpKind::Send: {
                // The flows leave the network interface one after another, as in
                // schedule(); each splits into groups that leave it back to back.
                double& ni_free = link_free[at(pp_.inject(c.chiplet))];
                double leave = std::max(t, ni_free);
                for (const FlowCost* f = flows + c.flows_begin, *last = flows + c.flows_end; f != last; ++f) {
                    const PathRef& p = paths[f->path];
                    const std::uint32_t recv = receivers.recv_of(f->slot);
                    if (recv == FlowReceivers::kNone) no_recv(f->slot);
                    const int groups = groups_of(f->wire);
                    sched[recv].pending += groups - 1;  // it counted the flow once
                    double left = f->wire, from = leave;
                    for (int k = 0; k < groups; ++k) {
                        const double w = std::min(left, group_wire);
                        launch(p, from, from + w * p.first_hold, w, PacketGroupKind::Flow, recv, 0, 0.0);
                        from += w * p.first_hold;
                        left -= w;
                    }
                    leave += f->wire * p.first_hold;
                }
                ni_free = end = leave;
                break;
            }
            case OpKind::Recv:
                ot.start_ns = sched[i].ready;
                end = std::max(sched[i].ready, sched[i].arrival);
                break;
            case OpKind::DramRead:
            case OpKind::DramWrite: {
                // Its groups leave the chiplet's network interface when it is free: a
                // read's requests (one control packet's bytes each), a write's data. The
                // op ends with its last group (dram_group_done), not here.
                const DramCost& d = ws_.drams[c.flows_begin];
                const PathRef& out = paths[d.read ? d.back : d.path];
                double& ni_free = link_free[out.first_link];
                const int groups = groups_of(d.wire);
                sched[i].pending = groups;
                sched[i].arrival = 0;
                double left = d.wire;
                for (int k = 0; k < groups; ++k) {
                    const double w = std::min(left, group_wire);
                    const double wire = d.read ? request_wire : w;
                    const double from = std::max(t, ni_free);
                    ni_free = from + wire * out.first_hold;
                    launch(out, from, ni_free, wire, d.read ? PacketGroupKind::ReadRequest : PacketGroupKind::WriteData, i,
                           c.flows_begin, d.wire > 0 ? w / d.wire : 1.0);
                    left -= w;
                }
                ++done;
                continue;
            }
        }
        ot.end_ns = end;
        ++done;
        release(i, end);
    }
    finish_schedule(done);
}
}  // namespace mcmsim::estimator
