#include "mapper/plan_builder/plan_builder.h"

#include "hw/common/input_error.h"

#include "mapper/mapping/input_need.h"
#include "mapper/plan_builder/chiplet_memories.h"
#include "mapper/plan_builder/compute_tile.h"
#include "mapper/plan_builder/input_delivery.h"
#include "mapper/plan_builder/layer_outputs.h"
#include "mapper/plan_builder/layer_record.h"
#include "mapper/plan_builder/micro_batch_order.h"
#include "mapper/plan_builder/op_numbering.h"
#include "mapper/plan_builder/output_spill.h"
#include "mapper/plan_builder/owned_pieces.h"
#include "mapper/plan_builder/plan_steps.h"
#include "mapper/plan_builder/reductions.h"
#include "mapper/plan_builder/transfer_batch.h"
#include "mapper/plan_builder/weight_delivery.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace mcmsim {

namespace {

/// `m`, once it is known to give every layer a partition and a group inside the package.
const Mapping& checked(const Mapping& m, const Workload& w, int rows, int cols) {
    if (m.layers.size() != w.layers.size()) throw std::invalid_argument("mapping: one partition per layer");
    for (const LayerMapping& lm : m.layers)
        if (!lm.group.fits(rows, cols) || (!lm.group.whole() && lm.group.size() < 1))
            throw std::invalid_argument("mapping: a layer's chiplet group lies outside the package");
    return m;
}

/// The steps whose outputs L's operands read, ascending (a step's producers are steps of its
/// own micro-batch).
std::vector<int> producer_steps(const Layer& L) {
    std::vector<int> p;
    for (const Operand& op : operands_of(L)) p.insert(p.end(), op.producers.begin(), op.producers.end());
    std::sort(p.begin(), p.end());
    p.erase(std::unique(p.begin(), p.end()), p.end());
    return p;
}

/// Builds the plan step after step (plan_steps.h). Per step: the inputs (input_delivery.h),
/// the weights (weight_delivery.h), each chiplet's compute (compute_tile.h), the partial-sum
/// reduction (reductions.h), where the output goes (layer_outputs.h) and the layer's mapping
/// record (layer_record.h). It owns what those units share: the op numbering and DRAM layout,
/// the layer's transfers, and per step which op computed each box and where its output lies.
class Builder {
public:
    Builder(const ArchConfig& arch, const Workload& w, const Mapping& m)
        : arch_(arch), w_(w), rows_(arch.package.rows), cols_(arch.package.cols), n_(arch.chiplet_count()),
          batch_(arch.package, arch.chiplet.ni_bandwidth_gbps), m_(checked(m, w, rows_, cols_)), steps_(w, m_),
          memories_(arch, batch_.package_topology()), ops_(static_cast<int>(arch.memories.size())), owned_(steps_.size()),
          compute_(steps_.size(), IdVector<std::int64_t>(n_, -1)),
          // A notice is one flit: the smallest transfer the package makes (output_spill.h).
          spill_(arch.chiplet.global_buffer_bytes, arch.package.router.flit_bytes, memories_, steps_.size()),
          inputs_(ops_, batch_, spill_, owned_, steps_.shapes(), memories_),
          weights_(arch, m_, steps_, memories_, ops_, batch_, compute_), reductions_(ops_, batch_, n_, kPartialSumBytes),
          order_(n_, steps_.micro_batches(), w.layers.size()) {
        plan_.arch = arch.name;
        plan_.workload = w.name;
        plan_.optimizer = m.optimizer;
        plan_.seed = m.seed;
        plan_.chiplets = n_;
        plan_.memories = static_cast<int>(arch.memories.size());
    }

    Plan run() {
        const std::vector<bool> is_output = w_.is_output_layer();
        for (int s = 0; s < steps_.size(); ++s) build_step(s, is_output[steps_[s].layer]);
        return std::move(plan_);
    }

private:
    void build_step(int s, bool is_output) {
        const Step& st = steps_[s];
        const Layer& L = *st.L;
        const LayerMapping& lm = m_.layers[st.layer];
        const IdVector<WorkBox> boxes = boxes_on_package(L, lm, rows_, cols_);
        PlanLayer layer;
        // Room for a typical layer's ops (per chiplet: DRAM reads, sends, recvs and the
        // compute), or for as many as the previous layer made: op records are large, and
        // growing the vector one doubling at a time copies them over and over.
        layer.ops.reserve(std::max(static_cast<std::size_t>(4 * n_), last_layer_ops_));
        layer.name = steps_.micro_batches() > 1 ? L.name + "/mb" + std::to_string(st.mb) : L.name;
        layer.macs = L.macs();
        layer.inputs = producer_steps(L);
        PlanLayerMapping info;  // counts what the units move as they make the layer's ops
        batch_.begin_layer(lm.collective, lm.group);
        order_.begin(st.layer, st.mb);
        ChipletDeps deps = inputs_.gather(layer, L, boxes, lm, order_.start(), info);
        weights_.multicast(layer, L, lm, s, boxes, deps, info);
        compute_boxes(layer, s, boxes, deps);
        reductions_.reduce(layer, boxes, compute_[s], lm.route, owned_[s], info, order_);
        if (steps_.consumed(s)) spill_outputs(spill_, ops_, layer, L, s, owned_[s], info);
        if (is_output) write_network_outputs(spill_, ops_, memories_, layer, L, s, owned_[s]);
        record(layer, std::move(info), st, lm);
        last_layer_ops_ = layer.ops.size();
        plan_.layers.push_back(std::move(layer));
    }

    /// Every chiplet's compute of step s, once its inputs (`deps`, consumed) and its weights
    /// are there, in micro-batch order.
    void compute_boxes(PlanLayer& layer, int s, const IdVector<WorkBox>& boxes, ChipletDeps& deps) {
        const Layer& L = *steps_[s].L;
        const double out_total = static_cast<double>(output_volume(L));
        const std::vector<Operand> operands = operands_of(L);
        for (int c = 0; c < n_; ++c) {
            const WorkBox& b = boxes[c];
            if (b.empty()) continue;
            std::vector<std::int64_t>& d = deps[c];
            const BoxWork work = box_work(arch_.chiplet, L, b, out_total);
            const std::int64_t wbytes = weight_slice_bytes(L, b);
            weights_.read(layer, s, c, wbytes, work.refetch, d);
            order_.wait(c, d);
            PlanOp& cp = ops_.add_op(layer, c, OpKind::Compute, std::move(d));  // d is done with
            fill_compute(cp, L, b, work, wbytes, operands);
            compute_[s][c] = cp.id;
            weights_.used_by(c, cp.id);
            order_.computed(c, cp.id);
        }
    }

    /// The layer's mapping record.
    void record(PlanLayer& layer, PlanLayerMapping&& info, const Step& st, const LayerMapping& lm) {
        LayerTraffic traffic;
        traffic.direct_inputs = inputs_.direct_inputs();
        traffic.package_bytes = batch_.package_bytes();
        traffic.package_link_bytes = batch_.package_link_bytes();
        traffic.max_link_bytes = batch_.max_link_bytes();
        if (!steps_.pipelined()) {
            record_mapping(layer, std::move(info), lm, traffic, nullptr);
            return;
        }
        PipelinedStep where;
        where.group = lm.group.on(rows_, cols_);
        where.micro_batch = st.mb;
        where.micro_batches = steps_.micro_batches();
        if (st.L->weight_bytes() > 0)
            where.weights = weights_.resident(lm.segment) ? WeightResidency::Resident : WeightResidency::PerMicroBatch;
        record_mapping(layer, std::move(info), lm, traffic, &where);
    }

    const ArchConfig& arch_;
    const Workload& w_;
    int rows_, cols_, n_;  ///< the package grid and its chiplets
    TransferBatch batch_;  ///< transfers of the phase being built, and the layer's package bytes
    const Mapping& m_;
    PlanSteps steps_;
    ChipletMemories memories_;
    OpNumbering ops_;
    Ownership owned_;                           ///< [step][chiplet] pieces of its output
    IdVector<IdVector<std::int64_t>> compute_;  ///< [step][chiplet] compute op id (-1: none)
    OutputSpill spill_;                         ///< slices that do not fit the global buffer
    InputDelivery inputs_;                      ///< how each step's inputs reach its chiplets
    WeightDelivery weights_;
    Reductions reductions_;
    MicroBatchOrder order_;
    Plan plan_;
    std::size_t last_layer_ops_ = 0;  ///< ops of the plan layer made last
};

}  // namespace

Plan build_plan(const ArchConfig& arch, const Workload& w, const Mapping& m) {
    try {
        return Builder(arch, w, m).run();
    } catch (const PlanTooLarge&) {
        throw InputError(arch.file, "/package",
                         "a package and workload whose plan fits in " + std::to_string(Plan::kMaxEntries) +
                             " ops and transfers (fewer chiplets, or a pipelined placement)",
                         std::to_string(arch.package.rows) + " x " + std::to_string(arch.package.cols) + " chiplets for " +
                             w.name + " (" + std::to_string(w.layers.size()) + " layers) needing more");
    }
}

}  // namespace mcmsim
