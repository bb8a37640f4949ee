// The optimisers against each other on seeded tiny instances (2x2 package, 3 layers), the
// formulation against hand arithmetic, the GA's determinism, search-space errors.
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
namespace test_optimizers {

using namespace optimizer_test;

TEST(Compositions, CountIsStarsAndBars) {
    // Ways to put 8 identical units into 4 parts: C(8 + 3, 3) = 165; 4 into 4: C(7, 3) = 35.
    EXPECT_EQ(compositions(8, 4).size(), 165u);
    EXPECT_EQ(compositions(4, 4).size(), 35u);
    for (const auto& c : compositions(5, 3)) EXPECT_EQ(c[0] + c[1] + c[2], 5);
}

TEST(Formulation, UniformKSplitOfAnFcLayerByHand) {
    // 1024 x 1024 fc, one row, on mcm-2x2 (64 MAC/ns chiplets, 64 GB/s UCIe links and NIs,
    // HBM2 256 GB/s on router (0,0)). K split, 2 units each: every chiplet reads a quarter of
    // the 1 MiB weights plus the whole 1 KiB input. With XY routes link (0,0)->E carries the
    // inputs of chiplets 1 and 3: 2 x (262144 + 1024) B / 64 B/ns = 8224 ns, more than any
    // chiplet's compute (262144 MAC / 64 = 4096 ns), NI (4112 ns) or the DRAM (4116 ns).
    ArchConfig a = load_arch_config(default_config_dir() + "/arch/mcm-2x2.json");
    Workload w;
    Layer L;
    L.kind = LayerKind::FullyConnected;
    L.c = 1024, L.k = 1024;
    w.layers.push_back(L);
    MappingSpace s;
    s.partitions = {*parse_partition_option("k"), *parse_partition_option("p")};
    s.units_per_part = 2;
    s.routes = {RoutePolicy::XY, RoutePolicy::YX};
    Formulation f(a, w, s);
    ASSERT_TRUE(f.covers());
    LayerGene g{0, {2, 2, 2, 2}, 0};
    LayerCost c = f.layer_cost(0, g);
    EXPECT_NEAR(c.time_ns, 8224.0, 1e-9);
    // Energy per byte: DRAM read + 0.6 pJ/b per link hop + 42 pJ per 32-B flit per router.
    const double dram = 8 * dram_stream_pj_per_bit(a.memories[0].dram, true),
                 out = 8 * dram_stream_pj_per_bit(a.memories[0].dram, false);
    auto per_byte = [&](double d, int hops) { return d + 8 * 0.6 * hops + 42.0 / 32.0 * (hops + 1); };
    const double in_b = 262144 + 1024, out_b = 256;
    double expect = 0;
    for (int hops : {0, 1, 1, 2}) expect += in_b * per_byte(dram, hops) + out_b * per_byte(out, hops);
    EXPECT_NEAR(c.energy_pj, expect, 1e-6 * expect);
    // P split (one output row: the formulation still splits the input bytes): every chiplet
    // reads all the weights, so the link (0,0)->E carries 2 x (1 MiB + 256 B).
    LayerCost p = f.layer_cost(0, LayerGene{1, {2, 2, 2, 2}, 0});
    EXPECT_NEAR(p.time_ns, 2 * (1048576.0 + 256) / 64, 1e-9);
}

TEST(Formulation, TwoDimensionalSplitsAreNotCovered) {
    TinyInstance t = tiny_instance(1);
    t.space.partitions.push_back(*parse_partition_option("pxk"));
    Formulation f(t.arch, t.workload, t.space);
    EXPECT_FALSE(f.covers());
    EXPECT_THROW(run_exhaustive(f, Objective::Edp), InputError);
}

TEST(Exhaustive, ParetoMergeEqualsPlainEnumeration) {
    // Independent check of the exhaustive search's pruning: with 1 unit per chiplet (35
    // compositions x 4 options x 2 routes = 280 per layer) all 280^3 = 21,952,000
    // combinations can be enumerated plainly from per-layer costs.
    TinyInstance t = tiny_instance(7);
    t.space.units_per_part = 1;
    Formulation f(t.arch, t.workload, t.space);
    ExhaustiveResult ex = run_exhaustive(f, Objective::Edp);
    auto comps = compositions(4, 4);
    std::vector<std::vector<LayerCost>> costs(3);
    for (std::size_t l = 0; l < 3; ++l)
        for (int o = 0; o < 4; ++o)
            for (int r = 0; r < 2; ++r)
                for (const auto& u : comps) costs[l].push_back(f.layer_cost(l, LayerGene{o, u, r}));
    double best = std::numeric_limits<double>::infinity();
    for (const auto& a : costs[0])
        for (const auto& b : costs[1])
            for (const auto& c : costs[2]) best = std::min(best, f.total({a, b, c}).value(Objective::Edp));
    EXPECT_TRUE(rel_equal(ex.score.value(Objective::Edp), best, 1e-9)) << ex.score.value(Objective::Edp) << " vs " << best;
}

TEST(TinyInstances, ExhaustiveMilpAndGaAgree) {
    int milp_match = 0, ga_match = 0, covered = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        TinyInstance t = tiny_instance(seed);
        Formulation f(t.arch, t.workload, t.space);
        ASSERT_TRUE(f.covers());
        ++covered;
        ExhaustiveResult ex = run_exhaustive(f, Objective::Edp);
        MilpResult mi = run_milp(f, MilpOptions{});
        FormulationProblem prob(f);
        GaResult ga = run_genetic(prob, uniform_seeds(t.space, 3, 2, 2), tiny_ga(seed));
        const double opt = ex.score.value(Objective::Edp);
        const double m = mi.score.value(Objective::Edp), g = ga.best_score.value(Objective::Edp);
        EXPECT_EQ(mi.method, "per-layer fronts");
        EXPECT_TRUE(mi.exact);
        EXPECT_GE(m, opt * (1 - 1e-9)) << "seed " << seed;  // nothing beats the exhaustive optimum
        EXPECT_GE(g, opt * (1 - 1e-9)) << "seed " << seed;
        EXPECT_LE(m, g * (1 + 1e-6)) << "seed " << seed;  // milp never worse than ga
        milp_match += rel_equal(m, opt);
        ga_match += rel_equal(g, opt);
        if (!rel_equal(g, opt))
            std::printf("seed %llu: ga %.9g vs optimum %.9g\n", static_cast<unsigned long long>(seed), g, opt);
    }
    std::printf("tiny instances: %d covered, milp matches %d, ga matches %d\n", covered, milp_match, ga_match);
    EXPECT_EQ(milp_match, covered);
    EXPECT_GE(ga_match, 19);
}

// A count of solves bounds the MILP the same way on any machine. With one solve allowed, the
// first layer's front search makes its first pair of solves (min T, then min E at that T),
// then stops; the other two layers are not reached and keep the uniform baseline.
TEST(Milp, SolveCountBoundsTheSearchDeterministically) {
    TinyInstance t = tiny_instance(1);
    Formulation f(t.arch, t.workload, t.space);
    MilpOptions o;
    o.max_solves = 1;
    MilpResult a = run_milp(f, o), b = run_milp(f, o);
    EXPECT_EQ(a.solves, 2);
    EXPECT_FALSE(a.exact);
    ASSERT_EQ(a.best.layers.size(), 3u);
    const LayerGene baseline = uniform_gene(f.space(), 0, f.rows(), f.cols());
    EXPECT_EQ(a.best.layers[1], baseline);
    EXPECT_EQ(a.best.layers[2], baseline);
    EXPECT_EQ(a.best, b.best);
    EXPECT_EQ(a.score.value(Objective::Edp), b.score.value(Objective::Edp));
}

TEST(TinyInstances, LatencyAndEnergyObjectivesAgreeToo) {
    for (std::uint64_t seed : {3u, 11u}) {
        TinyInstance t = tiny_instance(seed);
        Formulation f(t.arch, t.workload, t.space);
        for (Objective o : {Objective::Latency, Objective::Energy}) {
            ExhaustiveResult ex = run_exhaustive(f, o);
            MilpOptions mo;
            mo.objective = o;
            MilpResult mi = run_milp(f, mo);
            EXPECT_TRUE(rel_equal(ex.score.value(o), mi.score.value(o))) << to_string(o) << " seed " << seed;
        }
    }
}

TEST(Formulation, RelayedCollectivesAreNotCovered) {
    TinyInstance t = tiny_instance(1);
    t.space.collectives = {Collective::Direct, Collective::Ring};
    Formulation f(t.arch, t.workload, t.space);
    EXPECT_FALSE(f.covers());
    EXPECT_THROW(run_exhaustive(f, Objective::Edp), InputError);
}

// milp and exhaustive search the layered formulation over the space's collectives too: with
// relayed collectives in the space, exhaustive's optimum is no worse in the formulation than
// with direct alone (the same candidates and more, priced alike); milp starts from the GA's
// plan and keeps only what the whole plan's analytical model finds better, so its plan is
// never worse than the GA's.
TEST(Optimize, MilpAndExhaustiveSearchCollectives) {
    ArchConfig a = load_arch_config(default_config_dir() + "/arch/mcm-2x2.json");
    TinyInstance t = tiny_instance(3);
    auto space = [](const char* collectives) {
        return load_search_space(write_temp("colls.json", std::string(
                                                              R"({"mapping": {"partitions": ["k", "p"], "units_per_part": 1,
        "routes": ["xy"], "collectives": )") + collectives + "}}"));
    };
    MapRequest o;
    o.optimizer = Optimizer::Exhaustive;
    o.space = space(R"(["direct", "ring"])");
    const OptimizeResult all = optimize_mapping(a, t.workload, o);
    o.space = space(R"(["direct"])");
    const OptimizeResult direct = optimize_mapping(a, t.workload, o);
    ASSERT_TRUE(all.formulation_chosen && direct.formulation_chosen);
    EXPECT_LE(all.formulation_chosen->value(Objective::Edp), direct.formulation_chosen->value(Objective::Edp) * (1 + 1e-12));
    o.space = space(R"(["direct", "ring"])");
    o.optimizer = Optimizer::Ga;
    const OptimizeResult ga = optimize_mapping(a, t.workload, o);
    o.optimizer = Optimizer::Milp;
    const OptimizeResult milp = optimize_mapping(a, t.workload, o);
    EXPECT_LE(milp.chosen.value(Objective::Edp), ga.chosen.value(Objective::Edp) * (1 + 1e-12));
}

}  // namespace test_optimizers
}  // namespace mcmsim
