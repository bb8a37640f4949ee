// The genetic optimiser: deterministic for a seed whatever the threads, never worse than its
// seeds, pipelined genomes, collectives and network-input delivery in its space.
#include "hw/common/input_error.h"
#include "hw/config/presets.h"
#include "hw/dram/dram_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/exhaustive.h"
#include "mapper/optimize/formulation.h"
#include "mapper/optimize/genetic.h"
#include "mapper/optimize/hardware_point.h"
#include "mapper/optimize/milp.h"
#include "mapper/optimize/optimize.h"
#include "mapper/optimize/pareto.h"
#include "mapper/optimize/tiny_instance.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "tests/mapper/optimize/optimizer_instances.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <set>

namespace mcmsim {
namespace test_genetic {

using namespace optimizer_test;

TEST(Genetic, SameSeedSameResultWhateverTheThreads) {
    TinyInstance t = tiny_instance(5);
    Formulation f(t.arch, t.workload, t.space);
    FormulationProblem prob(f);
    GaOptions one = tiny_ga(9), two = tiny_ga(9);
    one.threads = 1, two.threads = 2;
    one.polish_evaluations = two.polish_evaluations = 0;
    one.generations = two.generations = 10;
    GaResult a = run_genetic(prob, uniform_seeds(t.space, 3, 2, 2), one);
    GaResult b = run_genetic(prob, uniform_seeds(t.space, 3, 2, 2), two);
    EXPECT_TRUE(a.best == b.best);
    EXPECT_EQ(a.evaluations, b.evaluations);
}

TEST(Genetic, NeverWorseThanTheUniformBaselineOnThePlan) {
    ArchConfig a = load_arch_config(default_config_dir() + "/arch/mcm-2x2.json");
    TinyInstance t = tiny_instance(2);
    MapRequest o;
    o.optimizer = Optimizer::Ga;
    o.population = 8;
    o.generations = 3;
    OptimizeResult r = optimize_mapping(a, t.workload, o);
    EXPECT_LE(r.chosen.value(Objective::Edp), r.uniform.value(Objective::Edp));
    // The plan is the one scored: the analytical model gives the same figures again.
    Estimate e = estimate_plan(a, r.plan);
    EXPECT_DOUBLE_EQ(e.latency_ns, r.chosen.latency_ns);
    // Same seed, same plan.
    OptimizeResult again = optimize_mapping(a, t.workload, o);
    EXPECT_EQ(plan_to_json(r.plan).dump(), plan_to_json(again.plan).dump());
}

TEST(Genetic, PipelinedGenomesPlaceLayersOnDisjointBands) {
    const ArchConfig a = load_arch_config(default_config_dir() + "/arch/mcm-4x4-organic-hbm-edge.json");
    Workload w = zoo_workload("resnet50", 2);
    MapRequest mo;
    const MappingSpace ms = mapping_space_for(a, w, mo).mapping;
    ASSERT_EQ(ms.pipeline_segments, (std::vector<int>{1, 2, 3, 4}));
    const std::vector<Genome> seeds = ga_seeds(a, w, ms);
    for (int s = 1; s < 4; ++s) {
        Genome want = seeds.front();
        want.segments = s;
        EXPECT_EQ(std::count(seeds.begin(), seeds.end(), want), 1) << ms.pipeline_segments[s] << " segments";
    }
    // Two segments: every layer on one of two column bands that do not overlap; the first
    // layer on the first band, the last on the second; two plan layers (samples) per layer.
    Genome g = seeds.front();
    g.segments = 1;
    Plan p = build_plan(a, w, to_mapping(ms, g, w, a.package.rows, a.package.cols));
    ASSERT_EQ(p.layers.size(), 2 * w.layers.size());
    std::map<int, std::set<int>> chiplets;
    for (const PlanLayer& l : p.layers) {
        ASSERT_TRUE(l.mapping.has_value());
        for (const PlanOp& op : l.ops)
            if (op.kind == OpKind::Compute) chiplets[l.mapping->segment].insert(op.chiplet);
    }
    ASSERT_EQ(chiplets.size(), 2u);
    for (int c : chiplets[0]) EXPECT_EQ(chiplets[1].count(c), 0u) << "chiplet " << c << " in both segments";
    EXPECT_EQ(p.layers.front().mapping->segment, 0);
    EXPECT_EQ(p.layers.back().mapping->segment, 1);
    // Moving the boundary by +3 layers: the first segment ends three layers later than the
    // MAC-balanced cut (read from the unshifted plan).
    auto first_of_second = [&](const Plan& plan) {
        std::size_t k = 0;  // index among sample 0's plan layers: the workload layer
        for (const PlanLayer& l : plan.layers) {
            if (l.mapping->micro_batch != 0) continue;
            if (l.mapping->segment == 1) return k;
            ++k;
        }
        return k;
    };
    g.boundary_shift = {3};
    Plan shifted = build_plan(a, w, to_mapping(ms, g, w, a.package.rows, a.package.cols));
    EXPECT_EQ(first_of_second(shifted), first_of_second(p) + 3);
}

TEST(Genetic, SeededWithTheBaselineUnderEveryCollective) {
    ArchConfig a = load_arch_config(default_config_dir() + "/arch/mcm-4x4-organic-hbm-edge.json");
    Workload w = zoo_workload("resnet50", 1);
    MapRequest mo;
    const MappingSpace ms = mapping_space_for(a, w, mo).mapping;
    ASSERT_EQ(ms.collectives.front(), Collective::Direct);
    const std::vector<Genome> seeds = ga_seeds(a, w, ms);
    // For every other collective, the baseline genome with all layers on it is a seed.
    for (int c = 1; c < ms.collectives.size(); ++c) {
        Genome want = seeds.front();
        for (auto& l : want.layers) l.collective = c;
        EXPECT_EQ(std::count(seeds.begin(), seeds.end(), want), 1) << to_string(ms.collectives[c]);
    }
    // So a GA that only scores its seeds is already as good as the uniform ring plan, scored
    // here through the uniform mapper rather than the genome. On this package the ring beats
    // direct (an all-gather per layer relayed over neighbours), which makes the check bite.
    auto edp = [&](Collective collective) {
        MapRequest u;
        u.collective = collective;
        Estimate e = estimate_plan(a, map_workload(a, w, u));
        return e.latency_ns * e.ledger.total_pj();
    };
    const double ring = edp(Collective::Ring);
    ASSERT_LT(ring, edp(Collective::Direct));
    AnalyticalProblem prob(a, w, ms);
    GaOptions o;
    o.population = static_cast<int>(seeds.size());
    o.generations = 0;
    o.polish_evaluations = 0;
    GaResult r = run_genetic(prob, seeds, o);
    EXPECT_LE(r.best_score.latency_ns * r.best_score.energy_pj, ring * (1 + 1e-9));
}

TEST(Genetic, SearchesNetworkInputDeliveryOnlyWhereALayerReadsOne) {
    ArchConfig a = load_arch_config(default_config_dir() + "/arch/mcm-4x4-organic-hbm-edge.json");
    Workload w = zoo_workload("resnet50", 1);
    const MappingSpace ms = mapping_space_for(a, w, MapRequest{}).mapping;
    ASSERT_EQ(ms.inputs, (std::vector<Delivery>{Delivery::Unicast, Delivery::Multicast}));  // the baseline's first
    // ResNet-50's stem is the only layer that reads the network's input (the image); every
    // other layer reads what an earlier layer produced.
    const std::vector<bool> reads = network_input_layers(w);
    ASSERT_EQ(reads.size(), w.layers.size());
    EXPECT_TRUE(reads[0]);
    EXPECT_EQ(std::count(reads.begin(), reads.end(), true), 1);

    // The guided genome's relaying seeds read the image once (multicast) and leave the other
    // layers' gene alone; the baseline reads it per chiplet, under every collective.
    const std::vector<Genome> seeds = ga_seeds(a, w, ms);
    const Genome& guided = seeds[ms.partitions.size()];  // after one uniform seed per option
    for (const Genome* g : {&seeds.front(), &guided})
        EXPECT_TRUE(std::all_of(g->layers.begin(), g->layers.end(), [](const LayerGene& l) { return l.inputs == 0; }));
    Genome ring = guided;
    for (auto& l : ring.layers) l.collective = 1;
    ring.layers[0].inputs = 1;
    EXPECT_EQ(std::count(seeds.begin(), seeds.end(), ring), 1);
    const Mapping m = to_mapping(ms, ring, w, a.package.rows, a.package.cols);
    EXPECT_TRUE(m.layers[0].input_multicast);
    EXPECT_FALSE(m.layers[1].input_multicast);

    // A search changes the gene only on the stem.
    AnalyticalProblem prob(a, w, ms);
    GaOptions o;
    o.seed = 3;
    o.population = static_cast<int>(seeds.size());
    o.generations = 3;
    o.polish_evaluations = 60;
    GaResult r = run_genetic(prob, seeds, o);
    for (std::size_t l = 1; l < r.best.layers.size(); ++l) EXPECT_EQ(r.best.layers[l].inputs, 0) << "layer " << l;
}

TEST(Genetic, SearchesCollectivesDeterministicallyAndThePlanCarriesThem) {
    TinyInstance t = tiny_instance(4);
    t.space.collectives = {Collective::Direct, Collective::Ring, Collective::TwoD, Collective::Tree};
    AnalyticalProblem prob(t.arch, t.workload, t.space);
    GaOptions o = tiny_ga(6);
    o.population = 12;
    o.generations = 8;
    o.polish_evaluations = 200;
    const std::vector<Genome> seeds = uniform_seeds(t.space, 3, 2, 2);
    GaResult a = run_genetic(prob, seeds, o);
    GaResult b = run_genetic(prob, seeds, o);
    EXPECT_TRUE(a.best == b.best);
    EXPECT_EQ(a.evaluations, b.evaluations);
    EXPECT_LE(a.best_score.value(Objective::Edp), prob.evaluate(seeds[0]).value(Objective::Edp));
    // The plan built from the genome records each layer's chosen collective.
    Plan plan = build_plan(t.arch, t.workload, to_mapping(t.space, a.best, t.workload, 2, 2));
    ASSERT_EQ(plan.layers.size(), a.best.layers.size());
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        ASSERT_TRUE(plan.layers[l].mapping.has_value());
        EXPECT_EQ(plan.layers[l].mapping->collective, to_string(t.space.collectives[a.best.layers[l].collective]));
    }
    // A one-collective space forces it on every layer.
    t.space.collectives = {Collective::Tree};
    AnalyticalProblem tree(t.arch, t.workload, t.space);
    GaResult c = run_genetic(tree, uniform_seeds(t.space, 3, 2, 2), o);
    Plan tp = build_plan(t.arch, t.workload, to_mapping(t.space, c.best, t.workload, 2, 2));
    for (const PlanLayer& l : tp.layers) EXPECT_EQ(l.mapping->collective, "tree");
}

}  // namespace test_genetic
}  // namespace mcmsim
