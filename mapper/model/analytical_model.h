#pragma once
// The analytical model behind `mcmsim estimate`: prices a plan in microseconds of wall time.
//
// Every op gets its own cost from closed-form figures, and the plan's dependency graph (plus
// send->recv edges and one compute unit per chiplet) is list-scheduled in order of readiness.
// Congestion is time-aware: every package link and every memory is a first-come-first-served
// resource with a "free at" time, and messages reserve them in the order they reach them, so
// traffic only competes with traffic that overlaps it in time (a weight prefetch issued during
// the previous layer loads the links then, not in its own layer):
//  - compute: the chiplet's own cost function (hw/compute/compute_cost.h), as the simulator;
//  - transfers: a send releases its flows one by one as its network interface frees; each
//    flow reserves its path's links as one virtual-cut-through message (a link is busy from
//    the head's arrival until the tail has left, and the tail never outruns the link before),
//    so a flow arrives after its zero-load head latency plus its bottleneck's serialisation
//    plus any queueing on its path. Flows are events of their own, so senders interleave;
//  - DRAM: the request's head latency, then the memory in order of arrival at its bandwidth,
//    its access latency, and the data's path reserved like a flow (a write: the path first,
//    then the memory, then the acknowledgement).
// Energy: compute, SRAM, NoC and D2D are exact (the same cost function, packets, flits, hops
// and bytes the simulation books, in the same ledger categories). DRAM is approximated: a
// stream opens each row once (per-command energies), background power is active for the share
// of the run the transfers take, refresh every tREFI; chiplet leakage over the estimated run.
// Per-layer link loads (bytes, spread along one routing tree per destination router, see
// message_cost.h RouteTrees) give the energy and each layer's bottleneck link in the stats.
// Each thread keeps the model's scratch storage (a few MB for a ResNet-50 plan) from one
// estimate to the next: capacity only, never a plan's results; the things remembered are
// compute_cost per tile while the chiplet config stays the same (a pure function of both:
// mapper/model/tile_cost_cache.h) and the package's node-pair paths while the package stays the same
// (mapper/model/package_paths.h). The plan is read once (its ops and transfers are most of an
// estimate's memory traffic): op ids and flows are indexed while the ops are priced.
//
// Granularity (EstimateOptions): how the schedule times the package's links and memories.
//  - Message (the default, and what the optimisers use): the one-pass list schedule above.
//    A message reserves every link of its path at once, in the order messages are issued, and
//    waits for its longest single wait. The fast one (docs/performance.md).
//  - Packet: a discrete-event schedule of groups of `packets_per_event` packets, which is how
//    the simulator's links behave. Each group is an event at every link of its path, and the
//    link serves groups in the order they ARRIVE there, not in the order their messages were
//    issued: a flow issued later on a nearer source can get ahead of an earlier one from
//    farther away, the packets of flows from different layers interleave on a shared link
//    instead of one message holding it whole, and a wait at one link delays the group at the
//    links after it (waits add up along the path). DRAM traffic is events too: a read's
//    request packets leave through the chiplet's network interface (behind its sends) and
//    cross the package, the memory serves each group in order of arrival, and the group's
//    data leaves as soon as it is served and crosses back; a write's data crosses the same
//    way and is acknowledged once served. Per layer it is much closer to the simulation than
//    the message granularity, at many times its cost (docs/validation.md,
//    docs/performance.md).
//  Energy, link loads and statistics are the same at both granularities: only times differ.
// Pure C++.
#include "hw/config/arch_config.h"
#include "hw/energy/energy_ledger.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mcmsim {

struct Estimate {
    std::vector<OpTimes> ops;  ///< by dense plan index
    EnergyLedger ledger;
    double latency_ns = 0;
    nlohmann::json stats;  ///< per-layer bottleneck links and loads
};

/// How the schedule times links and memories (see the header comment).
enum class Granularity { Message, Packet };

template <>
struct ChoiceNames<Granularity> {
    static constexpr std::pair<Granularity, const char*> all[] = {{Granularity::Message, "message"},
                                                                  {Granularity::Packet, "packet"}};
};

struct EstimateOptions {
    Granularity granularity = Granularity::Message;
    /// Packet granularity: packets that travel as one event (>= 1). The CLI's 4 keeps the
    /// events of a whole-network estimate few: single packets were not more accurate on the
    /// validation cases overall, and 8 were less.
    int packets_per_event = 1;
};

/// Prices `plan` on `arch`. The default options give the message granularity, byte for byte
/// what estimate_plan gave before the options existed.
Estimate estimate_plan(const ArchConfig& arch, const Plan& plan, const EstimateOptions& options = {});

}  // namespace mcmsim
