// The analytical model's one-pass list schedule (message granularity): see Estimator::schedule.
#include "mapper/model/estimator.h"

#include <algorithm>
#include <vector>

namespace mcmsim::estimator {

namespace {

/// The op after this one is most likely the queue's next: fetch a send's flows now.
inline void prefetch_next_send(const ReadyQueue& pq, const OpCost* cost, const FlowCost* flows) {
    if (pq.empty()) return;
    const OpCost& next = cost[pq.next_index()];
    if (next.kind != OpKind::Send) return;
    const char* p = reinterpret_cast<const char*>(flows + next.flows_begin);
    const std::size_t bytes = std::min<std::size_t>((next.flows_end - next.flows_begin) * sizeof(FlowCost), 2048);
    for (std::size_t off = 0; off < bytes; off += 64) __builtin_prefetch(p + off);
}

}  // namespace

inline double Estimator::dram_end(const DramCost& d, double t, PathTables paths, double* link_free) {
    double& memory = memory_free_[at(d.memory)];
    const PathRef& p = paths[d.path];
    // The memory is one more first-come-first-served stage, which the request (read) or the
    // data's head (write) reaches after its head latency.
    const double arrive = t + d.request_ns;
    memory = std::max(arrive, memory) + d.memory_ns;
    if (d.read) {
        // Its data leaves after the access latency, and not before it is read.
        const double leave = arrive + d.access_ns;
        return reserve_path(link_free, p, leave, memory + d.access_ns, d.wire) + p.head_ns;
    }
    const double tail = reserve_path(link_free, p, t, 0.0, d.wire) + p.head_ns;
    return std::max(memory, tail) + d.access_ns + d.reply_ns;
}

void Estimator::schedule() {
    ScheduleStart s = start_schedule();
    // Raw pointers into storage that does not change size from here on: through the
    // vectors the compiler reloads them after every call (a push onto the queue).
    const OpCost* const cost = s.cost;
    OpSchedule* const sched = s.sched;
    const FlowCost* flows = s.flows;
    const std::uint32_t* const first_succ = s.first_succ;
    const SuccEdge* const edges = s.edges;
    const PathTables paths = s.paths;
    const FlowReceivers::View receivers = s.receivers;
    ReadyQueue& pq = ws_.ready;
    std::vector<double>& compute_free = s.compute_free;
    double* const link_free = s.link_free;
    OpTimes* const times = s.times;
    std::size_t done = 0;
    while (!pq.empty()) {
        const ReadyQueue::Item item = pq.pop();
        const double t = item.t;
        const std::uint32_t i = item.i;
        prefetch_next_send(pq, cost, flows);
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
                // Every flow's path starts on the sender's network interface (head time 0),
                // which the send's flows share until the last has left (send_flows); the
                // interface is reserved here until then.
                double& ni_free = link_free[at(pp_.inject(c.chiplet))];
                // Done once its last byte has left through the network interface.
                ni_free = end = send_flows(flows + c.flows_begin, flows + c.flows_end, std::max(t, ni_free), sched, paths,
                                           receivers, link_free);
                break;
            }
            case OpKind::Recv:
                ot.start_ns = sched[i].ready;
                end = std::max(sched[i].ready, sched[i].arrival);
                break;
            case OpKind::DramRead:
            case OpKind::DramWrite:
                end = dram_end(ws_.drams[c.flows_begin], t, paths, link_free);
                break;
        }
        ot.end_ns = end;
        ++done;
        for (std::uint32_t e = first_succ[i]; e != kNoEdge; e = edges[e].next) {
            const std::uint32_t s = edges[e].to;
            OpSchedule& o = sched[s];
            o.ready = std::max(o.ready, end);
            if (--o.pending == 0) pq.push(std::max(o.ready, cost[s].kind == OpKind::Recv ? o.arrival : 0.0), s);
        }
    }
    finish_schedule(done);
}

double Estimator::send_flows(const FlowCost* f, const FlowCost* last, double leave, OpSchedule* sched, PathTables paths,
                             FlowReceivers::View receivers, double* link_free) {
    ReadyQueue& pq = ws_.ready;
    // The network interface interleaves the flows packet by packet (as the chiplet's DMA
    // does), so all of them leave from `leave` on, and a flow's last byte has left once the
    // interface has spent its own time on it and, of every other flow, as much time as
    // that flow needs or this one does, whichever is less: sum_j min(n_j, n_k).
    const std::size_t count = static_cast<std::size_t>(last - f);
    std::vector<double>& ni = ws_.ni_ns;
    ni.resize(count);
    for (std::size_t k = 0; k < count; ++k) ni[k] = f[k].wire * paths[f[k].path].first_hold;
    std::vector<double>& sorted = ws_.ni_sorted;
    sorted.assign(ni.begin(), ni.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<double>& below = ws_.ni_prefix;  // below[r]: the sum of the r shortest
    below.resize(count + 1);
    below[0] = 0;
    for (std::size_t r = 0; r < count; ++r) below[r + 1] = below[r] + sorted[r];
    for (std::size_t k = 0; k < count; ++k, ++f) {
        const PathRef& p = paths[f->path];
        const std::uint32_t recv = receivers.recv_of(f->slot);
        if (recv == FlowReceivers::kNone) no_recv(f->slot);
        OpSchedule& r = sched[recv];
        const auto r_k = static_cast<std::size_t>(std::upper_bound(sorted.begin(), sorted.end(), ni[k]) - sorted.begin());
        const double left = leave + below[r_k] + ni[k] * static_cast<double>(count - r_k);
        r.arrival = std::max(r.arrival, reserve_rest(link_free, p.rest, p.records, leave, left, f->wire) + p.head_ns);
        // A recv's own start is set by its dependencies.
        if (--r.pending == 0) pq.push(std::max(r.ready, r.arrival), recv);
    }
    return leave + below[count];
}
}  // namespace mcmsim::estimator
