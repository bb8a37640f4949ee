#include "mapper/plan_builder/layer_record.h"

#include <string>
#include <utility>

namespace mcmsim {

void record_mapping(PlanLayer& layer, PlanLayerMapping&& info, const LayerMapping& lm, const LayerTraffic& traffic,
                    const PipelinedStep* pipelined) {
    info.partition = lm.partition.describe();
    info.shares = lm.partition.shares;
    info.row_shares = lm.partition.row_shares;
    info.col_shares = lm.partition.col_shares;
    info.route = to_string(lm.route);
    info.collective = to_string(lm.collective);
    const std::int64_t direct_inputs = traffic.direct_inputs;
    if (lm.collective != Collective::Direct) {
        if (info.multicasts == 0 && direct_inputs > 0)
            info.fallback = "no input part is needed by two or more other chiplets: all direct";
        else if (direct_inputs > 0)
            info.fallback = std::to_string(direct_inputs) + " input parts needed by one other chiplet each: direct";
    }
    for (const PlanOp& op : layer.ops)
        if (op.kind == OpKind::DramRead || op.kind == OpKind::DramWrite) info.dram_bytes += op.bytes;
    info.package_bytes = traffic.package_bytes;
    info.package_link_bytes = traffic.package_link_bytes;
    info.max_link_bytes = traffic.max_link_bytes;
    if (pipelined) {
        info.segment = lm.segment;
        const ChipletGroup& g = pipelined->group;
        info.group = PlanLayerMapping::Group{g.row0, g.col0, g.rows, g.cols};
        if (pipelined->micro_batches > 1)
            info.micro_batch = pipelined->micro_batch, info.micro_batches = pipelined->micro_batches;
        info.weights = pipelined->weights;
    }
    layer.mapping = std::move(info);
}

}  // namespace mcmsim
