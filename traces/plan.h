#pragma once
// The execution plan: the mapper's output, the simulator's input and the trace format of
// trace-driven runs. Versioned JSON (format "mcmsim-plan", version 1) described in README.md.
//
// Ops are grouped by layer; each op runs on one chiplet. Dependencies name earlier ops on the
// same chiplet; chiplets synchronise only through send/recv pairs that share a flow id.
// Pure C++: no SystemC.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcmsim {

enum class OpKind { Compute, Send, Recv, DramRead, DramWrite };

const char* to_string(OpKind kind);

/// The shape of a compute op's work, a slice of its layer (convolution naming; a fully
/// connected layer has p = q = r = s = 1). Lets a chiplet model time the op on its PE array.
/// `c` counts the input channels one output channel reads (c / groups of the layer).
/// All zero when the op only gives a MAC count.
struct TileShape {
    std::int64_t n = 0, k = 0, c = 0, p = 0, q = 0, r = 0, s = 0, stride = 1;
    bool empty() const { return k == 0; }
    std::int64_t macs() const { return n * k * c * p * q * r * s; }
};

struct PlanOp {
    std::int64_t id = 0;      ///< unique, increasing in file order
    int chiplet = 0;          ///< chiplet that executes the op
    OpKind kind = OpKind::Compute;
    std::vector<std::int64_t> deps;  ///< ids of earlier ops on the same chiplet

    // compute
    std::int64_t macs = 0;
    std::int64_t sram_bytes = 0;  ///< bytes read and written in on-chip buffers
    std::string tile;             ///< human-readable tile description, e.g. "k[0:64)"
    TileShape shape;              ///< optional: the work's shape (macs must equal shape.macs())
    std::int64_t vector_ops = 0;  ///< element-wise operations (pooling, adds, softmax, ...)

    // send / recv / dram
    std::int64_t bytes = 0;
    std::int64_t flow = -1;  ///< send/recv pairing key
    int peer = -1;           ///< send: destination chiplet; recv: source chiplet
    std::vector<int> route;  ///< optional source route (router ids, first = source router)

    // dram read / write
    int memory = -1;            ///< index into the arch's memory list
    std::uint64_t address = 0;  ///< byte address inside that memory
};

struct PlanLayer {
    std::string name;
    std::int64_t macs = 0;  ///< the layer's total MACs (sum of its compute ops)
    std::vector<PlanOp> ops;
};

struct Plan {
    static constexpr int kVersion = 1;
    std::string arch;       ///< arch config name the plan was made for
    std::string workload;   ///< workload name
    std::string optimizer;  ///< mapper that produced it
    std::uint64_t seed = 0;
    int chiplets = 0;  ///< number of chiplets the plan addresses
    int memories = 0;  ///< number of memory interfaces the plan addresses
    std::vector<PlanLayer> layers;

    std::size_t op_count() const;
};

nlohmann::json plan_to_json(const Plan& plan);
/// Strict reader: unknown keys, wrong types and a version mismatch are InputErrors naming `file`.
/// Runs validate_plan on the result.
Plan plan_from_json(const nlohmann::json& doc, const std::string& file);
Plan read_plan(const std::string& path);
void write_plan(const Plan& plan, const std::string& path);

/// Structural checks: unique increasing ids, deps on earlier ops of the same chiplet, chiplet
/// and memory indices in range, positive byte counts, every send matched by exactly one recv
/// (same flow, bytes, and endpoints), layer MACs equal to the sum of its compute ops.
/// Throws InputError naming the op's JSON pointer ("/layers/3/ops/17").
void validate_plan(const Plan& plan, const std::string& file);

}  // namespace mcmsim
