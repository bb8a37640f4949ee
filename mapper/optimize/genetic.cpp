#include "mapper/optimize/genetic.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <numeric>
#include <random>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace mcmsim {

namespace {

using Clock = std::chrono::steady_clock;

/// Fitness by exact gene key; new genomes are scored in parallel into indexed slots.
class Evaluator {
public:
    Evaluator(const Problem& p, int threads) : p_(p), threads_(std::max(1, threads)) {}

    /// Scores of `genomes`, in order.
    std::vector<Score> score(const std::vector<Genome>& genomes) {
        std::vector<Score> out(genomes.size());
        std::vector<std::vector<int>> keys(genomes.size());
        std::vector<std::size_t> todo;  // first index of each new key
        std::unordered_map<std::vector<int>, std::size_t, GenomeKeyHash> queued;
        for (std::size_t i = 0; i < genomes.size(); ++i) {
            keys[i] = genomes[i].key();
            if (cache_.count(keys[i]) || queued.count(keys[i])) continue;
            queued.emplace(keys[i], i);
            todo.push_back(i);
        }
        std::vector<Score> slots(todo.size());
        std::vector<std::exception_ptr> errors(todo.size());
        std::atomic<std::size_t> next{0};
        auto work = [&] {
            for (std::size_t j; (j = next++) < todo.size();) {
                try {
                    slots[j] = p_.evaluate(genomes[todo[j]]);
                } catch (...) {
                    errors[j] = std::current_exception();
                }
            }
        };
        int n = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads_), todo.size()));
        if (n <= 1) {
            work();
        } else {
            std::vector<std::thread> pool;
            for (int t = 0; t < n; ++t) pool.emplace_back(work);
            for (auto& t : pool) t.join();
        }
        for (std::size_t j = 0; j < todo.size(); ++j) {
            if (errors[j]) std::rethrow_exception(errors[j]);
            cache_.emplace(keys[todo[j]], slots[j]);
        }
        for (std::size_t i = 0; i < genomes.size(); ++i) out[i] = cache_.at(keys[i]);
        return out;
    }

    std::size_t evaluations() const { return cache_.size(); }

private:
    const Problem& p_;
    int threads_;
    std::unordered_map<std::vector<int>, Score, GenomeKeyHash> cache_;
};

/// A small, portable generator interface: the same draws on every standard library.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : e_(seed) {}
    std::size_t below(std::size_t n) { return n <= 1 ? 0 : static_cast<std::size_t>(e_() % n); }
    /// An id of [0, n): the same draw as below() on the count.
    int below(int n) { return static_cast<int>(below(static_cast<std::size_t>(n))); }
    double unit() { return static_cast<double>(e_() >> 11) * (1.0 / 9007199254740992.0); }

private:
    std::mt19937_64 e_;
};

class Genetic {
public:
    Genetic(const Problem& p, const GaOptions& o) : p_(p), o_(o), rng_(o.seed), eval_(p, o.threads) {}

    GaResult run(const std::vector<Genome>& seeds) {
        if (seeds.empty()) throw std::invalid_argument("genetic: at least one seed genome");
        t0_ = Clock::now();
        // Every seed gets a place, even beyond --population (a batched workload's space seeds
        // each segment count too).
        const std::size_t pop = std::max(static_cast<std::size_t>(std::max<int>(o_.population, 2)), seeds.size());
        std::vector<Genome> popu(seeds.begin(), seeds.begin() + static_cast<std::ptrdiff_t>(std::min(seeds.size(), pop)));
        while (popu.size() < pop) popu.push_back(random_genome());
        std::vector<Score> scores = eval_.score(popu);
        GaResult res;
        sort_by_fitness(popu, scores);
        report(0, scores.front());
        for (int gen = 1; gen <= o_.generations; ++gen) {
            if (over_budget()) {
                res.budget_hit = true;
                break;
            }
            std::vector<Genome> next(popu.begin(),
                                     popu.begin() + std::min<std::ptrdiff_t>(o_.elites, static_cast<std::ptrdiff_t>(pop)));
            while (next.size() < pop) {
                const Genome& a = popu[tournament(scores)];
                const Genome& b = popu[tournament(scores)];
                Genome child = rng_.unit() < o_.crossover_rate ? crossover(a, b) : a;
                mutate(child);
                next.push_back(std::move(child));
            }
            popu = std::move(next);
            scores = eval_.score(popu);
            sort_by_fitness(popu, scores);
            res.generations = gen;
            report(gen, scores.front());
        }
        res.best = popu.front();
        res.best_score = scores.front();
        if (!res.budget_hit) polish(res);
        res.evaluations = eval_.evaluations();
        return res;
    }

private:
    double value(const Score& s) const { return s.value(o_.objective); }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }
    bool over_budget() const { return o_.budget_s > 0 && elapsed() > o_.budget_s; }
    void report(int gen, const Score& best) {
        if (o_.progress) o_.progress(gen, value(best), elapsed());
    }

    /// Best first; equal values keep their order (stable), so ties resolve the same way always.
    void sort_by_fitness(std::vector<Genome>& g, std::vector<Score>& s) const {
        std::vector<std::size_t> idx(g.size());
        std::iota(idx.begin(), idx.end(), 0);
        std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return value(s[a]) < value(s[b]); });
        std::vector<Genome> g2;
        std::vector<Score> s2;
        for (std::size_t i : idx) g2.push_back(std::move(g[i])), s2.push_back(s[i]);
        g = std::move(g2);
        s = std::move(s2);
    }

    /// Population is sorted: the lowest index among the contestants wins.
    std::size_t tournament(const std::vector<Score>& s) {
        std::size_t best = rng_.below(s.size());
        for (int t = 1; t < o_.tournament; ++t) best = std::min(best, rng_.below(s.size()));
        return best;
    }

    LayerGene random_gene(std::size_t layer) {
        const MappingSpace& s = p_.space();
        LayerGene g = uniform_gene(s, rng_.below(s.partitions.size()), p_.rows(), p_.cols());
        g.route = rng_.below(s.routes.size());
        g.collective = rng_.below(s.collectives.size());  // no draw for one value
        g.weights = rng_.below(s.weights.size());
        if (p_.reads_network_input(layer)) g.inputs = rng_.below(s.inputs.size());
        // A few random unit moves away from uniform.
        const int moves = rng_.below(g.units.size() + 1);
        for (int m = 0; m < moves; ++m) move_units(g);
        return g;
    }

    Genome random_genome() {
        Genome g;
        for (std::size_t l = 0; l < p_.layers(); ++l) g.layers.push_back(random_gene(l));
        g.segments = rng_.below(p_.space().pipeline_segments.size());  // no draw for one value
        return g;
    }

    Genome crossover(const Genome& a, const Genome& b) {
        Genome c = a;
        for (std::size_t l = 0; l < c.layers.size(); ++l)
            if (rng_.below(2)) c.layers[l] = b.layers[l];
        if (p_.space().pipeline_segments.size() > 1 && rng_.below(2)) {
            c.segments = b.segments;
            c.boundary_shift = b.boundary_shift;
        }
        return c;
    }

    /// Moves 1..units_per_part units from a part that has some to another part of the same segment.
    void move_units(LayerGene& g) {
        auto segs = p_.segments(g.option);
        auto [lo, hi] = segs[rng_.below(segs.size())];
        const int n = hi - lo;
        if (n < 2) return;
        std::vector<int> donors;
        for (int i = lo; i < hi; ++i)
            if (g.units[i] > 0) donors.push_back(i);
        if (donors.empty()) return;
        int from = donors[rng_.below(donors.size())];
        int to = lo + rng_.below(n - 1);
        if (to >= from) ++to;
        int most = std::min(g.units[from], p_.space().units_per_part);
        int amount = 1 + rng_.below(most);
        g.units[from] -= amount;
        g.units[to] += amount;
    }

    /// A uniformly drawn index of [0, n) other than `current` (n >= 2).
    int other_than(int current, int n) {
        const int x = rng_.below(n - 1);
        return x >= current ? x + 1 : x;
    }

    void mutate_gene(LayerGene& g, std::size_t layer) {
        const MappingSpace& s = p_.space();
        double r = rng_.unit();
        if (r < 0.2 && s.partitions.size() > 1) {
            const int opt = other_than(g.option, s.partitions.size());
            int route = g.route, collective = g.collective, weights = g.weights, inputs = g.inputs;
            g = uniform_gene(s, opt, p_.rows(), p_.cols());
            g.route = route;
            g.collective = collective;
            g.weights = weights;
            g.inputs = inputs;
        } else if (r < 0.3 && s.routes.size() > 1) {
            g.route = other_than(g.route, s.routes.size());
        } else if (r < 0.4 && s.collectives.size() > 1) {
            g.collective = other_than(g.collective, s.collectives.size());
        } else if (r < 0.5 && s.weights.size() > 1) {
            g.weights = other_than(g.weights, s.weights.size());
        } else if (r < 0.6 && s.inputs.size() > 1 && p_.reads_network_input(layer)) {
            g.inputs = other_than(g.inputs, s.inputs.size());
        } else {
            move_units(g);
        }
    }

    void mutate(Genome& g) {
        // The plan-wide gene: another segment count, as often as one layer's gene changes.
        const int counts = p_.space().pipeline_segments.size();
        if (counts > 1 && rng_.unit() < std::max(1.0 / static_cast<double>(g.layers.size()), 0.05)) {
            const int n = p_.space().pipeline_segments[g.segments];
            if (n > 1 && rng_.below(2)) {  // move one boundary of the current cut by a layer or two
                if (g.boundary_shift.size() < n - 1) g.boundary_shift.resize(n - 1, 0);
                const int k = rng_.below(n - 1);
                const int step = 1 + rng_.below(2);
                g.boundary_shift[k] += rng_.below(2) ? step : -step;
                return;
            }
            g.segments = other_than(g.segments, counts);
            return;
        }
        const std::size_t L = g.layers.size();
        const double rate = std::max(1.0 / static_cast<double>(L), 0.05);
        bool any = false;
        for (std::size_t l = 0; l < L; ++l)
            if (rng_.unit() < rate) mutate_gene(g.layers[l], l), any = true;
        if (!any) {
            const std::size_t l = rng_.below(L);
            mutate_gene(g.layers[l], l);
        }
    }

    /// Neighbours in the plan-wide genes: every other segment count, and each boundary of the
    /// current cut moved a layer either way.
    void plan_neighbours(const Genome& g, std::vector<Genome>& out) const {
        const MappingSpace& s = p_.space();
        for (int k = 0; k < s.pipeline_segments.size(); ++k) {
            if (k == g.segments) continue;
            Genome n = g;
            n.segments = k;
            out.push_back(std::move(n));
        }
        const int segments = s.pipeline_segments[g.segments];
        for (int k = 0; k + 1 < segments; ++k)
            for (int d : {-1, 1}) {
                Genome n = g;
                if (n.boundary_shift.size() <= k) n.boundary_shift.resize(k + 1, 0);
                n.boundary_shift[k] += d;
                out.push_back(std::move(n));
            }
    }

    /// Every single-gene neighbour of `g` in layer `l`: other options (uniform units), other
    /// routes, other collectives, one unit moved between two parts of a segment.
    std::vector<Genome> neighbours(const Genome& g, std::size_t l) const {
        const MappingSpace& s = p_.space();
        std::vector<Genome> out;
        const LayerGene& cur = g.layers[l];
        for (int o = 0; o < s.partitions.size(); ++o) {
            if (o == cur.option) continue;
            Genome n = g;
            n.layers[l] = uniform_gene(s, o, p_.rows(), p_.cols());
            n.layers[l].route = cur.route;
            n.layers[l].collective = cur.collective;
            n.layers[l].weights = cur.weights;
            n.layers[l].inputs = cur.inputs;
            out.push_back(std::move(n));
        }
        for (int r = 0; r < s.routes.size(); ++r) {
            if (r == cur.route) continue;
            Genome n = g;
            n.layers[l].route = r;
            out.push_back(std::move(n));
        }
        for (int c = 0; c < s.collectives.size(); ++c) {
            if (c == cur.collective) continue;
            Genome n = g;
            n.layers[l].collective = c;
            out.push_back(std::move(n));
        }
        for (int w = 0; w < s.weights.size(); ++w) {
            if (w == cur.weights) continue;
            Genome n = g;
            n.layers[l].weights = w;
            out.push_back(std::move(n));
        }
        for (int i = 0; i < s.inputs.size() && p_.reads_network_input(l); ++i) {
            if (i == cur.inputs) continue;
            Genome n = g;
            n.layers[l].inputs = i;
            out.push_back(std::move(n));
        }
        if (l == 0) plan_neighbours(g, out);  // the plan-wide genes, once per pass
        for (auto [lo, hi] : p_.segments(cur.option))
            for (int a = lo; a < hi; ++a) {
                if (cur.units[a] == 0) continue;
                for (int b = lo; b < hi; ++b) {
                    if (a == b) continue;
                    Genome n = g;
                    --n.layers[l].units[a];
                    ++n.layers[l].units[b];
                    out.push_back(std::move(n));
                }
            }
        return out;
    }

    /// Best-improvement local search, layer by layer, until a pass improves nothing or the
    /// evaluation budget is spent.
    void polish(GaResult& res) {
        std::size_t budget_end = eval_.evaluations() + static_cast<std::size_t>(std::max(0, o_.polish_evaluations));
        bool improved = true;
        int pass = 0;
        while (improved && eval_.evaluations() < budget_end && !over_budget()) {
            improved = false;
            for (std::size_t l = 0; l < res.best.layers.size() && eval_.evaluations() < budget_end; ++l) {
                std::vector<Genome> cand = neighbours(res.best, l);
                std::vector<Score> sc = eval_.score(cand);
                std::size_t best = cand.size();
                for (std::size_t i = 0; i < cand.size(); ++i)
                    if (value(sc[i]) < value(best < cand.size() ? sc[best] : res.best_score)) best = i;
                if (best < cand.size()) {
                    res.best = std::move(cand[best]);
                    res.best_score = sc[best];
                    improved = true;
                }
            }
            report(o_.generations + ++pass, res.best_score);
        }
    }

    const Problem& p_;
    GaOptions o_;
    Rng rng_;
    Evaluator eval_;
    Clock::time_point t0_;
};

}  // namespace

GaResult run_genetic(const Problem& problem, const std::vector<Genome>& seeds, const GaOptions& options) {
    return Genetic(problem, options).run(seeds);
}

}  // namespace mcmsim
