// Arch configs: the shipped ones resolve their presets, presets and overrides combine, and the
// resolved config reads back as itself.
#include "hw/config/arch_config.h"
#include "tests/hw/config/arch_config_files.h"

#include <gtest/gtest.h>

#include <string>

namespace mcmsim {
namespace test_arch_config {

using namespace arch_test;
using nlohmann::json;

// ---- shipped configs ------------------------------------------------------------------

TEST(ArchConfig, Simba6x6ResolvesItsPresets) {
    const ArchConfig a = load_arch_config(shipped("simba-6x6"));
    EXPECT_EQ(a.name, "simba-6x6");
    EXPECT_EQ(a.file, shipped("simba-6x6"));
    EXPECT_EQ(a.package.rows, 6);
    EXPECT_EQ(a.package.cols, 6);
    EXPECT_EQ(a.chiplet_count(), 36);
    EXPECT_EQ(a.package.topology, PackageTopology::Mesh);
    EXPECT_EQ(a.package.routing, Routing::XY);

    // configs/chiplets/simba.json: 16 PEs x 64 MACs = 1024 MACs per cycle at 1.96 GHz.
    EXPECT_EQ(a.chiplet.preset, "simba");
    EXPECT_EQ(a.chiplet.pes, 16);
    EXPECT_EQ(a.chiplet.macs_per_pe, 64);
    EXPECT_EQ(a.chiplet.macs_per_cycle(), 1024);
    EXPECT_DOUBLE_EQ(a.chiplet.clock_ghz, 1.96);
    EXPECT_DOUBLE_EQ(a.chiplet.ni_bandwidth_gbps, 100);

    // configs/links/grs-organic.json: 25 GB/s per direction, 0.54 pJ/b.
    EXPECT_EQ(a.package.link.preset, "grs-organic");
    EXPECT_DOUBLE_EQ(a.package.link.bandwidth_gbps, 25);
    EXPECT_DOUBLE_EQ(a.package.link.energy_pj_per_bit, 0.54);
    EXPECT_DOUBLE_EQ(a.package.link.latency_ns, 18);

    EXPECT_EQ(a.package.router.pipeline_cycles, 4);
    EXPECT_DOUBLE_EQ(a.package.router.clock_ghz, 1.96);
    EXPECT_EQ(a.package.max_packet_bytes, 1024);

    // Two HBM2 stacks: 8 channels x 32 GB/s = 256 GB/s each.
    ASSERT_EQ(a.memories.size(), 2u);
    EXPECT_EQ(a.memories[0].name, "hbm-west");
    EXPECT_EQ(a.memories[0].attach_row, 2);
    EXPECT_EQ(a.memories[0].attach_col, 0);
    EXPECT_EQ(a.memories[1].name, "hbm-east");
    EXPECT_EQ(a.memories[1].attach_row, 3);
    EXPECT_EQ(a.memories[1].attach_col, 5);
    for (const auto& m : a.memories) {
        EXPECT_EQ(m.dram.preset, "hbm2");
        EXPECT_EQ(m.dram.channels, 8);
        EXPECT_DOUBLE_EQ(m.dram.channel_bandwidth_gbps, 32);
        EXPECT_DOUBLE_EQ(m.dram.bandwidth_gbps(), 256);
        EXPECT_DOUBLE_EQ(m.dram.energy_pj_per_bit, 3.9);
        EXPECT_EQ(m.dram.capacity_bytes, 8589934592LL);
        // No phy_bandwidth_gbps in the file: the DRAM's bandwidth.
        EXPECT_DOUBLE_EQ(m.phy_bandwidth_gbps, 256);
    }
}

TEST(ArchConfig, Mcm2x2ResolvesItsPresets) {
    const ArchConfig a = load_arch_config(shipped("mcm-2x2"));
    EXPECT_EQ(a.name, "mcm-2x2");
    EXPECT_EQ(a.chiplet_count(), 4);
    EXPECT_EQ(a.chiplet.preset, "small-test");
    EXPECT_EQ(a.chiplet.macs_per_cycle(), 64);
    EXPECT_EQ(a.package.link.preset, "ucie-standard");
    EXPECT_DOUBLE_EQ(a.package.link.bandwidth_gbps, 64);
    EXPECT_DOUBLE_EQ(a.package.link.energy_pj_per_bit, 0.6);
    // Not in the file: defaults.
    EXPECT_EQ(a.package.topology, PackageTopology::Mesh);
    EXPECT_EQ(a.package.routing, Routing::XY);
    EXPECT_EQ(a.package.max_packet_bytes, 512);
    ASSERT_EQ(a.memories.size(), 1u);
    EXPECT_EQ(a.memories[0].name, "hbm0");
    EXPECT_DOUBLE_EQ(a.memories[0].dram.bandwidth_gbps(), 256);
    EXPECT_DOUBLE_EQ(a.memories[0].phy_bandwidth_gbps, a.memories[0].dram.bandwidth_gbps());
    EXPECT_DOUBLE_EQ(a.memories[0].phy_latency_ns, 2);
}

// A router port to a die-to-die link is as wide as the link needs: 32-byte flits at 1.96 GHz
// carry 62.72 GB/s per flit per cycle, so 25 and 62 GB/s links take 1 flit per cycle, 64 GB/s
// 2 and 256 GB/s 5 (4.08 rounded up). A port narrowed by the config caps the hop and warns.
TEST(ArchConfig, RouterPortIsAsWideAsTheLinkNeeds) {
    ArchConfig a = load_arch_config(shipped("simba-6x6"));
    const std::pair<double, std::int64_t> cases[] = {{25, 1}, {62, 1}, {64, 2}, {256, 5}};
    for (const auto& [gbps, flits] : cases) {
        a.package.link.bandwidth_gbps = gbps;
        EXPECT_EQ(port_flits_for(a.package), flits) << gbps;
        EXPECT_DOUBLE_EQ(d2d_hop_gbps(a.package), gbps);
        EXPECT_TRUE(package_warnings(a.package).empty());
    }
    a.package.router.port_flits = 2;  // 125.44 GB/s in front of a 256 GB/s link
    EXPECT_DOUBLE_EQ(d2d_hop_gbps(a.package), 2 * 32 * 1.96);
    ASSERT_EQ(package_warnings(a.package).size(), 1u);
    EXPECT_EQ(package_warnings(a.package)[0].rfind("/package/router/port_flits", 0), 0u);
}

// Simba's routers (32-byte flits at 1.96 GHz, GRS links of 25 GB/s: 1-flit ports) take
// 62.72 GB/s from one input toward the mesh. Its HBM2 PHYs (256 GB/s, a stack's bandwidth) and
// its NIs (100 GB/s) carry more: under the VC router each PHY and the NI are reported; with
// ideal routers (the packet model's default) nothing is.
TEST(ArchConfig, NodesFasterThanTheirRoutersSwitchAreReported) {
    ArchConfig a = load_arch_config(shipped("simba-6x6"));
    EXPECT_TRUE(arch_warnings(a).empty());
    a.package.router.model = RouterModel::Vc;
    ASSERT_DOUBLE_EQ(a.memories.front().phy_bandwidth(), 256);
    ASSERT_DOUBLE_EQ(a.chiplet.ni_bandwidth_gbps, 100);
    const std::vector<std::string> w = arch_warnings(a);
    ASSERT_EQ(w.size(), a.memories.size() + 1);
    EXPECT_EQ(w[0].rfind("/memories/0: ", 0), 0u) << w[0];
    EXPECT_NE(w[0].find("62.72 GB/s"), std::string::npos) << w[0];
    EXPECT_EQ(w.back().rfind("/chiplet/ni_bandwidth_gbps: ", 0), 0u) << w.back();
    a.chiplet.ni_bandwidth_gbps = 62.72;  // exactly what the switch takes: nothing to report
    EXPECT_EQ(arch_warnings(a).size(), a.memories.size());
    a.package.router.model = RouterModel::Packet;
    a.package.router.packet_buffers = PacketBuffers::Vc;
    EXPECT_EQ(arch_warnings(a).size(), a.memories.size());
}

// Link classes: rows on a preset of their own, columns on an override object, every other
// link (there are none here) on "link". Each class's hop rate is its link's, or the router
// port's when that is narrower (2 flits of 32 B at 1 GHz: 64 GB/s carry a 64 GB/s column,
// 256 GB/s rows need 8 flits); a config without classes has none in its JSON.
TEST_F(ArchConfigFiles, LinkClassesOverrideTheLinkPerDirection) {
    json doc = good();
    doc["package"]["links"] = {{"row", "ucie-advanced"}, {"column", {{"bandwidth_gbps", 64}, {"latency_ns", 3}}}};
    const ArchConfig a = load_arch_config(write_json("classes.json", doc));
    EXPECT_TRUE(a.package.classed_links());
    EXPECT_EQ(a.package.link_of(LinkClass::Row).preset, "ucie-advanced");
    EXPECT_DOUBLE_EQ(a.package.link_of(LinkClass::Row).bandwidth_gbps, 256);
    EXPECT_DOUBLE_EQ(a.package.link_of(LinkClass::Column).bandwidth_gbps, 64);
    EXPECT_DOUBLE_EQ(a.package.link_of(LinkClass::Column).latency_ns, 3);
    EXPECT_DOUBLE_EQ(a.package.link_of(LinkClass::Column).energy_pj_per_bit, LinkConfig{}.energy_pj_per_bit);
    EXPECT_EQ(port_flits_for(a.package, LinkClass::Row), 8);
    EXPECT_EQ(port_flits_for(a.package, LinkClass::Column), 2);
    EXPECT_DOUBLE_EQ(d2d_hop_gbps(a.package, LinkClass::Row), 256);
    EXPECT_DOUBLE_EQ(d2d_hop_gbps(a.package, LinkClass::Column), 64);
    // Diagonal (absent on a mesh) falls back to "link".
    EXPECT_EQ(a.package.link_of(LinkClass::Diagonal).preset, "grs-organic");
    const json j = package_to_json(a.package);
    EXPECT_DOUBLE_EQ(j["links"]["row"]["bandwidth_gbps"].get<double>(), 256);
    EXPECT_DOUBLE_EQ(j["links"]["column"]["latency_ns"].get<double>(), 3);
    EXPECT_FALSE(j["links"].contains("diagonal"));
    EXPECT_DOUBLE_EQ(j["derived"]["d2d_hop_gbps_by_class"]["row"].get<double>(), 256);
    EXPECT_FALSE(package_to_json(load_arch_config(write_json("plain.json", good())).package).contains("links"));
}

TEST(ArchConfig, NameWithoutPathIsLookedUpInConfigsArch) {
    const ArchConfig by_name = load_arch_config("simba-6x6");
    const ArchConfig by_path = load_arch_config(shipped("simba-6x6"));
    EXPECT_EQ(by_name.name, "simba-6x6");
    EXPECT_EQ(by_name.chiplet_count(), 36);
    EXPECT_EQ(arch_to_json(by_name), arch_to_json(by_path));
    EXPECT_EQ(fs::path(by_name.file).filename(), "simba-6x6.json");
}

TEST(ArchConfig, UnknownNameListsTheShippedConfigs) {
    try {
        load_arch_config("no-such-arch");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "no-such-arch");
        EXPECT_TRUE(contains(e.expected(), "mcm-2x2")) << e.what();
        EXPECT_TRUE(contains(e.expected(), "simba-6x6")) << e.what();
    }
}

TEST(ArchConfig, MissingFileNamesIt) {
    const std::string path = "/nonexistent-dir/arch.json";
    try {
        load_arch_config(path);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), path);
        EXPECT_TRUE(contains(e.what(), path)) << e.what();
    }
}

// ---- presets and overrides --------------------------------------------------------------

TEST_F(ArchConfigFiles, OverridingOnePresetFieldKeepsTheOthers) {
    json doc = good();
    doc["package"]["link"] = {{"preset", "grs-organic"}, {"energy_pj_per_bit", 0.6}};
    const ArchConfig a = load_arch_config(write_json("override.json", doc));
    EXPECT_EQ(a.package.link.preset, "grs-organic");
    EXPECT_DOUBLE_EQ(a.package.link.energy_pj_per_bit, 0.6);  // overridden
    EXPECT_DOUBLE_EQ(a.package.link.bandwidth_gbps, 25);      // from the preset
    EXPECT_DOUBLE_EQ(a.package.link.latency_ns, 18);          // from the preset
}

TEST_F(ArchConfigFiles, DramOverrideChangesTheDefaultPhyBandwidth) {
    json doc = good();
    doc["memories"][0]["dram"] = {{"preset", "hbm2"}, {"channels", 4}};
    doc["memories"].push_back(
        {{"name", "hbm1"}, {"dram", "hbm2"}, {"attach", {{"row", 1}, {"col", 1}}}, {"phy_bandwidth_gbps", 100}});
    const ArchConfig a = load_arch_config(write_json("dram.json", doc));
    ASSERT_EQ(a.memories.size(), 2u);
    EXPECT_EQ(a.memories[0].dram.channels, 4);
    EXPECT_DOUBLE_EQ(a.memories[0].dram.channel_bandwidth_gbps, 32);
    EXPECT_DOUBLE_EQ(a.memories[0].dram.access_latency_ns, 30);
    EXPECT_DOUBLE_EQ(a.memories[0].phy_bandwidth_gbps, 128);  // 4 x 32, the overridden DRAM
    EXPECT_DOUBLE_EQ(a.memories[1].phy_bandwidth_gbps, 100);  // given explicitly
    EXPECT_EQ(a.memories[1].attach_row, 1);
    EXPECT_EQ(a.memories[1].attach_col, 1);
}

TEST_F(ArchConfigFiles, InlineObjectWithoutPresetUsesDefaults) {
    json doc = good();
    doc["chiplet"] = {{"pes", 2}, {"macs_per_pe", 8}};
    doc["package"]["link"] = {{"bandwidth_gbps", 10}};
    const ArchConfig a = load_arch_config(write_json("inline.json", doc));
    const ChipletConfig defaults;
    EXPECT_EQ(a.chiplet.preset, "");
    EXPECT_EQ(a.chiplet.macs_per_cycle(), 16);
    EXPECT_DOUBLE_EQ(a.chiplet.clock_ghz, defaults.clock_ghz);
    EXPECT_EQ(a.chiplet.global_buffer_bytes, defaults.global_buffer_bytes);
    EXPECT_EQ(a.package.link.preset, "");
    EXPECT_DOUBLE_EQ(a.package.link.bandwidth_gbps, 10);
    EXPECT_DOUBLE_EQ(a.package.link.energy_pj_per_bit, LinkConfig{}.energy_pj_per_bit);
}

TEST_F(ArchConfigFiles, PresetNextToTheArchFileIsFound) {
    write("my-link.json", "// a local link preset\n{ \"bandwidth_gbps\": 7, \"latency_ns\": 3 }\n", "links");
    json doc = good();
    doc["package"]["link"] = "my-link";
    const ArchConfig a = load_arch_config(write_json("local.json", doc));
    EXPECT_EQ(a.package.link.preset, "my-link");
    EXPECT_DOUBLE_EQ(a.package.link.bandwidth_gbps, 7);
    EXPECT_DOUBLE_EQ(a.package.link.latency_ns, 3);
}

TEST_F(ArchConfigFiles, ErrorInsideAPresetNamesThePresetFile) {
    const std::string preset = write("typo-link.json", "{ \"bandwith_gbps\": 7 }\n", "links");
    json doc = good();
    doc["package"]["link"] = "typo-link";
    const std::string path = write_json("uses-typo.json", doc);
    try {
        load_arch_config(path);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), preset);
        EXPECT_EQ(e.where(), "/bandwith_gbps");
    }
}

// ---- arch_to_json round trip ------------------------------------------------------------

/// Field-by-field equality (all but `file`), so that a field arch_to_json forgot to write
/// shows up even though the reloaded dump would be just as incomplete.
void expect_same_arch(const ArchConfig& a, const ArchConfig& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.description, b.description);
    const ChipletConfig &ca = a.chiplet, &cb = b.chiplet;
    EXPECT_EQ(ca.preset, cb.preset);
    EXPECT_EQ(ca.clock_ghz, cb.clock_ghz);
    EXPECT_EQ(ca.pes, cb.pes);
    EXPECT_EQ(ca.macs_per_pe, cb.macs_per_pe);
    EXPECT_EQ(ca.mac_energy_pj, cb.mac_energy_pj);
    EXPECT_EQ(ca.sram_energy_pj_per_byte, cb.sram_energy_pj_per_byte);
    EXPECT_EQ(ca.global_buffer_bytes, cb.global_buffer_bytes);
    EXPECT_EQ(ca.ni_bandwidth_gbps, cb.ni_bandwidth_gbps);
    const PackageConfig &pa = a.package, &pb = b.package;
    EXPECT_EQ(pa.rows, pb.rows);
    EXPECT_EQ(pa.cols, pb.cols);
    EXPECT_EQ(pa.topology, pb.topology);
    EXPECT_EQ(pa.routing, pb.routing);
    EXPECT_EQ(pa.link.preset, pb.link.preset);
    EXPECT_EQ(pa.link.bandwidth_gbps, pb.link.bandwidth_gbps);
    EXPECT_EQ(pa.link.latency_ns, pb.link.latency_ns);
    EXPECT_EQ(pa.link.energy_pj_per_bit, pb.link.energy_pj_per_bit);
    for (int c = 0; c < kLinkClasses; ++c) {
        const auto &la = pa.class_links[static_cast<std::size_t>(c)], &lb = pb.class_links[static_cast<std::size_t>(c)];
        ASSERT_EQ(la.has_value(), lb.has_value()) << c;
        if (!la) continue;
        EXPECT_EQ(la->preset, lb->preset);
        EXPECT_EQ(la->bandwidth_gbps, lb->bandwidth_gbps);
        EXPECT_EQ(la->latency_ns, lb->latency_ns);
        EXPECT_EQ(la->energy_pj_per_bit, lb->energy_pj_per_bit);
    }
    EXPECT_EQ(pa.router.clock_ghz, pb.router.clock_ghz);
    EXPECT_EQ(pa.router.pipeline_cycles, pb.router.pipeline_cycles);
    EXPECT_EQ(pa.router.flit_bytes, pb.router.flit_bytes);
    EXPECT_EQ(pa.router.energy_pj_per_flit, pb.router.energy_pj_per_flit);
    EXPECT_EQ(pa.max_packet_bytes, pb.max_packet_bytes);
    ASSERT_EQ(a.memories.size(), b.memories.size());
    for (std::size_t i = 0; i < a.memories.size(); ++i) {
        const MemoryConfig &ma = a.memories[i], &mb = b.memories[i];
        EXPECT_EQ(ma.name, mb.name);
        EXPECT_EQ(ma.attach_row, mb.attach_row);
        EXPECT_EQ(ma.attach_col, mb.attach_col);
        EXPECT_EQ(ma.phy_bandwidth_gbps, mb.phy_bandwidth_gbps);
        EXPECT_EQ(ma.phy_latency_ns, mb.phy_latency_ns);
        EXPECT_EQ(ma.phy_energy_pj_per_bit, mb.phy_energy_pj_per_bit);
        EXPECT_EQ(ma.dram.preset, mb.dram.preset);
        EXPECT_EQ(ma.dram.channels, mb.dram.channels);
        EXPECT_EQ(ma.dram.channel_bandwidth_gbps, mb.dram.channel_bandwidth_gbps);
        EXPECT_EQ(ma.dram.access_latency_ns, mb.dram.access_latency_ns);
        EXPECT_EQ(ma.dram.energy_pj_per_bit, mb.dram.energy_pj_per_bit);
        EXPECT_EQ(ma.dram.interleave_bytes, mb.dram.interleave_bytes);
        EXPECT_EQ(ma.dram.capacity_bytes, mb.dram.capacity_bytes);
    }
}

TEST_F(ArchConfigFiles, ArchToJsonRoundTrips) {
    json overridden = good();
    overridden["package"]["link"] = {{"preset", "grs-organic"}, {"energy_pj_per_bit", 0.6}};
    overridden["package"]["routing"] = "yx";
    overridden["package"]["router"] = {
        {"clock_ghz", 2.0}, {"pipeline_cycles", 3}, {"flit_bytes", 16}, {"energy_pj_per_flit", 7.5}};
    overridden["package"]["max_packet_bytes"] = 2048;
    overridden["package"]["links"] = {{"column", {{"preset", "ucie-standard"}, {"latency_ns", 4}}}};
    overridden["memories"][0]["phy_latency_ns"] = 5.5;
    overridden["memories"][0]["phy_energy_pj_per_bit"] = 0.25;
    overridden["memories"][0]["dram"] = {{"preset", "hbm2"}, {"interleave_bytes", 512}};
    for (const std::string& src : {shipped("simba-6x6"), shipped("mcm-2x2"), write_json("overridden.json", overridden)}) {
        SCOPED_TRACE(src);
        const ArchConfig a = load_arch_config(src);
        const json dumped = arch_to_json(a);
        // Every default is filled in.
        EXPECT_TRUE(dumped["package"].contains("topology"));
        EXPECT_TRUE(dumped["package"]["link"].contains("latency_ns"));
        EXPECT_TRUE(dumped["memories"][0].contains("phy_bandwidth_gbps"));
        const std::string path = write_json("dumped-" + a.name + ".json", dumped);
        const ArchConfig b = load_arch_config(path);
        EXPECT_EQ(arch_to_json(b), dumped);
        expect_same_arch(a, b);
        EXPECT_EQ(b.chiplet_count(), a.chiplet_count());
        EXPECT_EQ(b.package.link.preset, a.package.link.preset);
    }
}

}  // namespace test_arch_config
}  // namespace mcmsim
