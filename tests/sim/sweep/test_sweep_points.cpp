// A sweep file into points: the reader's checks, the sampling plans (counts and strata worked
// out from the axis sizes), constraints, preset fields overridden one at a time, and the
// content hash. Sweep files are written by the tests next to a copy of a shipped arch.
#include "sim/sweep/sweep_points.h"

#include "hw/common/input_error.h"
#include "hw/config/presets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace mcmsim {
namespace test_sweep_points {

namespace fs = std::filesystem;

std::string write_spec(const std::string& name, const nlohmann::json& body) {
    const fs::path dir = fs::temp_directory_path() / ("mcmsim-sweep-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    nlohmann::json doc = body;
    doc["base"] = default_config_dir() + "/arch/mcm-2x2.json";
    if (!doc.contains("workloads")) doc["workloads"] = nlohmann::json::array({{{"model", "resnet50"}}});
    const std::string path = (dir / name).string();
    std::ofstream(path) << doc.dump();
    return path;
}

nlohmann::json axis(const std::string& pointer, nlohmann::json values) { return {{"pointer", pointer}, {"values", values}}; }

TEST(SweepPoints, GridVariesTheLastAxisFastest) {
    const SweepSpec s = read_sweep_spec(write_spec(
        "grid.json",
        {{"axes",
          {axis("/package/link", {"ucie-standard", "ucie-advanced"}),
           {{"pointer", "/chiplet/global_buffer_bytes"}, {"range", {{"from", 65536}, {"to", 196608}, {"step", 65536}}}}}},
         {"evaluators", {"estimate", "simulate"}}}));
    const auto pts = expand_sweep(s, "t");
    ASSERT_EQ(pts.size(), 2u * 3u * 2u);  // 2 links x 3 buffer sizes x 2 evaluators
    EXPECT_EQ(pts[0].axes["/chiplet/global_buffer_bytes"], 65536);
    EXPECT_EQ(pts[2].axes["/chiplet/global_buffer_bytes"], 131072);  // evaluators innermost
    EXPECT_EQ(pts[6].axes["/package/link"], "ucie-advanced");
    // The preset name became the point's resolved link.
    EXPECT_EQ(pts[6].arch["package"]["link"]["preset"], "ucie-advanced");
    std::set<std::string> hashes;
    for (const auto& p : pts) hashes.insert(p.hash);
    EXPECT_EQ(hashes.size(), pts.size());
    // Same content, same hash; the evaluator is part of it.
    EXPECT_EQ(expand_sweep(s, "t")[5].hash, pts[5].hash);
    EXPECT_NE(expand_sweep(s, "u")[5].hash, pts[5].hash);  // another mcmsim version
    EXPECT_EQ(with_evaluator(pts[0], SweepEvaluator::Simulate, s, "t").hash, pts[1].hash);
}

TEST(SweepPoints, PresetFieldsAreOverriddenOneAtATime) {
    // mcm-2x2's chiplet is a preset name: /chiplet/array/... turns it into {"preset": ...}
    // with the override, and the rest of the preset stays.
    const SweepSpec s =
        read_sweep_spec(write_spec("zip.json", {{"axes",
                                                 {{{"name", "array"},
                                                   {"zip",
                                                    {axis("/chiplet/array/rows", {4, 8}), axis("/chiplet/array/cols", {4, 8}),
                                                     axis("/chiplet/macs_per_pe", {16, 64})}}}}}}));
    const auto pts = expand_sweep(s, "t");
    ASSERT_EQ(pts.size(), 2u);
    EXPECT_EQ(pts[1].arch["chiplet"]["array"]["rows"], 8);
    EXPECT_EQ(pts[1].arch["chiplet"]["macs_per_pe"], 64);
    EXPECT_EQ(pts[1].arch["chiplet"]["pes"], pts[0].arch["chiplet"]["pes"]);
    nlohmann::json doc = {{"chiplet", "simba"}};
    set_at_pointer(doc, "/chiplet/array/rows", 4);
    EXPECT_EQ(doc, (nlohmann::json{{"chiplet", {{"preset", "simba"}, {"array", {{"rows", 4}}}}}}));
}

TEST(SweepPoints, LatinHypercubeUsesEveryStratumOnce) {
    // 8 samples over axes of 8 and 4 values: every value of the first once, every value of
    // the second twice (each of its values spans two of the eight strata).
    std::vector<int> eight = {1, 2, 3, 4, 5, 6, 7, 8}, four = {2, 4, 8, 16};
    const SweepSpec s = read_sweep_spec(write_spec(
        "lhs.json", {{"axes", {axis("/package/router/pipeline_cycles", eight), axis("/package/router/flit_bytes", four)}},
                     {"sampling", {{"method", "latin_hypercube"}, {"points", 8}, {"seed", 7}}}}));
    const auto pts = expand_sweep(s, "t");
    ASSERT_EQ(pts.size(), 8u);
    std::map<int, int> a, b;
    for (const auto& p : pts)
        ++a[p.axes["/package/router/pipeline_cycles"].get<int>()], ++b[p.axes["/package/router/flit_bytes"].get<int>()];
    EXPECT_EQ(a.size(), 8u);
    for (const auto& [v, n] : b) EXPECT_EQ(n, 2) << v;
    // Seeded: the same file samples the same points.
    EXPECT_EQ(expand_sweep(s, "t")[3].hash, pts[3].hash);
}

TEST(SweepPoints, RandomSamplesAreDistinctAndSeeded) {
    const SweepSpec s = read_sweep_spec(
        write_spec("random.json", {{"axes", {axis("/package/router/pipeline_cycles", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})}},
                                   {"sampling", {{"method", "random"}, {"points", 30}, {"seed", 3}}}}));
    const auto pts = expand_sweep(s, "t");
    // 30 draws from 10 values: repeats dropped, so at most 10 points.
    EXPECT_LE(pts.size(), 10u);
    EXPECT_GE(pts.size(), 5u);
    std::set<int> seen;
    for (const auto& p : pts) EXPECT_TRUE(seen.insert(p.axes["/package/router/pipeline_cycles"].get<int>()).second);
}

TEST(SweepPoints, ConstraintsFilterAndContradictionsAreBadInput) {
    const auto cols = axis("/package/cols", {2, 3, 4});
    const SweepSpec s =
        read_sweep_spec(write_spec("c.json", {{"axes", {cols}},
                                              {"constraints",
                                               {{{"left", "/package/cols"}, {"op", "ge"}, {"right", "/package/rows"}},
                                                {{"left", "/package/cols"}, {"op", "lt"}, {"right", 4}}}}}));
    const auto pts = expand_sweep(s, "t");
    ASSERT_EQ(pts.size(), 2u);  // cols 2 and 3 (rows is 2)
    EXPECT_EQ(pts[1].axes["/package/cols"], 3);
    const SweepSpec none = read_sweep_spec(
        write_spec("none.json", {{"axes", {cols}}, {"constraints", {{{"left", "/package/cols"}, {"op", "gt"}, {"right", 9}}}}}));
    try {
        expand_sweep(none, "t");
        FAIL() << "no point satisfies cols > 9";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where(), "/constraints");
    }
}

TEST(SweepPoints, BadFilesNameTheValue) {
    auto where = [](const nlohmann::json& body) {
        try {
            read_sweep_spec(write_spec("bad.json", body));
        } catch (const InputError& e) {
            return e.where();
        }
        return std::string("accepted");
    };
    EXPECT_EQ(where({{"axes", {axis("/package/rows", {2, 0})}}}), "/axes/0");
    EXPECT_EQ(where({{"axes", {axis("/package/warp", {1})}}}), "/axes/0");
    EXPECT_EQ(where({{"axes", {axis("/package/rows", nlohmann::json::array())}}}), "/axes/0");
    EXPECT_EQ(where({{"axes", {{{"pointer", "/package/rows"}, {"range", {{"from", 4}, {"to", 2}, {"step", 1}}}}}}}),
              "/axes/0/range");
    EXPECT_EQ(where({{"sampling", {{"method", "sobol"}}}}), "/sampling/method");
    EXPECT_EQ(where({{"workloads", nlohmann::json::array()}}), "/workloads");
}

}  // namespace test_sweep_points
}  // namespace mcmsim
