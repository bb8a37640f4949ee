#pragma once
// `mcmsim codesign` on the sweep engine: the search space's hardware points are one sweep axis
// (each setting the base document with the point's knobs applied, shown by its knobs), crossed
// with two mappings (the uniform baseline and the request's optimiser), estimated in child
// processes and recorded in DIR/sweep.sqlite like any sweep, so co-design runs in parallel and
// resumes; --confirm N is an escalation of the N best optimised points. The result is the
// co-design study of traces/report/codesign.h.
#include "sim/sweep/sweep_run.h"
#include "traces/report/codesign.h"

#include <nlohmann/json.hpp>

namespace mcmsim {

/// `mapping_options`: the optimiser's options as a sweep's mapping object (option -> value);
/// `workload`: the workload as the children load it; `run`: self, version, jobs, progress.
CodesignResult run_codesign(const CodesignRequest& req, const nlohmann::json& mapping_options, const SweepWorkload& workload,
                            SweepRequest run);

}  // namespace mcmsim
