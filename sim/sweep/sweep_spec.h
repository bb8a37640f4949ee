#pragma once
// The sweep file (`mcmsim sweep SPEC`), read as strictly as an arch config (docs/sweeps.md):
//
//   { "base": "mcm-4x4-organic-hbm-edge",          arch file (relative to the sweep file) or name
//     "axes": [
//       { "pointer": "/package/link", "values": ["ucie-standard", "ucie-advanced"] },
//       { "pointer": "/package/link", "presets": "links" },            every shipped preset
//       { "pointer": "/chiplet/array/rows", "range": { "from": 8, "to": 32, "step": 8 } },
//       { "name": "grid", "zip": [ { "pointer": "/package/rows", "values": [2, 4] },
//                                  { "pointer": "/package/cols", "values": [2, 4] } ] } ],
//     "workloads": [ { "model": "resnet50", "batch": 1 } ],
//     "mapping": { "optimizer": "uniform" },        or a list: one more axis
//     "evaluators": ["estimate", "simulate", "simulate-vc"],
//     "sampling": { "method": "grid" | "random" | "latin_hypercube", "points": N, "seed": S },
//     "constraints": [ { "left": "/package/rows", "op": "le", "right": "/package/cols" } ],
//     "objective": "edp" | "latency" | "energy" }
//
// Every axis value is tried alone on the base arch with the strict reader while the file is
// read, so an unknown pointer or a value the reader refuses is an InputError naming the
// value's place in the sweep file. Pure C++.
#include "hw/common/choice.h"
#include "mapper/optimize/objective.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace mcmsim {

/// How a sweep visits its axes: every combination, or a seeded sample of them.
enum class Sampling { Grid, Random, LatinHypercube };
template <>
struct ChoiceNames<Sampling> {
    static constexpr std::pair<Sampling, const char*> all[] = {
        {Sampling::Grid, "grid"}, {Sampling::Random, "random"}, {Sampling::LatinHypercube, "latin_hypercube"}};
};

/// What evaluates a point: the analytical model, or a SystemC simulation with the packet or
/// the flit-level (VC) package network.
enum class SweepEvaluator { Estimate, Simulate, SimulateVc };
template <>
struct ChoiceNames<SweepEvaluator> {
    static constexpr std::pair<SweepEvaluator, const char*> all[] = {{SweepEvaluator::Estimate, "estimate"},
                                                                     {SweepEvaluator::Simulate, "simulate"},
                                                                     {SweepEvaluator::SimulateVc, "simulate-vc"}};
};

/// One axis: a name and its settings, each setting giving a value to every pointer of the
/// axis (one pointer, or several moving together in a zip).
struct SweepAxis {
    std::string name;
    std::vector<std::string> pointers;
    std::vector<std::vector<nlohmann::json>> settings;  ///< [setting][pointer]
    /// Optional, one per setting: what the table shows for it instead of the values (a
    /// co-design point's knobs rather than the documents they make).
    std::vector<nlohmann::json> labels;
    std::string where;  ///< the axis' JSON pointer in the sweep file
};

struct SweepWorkload {
    std::string model;       ///< a zoo spec or a file (made absolute)
    std::int64_t batch = 0;  ///< 0: the workload's own
    std::string label() const;
};

enum class ConstraintOp { Eq, Ne, Lt, Le, Gt, Ge };
template <>
struct ChoiceNames<ConstraintOp> {
    static constexpr std::pair<ConstraintOp, const char*> all[] = {{ConstraintOp::Eq, "eq"}, {ConstraintOp::Ne, "ne"},
                                                                   {ConstraintOp::Lt, "lt"}, {ConstraintOp::Le, "le"},
                                                                   {ConstraintOp::Gt, "gt"}, {ConstraintOp::Ge, "ge"}};
};

/// left op right, where left is a pointer into the point's arch document and right a pointer
/// or a constant.
struct SweepConstraint {
    std::string left;
    ConstraintOp op = ConstraintOp::Eq;
    std::string right_pointer;  ///< empty: compare with `right_value`
    nlohmann::json right_value;
    std::string where;
};

struct SweepSpec {
    std::string file;             ///< the sweep file
    std::string base_file;        ///< the base arch file
    nlohmann::json base;          ///< its document
    std::vector<SweepAxis> axes;  ///< the arch axes
    std::vector<SweepWorkload> workloads;
    std::vector<nlohmann::json> mappings;  ///< mapping options per setting (objects of option -> value)
    std::vector<SweepEvaluator> evaluators;
    Sampling sampling = Sampling::Grid;
    std::int64_t samples = 0;  ///< random and Latin-hypercube: how many arch points
    std::uint64_t seed = 1;
    std::vector<SweepConstraint> constraints;
    Objective objective = Objective::Edp;
    bool keep_plans = false;  ///< each point's child keeps its plan (plan.json in its directory)
};

/// Reads and checks `path`; throws InputError naming the file and the JSON pointer.
SweepSpec read_sweep_spec(const std::string& path);

/// The base document with `value` at `pointer`: a preset name on the way (e.g. "chiplet":
/// "simba" under /chiplet/array/rows) becomes {"preset": name} so the value overrides one
/// field of the preset. Throws std::invalid_argument when the pointer cannot be set.
void set_at_pointer(nlohmann::json& doc, const std::string& pointer, const nlohmann::json& value);

}  // namespace mcmsim
