#include "mapper/optimize/chain_formulation.h"

#include "hw/dram/dram_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/exhaustive.h"
#include "mapper/optimize/problem.h"
#include "mapper/plan_builder/plan_builder.h"

#include "hw/common/input_error.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <thread>

namespace mcmsim {

bool same_layout(const LayerGene& a, const LayerGene& b) { return a.option == b.option && a.units == b.units; }

namespace {

/// Layers before a layer that its plan in context always holds.
constexpr std::size_t kContext = 1;
constexpr std::size_t kAhead = 1;

/// The key of a gene (remembered prices).
std::vector<int> gene_key(const LayerGene& g) {
    std::vector<int> k{g.option, g.route, g.collective, g.weights, g.inputs};
    k.insert(k.end(), g.units.begin(), g.units.end());
    return k;
}

/// Every share vector of option `o`: all compositions of its parts' units (1-D: over all
/// chiplets; 2-D: the grid rows, then the grid columns, each keeping its own total).
std::vector<IdVector<int>> all_units(const MappingSpace& s, int o, int rows, int cols) {
    const PartitionOption& p = s.partitions[o];
    std::vector<IdVector<int>> out;
    if (p.one_dimensional()) {
        for (const auto& c : compositions(s.units_per_part * rows * cols, rows * cols)) out.emplace_back(c);
        return out;
    }
    for (const auto& r : compositions(s.units_per_part * rows, rows))
        for (const auto& c : compositions(s.units_per_part * cols, cols)) {
            std::vector<int> u = r;
            u.insert(u.end(), c.begin(), c.end());
            out.emplace_back(u);
        }
    return out;
}

/// n choose k, saturating (counts of compositions).
double choose(int n, int k) {
    double r = 1;
    for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
}

}  // namespace

ChainFormulation::ChainFormulation(const ArchConfig& arch, const Workload& w, const MappingSpace& space, const Genome& incumbent,
                                   const ChainOptions& opt)
    : arch_(arch), w_(w), space_(space), incumbent_(incumbent) {
    const int rows = arch.package.rows, cols = arch.package.cols;
    const std::size_t L = w.layers.size();
    if (incumbent.layers.size() != L) throw std::invalid_argument("chain formulation: the incumbent has another layer count");
    if (space_.pipeline_segments.empty() || space_.pipeline_segments[incumbent.segments] != 1)
        throw std::invalid_argument("chain formulation: layers one after the other only");
    const std::vector<bool> reads_input = network_input_layers(w);
    candidates_.resize(L);
    layouts_.resize(L);
    layout_of_.resize(L);
    coupled_.assign(L, false);
    first_consumer_.assign(L, -1);
    for (std::size_t l = 0; l < L; ++l)
        for (int p : w.layers[l].inputs)
            if (first_consumer_[static_cast<std::size_t>(p)] < 0)
                first_consumer_[static_cast<std::size_t>(p)] = static_cast<int>(l);

    for (std::size_t l = 0; l < L; ++l) {
        const Layer& layer = w.layers[l];
        coupled_[l] = l > 0;  // the layer before is in every layer's context
        // The delivery genes that change this layer's plan: weights only where it has any,
        // network inputs only where it reads one (as the GA searches them).
        const int weight_choices = layer.weight_bytes() > 0 ? space_.weights.size() : 1;
        const int input_choices = reads_input[l] ? space_.inputs.size() : 1;
        const double others =
            static_cast<double>(space_.routes.size()) * space_.collectives.size() * weight_choices * input_choices;
        double whole = 0;
        for (int o = 0; o < space_.partitions.size(); ++o) {
            const PartitionOption& p = space_.partitions[o];
            whole += p.one_dimensional() ? choose(space_.units_per_part * rows * cols + rows * cols - 1, rows * cols - 1)
                                         : choose(space_.units_per_part * rows + rows - 1, rows - 1) *
                                               choose(space_.units_per_part * cols + cols - 1, cols - 1);
        }
        const bool full = whole * others <= static_cast<double>(opt.full_space_limit);
        std::vector<LayerGene>& cand = candidates_[l];
        for (int o = 0; o < space_.partitions.size(); ++o) {
            std::vector<IdVector<int>> shares =
                full ? all_units(space_, o, rows, cols) : std::vector<IdVector<int>>{uniform_gene(space_, o, rows, cols).units};
            for (const IdVector<int>& u : shares)
                for (int r = 0; r < space_.routes.size(); ++r)
                    for (int c = 0; c < space_.collectives.size(); ++c)
                        for (int wd = 0; wd < weight_choices; ++wd)
                            for (int in = 0; in < input_choices; ++in) {
                                LayerGene g;
                                g.option = o, g.units = u, g.route = r, g.collective = c, g.weights = wd, g.inputs = in;
                                cand.push_back(std::move(g));
                            }
        }
        if (std::find(cand.begin(), cand.end(), incumbent.layers[l]) == cand.end()) cand.push_back(incumbent.layers[l]);
        if (l < opt.extra.size())
            for (const LayerGene& g : opt.extra[l])
                if (std::find(cand.begin(), cand.end(), g) == cand.end()) cand.push_back(g);
        // Layouts, in order of first appearance; each represented by its first gene.
        for (const LayerGene& g : cand) {
            int at = -1;
            for (std::size_t k = 0; k < layouts_[l].size(); ++k)
                if (same_layout(layouts_[l][k], g)) at = static_cast<int>(k);
            if (at < 0) {
                at = static_cast<int>(layouts_[l].size());
                layouts_[l].push_back(g);
            }
            layout_of_[l].push_back(at);
        }
    }

    if (opt.max_combinations > 0) {
        double combinations = 1;
        for (const auto& c : candidates_) combinations *= static_cast<double>(c.size());
        if (combinations > opt.max_combinations) {
            char found[64];
            std::snprintf(found, sizeof found, "%.3g combinations of the layers' candidates", combinations);
            throw RequestError("optimizer",
                               "an instance with at most " + std::to_string(static_cast<long long>(opt.max_combinations)) +
                                   " combinations to enumerate (exhaustive; milp solves larger ones)",
                               found);
        }
    }
    // Static power: chiplet leakage, idle DRAM background and refresh.
    static_pj_per_ns_ = static_cast<double>(arch.chiplet_count()) * arch.chiplet.leakage_mw;
    for (const MemoryConfig& m : arch.memories) {
        const double devices = static_cast<double>(m.dram.units() * m.dram.org.ranks);
        static_pj_per_ns_ += devices * m.dram.energy.background_idle_mw;
        if (m.dram.timing.tREFI_ns > 0) static_pj_per_ns_ += devices * m.dram.energy.ref_pj / m.dram.timing.tREFI_ns;
    }

    // The tables, priced on `threads` threads into fixed slots.
    struct Job {
        std::size_t l;
        int s, o;
    };
    std::vector<Job> jobs;
    table_.resize(L);
    for (std::size_t l = 0; l < L; ++l) {
        const int states = coupled_[l] ? layouts(l - 1) : 1;
        table_[l].resize(static_cast<std::size_t>(states) * candidates_[l].size());
        for (int s = 0; s < states; ++s)
            for (int o = 0; o < static_cast<int>(candidates_[l].size()); ++o) jobs.push_back(Job{l, s, o});
    }
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t j; (j = next++) < jobs.size();) {
            const Job& job = jobs[j];
            const LayerGene& before = job.l > 0 ? (coupled_[job.l] ? layouts_[job.l - 1][static_cast<std::size_t>(job.s)]
                                                                   : incumbent_.layers[job.l - 1])
                                                : incumbent_.layers[0];
            table_[job.l][static_cast<std::size_t>(job.s) * candidates_[job.l].size() + static_cast<std::size_t>(job.o)] =
                price(job.l, before, candidates_[job.l][static_cast<std::size_t>(job.o)]);
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < std::max(1, opt.threads); ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    priced_ = jobs.size();
}

const ChainCost& ChainFormulation::cost(std::size_t l, int s, int o) const {
    if (!coupled_[l]) s = 0;
    return table_[l][static_cast<std::size_t>(s) * candidates_[l].size() + static_cast<std::size_t>(o)];
}

ChainCost ChainFormulation::price(std::size_t l, const LayerGene& before, const LayerGene& gene) const {
    // The layer in context: its producers, itself, its first consumer, in workload order.
    const Layer& layer = w_.layers[l];
    std::vector<std::size_t> keep(layer.inputs.begin(), layer.inputs.end());
    // The two layers before, producers or not: what runs while this layer's weights are
    // prefetched (a weight read waits for the compute two layers back) and what a branch
    // beside it overlaps.
    for (std::size_t back = 1; back <= kContext && back <= l; ++back) keep.push_back(l - back);
    keep.push_back(l);
    if (first_consumer_[l] >= 0) keep.push_back(static_cast<std::size_t>(first_consumer_[l]));
    for (std::size_t ahead = 1; ahead <= kAhead && l + ahead < w_.layers.size(); ++ahead) keep.push_back(l + ahead);
    std::sort(keep.begin(), keep.end());
    keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
    Workload mini;
    mini.name = w_.name;
    mini.batch = w_.batch;
    Genome g;
    std::vector<int> at(w_.layers.size(), -1);
    for (std::size_t k : keep) {
        at[k] = static_cast<int>(mini.layers.size());
        Layer copy = w_.layers[k];
        copy.inputs.clear();
        for (int p : w_.layers[k].inputs)
            if (at[static_cast<std::size_t>(p)] >= 0) copy.inputs.push_back(at[static_cast<std::size_t>(p)]);
        mini.layers.push_back(std::move(copy));
        g.layers.push_back(k == l ? gene : (l > 0 && k == l - 1 ? before : incumbent_.layers[k]));
    }
    const int rows = arch_.package.rows, cols = arch_.package.cols;
    const Plan plan = build_plan(arch_, mini, to_mapping(space_, g, mini, rows, cols));
    const Estimate e = estimate_plan(arch_, plan);
    const auto me = static_cast<std::size_t>(at[l]);
    double before_end = 0, end = 0;
    ChainCost c;
    std::size_t dense = 0;
    for (std::size_t k = 0; k < plan.layers.size(); ++k)
        for (const PlanOp& op : plan.layers[k].ops) {
            const OpTimes& t = e.ops[dense++];
            if (k < me) before_end = std::max(before_end, t.end_ns);
            if (k != me) continue;
            end = std::max(end, t.end_ns);
            if (op.kind == OpKind::DramRead || op.kind == OpKind::DramWrite) {
                // The DRAM background the layer's bytes keep active, above idle.
                const DramConfig& d = arch_.memories[static_cast<std::size_t>(op.memory)].dram;
                const double devices = static_cast<double>(d.units() * d.org.ranks);
                c.energy_pj += devices * (d.energy.background_active_mw - d.energy.background_idle_mw) *
                               static_cast<double>(op.bytes) / d.bandwidth_gbps();
            }
        }
    c.time_ns = std::max(0.0, end - before_end);
    c.energy_pj += e.ledger.layer_accounts()[me]->total();
    return c;
}

Score ChainFormulation::score(const Genome& genome) const {
    double time = 0, energy = 0;
    for (std::size_t l = 0; l < genome.layers.size(); ++l) {
        const LayerGene& gene = genome.layers[l];
        const auto& cand = candidates_[l];
        const auto o = std::find(cand.begin(), cand.end(), gene);
        int s = 0;
        bool tabled = o != cand.end();
        if (tabled && coupled_[l]) {
            s = -1;
            for (int k = 0; k < layouts(l - 1); ++k)
                if (same_layout(layouts_[l - 1][static_cast<std::size_t>(k)], genome.layers[l - 1])) s = k;
            tabled = s >= 0;
        }
        ChainCost c;
        if (tabled) {
            c = cost(l, s, static_cast<int>(o - cand.begin()));
        } else {
            std::vector<int> key = gene_key(gene);
            key.push_back(static_cast<int>(l));
            if (coupled_[l]) {
                key.push_back(genome.layers[l - 1].option);
                key.insert(key.end(), genome.layers[l - 1].units.begin(), genome.layers[l - 1].units.end());
            }
            {
                std::lock_guard<std::mutex> lock(extra_mutex_);
                const auto it = extra_.find(key);
                if (it != extra_.end()) c = it->second, tabled = true;
            }
            if (!tabled) {
                const LayerGene& before =
                    l > 0 ? (coupled_[l] ? genome.layers[l - 1] : incumbent_.layers[l - 1]) : incumbent_.layers[0];
                c = price(l, before, gene);
                std::lock_guard<std::mutex> lock(extra_mutex_);
                extra_.emplace(std::move(key), c);
            }
        }
        time += c.time_ns;
        energy += c.energy_pj;
    }
    return total(time, energy);
}

}  // namespace mcmsim
