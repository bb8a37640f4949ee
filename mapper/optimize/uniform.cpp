#include "hw/common/input_error.h"
#include "mapper/optimize/map_options.h"
#include "mapper/optimize/optimize.h"
#include "mapper/mapping/pipeline_placement.h"
#include "mapper/plan_builder/plan_builder.h"

#include <stdexcept>

namespace mcmsim {

std::vector<std::string> optimizer_names() { return {"uniform", "nonuniform", "ga", "milp", "exhaustive"}; }

Partition parse_split(const std::string& split) {
    auto bad = [&]() -> Partition {
        throw InputError("", "--split", "a dimension (k, c, p, q, n) or ROWSxCOLS such as pxk", "\"" + split + "\"");
    };
    try {
        Partition p;
        if (split.size() == 1) {
            p.rows_dim = p.cols_dim = dim_from_string(split);
            return p;
        }
        if (split.size() == 3 && (split[1] == 'x' || split[1] == 'X')) {
            p.rows_dim = dim_from_string(split.substr(0, 1));
            p.cols_dim = dim_from_string(split.substr(2, 1));
            if (p.rows_dim == p.cols_dim) return bad();
            return p;
        }
    } catch (const std::invalid_argument&) {
    }
    return bad();
}

void check_placement_options(const ArchConfig& arch, const MapOptions& o) {
    if (o.placement != "sequential" && o.placement != "pipelined")
        throw InputError("", "--placement", "sequential or pipelined", "\"" + o.placement + "\"");
    if (o.placement == "sequential") {
        if (o.segments != 1) throw InputError("", "--segments", "1 with --placement sequential", std::to_string(o.segments));
        return;
    }
    if (o.segments < 1 || o.segments > arch.package.cols)
        throw InputError("", "--segments", "a segment count from 1 to " + std::to_string(arch.package.cols) + " (the grid's columns)",
                         std::to_string(o.segments));
    if (o.micro_batch < 1) throw InputError("", "--micro-batch", "a micro-batch of at least 1 sample", std::to_string(o.micro_batch));
    if (o.optimizer != "uniform")
        throw InputError("", "--placement", "sequential with --optimizer " + o.optimizer + " (pipelined placement: uniform only)",
                         "\"pipelined\"");
}

Plan map_workload(const ArchConfig& arch, const Workload& w, const MapOptions& o) {
    check_placement_options(arch, o);
    Partition start = parse_split(o.split);
    if (o.optimizer == "uniform") {
        Mapping m = uniform_mapping(w, start);
        m.optimizer = "uniform";
        m.seed = o.seed;
        Collective collective;
        try {
            collective = collective_from_string(o.collective);
        } catch (const std::invalid_argument&) {
            throw InputError("", "--collective", "direct, ring, 2d or tree", "\"" + o.collective + "\"");
        }
        if (o.weights != "unicast" && o.weights != "multicast")
            throw InputError("", "--weights", "unicast or multicast", "\"" + o.weights + "\"");
        if (o.inputs != "unicast" && o.inputs != "multicast")
            throw InputError("", "--inputs", "unicast or multicast", "\"" + o.inputs + "\"");
        for (auto& l : m.layers) {
            l.route = package_route_policy(arch.package);
            l.collective = collective;
            l.weight_multicast = o.weights == "multicast";
            l.input_multicast = o.inputs == "multicast";
        }
        if (o.placement == "pipelined")
            apply_placement(m, pipeline_placement(w, arch.package.rows, arch.package.cols, o.segments), o.micro_batch);
        return build_plan(arch, w, m);
    }
    if (o.optimizer == "nonuniform") return map_nonuniform(arch, w, start, o.seed);
    if (o.optimizer == "ga" || o.optimizer == "milp" || o.optimizer == "exhaustive")
        return optimize_mapping(arch, w, o).plan;  // mapper/optimize/
    std::string known;
    for (const auto& n : optimizer_names()) known += (known.empty() ? "" : ", ") + n;
    throw InputError("", "--optimizer", "one of " + known, "\"" + o.optimizer + "\"");
}

Plan map_workload(const ArchConfig& arch, const Workload& w, const std::string& optimizer, std::uint64_t seed) {
    MapOptions o;
    o.optimizer = optimizer;
    o.seed = seed;
    return map_workload(arch, w, o);
}

Plan map_uniform(const ArchConfig& arch, const Workload& w, std::uint64_t seed) {
    return map_workload(arch, w, "uniform", seed);
}

}  // namespace mcmsim
