#include "sim/sweep/sweep_points.h"

#include "hw/common/input_error.h"
#include "hw/config/arch_config.h"

#include <boost/uuid/name_generator_sha1.hpp>
#include <boost/uuid/uuid_io.hpp>

#include <algorithm>
#include <random>
#include <set>

namespace mcmsim {

namespace {

constexpr std::size_t kMaxPoints = 1000000;

using Setting = std::vector<std::size_t>;  ///< one setting index per axis

std::vector<Setting> grid(const SweepSpec& spec) {
    std::size_t total = 1;
    for (const SweepAxis& a : spec.axes) {
        total *= a.settings.size();
        if (total > kMaxPoints)
            throw InputError(spec.file, "/axes", "at most " + std::to_string(kMaxPoints) + " combinations (sample them)", "more");
    }
    std::vector<Setting> out;
    Setting s(spec.axes.size(), 0);
    for (std::size_t n = 0; n < total; ++n) {
        out.push_back(s);
        // The last axis varies fastest.
        for (std::size_t k = s.size(); k-- > 0;) {
            if (++s[k] < spec.axes[k].settings.size()) break;
            s[k] = 0;
        }
    }
    return out;
}

// Draws straight from the engine (fully specified by the standard), not through the
// library's distributions, whose algorithms differ between implementations.
std::size_t draw(std::mt19937_64& rng, std::size_t n) { return static_cast<std::size_t>(rng() % n); }

// Draws until `samples` distinct settings (or all there are, when the axes hold fewer).
std::vector<Setting> random_sample(const SweepSpec& spec) {
    std::mt19937_64 rng(spec.seed);
    double space = 1;
    for (const SweepAxis& a : spec.axes) space *= static_cast<double>(a.settings.size());
    const auto want = static_cast<std::size_t>(std::min(space, static_cast<double>(spec.samples)));
    if (space <= static_cast<double>(spec.samples)) return grid(spec);
    std::set<Setting> seen;
    std::vector<Setting> out;
    while (out.size() < want) {
        Setting s;
        for (const SweepAxis& a : spec.axes) s.push_back(draw(rng, a.settings.size()));
        if (seen.insert(s).second) out.push_back(std::move(s));
    }
    return out;
}

// Latin hypercube: each axis cut into `samples` equal strata, every stratum used once, the
// strata of different axes paired by independent random permutations.
std::vector<Setting> latin_hypercube(const SweepSpec& spec) {
    std::mt19937_64 rng(spec.seed);
    const auto n = static_cast<std::size_t>(spec.samples);
    std::vector<Setting> out(n, Setting(spec.axes.size(), 0));
    for (std::size_t k = 0; k < spec.axes.size(); ++k) {
        std::vector<std::size_t> perm(n);
        for (std::size_t i = 0; i < n; ++i) perm[i] = i;
        for (std::size_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[draw(rng, i)]);
        const std::size_t count = spec.axes[k].settings.size();
        for (std::size_t i = 0; i < n; ++i) out[i][k] = std::min(count - 1, (2 * perm[i] + 1) * count / (2 * n));
    }
    return out;
}

/// Drops repeated settings (strata of a short axis may pair alike), keeping the first.
std::vector<Setting> distinct(std::vector<Setting> in) {
    std::set<Setting> seen;
    std::vector<Setting> out;
    for (Setting& s : in)
        if (seen.insert(s).second) out.push_back(std::move(s));
    return out;
}

const nlohmann::json* find(const nlohmann::json& doc, const std::string& pointer) {
    try {
        const nlohmann::json::json_pointer p(pointer);
        return doc.contains(p) ? &doc.at(p) : nullptr;
    } catch (const std::exception&) {
        return nullptr;
    }
}

bool compare(const nlohmann::json& a, ConstraintOp op, const nlohmann::json& b) {
    if (a.is_number() && b.is_number()) {
        const double x = a.get<double>(), y = b.get<double>();
        switch (op) {
            case ConstraintOp::Eq:
                return x == y;
            case ConstraintOp::Ne:
                return x != y;
            case ConstraintOp::Lt:
                return x < y;
            case ConstraintOp::Le:
                return x <= y;
            case ConstraintOp::Gt:
                return x > y;
            case ConstraintOp::Ge:
                return x >= y;
        }
    }
    if (op == ConstraintOp::Eq) return a == b;
    if (op == ConstraintOp::Ne) return a != b;
    return false;  // an order between non-numbers never holds
}

struct ArchPoint {
    nlohmann::json axes, doc, resolved;
    std::string invalid;
};

/// The point's document, its resolved config (or why it has none), and whether the
/// constraints hold. Constraints read the document as written where they can, else the
/// resolved config (fields a preset fills in).
bool make_arch_point(const SweepSpec& spec, const Setting& s, ArchPoint& out) {
    out.axes = nlohmann::json::object();
    out.doc = spec.base;
    for (std::size_t k = 0; k < spec.axes.size(); ++k) {
        const SweepAxis& a = spec.axes[k];
        const auto& setting = a.settings[s[k]];
        for (std::size_t p = 0; p < a.pointers.size(); ++p) set_at_pointer(out.doc, a.pointers[p], setting[p]);
        out.axes[a.name] = !a.labels.empty() ? a.labels[s[k]] : setting.size() == 1 ? setting[0] : nlohmann::json(setting);
    }
    bool read = false;
    auto resolve = [&] {
        if (read) return;
        read = true;
        try {
            out.resolved = arch_to_json(arch_from_document(out.doc, spec.base_file));
        } catch (const InputError& e) {
            out.invalid = e.where() + ": expected " + e.expected() + ", found " + e.found();
        }
    };
    auto value = [&](const std::string& pointer) -> const nlohmann::json* {
        if (const nlohmann::json* v = find(out.doc, pointer)) return v;
        resolve();
        return out.resolved.is_null() ? nullptr : find(out.resolved, pointer);
    };
    for (const SweepConstraint& c : spec.constraints) {
        const nlohmann::json* l = value(c.left);
        const nlohmann::json* r = c.right_pointer.empty() ? &c.right_value : value(c.right_pointer);
        if (!l || !r) {
            if (!out.invalid.empty()) return true;  // reported as an invalid point
            throw InputError(spec.file, c.where, "pointers that exist in the arch config",
                             (l ? c.right_pointer : c.left) + " is in neither the document nor its resolved config");
        }
        if (!compare(*l, c.op, *r)) return false;
    }
    resolve();
    return true;
}

std::string content_hash(const nlohmann::json& content) {
    // A name-based (SHA-1) UUID of the canonical text: nlohmann's dump sorts object keys.
    static const boost::uuids::uuid kNamespace = boost::uuids::name_generator_sha1(boost::uuids::ns::url())("mcmsim-sweep");
    return boost::uuids::to_string(boost::uuids::name_generator_sha1(kNamespace)(content.dump()));
}

nlohmann::json job_of(const SweepSpec& spec, std::size_t workload, std::size_t mapping, SweepEvaluator e) {
    const SweepWorkload& w = spec.workloads[workload];
    nlohmann::json wj = {{"model", w.model}};
    if (w.batch > 0) wj["batch"] = w.batch;
    nlohmann::json j = {{"workload", wj}, {"mapping", spec.mappings[mapping]}, {"evaluator", to_string(e)}};
    if (spec.keep_plans) j["keep_plan"] = true;
    return j;
}

void hash_point(SweepPoint& p, const SweepSpec& spec, const std::string& version) {
    nlohmann::json content = p.job(spec);
    content["version"] = version;
    content["arch"] = p.invalid.empty() ? p.arch : nlohmann::json{{"invalid", p.axes}, {"base", spec.base_file}};
    p.hash = content_hash(content);
}

}  // namespace

nlohmann::json SweepPoint::job(const SweepSpec& spec) const { return job_of(spec, workload, mapping, evaluator); }

std::vector<SweepPoint> expand_sweep(const SweepSpec& spec, const std::string& version) {
    std::vector<Setting> settings = spec.sampling == Sampling::Grid     ? grid(spec)
                                    : spec.sampling == Sampling::Random ? random_sample(spec)
                                                                        : distinct(latin_hypercube(spec));
    std::vector<SweepPoint> out;
    for (const Setting& s : settings) {
        ArchPoint a;
        if (!make_arch_point(spec, s, a)) continue;
        for (std::size_t w = 0; w < spec.workloads.size(); ++w)
            for (std::size_t m = 0; m < spec.mappings.size(); ++m)
                for (SweepEvaluator e : spec.evaluators) {
                    SweepPoint p;
                    p.index = out.size();
                    p.axes = a.axes;
                    p.workload = w, p.mapping = m, p.evaluator = e;
                    p.arch = a.resolved;
                    p.invalid = a.invalid;
                    hash_point(p, spec, version);
                    out.push_back(std::move(p));
                }
    }
    if (out.empty() && !spec.constraints.empty())
        throw InputError(spec.file, "/constraints", "constraints that some point satisfies", "they exclude every point");
    return out;
}

SweepPoint with_evaluator(const SweepPoint& p, SweepEvaluator evaluator, const SweepSpec& spec, const std::string& version) {
    SweepPoint q = p;
    q.evaluator = evaluator;
    hash_point(q, spec, version);
    return q;
}

}  // namespace mcmsim
