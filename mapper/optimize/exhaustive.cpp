#include "mapper/optimize/exhaustive.h"

#include "hw/common/input_error.h"
#include "mapper/optimize/pareto.h"

#include <algorithm>
#include <limits>

namespace mcmsim {

std::vector<std::vector<int>> compositions(int total, int parts) {
    std::vector<std::vector<int>> out;
    IdVector<int> cur(parts, 0);  // [part]
    // Depth-first: part i takes 0..left, the last part takes the rest.
    auto rec = [&](auto&& self, int i, int left) -> void {
        if (i == parts - 1) {
            cur[i] = left;
            out.push_back(cur.vector());
            return;
        }
        for (int v = 0; v <= left; ++v) {
            cur[i] = v;
            self(self, i + 1, left - v);
        }
    };
    if (parts > 0) rec(rec, 0, total);
    return out;
}

namespace {

std::size_t binomial(int n, int k) {
    double r = 1;
    for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return static_cast<std::size_t>(r + 0.5);
}

}  // namespace

ExhaustiveResult run_exhaustive(const Formulation& f, Objective objective, std::size_t max_options_per_layer) {
    if (!f.covers()) throw RequestError("optimizer", "a space the formulation covers (for exhaustive)", f.not_covered());
    const MappingSpace& s = f.space();
    const int U = f.total_units(), n = f.chiplets();
    ExhaustiveResult res;
    res.options_per_layer = binomial(U + n - 1, n - 1) * s.partitions.size() * s.routes.size();
    if (res.options_per_layer > max_options_per_layer)
        throw RequestError(
            "optimizer",
            "a tiny instance for exhaustive (at most " + std::to_string(max_options_per_layer) + " candidates per layer)",
            std::to_string(res.options_per_layer) + " candidates per layer");
    const auto comps = compositions(U, n);
    std::vector<IdVector<LayerGene>> genes(f.layers());  // [layer][candidate]
    std::vector<IdVector<LayerCost>> costs(f.layers());
    for (std::size_t l = 0; l < f.layers(); ++l)
        for (int o = 0; o < s.partitions.size(); ++o)
            for (int r = 0; r < s.routes.size(); ++r)
                for (const auto& u : comps) {
                    LayerGene g{o, u, r};
                    costs[l].push_back(f.layer_cost(l, g));
                    genes[l].push_back(std::move(g));
                }
    const double P = f.leakage_pj_per_ns();
    std::vector<int> pick(f.layers(), 0);
    if (objective != Objective::Edp) {
        // Separable: each layer on its own (latency: time; energy: energy + leakage over time).
        for (std::size_t l = 0; l < f.layers(); ++l) {
            double best = std::numeric_limits<double>::infinity();
            for (int i = 0; i < costs[l].size(); ++i) {
                double v =
                    objective == Objective::Latency ? costs[l][i].time_ns : costs[l][i].energy_pj + P * costs[l][i].time_ns;
                if (v < best) best = v, pick[l] = i;
            }
        }
    } else {
        std::vector<std::vector<std::pair<double, double>>> options(f.layers());
        for (std::size_t l = 0; l < f.layers(); ++l)
            for (const auto& c : costs[l]) options[l].push_back({c.time_ns, c.energy_pj});
        std::vector<FrontPoint> front = merge_layer_fronts(options);
        res.pareto_points = front.size();
        double best = std::numeric_limits<double>::infinity();
        for (const auto& p : front) {
            double v = p.t * (f.fixed_energy_pj() + p.e + P * p.t);
            if (v < best) best = v, pick = p.pick;
        }
    }
    for (std::size_t l = 0; l < f.layers(); ++l) res.best.layers.push_back(genes[l][pick[l]]);
    res.score = f.score(res.best);
    return res;
}

}  // namespace mcmsim
