// Chakra execution traces: a plan written as ETs decodes with the schema's generated code
// into the nodes the mapping in chakra_trace.h promises, and reads back as the same plan;
// broken traces are one-line input errors.
#include "traces/chakra/chakra_trace.h"

#include "hw/common/input_error.h"
#include "tests/traces/plan/sample_plans.h"
#include "traces/chakra/et_def.pb.h"

#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

namespace mcmsim {
namespace {

namespace fs = std::filesystem;
namespace et = ChakraProtoMsg;

using plan_test::make_op;

// Two chiplets, one memory. Layer "conv" on chiplet 0: a DRAM read, a shaped compute (1 x 4
// x 2 x 2 x 2 x 1 x 1 = 32 MACs, 5 vector ops), a routed single-transfer send of 100 B to
// chiplet 1. Layer "fc": chiplet 1 computes 10 MACs and sends 50 B and 70 B back in one
// grouped send; chiplet 0 receives both in one grouped recv and writes 120 B to DRAM.
Plan hand_plan() {
    Plan p;
    p.arch = "hand";
    p.workload = "chakra";
    p.optimizer = "hand";
    p.chiplets = 2;
    p.memories = 1;
    PlanLayer conv;
    conv.name = "conv";
    PlanOp rd = make_op(0, 0, OpKind::DramRead);
    rd.bytes = 4096, rd.memory = 0, rd.address = 128;
    PlanOp c0 = make_op(1, 0, OpKind::Compute, {0});
    c0.shape = TileShape{1, 4, 2, 2, 2, 1, 1, 1};
    c0.macs = 32, c0.vector_ops = 5, c0.tile = "k[0:4)";
    PlanOp s0 = make_op(2, 0, OpKind::Send, {1});
    s0.peer = 1, s0.bytes = 100, s0.flow = 0, s0.route = {0, 1};
    PlanOp r1 = make_op(3, 1, OpKind::Recv);
    r1.peer = 0, r1.bytes = 100, r1.flow = 0;
    conv.ops = {rd, c0, s0, r1};
    conv.macs = 32;
    PlanLayer fc;
    fc.name = "fc";
    fc.inputs = {0};
    PlanOp c1 = make_op(4, 1, OpKind::Compute, {3});
    c1.macs = 10, c1.sram_bytes = 64;
    PlanOp s1 = make_op(5, 1, OpKind::Send, {4});
    s1.transfers = {Transfer{0, 50, 1, {}}, Transfer{0, 70, 2, {}}};
    s1.bytes = 120;
    PlanOp r0 = make_op(6, 0, OpKind::Recv);
    r0.transfers = {Transfer{1, 50, 1, {}}, Transfer{1, 70, 2, {}}};
    r0.bytes = 120;
    PlanOp wr = make_op(7, 0, OpKind::DramWrite, {6});
    wr.bytes = 120, wr.memory = 0, wr.address = 4096;
    fc.ops = {c1, s1, r0, wr};
    fc.macs = 10;
    p.layers = {conv, fc};
    validate_plan(p, "hand");
    return p;
}

std::string fresh_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("mcmsim-chakra-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(d);
    return d.string();
}

struct Decoded {
    et::GlobalMetadata meta;
    std::vector<et::Node> nodes;
};

Decoded decode(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    google::protobuf::io::IstreamInputStream in(&f);
    Decoded d;
    bool eof = false;
    EXPECT_TRUE(google::protobuf::util::ParseDelimitedFromZeroCopyStream(&d.meta, &in, &eof)) << path;
    for (;;) {
        et::Node n;
        if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&n, &in, &eof)) break;
        d.nodes.push_back(n);
    }
    EXPECT_TRUE(eof) << path << ": stopped before the end";
    return d;
}

const et::AttributeProto& attr(const et::Node& n, const std::string& name) {
    for (const auto& a : n.attr())
        if (a.name() == name) return a;
    ADD_FAILURE() << "node " << n.id() << " has no attribute " << name;
    static et::AttributeProto none;
    return none;
}

std::vector<std::uint64_t> deps(const et::Node& n) { return {n.data_deps().begin(), n.data_deps().end()}; }

TEST(ChakraTrace, DecodesWithTheSchemaIntoTheDocumentedNodes) {
    const std::string dir = fresh_dir("decode");
    const ChakraFiles f = write_chakra(hand_plan(), nullptr, dir);
    ASSERT_EQ(f.files.size(), 2u);
    EXPECT_EQ(f.nodes, 10);  // 8 ops, two of them with two transfers
    const Decoded c0 = decode(dir + "/mcmsim.0.et"), c1 = decode(dir + "/mcmsim.1.et");
    EXPECT_EQ(c0.meta.version(), "0.0.4");
    ASSERT_EQ(c0.nodes.size(), 6u);
    ASSERT_EQ(c1.nodes.size(), 4u);
    const std::vector<et::NodeType> types0 = {et::MEM_LOAD_NODE,  et::COMP_NODE,      et::COMM_SEND_NODE,
                                              et::COMM_RECV_NODE, et::COMM_RECV_NODE, et::MEM_STORE_NODE};
    for (std::size_t i = 0; i < types0.size(); ++i) {
        EXPECT_EQ(c0.nodes[i].type(), types0[i]) << i;
        EXPECT_EQ(c0.nodes[i].id(), i);
    }
    const std::vector<et::NodeType> types1 = {et::COMM_RECV_NODE, et::COMP_NODE, et::COMM_SEND_NODE, et::COMM_SEND_NODE};
    for (std::size_t i = 0; i < types1.size(); ++i) EXPECT_EQ(c1.nodes[i].type(), types1[i]) << i;
    // The read: 4096 B; the compute: 2 x 32 MACs + 5 = 69 operations, after the read.
    EXPECT_EQ(attr(c0.nodes[0], "tensor_size").uint64_val(), 4096u);
    EXPECT_EQ(attr(c0.nodes[1], "num_ops").int64_val(), 69);
    EXPECT_EQ(deps(c0.nodes[1]), std::vector<std::uint64_t>{0});
    // The send: 0 -> 1, 100 B, tag = flow 0, after the compute.
    const et::Node& send = c0.nodes[2];
    EXPECT_EQ(attr(send, "comm_src").int64_val(), 0);
    EXPECT_EQ(attr(send, "comm_dst").int64_val(), 1);
    EXPECT_EQ(attr(send, "comm_size").int64_val(), 100);
    EXPECT_EQ(attr(send, "comm_tag").int64_val(), 0);
    EXPECT_EQ(deps(send), std::vector<std::uint64_t>{1});
    // Chiplet 0's grouped recv is two recv nodes (50 B flow 1, 70 B flow 2) from chiplet 1;
    // the write waits for both.
    EXPECT_EQ(attr(c0.nodes[3], "comm_src").int64_val(), 1);
    EXPECT_EQ(attr(c0.nodes[3], "comm_size").int64_val(), 50);
    EXPECT_EQ(attr(c0.nodes[4], "comm_size").int64_val(), 70);
    EXPECT_EQ(attr(c0.nodes[4], "comm_tag").int64_val(), 2);
    EXPECT_EQ(deps(c0.nodes[5]), (std::vector<std::uint64_t>{3, 4}));
    // Chiplet 1: its recv of flow 0, then the compute after it, then both sends after that.
    EXPECT_EQ(attr(c1.nodes[0], "comm_tag").int64_val(), 0);
    EXPECT_EQ(attr(c1.nodes[0], "comm_dst").int64_val(), 1);
    EXPECT_EQ(deps(c1.nodes[1]), std::vector<std::uint64_t>{0});
    EXPECT_EQ(deps(c1.nodes[2]), std::vector<std::uint64_t>{1});
    EXPECT_EQ(deps(c1.nodes[3]), std::vector<std::uint64_t>{1});
    EXPECT_EQ(attr(c1.nodes[3], "comm_dst").int64_val(), 0);
    fs::remove_all(dir);
}

TEST(ChakraTrace, WrittenAndReadBackIsTheSamePlan) {
    const std::string dir = fresh_dir("round");
    const Plan p = hand_plan();
    write_chakra(p, nullptr, dir);
    EXPECT_EQ(plan_to_json(read_chakra(dir)).dump(), plan_to_json(p).dump());
    fs::remove_all(dir);
}

// Durations as the schema has them, whole microseconds, rounded; exact in mcmsim.*_ns.
TEST(ChakraTrace, DurationsAreTheEvaluatorsInMicroseconds) {
    const std::string dir = fresh_dir("times");
    const Plan p = hand_plan();
    std::vector<OpTimes> times(p.op_count(), OpTimes{0, 10});
    times[1] = OpTimes{1500, 3700};  // the compute: starts at 1.5 us, lasts 2.2 us
    write_chakra(p, &times, dir);
    const Decoded c0 = decode(dir + "/mcmsim.0.et");
    EXPECT_EQ(c0.nodes[1].start_time_micros(), 2u);
    EXPECT_EQ(c0.nodes[1].duration_micros(), 2u);
    EXPECT_DOUBLE_EQ(attr(c0.nodes[1], "mcmsim.duration_ns").double_val(), 2200);
    EXPECT_DOUBLE_EQ(attr(c0.nodes[1], "mcmsim.start_ns").double_val(), 1500);
    fs::remove_all(dir);
}

std::string error_of(const std::string& dir) {
    try {
        read_chakra(dir);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(ChakraTrace, BrokenTracesAreOneLineInputErrors) {
    const std::string dir = fresh_dir("bad");
    write_chakra(hand_plan(), nullptr, dir);
    const std::string one = dir + "/mcmsim.1.et";
    const auto size = fs::file_size(one);
    // Cut inside the last node.
    fs::resize_file(one, size - 3);
    std::string e = error_of(dir);
    EXPECT_NE(e.find("mcmsim.1.et: node 3: expected a length-delimited Node"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos);
    // Not protobuf at all.
    {
        std::ofstream f(one, std::ios::binary | std::ios::trunc);
        f << "\xff\xff\xff\xff\xff not an ET";
    }
    e = error_of(dir);
    EXPECT_NE(e.find("mcmsim.1.et: metadata: expected a length-delimited GlobalMetadata"), std::string::npos) << e;
    // A missing chiplet.
    fs::remove(dir + "/mcmsim.0.et");
    e = error_of(dir);
    EXPECT_NE(e.find("expected ETs numbered 0 to 0"), std::string::npos) << e;
    // Nothing there.
    fs::remove_all(dir);
    e = error_of(dir);
    EXPECT_NE(e.find("no such directory"), std::string::npos) << e;
    fs::create_directories(dir);
    e = error_of(dir);
    EXPECT_NE(e.find("expected files named <prefix>.<chiplet>.et"), std::string::npos) << e;
    fs::remove_all(dir);
}

// ETs of two different plans in one directory are refused, not mixed.
TEST(ChakraTrace, EtsOfAnotherPlanAreRefused) {
    const std::string a = fresh_dir("a"), b = fresh_dir("b");
    Plan p = hand_plan();
    write_chakra(p, nullptr, a);
    p.workload = "other";
    write_chakra(p, nullptr, b);
    fs::copy_file(b + "/mcmsim.1.et", a + "/mcmsim.1.et", fs::copy_options::overwrite_existing);
    const std::string e = error_of(a);
    EXPECT_NE(e.find("expected the same mcmsim.plan as the other ETs"), std::string::npos) << e;
    fs::remove_all(a);
    fs::remove_all(b);
}

}  // namespace
}  // namespace mcmsim
