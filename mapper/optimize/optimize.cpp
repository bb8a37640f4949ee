#include "mapper/optimize/optimize.h"

#include "hw/common/input_error.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/exhaustive.h"
#include "mapper/optimize/formulation.h"
#include "mapper/optimize/genetic.h"
#include "mapper/optimize/milp.h"
#include "mapper/optimize/problem.h"
#include "mapper/plan_builder/plan_builder.h"

#include <algorithm>
#include <cstdio>
#include <functional>

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

/// milp and exhaustive: the formulation's share of the space, solved exactly or sampled.
OptimizeResult run_formulation(const ArchConfig& arch, const Workload& w, const MapRequest& req, OptimizeResult r) {
    const SearchSpace space = mapping_space_for(arch, w, req);
    const MappingSpace fs = formulation_space(space.mapping);
    Formulation f(arch, w, fs);
    Genome best;
    if (req.optimizer == Optimizer::Milp) {
        MilpOptions mo;
        mo.objective = r.objective;
        mo.budget_s = req.budget_s;
        mo.progress = req.progress;
        // Beyond tiny packages a layer's front can hold thousands of points: sample it.
        if (f.chiplets() > 4) {
            mo.max_front_points = 3;
            mo.split_combos = true;
            mo.gap = 1e-3;
            mo.max_nodes = 200;
            // Bounded by a count of solves, not by the clock, so that the same inputs give the
            // same plan on any machine (budget_s adds a wall-clock limit); layers the count
            // does not reach keep the baseline.
            mo.max_solves = 1500;
        }
        MilpResult m = run_milp(f, mo);
        best = m.best;
        r.detail = "milp: " + m.method + ", " + std::to_string(m.solves) + " CBC solves" + (m.exact ? "" : " (not proven exact)");
    } else {
        ExhaustiveResult e = run_exhaustive(f, r.objective);
        best = e.best;
        r.detail = "exhaustive: " + std::to_string(e.options_per_layer) + " candidates per layer";
    }
    r.detail += "; " + summary(fs, best);
    if (!f.covers()) r.detail += "; formulation approximate: " + f.not_covered();
    r.formulation_uniform = f.score(uniform_genome(fs, w.layers.size(), 0, arch.package.rows, arch.package.cols));
    r.formulation_chosen = f.score(best);
    r.plan = plan_of(arch, w, fs, best, req.optimizer, req.seed);
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
