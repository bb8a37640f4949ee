// DRAM presets and configuration (pure C++ parts): every shipped preset loads with the
// bandwidth the reference table gives, bad devices are InputErrors with a JSON pointer, the
// address map round-trips, IDD currents become command energies by the TN-41-01 formulas,
// and the timing checker catches a command issued too early.
#include "hw/common/input_error.h"
#include "hw/config/json_input.h"
#include "hw/dram/address_mapper.h"
#include "hw/dram/dram_config.h"
#include "hw/dram/dram_timing.h"
#include "hw/dram/timing_checker.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>

namespace mcmsim {
namespace test_dram_config {

std::string preset_path(const std::string& name) { return std::string(MCMSIM_CONFIG_DIR) + "/dram/" + name + ".json"; }

DramConfig read_doc(const json& doc, DramConfig d = {}) {
    JsonObject o = json_root(doc, "test.json").object();
    read_dram_fields(o, d);
    return d;
}

DramConfig preset(const std::string& name) {
    const std::string path = preset_path(name);
    json doc = load_json_file(path);
    JsonObject o = json_root(doc, path).object();
    DramConfig d;
    read_dram_fields(o, d);
    return d;
}

/// The InputError reading `overrides` on top of the HBM2 preset raises, if any.
std::optional<InputError> bad(const json& overrides) {
    try {
        read_doc(overrides, preset("hbm2"));
    } catch (const InputError& e) {
        return e;
    }
    return std::nullopt;
}

// Peak bandwidths of the JEDEC parts (docs/references.md#presets-dram): HBM2 8 x 32 GB/s, HBM2E 409.6, HBM3 819.2, LPDDR5
// 12.8 per x16 channel, DDR4-3200 25.6 per x64 channel, DDR5-4800 38.4 per DIMM.
TEST(DramPresets, PeakBandwidthMatchesTheReferenceTable) {
    struct Case {
        const char* name;
        double channel_gbps, total_gbps;
    };
    for (const Case& c : {Case{"hbm2", 32, 256}, Case{"hbm2e", 51.2, 409.6}, Case{"hbm3", 51.2, 819.2},
                          Case{"lpddr5", 12.8, 51.2}, Case{"ddr4-3200", 25.6, 25.6}, Case{"ddr5-4800", 38.4, 38.4}}) {
        SCOPED_TRACE(c.name);
        const DramConfig d = preset(c.name);
        EXPECT_NEAR(d.channel_bandwidth_gbps, c.channel_gbps, 0.001 * c.channel_gbps);
        EXPECT_NEAR(d.bandwidth_gbps(), c.total_gbps, 0.001 * c.total_gbps);
        // Row-hit energy below row-miss energy, and the closed-row latency is what it says.
        EXPECT_GT(d.energy.act_pj, 0);
        EXPECT_DOUBLE_EQ(d.access_latency_ns,
                         static_cast<double>(d.timing.tRCD + d.timing.CL + d.timing.tBURST) * d.timing.tck_ns);
        EXPECT_FALSE(d.source.empty());
    }
}

TEST(DramPresets, Hbm2KeepsTheFiguresOtherModelsUse) {
    const DramConfig d = preset("hbm2");
    EXPECT_EQ(d.channels, 8);
    EXPECT_DOUBLE_EQ(d.channel_bandwidth_gbps, 32);
    EXPECT_DOUBLE_EQ(d.access_latency_ns, 30);
    EXPECT_DOUBLE_EQ(d.energy_pj_per_bit, 3.9);
    EXPECT_EQ(d.capacity_bytes, 8LL << 30);
}

TEST(DramPresets, DumpReadsBackToTheSameConfig) {
    for (const char* name : {"hbm2", "hbm3", "ddr5-4800"}) {
        const DramConfig d = preset(name);
        const json dumped = dram_to_json(d);
        EXPECT_EQ(dram_to_json(read_doc(dumped)), dumped) << name;
    }
}

// ---- bad devices ---------------------------------------------------------------------------

TEST(DramConfigErrors, TrcShorterThanTrasPlusTrp) {
    auto e = bad({{"timing", {{"tRC", 40}}}});
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "/timing/tRC");
    EXPECT_EQ(e->file(), "test.json");
}

TEST(DramConfigErrors, ZeroBanks) {
    auto e = bad({{"organization", {{"banks_per_group", 0}}}});
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "/organization/banks_per_group");
}

TEST(DramConfigErrors, OverlappingAddressFields) {
    // bank takes bit 8, which column already uses.
    auto e = bad({{"address_map",
                   {{"column", {6, 7, 8, 9}},
                    {"channel", {10, 11, 12}},
                    {"bank_group", {13, 14}},
                    {"bank", {8, 15}},
                    {"pseudo_channel", json::array()},
                    {"rank", json::array()},
                    {"row", {"16-31"}}}}});
    ASSERT_TRUE(e);
    // Either of the two fields sharing bit 8 may be named.
    EXPECT_TRUE(e->where() == "/address_map/bank" || e->where() == "/address_map/column") << e->what();
    EXPECT_NE(e->found().find("bit 8"), std::string::npos) << e->what();
}

TEST(DramConfigErrors, AddressMapNotCoveringTheCapacity) {
    // Bit 15 unused: row moved up by one, leaving a hole.
    auto e = bad({{"address_map",
                   {{"column", {6, 7, 8, 9}},
                    {"channel", {10, 11, 12}},
                    {"bank_group", {13, 14}},
                    {"bank", {16, 17}},
                    {"pseudo_channel", json::array()},
                    {"rank", json::array()},
                    {"row", {"18-33"}}}}});
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where().rfind("/address_map", 0), 0u) << e->what();
}

TEST(DramConfigErrors, UnknownKeyAndPerBankRefreshWithoutSupport) {
    auto e = bad({{"channel_bandwidth_gbps", 0}});  // derived now: not an input
    ASSERT_TRUE(e);
    EXPECT_EQ(e->where(), "/channel_bandwidth_gbps");
    auto f = bad({{"controller", {{"refresh", "per_bank"}}}, {"timing", {{"tRFCpb_ns", 0}}}});
    ASSERT_TRUE(f);
    EXPECT_EQ(f->where(), "/controller/refresh");
}

// ---- address map --------------------------------------------------------------------------

TEST(DramAddressMap, DecodeInvertsEncodeAndDefaultInterleaves) {
    const DramConfig d = preset("hbm3");
    AddressMapper m(d);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 1000; ++i) {
        const std::uint64_t a = rng() % static_cast<std::uint64_t>(d.capacity_bytes) / m.burst_bytes() * m.burst_bytes();
        EXPECT_EQ(m.encode(m.decode(a)), a);
    }
    // interleave_bytes of consecutive bytes stay on one unit; the next chunk moves on.
    const auto il = static_cast<std::uint64_t>(d.interleave_bytes);
    EXPECT_EQ(m.unit_of(m.decode(0)), m.unit_of(m.decode(il - 1)));
    EXPECT_NE(m.unit_of(m.decode(0)), m.unit_of(m.decode(il)));
}

// ---- IDD energy ------------------------------------------------------------------------------

TEST(DramEnergyConfig, IddCurrentsGiveTheTn4101Energies) {
    const double vdd = 1.2, idd0 = 60, idd2n = 30, idd3n = 40, idd4r = 150, idd4w = 140, idd5b = 250;
    const DramConfig base = preset("ddr4-3200");
    const DramConfig d = read_doc({{"energy",
                                    {{"idd",
                                      {{"vdd", vdd},
                                       {"devices_per_rank", 8},
                                       {"idd0", idd0},
                                       {"idd2n", idd2n},
                                       {"idd3n", idd3n},
                                       {"idd4r", idd4r},
                                       {"idd4w", idd4w},
                                       {"idd5b", idd5b}}}}}},
                                  base);
    const auto& t = base.timing;
    const double tck = t.tck_ns;
    const double trc = static_cast<double>(t.tRC) * tck, tras = static_cast<double>(t.tRAS) * tck;
    const double trp = static_cast<double>(t.tRP) * tck, tb = static_cast<double>(t.tBURST) * tck;
    EXPECT_NEAR(d.energy.act_pj, 8 * vdd * (idd0 * trc - (idd3n * tras + idd2n * trp)), 1e-6);
    EXPECT_NEAR(d.energy.rd_pj, 8 * vdd * (idd4r - idd3n) * tb, 1e-6);
    EXPECT_NEAR(d.energy.wr_pj, 8 * vdd * (idd4w - idd3n) * tb, 1e-6);
    EXPECT_NEAR(d.energy.ref_pj, 8 * vdd * (idd5b - idd3n) * t.tRFC_ns, 1e-6);
    EXPECT_NEAR(d.energy.background_active_mw, 8 * vdd * idd3n, 1e-9);
}

// ---- timing checker ---------------------------------------------------------------------------

IssuedCommand cmd(Tick t, DramCommand c, std::uint16_t bg, std::uint16_t bank, std::uint32_t row = 3) {
    IssuedCommand x;
    x.time = t;
    x.cmd = c;
    x.bank_group = bg;
    x.bank = bank;
    x.row = row;
    return x;
}

// A legal ACT-RD-PRE-ACT sequence passes; the same with the RD one picosecond before tRCD
// is caught, and so is a fifth ACT inside tFAW.
TEST(DramTimingChecker, CatchesACommandInjectedTooEarly) {
    const DramConfig d = preset("hbm2");
    const DramTicks t = dram_ticks(d.timing);
    {
        TimingChecker ok(d);
        ok.on_command(cmd(0, DramCommand::Act, 0, 0));
        ok.on_command(cmd(t.tRCD, DramCommand::Rd, 0, 0));
        ok.on_command(cmd(t.tRAS, DramCommand::Pre, 0, 0));
        ok.on_command(cmd(t.tRAS + t.tRP, DramCommand::Act, 0, 0, 4));
        EXPECT_EQ(ok.violation_count(), 0u);
    }
    {
        TimingChecker early(d);
        early.on_command(cmd(0, DramCommand::Act, 0, 0));
        early.on_command(cmd(t.tRCD - 1, DramCommand::Rd, 0, 0));
        ASSERT_EQ(early.violation_count(), 1u);
        EXPECT_NE(early.violations()[0].find("tRCD"), std::string::npos) << early.violations()[0];
    }
    {
        TimingChecker faw(d);
        Tick at = 0;
        for (int i = 0; i < 5; ++i, at += t.tRRD_L)
            faw.on_command(cmd(at, DramCommand::Act, static_cast<std::uint16_t>(i % 4), static_cast<std::uint16_t>(i / 4)));
        ASSERT_LT(4 * t.tRRD_L, t.tFAW);
        EXPECT_EQ(faw.violation_count(), 1u);
    }
}

}  // namespace test_dram_config
}  // namespace mcmsim
