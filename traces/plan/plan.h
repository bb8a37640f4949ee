#pragma once
// The execution plan: the mapper's output, the simulator's input and the trace format of
// trace-driven runs. Versioned JSON (format "mcmsim-plan", version 3; versions 1 and 2 still
// load) described in docs/plan-format.md.
//
// Ops are grouped by layer; each op runs on one chiplet. Dependencies name earlier ops on the
// same chiplet; chiplets synchronise only through flows: a flow is one transfer of bytes from
// a send op on one chiplet to a recv op on another, paired by flow id.
//
// A send or recv op carries one transfer (its own bytes / flow / peer / route fields) or a
// list of them (`transfers`; then flow and peer stay -1, route empty and bytes is the sum):
//  - a grouped send is a multi-destination DMA: when its dependencies are done it injects its
//    transfers in list order, each transfer's packets back to back, and it is done when the
//    last packet has left its network interface;
//  - a grouped recv waits for all its flows; it is done when every byte of each has arrived.
// The mapper emits one send per (layer, source chiplet, dependencies) and one recv per
// (layer, destination chiplet, consumer), so a 36-chiplet all-to-all is 72 ops, not 2520.
// Pure C++: no SystemC.
#include "hw/common/choice.h"
#include "hw/compute/compute_work.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcmsim {

enum class OpKind { Compute, Send, Recv, DramRead, DramWrite };

template <>
struct ChoiceNames<OpKind> {
    static constexpr std::pair<OpKind, const char*> all[] = {{OpKind::Compute, "compute"},
                                                             {OpKind::Send, "send"},
                                                             {OpKind::Recv, "recv"},
                                                             {OpKind::DramRead, "dram_read"},
                                                             {OpKind::DramWrite, "dram_write"}};
};

/// One flow of a grouped send or recv op.
struct Transfer {
    int peer = -1;           ///< send: destination chiplet; recv: source chiplet
    std::int64_t bytes = 0;  ///< > 0
    std::int64_t flow = -1;  ///< pairing key, unique per plan
    std::vector<int> route;  ///< send only, optional: routers from source to destination
};

/// A transfer as seen through PlanOp::transfer(), whichever form the op uses.
struct TransferRef {
    int peer;
    std::int64_t bytes;
    std::int64_t flow;
    const std::vector<int>* route;  ///< null when the package's routing decides
};

struct PlanOp {
    std::int64_t id = 0;  ///< unique, increasing in file order
    int chiplet = 0;      ///< chiplet that executes the op
    OpKind kind = OpKind::Compute;
    std::vector<std::int64_t> deps;  ///< ids of earlier ops on the same chiplet

    // compute
    std::int64_t macs = 0;
    std::int64_t sram_bytes = 0;  ///< bytes read and written in on-chip buffers
    std::string tile;             ///< human-readable tile description, e.g. "k[0:64)"
    TileShape shape;              ///< optional: the work's shape (macs must equal shape.macs())
    std::int64_t vector_ops = 0;  ///< element-wise operations (pooling, adds, softmax, ...)
    /// What the op asks of the chiplet's compute unit.
    ComputeWork work() const { return ComputeWork{shape, macs, vector_ops, sram_bytes}; }

    // send / recv / dram
    std::int64_t bytes = 0;  ///< a grouped send/recv: the sum of its transfers
    std::int64_t flow = -1;  ///< single-transfer send/recv: pairing key
    int peer = -1;           ///< single-transfer send: destination chiplet; recv: source chiplet
    /// Single-transfer send, optional: source route (router ids, source router to destination
    /// router, both included, consecutive routers neighbours in the package).
    std::vector<int> route;
    std::vector<Transfer> transfers;  ///< grouped send/recv (non-empty), else empty

    /// Number of transfers of a send/recv op (1 for the single-transfer form).
    std::size_t transfer_count() const { return transfers.empty() ? 1 : transfers.size(); }
    TransferRef transfer(std::size_t i) const {
        if (transfers.empty()) return TransferRef{peer, bytes, flow, route.empty() ? nullptr : &route};
        const Transfer& t = transfers[i];
        return TransferRef{t.peer, t.bytes, t.flow, t.route.empty() ? nullptr : &t.route};
    }

    // dram read / write
    int memory = -1;            ///< index into the arch's memory list
    std::uint64_t address = 0;  ///< byte address inside that memory
};

/// Where a pipelined segment's weights come from per micro-batch: read once and kept resident,
/// or read again for every micro-batch (they do not fit the weight buffers).
enum class WeightResidency { None, Resident, PerMicroBatch };

template <>
struct ChoiceNames<WeightResidency> {
    static constexpr std::pair<WeightResidency, const char*> all[] = {{WeightResidency::Resident, "resident"},
                                                                      {WeightResidency::PerMicroBatch, "per micro-batch"}};
};

/// How the mapper mapped a layer and what its data movement costs in bytes. Optional and
/// informative: the evaluators ignore it (they execute the ops).
struct PlanLayerMapping {
    std::string partition;  ///< Partition::describe(), e.g. "K uniform", "P x K non-uniform"
    /// Shares of a non-uniform partition as the mapping gave them (1-D: per chiplet; 2-D: per
    /// grid row and per grid column); empty when uniform.
    std::vector<double> shares, row_shares, col_shares;
    std::string route;            ///< route policy of the layer's flows: xy, yx, split, diagonal
    std::string collective;       ///< algorithm asked for the input redistribution: direct, ring, 2d, tree
    std::int64_t multicasts = 0;  ///< input parts the collective delivered to two or more chiplets
    /// What went direct although another collective was asked for, and why; empty if nothing.
    std::string fallback;
    /// Bytes sent between chiplets (every transfer, relay hops included), and bytes x
    /// package links crossed, and the busiest directed package link's bytes.
    std::int64_t package_bytes = 0, package_link_bytes = 0, max_link_bytes = 0;
    /// Bytes a chiplet served from its own buffers instead of the package: the parts of the
    /// input it produced itself and its own share of a reduction.
    std::int64_t onchip_bytes = 0;
    std::int64_t dram_bytes = 0;  ///< DRAM reads and writes of the layer's ops
    /// Layer-pipelined placement: the layer's segment (-1: layer-sequential placement, and
    /// then group, micro-batch and weights stay unset).
    int segment = -1;
    /// The chiplets the layer ran on: a rectangle of the package grid (rows == 0: not recorded).
    struct Group {
        int row0 = 0, col0 = 0, rows = 0, cols = 0;
    } group;
    /// With micro-batches: which one this plan layer computes, of how many (0 of 0: the whole batch).
    int micro_batch = 0, micro_batches = 0;
    /// Layer-pipelined placement: where the layer's weights come from per micro-batch (None:
    /// not recorded, e.g. layer-sequential or no weights).
    WeightResidency weights = WeightResidency::None;
    /// Weight slices read once and multicast to the other chiplets holding the same slice
    /// (0: every chiplet read its own copy), and the DRAM bytes that saved.
    std::int64_t weight_multicasts = 0, weight_dram_bytes_saved = 0;
    /// Network-input regions read once and forwarded to the other chiplets needing the same
    /// region from the same memory (0: every chiplet read its own), and the DRAM bytes that saved.
    std::int64_t input_multicasts = 0, input_dram_bytes_saved = 0;
    /// Output slices larger than a chiplet's global buffer, written to DRAM for the consumers
    /// to read there: bytes written and how many chiplets did so (0: every slice stayed on chip).
    std::int64_t spilled_bytes = 0;
    int spilled_producers = 0;
    /// Parts of spilled inputs that several chiplets need, read from DRAM once and forwarded:
    /// the DRAM reads that saved, bytes (0: none).
    std::int64_t spill_dram_bytes_saved = 0;
};

struct PlanLayer {
    std::string name;
    std::int64_t macs = 0;  ///< the layer's total MACs (sum of its compute ops)
    /// Earlier plan layers whose outputs this layer reads (indices into Plan::layers, each
    /// below this layer's). Empty: the layer reads only memory, or the plan does not say (hand-
    /// made plans); then the causality check tests op order only.
    std::vector<int> inputs;
    std::vector<PlanOp> ops;
    std::optional<PlanLayerMapping> mapping;  ///< set by the mapper; absent in hand-made plans
};

struct Plan {
    static constexpr const char* kFormat = "mcmsim-plan";  ///< the "format" every plan file names
    static constexpr int kVersion = 3;                     ///< written
    static constexpr int kMinVersion = 1;                  ///< oldest read (no grouped transfers)
    /// Ops plus transfers a plan may hold: an op record with its transfers takes a few hundred
    /// bytes in each evaluator and more as JSON, so this keeps a plan, its file and either
    /// evaluator's state within a few GB. A direct all-to-all on a large package grows with
    /// the square of the chiplets and reaches it first.
    static constexpr std::int64_t kMaxEntries = std::int64_t{1} << 22;
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
/// One op as plan_to_json() writes it (the trace converters build plans op by op).
nlohmann::json plan_op_to_json(const PlanOp& op);
/// Strict reader: unknown keys, wrong types and a version mismatch are InputErrors naming `file`.
/// Runs validate_plan on the result.
Plan plan_from_json(const nlohmann::json& doc, const std::string& file);
Plan read_plan(const std::string& path);
void write_plan(const Plan& plan, const std::string& path);

/// Structural checks: unique increasing ids, deps on earlier ops of the same chiplet, chiplet
/// and memory indices in range, positive byte counts, every flow sent exactly once and
/// received exactly once (same bytes and endpoints), a grouped op's bytes equal to the sum of
/// its transfers, routes only on sends, layer MACs equal to the sum of its compute ops.
/// Throws InputError naming the op's JSON pointer ("/layers/3/ops/17/transfers/2/flow").
void validate_plan(const Plan& plan, const std::string& file);

}  // namespace mcmsim
