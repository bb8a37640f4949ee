// The non-uniform heuristic on the package where it should matter: HBM on one edge of an
// organic 4x4 package. It must never lose to the uniform baseline (it keeps the best plan the
// model has seen, and the uniform plan is its starting point) and here it must win.
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/workload/workload.h"

#include <gtest/gtest.h>

using namespace mcmsim;

namespace test_nonuniform {
double edp(const Estimate& e) { return e.ledger.total_pj() * e.latency_ns; }

TEST(NonUniform, BeatsUniformWithHbmOnOneEdge) {
    ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-4x4-organic-hbm-edge.json");
    Workload w = zoo_workload("resnet50", 1);
    MapRequest r;
    Plan uniform = map_workload(a, w, r);
    r.optimizer = Optimizer::Nonuniform;
    Plan nonuniform = map_workload(a, w, r);
    validate_plan(nonuniform, "nonuniform");
    double u = edp(estimate_plan(a, uniform)), n = edp(estimate_plan(a, nonuniform));
    EXPECT_LT(n, u);
    // Shares move work, never create or lose it.
    std::int64_t macs = 0;
    for (const auto& l : nonuniform.layers) macs += l.macs;
    EXPECT_EQ(macs, 4089184256LL);
}

}  // namespace test_nonuniform
