// The packet-vs-VC comparison on two hand-made reports: errors relative to the VC run, links
// matched by name (the packet model's "link." prefix dropped, its NI links left out).
#include "traces/report/network_crosscheck.h"

#include <gtest/gtest.h>

using nlohmann::json;

namespace mcmsim {
namespace test_network_crosscheck {

json report(double latency, double energy, std::vector<double> ends, json links) {
    json layers = json::array();
    for (std::size_t i = 0; i < ends.size(); ++i) layers.push_back({{"name", "l" + std::to_string(i)}, {"end_ns", ends[i]}});
    return {{"latency_ns", latency}, {"energy_pj", energy}, {"layers", layers}, {"stats", {{"network", {{"links", links}}}}}};
}

TEST(NetworkCrosscheck, ErrorsAreRelativeToTheVcNetwork) {
    const json packet = report(90, 110, {10, 45, 90},
                               json::array({{{"name", "link.r0_0.E"}, {"bytes", 640}, {"utilization", 0.5}},
                                            {{"name", "ni.0.in"}, {"bytes", 640}, {"utilization", 0.1}}}));
    const json vc = report(100, 100, {10, 50, 100}, json::array({{{"name", "r0_0.E"}, {"flits", 20}, {"utilization", 0.45}}}));
    const NetworkCrosscheck c = crosscheck_networks(packet, vc, 32);
    EXPECT_NEAR(c.json["total_error"].get<double>(), -0.1, 1e-12);          // 90 / 100 - 1
    EXPECT_NEAR(c.json["energy_error"].get<double>(), 0.1, 1e-12);          // 110 / 100 - 1
    EXPECT_NEAR(c.json["median_abs_end_error"].get<double>(), 0.1, 1e-12);  // errors 0, 0.1, 0.1
    EXPECT_NEAR(c.json["max_abs_end_error"].get<double>(), 0.1, 1e-12);
    ASSERT_EQ(c.json["links"].size(), 1u);  // the NI link has no VC counterpart
    const json& l = c.json["links"][0];
    EXPECT_EQ(l["name"], "r0_0.E");
    EXPECT_DOUBLE_EQ(l["vc_bytes"].get<double>(), 640);       // 20 flits of 32 B
    EXPECT_DOUBLE_EQ(l["packet_busy_ns"].get<double>(), 45);  // 0.5 of 90 ns
    EXPECT_DOUBLE_EQ(l["vc_busy_ns"].get<double>(), 45);      // 0.45 of 100 ns
    EXPECT_DOUBLE_EQ(c.json["max_link_bytes_difference"].get<double>(), 0);
}

}  // namespace test_network_crosscheck
}  // namespace mcmsim
