#pragma once
// What `mcmsim noc` prints of a synthetic-traffic run: one load point as JSON or text, a
// latency-load curve as CSV. Figures that are unknown (latency and hops of a point whose
// measured packets were not all delivered) are null in JSON and "n/a" in text and CSV.
#include "hw/energy/energy_ledger.h"
#include "noc/synthetic/synthetic_traffic.h"

#include <nlohmann/json.hpp>

#include <string>

namespace mcmsim {

/// What the figures count: hops, latency, zero-load latency, rates, undelivered points.
nlohmann::json synthetic_conventions();
/// The curve, one CSV row per load point.
std::string synthetic_csv(const SyntheticRun& run);
/// The run's first load point with the run's totals, the options and the energy booked.
nlohmann::json synthetic_point_json(const NocConfig& cfg, const SyntheticOptions& opt, const SyntheticRun& run,
                                    const EnergyLedger& ledger);
/// The same point as a few lines of text.
std::string synthetic_point_text(const NocConfig& cfg, const SyntheticOptions& opt, const SyntheticRun& run);

}  // namespace mcmsim
