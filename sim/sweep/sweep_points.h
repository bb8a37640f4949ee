#pragma once
// A sweep's points: the arch settings its sampling picks (every combination of the axes, or a
// seeded random or Latin-hypercube sample), kept where the constraints hold, each crossed with
// every workload, mapping and evaluator. Each point's arch is the base document with its axis
// values set, read by the strict reader; a combination the reader refuses is an invalid point
// with the reader's message (the others go on). A point is keyed by a content hash of what
// determines its result: the resolved arch, the workload, the mapping options, the evaluator
// and the mcmsim version. Pure C++.
#include "sim/sweep/sweep_spec.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcmsim {

struct SweepPoint {
    std::size_t index = 0;  ///< in the sweep's order
    nlohmann::json axes;    ///< axis name -> the setting's value (a zip: an array)
    std::size_t workload = 0, mapping = 0;
    SweepEvaluator evaluator = SweepEvaluator::Estimate;
    nlohmann::json arch;  ///< the resolved arch config (empty when invalid)
    std::string invalid;  ///< why the strict reader refused the point's arch
    std::string hash;     ///< content hash (a name-based UUID)

    /// What a child needs to evaluate the point (sweep-point's point.json, the arch apart).
    nlohmann::json job(const SweepSpec& spec) const;
};

/// The points of `spec`, in a deterministic order. Throws InputError at /constraints when the
/// constraints leave no point.
std::vector<SweepPoint> expand_sweep(const SweepSpec& spec, const std::string& version);

/// The same point evaluated by `evaluator` (fidelity escalation), with its own hash.
SweepPoint with_evaluator(const SweepPoint& p, SweepEvaluator evaluator, const SweepSpec& spec, const std::string& version);

}  // namespace mcmsim
