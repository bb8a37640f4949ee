#pragma once
// The flit-level network (router model "vc"): VcRouters wired by a NocTopology, and the wake
// calendar that runs them. One SC_METHOD drives the whole network: at each cycle where
// something is due it lets the traffic driver inject, then steps exactly the routers that
// asked for this cycle, then sleeps until the next cycle anyone asked for. Idle cycles and
// idle routers cost nothing. Routers exchange flits and credits only with a delay of at
// least one cycle, so the order in which routers of one cycle are stepped does not matter:
// with set_threads(n), n threads step the routers of a cycle, each its own lane of them
// (router_lane.h), and the run is the same as with one.
#include "hw/energy/energy_ledger.h"
#include "hw/time/sim_time.h"
#include "hw/topology/noc_topology.h"
#include "noc/noc_config.h"
#include "noc/routing/routing_function.h"
#include "noc/vc/flit.h"
#include "noc/vc/lane_worker.h"
#include "noc/vc/router_lane.h"
#include "noc/vc/threading_governor.h"
#include "noc/vc/vc_router.h"

#include <systemc>

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mcmsim {

/// Whoever creates traffic: asked for its next cycle and called at it, before the routers.
class TrafficDriver {
public:
    virtual ~TrafficDriver() = default;
    virtual Cycle next_cycle() const = 0;  ///< -1 when it has nothing more to do
    virtual void fire(Cycle now) = 0;
};

/// Told about every flit that leaves the network and every packet whose tail did.
class EjectionListener {
public:
    virtual ~EjectionListener() = default;
    virtual void flit_ejected(const FlitPacket& p, const Flit& f, Cycle when) = 0;
    virtual void packet_ejected(const FlitPacket& p, Cycle tail_cycle) = 0;
};

/// Makes a network's routing function over its topology, once the topology sits where it
/// stays (routing functions keep a reference to it).
using RoutingMaker = std::function<std::unique_ptr<RoutingFunction>(const NocTopology&)>;

class VcNetwork : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(VcNetwork);
    /// Routers on `topology`, each channel wired with the link class it names in
    /// `cfg.links`, routed by what `routing` makes.
    VcNetwork(sc_core::sc_module_name name, VcNetworkConfig cfg, NocTopology topology, const RoutingMaker& routing);
    /// A standalone network: the graph and routing its NoC config describes.
    VcNetwork(sc_core::sc_module_name name, const NocConfig& cfg);

    const VcNetworkConfig& config() const { return cfg_; }
    const NocTopology& topology() const { return topo_; }
    const RoutingFunction& routing() const { return *routing_; }
    int nodes() const { return topo_.routers(); }  ///< one endpoint per router
    VcRouter& router(int r) { return *routers_[r]; }

    /// Installs the traffic driver and wakes the network at its first cycle.
    void set_driver(TrafficDriver* d);
    void set_listener(EjectionListener* l) { listener_ = l; }
    /// Steps the routers of each cycle with `threads` threads (this one and threads - 1
    /// workers), each owning a block of consecutive router ids: bands of rows on a mesh.
    /// Call before any traffic.
    void set_threads(int threads);
    int threads() const { return static_cast<int>(lanes_.size()); }
    /// Steps every router in every cycle while traffic is inside, as a clocked model would: a
    /// check that the event-driven schedule only skips steps with nothing to do (the results
    /// must not change, only the speed).
    void set_exhaustive_stepping(bool on) { exhaustive_ = on; }

    /// Creates a packet of `flits` from router `src` to `dst`, queued at the source's network
    /// interface at cycle `created` (>= the current cycle). Returns its pool index.
    std::uint32_t create_packet(int src, int dst, int flits, Cycle created, Packet* payload = nullptr);

    Cycle now() const;
    /// Router bookkeeping ------------------------------------------------------------------
    /// Router `r` asks to be stepped at `at` (into the calendar of its lane).
    void schedule(VcRouter* r, Cycle at) {
        if (r->wake_at >= 0 && r->wake_at <= at) return;                   // it will look again earlier anyway
        if (running_ && at >= current_ && at - current_ <= wheel_mask_) {  // the common case, inline
            r->wake_at = at;
            r->lane_->wheel[static_cast<std::size_t>(at & wheel_mask_)].push_back(r);
            ++r->lane_->scheduled;
            return;
        }
        schedule_checked(r, at);
    }
    FlitPacketPool& packets() { return pool_; }
    void eject(const Flit& f, Cycle when);

    /// Statistics -----------------------------------------------------------------------------
    std::int64_t flits_inside() const { return flits_injected() - flits_ejected_; }  ///< injected, not yet ejected
    std::int64_t packets_waiting() const { return packets_waiting_; }                ///< created, tail not ejected
    std::int64_t flits_injected() const;
    std::int64_t flits_ejected() const { return flits_ejected_; }
    std::int64_t packets_ejected() const { return packets_ejected_; }
    std::int64_t order_violations() const { return order_violations_; }
    /// Flits that crossed router-to-router links.
    std::int64_t flit_hops() const;
    /// Flits per channel so far (index = channel id).
    std::vector<std::int64_t> channel_flits() const;
    bool deadlocked() const { return deadlocked_; }
    Cycle deadlock_cycle() const { return deadlock_cycle_; }
    /// Routers holding flits, e.g. "network.r0_3 (12 flits)": the watchdog's report.
    std::vector<std::string> busy_routers() const;
    /// Books router energy (per flit) and link energy (per bit) into the ledger, one account
    /// per router and per link.
    void book_energy(EnergyLedger& ledger) const;
    nlohmann::json stats_json(Cycle elapsed) const;

private:
    void run();
    /// Steps the routers of lane `lane` due at the current cycle.
    void step_lane(RouterLane& lane);
    void build_route_tables();
    /// Steps every lane's routers due now, on the workers as far as it pays, then delivers
    /// what lanes posted to each other and replays their ejections.
    void step_lanes_in_parallel();
    void deliver_posts();
    void deliver_ejections();  ///< replays the cycle's ejections to the listener, in router order
    Cycle last_progress() const;
    std::unique_ptr<RouterLane> make_lane() const;
    /// schedule() outside run() or with a bad cycle: checks, and arms the wake-up event.
    void schedule_checked(VcRouter* r, Cycle at);
    void notify_at(Cycle at);  ///< arms the wake-up event for cycle `at` (absolute time)
    Cycle next_due() const;

    VcNetworkConfig cfg_;
    NocTopology topo_;
    std::unique_ptr<RoutingFunction> routing_;
    std::vector<std::uint8_t> route_tables_;  ///< [at * routers + dst], see build_route_tables()
    std::vector<std::unique_ptr<VcRouter>> routers_;
    std::vector<std::unique_ptr<RouterLane>> lanes_;    ///< one per thread; lane 0 is this thread's
    std::vector<std::unique_ptr<LaneWorker>> workers_;  ///< worker k steps lane k + 1
    ThreadingGovernor threading_;
    /// The cycle the governor measures now: from its start to the next measured cycle's
    /// start, so that the serial part (the traffic driver, posts, the kernel's wake-up) counts
    /// too. It slows while a worker spins on the other core, and a run pays for it.
    struct MeasuredCycle {
        Cycle cycle = -1;  ///< -1: none (the last cycle was not measured)
        std::chrono::steady_clock::time_point start;
        std::size_t router_steps = 0;
    } measured_;
    FlitPacketPool pool_;
    TrafficDriver* driver_ = nullptr;
    EjectionListener* listener_ = nullptr;

    // Wake calendars (one per lane): wheels of per-cycle buckets, longer than any delay a
    // router can ask for.
    Cycle wheel_mask_ = 0;
    Cycle watchdog_cycles_ = 0;  ///< the config's, or more when one step of a slow link takes longer
    Cycle current_ = 0;
    bool running_ = false;
    bool exhaustive_ = false;  ///< set_exhaustive_stepping
    sc_core::sc_event wake_;
    Cycle armed_ = -1;

    std::int64_t flits_ejected_ = 0, packets_ejected_ = 0;
    std::int64_t packets_waiting_ = 0, order_violations_ = 0;
    Cycle last_processed_ = -1;  ///< last cycle run() stepped: new packets start after it
    bool deadlocked_ = false;
    Cycle deadlock_cycle_ = 0;
};

}  // namespace mcmsim
