#include "mapper/plan_builder/output_spill.h"

#include <algorithm>
#include <utility>

namespace mcmsim {

OutputSpill::OutputSpill(std::int64_t capacity, std::int64_t notice_bytes, const ChipletMemories& memories, int steps)
    : capacity_(capacity), notice_bytes_(notice_bytes), memories_(memories), slices_(steps) {}

bool OutputSpill::hold_or_write(OpSink& sink, PlanLayer& layer, int step, int chiplet,
                                const std::vector<std::int64_t>& piece_bytes, const std::vector<std::int64_t>& ready) {
    std::int64_t total = 0;
    for (std::int64_t b : piece_bytes) total += b;
    if (total <= capacity_) return false;
    auto& per_chiplet = slices_[step];
    if (per_chiplet.empty()) per_chiplet.resize(memories_.chiplets());  // only steps that spill pay for it
    Slice& s = per_chiplet[chiplet];
    s.memory = memories_.home(chiplet);
    s.piece_bytes = piece_bytes;
    std::int64_t offset = 0;
    for (std::int64_t b : piece_bytes) {
        s.piece_offset.push_back(offset);
        offset += b;
    }
    PlanOp& w = sink.add_op(layer, chiplet, OpKind::DramWrite, ready);
    w.bytes = total, w.memory = s.memory, w.address = sink.dram_address(s.memory, total);
    s.address = w.address;
    s.write = w.id;
    return true;
}

std::int64_t OutputSpill::write_of(int step, int chiplet) const {
    if (step >= slices_.size() || slices_[step].empty()) return -1;
    return slice(step, chiplet).write;
}

void OutputSpill::read(int step, int producer, std::size_t piece, const std::vector<int>& consumers, std::int64_t bytes,
                       std::int64_t offset, std::vector<std::int64_t> wait) {
    std::sort(wait.begin(), wait.end());
    wait.erase(std::unique(wait.begin(), wait.end()), wait.end());
    // The reader: the consumer nearest the memory holding the slice, ties to the lowest id.
    const int memory = slice(step, producer).memory;
    int reader = -1, best = 0;
    for (int c : consumers) {
        const int h = memories_.hops(c, memory);
        if (reader < 0 || h < best || (h == best && c < reader)) reader = c, best = h;
    }
    std::vector<int> forward;
    for (int c : consumers)
        if (c != reader) forward.push_back(c);
    std::sort(forward.begin(), forward.end());
    reads_.push_back(Read{step, producer, piece, reader, std::move(forward), bytes, offset, std::move(wait)});
}

void OutputSpill::flush(SpillSink& sink, PlanLayer& layer, ChipletDeps& deps) {
    if (reads_.empty()) return;
    // A notice goes from a producer chiplet, once a wait set is done there, to one consumer.
    // Sources and notices in the order the reads were asked for; a layer has few of them.
    struct Notice {
        std::size_t source;  ///< index into sources
        int consumer;
        std::int64_t flow, recv;
    };
    std::vector<std::size_t> sources;  // per source: the first read that names it
    std::vector<std::size_t> source_of(reads_.size());
    for (std::size_t i = 0; i < reads_.size(); ++i) {
        const Read& r = reads_[i];
        std::size_t s = 0;
        while (s < sources.size() && !(reads_[sources[s]].producer == r.producer && reads_[sources[s]].wait == r.wait)) ++s;
        if (s == sources.size()) sources.push_back(i);
        source_of[i] = s;
    }
    std::vector<Notice> notices;
    auto notice = [&](std::size_t source, int consumer) -> Notice* {
        for (Notice& n : notices)
            if (n.source == source && n.consumer == consumer) return &n;
        return nullptr;
    };
    for (std::size_t s = 0; s < sources.size(); ++s) {
        const Read& head = reads_[sources[s]];
        PlanOp* send = nullptr;
        for (std::size_t i = sources[s]; i < reads_.size(); ++i) {
            const Read& r = reads_[i];
            if (source_of[i] != s || r.consumer == r.producer || notice(s, r.consumer)) continue;
            if (!send) send = &sink.add_op(layer, head.producer, OpKind::Send, head.wait);
            const std::int64_t flow = sink.new_flow();
            send->transfers.push_back(Transfer{r.consumer, notice_bytes_, flow, {}});
            send->bytes += notice_bytes_;
            sink.count_flow(r.producer, r.consumer, notice_bytes_);
            notices.push_back(Notice{s, r.consumer, flow, -1});
        }
    }
    for (std::size_t i = 0; i < reads_.size(); ++i) {
        const Read& r = reads_[i];
        const Slice& sl = slice(r.step, r.producer);
        std::vector<std::int64_t> wait = r.wait;  // on the producer itself: the wait set
        if (r.consumer != r.producer) {
            Notice& n = *notice(source_of[i], r.consumer);
            if (n.recv < 0) {
                PlanOp& recv = sink.add_op(layer, r.consumer, OpKind::Recv, {});
                recv.bytes = notice_bytes_;
                recv.transfers.push_back(Transfer{r.producer, notice_bytes_, n.flow, {}});
                n.recv = recv.id;
            }
            wait = {n.recv};
        }
        // The part starts `offset` bytes into its piece; a read longer than what is left of the
        // piece starts earlier so that it stays inside the written range where it can.
        const std::int64_t piece = sl.piece_bytes[r.piece];
        const std::int64_t within = std::max<std::int64_t>(0, std::min(r.offset, piece - r.bytes));
        PlanOp& rd = sink.add_op(layer, r.consumer, OpKind::DramRead, std::move(wait));
        rd.bytes = r.bytes, rd.memory = sl.memory;
        rd.address = sl.address + static_cast<std::uint64_t>(sl.piece_offset[r.piece] + within);
        deps[r.consumer].push_back(rd.id);
        if (!r.forward.empty()) sink.forward(r.consumer, r.forward, r.bytes, rd.id);
    }
    reads_.clear();
}

}  // namespace mcmsim
