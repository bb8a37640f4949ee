#include "mapper/plan_builder/plan_builder.h"

#include "hw/compute/tiling.h"
#include "hw/topology/mesh_topology.h"
#include "mapper/plan_builder/input_delivery.h"
#include "mapper/mapping/input_need.h"
#include "mapper/plan_builder/output_spill.h"
#include "mapper/plan_builder/transfer_batch.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

namespace mcmsim {

namespace {

/// Bump allocator per memory: every tensor gets its own address range.
class AddressSpace {
public:
    explicit AddressSpace(std::size_t memories) : next_(memories, 0) {}
    std::uint64_t take(int memory, std::int64_t bytes) {
        std::uint64_t a = next_[static_cast<std::size_t>(memory)];
        // Tensors start on 4 KiB boundaries, i.e. on a fresh DRAM page.
        next_[static_cast<std::size_t>(memory)] += (static_cast<std::uint64_t>(bytes) + 4095) & ~std::uint64_t{4095};
        return a;
    }

private:
    std::vector<std::uint64_t> next_;
};

int nearest_memory(const ArchConfig& arch, const MeshTopology& topo, int chiplet) {
    int best = 0, best_hops = std::numeric_limits<int>::max();
    for (std::size_t m = 0; m < arch.memories.size(); ++m) {
        int h = topo.hops(chiplet, topo.id(arch.memories[m].attach_row, arch.memories[m].attach_col));
        if (h < best_hops) {
            best_hops = h;
            best = static_cast<int>(m);
        }
    }
    return best;
}

/// One plan layer to build: a workload layer for one micro-batch (or the whole batch).
struct Step {
    std::size_t layer;  ///< workload layer
    int mb;             ///< micro-batch (0 without micro-batches)
    const Layer* L;     ///< its shape for this micro-batch; inputs name steps of the same micro-batch
};

class Builder : private OpSink {
public:
    Builder(const ArchConfig& arch, const Workload& w, const Mapping& m)
        : arch_(arch), w_(w), m_(m), rows_(arch.package.rows), cols_(arch.package.cols),
          batch_(arch.package), n_(arch.chiplet_count()), mem_(arch.memories.size()) {
        if (m_.layers.size() != w_.layers.size()) throw std::invalid_argument("mapping: one partition per layer");
        for (const LayerMapping& lm : m_.layers)
            if (!lm.group.fits(rows_, cols_) || (!lm.group.whole() && lm.group.size() < 1))
                throw std::invalid_argument("mapping: a layer's chiplet group lies outside the package");
        make_steps();
        owned_.resize(steps_.size());
        compute_.assign(steps_.size(), std::vector<std::int64_t>(static_cast<std::size_t>(n_), -1));
        for (int c = 0; c < n_; ++c) home_.push_back(nearest_memory(arch, batch_.package_topology(), c));
        std::vector<std::vector<int>> memory_hops(static_cast<std::size_t>(n_));
        const MeshTopology& topo = batch_.package_topology();
        for (int c = 0; c < n_; ++c)
            for (const auto& mem : arch.memories)
                memory_hops[static_cast<std::size_t>(c)].push_back(topo.hops(c, topo.id(mem.attach_row, mem.attach_col)));
        // A notice is one flit: the smallest transfer the package makes (output_spill.h).
        spill_.emplace(arch.chiplet.global_buffer_bytes, arch.package.router.flit_bytes, home_, std::move(memory_hops),
                       steps_.size());
        std::vector<const Layer*> shapes;
        for (const Step& st : steps_) shapes.push_back(st.L);
        inputs_.emplace(static_cast<OpSink&>(*this), batch_, *spill_, owned_, std::move(shapes), home_);
        consumed_.assign(steps_.size(), false);
        for (const Step& st : steps_)
            for (const Operand& op : operands_of(*st.L))
                for (int p : op.producers) consumed_[static_cast<std::size_t>(p)] = true;
        if (pipelined_) plan_residency();
        plan_.arch = arch.name;
        plan_.workload = w.name;
        plan_.optimizer = m.optimizer;
        plan_.seed = m.seed;
        plan_.chiplets = n_;
        plan_.memories = static_cast<int>(arch.memories.size());
    }

    Plan run() {
        std::vector<bool> is_output = w_.is_output_layer();
        for (std::size_t s = 0; s < steps_.size(); ++s) layer(s, is_output[steps_[s].layer]);
        return std::move(plan_);
    }

private:
    /// The plan layers in plan order: micro-batch by micro-batch, each the whole layer list.
    /// Without micro-batches the workload's own layers.
    void make_steps() {
        const std::int64_t batch = w_.batch;
        const std::int64_t size = m_.micro_batch > 0 ? std::min(m_.micro_batch, batch) : batch;
        micro_batches_ = static_cast<int>((batch + size - 1) / size);
        for (const LayerMapping& lm : m_.layers) pipelined_ = pipelined_ || lm.segment >= 0;
        pipelined_ = pipelined_ || micro_batches_ > 1;
        const std::size_t nl = w_.layers.size();
        if (micro_batches_ == 1) {
            for (std::size_t l = 0; l < nl; ++l) steps_.push_back(Step{l, 0, &w_.layers[l]});
            return;
        }
        mb_layers_.reserve(nl * static_cast<std::size_t>(micro_batches_));  // steps point into it
        for (int b = 0; b < micro_batches_; ++b) {
            const std::int64_t n = std::min(batch, (b + 1) * size) - b * size;
            for (std::size_t l = 0; l < nl; ++l) {
                Layer L = w_.layers[l];
                if (L.n != batch) throw std::invalid_argument("micro-batches: layer " + L.name + " has another batch than its workload");
                L.n = n;
                for (int& in : L.inputs) in += b * static_cast<int>(nl);
                mb_layers_.push_back(std::move(L));
                steps_.push_back(Step{l, b, &mb_layers_.back()});
            }
        }
        mb_last_.assign(static_cast<std::size_t>(n_), std::vector<std::int64_t>(static_cast<std::size_t>(micro_batches_), -1));
        layer_last_.assign(nl, std::vector<std::int64_t>(static_cast<std::size_t>(n_), -1));
    }

    /// One box per package chiplet: the partition over the layer's group, empty outside it.
    std::vector<WorkBox> boxes_of(const Layer& L, const LayerMapping& lm) const {
        const ChipletGroup g = lm.group.on(rows_, cols_);
        if (g == ChipletGroup{0, 0, rows_, cols_}) return partition_layer(L, lm.partition, rows_, cols_);
        std::vector<WorkBox> local = partition_layer(L, lm.partition, g.rows, g.cols);
        std::vector<WorkBox> out(static_cast<std::size_t>(n_));  // default boxes are empty
        for (int i = 0; i < g.size(); ++i) out[static_cast<std::size_t>(g.chiplet(i, cols_))] = local[static_cast<std::size_t>(i)];
        return out;
    }

    /// Bytes of the weight slice box `b` of layer L reads (0 for layers without weights).
    static std::int64_t weight_slice_bytes(const Layer& L, const WorkBox& b) {
        return L.weight_bytes() > 0 && !b.empty() ? b.k.size() * b.c.size() * L.r * L.s * L.bytes_per_element : 0;
    }

    /// Per segment: whether every chiplet's slices of all the segment's layers fit its weight
    /// buffers together (judged on the first micro-batch's boxes: a later one splits the
    /// same weights, an N split of a smaller last micro-batch fewer).
    void plan_residency() {
        const std::int64_t capacity = arch_.chiplet.pes * arch_.chiplet.weight_buffer.bytes;
        std::map<int, std::vector<std::int64_t>> held;  // segment -> bytes per chiplet
        for (std::size_t l = 0; l < w_.layers.size(); ++l) {
            const LayerMapping& lm = m_.layers[l];
            auto& bytes = held[lm.segment];
            bytes.resize(static_cast<std::size_t>(n_), 0);
            const Layer& L = *steps_[l].L;  // micro-batch 0
            std::vector<WorkBox> boxes = boxes_of(L, lm);
            for (int c = 0; c < n_; ++c) bytes[static_cast<std::size_t>(c)] += weight_slice_bytes(L, boxes[static_cast<std::size_t>(c)]);
        }
        for (const auto& [segment, bytes] : held)
            resident_[segment] = std::all_of(bytes.begin(), bytes.end(), [&](std::int64_t b) { return b <= capacity; });
        weight_read_.assign(w_.layers.size(), std::vector<std::int64_t>(static_cast<std::size_t>(n_), -1));
        weight_uses_.assign(static_cast<std::size_t>(n_), {});
        last_resident_read_.assign(static_cast<std::size_t>(n_), -1);
    }

    PlanOp& add(PlanLayer& layer, int chiplet, OpKind kind, std::vector<std::int64_t> deps) {
        if (deps.size() > 1) {
            std::sort(deps.begin(), deps.end());
            deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        }
        PlanOp& op = layer.ops.emplace_back();  // made in place: an op record is large
        op.id = next_id_++;
        op.chiplet = chiplet;
        op.kind = kind;
        op.deps = std::move(deps);
        return op;
    }

    // OpSink: how the helpers (transfer batching, output spills, input delivery) make ops,
    // flows and DRAM tensors.
    PlanOp& add_op(PlanLayer& layer, int chiplet, OpKind kind, std::vector<std::int64_t> deps) override {
        return add(layer, chiplet, kind, std::move(deps));
    }
    std::int64_t new_flow() override { return next_flow_++; }
    std::uint64_t dram_address(int memory, std::int64_t bytes) override { return mem_.take(memory, bytes); }

    /// With micro-batches: per chiplet, the last compute it did for the micro-batch two before
    /// the current one (-1: none), which a new micro-batch's first work there waits for (double
    /// buffering). Empty when nothing waits.
    std::vector<std::int64_t> two_before() const {
        if (micro_batches_ == 1 || mb_ < 2) return {};
        std::vector<std::int64_t> last;
        for (int c = 0; c < n_; ++c) last.push_back(mb_last_[static_cast<std::size_t>(c)][static_cast<std::size_t>(mb_ - 2)]);
        return last;
    }

    /// A compute op made on chiplet c for the current step.
    void computed(int c, std::int64_t id) {
        if (micro_batches_ == 1) return;
        mb_last_[static_cast<std::size_t>(c)][static_cast<std::size_t>(mb_)] = id;
        layer_last_[steps_[step_].layer][static_cast<std::size_t>(c)] = id;
    }

    /// Layer-pipelined placement: the weight read(s) the compute of box `wbytes` (+ re-tiling
    /// `refetch`) on chiplet c waits for, added to `d`. Resident weights: one read for all
    /// micro-batches, issued from the start in layer order; otherwise a read per micro-batch,
    /// double buffered (it waits for the compute that used the weights two reads back).
    void pipelined_weights(PlanLayer& layer, int c, std::int64_t wbytes, std::int64_t refetch, std::vector<std::int64_t>& d) {
        const int m = home_[static_cast<std::size_t>(c)];
        const Step& st = steps_[step_];
        std::int64_t streamed = refetch;  // re-tiling reads follow the micro-batch
        if (resident_.at(m_.layers[st.layer].segment)) {
            std::int64_t& read = weight_read_[st.layer][static_cast<std::size_t>(c)];
            if (read < 0 && wbytes > 0) {
                // In the order the layers use them: the first layer's weights do not queue at
                // the memory behind the whole segment's.
                std::int64_t& previous = last_resident_read_[static_cast<std::size_t>(c)];
                PlanOp& wr = add(layer, c, OpKind::DramRead, previous >= 0 ? std::vector<std::int64_t>{previous} : std::vector<std::int64_t>{});
                wr.bytes = wbytes, wr.memory = m, wr.address = mem_.take(m, wr.bytes);
                read = previous = wr.id;
            }
            if (read >= 0) d.push_back(read);
        } else {
            streamed += wbytes;
        }
        if (streamed <= 0) return;
        auto& uses = weight_uses_[static_cast<std::size_t>(c)];
        std::vector<std::int64_t> wdeps;
        if (uses.size() >= 2) wdeps.push_back(uses[uses.size() - 2]);
        PlanOp& wr = add(layer, c, OpKind::DramRead, wdeps);
        wr.bytes = streamed, wr.memory = m, wr.address = mem_.take(m, wr.bytes);
        d.push_back(wr.id);
        streamed_read_ = true;
    }

    void layer(std::size_t step, bool is_output) {
        step_ = step;
        mb_ = steps_[step].mb;
        const std::size_t l = step;  // compute_ and owned_ are per step
        const Layer& L = *steps_[step].L;
        const LayerMapping& lm = m_.layers[steps_[step].layer];
        std::vector<WorkBox> boxes = boxes_of(L, lm);
        PlanLayer layer;
        // Room for a typical layer's ops (per chiplet: DRAM reads, sends, recvs and the
        // compute), or for as many as the previous layer made: op records are large, and
        // growing the vector one doubling at a time copies them over and over.
        layer.ops.reserve(std::max(static_cast<std::size_t>(4 * n_), last_layer_ops_));
        layer.name = micro_batches_ > 1 ? L.name + "/mb" + std::to_string(mb_) : L.name;
        layer.macs = L.macs();
        const RoutePolicy policy = lm.route;
        info_ = PlanLayerMapping{};
        batch_.begin_layer(lm.collective, lm.group);
        const std::vector<std::int64_t> start = two_before();
        std::vector<std::vector<std::int64_t>> deps = inputs_->gather(layer, L, boxes, lm, start, info_);
        const std::vector<bool> weights_multicast = multicast_weights(layer, L, lm, l, boxes, policy, deps);
        const std::int64_t input_package_bytes = batch_.package_bytes();
        const double out_total = static_cast<double>(output_volume(L));
        const std::vector<Operand> operands = operands_of(L);

        for (int c = 0; c < n_; ++c) {
            const WorkBox& b = boxes[static_cast<std::size_t>(c)];
            if (b.empty()) continue;
            int m = home_[static_cast<std::size_t>(c)];
            auto& d = deps[static_cast<std::size_t>(c)];
            TileShape shape;
            if (L.kind != LayerKind::Vector)
                shape = TileShape{b.n.size(), b.k.size(), b.c.size(), b.p.size(), b.q.size(), L.r, L.s, L.stride};
            std::int64_t vector_ops = 0;
            if (L.kind == LayerKind::Vector)
                vector_ops = static_cast<std::int64_t>(std::llround(static_cast<double>(L.vector_ops()) *
                                                                    static_cast<double>(box_output_volume(b)) / out_total));
            // Weights (conv and fc only), plus whatever re-tiling makes the chiplet fetch again
            // when a tile does not fit its buffers. Layer-sequential: prefetched one layer
            // ahead, the read waits only for the buffer freed by the compute two layers back
            // (double buffering); multicast weights came with the leader's read instead.
            // Pipelined: by the segment's residency.
            const std::int64_t wbytes = weight_slice_bytes(L, b);
            const std::int64_t wread = weights_multicast[static_cast<std::size_t>(c)] ? 0 : wbytes;
            // (The DRAM tiling alone: the full compute cost would also price every buffer's
            // accesses, which the plan does not need.)
            std::int64_t refetch = shape.empty() ? 0 : tile_for_dram(arch_.chiplet, shape).refetch_bytes();
            if (pipelined_) {
                pipelined_weights(layer, c, wbytes, refetch, d);
                if (micro_batches_ > 1) {
                    // The layer's micro-batches in order; a micro-batch's first compute after the
                    // chiplet is done with the one two before.
                    const std::int64_t prev = layer_last_[steps_[step].layer][static_cast<std::size_t>(c)];
                    if (prev >= 0) d.push_back(prev);
                    if (mb_last_[static_cast<std::size_t>(c)][static_cast<std::size_t>(mb_)] < 0 && !start.empty() &&
                        start[static_cast<std::size_t>(c)] >= 0)
                        d.push_back(start[static_cast<std::size_t>(c)]);
                }
            } else if (wread + refetch > 0) {
                std::vector<std::int64_t> wdeps;
                if (l >= 2 && compute_[l - 2][static_cast<std::size_t>(c)] >= 0) wdeps.push_back(compute_[l - 2][static_cast<std::size_t>(c)]);
                PlanOp& wr = add(layer, c, OpKind::DramRead, wdeps);
                wr.bytes = wread + refetch, wr.memory = m, wr.address = mem_.take(m, wr.bytes);
                d.push_back(wr.id);
            }
            std::int64_t in_bytes = 0;
            for (const Operand& op : operands)
                in_bytes += static_cast<std::int64_t>(std::llround(need_fraction(L, b, op) * static_cast<double>(op.bytes)));
            std::int64_t out_bytes = box_output_volume(b) * L.bytes_per_element;
            PlanOp& cp = add(layer, c, OpKind::Compute, std::move(d));  // d is done with
            cp.shape = shape;
            cp.macs = shape.macs();
            cp.vector_ops = vector_ops;
            cp.sram_bytes = wbytes + in_bytes + out_bytes;
            cp.tile = tile_label(b, L);
            compute_[l][static_cast<std::size_t>(c)] = cp.id;
            if (streamed_read_) weight_uses_[static_cast<std::size_t>(c)].push_back(cp.id);
            streamed_read_ = false;
            computed(c, cp.id);
        }
        reduce(layer, boxes, l, policy);
        if (consumed_[l]) spill_outputs(layer, L, l);
        if (is_output) write_outputs(layer, L, l);
        describe(layer, lm, L, batch_.package_bytes() > input_package_bytes);
        last_layer_ops_ = layer.ops.size();
        plan_.layers.push_back(std::move(layer));
    }

    /// Weight multicast (LayerMapping::weight_multicast): chiplets holding the same weight
    /// slice (the same K and C ranges) form a group; the member nearest its memory reads the
    /// slice once, one layer ahead like every weight read, and the layer's collective forwards
    /// it to the others. Adds what each chiplet's compute waits for to `deps`; returns which
    /// chiplets got their weights this way (the others read their own). Layer-sequential
    /// placement only: a pipelined segment's weights follow its residency instead. `l` is the
    /// plan step (one per layer when layer-sequential).
    std::vector<bool> multicast_weights(PlanLayer& layer, const Layer& L, const LayerMapping& lm, std::size_t l,
                                        const std::vector<WorkBox>& boxes, RoutePolicy policy,
                                        std::vector<std::vector<std::int64_t>>& deps) {
        std::vector<bool> done(static_cast<std::size_t>(n_), false);
        if (!lm.weight_multicast || pipelined_ || L.weight_bytes() <= 0) return done;
        std::map<std::array<std::int64_t, 4>, std::vector<int>> groups;  // ordered: a deterministic plan
        for (int c = 0; c < n_; ++c) {
            const WorkBox& b = boxes[static_cast<std::size_t>(c)];
            if (!b.empty()) groups[{b.k.lo, b.k.hi, b.c.lo, b.c.hi}].push_back(c);
        }
        for (const auto& [slice, members] : groups) {
            if (members.size() < 2) continue;
            int leader = members.front(), best = std::numeric_limits<int>::max();
            for (int c : members) {
                const auto& mem = arch_.memories[static_cast<std::size_t>(home_[static_cast<std::size_t>(c)])];
                const MeshTopology& topo = batch_.package_topology();
                const int h = topo.hops(c, topo.id(mem.attach_row, mem.attach_col));
                if (h < best) best = h, leader = c;
            }
            const std::int64_t bytes = weight_slice_bytes(L, boxes[static_cast<std::size_t>(leader)]);
            std::vector<std::int64_t> wdeps;
            if (l >= 2 && compute_[l - 2][static_cast<std::size_t>(leader)] >= 0) wdeps.push_back(compute_[l - 2][static_cast<std::size_t>(leader)]);
            const int m = home_[static_cast<std::size_t>(leader)];
            PlanOp& wr = add(layer, leader, OpKind::DramRead, wdeps);
            wr.bytes = bytes, wr.memory = m, wr.address = mem_.take(m, bytes);
            const std::int64_t read = wr.id;
            deps[static_cast<std::size_t>(leader)].push_back(read);
            dests_.clear();
            for (int c : members)
                if (c != leader) dests_.push_back(c);
            batch_.multicast(leader, dests_, bytes, {read});
            for (int c : members) done[static_cast<std::size_t>(c)] = true;
            ++info_.weight_multicasts;
            info_.weight_dram_bytes_saved += bytes * static_cast<std::int64_t>(dests_.size());
        }
        batch_.flush_into(layer, policy, *this, deps);
        return done;
    }

    /// Completes info_ (bytes were counted as the layer's data movement was made) and stores it.
    void describe(PlanLayer& layer, const LayerMapping& lm, const Layer& L, bool reduced) {
        info_.partition = lm.partition.describe();
        info_.shares = lm.partition.shares;
        info_.row_shares = lm.partition.row_shares;
        info_.col_shares = lm.partition.col_shares;
        info_.route = to_string(lm.route);
        info_.collective = to_string(lm.collective);
        const std::int64_t direct_inputs = inputs_->direct_inputs();
        if (lm.collective != Collective::Direct) {
            if (info_.multicasts == 0 && direct_inputs > 0)
                info_.fallback = "no input part is needed by two or more other chiplets: all direct";
            else if (direct_inputs > 0)
                info_.fallback = std::to_string(direct_inputs) + " input parts needed by one other chiplet each: direct";
            if (reduced) info_.fallback += std::string(info_.fallback.empty() ? "" : "; ") + "partial-sum reduction: direct";
        }
        for (const PlanOp& op : layer.ops)
            if (op.kind == OpKind::DramRead || op.kind == OpKind::DramWrite) info_.dram_bytes += op.bytes;
        info_.package_bytes = batch_.package_bytes();
        info_.package_link_bytes = batch_.package_link_bytes();
        info_.max_link_bytes = batch_.max_link_bytes();
        if (pipelined_) {
            info_.segment = lm.segment;
            const ChipletGroup g = lm.group.on(rows_, cols_);
            info_.group = PlanLayerMapping::Group{g.row0, g.col0, g.rows, g.cols};
            if (micro_batches_ > 1) info_.micro_batch = mb_, info_.micro_batches = micro_batches_;
            if (L.weight_bytes() > 0) info_.weights = resident_.at(lm.segment) ? WeightResidency::Resident : WeightResidency::PerMicroBatch;
        }
        layer.mapping = std::move(info_);
    }

    /// After a C split, members that computed the same output region hold partial sums:
    /// reduce-scatter them so that each member owns a summed K-slice.
    void reduce(PlanLayer& layer, const std::vector<WorkBox>& boxes, std::size_t l, RoutePolicy policy) {
        auto& owned = owned_[l];
        owned.assign(static_cast<std::size_t>(n_), {});
        std::vector<bool> done(static_cast<std::size_t>(n_), false);
        struct Slice {
            int owner;
            WorkBox piece;
            std::int64_t members, plane;
        };
        std::vector<Slice> sums;  // made after the transfers, which they wait for
        for (int c = 0; c < n_; ++c) {
            const WorkBox& b = boxes[static_cast<std::size_t>(c)];
            if (b.empty() || done[static_cast<std::size_t>(c)]) continue;
            std::vector<int>& group = group_;
            group.clear();
            for (int o = c; o < n_; ++o)
                if (!boxes[static_cast<std::size_t>(o)].empty() && boxes[static_cast<std::size_t>(o)].same_output(b)) {
                    group.push_back(o);
                    done[static_cast<std::size_t>(o)] = true;
                }
            if (group.size() == 1) {
                owned[static_cast<std::size_t>(c)].push_back(OwnedPiece{b, compute_[l][static_cast<std::size_t>(c)]});
                continue;
            }
            auto slices = split_range(b.k.size(), static_cast<int>(group.size()), {});
            const std::int64_t plane = b.n.size() * b.p.size() * b.q.size();
            for (std::size_t j = 0; j < group.size(); ++j) {
                int owner = group[j];
                Range k{b.k.lo + slices[j].lo, b.k.lo + slices[j].hi};
                if (k.empty()) continue;
                for (int member : group)
                    if (member != owner)
                        batch_.transfer(member, owner, plane * k.size() * kPartialSumBytes, {compute_[l][static_cast<std::size_t>(member)]});
                info_.onchip_bytes += plane * k.size() * kPartialSumBytes;  // the owner's own partial sums
                WorkBox piece = b;
                piece.k = k;
                sums.push_back(Slice{owner, piece, static_cast<std::int64_t>(group.size()), plane});
            }
        }
        std::vector<std::vector<std::int64_t>>& recv = recv_;
        recv.resize(static_cast<std::size_t>(n_));
        for (auto& r : recv) r.clear();
        batch_.flush_into(layer, policy, *this, recv);
        for (const Slice& s : sums) {
            std::vector<std::int64_t> deps = recv[static_cast<std::size_t>(s.owner)];
            deps.push_back(compute_[l][static_cast<std::size_t>(s.owner)]);
            const std::int64_t k = s.piece.k.size();
            PlanOp& sum = add(layer, s.owner, OpKind::Compute, std::move(deps));
            sum.vector_ops = (s.members - 1) * s.plane * k;
            sum.sram_bytes = s.members * s.plane * k * kPartialSumBytes;
            sum.tile = "reduce k[" + std::to_string(s.piece.k.lo) + ":" + std::to_string(s.piece.k.hi) + ")";
            computed(s.owner, sum.id);
            owned[static_cast<std::size_t>(s.owner)].push_back(OwnedPiece{s.piece, sum.id});
        }
    }

    /// Each chiplet's output slice of step l that does not fit its global buffer goes to DRAM
    /// (mapper/plan_builder/output_spill.h); its consumers will read it from there.
    void spill_outputs(PlanLayer& layer, const Layer& L, std::size_t l) {
        std::vector<std::int64_t> bytes, ready;
        for (int c = 0; c < n_; ++c) {
            bytes.clear(), ready.clear();
            for (const OwnedPiece& piece : owned_[l][static_cast<std::size_t>(c)]) {
                const WorkBox& b = piece.box;
                bytes.push_back(b.n.size() * b.k.size() * b.p.size() * b.q.size() * L.bytes_per_element);
                ready.push_back(piece.ready);
            }
            if (bytes.empty() || !spill_->hold_or_write(*this, layer, l, c, bytes, ready)) continue;
            for (std::int64_t b : bytes) info_.spilled_bytes += b;
            ++info_.spilled_producers;
        }
    }

    void write_outputs(PlanLayer& layer, const Layer& L, std::size_t l) {
        for (int c = 0; c < n_; ++c) {
            if (spill_->spilled(l, c)) continue;  // the spill wrote the slice already
            for (const OwnedPiece& piece : owned_[l][static_cast<std::size_t>(c)]) {
                const WorkBox& b = piece.box;
                std::int64_t bytes = b.n.size() * b.k.size() * b.p.size() * b.q.size() * L.bytes_per_element;
                int m = home_[static_cast<std::size_t>(c)];
                PlanOp& out = add(layer, c, OpKind::DramWrite, {piece.ready});
                out.bytes = bytes, out.memory = m, out.address = mem_.take(m, bytes);
            }
        }
    }

    static std::string tile_label(const WorkBox& b, const Layer& L) {
        // Written into a buffer, the string made once: every compute op has a label.
        char buf[5 * 48];  // per dimension: " x[" + two 20-character numbers + ":)"
        char* at = buf;
        char* const end = buf + sizeof buf;
        auto part = [&](char name, Range r, std::int64_t full) {
            if (r.lo == 0 && r.hi == full) return;
            if (at != buf) *at++ = ' ';
            *at++ = name;
            *at++ = '[';
            at = std::to_chars(at, end, r.lo).ptr;
            *at++ = ':';
            at = std::to_chars(at, end, r.hi).ptr;
            *at++ = ')';
        };
        part('n', b.n, L.n * L.heads);
        part('k', b.k, L.k);
        part('c', b.c, L.kind == LayerKind::Vector ? 1 : L.c / L.groups);
        part('p', b.p, L.p);
        part('q', b.q, L.q);
        return at == buf ? std::string("all") : std::string(buf, at);
    }

    const ArchConfig& arch_;
    const Workload& w_;
    const Mapping& m_;
    int rows_, cols_;  ///< the package grid
    TransferBatch batch_;  ///< transfers of the phase being built, and the layer's package bytes
    int n_;
    std::vector<int> home_;
    AddressSpace mem_;
    Ownership owned_;                                          ///< [step][chiplet] pieces
    std::vector<std::vector<std::int64_t>> compute_;           ///< [step][chiplet] compute op id
    std::vector<Step> steps_;      ///< plan layers to build, in plan order
    std::vector<Layer> mb_layers_;  ///< the layers' shapes per micro-batch (steps point here)
    int micro_batches_ = 1;
    /// Placement beyond layer-sequential (segments or micro-batches): weights by residency.
    bool pipelined_ = false;
    std::map<int, bool> resident_;                   ///< segment -> its weights stay resident
    std::vector<std::vector<std::int64_t>> weight_read_;  ///< [layer][chiplet] resident weight read
    std::vector<std::vector<std::int64_t>> weight_uses_;  ///< [chiplet] computes after a streamed weight read
    std::vector<std::int64_t> last_resident_read_;        ///< [chiplet] the latest resident weight read
    std::vector<std::vector<std::int64_t>> mb_last_;      ///< [chiplet][micro-batch] last compute op
    std::vector<std::vector<std::int64_t>> layer_last_;   ///< [layer][chiplet] last compute op, any micro-batch
    Plan plan_;
    std::int64_t next_id_ = 0, next_flow_ = 0;
    std::size_t last_layer_ops_ = 0;  ///< ops of the plan layer made last

    std::vector<int> dests_;  ///< scratch of multicast_weights
    std::vector<int> group_;  ///< scratch of reduce: the chiplets holding partial sums of one output region
    std::vector<std::vector<std::int64_t>> recv_;  ///< scratch of reduce: per chiplet, the recvs of its partial sums

    // The layer being built.
    std::size_t step_ = 0;
    int mb_ = 0;
    bool streamed_read_ = false;  ///< the compute being made follows a streamed weight read
    PlanLayerMapping info_;
    std::optional<OutputSpill> spill_;          ///< slices that do not fit the global buffer (made once home_ is known)
    std::optional<InputDelivery> inputs_;       ///< how each layer's inputs reach its chiplets (made after spill_)
    std::vector<bool> consumed_;                ///< [step] a later step reads its output
};

}  // namespace

Plan build_plan(const ArchConfig& arch, const Workload& w, const Mapping& m) { return Builder(arch, w, m).run(); }

}  // namespace mcmsim
