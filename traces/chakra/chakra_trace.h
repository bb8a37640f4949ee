#pragma once
// Chakra execution traces (MLCommons Chakra ET, et_def.proto in this folder) from and to
// plans, so that another simulator can replay what mcmsim mapped, and a plan can travel as
// ETs and come back unchanged. Pure C++ (protobuf), no SystemC.
//
// One ET file per chiplet, `<prefix>.<chiplet>.et`: a length-delimited GlobalMetadata, then
// one length-delimited Node per op, or per transfer of a send or recv op:
//   compute    COMP_NODE       num_ops (2 x MACs + vector ops), tensor_size (on-chip bytes)
//   send       COMM_SEND_NODE  comm_src, comm_dst, comm_size, comm_tag (the flow id)
//   recv       COMM_RECV_NODE  the same, seen from the receiver
//   dram_read  MEM_LOAD_NODE   tensor_size
//   dram_write MEM_STORE_NODE  tensor_size
// data_deps name every node of each op the op waits for. Durations and start times are the
// evaluator's, when given, in whole microseconds as the schema has them (and exact, in ns,
// as mcmsim.duration_ns and mcmsim.start_ns). What the schema has no field for is carried as
// attributes named mcmsim.*: the op and layer a node belongs to, MACs, tile, shape, route,
// memory and address, whether the op groups several transfers; and in the metadata, as
// mcmsim.plan, the plan without its ops (layers, names, mapping records). A plan written and
// read back is the same plan, op for op.
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mcmsim {

struct ChakraFiles {
    std::vector<std::string> files;  ///< one per chiplet, in chiplet order
    std::int64_t nodes = 0;
};

/// Writes `plan` into `dir` (created if missing) as `<prefix>.<chiplet>.et` files. `times`,
/// if given, holds each op's times in plan order (an evaluator's). Throws InputError when a
/// file cannot be written.
ChakraFiles write_chakra(const Plan& plan, const std::vector<OpTimes>* times, const std::string& dir,
                         const std::string& prefix = "mcmsim");

/// Reads the ETs in `dir` (every `<prefix>.<N>.et`, N = 0 .. chiplets - 1, one prefix) back
/// into a plan, checked like any plan. Malformed, truncated or incomplete traces are
/// InputErrors naming the file and the node.
Plan read_chakra(const std::string& dir);

}  // namespace mcmsim
