// The search space: the shipped spaces, bad spaces naming the pointer, defaults, segment
// counts, hardware points and Pareto fronts.
#include "hw/common/input_error.h"
#include "hw/config/json_input.h"
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
namespace test_search_space {

using namespace optimizer_test;

TEST(SearchSpace, LoadsTheShippedSpaces) {
    SearchSpace s = load_search_space(default_config_dir() + "/spaces/organic-edge-codesign.json");
    EXPECT_FALSE(s.mapping.partitions.empty());
    EXPECT_GT(hardware_points(s.hardware).size(), 1u);
}

TEST(SearchSpace, BadSpacesNameThePointer) {
    struct Case {
        const char* text;
        const char* pointer;
    } cases[] = {
        {R"({"mapping": {"partitions": []}})", "/mapping/partitions"},
        {R"({"mapping": {"partitions": ["z"]}})", "/mapping/partitions/0"},
        {R"({"hardware": {"link_bandwidth_gbps": []}})", "/hardware/link_bandwidth_gbps"},
        {R"({"hardware": {"wormholes": [true]}})", "/hardware/wormholes"},
        {R"({"hardware": {"dram_placement": ["moon"]}})", "/hardware/dram_placement/0"},
        {R"({"mapping": {"routes": ["zigzag"]}})", "/mapping/routes/0"},
        {R"({"mapping": {"units_per_part": 0}})", "/mapping/units_per_part"},
        {R"({"mapping": {"collectives": ["butterfly"]}})", "/mapping/collectives/0"},
        {R"({"mapping": {"collectives": ["direct", "Ring"]}})", "/mapping/collectives/1"},
        {R"({"mapping": {"collectives": []}})", "/mapping/collectives"},
        {R"({"mapping": {"weights": ["broadcast"]}})", "/mapping/weights/0"},
        {R"({"mapping": {"weights": []}})", "/mapping/weights"},
        {R"({"mapping": {"inputs": ["broadcast"]}})", "/mapping/inputs/0"},
        {R"({"mapping": {"inputs": []}})", "/mapping/inputs"},
        {R"({"mapping": {"pipeline_segments": [0]}})", "/mapping/pipeline_segments/0"},
    };
    for (const auto& c : cases) {
        std::string path = write_temp("space.json", c.text);
        try {
            load_search_space(path);
            ADD_FAILURE() << c.text << " was accepted";
        } catch (const InputError& e) {
            EXPECT_EQ(e.where(), c.pointer) << e.what();
            EXPECT_EQ(e.file(), path);
        }
    }
}

TEST(SearchSpace, CollectivesAndRoutesSearchedByDefault) {
    using C = Collective;
    const std::vector<C> all{C::Direct, C::Ring, C::TwoD, C::Tree, C::Synth};
    const std::vector<Delivery> both{Delivery::Unicast, Delivery::Multicast};
    EXPECT_EQ(default_search_space(false).mapping.collectives, all);
    EXPECT_EQ(default_search_space(false).mapping.weights, both);
    EXPECT_EQ(default_search_space(false).mapping.inputs, both);
    EXPECT_EQ(load_search_space(default_config_dir() + "/spaces/mapping-default.json").mapping.inputs, both);
    EXPECT_EQ(load_search_space(default_config_dir() + "/spaces/mapping-default.json").mapping.collectives, all);
    EXPECT_EQ(load_search_space(default_config_dir() + "/spaces/mapping-direct.json").mapping.collectives,
              std::vector<C>{C::Direct});
    // A file that leaves collectives out searches none: direct only, like a left-out route list.
    EXPECT_EQ(load_search_space(write_temp("space.json", R"({"mapping": {"routes": ["xy"]}})")).mapping.collectives,
              std::vector<Collective>{Collective::Direct});
    // The diagonal route is the package's own routing: worth searching only with diagonal links.
    // A torus or a graph routes by its own rules: the one policy is the package's.
    using R = RoutePolicy;
    using T = PackageTopology;
    EXPECT_EQ(default_search_space(false, T::Mesh).mapping.routes, (std::vector<R>{R::XY, R::YX, R::Split}));
    EXPECT_EQ(default_search_space(false, T::MeshDiagonal).mapping.routes, (std::vector<R>{R::XY, R::YX, R::Split, R::Diagonal}));
    EXPECT_EQ(default_search_space(false, T::Torus).mapping.routes, std::vector<R>{R::Package});
    EXPECT_EQ(default_search_space(false, T::Graph).mapping.routes, std::vector<R>{R::Package});
    EXPECT_EQ(load_search_space(write_temp("space.json", R"({"mapping": {"routes": ["diagonal", "xy"]}})")).mapping.routes,
              (std::vector<R>{R::Diagonal, R::XY}));
    Workload w = zoo_workload("resnet50", 1);
    MapRequest o;
    const auto diag =
        mapping_space_for(load_arch_config(default_config_dir() + "/arch/mcm-4x4-organic-hbm-edge-diagonal.json"), w, o);
    const auto plain = mapping_space_for(load_arch_config(default_config_dir() + "/arch/mcm-4x4-organic-hbm-edge.json"), w, o);
    EXPECT_EQ(std::count(diag.mapping.routes.begin(), diag.mapping.routes.end(), R::Diagonal), 1);
    EXPECT_EQ(std::count(plain.mapping.routes.begin(), plain.mapping.routes.end(), R::Diagonal), 0);
}

TEST(SearchSpace, PipelineSegmentCounts) {
    // Batch 1 has nothing to stream: sequential only. A batch: 1 to 4 segments.
    EXPECT_EQ(default_search_space(false).mapping.pipeline_segments, std::vector<int>{1});
    EXPECT_EQ(default_search_space(true).mapping.pipeline_segments, (std::vector<int>{1, 2, 3, 4}));
    // Sequential always comes first (the baseline's placement); the 2-column 2x2 package
    // drops the default's 3 and 4.
    Workload w = zoo_workload("resnet50", 4);
    MapRequest o;
    const ArchConfig two = load_arch_config(default_config_dir() + "/arch/mcm-2x2.json");
    EXPECT_EQ(mapping_space_for(two, w, o).mapping.pipeline_segments, (std::vector<int>{1, 2}));
    o.space = load_search_space(write_temp("segs.json", R"({"mapping": {"pipeline_segments": [2, 3]}})"));
    EXPECT_THROW(mapping_space_for(two, w, o), InputError);  // 3 segments need 3 columns
    const ArchConfig four = load_arch_config(default_config_dir() + "/arch/mcm-4x4-organic-hbm-edge.json");
    EXPECT_EQ(mapping_space_for(four, w, o).mapping.pipeline_segments, (std::vector<int>{1, 2, 3}));
}

TEST(Pareto, KeepsOnlyNonDominatedPoints) {
    std::vector<Score> pts{{10, 5}, {8, 7}, {12, 4}, {9, 9}, {8, 6}, {15, 4}};
    // (9,9) is beaten by (8,6); (8,7) by (8,6); (15,4) by (12,4).
    EXPECT_EQ(pareto_front(pts), (std::vector<std::size_t>{4, 0, 2}));
}

TEST(Hardware, PointsAreTheProductOfTheKnobs) {
    HardwareSpace h;
    h.link_bandwidth_gbps = {32, 64};
    h.dram_count = {1, 2};
    h.dram_placement = {DramPlacement::West, DramPlacement::Corners, DramPlacement::Edges};
    EXPECT_EQ(hardware_points(h).size(), 12u);
    // West edge of a 4-row package: two stacks sit at rows 1 and 3 (the middles of the halves).
    auto sites = dram_sites(DramPlacement::West, 2, 4, 4, "", "");
    EXPECT_EQ(sites, (std::vector<std::pair<int, int>>{{1, 0}, {3, 0}}));
    EXPECT_THROW(dram_sites(DramPlacement::Corners, 5, 4, 4, "", ""), InputError);
}

// A shoreline budget on the bridged-rows package: 24 directed row links of UCIe advanced
// (0.000759 mm per GB/s) and 24 column links of UCIe standard (0.004464 mm per GB/s).
TEST(Hardware, ALinkBudgetIsSpentClassByClass) {
    const SearchSpace s = load_search_space(default_config_dir() + "/spaces/bridged-link-budget.json");
    ASSERT_TRUE(s.hardware.link_budget);
    const std::vector<HardwarePoint> pts = hardware_points(s.hardware);
    ASSERT_EQ(pts.size(), s.hardware.link_budget->budget.size() * s.hardware.link_budget->row_share.size());
    const std::string arch_file = default_config_dir() + "/arch/mcm-4x4-bridged-rows-hbm-edge.json";
    const nlohmann::json base = load_json_file(arch_file);
    HardwarePoint p;
    p.link_budget = 12;
    p.row_share = 0.25;
    const ArchConfig a = arch_from_document(apply_hardware(base, p, s.hardware, s.file), arch_file);
    // Rows: 0.25 x 12 mm / (24 x 0.000759 mm per GB/s); columns: 0.75 x 12 / (24 x 0.004464).
    EXPECT_NEAR(a.package.link_of(LinkClass::Row).bandwidth_gbps, 3.0 / (24 * 0.000759), 1e-9);
    EXPECT_NEAR(a.package.link_of(LinkClass::Column).bandwidth_gbps, 9.0 / (24 * 0.004464), 1e-9);
    // Each class keeps its preset's latency and energy.
    EXPECT_EQ(a.package.link_of(LinkClass::Row).preset, "ucie-advanced");
    EXPECT_EQ(a.package.link_of(LinkClass::Column).preset, "ucie-standard");

    // A budget too small for any link the configs take is refused.
    HardwarePoint q = p;
    q.link_budget = 1e-12;
    p.row_share = 0.5;
    p.diagonal_share = 0.5;
    EXPECT_THROW(apply_hardware(base, q, s.hardware, s.file), InputError);
    // No diagonal links on this package: the diagonal share is not spent.
    const ArchConfig d = arch_from_document(apply_hardware(base, p, s.hardware, s.file), arch_file);
    EXPECT_FALSE(d.package.has_link_class(LinkClass::Diagonal));
    EXPECT_NEAR(d.package.link_of(LinkClass::Column).bandwidth_gbps, 6.0 / (24 * 0.004464), 1e-9);

    // On a package with diagonals the diagonal share must be given, and rows + diagonals < 1.
    nlohmann::json diag = base;
    diag["package"]["topology"] = "mesh_diagonal";
    HardwarePoint r;
    r.link_budget = 12;
    r.row_share = 0.5;
    EXPECT_THROW(apply_hardware(diag, r, s.hardware, s.file), InputError);
    r.diagonal_share = 0.5;
    try {
        apply_hardware(diag, r, s.hardware, s.file);
        ADD_FAILURE() << "rows 0.5 + diagonals 0.5 accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where(), "/hardware/link_budget/row_share");
    }
}

TEST(SearchSpace, BadLinkBudgetsNameThePointer) {
    write_temp("link-budget-costs.json", R"({"name": "c", "unit": "mm", "links": {"ucie-standard": {"per_gbps": 0.01}}})");
    struct Case {
        const char* knob;
        const char* pointer;
    } cases[] = {
        {R"("cost_model": "missing.json", "budget": [1], "row_share": [0.5])", "/hardware/link_budget/cost_model"},
        {R"("cost_model": "link-budget-costs.json", "budget": [0], "row_share": [0.5])", "/hardware/link_budget/budget/0"},
        {R"("cost_model": "link-budget-costs.json", "budget": [-2], "row_share": [0.5])", "/hardware/link_budget/budget/0"},
        {R"("cost_model": "link-budget-costs.json", "budget": [], "row_share": [0.5])", "/hardware/link_budget/budget"},
        {R"("cost_model": "link-budget-costs.json", "row_share": [0.5])", "/hardware/link_budget"},
        {R"("cost_model": "link-budget-costs.json", "budget": [1], "row_share": [1])", "/hardware/link_budget/row_share/0"},
        {R"("cost_model": "link-budget-costs.json", "budget": [1], "row_share": [0.5], "diagonal_share": [-0.1])",
         "/hardware/link_budget/diagonal_share/0"},
    };
    for (const auto& c : cases) {
        const std::string text = std::string(R"({"hardware": {"link_budget": {)") + c.knob + "}}}";
        const std::string path = write_temp("link-budget-space.json", text);
        try {
            load_search_space(path);
            ADD_FAILURE() << text << " was accepted";
        } catch (const InputError& e) {
            EXPECT_EQ(e.where(), c.pointer) << e.what();
        }
    }
}

}  // namespace test_search_space
}  // namespace mcmsim
