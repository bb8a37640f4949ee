#include "noc/synthetic/synthetic_traffic.h"

#include "hw/common/input_error.h"
#include "noc/synthetic/latency_histogram.h"
#include "noc/synthetic/zero_load_model.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <queue>

namespace mcmsim {

TrafficPatternGenerator::TrafficPatternGenerator(TrafficPattern p, const NocTopology& t)
    : p_(p), t_(t), hotspot_(t.id(t.rows() / 2, t.cols() / 2)) {
    const int n = t.routers();
    while ((1 << bits_) < n) ++bits_;
    const bool bit_pattern =
        p == TrafficPattern::BitComplement || p == TrafficPattern::BitReverse || p == TrafficPattern::Shuffle;
    if (bit_pattern && (1 << bits_) != n)
        throw RequestError("traffic", std::string("a router count that is a power of two for ") + to_string(p),
                           std::to_string(n) + " routers");
    if (p == TrafficPattern::Transpose && t.rows() != t.cols())
        throw RequestError("traffic", "a square grid for transpose", std::to_string(t.rows()) + "x" + std::to_string(t.cols()));
}

int TrafficPatternGenerator::fixed(int src) const {
    const int mask = (1 << bits_) - 1;
    switch (p_) {
        case TrafficPattern::Transpose:
            return t_.id(t_.col_of(src), t_.row_of(src));
        case TrafficPattern::BitComplement:
            return ~src & mask;
        case TrafficPattern::BitReverse: {
            int d = 0;
            for (int b = 0; b < bits_; ++b)
                if (src & (1 << b)) d |= 1 << (bits_ - 1 - b);
            return d;
        }
        case TrafficPattern::Shuffle:
            return bits_ ? ((src << 1) | (src >> (bits_ - 1))) & mask : 0;
        case TrafficPattern::Neighbor:
            return t_.id(t_.row_of(src), (t_.col_of(src) + 1) % t_.cols());
        default:
            return src;
    }
}

int TrafficPatternGenerator::destination(int src, std::mt19937_64& rng) const {
    const int n = t_.routers();
    if (p_ == TrafficPattern::Uniform) return static_cast<int>(rng() % static_cast<std::uint64_t>(n));
    if (p_ == TrafficPattern::Hotspot) {
        if (std::uniform_real_distribution<double>(0, 1)(rng) < 0.2) return hotspot_;
        return static_cast<int>(rng() % static_cast<std::uint64_t>(n));
    }
    return fixed(src);
}

std::vector<std::pair<int, double>> TrafficPatternGenerator::distribution(int src) const {
    const int n = t_.routers();
    std::vector<std::pair<int, double>> out;
    if (p_ == TrafficPattern::Uniform || p_ == TrafficPattern::Hotspot) {
        const double share = p_ == TrafficPattern::Hotspot ? 0.8 : 1.0;
        for (int d = 0; d < n; ++d) out.push_back({d, share / n});
        if (p_ == TrafficPattern::Hotspot) out.push_back({hotspot_, 0.2});
        return out;
    }
    return {{fixed(src), 1.0}};
}

double pattern_zero_load(const NocConfig& c, const NocTopology& t, const RoutingFunction& r, const TrafficPatternGenerator& g,
                         int flits) {
    double sum = 0;
    for (int s = 0; s < t.routers(); ++s)
        for (const auto& [d, w] : g.distribution(s)) sum += w * zero_load_path(c, t, r, s, d, flits).cycles;
    return sum / t.routers();
}

double SyntheticPoint::delivered_fraction() const {
    if (packets_measured == 0) return 1.0;
    return static_cast<double>(packets_measured - undelivered_packets) / static_cast<double>(packets_measured);
}

namespace {

nlohmann::json optional_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

nlohmann::json saturation_json(const SaturationVerdict& v, const std::vector<double>& backlog) {
    nlohmann::json reasons = nlohmann::json::array();
    if (v.undelivered) reasons.push_back("undelivered");
    if (v.not_drained) reasons.push_back("not_drained");
    if (v.throughput) reasons.push_back("throughput");
    if (v.backlog_growth) reasons.push_back("backlog_growth");
    using C = SaturationCriteria;
    return {{"reasons", reasons},
            {"throughput_shortfall", v.throughput_shortfall},
            {"backlog_trend_z", optional_json(v.backlog_trend_z)},
            {"backlog_growth", optional_json(v.backlog_growth_ratio)},
            {"sample_backlog_packets", v.not_drained ? nlohmann::json(nullptr) : nlohmann::json(backlog)},
            {"criteria",
             {{"throughput_tolerance", C::kThroughputTolerance},
              {"backlog_trend_z", C::kTrendZ},
              {"backlog_growth_tolerance", C::kGrowthTolerance},
              {"samples", C::kSamples}}}};
}

}  // namespace

nlohmann::json SyntheticPoint::to_json() const {
    return {{"rate", rate},
            {"offered", offered},
            {"accepted", accepted},
            {"avg_packet_latency_cycles", optional_json(avg_packet_latency)},
            {"p99_packet_latency_cycles", optional_json(p99_packet_latency)},
            {"avg_hops", optional_json(avg_hops)},
            {"saturated", saturated},
            {"saturation", saturation_json(saturation, backlog)},
            {"drained", drained},
            {"zero_load_latency_cycles", zero_load_latency},
            {"packets_measured", packets_measured},
            {"undelivered_packets", undelivered_packets},
            {"delivered_fraction", delivered_fraction()},
            {"flit_hops", flit_hops},
            {"max_link_utilization", max_link_utilization},
            {"cycles", cycles},
            {"wall_s", wall_s},
            {"flit_hops_per_wall_s", wall_s > 0 ? static_cast<double>(flit_hops) / wall_s : 0.0},
            {"cycles_per_wall_s", wall_s > 0 ? static_cast<double>(cycles) / wall_s : 0.0}};
}

namespace {

/// The next injection cycle of every node, taken out in (cycle, node) order as from a
/// min-heap of pairs. Under load a few nodes inject every cycle and a heap pays a
/// mispredicted branch per level for each packet; here a wheel of per-cycle node bit sets
/// costs a bit scan. Cycles beyond the wheel wait in a heap until the wheel reaches them.
class ArrivalCalendar {
public:
    explicit ArrivalCalendar(int nodes) : words_((nodes + 63) / 64), nodes_(static_cast<std::size_t>(kSlots * words_), 0) {}

    bool empty() const { return count_ == 0; }
    void clear() {
        std::fill(nodes_.begin(), nodes_.end(), 0);
        std::fill(std::begin(used_), std::end(used_), 0);
        overflow_ = {};
        count_ = 0;
    }
    /// Node `node` injects at `at` (never before the last cycle taken out).
    void push(Cycle at, int node) {
        ++count_;
        if (at - base_ >= kSlots) {
            overflow_.push({at, node});
            return;
        }
        const int slot = static_cast<int>(at % kSlots);
        nodes_[static_cast<std::size_t>(slot * words_ + node / 64)] |= std::uint64_t{1} << (node % 64);
        used_[slot / 64] |= std::uint64_t{1} << (slot % 64);
    }
    /// The earliest cycle held (the calendar must not be empty).
    Cycle earliest() const {
        Cycle best = overflow_.empty() ? std::numeric_limits<Cycle>::max() : overflow_.top().first;
        const int start = static_cast<int>(base_ % kSlots);
        for (int k = 0; k <= kSlots / 64; ++k) {  // used_ words from `start` on, round the wheel
            const int pos = (start / 64 + k) % (kSlots / 64);
            std::uint64_t w = used_[pos];
            if (k == 0) w &= ~std::uint64_t{0} << (start % 64);
            else if (k == kSlots / 64) w &= start % 64 ? (std::uint64_t{1} << (start % 64)) - 1 : 0;
            if (!w) continue;
            const int slot = pos * 64 + __builtin_ctzll(w);
            const Cycle at = base_ + ((slot - start + kSlots) % kSlots);
            return std::min(best, at);
        }
        return best;
    }
    /// Takes out every node due at `cycle`, which must be earliest(), and calls f(node) for
    /// each in node order; f may push later cycles.
    template <class F>
    void take(Cycle cycle, F&& f) {
        base_ = cycle;
        while (!overflow_.empty() && overflow_.top().first - base_ < kSlots) {  // the wheel reached them
            const auto [at, node] = overflow_.top();
            overflow_.pop();
            --count_;
            push(at, node);
        }
        const int slot = static_cast<int>(cycle % kSlots);
        used_[slot / 64] &= ~(std::uint64_t{1} << (slot % 64));
        for (int w = 0; w < words_; ++w) {
            std::uint64_t bits = nodes_[static_cast<std::size_t>(slot * words_ + w)];
            nodes_[static_cast<std::size_t>(slot * words_ + w)] = 0;
            for (; bits; bits &= bits - 1) {
                --count_;
                f(w * 64 + __builtin_ctzll(bits));  // pushes land in other slots: gaps >= 1
            }
        }
    }

private:
    static constexpr int kSlots = 256;  ///< a power of two, a multiple of 64
    using Arrival = std::pair<Cycle, int>;
    int words_;
    std::vector<std::uint64_t> nodes_;      ///< [slot * words_ + node / 64]: nodes due in the slot's cycle
    std::uint64_t used_[kSlots / 64] = {};  ///< bit per slot: some node due
    std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> overflow_;
    Cycle base_ = 0;  ///< last cycle taken out: the wheel holds cycles [base_, base_ + kSlots)
    std::int64_t count_ = 0;
};

/// Drives the load points: Bernoulli injection per node (drawn as geometric gaps, so idle
/// cycles cost nothing), phase changes, measurement.
class SyntheticDriver : public TrafficDriver, public EjectionListener {
public:
    SyntheticDriver(VcNetwork& net, const SyntheticOptions& opt, const TrafficPatternGenerator& gen, double zero_load)
        : net_(net), opt_(opt), gen_(gen), zero_load_(zero_load), rng_(opt.seed), arrivals_(net.nodes()) {
        start_point(0);
    }

    std::vector<SyntheticPoint> points;

    Cycle next_cycle() const override {
        switch (phase_) {
            case Phase::Warmup:
            case Phase::Measure: {
                Cycle t = phase_ == Phase::Warmup ? m0_ : m1_;
                if (!arrivals_.empty()) t = std::min(t, arrivals_.earliest());
                return t;
            }
            case Phase::Drain:
                return drain_deadline_;
            case Phase::Between:
                return next_start_;
            case Phase::Done:
                return -1;
        }
        return -1;
    }

    void fire(Cycle now) override {
        if (phase_ == Phase::Between) start_point(now);
        if (phase_ == Phase::Warmup && now >= m0_) {
            link_at_m0_ = net_.channel_flits();
            phase_ = Phase::Measure;
        }
        if (phase_ == Phase::Measure && now >= m1_) {
            link_at_m1_ = net_.channel_flits();
            phase_ = Phase::Drain;
            drain_deadline_ = now + (opt_.drain_limit ? opt_.drain_limit : 10 * opt_.measure + 10000);
            arrivals_.clear();
            if (net_.packets_waiting() == 0) finish_point(now, true);
            return;
        }
        if (phase_ == Phase::Drain) {  // the deadline passed with packets still inside
            finish_point(now, false);
            return;
        }
        // Every node due by now injects: earliest cycle first, in node order within a cycle.
        for (Cycle due; !arrivals_.empty() && (due = arrivals_.earliest()) <= now;)
            arrivals_.take(due, [&](int src) { inject(src, now); });
    }

    void flit_ejected(const FlitPacket&, const Flit&, Cycle when) override {
        if (when >= m0_ && when < m1_) ++accepted_flits_;
    }

    void packet_ejected(const FlitPacket& p, Cycle tail) override {
        if (p.measured) {
            const Cycle latency = tail - p.created;
            latency_.add(latency);
            hops_ += p.hops;
        }
        add_stay(p.created, tail);
        last_tail_ = std::max(last_tail_, tail);
        if (phase_ == Phase::Drain && net_.packets_waiting() == 0) finish_point(last_tail_, true);
    }

private:
    enum class Phase { Warmup, Measure, Drain, Between, Done };

    void inject(int src, Cycle now) {
        std::uint32_t id = net_.create_packet(src, gen_.destination(src, rng_), opt_.packet_flits, now);
        if (phase_ == Phase::Measure) {
            net_.packets()[id].measured = true;
            offered_flits_ += opt_.packet_flits;
            ++measured_packets_;
        }
        arrivals_.push(now + gap(), src);
    }

    Cycle gap() {
        // Bernoulli trials with success probability q per cycle: the gap is geometric.
        if (q_ >= 1.0) return 1;
        double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
        return 1 + static_cast<Cycle>(std::floor(std::log1p(-u) / log_miss_));
    }

    void start_point(Cycle now) {
        const double rate = opt_.rates[points.size()];
        q_ = std::min(1.0, rate / opt_.packet_flits);
        log_miss_ = std::log1p(-q_);  // gap() divides by it for every packet
        start_ = now;
        m0_ = now + opt_.warmup;
        m1_ = m0_ + opt_.measure;
        phase_ = Phase::Warmup;
        offered_flits_ = accepted_flits_ = hops_ = measured_packets_ = 0;
        latency_ = LatencyHistogram();
        // Samples of at least one cycle each (a window of fewer cycles has fewer samples):
        // sample k holds the window's cycles o with floor(o * samples / measure) = k.
        const Cycle samples = std::min<Cycle>(SaturationCriteria::kSamples, opt_.measure);
        bounds_.resize(static_cast<std::size_t>(samples + 1));
        for (Cycle k = 0; k <= samples; ++k)
            bounds_[static_cast<std::size_t>(k)] = m0_ + (k * opt_.measure + samples - 1) / samples;
        stay_cycles_.assign(static_cast<std::size_t>(samples), 0.0);
        hops_at_start_ = net_.flit_hops();
        wall_start_ = std::chrono::steady_clock::now();
        if (q_ > 0)
            for (int n = 0; n < net_.nodes(); ++n) arrivals_.push(now + gap() - 1, n);
    }

    /// A packet was inside over cycles [from, to): adds them to the samples they fall in.
    void add_stay(Cycle from, Cycle to) {
        from = std::max(from, m0_);
        to = std::min(to, m1_);
        if (from >= to) return;
        const std::size_t samples = stay_cycles_.size();
        for (auto k = static_cast<std::size_t>((from - m0_) * static_cast<Cycle>(samples) / opt_.measure);
             k < samples && bounds_[k] < to; ++k)
            stay_cycles_[k] += static_cast<double>(std::min(to, bounds_[k + 1]) - std::max(from, bounds_[k]));
    }

    void finish_point(Cycle now, bool drained) {
        SyntheticPoint pt;
        const double node_cycles = static_cast<double>(net_.nodes()) * static_cast<double>(opt_.measure);
        pt.rate = opt_.rates[points.size()];
        pt.offered = static_cast<double>(offered_flits_) / node_cycles;
        pt.accepted = static_cast<double>(accepted_flits_) / node_cycles;
        pt.packets_measured = measured_packets_;
        pt.undelivered_packets = measured_packets_ - latency_.count();
        if (pt.undelivered_packets == 0 && latency_.count() > 0) {
            pt.avg_packet_latency = latency_.mean();
            pt.p99_packet_latency = latency_.quantile(0.99);
            pt.avg_hops = static_cast<double>(hops_) / static_cast<double>(latency_.count());
        }
        pt.zero_load_latency = zero_load_;
        pt.drained = drained;
        if (drained)
            for (std::size_t k = 0; k < stay_cycles_.size(); ++k)
                pt.backlog.push_back(stay_cycles_[k] / static_cast<double>(bounds_[k + 1] - bounds_[k]));
        pt.saturation = judge_saturation(pt.offered, pt.accepted, drained, pt.undelivered_packets, pt.backlog);
        pt.saturated = pt.saturation.saturated;
        pt.flit_hops = net_.flit_hops() - hops_at_start_;
        if (link_at_m1_.size() == link_at_m0_.size()) {
            std::int64_t most = 0;
            for (std::size_t c = 0; c < link_at_m1_.size(); ++c) {
                const NocChannel& ch = net_.topology().channel(static_cast<int>(c));
                int s = net_.config().links[static_cast<std::size_t>(ch.link_class)].cycles_per_flit;
                most = std::max(most, (link_at_m1_[c] - link_at_m0_[c]) * s);
            }
            pt.max_link_utilization = static_cast<double>(most) / static_cast<double>(opt_.measure);
        }
        pt.cycles = now - start_ + 1;
        pt.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
        points.push_back(pt);
        const bool more = drained && !pt.saturated && points.size() < opt_.rates.size();
        phase_ = more ? Phase::Between : Phase::Done;
        next_start_ = now + 1;
        if (!drained) sc_core::sc_stop();
    }

    VcNetwork& net_;
    const SyntheticOptions& opt_;
    const TrafficPatternGenerator& gen_;
    double zero_load_;
    std::mt19937_64 rng_;
    Phase phase_ = Phase::Warmup;
    double q_ = 0, log_miss_ = 0;  ///< injection probability per cycle, log(1 - q_)
    Cycle start_ = 0, m0_ = 0, m1_ = 0, drain_deadline_ = 0, next_start_ = 0, last_tail_ = 0;
    ArrivalCalendar arrivals_;
    std::int64_t offered_flits_ = 0, accepted_flits_ = 0, hops_ = 0, hops_at_start_ = 0, measured_packets_ = 0;
    LatencyHistogram latency_;
    std::vector<Cycle> bounds_;        ///< first cycle of each sample of the window, then m1_
    std::vector<double> stay_cycles_;  ///< per sample: packet-cycles spent inside (every packet)
    std::vector<std::int64_t> link_at_m0_, link_at_m1_;
    std::chrono::steady_clock::time_point wall_start_;
};

}  // namespace

SyntheticRun run_synthetic(const NocConfig& cfg, const SyntheticOptions& opt, EnergyLedger* ledger) {
    init_time_resolution();
    VcNetwork net("network", cfg);
    net.set_threads(opt.threads);
    net.set_exhaustive_stepping(opt.exhaustive_stepping);
    TrafficPatternGenerator gen(opt.pattern, net.topology());
    const double t0 = pattern_zero_load(cfg, net.topology(), net.routing(), gen, opt.packet_flits);
    SyntheticDriver driver(net, opt, gen, t0);
    net.set_driver(&driver);
    net.set_listener(&driver);
    // The watchdog stops the kernel on a deadlock and reports it itself: no SystemC banner line.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_start();
    SyntheticRun run;
    run.points = driver.points;
    run.deadlocked = net.deadlocked();
    run.deadlock_cycle = net.deadlock_cycle();
    if (run.deadlocked) run.stuck_routers = net.busy_routers();
    run.flits_injected = net.flits_injected();
    run.flits_ejected = net.flits_ejected();
    run.packets_ejected = net.packets_ejected();
    run.order_violations = net.order_violations();
    run.threads = net.threads();
    Cycle elapsed = net.now();
    run.network = net.stats_json(elapsed > 0 ? elapsed : 1);
    if (ledger) net.book_energy(*ledger);
    return run;
}

}  // namespace mcmsim
