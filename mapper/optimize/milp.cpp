#include "mapper/optimize/milp.h"

#include "mapper/optimize/pareto.h"

#include "mapper/optimize/mip_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

namespace mcmsim {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInf = std::numeric_limits<double>::max();

struct Row {
    double lo, hi;
    std::vector<int> idx;
    std::vector<double> val;
};

/// Column indices of one layer's variables.
struct LayerVars {
    std::size_t layer = 0;
    int T = -1;
    IdVector<int> combos;  ///< [k] the (option, route) pairs in the model: d * routes + rho
    IdVector<int> x;       ///< [k] per combo
    IdVector<int> u, a;    ///< [k * chiplets + i]
};

/// The formulation's MILP for a set of layers; solved with CBC under different objectives.
class Model {
public:
    /// `combo` >= 0 fixes every layer's (option, route) to option * routes + route.
    Model(const Formulation& f, const std::vector<std::size_t>& layers, int combo, double gap, int max_nodes)
        : f_(f), combo_(combo), gap_(gap), max_nodes_(max_nodes) {
        for (std::size_t l : layers) add_layer(l);
    }

    std::size_t integer_columns() const { return static_cast<std::size_t>(std::count(integer_.begin(), integer_.end(), true)); }

    struct Solution {
        IdVector<double> x;  ///< [column]
        bool optimal = true;
    };

    /// min wT sum T + wE E, optionally with E <= e_max and sum T <= t_max.
    std::optional<Solution> solve(double wT, double wE, double e_max, double t_max, double seconds) const {
        IdVector<double> obj(lb_.size(), 0.0);  // [column]
        for (const auto& lv : vars_) obj[lv.T] += wT;
        for (const auto& [c, v] : energy_) obj[c] += wE * v;
        std::vector<Row> rows = rows_;
        if (e_max < kInf) {
            Row r{-kInf, e_max, {}, {}};
            for (const auto& [c, v] : energy_) r.idx.push_back(c), r.val.push_back(v);
            rows.push_back(r);
        }
        if (t_max < kInf) {
            Row r{-kInf, t_max, {}, {}};
            for (const auto& lv : vars_) r.idx.push_back(lv.T), r.val.push_back(1.0);
            rows.push_back(r);
        }
        MipProblem p;
        p.lb.assign(lb_.begin(), lb_.end());
        p.ub.assign(ub_.begin(), ub_.end());
        for (double& v : p.ub)
            if (v >= kInf) v = kMipInf;
        p.objective.assign(obj.begin(), obj.end());
        p.integer.assign(integer_.begin(), integer_.end());
        for (const Row& r : rows)
            p.rows.push_back(MipRow{r.lo <= -kInf ? -kMipInf : r.lo, r.hi >= kInf ? kMipInf : r.hi, r.idx, r.val});
        const MipSolution m = cbc_mip_solver()->solve(p, MipLimits{gap_, max_nodes_, seconds});
        if (!m.found) return std::nullopt;
        Solution s;
        s.x.assign(m.x.begin(), m.x.end());
        s.optimal = m.optimal;
        return s;
    }

    /// The genes a solution selects, layer by layer (in the model's layer order).
    std::vector<LayerGene> decode(const Solution& s) const {
        const int R = f_.space().routes.size(), n = f_.chiplets();
        std::vector<LayerGene> out;
        for (const auto& lv : vars_) {
            int k = 0;
            for (int j = 1; j < lv.x.size(); ++j)
                if (s.x[lv.x[j]] > s.x[lv.x[k]]) k = j;
            LayerGene g;
            const int combo = lv.combos[k];
            g.option = combo / R;
            g.route = combo % R;
            for (int i = 0; i < n; ++i) g.units.push_back(static_cast<int>(std::lround(s.x[lv.u[k * n + i]])));
            out.push_back(g);
        }
        return out;
    }

private:
    int col(double lo, double hi, bool integer) {
        lb_.push_back(lo);
        ub_.push_back(hi);
        integer_.push_back(integer);
        return lb_.size() - 1;
    }

    void add_layer(std::size_t l) {
        const MappingSpace& s = f_.space();
        const int D = s.partitions.size(), R = s.routes.size(), n = f_.chiplets();
        const double U = static_cast<double>(f_.total_units());
        LayerVars lv;
        lv.layer = l;
        lv.T = col(0, kInf, false);
        for (int k = 0; k < D * R; ++k)
            if (combo_ < 0 || k == combo_) lv.combos.push_back(k);
        const int K = lv.combos.size();
        Row one{1, 1, {}, {}};
        for (int j = 0; j < K; ++j) {
            lv.x.push_back(col(0, 1, true));
            one.idx.push_back(lv.x.back()), one.val.push_back(1);
        }
        rows_.push_back(one);
        for (int j = 0; j < K; ++j)
            for (int i = 0; i < n; ++i) {
                lv.u.push_back(col(0, U, true));
                lv.a.push_back(col(0, 1, true));
            }
        IdVector<Row> compute(n, Row{0, kInf, {lv.T}, {1.0}});                // [chiplet]
        IdVector<Row> resource(f_.resources(), Row{0, kInf, {lv.T}, {1.0}});  // [resource]
        for (int k = 0; k < K; ++k) {
            const int d = lv.combos[k] / R, r = lv.combos[k] % R;
            const OptionTraffic& t = f_.traffic(l, d);
            Row sum{0, 0, {lv.x[k]}, {-U}};
            for (int i = 0; i < n; ++i) {
                const int u = lv.u[k * n + i], a = lv.a[k * n + i];
                sum.idx.push_back(u), sum.val.push_back(1.0);
                rows_.push_back(Row{-kInf, 0, {u, a}, {1.0, -U}});    // u <= U a
                rows_.push_back(Row{-kInf, 0, {a, u}, {1.0, -1.0}});  // a <= u
                auto& cr = compute[i];
                cr.idx.push_back(u), cr.val.push_back(-f_.work_ns(l));
                for (int e : f_.in_path(i, r)) {
                    auto& rr = resource[e];
                    const double B = f_.bandwidth(e);
                    if (t.in_var != 0) rr.idx.push_back(u), rr.val.push_back(-t.in_var / U / B);
                    if (t.in_fix != 0) rr.idx.push_back(a), rr.val.push_back(-t.in_fix / B);
                }
                for (int e : f_.out_path(i, r)) {
                    auto& rr = resource[e];
                    const double B = f_.bandwidth(e);
                    if (t.out_var != 0) rr.idx.push_back(u), rr.val.push_back(-t.out_var / U / B);
                    if (t.out_fix != 0) rr.idx.push_back(a), rr.val.push_back(-t.out_fix / B);
                }
                const double ev = (t.in_var * f_.in_energy(i) + t.out_var * f_.out_energy(i)) / U;
                const double ef = t.in_fix * f_.in_energy(i) + t.out_fix * f_.out_energy(i);
                if (ev != 0) energy_.push_back({u, ev});
                if (ef != 0) energy_.push_back({a, ef});
            }
            rows_.push_back(sum);
        }
        for (auto& r : compute)
            if (r.idx.size() > 1) rows_.push_back(merge(r));
        for (auto& r : resource)
            if (r.idx.size() > 1) rows_.push_back(merge(r));
        vars_.push_back(lv);
    }

    /// A row may name a column twice (a link on the way in and out): CoinPackedVector wants
    /// each once.
    static Row merge(const Row& r) {
        std::vector<std::pair<int, double>> cv;
        for (std::size_t j = 0; j < r.idx.size(); ++j) cv.push_back({r.idx[j], r.val[j]});
        std::sort(cv.begin(), cv.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        Row out{r.lo, r.hi, {}, {}};
        for (const auto& [c, v] : cv) {
            if (!out.idx.empty() && out.idx.back() == c) out.val.back() += v;
            else out.idx.push_back(c), out.val.push_back(v);
        }
        return out;
    }

    const Formulation& f_;
    int combo_;
    double gap_;
    int max_nodes_;
    IdVector<double> lb_, ub_;  ///< [column]
    IdVector<bool> integer_;    ///< [column]
    std::vector<Row> rows_;
    std::vector<LayerVars> vars_;
    std::vector<std::pair<int, double>> energy_;
};

class Solver {
public:
    Solver(const Formulation& f, const MilpOptions& o) : f_(f), o_(o), t0_(Clock::now()) {}

    MilpResult run() {
        MilpResult res;
        res.best.layers.resize(f_.layers());
        const double P = f_.leakage_pj_per_ns();
        if (o_.objective != Objective::Edp) {
            res.method = "per-layer";
            const double wE = o_.objective == Objective::Energy ? 1.0 : 0.0;
            const double wT = o_.objective == Objective::Energy ? P : 1.0;
            per_layer(res, wT, wE);
        } else {
            merged_fronts(res);
        }
        res.score = f_.score(res.best);
        return res;
    }

private:
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }
    bool out_of_budget(const MilpResult& res) const {
        return (o_.max_solves > 0 && res.solves >= o_.max_solves) || (o_.budget_s > 0 && elapsed() > o_.budget_s);
    }
    void report(int step, double v) {
        if (o_.progress) o_.progress(step, v, elapsed());
    }

    /// The (option, route) groups a layer is solved in: all in one model, or one model each.
    std::vector<int> combos() const {
        if (!o_.split_combos) return {-1};
        std::vector<int> c(f_.space().partitions.size() * f_.space().routes.size());
        for (std::size_t k = 0; k < c.size(); ++k) c[k] = static_cast<int>(k);
        return c;
    }

    Model model(std::size_t l, int combo) const { return Model(f_, {l}, combo, o_.gap, o_.max_nodes); }

    void per_layer(MilpResult& res, double wT, double wE) {
        for (std::size_t l = 0; l < f_.layers(); ++l) {
            double best = kInf;
            for (int combo : combos()) {
                Model m = model(l, combo);
                auto s = m.solve(wT, wE, kInf, kInf, 0);
                ++res.solves;
                if (!s) continue;
                res.exact = res.exact && s->optimal;
                LayerGene g = m.decode(*s).front();
                LayerCost c = f_.layer_cost(l, g);
                double v = wT * c.time_ns + wE * c.energy_pj;
                if (v < best) best = v, res.best.layers[l] = g;
            }
            if (best == kInf) throw std::runtime_error("milp: no solution for layer " + std::to_string(l));
            report(static_cast<int>(l), 0);
        }
    }

    /// One layer's (time, energy) Pareto front by an iterated energy bound: min T s.t.
    /// E <= B, then min E s.t. T <= T*; B := E* - step. Complete (exact) unless capped.
    std::vector<LayerGene> layer_front(std::size_t l, int combo, MilpResult& res, bool& complete) {
        Model m = model(l, combo);
        std::vector<LayerGene> front;
        double bound = kInf, e_first = 0, e_min = 0;
        const bool capped = o_.max_front_points > 0;
        if (capped) {
            auto lo = m.solve(0, 1, kInf, kInf, 0);
            ++res.solves;
            if (lo) e_min = f_.layer_cost(l, m.decode(*lo).front()).energy_pj;
        }
        for (;;) {
            if (out_of_budget(res)) {
                complete = false;
                break;
            }
            auto t = m.solve(1, 0, bound, kInf, 0);
            ++res.solves;
            if (!t) break;
            const double t_star = f_.layer_cost(l, m.decode(*t).front()).time_ns;
            auto e = m.solve(0, 1, bound, t_star * (1 + 1e-9), 0);
            ++res.solves;
            res.exact = res.exact && t->optimal && (!e || e->optimal);
            LayerGene g = m.decode(e ? *e : *t).front();
            const double moved = f_.layer_cost(l, g).energy_pj;
            if (front.empty()) e_first = moved;
            front.push_back(g);
            double step = std::max(1e-7 * std::abs(moved), 1e-9);
            if (capped) {
                if (static_cast<int>(front.size()) >= o_.max_front_points) {
                    complete = false;
                    break;
                }
                step = std::max(step, (e_first - e_min) / o_.max_front_points);
                complete = false;  // points between the steps may be skipped
            }
            bound = moved - step;
        }
        return front;
    }

    /// EdP: every layer's own front, merged into the workload's front (exact: a layer's
    /// dominated options cannot be part of a non-dominated sum); the best EdP point on it.
    void merged_fronts(MilpResult& res) {
        res.method = "per-layer fronts";
        bool complete = true;
        std::vector<IdVector<LayerGene>> fronts;  // [layer][front point]
        std::vector<std::vector<std::pair<double, double>>> options;
        for (std::size_t l = 0; l < f_.layers(); ++l) {
            std::vector<LayerGene> front;
            for (int combo : combos()) {
                auto part = layer_front(l, combo, res, complete);
                front.insert(front.end(), part.begin(), part.end());
            }
            if (front.empty() && out_of_budget(res)) {
                // Out of solves or time: the layer keeps the baseline (first option, uniform, first route).
                front.push_back(uniform_gene(f_.space(), 0, f_.rows(), f_.cols()));
                complete = false;
            }
            fronts.push_back(front);
            if (fronts.back().empty()) throw std::runtime_error("milp: no solution for layer " + std::to_string(l));
            std::vector<std::pair<double, double>> te;
            for (const auto& g : fronts.back()) {
                LayerCost c = f_.layer_cost(l, g);
                te.push_back({c.time_ns, c.energy_pj});
            }
            options.push_back(te);
            report(static_cast<int>(l), 0);
        }
        res.exact = res.exact && complete;
        const double F = f_.fixed_energy_pj(), P = f_.leakage_pj_per_ns();
        double best = kInf;
        for (const auto& p : merge_layer_fronts(options)) {
            double v = p.t * (F + p.e + P * p.t);
            if (v < best) {
                best = v;
                for (std::size_t l = 0; l < f_.layers(); ++l) res.best.layers[l] = fronts[l][p.pick[l]];
            }
        }
    }

    const Formulation& f_;
    MilpOptions o_;
    Clock::time_point t0_;
};

}  // namespace

MilpResult run_milp(const Formulation& f, const MilpOptions& o) { return Solver(f, o).run(); }

IdVector<int> balanced_units(const Formulation& f, std::size_t l, int option, int route, double gap, int max_nodes) {
    const int combo = option * f.space().routes.size() + route;
    Model m(f, {l}, combo, gap, max_nodes);
    const auto s = m.solve(1, 0, kInf, kInf, 0);
    if (!s) throw std::runtime_error("milp: no shares for layer " + std::to_string(l));
    return m.decode(*s).front().units;
}

}  // namespace mcmsim
