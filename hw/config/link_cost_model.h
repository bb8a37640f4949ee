#pragma once
// A cost model of package links (configs/costs/*.json): what one GB/s per direction of a link
// costs, by the link's preset (its packaging), in one unit for the whole model (die edge in
// mm, area, money). Link bandwidth allocation (mapper/optimize/link_allocation.h) spends a
// budget in that unit. Read once, strictly: a missing, negative or zero cost is an InputError.
#include <map>
#include <string>

namespace mcmsim {

struct LinkCostModel {
    std::string file;
    std::string name;
    std::string unit;                        ///< what `per_gbps` and budgets count
    std::map<std::string, double> per_gbps;  ///< [link preset] cost of 1 GB/s per direction, > 0
};

/// Reads a cost model file: {"name", "unit", "links": {"<preset>": {"per_gbps": x}}}.
LinkCostModel load_link_cost_model(const std::string& path);

}  // namespace mcmsim
