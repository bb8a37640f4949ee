#include "traces/report/layer_summary.h"

#include <algorithm>
#include <limits>

namespace mcmsim {

std::vector<LayerSummary> summarize_layers(const Plan& plan, const PlanIndex& index, const std::vector<OpTimes>& times) {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<LayerSummary> out(plan.layers.size());
    std::vector<std::vector<double>> compute_by_chiplet(plan.layers.size(),
                                                        std::vector<double>(static_cast<std::size_t>(plan.chiplets), 0.0));
    std::vector<double> first_send(plan.layers.size(), inf), last_recv(plan.layers.size(), -inf);
    std::vector<double> first_compute(plan.layers.size(), inf), last_compute(plan.layers.size(), -inf);
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        out[l].name = plan.layers[l].name;
        out[l].macs = plan.layers[l].macs;
        out[l].start_ns = inf;
    }
    for (std::size_t i = 0; i < index.size(); ++i) {
        const OpTimes& t = times[i];
        if (!t.done()) continue;
        auto l = static_cast<std::size_t>(index.layer_of[i]);
        const PlanOp& op = *index.ops[i];
        LayerSummary& s = out[l];
        s.start_ns = std::min(s.start_ns, t.start_ns);
        if (s.last_op < 0 || t.end_ns > s.end_ns) s.last_op = static_cast<std::int64_t>(i);
        s.end_ns = std::max(s.end_ns, t.end_ns);
        double dur = t.end_ns - t.start_ns;
        switch (op.kind) {
            case OpKind::Compute:
                compute_by_chiplet[l][static_cast<std::size_t>(op.chiplet)] += dur;
                first_compute[l] = std::min(first_compute[l], t.start_ns);
                last_compute[l] = std::max(last_compute[l], t.end_ns);
                break;
            case OpKind::Send:
                first_send[l] = std::min(first_send[l], t.start_ns);
                break;
            case OpKind::Recv:
                last_recv[l] = std::max(last_recv[l], t.end_ns);
                break;
            case OpKind::DramRead:
            case OpKind::DramWrite:
                s.dram_ns = std::max(s.dram_ns, dur);
                break;
        }
    }
    double frontier = 0;
    for (std::size_t l = 0; l < out.size(); ++l) {
        LayerSummary& s = out[l];
        if (s.start_ns == inf) s.start_ns = 0;
        s.compute_ns = *std::max_element(compute_by_chiplet[l].begin(), compute_by_chiplet[l].end());
        if (first_send[l] < inf && last_recv[l] > -inf) s.comm_ns = std::max(0.0, last_recv[l] - first_send[l]);
        if (first_compute[l] < inf) s.compute_span_ns = last_compute[l] - first_compute[l];
        s.frontier_ns = frontier;
        s.latency_ns = std::max(0.0, s.end_ns - frontier);
        frontier = std::max(frontier, s.end_ns);
    }
    return out;
}

}  // namespace mcmsim
