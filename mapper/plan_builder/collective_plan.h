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

/// Which collective: every chiplet's bytes to every other (all-gather); one chiplet's bytes
/// to every other (broadcast); every chiplet's partial sums of every chiplet's slice, each
/// slice summed onto its chiplet (reduce-scatter); and that followed by the all-gather of the
/// summed slices (all-reduce).
enum class CollectivePattern { AllGather, Broadcast, ReduceScatter, AllReduce };

template <>
struct ChoiceNames<CollectivePattern> {
    static constexpr std::pair<CollectivePattern, const char*> all[] = {{CollectivePattern::AllGather, "all-gather"},
                                                                        {CollectivePattern::Broadcast, "broadcast"},
                                                                        {CollectivePattern::ReduceScatter, "reduce-scatter"},
                                                                        {CollectivePattern::AllReduce, "all-reduce"}};
};

/// One plan layer named after the pattern, made of the sends, recvs and (for the reductions)
/// adds `algorithm` gives: an all-gather of `bytes` per chiplet, a broadcast of `bytes` from
/// chiplet `root`, a reduce-scatter or an all-reduce of slices of `bytes` per chiplet (each
/// chiplet starts with every slice's partial sums, n x `bytes`; the reductions run along the
/// algorithm's broadcast trees backwards, TransferBatch::reduce, adding kPartialSumBytes
/// elements on the vector lanes).
/// Flows follow the package's own routing. Synth cuts each multicast into `chunks` chunks
/// (0: as the plan builder does, synthesis_chunks). std::invalid_argument for bytes < 1, a
/// root outside the package, chunks < 0 or more chunks than bytes.
Plan build_collective_plan(const ArchConfig& arch, CollectivePattern pattern, Collective algorithm, std::int64_t bytes,
                           int root = 0, int chunks = 0);

}  // namespace mcmsim
