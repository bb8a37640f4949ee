// The non-uniform heuristic: shares that equalise finish times (MCMComm's observation that
// chiplets whose data arrives late, or behind congested links, should get less work).
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/plan_builder.h"
#include "traces/plan/plan_index.h"

#include <algorithm>
#include <numeric>

namespace mcmsim {

namespace {

constexpr int kSweeps = 2;
constexpr double kDamping = 0.5;  ///< how far a step moves towards the target shares

double edp(const Estimate& e) { return e.ledger.total_pj() * e.latency_ns; }

/// Shares s_i that make ready_i + s_i * T equal for all parts (T: time for the whole layer on
/// one part), never negative: water-filling over the parts that get any work.
std::vector<double> equal_finish_shares(const std::vector<double>& ready, double T) {
    const std::size_t n = ready.size();
    std::vector<bool> active(n, true);
    std::vector<double> s(n, 0.0);
    for (std::size_t round = 0; round < n; ++round) {
        double sum_ready = 0;
        std::size_t count = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (active[i]) sum_ready += ready[i], ++count;
        if (count == 0) break;
        double finish = (T + sum_ready) / static_cast<double>(count);
        bool dropped = false;
        for (std::size_t i = 0; i < n; ++i) {
            if (!active[i]) continue;
            s[i] = (finish - ready[i]) / T;
            if (s[i] < 0) active[i] = false, s[i] = 0, dropped = true;
        }
        if (!dropped) break;
    }
    return s;
}

/// Blends current and target shares, both normalised.
void blend(std::vector<double>& current, const std::vector<double>& target) {
    double ct = std::accumulate(current.begin(), current.end(), 0.0);
    double tt = std::accumulate(target.begin(), target.end(), 0.0);
    if (ct <= 0 || tt <= 0) return;
    for (std::size_t i = 0; i < current.size(); ++i) current[i] = (1 - kDamping) * current[i] / ct + kDamping * target[i] / tt;
}

}  // namespace

Plan map_nonuniform(const ArchConfig& arch, const Workload& w, const Partition& start, std::uint64_t seed) {
    const int rows = arch.package.rows, cols = arch.package.cols, n = rows * cols;
    Mapping m = uniform_mapping(w, start);
    m.optimizer = to_string(Optimizer::Nonuniform);
    m.seed = seed;
    for (auto& lm : m.layers) {
        lm.route = package_route_policy(arch.package);
        if (lm.partition.one_dimensional()) lm.partition.shares.assign(static_cast<std::size_t>(n), 1.0);
        else
            lm.partition.row_shares.assign(static_cast<std::size_t>(rows), 1.0),
                lm.partition.col_shares.assign(static_cast<std::size_t>(cols), 1.0);
    }
    Plan best = build_plan(arch, w, m);
    Estimate best_est = estimate_plan(arch, best);
    double best_edp = edp(best_est);
    for (int sweep = 0; sweep < kSweeps; ++sweep) {
        bool improved = false;
        // Targets come from the best plan so far: when each chiplet's data arrived.
        PlanIndex idx(best);
        std::vector<IdVector<double>> ready(w.layers.size(), IdVector<double>(n, -1));  // [layer][chiplet]
        for (std::size_t i = 0; i < idx.size(); ++i) {
            const PlanOp& op = *idx.ops[i];
            if (op.kind != OpKind::Compute || op.macs == 0) continue;
            ready[static_cast<std::size_t>(idx.layer_of[i])][op.chiplet] = best_est.ops[i].start_ns;
        }
        // One layer at a time, keeping a change only if the whole plan's EDP improves: a
        // layer's shares change what the next layers receive, so the model judges the whole.
        for (std::size_t l = 0; l < w.layers.size(); ++l) {
            const double T = static_cast<double>(w.layers[l].macs()) / arch.chiplet.peak_macs_per_ns();
            if (T <= 0) continue;
            Partition saved = m.layers[l].partition;
            Partition& p = m.layers[l].partition;
            const auto& r = ready[l];
            double latest = *std::max_element(r.begin(), r.end());
            if (p.one_dimensional()) {
                IdVector<double> rd(n);  // [chiplet]
                for (int c = 0; c < n; ++c) rd[c] = r[c] < 0 ? latest : r[c];
                blend(p.shares, equal_finish_shares(rd.vector(), T));
            } else {
                // Two-dimensional splits: a grid row (column) is as late as its latest chiplet.
                IdVector<double> rr(rows, 0), rc(cols, 0);  // [grid row], [grid column]
                for (int c = 0; c < n; ++c) {
                    double v = r[c] < 0 ? latest : r[c];
                    rr[c / cols] = std::max(rr[c / cols], v);
                    rc[c % cols] = std::max(rc[c % cols], v);
                }
                blend(p.row_shares, equal_finish_shares(rr.vector(), T / cols));
                blend(p.col_shares, equal_finish_shares(rc.vector(), T / rows));
            }
            Plan trial = build_plan(arch, w, m);
            Estimate e = estimate_plan(arch, trial);
            if (edp(e) < best_edp) {
                best_edp = edp(e);
                best = std::move(trial);
                best_est = std::move(e);
                improved = true;
            } else {
                p = saved;
            }
        }
        if (!improved) break;
    }
    return best;
}

}  // namespace mcmsim
