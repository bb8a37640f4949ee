// The layered formulation (chain_formulation.h) and its exact solution (chain_solver.h):
// a one-layer workload's formulation is the analytical model itself; on the seeded tiny
// instances, over their whole gene space, the dynamic programme finds what plain enumeration
// finds, for every objective, and no GA run on the formulation beats it; a front thinned by
// the label budget reports a gap.
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/chain_formulation.h"
#include "mapper/optimize/chain_solver.h"
#include "mapper/optimize/genetic.h"
#include "mapper/optimize/problem.h"
#include "mapper/optimize/tiny_instance.h"
#include "mapper/plan_builder/plan_builder.h"

#include <gtest/gtest.h>

#include <cmath>

namespace mcmsim {
namespace test_chain_formulation {

/// The formulation as a Problem, for the GA.
class ChainProblem : public Problem {
public:
    ChainProblem(const ChainFormulation& f, const TinyInstance& t)
        : Problem(f.space(), f.layers(), t.arch.package.rows, t.arch.package.cols), f_(f) {}
    Score evaluate(const Genome& g) const override { return f_.score(g); }

private:
    const ChainFormulation& f_;
};

/// A tiny instance whose whole gene space the formulation takes: one share unit per chiplet
/// (35 share vectors over the 2 x 2 package), the XY route.
TinyInstance whole_space_instance(std::uint64_t seed) {
    TinyInstance t = tiny_instance(seed);
    t.space.units_per_part = 1;
    t.space.routes = {RoutePolicy::XY};
    return t;
}

// One layer alone: nothing before it, nothing after; its plan in context is the whole plan,
// so the formulation's latency is the model's and its energy the model's up to refresh, which
// the model counts in whole refresh intervals and the formulation as a power.
TEST(ChainFormulation, OneLayerIsTheAnalyticalModel) {
    TinyInstance t = tiny_instance(3);
    t.workload.layers.resize(1);
    const Genome g = uniform_genome(t.space, 1, 2, t.arch.package.rows, t.arch.package.cols);
    const ChainFormulation f(t.arch, t.workload, t.space, g);
    const Score s = f.score(g);
    const Estimate e = estimate_plan(
        t.arch, build_plan(t.arch, t.workload, to_mapping(t.space, g, t.workload, t.arch.package.rows, t.arch.package.cols)));
    EXPECT_NEAR(s.latency_ns, e.latency_ns, 1e-9 * e.latency_ns);
    double one_refresh = 0;
    for (const MemoryConfig& m : t.arch.memories) one_refresh += m.dram.units() * m.dram.org.ranks * m.dram.energy.ref_pj;
    EXPECT_NEAR(s.energy_pj, e.ledger.total_pj(), one_refresh + 1e-9 * e.ledger.total_pj());
}

class TinyChain : public ::testing::TestWithParam<int> {};

TEST_P(TinyChain, DynamicProgrammeEqualsEnumerationAndBeatsTheGa) {
    const TinyInstance t = whole_space_instance(static_cast<std::uint64_t>(GetParam()));
    const int rows = t.arch.package.rows, cols = t.arch.package.cols;
    const ChainFormulation f(t.arch, t.workload, t.space, uniform_genome(t.space, t.workload.layers.size(), 0, rows, cols));
    // Every gene of every layer: 4 partitions x 35 share vectors.
    for (std::size_t l = 0; l < f.layers(); ++l) ASSERT_EQ(f.candidates(l).size(), 140u);
    for (Objective o : {Objective::Edp, Objective::Latency, Objective::Energy}) {
        const ChainResult dp = solve_chain(f, o), all = enumerate_chain(f, o);
        EXPECT_TRUE(dp.proven);
        EXPECT_NEAR(dp.score.value(o), all.score.value(o), 1e-6 * all.score.value(o)) << to_string(o);
        // The solution's own score agrees with the programme's sum.
        EXPECT_NEAR(f.score(dp.best).value(o), dp.score.value(o), 1e-9 * dp.score.value(o)) << to_string(o);
    }
    const ChainProblem problem(f, t);
    GaOptions go;
    go.seed = static_cast<std::uint64_t>(GetParam());
    go.population = 12;
    go.generations = 8;
    go.polish_evaluations = 40;
    const GaResult ga = run_genetic(problem, {uniform_genome(t.space, f.layers(), 0, rows, cols)}, go);
    EXPECT_GE(ga.best_score.value(Objective::Edp), solve_chain(f, Objective::Edp).score.value(Objective::Edp) * (1 - 1e-9));
}

INSTANTIATE_TEST_SUITE_P(Seeds, TinyChain, ::testing::Range(1, 21));

// A label budget of two points per state thins the fronts: the answer is no better than the
// exact one and says how far from a lower bound it may be.
TEST(ChainSolver, AThinnedFrontReportsItsGap) {
    const TinyInstance t = whole_space_instance(4);
    const ChainFormulation f(t.arch, t.workload, t.space,
                             uniform_genome(t.space, t.workload.layers.size(), 0, t.arch.package.rows, t.arch.package.cols));
    ChainSolveOptions thin;
    thin.max_labels = 2;
    const ChainResult exact = solve_chain(f, Objective::Edp), cut = solve_chain(f, Objective::Edp, thin);
    EXPECT_TRUE(exact.proven);
    EXPECT_EQ(exact.gap, 0.0);
    EXPECT_FALSE(cut.proven);
    EXPECT_GE(cut.score.value(Objective::Edp), exact.score.value(Objective::Edp) * (1 - 1e-12));
    EXPECT_GE(cut.gap, 0.0);
    EXPECT_LT(cut.gap, 1.0);
    // The bound under the gap is below the exact optimum.
    EXPECT_LE(cut.score.value(Objective::Edp) * (1 - cut.gap), exact.score.value(Objective::Edp) * (1 + 1e-9));
}

// Dropping the labels that cannot beat a known solution loses nothing: with the optimum's own
// value as the bound, each of six instances still finds the enumeration's optimum whenever nothing
// is thinned after the drop, and the drop keeps some fronts whole that were thinned without it.
TEST(ChainSolver, ABoundDropsOnlyHopelessLabels) {
    int proven_with_bound = 0, proven_without = 0;
    for (int seed = 1; seed <= 6; ++seed) {
        const TinyInstance t = whole_space_instance(seed);
        const ChainFormulation f(t.arch, t.workload, t.space,
                                 uniform_genome(t.space, t.workload.layers.size(), 0, t.arch.package.rows, t.arch.package.cols));
        const ChainResult exact = enumerate_chain(f, Objective::Edp);
        ChainSolveOptions o;
        o.max_labels = 3;
        proven_without += solve_chain(f, Objective::Edp, o).proven;
        o.upper_bound = exact.score.value(Objective::Edp);
        const ChainResult bounded = solve_chain(f, Objective::Edp, o);
        if (!bounded.proven) continue;
        ++proven_with_bound;
        EXPECT_NEAR(bounded.score.value(Objective::Edp), exact.score.value(Objective::Edp),
                    1e-6 * exact.score.value(Objective::Edp))
            << "seed " << seed;
        EXPECT_EQ(bounded.gap, 0.0);
    }
    EXPECT_GT(proven_with_bound, proven_without);
}

// The best few solutions come back best first and distinct, the first the optimum.
TEST(ChainSolver, BestFewAreDistinctAndInOrder) {
    const TinyInstance t = whole_space_instance(6);
    const ChainFormulation f(t.arch, t.workload, t.space,
                             uniform_genome(t.space, t.workload.layers.size(), 0, t.arch.package.rows, t.arch.package.cols));
    ChainSolveOptions o;
    o.keep_best = 5;
    const ChainResult r = solve_chain(f, Objective::Latency, o);
    ASSERT_GE(r.best_few.size(), 1u);
    EXPECT_TRUE(r.best_few.front() == r.best);
    for (std::size_t k = 1; k < r.best_few.size(); ++k) {
        EXPECT_GE(f.score(r.best_few[k]).latency_ns, f.score(r.best_few[k - 1]).latency_ns * (1 - 1e-12));
        EXPECT_FALSE(r.best_few[k] == r.best_few[k - 1]);
    }
}

}  // namespace test_chain_formulation
}  // namespace mcmsim
