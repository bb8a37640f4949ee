#pragma once
// A workload as `mcmsim workload` shows it: a layer table, or its totals and layers as JSON.
#include "mapper/workload/workload.h"

#include <nlohmann/json.hpp>

#include <string>

namespace mcmsim {

/// One row per layer (index, name, kind, MACs, weight bytes, shape) and a totals line.
std::string workload_table(const Workload& w);
/// Name, batch, totals, importer notes and every layer with its shape and producers.
nlohmann::json workload_json(const Workload& w);

}  // namespace mcmsim
