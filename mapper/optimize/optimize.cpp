#include "mapper/optimize/optimize.h"

#include "hw/common/input_error.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/chain_formulation.h"
#include "mapper/optimize/chain_solver.h"
#include "mapper/optimize/exhaustive.h"
#include "mapper/optimize/formulation.h"
#include "mapper/optimize/genetic.h"
#include "mapper/optimize/milp.h"
#include "mapper/optimize/problem.h"
#include "mapper/plan_builder/plan_builder.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>

namespace mcmsim {

namespace {

Score analytical(const ArchConfig& arch, const Plan& plan) {
    Estimate e = estimate_plan(arch, plan);
    return Score{e.latency_ns, e.ledger.total_pj()};
}

Plan plan_of(const ArchConfig& arch, const Workload& w, const MappingSpace& s, const Genome& g, Optimizer optimizer,
             std::uint64_t seed) {
    Mapping m = to_mapping(s, g, w, arch.package.rows, arch.package.cols);
    m.optimizer = to_string(optimizer);
    m.seed = seed;
    return build_plan(arch, w, m);
}

/// The formulation's share of a space: its 1-D options, dimension-order routes and the direct
/// collective (the formulation prices every input as direct flows from memory; relayed
/// collectives are not modelled, so milp and exhaustive do not choose them).
MappingSpace formulation_space(const MappingSpace& s) {
    MappingSpace f = s;
    f.partitions.clear();
    for (const auto& p : s.partitions)
        if (p.one_dimensional()) f.partitions.push_back(p);
    f.routes.clear();
    for (RoutePolicy r : s.routes)
        if (r == RoutePolicy::XY || r == RoutePolicy::YX) f.routes.push_back(r);
    if (f.routes.empty()) f.routes.push_back(RoutePolicy::XY);
    f.collectives = {Collective::Direct};
    f.weights = {Delivery::Unicast};
    f.inputs = {Delivery::Unicast};
    f.pipeline_segments = {1};  // layers one after the other on all chiplets
    return f;
}

/// "p 5, k 44, kxp 4; 9 non-uniform; routes xy 40, yx 10, split 4[; collectives direct 50,
/// ring 4]": what a genome chose (collectives only when the space has several).
std::string summary(const MappingSpace& s, const Genome& g) {
    // Per option of each list, the layers that chose it.
    IdVector<int> opt(s.partitions.size(), 0), route(s.routes.size(), 0), coll(s.collectives.size(), 0),
        weights(s.weights.size(), 0), inputs(s.inputs.size(), 0);
    int nonuniform = 0;
    for (const auto& l : g.layers) {
        ++opt[l.option];
        ++route[l.route];
        ++coll[l.collective];
        ++weights[l.weights];
        ++inputs[l.inputs];
        nonuniform += std::any_of(l.units.begin(), l.units.end(), [&](int u) { return u != s.units_per_part; });
    }
    std::string out = "partitions";
    for (int i = 0; i < opt.size(); ++i)
        if (opt[i]) out += " " + s.partitions[i].name() + " " + std::to_string(opt[i]);
    out += "; " + std::to_string(nonuniform) + " layers with non-uniform shares; routes";
    for (int i = 0; i < route.size(); ++i)
        if (route[i]) out += std::string(" ") + to_string(s.routes[i]) + " " + std::to_string(route[i]);
    if (s.collectives.size() > 1) {
        out += "; collectives";
        for (int i = 0; i < coll.size(); ++i)
            if (coll[i]) out += std::string(" ") + to_string(s.collectives[i]) + " " + std::to_string(coll[i]);
    }
    if (s.pipeline_segments.size() > 1) {
        const int n = s.pipeline_segments[g.segments];
        out += n > 1 ? "; pipelined over " + std::to_string(n) + " segments" : "; layer-sequential";
    }
    if (s.weights.size() > 1) {
        out += "; weights";
        for (int i = 0; i < weights.size(); ++i)
            if (weights[i]) out += std::string(" ") + to_string(s.weights[i]) + " " + std::to_string(weights[i]);
    }
    // Only layers that read a network input ever leave the first entry: name the others.
    for (int i = 1; i < inputs.size(); ++i)
        if (inputs[i]) out += std::string("; network inputs ") + to_string(s.inputs[i]) + " " + std::to_string(inputs[i]);
    return out;
}

/// A guided starting point: per layer the one-dimensional option (uniform shares, the first
/// route) with the least bottleneck time in the formulation — P or Q where activations
/// dominate the traffic, K where weights do.
Genome formulation_seed(const ArchConfig& arch, const Workload& w, const MappingSpace& ms) {
    MappingSpace one = ms;
    one.routes = {ms.routes.front()};
    Formulation f(arch, w, one);
    const int rows = arch.package.rows, cols = arch.package.cols;
    Genome g = uniform_genome(ms, w.layers.size(), 0, rows, cols);
    for (std::size_t l = 0; l < w.layers.size(); ++l) {
        double best = f.layer_cost(l, uniform_gene(ms, 0, rows, cols)).time_ns;
        for (int o = 1; o < ms.partitions.size(); ++o) {
            if (!ms.partitions[o].one_dimensional()) continue;
            double t = f.layer_cost(l, uniform_gene(ms, o, rows, cols)).time_ns;
            if (t < best) best = t, g.layers[l] = uniform_gene(ms, o, rows, cols);
        }
    }
    return g;
}

/// Rounds of the layered formulation around an incumbent, at most; and how many of each
/// round's best solutions the analytical model scores on their whole plans.
constexpr int kChainRounds = 2;
constexpr std::size_t kChainRescored = 16;
/// exhaustive: combinations of the layers' candidates it enumerates at most.
constexpr double kMaxEnumerated = 1e7;

std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

}  // namespace

std::vector<Genome> ga_seeds(const ArchConfig& arch, const Workload& w, const MappingSpace& ms) {
    const int rows = arch.package.rows, cols = arch.package.cols;
    std::vector<Genome> seeds;
    for (int opt = 0; opt < ms.partitions.size(); ++opt)
        seeds.push_back(uniform_genome(ms, w.layers.size(), opt, rows, cols));  // seeds[0]: the baseline
    seeds.push_back(formulation_seed(arch, w, ms));
    // Every other collective on the baseline partition and on the formulation-guided genome:
    // a relayed collective pays off on most layers at once (an all-gather per layer), which
    // single-layer mutations find only slowly.
    // The guided genome's relaying seeds also read a network input once where several
    // chiplets need it and the space has input multicast (the first layer's image: one read
    // instead of one per chiplet), which mutations of that one layer's gene find only slowly.
    // (The baseline's stay as the uniform mapper would build them with --collective.)
    const std::vector<bool> reads_input = network_input_layers(w);
    const auto found = std::find(ms.inputs.begin(), ms.inputs.end(), Delivery::Multicast);
    const int input_multicast = found == ms.inputs.end() ? 0 : static_cast<int>(found - ms.inputs.begin());
    auto relay_inputs = [&](Genome& g) {
        for (std::size_t l = 0; l < g.layers.size(); ++l)
            if (reads_input[l]) g.layers[l].inputs = input_multicast;
    };
    const Genome baseline = seeds.front(), guided = seeds.back();
    for (int c = 1; c < ms.collectives.size(); ++c)
        for (int k = 0; k < 2; ++k) {
            Genome g = k == 0 ? baseline : guided;
            for (auto& l : g.layers) l.collective = c;
            if (k == 1) relay_inputs(g);
            seeds.push_back(std::move(g));
        }
    // The guided genome under every collective with the other weight delivery (multicast):
    // where its partitions replicate filters, a weight read once and relayed saves DRAM and
    // edge links on every such layer at once.
    for (int wd = 1; wd < ms.weights.size(); ++wd)
        for (int c = 0; c < ms.collectives.size(); ++c) {
            Genome g = guided;
            for (auto& l : g.layers) l.collective = c, l.weights = wd;
            relay_inputs(g);
            seeds.push_back(std::move(g));
        }
    // The baseline pipelined over every other segment count.
    for (int s = 1; s < ms.pipeline_segments.size(); ++s) {
        Genome g = baseline;
        g.segments = s;
        seeds.push_back(std::move(g));
    }
    return seeds;
}

namespace {

/// `x` first in `v` and nowhere else: the baseline's value leads its list, since index 0 is
/// what the uniform genome takes.
template <class T, class Eq = std::equal_to<T>>
void put_first(IdVector<T>& list, const T& x, Eq eq = Eq{}) {
    std::vector<T>& v = list.vector();
    v.erase(std::remove_if(v.begin(), v.end(), [&](const T& y) { return eq(x, y); }), v.end());
    v.insert(v.begin(), x);
}

}  // namespace

SearchSpace mapping_space_for(const ArchConfig& arch, const Workload& w, const MapRequest& r) {
    SearchSpace s = r.space ? *r.space : default_search_space(w.batch > 1, arch.package.topology);
    // The baseline's partition, its route (the package's own routing, when the space has it),
    // its collective and network-input delivery and layer-sequential placement lead their lists.
    put_first(s.mapping.partitions, r.split);
    auto& routes = s.mapping.routes;
    // A torus or a graph routes every flow by its own rules: the mesh policies of a space all
    // come to the package's routing there, searched once.
    if (std::any_of(routes.begin(), routes.end(), [&](RoutePolicy rp) { return !route_policy_fits(rp, arch.package.topology); }))
        routes.vector() = {RoutePolicy::Package};
    const RoutePolicy own = package_route_policy(arch.package);
    if (std::find(routes.begin(), routes.end(), own) != routes.end()) put_first(routes, own);
    put_first(s.mapping.collectives, r.collective);
    put_first(s.mapping.inputs, r.inputs);
    // Segment counts the package cannot hold are an error in a space file and left out of
    // the default.
    auto& segs = s.mapping.pipeline_segments;
    const int most = std::min<int>(arch.package.cols, static_cast<int>(w.layers.size()));
    for (int n : segs)
        if (n > most && r.space)
            throw InputError(r.space->file, "/mapping/pipeline_segments",
                             "segment counts of at most " + std::to_string(most) + " (package columns, layers)",
                             std::to_string(n));
    segs.vector().erase(std::remove_if(segs.begin(), segs.end(), [&](int n) { return n > most; }), segs.end());
    put_first(segs, 1);
    return s;
}

namespace {

OptimizeResult run_ga(const ArchConfig& arch, const Workload& w, const MapRequest& req, OptimizeResult r) {
    const SearchSpace space = mapping_space_for(arch, w, req);
    const MappingSpace& ms = space.mapping;
    AnalyticalProblem problem(arch, w, ms);
    std::vector<Genome> seeds = ga_seeds(arch, w, ms);
    GaOptions go;
    go.seed = req.seed;
    go.objective = r.objective;
    go.population = req.population;
    go.generations = req.generations;
    go.budget_s = req.budget_s;
    go.polish_evaluations = req.polish_evaluations;
    go.progress = req.progress;
    GaResult g = run_genetic(problem, seeds, go);
    r.plan = plan_of(arch, w, ms, g.best, Optimizer::Ga, req.seed);
    r.chosen = g.best_score;
    r.detail = "ga: " + std::to_string(g.generations) + " generations, " + std::to_string(g.evaluations) + " plans scored" +
               (g.budget_hit ? " (stopped by the wall-clock budget)" : "") + "; " + summary(ms, g.best);
    return r;
}

/// Further candidates for the layered formulation: per layer, the shares that balance its
/// bottleneck best in the closed-form model (MCMComm's min-max over compute, links, NIs, PHYs
/// and DRAM channels at their own bandwidths; CBC on every one-dimensional option and
/// dimension-order route it covers, the least bottleneck kept), under every collective,
/// weight and input delivery of the space. One such layout per layer keeps the tables small.
std::vector<std::vector<LayerGene>> balanced_candidates(const ArchConfig& arch, const Workload& w, const MappingSpace& ms) {
    std::vector<std::vector<LayerGene>> extra(w.layers.size());
    if (arch.package.topology != PackageTopology::Mesh) return extra;
    MappingSpace fs = formulation_space(ms);
    Formulation f(arch, w, fs);
    const std::vector<bool> reads_input = network_input_layers(w);
    const int rows = arch.package.rows, cols = arch.package.cols;
    for (std::size_t l = 0; l < w.layers.size(); ++l) {
        LayerGene best;
        double least = std::numeric_limits<double>::infinity();
        for (int o = 0; o < fs.partitions.size(); ++o)
            for (int r = 0; r < fs.routes.size(); ++r) {
                // The closed-form model's bound is loose enough that a 1e-3 gap and 200 nodes
                // find its shares; a count, not the clock, so the plan is the same anywhere.
                LayerGene g;
                g.option = o, g.route = r;
                g.units = balanced_units(f, l, o, r, 1e-3, 200);
                const double t = f.layer_cost(l, g).time_ns;
                if (t < least) least = t, best = g;
            }
        if (least == std::numeric_limits<double>::infinity()) continue;
        LayerGene g;
        g.option = static_cast<int>(std::find(ms.partitions.begin(), ms.partitions.end(), fs.partitions[best.option]) -
                                    ms.partitions.begin());
        g.route = static_cast<int>(std::find(ms.routes.begin(), ms.routes.end(), fs.routes[best.route]) - ms.routes.begin());
        g.units = best.units;
        if (g.units == uniform_gene(ms, g.option, rows, cols).units) continue;
        const int weight_choices = w.layers[l].weight_bytes() > 0 ? ms.weights.size() : 1;
        const int input_choices = reads_input[l] ? ms.inputs.size() : 1;
        for (int c = 0; c < ms.collectives.size(); ++c)
            for (int wd = 0; wd < weight_choices; ++wd)
                for (int in = 0; in < input_choices; ++in) {
                    g.collective = c, g.weights = wd, g.inputs = in;
                    extra[l].push_back(g);
                }
    }
    return extra;
}

/// milp and exhaustive: the layered formulation (chain_formulation.h) over the space's
/// layer-sequential share, solved exactly by dynamic programming, or enumerated.
OptimizeResult run_formulation(const ArchConfig& arch, const Workload& w, const MapRequest& req, OptimizeResult r) {
    const SearchSpace space = mapping_space_for(arch, w, req);
    MappingSpace ms = space.mapping;
    ms.pipeline_segments = {1};  // layers one after the other on all chiplets
    const int rows = arch.package.rows, cols = arch.package.cols;
    const Genome uniform = uniform_genome(ms, w.layers.size(), 0, rows, cols);
    Genome incumbent = uniform;
    std::string warm = "uniform";
    ChainOptions co;
    if (req.optimizer == Optimizer::Milp) {
        // Warm start: the GA's plan (the same seed and budget as `--optimizer ga`), whose genes
        // become candidates, so the optimum is never worse than it in the formulation.
        const AnalyticalProblem problem(arch, w, ms);
        GaOptions go;
        go.objective = r.objective;
        go.seed = req.seed;
        go.population = req.population;
        go.generations = req.generations;
        go.budget_s = req.budget_s;
        go.polish_evaluations = req.polish_evaluations;
        incumbent = run_genetic(problem, ga_seeds(arch, w, ms), go).best;
        warm = "ga";
        co.extra = balanced_candidates(arch, w, ms);
    }
    // Each round: the formulation around the incumbent (its genes for the layers a layer's
    // plan in context holds besides itself and the layer before), solved exactly; its best
    // solutions and the incumbent are scored by the analytical model on their whole plans,
    // and the best of them is the next incumbent, until a round finds none better.
    const AnalyticalProblem whole(arch, w, ms);
    Score incumbent_score = whole.evaluate(incumbent);
    ChainResult solved;
    std::size_t priced = 0, scored = 1;
    int rounds = 0;
    std::optional<ChainFormulation> f;
    Genome formulation_best;
    Score formulation_best_score;
    while (rounds < kChainRounds) {
        ++rounds;
        if (req.optimizer == Optimizer::Exhaustive) co.max_combinations = kMaxEnumerated;
        f.emplace(arch, w, ms, incumbent, co);
        priced += f->priced();
        if (req.optimizer == Optimizer::Exhaustive) {
            solved = enumerate_chain(*f, r.objective);
            formulation_best = solved.best, formulation_best_score = solved.score;
            incumbent = solved.best;
            break;
        }
        ChainSolveOptions so;
        so.keep_best = kChainRescored;
        // The incumbent is a solution of the formulation: fronts too large to keep whole
        // first lose what cannot beat it.
        so.upper_bound = f->score(incumbent).value(r.objective);
        solved = solve_chain(*f, r.objective, so);
        formulation_best = solved.best, formulation_best_score = solved.score;
        bool better = false;
        auto consider = [&](const Genome& g) {
            const Score sc = whole.evaluate(g);
            ++scored;
            if (sc.value(r.objective) < incumbent_score.value(r.objective)) {
                incumbent = g, incumbent_score = sc, better = true;
                return true;
            }
            return false;
        };
        for (const Genome& g : solved.best_few) consider(g);
        // The formulation misses how a layer's choice shows on consumers further on (a
        // residual join) and on layers beyond the two it is priced with: its best solutions'
        // genes are also tried one layer at a time on the incumbent, and kept where the whole
        // plan is better.
        for (std::size_t l = 0; l < w.layers.size(); ++l) {
            std::vector<LayerGene> tried{incumbent.layers[l]};
            for (const Genome& g : solved.best_few) {
                if (std::find(tried.begin(), tried.end(), g.layers[l]) != tried.end()) continue;
                tried.push_back(g.layers[l]);
                Genome moved = incumbent;
                moved.layers[l] = g.layers[l];
                consider(moved);
            }
        }
        if (!better) break;
    }
    if (req.optimizer == Optimizer::Milp) {
        char gap[32];
        std::snprintf(gap, sizeof gap, "%.3g", 100 * solved.gap);
        r.detail = "milp: layered formulation from the " + warm + " plan, " + std::to_string(priced) + " layer plans priced, " +
                   std::to_string(rounds) + " rounds, formulation " +
                   (solved.proven ? "solved to optimality (gap 0 %)" : "gap " + std::string(gap) + " %") + ", " +
                   std::to_string(scored) + " whole plans scored";
    } else {
        r.detail = "exhaustive: " + std::to_string(solved.visited) + " combinations";
    }
    ChainResult best;
    best.best = incumbent;
    best.score = f->score(incumbent);
    r.detail += "; " + summary(ms, best.best);
    r.formulation_uniform = f->score(uniform);
    r.formulation_chosen = formulation_best_score;
    r.plan = plan_of(arch, w, ms, best.best, req.optimizer, req.seed);
    r.chosen = analytical(arch, r.plan);
    return r;
}

}  // namespace

OptimizeResult optimize_mapping(const ArchConfig& arch, const Workload& w, const MapRequest& req) {
    check_request(arch, req);
    // A micro-batch is a slice of the batch: one larger than it has nothing to stream.
    if (req.placement == Placement::Pipelined && req.micro_batch > w.batch)
        throw RequestError("micro_batch", "a micro-batch of at most the batch (" + std::to_string(w.batch) + " samples)",
                           std::to_string(req.micro_batch));
    OptimizeResult r;
    r.objective = req.objective;
    MapRequest base = req;
    base.optimizer = Optimizer::Uniform;
    Plan uniform = uniform_plan(arch, w, base);
    r.uniform = analytical(arch, uniform);
    switch (req.optimizer) {
        case Optimizer::Uniform:
            r.plan = std::move(uniform);
            r.chosen = r.uniform;
            return r;
        case Optimizer::Nonuniform:
            r.plan = map_nonuniform(arch, w, split_partition(req), req.seed);
            r.chosen = analytical(arch, r.plan);
            return r;
        case Optimizer::Ga:
            return run_ga(arch, w, req, std::move(r));
        case Optimizer::Milp:
        case Optimizer::Exhaustive:
            return run_formulation(arch, w, req, std::move(r));
    }
    return r;
}

Plan map_workload(const ArchConfig& arch, const Workload& w, const MapRequest& r) { return optimize_mapping(arch, w, r).plan; }

std::string improvement_line(const OptimizeResult& r, Optimizer optimizer) {
    const char* unit = printable_unit(r.objective);
    const char* name = to_string(optimizer);
    std::string s = "improvement over uniform (analytical model): " + fmt(r.improvement()) + "x " + to_string(r.objective) +
                    " (uniform " + fmt(printable(r.uniform, r.objective)) + " " + unit + ", " + name + " " +
                    fmt(printable(r.chosen, r.objective)) + " " + unit + ")";
    if (r.formulation_uniform && r.formulation_chosen)
        s += "; formulation objective " +
             fmt(r.formulation_uniform->value(r.objective) / r.formulation_chosen->value(r.objective)) + "x (uniform " +
             fmt(printable(*r.formulation_uniform, r.objective)) + ", " + name + " " +
             fmt(printable(*r.formulation_chosen, r.objective)) + " " + unit + ")";
    return s;
}

}  // namespace mcmsim
