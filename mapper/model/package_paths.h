#pragma once
// What the analytical model knows of a package before it sees a plan: per node (chiplets
// 0..n-1 at routers 0..n-1, then memories) its router, injection and ejection links; per node
// pair the routed path's links, each with when an unloaded message's head reaches it and how
// long a byte holds it, and the zero-load head latencies of a flit and of a control packet;
// the ledger's account names. A 6x6 package has ~1.5k such paths: building them was ~5% of
// an estimate and they are the same for every plan on the package, so each thread keeps the
// last package's (PackagePathsCache) and rebuilds only when the resolved arch differs.
// Pure C++.
#include "hw/config/arch_config.h"
#include "mapper/model/link_reservation.h"
#include "mapper/model/message_cost.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcmsim {

/// Appends a path's links to a step list, injection link first, each with its PathStep head
/// time and hold, and sums the flit-sized head's latency on the way. Both kinds of path go
/// through it (the package's node-pair paths and the plan's source routes), so they time
/// their links alike. `t`: where the head-latency sum starts (HeadLatencyTerms::start).
class StepWriter {
public:
    StepWriter(std::vector<PathStep>& out, const HeadLatencyTerms& flit, const std::vector<double>& ns_per_byte, double t)
        : out_(out), flit_(flit), ns_per_byte_(ns_per_byte), router_ns_(flit.start(1)), t_(t) {}

    /// The next link; `after_router`: a router lies before it (every link but the injection link).
    void add(int link, bool after_router) {
        if (after_router) z_ += router_ns_;
        hold_ = std::max(hold_, ns_per_byte_[static_cast<std::size_t>(link)]);
        out_.push_back(PathStep{link, z_, hold_});
        const double before = t_;
        flit_.add(link, t_, tail_);
        z_ += t_ - before;
    }
    /// The last link, into the receiving NI or memory PHY. The receiver takes flits of several
    /// packets at once (one buffer per virtual channel, as the flit-level network's NIs), so a
    /// packet holds it only for its own serialisation there; its tail still arrives no sooner
    /// than the slowest link before let it (the tail the reservation carries).
    void add_ejection(int link) {
        z_ += router_ns_;
        out_.push_back(PathStep{link, z_, ns_per_byte_[static_cast<std::size_t>(link)]});
        const double before = t_;
        flit_.add(link, t_, tail_);
        z_ += t_ - before;
    }
    /// The packet crosses the switch of the router it just entered at `ns_per_byte` (0: an
    /// ideal switch): its tail trails by that much at least from here on.
    void cross_switch(double ns_per_byte) {
        hold_ = std::max(hold_, ns_per_byte);
        out_.back().hold = hold_;
    }
    /// The head's time to the end of the path so far, summed link by link.
    double z() const { return z_; }
    /// The head latency as HeadLatencyTerms sums it (start, hops, then the longest tail).
    double head_latency() const { return t_ + tail_; }

private:
    std::vector<PathStep>& out_;
    const HeadLatencyTerms& flit_;
    const std::vector<double>& ns_per_byte_;
    double router_ns_, t_, tail_ = 0, z_ = 0, hold_ = 0;
};

class PackagePaths {
public:
    explicit PackagePaths(const ArchConfig& arch);
    PackagePaths(const PackagePaths&) = delete;
    PackagePaths& operator=(const PackagePaths&) = delete;

    const MessageCost& message_cost() const { return mc_; }
    const PackageLinks& links() const { return mc_.links(); }
    const MeshTopology& topology() const { return mc_.topology(); }
    const RouteTrees& trees() const { return trees_; }
    /// Per-link terms of a one-flit packet's head latency (source routes are timed with them).
    const HeadLatencyTerms& flit_terms() const { return flit_terms_; }
    const std::vector<double>& ns_per_byte() const { return ns_per_byte_; }  ///< per link

    int chiplets() const { return n_; }
    int nodes() const { return nodes_; }  ///< chiplets, then memories
    std::size_t pair_count() const { return static_cast<std::size_t>(nodes_) * static_cast<std::size_t>(nodes_); }
    std::size_t pair(int a, int b) const {
        return static_cast<std::size_t>(a) * static_cast<std::size_t>(nodes_) + static_cast<std::size_t>(b);
    }
    int router_of(int node) const { return router_of_[static_cast<std::size_t>(node)]; }
    /// How long a byte from `node` holds its router's local input crossing the switch, toward
    /// the mesh over mesh link `first` (`first` >= 0: the width of that link's port a cycle)
    /// or back to a local node (`first` < 0: the local port's rate); 0 with ideal routers. The
    /// input takes one packet at a time, as the injection link before it does, so the two act
    /// as one server at the slower rate.
    double switch_ns_per_byte(int node, int first) const {
        return first >= 0 ? switch_mesh_[static_cast<std::size_t>(mesh_class_[static_cast<std::size_t>(first)])]
                          : switch_local_[static_cast<std::size_t>(router_of(node))];
    }
    int inject(int node) const { return inject_[static_cast<std::size_t>(node)]; }
    int eject(int node) const { return eject_[static_cast<std::size_t>(node)]; }
    /// Per link: the router it leads into (a mesh link's next router, an injection link's
    /// node's router), -1 for the ejection links and the mesh's empty slots.
    const int* router_entered() const { return router_entered_.data(); }

    /// Per node pair (pair(a, b)); memory-to-memory pairs have empty paths.
    const PathRef* paths() const { return paths_; }
    double head_flit_ns(std::size_t pair) const { return paths_[pair].head_ns; }
    double head_control_ns(std::size_t pair) const { return head_control_ns_[pair]; }

    /// Ledger account names, built once: per router, per mesh link slot, per memory (PHY and
    /// DRAM), per chiplet. And all of them, sorted and each once (`sorted`), with each name's
    /// place there (`*_at`): a fresh ledger takes them in that order without searching
    /// (EnergyLedger::accounts_in_order).
    struct Names {
        std::vector<std::string> router, link, phy, dram, chiplet;
        /// Per link of every kind (PackageLinks numbering), as the statistics name it.
        std::vector<std::string> any_link;
        std::vector<std::string> sorted;
        std::vector<std::size_t> router_at, link_at, phy_at, dram_at, chiplet_at;
    };
    const Names& names() const { return names_; }

private:
    /// The ledger accounts the estimate books into, by kind and in the ledger's order.
    void name_accounts(const ArchConfig& arch);

    MessageCost mc_;
    RouteTrees trees_;
    int n_, nodes_;
    HeadLatencyTerms flit_terms_;
    std::vector<double> ns_per_byte_;
    std::vector<int> router_of_, inject_, eject_;
    std::array<double, kLinkClasses> switch_mesh_{};  ///< per link class: ns per byte through its port's width
    std::vector<LinkClass> mesh_class_;               ///< per mesh link slot: its link class
    std::vector<double> switch_local_;                ///< per router: ns per byte through its local port
    std::vector<int> router_entered_;
    PathStore store_;
    const PathRef* paths_ = nullptr;  ///< per pair, into store_
    std::vector<double> head_control_ns_;
    Names names_;
};

/// The last package's paths, one cache per thread (the model's per-thread workspace): an
/// optimiser prices thousands of plans on one package. Keyed on the arch's content, never
/// on its address (co-design prices many archs, one after another in the same storage).
class PackagePathsCache {
public:
    const PackagePaths& get(const ArchConfig& arch);

private:
    /// Everything PackagePaths reads of an arch: the whole package (package_to_json lists
    /// every knob, so a new one cannot be forgotten here), the NI bandwidth, and per memory
    /// its name, router and PHY. Not the whole resolved arch: building and comparing that
    /// (DRAM timings, buffers) cost ~2% of an estimate.
    struct Key {
        nlohmann::json package;
        double ni_bandwidth_gbps = 0;
        std::vector<std::tuple<std::string, int, int, double, double, double>> memories;
        bool operator==(const Key& o) const {
            return ni_bandwidth_gbps == o.ni_bandwidth_gbps && memories == o.memories && package == o.package;
        }
    };
    static Key key_of(const ArchConfig& arch);
    Key key_;
    std::unique_ptr<PackagePaths> paths_;
};

}  // namespace mcmsim
