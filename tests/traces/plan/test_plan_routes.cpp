// A plan's source routes and chiplet groups checked against the package they run on.
#include "hw/common/input_error.h"
#include "tests/support/file_text.h"
#include "tests/traces/plan/sample_plans.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"
#include "traces/plan/plan_routes.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace mcmsim {
namespace test_plan_routes {

using namespace plan_test;

TEST(PlanRoutes, RoutesMustFollowThePackage) {
    const MeshTopology row(1, 3, Routing::XY);
    EXPECT_NO_THROW(validate_plan_routes(grouped_plan(), row, kBadFile));
    auto routes_error = [&](const Plan& p, const MeshTopology& t) {
        try {
            validate_plan_routes(p, t, kBadFile);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    Plan plan = grouped_plan();
    plan.layers[0].ops[0].transfers[1].route = {1, 2};
    EXPECT_TRUE(names(routes_error(plan, row), "/layers/0/ops/0/transfers/1/route/0", {"sender's router 0", "router 1"}));
    plan.layers[0].ops[0].transfers[1].route = {0, 1};
    EXPECT_TRUE(names(routes_error(plan, row), "/layers/0/ops/0/transfers/1/route/1", {"receiver's router 2", "router 1"}));
    plan.layers[0].ops[0].transfers[1].route = {0, 2};  // 0 and 2 are not neighbours
    EXPECT_TRUE(names(routes_error(plan, row), "/layers/0/ops/0/transfers/1/route/1", {"neighbour of router 0", "router 2"}));
    // On a 3x1 column the same router ids sit one above the other: still neighbours.
    plan = grouped_plan();
    EXPECT_NO_THROW(validate_plan_routes(plan, MeshTopology(3, 1, Routing::XY), kBadFile));
    // On a 2x2 package router 0 and router 3 are diagonal: not neighbours in a mesh.
    plan.layers[0].ops[0].transfers[1].route = {0, 3, 2};
    EXPECT_TRUE(names(routes_error(plan, MeshTopology(2, 2, Routing::XY)), "/layers/0/ops/0/transfers/1/route/1",
                      {"neighbour of router 0", "router 3"}));
}

}  // namespace test_plan_routes
}  // namespace mcmsim
