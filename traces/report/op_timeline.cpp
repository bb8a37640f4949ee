#include "traces/report/op_timeline.h"

#include <algorithm>

namespace mcmsim {

namespace {

/// One layer's activity of one kind on one chiplet or memory: its first start to last end.
struct Span {
    double start = -1, end = -1;
    void add(double s, double e) {
        start = start < 0 ? s : std::min(start, s);
        end = std::max(end, e);
    }
    bool used() const { return end >= 0; }
};

/// Draws one resource's per-layer spans on as few lanes as keep every lane free of overlaps:
/// spans by start time (then layer), each into the first lane that is free by then.
/// Lane 0 is `base` ("network"), the others "network 2", "network 3", ...
void draw_lanes(TraceWriter& tw, const std::string& process, const std::string& base, const std::string& category,
                const std::vector<Span>& by_layer, const Plan& plan) {
    std::vector<std::size_t> order;
    for (std::size_t l = 0; l < by_layer.size(); ++l)
        if (by_layer[l].used()) order.push_back(l);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return by_layer[a].start < by_layer[b].start; });
    std::vector<double> lane_free;  // end of the last span of each lane
    std::vector<int> lane_track;
    for (std::size_t l : order) {
        const Span& s = by_layer[l];
        std::size_t lane = 0;
        while (lane < lane_free.size() && lane_free[lane] > s.start) ++lane;
        if (lane == lane_free.size()) {
            lane_free.push_back(0);
            lane_track.push_back(tw.track(process, lane == 0 ? base : base + " " + std::to_string(lane + 1)));
        }
        lane_free[lane] = s.end;
        tw.complete(lane_track[lane], plan.layers[l].name, category, s.start, s.end - s.start);
    }
}

}  // namespace

std::vector<double> drawn_starts(const PlanIndex& index, const std::vector<OpTimes>& times) {
    std::vector<double> start(index.size());
    for (std::size_t i = 0; i < index.size(); ++i) start[i] = times[i].start_ns;
    // A recv's first flow leaves with the earliest of its sends.
    std::vector<double> first_send(index.size(), -1);
    for (std::size_t i = 0; i < index.size(); ++i) {
        const PlanOp& op = *index.ops[i];
        if (op.kind != OpKind::Send || !times[i].done()) continue;
        for (std::size_t t = 0; t < op.transfer_count(); ++t) {
            const std::size_t r = index.recv_of(op.transfer(t).flow);
            if (r == KeyIndex::kNone) continue;
            double& f = first_send[r];
            f = f < 0 ? times[i].start_ns : std::min(f, times[i].start_ns);
        }
    }
    for (std::size_t i = 0; i < index.size(); ++i)
        if (index.ops[i]->kind == OpKind::Recv && times[i].done() && first_send[i] >= 0)
            start[i] = std::min(std::max(start[i], first_send[i]), times[i].end_ns);
    return start;
}

void add_op_timeline(TraceWriter& tw, const Plan& plan, const PlanIndex& index, const std::vector<OpTimes>& times,
                     const std::vector<std::string>& memory_names) {
    const std::size_t nl = plan.layers.size();
    const auto nc = static_cast<std::size_t>(plan.chiplets), nm = static_cast<std::size_t>(plan.memories);
    const std::vector<double> start = drawn_starts(index, times);
    std::vector<std::vector<Span>> network(nc, std::vector<Span>(nl)), dma(nc, std::vector<Span>(nl)),
        memory(nm, std::vector<Span>(nl));
    std::vector<int> compute_track(nc);
    for (std::size_t c = 0; c < nc; ++c) compute_track[c] = tw.track("chiplet " + std::to_string(c), "compute");
    for (std::size_t i = 0; i < index.size(); ++i) {
        const OpTimes& t = times[i];
        if (!t.done()) continue;
        const PlanOp& op = *index.ops[i];
        const auto c = static_cast<std::size_t>(op.chiplet);
        const auto l = static_cast<std::size_t>(index.layer_of[i]);
        switch (op.kind) {
            case OpKind::Compute:
                tw.complete(compute_track[c], plan.layers[l].name, "compute", t.start_ns, t.end_ns - t.start_ns,
                            {{"macs", op.macs}, {"tile", op.tile}});
                break;
            case OpKind::Send:
            case OpKind::Recv:
                network[c][l].add(start[i], t.end_ns);
                break;
            case OpKind::DramRead:
            case OpKind::DramWrite:
                dma[c][l].add(start[i], t.end_ns);
                memory[static_cast<std::size_t>(op.memory)][l].add(start[i], t.end_ns);
                break;
        }
    }
    for (std::size_t c = 0; c < nc; ++c) {
        const std::string process = "chiplet " + std::to_string(c);
        draw_lanes(tw, process, "network", "comm", network[c], plan);
        draw_lanes(tw, process, "dma", "dram", dma[c], plan);
    }
    for (std::size_t m = 0; m < nm; ++m)
        draw_lanes(tw, "dram " + (m < memory_names.size() ? memory_names[m] : std::to_string(m)), "accesses", "dram", memory[m],
                   plan);
}

}  // namespace mcmsim
