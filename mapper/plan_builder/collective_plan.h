#pragma once
// A plan of one collective alone, among every chiplet of the package: what the
// standard-representation work exchanges between simulators (written out as Chakra ETs by
// `mcmsim export --collective`), and a way to time a collective algorithm in either
// evaluator without a workload around it. Pure C++.
#include "hw/config/arch_config.h"
#include "mapper/mapping/mapping.h"
#include "traces/plan/plan.h"

#include <cstdint>

namespace mcmsim {

/// Which collective: every chiplet's bytes to every other (all-gather), or one chiplet's
/// bytes to every other (broadcast).
enum class CollectivePattern { AllGather, Broadcast };

template <>
struct ChoiceNames<CollectivePattern> {
    static constexpr std::pair<CollectivePattern, const char*> all[] = {{CollectivePattern::AllGather, "all-gather"},
                                                                        {CollectivePattern::Broadcast, "broadcast"}};
};

/// One plan layer named after the pattern, made of the sends and recvs `algorithm` gives:
/// an all-gather of `bytes` per chiplet, or a broadcast of `bytes` from chiplet `root`.
/// Flows follow the package's own routing. Synth cuts each multicast into `chunks` chunks
/// (0: as the plan builder does, synthesis_chunks). std::invalid_argument for bytes < 1, a
/// root outside the package, chunks < 0 or more chunks than bytes.
Plan build_collective_plan(const ArchConfig& arch, CollectivePattern pattern, Collective algorithm, std::int64_t bytes,
                           int root = 0, int chunks = 0);

}  // namespace mcmsim
