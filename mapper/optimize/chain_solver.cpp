#include "mapper/optimize/chain_solver.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace mcmsim {

namespace {

struct Label {
    double time, energy;
    int state;   ///< layout of this label's layer
    int choice;  ///< candidate of this label's layer
    int parent;  ///< label of the layer before (-1: none)
};

double objective_of(const ChainFormulation& f, Objective o, double time, double energy) { return f.total(time, energy).value(o); }

/// Keeps, per state, the labels of `all` the objective needs: the best one for latency or
/// energy, the (time, energy) front for EdP; a front over `most` points first loses the labels
/// `hopeless` says cannot beat a known solution, then is thinned to `most`. Returns whether
/// something was thinned.
template <class Hopeless>
bool prune(const ChainFormulation& f, Objective o, std::vector<Label>& all, std::size_t most, std::size_t& largest,
           const Hopeless& hopeless) {
    std::stable_sort(all.begin(), all.end(), [](const Label& a, const Label& b) {
        if (a.state != b.state) return a.state < b.state;
        if (a.time != b.time) return a.time < b.time;
        return a.energy < b.energy;
    });
    std::vector<Label> kept;
    bool thinned = false;
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j].state == all[i].state) ++j;
        const std::size_t from = kept.size();
        if (o == Objective::Edp) {
            double least = std::numeric_limits<double>::infinity();
            for (std::size_t k = i; k < j; ++k)
                if (all[k].energy < least) least = all[k].energy, kept.push_back(all[k]);
            if (kept.size() - from > most)
                kept.erase(std::remove_if(kept.begin() + static_cast<std::ptrdiff_t>(from), kept.end(), hopeless), kept.end());
            const std::size_t n = kept.size() - from;
            if (n > most) {
                // Evenly over the front, its two ends kept.
                std::vector<Label> thin;
                for (std::size_t k = 0; k < most; ++k) thin.push_back(kept[from + k * (n - 1) / (most - 1)]);
                kept.resize(from);
                kept.insert(kept.end(), thin.begin(), thin.end());
                thinned = true;
            }
        } else {
            std::size_t best = i;
            for (std::size_t k = i + 1; k < j; ++k)
                if (objective_of(f, o, all[k].time, all[k].energy) < objective_of(f, o, all[best].time, all[best].energy))
                    best = k;
            kept.push_back(all[best]);
        }
        largest = std::max(largest, kept.size() - from);
        i = j;
    }
    all.swap(kept);
    return thinned;
}

/// The least objective value of `o` alone (latency or energy), by the same programme.
double least(const ChainFormulation& f, Objective o);

ChainResult run(const ChainFormulation& f, Objective objective, const ChainSolveOptions& opt) {
    const std::size_t L = f.layers();
    std::vector<std::vector<Label>> layers(L);
    ChainResult r;
    // The least time and the least energy of layers l.. (each over every state and
    // candidate): what any completion of a label of layer l - 1 adds at least.
    std::vector<double> rest_time(L + 1, 0), rest_energy(L + 1, 0);
    const bool bounded = objective == Objective::Edp && opt.upper_bound < std::numeric_limits<double>::infinity();
    if (bounded)
        for (std::size_t l = L; l-- > 0;) {
            double t = std::numeric_limits<double>::infinity(), e = t;
            const int states = l > 0 && f.coupled(l) ? f.layouts(l - 1) : 1;
            for (int s = 0; s < states; ++s)
                for (int o = 0; o < static_cast<int>(f.candidates(l).size()); ++o) {
                    const ChainCost& c = f.cost(l, s, o);
                    t = std::min(t, c.time_ns), e = std::min(e, c.energy_pj);
                }
            rest_time[l] = rest_time[l + 1] + t, rest_energy[l] = rest_energy[l + 1] + e;
        }
    std::size_t at_layer = 0;
    // EdP grows with time and energy, so this bounds every completion of the label.
    const double cut = opt.upper_bound * (1 + 1e-9);
    auto hopeless = [&](const Label& a) {
        return bounded &&
               objective_of(f, objective, a.time + rest_time[at_layer + 1], a.energy + rest_energy[at_layer + 1]) > cut;
    };
    for (std::size_t l = 0; l < L; ++l) {
        std::vector<Label>& next = layers[l];
        const int n = static_cast<int>(f.candidates(l).size());
        if (l == 0) {
            for (int o = 0; o < n; ++o) {
                const ChainCost& c = f.cost(0, 0, o);
                next.push_back(Label{c.time_ns, c.energy_pj, f.layout_of(0, o), o, -1});
            }
        } else {
            const std::vector<Label>& prev = layers[l - 1];
            next.reserve(prev.size() * static_cast<std::size_t>(n));
            for (int p = 0; p < static_cast<int>(prev.size()); ++p)
                for (int o = 0; o < n; ++o) {
                    const ChainCost& c = f.cost(l, prev[static_cast<std::size_t>(p)].state, o);
                    next.push_back(Label{prev[static_cast<std::size_t>(p)].time + c.time_ns,
                                         prev[static_cast<std::size_t>(p)].energy + c.energy_pj, f.layout_of(l, o), o, p});
                }
        }
        r.visited += next.size();
        at_layer = l;
        if (prune(f, objective, next, std::max<std::size_t>(2, opt.max_labels), r.labels, hopeless)) r.proven = false;
    }
    const std::vector<Label>& last = layers[L - 1];
    std::vector<int> order(last.size());
    for (int k = 0; k < static_cast<int>(order.size()); ++k) order[static_cast<std::size_t>(k)] = k;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return objective_of(f, objective, last[static_cast<std::size_t>(a)].time, last[static_cast<std::size_t>(a)].energy) <
               objective_of(f, objective, last[static_cast<std::size_t>(b)].time, last[static_cast<std::size_t>(b)].energy);
    });
    for (std::size_t k = 0; k < order.size() && k < std::max<std::size_t>(1, opt.keep_best); ++k) {
        Genome g;
        g.layers.resize(L);
        for (std::size_t l = L, at = static_cast<std::size_t>(order[k]); l-- > 0;) {
            const Label& lab = layers[l][at];
            g.layers[l] = f.candidates(l)[static_cast<std::size_t>(lab.choice)];
            at = static_cast<std::size_t>(std::max(0, lab.parent));
        }
        r.best_few.push_back(std::move(g));
    }
    const int best = order.front();
    r.best = r.best_few.front();
    const Label& b = last[static_cast<std::size_t>(best)];
    r.score = f.total(b.time, b.energy);
    if (!r.proven && objective == Objective::Edp) {
        // Every solution takes at least the least latency, and at least the least energy
        // (static energy included): their product bounds the EdP from below.
        const double bound = least(f, Objective::Latency) * least(f, Objective::Energy);
        r.gap = std::max(0.0, (r.score.value(objective) - bound) / r.score.value(objective));
    }
    return r;
}

double least(const ChainFormulation& f, Objective o) { return run(f, o, ChainSolveOptions{}).score.value(o); }

}  // namespace

ChainResult solve_chain(const ChainFormulation& f, Objective objective, const ChainSolveOptions& o) {
    if (f.layers() == 0) throw std::invalid_argument("solve_chain: no layers");
    return run(f, objective, o);
}

ChainResult enumerate_chain(const ChainFormulation& f, Objective objective, double max_solutions) {
    const std::size_t L = f.layers();
    if (L == 0) throw std::invalid_argument("enumerate_chain: no layers");
    double count = 1;
    for (std::size_t l = 0; l < L; ++l) count *= static_cast<double>(f.candidates(l).size());
    if (count > max_solutions) throw std::invalid_argument("enumerate_chain: too many combinations");
    std::vector<int> pick(L, 0), best;
    double best_value = std::numeric_limits<double>::infinity();
    Score best_score;
    ChainResult r;
    for (;;) {
        double time = 0, energy = 0;
        for (std::size_t l = 0; l < L; ++l) {
            const int s = l > 0 ? f.layout_of(l - 1, pick[l - 1]) : 0;
            const ChainCost& c = f.cost(l, s, pick[l]);
            time += c.time_ns, energy += c.energy_pj;
        }
        ++r.visited;
        const Score sc = f.total(time, energy);
        if (sc.value(objective) < best_value) best_value = sc.value(objective), best = pick, best_score = sc;
        bool done = true;
        for (std::size_t l = L; l > 0 && done;) {
            --l;
            if (++pick[l] < static_cast<int>(f.candidates(l).size())) done = false;
            else pick[l] = 0;
        }
        if (done) break;
    }
    r.best.layers.resize(L);
    for (std::size_t l = 0; l < L; ++l) r.best.layers[l] = f.candidates(l)[static_cast<std::size_t>(best[l])];
    r.score = best_score;
    return r;
}

}  // namespace mcmsim
