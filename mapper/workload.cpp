// Workload totals, graph queries, spec resolution and the shape/graph checks every workload
// (zoo or file) goes through before the mapper sees it.
#include "mapper/workload.h"

#include "hw/common/input_error.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <set>

namespace mcmsim {

const char* to_string(LayerKind kind) {
    switch (kind) {
        case LayerKind::Conv: return "conv";
        case LayerKind::FullyConnected: return "fc";
    }
    return "?";
}

std::int64_t Workload::total_macs() const {
    std::int64_t sum = 0;
    for (const auto& l : layers) sum += l.macs();
    return sum;
}

std::int64_t Workload::total_weight_bytes() const {
    std::int64_t sum = 0;
    for (const auto& l : layers) sum += l.weight_bytes();
    return sum;
}

std::vector<bool> Workload::is_output_layer() const {
    std::vector<bool> out(layers.size(), true);
    for (const auto& l : layers)
        for (int i : l.inputs)
            if (i >= 0 && static_cast<std::size_t>(i) < out.size()) out[i] = false;
    return out;
}

Workload resolve_workload(const std::string& spec, std::int64_t batch) {
    const auto names = zoo_names();
    if (std::find(names.begin(), names.end(), spec) != names.end())
        return zoo_workload(spec, batch > 0 ? batch : 1);

    if (!std::ifstream(spec)) {
        std::string list;
        for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
        throw InputError(spec, "", "a zoo name (" + list + ") or a workload file", "\"" + spec + "\"");
    }
    Workload wl = load_workload_file(spec);
    if (batch > 0) {  // an explicit batch overrides the file's
        wl.batch = batch;
        for (auto& l : wl.layers) l.n = batch;
        validate_workload(wl, spec);  // the larger batch may overflow the MAC count
    }
    return wl;
}

namespace {

std::string at(std::size_t i, const char* field) {
    return "/layers/" + std::to_string(i) + (*field ? "/" : "") + field;
}

[[noreturn]] void bad(const std::string& file, std::size_t i, const char* field,
                      const std::string& expected, const std::string& found) {
    throw InputError(file, at(i, field), expected, found);
}

// a*b, or -1 on overflow (all operands are positive here).
std::int64_t mul(std::int64_t a, std::int64_t b) {
    if (a < 0 || b < 0 || (b != 0 && a > std::numeric_limits<std::int64_t>::max() / b)) return -1;
    return a * b;
}

void check_layer_shape(const Layer& l, std::size_t i, std::int64_t batch, const std::string& file) {
    struct Dim { const char* field; std::int64_t v; };
    for (const Dim& d : {Dim{"c", l.c}, Dim{"h", l.h}, Dim{"w", l.w}, Dim{"k", l.k}, Dim{"r", l.r},
                         Dim{"s", l.s}, Dim{"stride", l.stride}, Dim{"groups", l.groups},
                         Dim{"bytes_per_element", l.bytes_per_element}})
        if (d.v < 1) bad(file, i, d.field, "a positive integer", std::to_string(d.v));
    if (l.pad < 0) bad(file, i, "pad", "a non-negative integer", std::to_string(l.pad));
    if (l.n != batch)
        bad(file, i, "", "batch n = " + std::to_string(batch) + " (the workload's batch)",
            "n = " + std::to_string(l.n));
    if (l.c % l.groups != 0)
        bad(file, i, "groups", "a divisor of c = " + std::to_string(l.c), std::to_string(l.groups));
    if (l.k % l.groups != 0)
        bad(file, i, "groups", "a divisor of k = " + std::to_string(l.k), std::to_string(l.groups));
    if (l.r > l.h + 2 * l.pad)
        bad(file, i, "r", "a filter height no larger than h + 2*pad = " + std::to_string(l.h + 2 * l.pad),
            std::to_string(l.r));
    if (l.s > l.w + 2 * l.pad)
        bad(file, i, "s", "a filter width no larger than w + 2*pad = " + std::to_string(l.w + 2 * l.pad),
            std::to_string(l.s));
    const std::int64_t p = (l.h + 2 * l.pad - l.r) / l.stride + 1;
    const std::int64_t q = (l.w + 2 * l.pad - l.s) / l.stride + 1;
    if (l.p != p) bad(file, i, "p", "p = (h + 2*pad - r)/stride + 1 = " + std::to_string(p), std::to_string(l.p));
    if (l.q != q) bad(file, i, "q", "q = (w + 2*pad - s)/stride + 1 = " + std::to_string(q), std::to_string(l.q));
    if (l.kind == LayerKind::FullyConnected &&
        (l.h != 1 || l.w != 1 || l.r != 1 || l.s != 1 || l.stride != 1 || l.pad != 0 || l.groups != 1))
        bad(file, i, "kind", "an fc layer to be a 1×1 conv on a 1×1 input", "other spatial parameters");

    // Keep every count the model derives from the layer within int64.
    std::int64_t macs = l.n;
    for (std::int64_t f : {l.k, l.p, l.q, l.c / l.groups, l.r, l.s}) macs = mul(macs, f);
    std::int64_t in = mul(mul(mul(mul(l.n, l.c), l.h), l.w), l.bytes_per_element);
    std::int64_t wt = mul(mul(mul(mul(l.k, l.c / l.groups), l.r), l.s), l.bytes_per_element);
    std::int64_t out = mul(mul(mul(mul(l.n, l.k), l.p), l.q), l.bytes_per_element);
    if (macs < 0 || in < 0 || wt < 0 || out < 0)
        bad(file, i, "", "a layer whose MAC and byte counts fit in 64 bits", "a larger layer");
}

}  // namespace

void validate_workload(const Workload& w, const std::string& file) {
    if (w.batch < 1) throw InputError(file, "/batch", "a positive integer", std::to_string(w.batch));
    if (w.layers.empty()) throw InputError(file, "/layers", "at least one layer", "none");

    std::set<std::string> names;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < w.layers.size(); ++i) {
        const Layer& l = w.layers[i];
        if (l.name.empty()) bad(file, i, "name", "a non-empty name", "\"\"");
        if (!names.insert(l.name).second)
            bad(file, i, "name", "a unique layer name", "a second layer \"" + l.name + "\"");
        check_layer_shape(l, i, w.batch, file);
        if (l.macs() > std::numeric_limits<std::int64_t>::max() - total)
            bad(file, i, "", "a workload whose total MACs fit in 64 bits", "a larger workload");
        total += l.macs();

        std::set<int> seen;
        for (std::size_t j = 0; j < l.inputs.size(); ++j) {
            const int src = l.inputs[j];
            const std::string where = at(i, "inputs") + "/" + std::to_string(j);
            if (src < 0 || static_cast<std::size_t>(src) >= i)
                throw InputError(file, where,
                                 i == 0 ? std::string("no inputs (the first layer reads the network input)")
                                        : "an earlier layer (index 0.." + std::to_string(i - 1) + ")",
                                 "layer index " + std::to_string(src));
            if (!seen.insert(src).second)
                throw InputError(file, where, "each producer listed once",
                                 "\"" + w.layers[src].name + "\" again");
            // The summed producers must all deliver the channels this layer reads.
            const Layer& prod = w.layers[src];
            if (prod.k != l.c)
                bad(file, i, "c",
                    "c = " + std::to_string(prod.k) + " (the output channels of input \"" + prod.name + "\")",
                    std::to_string(l.c));
        }
    }
}

}  // namespace mcmsim
