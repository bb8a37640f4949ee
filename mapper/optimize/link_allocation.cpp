#include "mapper/optimize/link_allocation.h"

#include "hw/common/input_error.h"
#include "hw/config/physical_ranges.h"
#include "hw/topology/mesh_topology.h"
#include "mapper/model/analytical_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

namespace mcmsim {

LinkAllocation current_allocation(const ArchConfig& arch, const LinkCostModel& m) {
    LinkAllocation a;
    const MeshTopology topo = MeshTopology::of_package(arch.package);
    for (int l = 0; l < topo.link_slots(); ++l)
        if (topo.neighbor(l / kMeshPorts, static_cast<Port>(l % kMeshPorts)) >= 0)
            ++a.links[static_cast<std::size_t>(topo.link_class(l))];
    for (const auto& [c, name] : ChoiceNames<LinkClass>::all) {
        const auto i = static_cast<std::size_t>(c);
        if (a.links[i] == 0) continue;
        const LinkConfig& link = arch.package.link_of(c);
        const auto it = m.per_gbps.find(link.preset);
        if (it == m.per_gbps.end())
            throw InputError(
                m.file, "/links",
                std::string("a cost for the ") + name + " links' preset" + (link.preset.empty() ? "" : " " + link.preset),
                link.preset.empty() ? "links given field by field, no preset" : "none");
        a.per_gbps[i] = it->second;
        a.gbps[i] = link.bandwidth_gbps;
        a.cost += a.links[i] * a.per_gbps[i] * a.gbps[i];
    }
    return a;
}

ArchConfig with_link_bandwidths(const ArchConfig& arch, const std::array<double, kLinkClasses>& gbps) {
    ArchConfig out = arch;
    for (const auto& [c, name] : ChoiceNames<LinkClass>::all) {
        const auto i = static_cast<std::size_t>(c);
        if (gbps[i] <= 0 || !arch.package.has_link_class(c)) continue;
        LinkConfig link = arch.package.link_of(c);
        link.bandwidth_gbps = gbps[i];
        out.package.class_links[i] = link;
    }
    return out;
}

namespace {

/// Below this a package link is not worth its PHY: the allocator gives no class less.
constexpr double kLeastLinkGbps = 1;

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
}

Score price(const ArchConfig& arch, const Plan& plan, LinkAllocation& a) {
    ++a.evaluations;
    const Estimate e = estimate_plan(with_link_bandwidths(arch, a.gbps), plan);
    return Score{e.latency_ns, e.ledger.total_pj()};
}

/// The classes the package has links of, in LinkClass order.
std::vector<std::size_t> present(const LinkAllocation& a) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < static_cast<std::size_t>(kLinkClasses); ++i)
        if (a.links[i] > 0) out.push_back(i);
    return out;
}

/// Least of `f` on [lo, hi]: a grid of `points`, then a golden-section search in the
/// bracket around the best grid point. Deterministic; `f` is called a bounded number of times.
double minimise(const std::function<double(double)>& f, double lo, double hi, int points) {
    std::vector<double> x(static_cast<std::size_t>(points)), y(x.size());
    std::size_t best = 0;
    for (std::size_t k = 0; k < x.size(); ++k) {
        x[k] = lo + (hi - lo) * static_cast<double>(k) / static_cast<double>(points - 1);
        y[k] = f(x[k]);
        if (y[k] < y[best]) best = k;
    }
    double a = x[best > 0 ? best - 1 : 0], b = x[std::min(best + 1, x.size() - 1)];
    double xb = x[best], yb = y[best];
    const double g = (std::sqrt(5.0) - 1) / 2;
    double c = b - g * (b - a), d = a + g * (b - a), fc = f(c), fd = f(d);
    for (int it = 0; it < 30; ++it) {
        if (fc < fd) b = d, d = c, fd = fc, c = b - g * (b - a), fc = f(c);
        else a = c, c = d, fc = fd, d = a + g * (b - a), fd = f(d);
    }
    if (fc < yb) xb = c, yb = fc;
    if (fd < yb) xb = d;
    return xb;
}

}  // namespace

std::array<double, kLinkClasses> gbps_of_shares(const LinkAllocation& costs, double budget,
                                                const std::array<double, kLinkClasses>& share) {
    std::array<double, kLinkClasses> gbps{};
    for (std::size_t i : present(costs)) gbps[i] = share[i] * budget / (costs.links[i] * costs.per_gbps[i]);
    return gbps;
}

LinkAllocation uniform_allocation(const ArchConfig& arch, const LinkCostModel& m, double budget, const Plan& plan) {
    LinkAllocation a = current_allocation(arch, m);
    double per = 0;  // cost of 1 GB/s on every link
    for (std::size_t i : present(a)) per += a.links[i] * a.per_gbps[i];
    for (std::size_t i : present(a)) a.gbps[i] = budget / per;
    a.cost = budget;
    a.score = price(arch, plan, a);
    return a;
}

LinkAllocation allocate_links(const ArchConfig& arch, const LinkCostModel& m, double budget, const Plan& plan,
                              Objective objective) {
    LinkAllocation a = current_allocation(arch, m);
    const std::vector<std::size_t> cls = present(a);
    if (!(budget > 0)) throw RequestError("budget", "a positive budget in " + m.unit, num(budget));
    if (cls.empty()) throw RequestError("budget", "a package with links to spend it on", "none");
    // The least share a class may take: its links at the least bandwidth worth building.
    std::array<double, kLinkClasses> floor{};
    double floors = 0;
    for (std::size_t i : cls) {
        floor[i] = a.links[i] * a.per_gbps[i] * kLeastLinkGbps / budget;
        floors += floor[i];
    }
    if (floors >= 1)
        throw RequestError("budget",
                           "a budget that gives every link at least " + num(kLeastLinkGbps) + " GB/s (more than " +
                               num(floors * budget) + " " + m.unit + ")",
                           num(budget) + " " + m.unit);
    for (std::size_t i : cls)
        if (budget / (a.links[i] * a.per_gbps[i]) > ranges::kMaxBandwidthGbps)
            throw RequestError("budget",
                               "a budget that keeps every link within " + num(ranges::kMaxBandwidthGbps) + " GB/s (at most " +
                                   num(ranges::kMaxBandwidthGbps * a.links[i] * a.per_gbps[i]) + " " + m.unit + ")",
                               num(budget) + " " + m.unit);
    auto set = [&](const std::array<double, kLinkClasses>& share) { a.gbps = gbps_of_shares(a, budget, share); };
    auto value = [&](const std::array<double, kLinkClasses>& share) {
        set(share);
        return price(arch, plan, a).value(objective);
    };
    std::array<double, kLinkClasses> share{};
    if (cls.size() == 1) {
        share[cls[0]] = 1;
    } else {
        // The first class takes x of what the last ones leave, the last the rest; with three
        // classes the middle one's share is searched on an outer grid.
        const std::size_t first = cls[0], last = cls.back();
        auto split_two = [&](double left, std::array<double, kLinkClasses> s) {
            auto f = [&](double x) {
                s[first] = x, s[last] = left - x;
                return value(s);
            };
            const double x = minimise(f, floor[first], left - floor[last], 21);
            s[first] = x, s[last] = left - x;
            return s;
        };
        if (cls.size() == 2) {
            share = split_two(1.0, share);
        } else {
            const std::size_t middle = cls[1];
            double best = std::numeric_limits<double>::infinity();
            const int outer = 11;
            for (int k = 0; k < outer; ++k) {
                std::array<double, kLinkClasses> s{};
                s[middle] = floor[middle] + (1 - floor[first] - floor[last] - 2 * floor[middle]) * k / (outer - 1);
                s = split_two(1.0 - s[middle], s);
                const double v = value(s);
                if (v < best) best = v, share = s;
            }
        }
    }
    set(share);
    a.cost = 0;
    for (std::size_t i : cls) a.cost += a.links[i] * a.per_gbps[i] * a.gbps[i];
    a.score = price(arch, plan, a);
    return a;
}

}  // namespace mcmsim
