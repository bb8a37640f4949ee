// Plan JSON round trip, strict reading and validation messages.
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"
#include "traces/plan/plan_routes.h"

#include "hw/common/input_error.h"

#include "tests/support/file_text.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace mcmsim {
namespace {

using nlohmann::json;

const char* const kBadFile = "bad_plan.json";

PlanOp make_op(std::int64_t id, int chiplet, OpKind kind, std::vector<std::int64_t> deps = {}) {
    PlanOp op;
    op.id = id;
    op.chiplet = chiplet;
    op.kind = kind;
    op.deps = std::move(deps);
    return op;
}

// 2 chiplets, 1 memory. Layer 0 on chiplet 0: read, compute, send to chiplet 1 (which
// receives it). Layer 1 on chiplet 1: compute on the received data, write back.
// JSON positions: /layers/0/ops/0..3 = ops 1..4, /layers/1/ops/0..1 = ops 5..6.
Plan sample_plan() {
    Plan plan;
    plan.arch = "mcm-2x1";
    plan.workload = "tiny-mlp";
    plan.optimizer = "hand";
    plan.seed = (1ULL << 63) + 5;  // beyond int64: exercises the unsigned path
    plan.chiplets = 2;
    plan.memories = 1;

    PlanLayer l0;
    l0.name = "fc1";
    l0.macs = 1000;
    PlanOp rd = make_op(1, 0, OpKind::DramRead);
    rd.bytes = 4096;
    rd.memory = 0;
    rd.address = 1ULL << 40;
    PlanOp mm = make_op(2, 0, OpKind::Compute, {1});
    mm.macs = 1000;
    mm.sram_bytes = 8192;
    mm.tile = "k[0:64)";
    PlanOp tx = make_op(3, 0, OpKind::Send, {2});
    tx.bytes = 2048;
    tx.flow = 0;
    tx.peer = 1;
    tx.route = {0, 1};
    PlanOp rx = make_op(4, 1, OpKind::Recv);
    rx.bytes = 2048;
    rx.flow = 0;
    rx.peer = 0;
    l0.ops = {rd, mm, tx, rx};

    PlanLayer l1;
    l1.name = "fc2";
    l1.macs = 500;
    PlanOp mm2 = make_op(5, 1, OpKind::Compute, {4});
    mm2.macs = 500;
    mm2.sram_bytes = 100;
    PlanOp wr = make_op(6, 1, OpKind::DramWrite, {5});
    wr.bytes = 1024;
    wr.memory = 0;
    wr.address = 65536;
    l1.ops = {mm2, wr};

    plan.layers = {l0, l1};
    return plan;
}

// The message of the InputError that reading `doc` raises, or "no error".
std::string error_of(const json& doc) {
    try {
        plan_from_json(doc, kBadFile);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

std::string error_of(const Plan& plan) {
    try {
        validate_plan(plan, kBadFile);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

// Every bad-plan message must name the file, the offending pointer, and the given parts.
::testing::AssertionResult names(const std::string& msg, const std::string& pointer,
                                 std::initializer_list<const char*> parts) {
    std::vector<std::string> want{kBadFile, std::string(": ") + pointer + ": "};
    for (const char* p : parts) want.emplace_back(p);
    for (const auto& w : want)
        if (msg.find(w) == std::string::npos)
            return ::testing::AssertionFailure() << "\"" << w << "\" missing in: " << msg;
    return ::testing::AssertionSuccess();
}

json& op_at(json& doc, int layer, int index) { return doc["layers"][layer]["ops"][index]; }

TEST(Plan, KindNamesAndOpCount) {
    EXPECT_STREQ(to_string(OpKind::Compute), "compute");
    EXPECT_STREQ(to_string(OpKind::Send), "send");
    EXPECT_STREQ(to_string(OpKind::Recv), "recv");
    EXPECT_STREQ(to_string(OpKind::DramRead), "dram_read");
    EXPECT_STREQ(to_string(OpKind::DramWrite), "dram_write");
    EXPECT_EQ(sample_plan().op_count(), 6u);
}

TEST(Plan, JsonRoundTrip) {
    const Plan plan = sample_plan();
    const json doc = plan_to_json(plan);
    EXPECT_EQ(doc["format"], "mcmsim-plan");
    EXPECT_EQ(doc["version"], 2);
    // Empty optional fields are omitted; kind-specific keys only where they belong.
    EXPECT_FALSE(doc["layers"][0]["ops"][0].contains("deps"));
    EXPECT_FALSE(doc["layers"][1]["ops"][0].contains("tile"));
    EXPECT_FALSE(doc["layers"][0]["ops"][2].contains("macs"));
    EXPECT_EQ(doc["layers"][0]["ops"][2]["to"], 1);
    EXPECT_EQ(doc["layers"][0]["ops"][3]["from"], 0);

    const Plan back = plan_from_json(doc, "mem.json");
    EXPECT_EQ(plan_to_json(back), doc);
    EXPECT_EQ(back.seed, plan.seed);
    EXPECT_EQ(back.layers[0].ops[0].address, 1ULL << 40);
    EXPECT_EQ(back.layers[0].ops[2].route, (std::vector<int>{0, 1}));
    EXPECT_EQ(back.layers[0].ops[1].tile, "k[0:64)");
    EXPECT_EQ(back.layers[1].ops[0].deps, (std::vector<std::int64_t>{4}));
    EXPECT_EQ(back.layers[1].ops[1].kind, OpKind::DramWrite);
}

TEST(Plan, WriteReadIsByteStable) {
    const std::string a = ::testing::TempDir() + "mcmsim_plan_a.json";
    const std::string b = ::testing::TempDir() + "mcmsim_plan_b.json";
    write_plan(sample_plan(), a);
    write_plan(read_plan(a), b);
    const std::string bytes = test::file_text(a);
    ASSERT_FALSE(bytes.empty());
    EXPECT_EQ(bytes.back(), '\n');
    EXPECT_EQ(bytes, test::file_text(b));
    EXPECT_EQ(plan_to_json(read_plan(b)), plan_to_json(sample_plan()));
}

TEST(Plan, ReadPlanReportsMissingFile) {
    try {
        read_plan("/nonexistent/dir/plan.json");
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "/nonexistent/dir/plan.json");
    }
}

TEST(PlanErrors, UnknownTopLevelKey) {
    json doc = plan_to_json(sample_plan());
    doc["comment"] = "hi";
    EXPECT_TRUE(names(error_of(doc), "/comment", {"unknown key \"comment\""}));
}

TEST(PlanErrors, MacsOnSendOp) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 2)["macs"] = 5;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/2/macs", {"unknown key \"macs\"", "op 3"}));
}

TEST(PlanErrors, WrongFormatAndVersion) {
    json doc = plan_to_json(sample_plan());
    doc["version"] = 3;
    doc["future_key"] = true;  // the version message wins over unknown keys
    EXPECT_TRUE(names(error_of(doc), "/version", {"expected version 1 to 2", "found number 3"}));
    doc = plan_to_json(sample_plan());
    doc["version"] = 0;
    EXPECT_TRUE(names(error_of(doc), "/version", {"expected version 1 to 2", "found number 0"}));
    doc = plan_to_json(sample_plan());
    doc["format"] = "other";
    EXPECT_TRUE(names(error_of(doc), "/format", {"mcmsim-plan", "\"other\""}));
}

TEST(PlanErrors, NegativeMacsNamesOp) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 1)["macs"] = -1;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/1/macs", {"number -1", "op 2"}));
}

TEST(PlanErrors, EmptyRoute) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 2)["route"] = json::array();
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/2/route", {"non-empty", "op 3"}));
}

TEST(PlanErrors, DepOnLaterOp) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 1)["deps"] = {3};
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/1/deps/0",
                      {"op 2 depends on op 3, which is not an earlier op on chiplet 0"}));
}

TEST(PlanErrors, DepOnOtherChipletsOp) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 1, 0)["deps"] = {4, 2};
    EXPECT_TRUE(names(error_of(doc), "/layers/1/ops/0/deps/1",
                      {"op 5 depends on op 2, which is not an earlier op on chiplet 1"}));
}

TEST(PlanErrors, SendWithoutRecv) {
    json doc = plan_to_json(sample_plan());
    doc["layers"][0]["ops"].erase(3);
    op_at(doc, 1, 0).erase("deps");
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/2", {"op 3 sends flow 0", "no recv"}));
}

TEST(PlanErrors, RecvWithoutSend) {
    json doc = plan_to_json(sample_plan());
    doc["layers"][0]["ops"].erase(2);
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/2", {"op 4 receives flow 0", "no send"}));
}

TEST(PlanErrors, RecvBytesDiffer) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 3)["bytes"] = 1000;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/3/bytes", {"op 4", "op 3", "1000"}));
}

TEST(PlanErrors, RecvOnWrongChiplet) {
    Plan plan = sample_plan();
    plan.layers[0].ops[3].peer = 1;  // recv "from" itself is caught first
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3/from", {"op 4", "own chiplet 1"}));
    plan = sample_plan();
    plan.chiplets = 3;
    plan.layers[0].ops[2].peer = 2;  // send goes to chiplet 2, recv sits on chiplet 1
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3", {"op 4 on chiplet 1", "op 3"}));
}

TEST(PlanErrors, TwoSendsShareAFlow) {
    Plan plan = sample_plan();
    PlanOp tx = make_op(7, 0, OpKind::Send);
    tx.bytes = 2048;
    tx.flow = 0;
    tx.peer = 1;
    plan.layers[1].ops.push_back(tx);
    EXPECT_TRUE(names(error_of(plan), "/layers/1/ops/2/flow", {"op 7 reuses flow 0 of op 3"}));
}

TEST(PlanErrors, ChipletOutOfRange) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 1, 1)["chiplet"] = 2;
    EXPECT_TRUE(names(error_of(doc), "/layers/1/ops/1/chiplet", {"[0, 2)", "op 6 on chiplet 2"}));
}

TEST(PlanErrors, MemoryOutOfRange) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 0)["memory"] = 1;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/0/memory", {"[0, 1)", "op 1 on memory 1"}));
}

TEST(PlanErrors, ZeroBytes) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 1, 1)["bytes"] = 0;
    EXPECT_TRUE(names(error_of(doc), "/layers/1/ops/1/bytes", {"positive", "op 6 with 0 bytes"}));
}

TEST(PlanErrors, DuplicateAndDecreasingIds) {
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 3)["id"] = 3;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/3/id",
                      {"unique", "op 3, already used at /layers/0/ops/2"}));
    doc = plan_to_json(sample_plan());
    op_at(doc, 1, 0)["id"] = 0;
    EXPECT_TRUE(names(error_of(doc), "/layers/1/ops/0/id", {"increasing", "op 0 after op 4"}));
}

TEST(PlanErrors, LayerMacsMismatch) {
    json doc = plan_to_json(sample_plan());
    doc["layers"][1]["macs"] = 499;
    EXPECT_TRUE(names(error_of(doc), "/layers/1/macs", {"(500)", "found 499"}));
}

// ---- grouped transfers (version 2) -------------------------------------------------------

// 3 chiplets in a row (routers 0-1-2). Chiplet 0 sends one grouped op: 100 bytes to chiplet 1
// (flow 10), 300 bytes to chiplet 2 over the route 0 -> 1 -> 2 (flow 11). Chiplet 2 receives
// flow 11 and, in the same grouped recv, 50 bytes from chiplet 1 (flow 12, single-form send).
// JSON positions: /layers/0/ops/0..4 = ops 0..4.
Plan grouped_plan() {
    Plan plan;
    plan.arch = "row3";
    plan.workload = "hand";
    plan.optimizer = "hand";
    plan.chiplets = 3;
    plan.memories = 0;
    PlanLayer l;
    l.name = "scatter";
    PlanOp tx = make_op(0, 0, OpKind::Send);
    tx.transfers = {Transfer{1, 100, 10, {}}, Transfer{2, 300, 11, {0, 1, 2}}};
    tx.bytes = 400;
    PlanOp tx1 = make_op(1, 1, OpKind::Send);
    tx1.bytes = 50, tx1.flow = 12, tx1.peer = 2;
    PlanOp rx1 = make_op(2, 1, OpKind::Recv);
    rx1.transfers = {Transfer{0, 100, 10, {}}};
    rx1.bytes = 100;
    PlanOp rx2 = make_op(3, 2, OpKind::Recv);
    rx2.transfers = {Transfer{1, 50, 12, {}}, Transfer{0, 300, 11, {}}};
    rx2.bytes = 350;
    l.ops = {tx, tx1, rx1, rx2};
    plan.layers = {l};
    return plan;
}

TEST(PlanGrouped, RoundTripKeepsTransfersAndRoutes) {
    const Plan plan = grouped_plan();
    EXPECT_EQ(error_of(plan), "no error");
    const json doc = plan_to_json(plan);
    const json& tx = op_at(const_cast<json&>(doc), 0, 0);
    EXPECT_FALSE(tx.contains("bytes"));  // derived: the sum of the transfers
    EXPECT_FALSE(tx.contains("to"));
    ASSERT_EQ(tx["transfers"].size(), 2u);
    EXPECT_EQ(tx["transfers"][1]["route"], json({0, 1, 2}));
    EXPECT_EQ(tx["transfers"][1]["to"], 2);
    EXPECT_EQ(op_at(const_cast<json&>(doc), 0, 3)["transfers"][0]["from"], 1);
    const Plan back = plan_from_json(doc, "mem.json");
    EXPECT_EQ(plan_to_json(back), doc);
    EXPECT_EQ(back.layers[0].ops[0].bytes, 400);  // 100 + 300
    EXPECT_EQ(back.layers[0].ops[3].bytes, 350);  // 50 + 300
    EXPECT_EQ(back.layers[0].ops[0].transfer_count(), 2u);
    EXPECT_EQ(back.layers[0].ops[1].transfer_count(), 1u);  // single form
    EXPECT_EQ(back.layers[0].ops[1].transfer(0).flow, 12);
    ASSERT_NE(back.layers[0].ops[0].transfer(1).route, nullptr);
    EXPECT_EQ(back.layers[0].ops[0].transfer(0).route, nullptr);
}

TEST(PlanGrouped, Version1FileLoadsButRejectsTransfers) {
    json doc = plan_to_json(sample_plan());
    doc["version"] = 1;  // single-transfer plans are valid version 1 files
    EXPECT_EQ(error_of(doc), "no error");
    doc = plan_to_json(grouped_plan());
    doc["version"] = 1;
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/0/transfers", {"version 2", "op 0"}));
}

TEST(PlanGrouped, FlowReceivedTwiceNamesTransfer) {
    Plan plan = grouped_plan();
    plan.layers[0].ops[3].transfers[1].flow = 10;  // flow 10 is already received by op 2
    plan.layers[0].ops[3].transfers[1].bytes = 100;
    plan.layers[0].ops[3].bytes = 150;
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3/transfers/1/flow", {"op 3 reuses flow 10 of op 2"}));
}

TEST(PlanGrouped, FlowNeverReceived) {
    Plan plan = grouped_plan();
    plan.layers[0].ops[3].transfers.pop_back();  // nobody receives flow 11
    plan.layers[0].ops[3].bytes = 50;
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/0/transfers/1", {"op 0 sends flow 11", "no recv"}));
}

TEST(PlanGrouped, BytesAndEndpointsMustMatchPerFlow) {
    Plan plan = grouped_plan();
    plan.layers[0].ops[3].transfers[1].bytes = 299;
    plan.layers[0].ops[3].bytes = 349;
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3/transfers/1/bytes", {"300 bytes as sent by op 0", "299"}));
    plan = grouped_plan();
    plan.layers[0].ops[3].transfers[1].peer = 1;  // flow 11 claims to come from chiplet 1
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3/transfers/1", {"from chiplet 0 as sent by op 0", "from chiplet 1"}));
}

TEST(PlanGrouped, OpBytesMustBeTheSum) {
    Plan plan = grouped_plan();
    plan.layers[0].ops[0].bytes = 399;
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/0/bytes", {"(400 bytes)", "op 0 with 399 bytes"}));
    json doc = plan_to_json(grouped_plan());
    op_at(doc, 0, 0)["bytes"] = 400;  // not allowed next to "transfers"
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/0/bytes", {"unknown key \"bytes\"", "op 0"}));
}

TEST(PlanGrouped, RouteOnlyOnSends) {
    json doc = plan_to_json(grouped_plan());
    op_at(doc, 0, 3)["transfers"][1]["route"] = json({0, 1, 2});
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/3/transfers/1/route", {"unknown key \"route\""}));
    Plan plan = grouped_plan();
    plan.layers[0].ops[3].transfers[1].route = {0, 1, 2};
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/3/transfers/1/route", {"only on a send", "op 3"}));
}

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

}  // namespace
}  // namespace mcmsim

namespace mcmsim {
namespace {

// A compute op may carry the shape of its work (for PE-array timing) and element-wise
// vector work; both survive a round trip, and a shape must multiply out to the op's MACs.
TEST(Plan, ShapeAndVectorOpsRoundTrip) {
    Plan plan = sample_plan();
    PlanOp& mm = plan.layers[0].ops[1];
    mm.shape = TileShape{1, 10, 10, 2, 5, 1, 1, 1};  // 1*10*10*2*5 = 1000 = mm.macs
    mm.vector_ops = 640;
    const json doc = plan_to_json(plan);
    const Plan back = plan_from_json(doc, "mem.json");
    EXPECT_EQ(back.layers[0].ops[1].shape.macs(), 1000);
    EXPECT_EQ(back.layers[0].ops[1].shape.q, 5);
    EXPECT_EQ(back.layers[0].ops[1].vector_ops, 640);
    EXPECT_EQ(plan_to_json(back), doc);
}

TEST(PlanErrors, ShapeDisagreesWithMacs) {
    Plan plan = sample_plan();
    plan.layers[0].ops[1].shape = TileShape{1, 10, 10, 2, 4, 1, 1, 1};  // 800 != 1000
    EXPECT_TRUE(names(error_of(plan), "/layers/0/ops/1/shape", {"800", "1000", "op 2"}));
    json doc = plan_to_json(sample_plan());
    op_at(doc, 0, 1)["shape"] = {{"n", 1}, {"k", 10}, {"c", 10}, {"p", 2}, {"q", 5}, {"r", 1}, {"s", 1}};
    EXPECT_TRUE(names(error_of(doc), "/layers/0/ops/1/shape", {"\"stride\""}));
}

// The flow lookup the analytical model fills while it reads a plan, before it knows how many
// flows there are: keys 0, 1, 2, ... grow the flat table, a key past the bound goes to the
// map, and every key finds the value it was given (the first one, when inserted twice).
TEST(KeyIndex, GrowingTableFindsDenseAndSparseKeys) {
    KeyIndex index;
    index.prepare_growing(1000);
    for (std::int64_t k = 0; k < 300; ++k) EXPECT_TRUE(index.insert(k, static_cast<std::size_t>(2 * k)));
    EXPECT_TRUE(index.insert(5000, 7));
    EXPECT_TRUE(index.insert(999, 8));
    EXPECT_FALSE(index.insert(10, 9));
    for (std::int64_t k = 0; k < 300; ++k) EXPECT_EQ(index.find(k), static_cast<std::size_t>(2 * k));
    EXPECT_EQ(index.find(5000), 7u);
    EXPECT_EQ(index.find(999), 8u);
    EXPECT_EQ(index.find(300), KeyIndex::kNone);
    EXPECT_EQ(index.find(4999), KeyIndex::kNone);
    // Prepared again, it forgets every key.
    index.prepare_growing(1000);
    EXPECT_EQ(index.find(10), KeyIndex::kNone);
    EXPECT_EQ(index.find(5000), KeyIndex::kNone);
    EXPECT_TRUE(index.insert(10, 1));
    EXPECT_EQ(index.find(10), 1u);
}

}  // namespace
}  // namespace mcmsim
