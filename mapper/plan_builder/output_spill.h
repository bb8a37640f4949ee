#pragma once
// Outputs spilled to DRAM when they do not fit (used by the plan builder). Pure C++.
//
// Rule: a chiplet holds its output slice of a layer (its owned pieces once any partial-sum
// reduction has landed on it) in its global buffer until the consumers have it. A slice larger
// than the global buffer is written to the producer's nearest memory instead, in one DramWrite
// of the whole slice (pieces back to back, each laid out n, k, p, q), and the consumers get
// their parts from there rather than over the package from the producer. A part that only one
// consumer chiplet needs is read by that chiplet. A part that several need (the same bytes:
// the input delivery groups consumers whose needs are identical, not merely overlapping — e.g.
// every chiplet of a K-split consumer layer needs whole pieces) is read from DRAM once, by the
// needing chiplet nearest (package hops) to the memory holding it, ties to the lowest id, and
// forwarded to the others by the layer's collective, like multicast weights. What a consumer
// receives is assumed to stream through its buffers (not checked).
//
// Ordering across chiplets goes through flows, the plan's only cross-chiplet dependency: after
// its write the producer sends each chiplet that reads from its slice a one-flit notice (a
// flag write into that chiplet's memory-mapped semaphore: the smallest thing the package
// moves, one packet of the package's flit_bytes), and the DramRead waits for the recv of that
// notice. A reader on the producer itself waits for the write directly. Forwarding sends wait
// for the DramRead.
#include "hw/common/id_vector.h"
#include "mapper/plan_builder/chiplet_memories.h"
#include "mapper/plan_builder/op_sink.h"
#include "traces/plan/plan.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mcmsim {

/// What OutputSpill::flush needs besides ops and flow ids: the layer's package-byte accounting
/// for the notices, and where the bytes a reader forwards go (mapper/plan_builder/input_delivery.h).
class SpillSink : public OpSink {
public:
    /// A notice flow (package routing, no source route) to count in the layer's package bytes.
    virtual void count_flow(int from, int to, std::int64_t bytes) = 0;
    /// `bytes` that `from` read (op `read`) and every chiplet of `dests` (one or more, `from`
    /// excluded) needs: handed to the layer's transfers (its collective for two or more).
    virtual void forward(int from, const std::vector<int>& dests, std::int64_t bytes, std::int64_t read) = 0;

protected:
    ~SpillSink() = default;
};

class OutputSpill {
public:
    /// `capacity`: a chiplet's global buffer bytes; `notice_bytes`: one notification transfer;
    /// `memories`: each chiplet's nearest memory and its package hops to every memory;
    /// `steps`: plan layers the builder makes.
    OutputSpill(std::int64_t capacity, std::int64_t notice_bytes, const ChipletMemories& memories, int steps);

    /// Producer side, once step `step`'s output pieces on `chiplet` are final (their bytes and
    /// the ops that make them ready): a slice that does not fit the global buffer is written to
    /// DRAM (one DramWrite in `layer` waiting for every piece). Returns whether it spilled.
    bool hold_or_write(OpSink& sink, PlanLayer& layer, int step, int chiplet, const std::vector<std::int64_t>& piece_bytes,
                       const std::vector<std::int64_t>& ready);

    bool spilled(int step, int chiplet) const { return write_of(step, chiplet) >= 0; }
    /// The DramWrite of `chiplet`'s slice of `step` (-1: the slice stayed on chip).
    std::int64_t write_of(int step, int chiplet) const;

    /// Consumer side: every chiplet of `consumers` (distinct, one or more) needs the same
    /// `bytes` of piece `piece` of the slice `producer` wrote for `step`, starting `offset`
    /// bytes into the piece (clamped so the read stays inside it). `wait`: the ops on
    /// `producer` after which the bytes are there (the write, and for a tensor built from
    /// several producers each one's write or ready op). The consumer nearest the slice's memory
    /// reads them and forwards them to the others. Held until flush().
    void read(int step, int producer, std::size_t piece, const std::vector<int>& consumers, std::int64_t bytes,
              std::int64_t offset, std::vector<std::int64_t> wait);

    /// Emits the reads held since the last flush into `layer`: per (producer chiplet, wait set)
    /// one send of a notice to every other reading chiplet, waiting for that set; per reader
    /// one recv of each notice it gets; then the DramReads, each waiting for its notice's recv
    /// (or, on the producer itself, for the wait set), each read of a shared part handed to
    /// sink.forward(). Appends each reader's reads to deps[reader] (the forwarded bytes'
    /// recvs come from the sink's transfers).
    void flush(SpillSink& sink, PlanLayer& layer, ChipletDeps& deps);

private:
    struct Slice {
        std::int64_t write = -1;  ///< the DramWrite (-1: held on chip)
        int memory = -1;
        std::uint64_t address = 0;
        std::vector<std::int64_t> piece_offset, piece_bytes;
    };
    struct Read {
        int step;
        int producer;
        std::size_t piece;
        int consumer;              ///< the chiplet that reads from DRAM
        std::vector<int> forward;  ///< the other chiplets needing the bytes (ascending)
        std::int64_t bytes, offset;
        std::vector<std::int64_t> wait;  ///< sorted, unique
    };
    const Slice& slice(int step, int chiplet) const { return slices_[step][chiplet]; }

    std::int64_t capacity_, notice_bytes_;
    const ChipletMemories& memories_;
    IdVector<IdVector<Slice>> slices_;  ///< [step][chiplet]
    std::vector<Read> reads_;           ///< held until flush()
};

}  // namespace mcmsim
