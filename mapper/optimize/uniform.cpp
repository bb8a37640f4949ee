// The uniform baseline: every layer split in equal shares by the request's partition, with its
// collective and deliveries; and the checks every request passes first.
#include "hw/common/input_error.h"
#include "mapper/mapping/pipeline_placement.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/plan_builder.h"

namespace mcmsim {

void check_request(const ArchConfig& arch, const MapRequest& r) {
    if (r.placement == Placement::Sequential) {
        if (r.segments != 1) throw RequestError("segments", "1 with sequential placement", std::to_string(r.segments));
    } else {
        if (r.segments < 1 || r.segments > arch.package.cols)
            throw RequestError("segments",
                               "a segment count from 1 to " + std::to_string(arch.package.cols) + " (the grid's columns)",
                               std::to_string(r.segments));
        if (r.micro_batch < 1)
            throw RequestError("micro_batch", "a micro-batch of at least 1 sample", std::to_string(r.micro_batch));
        if (r.optimizer != Optimizer::Uniform)
            throw RequestError(
                "placement",
                std::string("sequential with optimizer ") + to_string(r.optimizer) + " (pipelined placement: uniform only)",
                "\"pipelined\"");
    }
    if (!(r.budget_s >= 0)) throw RequestError("budget_s", "a time >= 0 s", std::to_string(r.budget_s));
    if (r.population < 2) throw RequestError("population", "at least 2", std::to_string(r.population));
    if (r.generations < 0) throw RequestError("generations", "at least 0", std::to_string(r.generations));
}

Plan uniform_plan(const ArchConfig& arch, const Workload& w, const MapRequest& r) {
    Mapping m = uniform_mapping(w, split_partition(r));
    m.optimizer = to_string(Optimizer::Uniform);
    m.seed = r.seed;
    for (auto& l : m.layers) {
        l.route = package_route_policy(arch.package);
        l.collective = r.collective;
        l.weight_multicast = r.weights == Delivery::Multicast;
        l.input_multicast = r.inputs == Delivery::Multicast;
    }
    if (r.placement == Placement::Pipelined)
        apply_placement(m, pipeline_placement(w, arch.package.rows, arch.package.cols, r.segments), r.micro_batch);
    return build_plan(arch, w, m);
}

Plan map_uniform(const ArchConfig& arch, const Workload& w, std::uint64_t seed) {
    MapRequest r;
    r.seed = seed;
    return uniform_plan(arch, w, r);
}

}  // namespace mcmsim
