#pragma once
// How a plan layer's inputs reach the chiplets that need them (used by the plan builder).
// Pure C++.
//
// Per operand of the layer and per chiplet with work:
//  - an operand without a producer (the network input) is read from the chiplet's nearest
//    memory, only the part its box needs. With input multicast (LayerMapping::input_multicast)
//    chiplets needing exactly the same region (the same rows, columns, channels and batch
//    range, or the whole operand of a matmul) from the same memory share one read: the member
//    nearest the memory (ties: lowest id) reads it and the layer's collective forwards it;
//  - a producer's output is where the producer left it, in pieces (OwnedPiece) on its owner
//    chiplets. Each owner gives every consumer the part of each piece it needs: the exact box
//    intersection when the producer's output maps element by element onto the consumer's input
//    (pooling in between scales rows and columns), otherwise a share in proportion to what each
//    side holds and needs (a flatten, an attention reshape). The owner's own part stays local.
//    A tensor that is the sum of several producers (a residual) is formed where it lies and
//    sent once when all of them hold their outputs in the same places, else each producer's
//    output goes on its own;
//  - a part that one other chiplet needs is a point-to-point transfer; a part that several
//    need is sent once and follows the layer's collective (mapper/plan_builder/transfer_batch.h) — sending
//    the same bytes to each consumer separately would cost the owner's link as many times;
//  - a piece its owner spilled to DRAM (mapper/plan_builder/output_spill.h) is read there instead, the
//    owner's own part included; parts that several consumers need are read once and forwarded
//    by the collective, so the DRAM serves the bytes once.
// "The same bytes" is an exact match, not an overlap: the same input region (exact
// intersections) or the whole operand (proportional shares); a spilled part must also start
// at the same place in the piece. Parts that merely overlap go separately.
#include "mapper/mapping/input_need.h"
#include "mapper/mapping/mapping.h"
#include "mapper/mapping/partition.h"
#include "mapper/plan_builder/chiplet_memories.h"
#include "mapper/plan_builder/op_sink.h"
#include "mapper/plan_builder/output_spill.h"
#include "mapper/plan_builder/owned_pieces.h"
#include "mapper/plan_builder/transfer_batch.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace mcmsim {

class InputDelivery : private SpillSink {
public:
    /// `sink`: numbers the plan's ops and flows and lays out DRAM; `batch`: the layer's
    /// transfers; `spill`: which outputs went to DRAM; `owned`: where each step's output lies
    /// (filled by the builder as steps are built); `shapes`: each step's layer shape;
    /// `memories`: each chiplet's nearest memory and its hops to every memory.
    InputDelivery(OpSink& sink, TransferBatch& batch, OutputSpill& spill, const Ownership& owned, IdVector<const Layer*> shapes,
                  const ChipletMemories& memories);

    /// Brings the inputs of a plan layer of shape L, split into `boxes` (one per chiplet), to
    /// the chiplets under the layer's mapping `lm` (its collective and route policy); its ops go
    /// into `layer`. `start`: per chiplet, the op a micro-batch's first work there waits for
    /// (-1: none; empty: none anywhere). Adds what it moves to `info` (on-chip bytes,
    /// multicasts, DRAM bytes saved on spilled parts). Returns, per chiplet, the ops its compute
    /// must wait for.
    ChipletDeps gather(PlanLayer& layer, const Layer& L, const IdVector<WorkBox>& boxes, const LayerMapping& lm,
                       const IdVector<std::int64_t>& start, PlanLayerMapping& info);

    /// Input parts of the last gather() sent point to point although a collective was asked
    /// for (each needed by one other chiplet only).
    std::int64_t direct_inputs() const { return direct_inputs_; }

private:
    /// A consumer's part of one owned piece.
    struct Part {
        int consumer;
        InputNeed need;  ///< send_exact: the part, in the consumer's input coordinates
        std::int64_t bytes;
        bool whole = false;       ///< send_proportional: the consumer needs the whole operand
        bool sent = false;        ///< in a group of an earlier part already
        std::int64_t offset = 0;  ///< from a spilled piece: where the part starts in it, bytes
    };

    // SpillSink: the spill's ops and flows are the builder's; its notices count in the layer's
    // package bytes; a spilled part read once is forwarded like an input part.
    PlanOp& add_op(PlanLayer& layer, int chiplet, OpKind kind, std::vector<std::int64_t> deps) override {
        return sink_.add_op(layer, chiplet, kind, std::move(deps));
    }
    std::int64_t new_flow() override { return sink_.new_flow(); }
    std::uint64_t dram_address(int memory, std::int64_t bytes) override { return sink_.dram_address(memory, bytes); }
    void count_flow(int from, int to, std::int64_t bytes) override { batch_.account_flow(from, to, bytes, {}); }
    void forward(int from, const std::vector<int>& dests, std::int64_t bytes, std::int64_t read) override;
    void send_copies(int from, const std::vector<int>& dests, std::int64_t bytes, std::int64_t read);

    bool same_ownership(const std::vector<int>& producers) const;
    /// The ops after which piece `pi` on owner `o` is ready, one per producer of `group`
    /// (in ready_, valid until the next call).
    const std::vector<std::int64_t>& ready_ops(const std::vector<int>& group, int o, std::size_t pi);
    void read_from_dram(PlanLayer& layer, const Layer& L, const IdVector<WorkBox>& boxes, const Operand& op,
                        const IdVector<std::int64_t>& start, ChipletDeps& deps);
    void send_exact(const Layer& L, const IdVector<WorkBox>& boxes, const std::vector<int>& group, ChipletDeps& deps);
    void send_proportional(const Layer& L, const IdVector<WorkBox>& boxes, const std::vector<int>& group, const Operand& op,
                           ChipletDeps& deps);
    bool spilled_by(const std::vector<int>& group, int o) const;
    template <class Same>
    void read_spilled(const std::vector<int>& group, int o, std::size_t pi, Same same);
    template <class Same>
    void deliver(int o, const std::vector<std::int64_t>& ready, ChipletDeps& deps, Same same);
    template <class Same, class Send>
    void for_each_same(int skip, Same same, Send send);

    OpSink& sink_;
    TransferBatch& batch_;
    OutputSpill& spill_;
    const Ownership& owned_;
    IdVector<const Layer*> shapes_;  ///< [step]
    const ChipletMemories& memories_;
    int n_;

    // The layer being gathered.
    Collective collective_ = Collective::Direct;
    bool input_multicast_ = false;
    PlanLayerMapping* info_ = nullptr;
    std::int64_t direct_inputs_ = 0;

    // Scratch, kept to reuse its memory: the parts of the piece being delivered, a group's chiplets.
    std::vector<Part> parts_;
    std::vector<int> dests_;
    IdVector<int> reader_;             ///< [chiplet] read_from_dram: who reads its input for it (-1: nobody)
    IdVector<InputNeed> needs_;        ///< [chiplet] send_exact: the input its box needs
    std::vector<std::int64_t> ready_;  ///< ready_ops()' answer
};

}  // namespace mcmsim
