// The HTML pages and their charts, on documents the tests write: the floorplan draws one
// element per chiplet, per directed link and per memory (counts from the mesh's geometry), the
// figures shown are the document's, pages are static and deterministic.
#include "traces/report/html_report.h"
#include "traces/report/package_floorplan.h"
#include "traces/report/svg_chart.h"

#include <gtest/gtest.h>

#include <regex>

using nlohmann::json;

namespace mcmsim {
namespace test_html_report {

std::size_t count(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
    return n;
}

json report(int rows, int cols, const std::string& topology, int memories) {
    json mems = json::array();
    for (int m = 0; m < memories; ++m)
        mems.push_back({{"name", "hbm" + std::to_string(m)}, {"attach", {{"row", m % rows}, {"col", 0}}}});
    json chiplets = json::array();
    for (int c = 0; c < rows * cols; ++c) chiplets.push_back({{"chiplet", c}, {"mac_utilization", 0.25}, {"macs", 10}});
    const json layers = json::array({{{"name", "conv<1>"},
                                      {"latency_ns", 1500.0},
                                      {"energy_pj", 2.5e6},
                                      {"compute_ns", 1000.0},
                                      {"comm_ns", 400.0},
                                      {"dram_ns", 700.0},
                                      {"mac_utilization", 0.5}},
                                     {{"name", "fc"},
                                      {"latency_ns", 500.0},
                                      {"energy_pj", 1e6},
                                      {"compute_ns", 300.0},
                                      {"comm_ns", 0.0},
                                      {"dram_ns", 100.0},
                                      {"mac_utilization", 0.125}}});
    return {{"model", "analytical"},
            {"workload", "w"},
            {"arch", "a"},
            {"optimizer", "uniform"},
            {"latency_ns", 2000.0},
            {"energy_pj", 3.5e6},
            {"edp_j_s", 3.5e-6 * 2e-6},
            {"mac_utilization", 0.4},
            {"macs", 1000},
            {"energy_breakdown_pj", {{"compute", 2.5e6}, {"dram", 1e6}}},
            {"checks", {{"conservation_ok", true}, {"causality_ok", true}}},
            {"layers", layers},
            {"stats", json::object()},
            {"config", {{"package", {{"rows", rows}, {"cols", cols}, {"topology", topology}}}, {"memories", mems}}},
            {"activity",
             {{"chiplets", chiplets},
              {"links", json::array({{{"name", "link.r0_0.E"}, {"bytes", 4e6}, {"busy_fraction", 0.5}},
                                     {{"name", "link.r0_1.W"}, {"bytes", 1e6}, {"busy_fraction", 0.125}}})},
              {"link_gbps", 64.0},
              {"timeline",
               {{"bin_ns", 1000.0},
                {"bins", 2},
                {"memories", json::array({{{"name", "hbm0"}, {"gbps", {10.0, 20.0}}}})},
                {"links", json::array({{{"name", "link.r0_0.E"}, {"utilization", {0.5, 0.5}}}})}}}}}};
}

TEST(PackageFloorplan, OneElementPerChipletLinkAndMemory) {
    // A 3x4 mesh: 3 x 3 east-west neighbour pairs and 2 x 4 north-south ones, two directed
    // links each.
    const std::string mesh = package_floorplan_svg(report(3, 4, "mesh", 2));
    EXPECT_EQ(count(mesh, "class=\"chiplet\""), 12u);
    EXPECT_EQ(count(mesh, "class=\"link\""), 2u * (3 * 3 + 2 * 4));
    EXPECT_EQ(count(mesh, "class=\"dram\""), 2u);
    // With diagonals, each of the 2 x 3 grid cells adds two diagonals, both ways.
    const std::string diag = package_floorplan_svg(report(3, 4, "mesh_diagonal", 1));
    EXPECT_EQ(count(diag, "class=\"link\""), 2u * (3 * 3 + 2 * 4) + 4u * (2 * 3));
    // The two links that carried bytes are labelled, the busier first.
    EXPECT_EQ(count(mesh, "class=\"busiest\""), 2u);
    EXPECT_LT(mesh.find(">1: 4 MB<"), mesh.find(">2: 1 MB<"));
    EXPECT_NE(mesh.find("data-name=\"link.r0_0.E\" data-bytes=\"4000000\""), std::string::npos);
}

TEST(HtmlReport, ShowsTheReportsFiguresAndIsStatic) {
    const json r = report(2, 2, "mesh", 1);
    const std::string html = report_html(r);
    EXPECT_EQ(html, report_html(r));  // deterministic
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("src="), std::string::npos);  // nothing fetched at view time
    EXPECT_NE(html.find("<td>latency</td><td>2 µs</td>"), std::string::npos);
    EXPECT_NE(html.find("<td>energy</td><td>3.5 µJ</td>"), std::string::npos);
    EXPECT_NE(html.find("<td>MAC utilisation</td><td>40 %</td>"), std::string::npos);
    // The per-layer table: names escaped, figures in µs and µJ.
    EXPECT_NE(html.find("<td>conv&lt;1&gt;</td><td>1.5</td><td>2.5</td><td>1</td><td>0.4</td><td>0.7</td><td>50 %</td>"),
              std::string::npos);
    // Every chart is there: per-layer time and energy, floorplan, DRAM, links, chiplets.
    EXPECT_EQ(count(html, "<svg "), 6u);
    EXPECT_EQ(count(html, "class=\"chiplet\""), 4u);
}

TEST(HtmlReport, ValidationPageDrawsTheSpreadBandWhenMeasured) {
    json v = {{"workload", "w"},
              {"arch", "a"},
              {"reference", "vc"},
              {"granularity", "packet"},
              {"total_latency_ns", {{"analytical", 1000.0}, {"simulated", 1100.0}}},
              {"total_energy_pj", {{"analytical", 5.0}, {"simulated", 5.0}}},
              {"total_error", -0.0909},
              {"energy_error", 0.0},
              {"median_abs_error", 0.1},
              {"max_abs_error", 0.2},
              {"median_abs_end_error", 0.05},
              {"max_abs_end_error", 0.09}};
    v["layers"] = json::array();
    for (int l = 0; l < 3; ++l)
        v["layers"].push_back({{"name", "l" + std::to_string(l)},
                               {"analytical_ns", 300.0 + l},
                               {"simulated_ns", 350.0},
                               {"error", -0.1 * l},
                               {"end_error", 0.0}});
    const std::string plain = validation_html(v);
    EXPECT_EQ(plain.find("class=\"band\""), std::string::npos);
    // Three layers in the histogram: the bar counts add up to 3.
    std::regex bar(R"re(class="bar"><title>[^<]*: (\d+)</title>)re");
    int layers = 0;
    for (auto it = std::sregex_iterator(plain.begin(), plain.end(), bar); it != std::sregex_iterator(); ++it)
        layers += std::stoi((*it)[1]);
    EXPECT_EQ(layers, 3);
    for (auto& l : v["layers"]) l["simulated_spread_ns"] = {340.0, 360.0};
    EXPECT_EQ(count(validation_html(v), "class=\"band\""), 1u);
    EXPECT_NE(plain.find("<td>latency µs</td><td>1</td><td>1.1</td>"), std::string::npos);
}

TEST(HtmlReport, CodesignPageMarksTheFrontAndChartsEachKnob) {
    json c = {{"workload", "w"}, {"base_arch", "a"}, {"points", json::array()}};
    const double lat[] = {100, 200, 300}, en[] = {300, 100, 400};
    for (int i = 0; i < 3; ++i)
        c["points"].push_back({{"point", i},
                               {"label", "p" + std::to_string(i)},
                               {"latency_ns", lat[i]},
                               {"energy_pj", en[i]},
                               {"edp_j_s", lat[i] * en[i] * 1e-21},
                               {"pareto", i < 2},
                               {"hardware", {{"diagonal_links", i == 1}, {"dram_count", 2}}}});
    const std::string html = codesign_html(c);
    EXPECT_EQ(count(html, "class=\"point front\""), 2u);
    EXPECT_EQ(count(html, "class=\"point\""), 1u);
    EXPECT_NE(html.find("best EdP by diagonal_links"), std::string::npos);
    EXPECT_NE(html.find("best EdP by dram_count"), std::string::npos);
}

TEST(SvgChart, NumbersAxesAndBars) {
    EXPECT_EQ(svg_num(1.5), "1.5");
    EXPECT_EQ(svg_num(2.0), "2");
    EXPECT_EQ(svg_num(-0.0001), "0");
    EXPECT_EQ(xml_escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    const Axis a = Axis::nice(0, 9.3);  // step 2: the first of 1, 2, 5 x 10^k covering 9.3 in 5 steps
    EXPECT_EQ(a.ticks, (std::vector<double>{0, 2, 4, 6, 8, 10}));
    // Counting three layers (0..2): whole steps, not 0.5.
    EXPECT_EQ(Axis::nice(0, 2, 6, 1).ticks, (std::vector<double>{0, 1, 2}));
    // Bars of 1 and 2 on one axis: the second twice as tall.
    const std::string svg = stacked_bar_chart({"a", "b"}, {Series{"s", {1, 2}}}, ChartText{"t", "x", "y", 1});
    std::regex height(R"re(height="([0-9.]+)" fill="[^"]*" class="bar")re");
    std::vector<double> h;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), height); it != std::sregex_iterator(); ++it)
        h.push_back(std::stod((*it)[1]));
    ASSERT_EQ(h.size(), 2u);
    EXPECT_NEAR(h[1] / h[0], 2.0, 0.01);
}

}  // namespace test_html_report
}  // namespace mcmsim
