// Bad arch configs: every error names the file and the JSON pointer, says what was expected
// and what was found, on one line.
#include "hw/config/arch_config.h"
#include "tests/hw/config/arch_config_files.h"

#include <gtest/gtest.h>

#include <string>

namespace mcmsim {
namespace test_arch_config_errors {

using namespace arch_test;
using nlohmann::json;

// ---- bad configs: file and JSON pointer in every message --------------------------------

TEST_F(ArchConfigFiles, MisspeltLinkKey) {
    json doc = good();
    doc["package"]["link"]["bandwith_gbps"] = 30;
    auto e = expect_bad(doc, "/package/link/bandwith_gbps");
    ASSERT_TRUE(e);
    EXPECT_TRUE(contains(e->found(), "\"bandwith_gbps\"")) << e->what();
    EXPECT_TRUE(contains(e->expected(), "bandwidth_gbps")) << e->what();  // the right spelling
}

TEST_F(ArchConfigFiles, MisspeltTopLevelKey) {
    json doc = good();
    doc["memory"] = doc["memories"];
    doc.erase("memories");
    // The stray key is the useful message, not "no memories".
    expect_bad(doc, "/memory");
}

TEST_F(ArchConfigFiles, NegativeBandwidth) {
    json doc = good();
    doc["package"]["link"]["bandwidth_gbps"] = -25;
    auto e = expect_bad(doc, "/package/link/bandwidth_gbps");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->found(), "number -25");
}

TEST_F(ArchConfigFiles, ZeroChannelBandwidth) {
    json doc = good();
    doc["memories"][0]["dram"] = {{"preset", "hbm2"}, {"channel_bandwidth_gbps", 0}};
    expect_bad(doc, "/memories/0/dram/channel_bandwidth_gbps");
}

TEST_F(ArchConfigFiles, WrongType) {
    json doc = good();
    doc["package"]["rows"] = "six";
    auto e = expect_bad(doc, "/package/rows");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->found(), "string \"six\"");
}

TEST_F(ArchConfigFiles, WrongTypeForAPresetReference) {
    json doc = good();
    doc["chiplet"] = 3;
    expect_bad(doc, "/chiplet");
}

TEST_F(ArchConfigFiles, UnknownPresetName) {
    json doc = good();
    doc["chiplet"] = "simba-xl";
    auto e = expect_bad(doc, "/chiplet");
    ASSERT_TRUE(e);
    EXPECT_TRUE(contains(e->found(), "simba-xl")) << e->what();
    EXPECT_TRUE(contains(e->expected(), "simba")) << e->what();  // lists the presets
}

TEST_F(ArchConfigFiles, UnknownPresetNameInAnOverrideObject) {
    json doc = good();
    doc["package"]["link"] = {{"preset", "grs-organik"}, {"energy_pj_per_bit", 0.6}};
    auto e = expect_bad(doc, "/package/link/preset");
    ASSERT_TRUE(e);
    EXPECT_TRUE(contains(e->expected(), "grs-organic")) << e->what();
}

TEST_F(ArchConfigFiles, PresetNameCannotBeAPath) {
    json doc = good();
    doc["chiplet"] = "../chiplets/simba";
    expect_bad(doc, "/chiplet");
}

TEST_F(ArchConfigFiles, AttachRowOutOfRange) {
    json doc = good();
    doc["memories"][0]["attach"]["row"] = 2;  // rows 0 and 1 only
    auto e = expect_bad(doc, "/memories/0/attach/row");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->expected(), "an integer in [0, 1]");
}

TEST_F(ArchConfigFiles, AttachColNegative) {
    json doc = good();
    doc["memories"][0]["attach"]["col"] = -1;
    expect_bad(doc, "/memories/0/attach/col");
}

TEST_F(ArchConfigFiles, MissingMemories) {
    json doc = good();
    doc.erase("memories");
    auto e = expect_bad(doc, "/memories");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->found(), "none");
}

TEST_F(ArchConfigFiles, EmptyMemories) {
    json doc = good();
    doc["memories"] = json::array();
    expect_bad(doc, "/memories");
}

TEST_F(ArchConfigFiles, MissingAttach) {
    json doc = good();
    doc["memories"][0].erase("attach");
    auto e = expect_bad(doc, "/memories/0");
    ASSERT_TRUE(e);
    EXPECT_TRUE(contains(e->expected(), "\"attach\"")) << e->what();
}

TEST_F(ArchConfigFiles, DuplicateMemoryNames) {
    json doc = good();
    doc["memories"].push_back({{"name", "hbm0"}, {"dram", "hbm2"}, {"attach", {{"row", 1}, {"col", 1}}}});
    auto e = expect_bad(doc, "/memories/1/name");
    ASSERT_TRUE(e);
    EXPECT_TRUE(contains(e->found(), "hbm0")) << e->what();
}

TEST_F(ArchConfigFiles, UnknownTopology) {
    json doc = good();
    doc["package"]["topology"] = "hypercube";
    auto e = expect_bad(doc, "/package/topology");
    ASSERT_TRUE(e);
    EXPECT_TRUE(contains(e->expected(), "\"mesh\"")) << e->what();
}

TEST_F(ArchConfigFiles, UnknownRouting) {
    json doc = good();
    doc["package"]["routing"] = "adaptive";
    expect_bad(doc, "/package/routing");
}

TEST_F(ArchConfigFiles, ZeroPipelineCycles) {
    json doc = good();
    doc["package"]["router"]["pipeline_cycles"] = 0;
    auto e = expect_bad(doc, "/package/router/pipeline_cycles");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->found(), "number 0");
}

TEST_F(ArchConfigFiles, FractionalPes) {
    json doc = good();
    doc["chiplet"] = {{"preset", "small-test"}, {"pes", 2.5}};
    expect_bad(doc, "/chiplet/pes");
}

TEST_F(ArchConfigFiles, MissingRows) {
    json doc = good();
    doc["package"].erase("rows");
    expect_bad(doc, "/package");
}

TEST_F(ArchConfigFiles, MissingName) {
    json doc = good();
    doc.erase("name");
    expect_bad(doc, "/");
}

TEST_F(ArchConfigFiles, RootIsNotAnObject) { expect_bad(write("array.json", "[1, 2, 3]\n"), "/"); }

TEST_F(ArchConfigFiles, SyntaxErrorReportsTheLine) {
    // Line 1 comment, 2 "{", 3 name, 4 chiplet, 5 "package": {, 6 rows, 7 "cols": 2 "link"
    // (missing comma) -> line 7.
    const std::string text =
        "// a config with a missing comma\n"
        "{\n"
        "  \"name\": \"broken\",\n"
        "  \"chiplet\": \"small-test\",\n"
        "  \"package\": {\n"
        "    \"rows\": 2,\n"
        "    \"cols\": 2 \"link\": \"grs-organic\"\n"
        "  },\n"
        "  \"memories\": []\n"
        "}\n";
    auto e = expect_bad(write("syntax.json", text), "line 7");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->expected(), "valid JSON");
}

// Link classes: a class the topology lacks, a misspelt class, a bad field inside a class.
TEST_F(ArchConfigFiles, LinkClassesTheTopologyLacksOrMisspelt) {
    json doc = good();
    doc["package"]["links"] = {{"diagonal", "ucie-standard"}};  // a plain mesh has no diagonal links
    auto e = expect_bad(doc, "/package/links/diagonal");
    ASSERT_TRUE(e);
    EXPECT_TRUE(contains(e->expected(), "mesh_diagonal")) << e->what();
    doc["package"]["links"] = {{"rows", "ucie-standard"}};
    e = expect_bad(doc, "/package/links/rows");
    ASSERT_TRUE(e);
    EXPECT_TRUE(contains(e->expected(), "row")) << e->what();
    doc["package"]["links"] = {{"column", {{"bandwidth_gbps", 0}}}};
    expect_bad(doc, "/package/links/column/bandwidth_gbps");
}

}  // namespace test_arch_config_errors
}  // namespace mcmsim
