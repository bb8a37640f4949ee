#include "traces/report/layer_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mcmsim {

double rel_error(double model, double sim) { return sim > 0 ? (model - sim) / sim : (model > 0 ? 1.0 : 0.0); }

namespace {

const char* op_kind_name(OpKind k) {
    switch (k) {
        case OpKind::Compute:
            return "compute";
        case OpKind::Send:
            return "send";
        case OpKind::Recv:
            return "recv";
        case OpKind::DramRead:
            return "DRAM read";
        case OpKind::DramWrite:
            return "DRAM write";
    }
    return "op";
}

}  // namespace

std::string explain_difference(const LayerSummary& m, const LayerSummary& s, const PlanIndex& index,
                               const std::vector<OpTimes>& model_ops, const std::vector<OpTimes>& sim_ops) {
    std::vector<std::string> why;
    char buf[200];
    auto differs = [](double a, double b) { return std::fabs(a - b) > 0.2 * std::max(a, b) && std::fabs(a - b) > 100.0; };
    // A layer's latency is how far it moves the completion frontier, so when the layers before
    // it end later in one run, time moves from this layer to them. Compared with the layer's own
    // latency, not with the frontier: a few us matter to a 4 us layer.
    const double shift = s.frontier_ns - m.frontier_ns;
    if (std::fabs(shift) > 0.2 * std::max(m.latency_ns, s.latency_ns) && std::fabs(shift) > 100.0) {
        const double end_err = rel_error(m.end_ns, s.end_ns);
        std::snprintf(buf, sizeof buf, "the layers before it finished %.1f us %s in the simulation (%.1f vs %.1f us predicted)%s",
                      std::fabs(shift) / 1e3, shift > 0 ? "later" : "earlier", s.frontier_ns / 1e3, m.frontier_ns / 1e3,
                      std::fabs(end_err) < 0.05 ? "; its own work overlapped theirs" : " (late dependency)");
        why.emplace_back(buf);
    }
    if (differs(m.comm_ns, s.comm_ns)) {
        std::snprintf(buf, sizeof buf, "redistribution took %.1f us simulated vs %.1f us predicted (%s)", s.comm_ns / 1e3,
                      m.comm_ns / 1e3,
                      s.comm_ns > m.comm_ns ? "link congestion the model missed" : "less contention than modelled");
        why.emplace_back(buf);
    }
    if (differs(m.dram_ns, s.dram_ns)) {
        std::snprintf(buf, sizeof buf, "longest DRAM access %.1f us simulated vs %.1f us predicted (%s)", s.dram_ns / 1e3,
                      m.dram_ns / 1e3, s.dram_ns > m.dram_ns ? "DRAM or PHY queueing" : "less DRAM queueing than modelled");
        why.emplace_back(buf);
    }
    if (differs(m.compute_ns, s.compute_ns)) {
        std::snprintf(buf, sizeof buf, "busiest compute %.1f us simulated vs %.1f us predicted", s.compute_ns / 1e3,
                      m.compute_ns / 1e3);
        why.emplace_back(buf);
    }
    // Where the simulated layer ends: the straggler, and what its last op waited for (the
    // dependency that ended last), with the times the model gave both.
    if (s.last_op >= 0) {
        const auto i = static_cast<std::size_t>(s.last_op);
        const PlanOp& last = *index.ops[i];
        std::size_t waited = i;
        for (std::int64_t d : last.deps) {
            const std::size_t j = index.index(d);
            if (waited == i || sim_ops[j].end_ns > sim_ops[waited].end_ns) waited = j;
        }
        if (waited != i && sim_ops[waited].end_ns >= sim_ops[i].start_ns - 1.0)
            std::snprintf(buf, sizeof buf,
                          "it ends on chiplet %d, whose %s waited for its %s until %.1f us simulated (predicted %.1f us)",
                          last.chiplet, op_kind_name(last.kind), op_kind_name(index.ops[waited]->kind),
                          sim_ops[waited].end_ns / 1e3, model_ops[waited].end_ns / 1e3);
        else
            std::snprintf(buf, sizeof buf, "it ends on chiplet %d, whose %s started at %.1f us simulated (predicted %.1f us)",
                          last.chiplet, op_kind_name(last.kind), sim_ops[i].start_ns / 1e3, model_ops[i].start_ns / 1e3);
        why.emplace_back(buf);
    }
    std::string out;
    for (const auto& w : why) out += (out.empty() ? "" : "; ") + w;
    return out;
}

}  // namespace mcmsim
