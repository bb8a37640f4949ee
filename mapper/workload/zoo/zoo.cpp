// Zoo dispatch: one table of names and builders so zoo_names() and zoo_workload() agree.
// Entries with options (the gpt2 pair) accept "name:key=value,key=value".
#include "hw/common/input_error.h"
#include "mapper/workload/workload.h"
#include "mapper/workload/zoo/zoo_models.h"

#include <string>
#include <vector>

namespace mcmsim {

namespace {

Workload gpt2_with(std::int64_t batch, Gpt2Phase phase, const std::string& options);

struct ZooEntry {
    const char* name;
    Workload (*build)(std::int64_t batch);
    Workload (*build_with)(std::int64_t batch, const std::string& options);  ///< null: no options
};

const ZooEntry kZoo[] = {
    {"resnet50", build_resnet50, nullptr},
    {"vgg16", build_vgg16, nullptr},
    {"mobilenet_v2", build_mobilenet_v2, nullptr},
    {"vit_b16", build_vit_b16, nullptr},
    {"gpt2_prefill", nullptr, [](std::int64_t b, const std::string& o) { return gpt2_with(b, Gpt2Phase::Prefill, o); }},
    {"gpt2_decode", nullptr, [](std::int64_t b, const std::string& o) { return gpt2_with(b, Gpt2Phase::Decode, o); }},
};

[[noreturn]] void bad_option(const std::string& expected, const std::string& found) {
    throw RequestError("workload", expected, found);
}

// "seq=2048,layers=24" -> options; every value a positive integer, every key known.
Workload gpt2_with(std::int64_t batch, Gpt2Phase phase, const std::string& options) {
    Gpt2Options o;
    o.phase = phase;
    // Each bound is far beyond any published model (GPT-3: 96 layers, hidden 12288, 96 heads,
    // a 50k vocabulary) yet keeps the layer list and every MAC total small enough to build.
    struct Key {
        const char* name;
        std::int64_t* field;
        std::int64_t max;
    };
    const Key keys[] = {{"seq", &o.seq, 1 << 20},  {"layers", &o.layers, 4096}, {"hidden", &o.hidden, 1 << 17},
                        {"heads", &o.heads, 4096}, {"mlp", &o.mlp, 1 << 19},    {"vocab", &o.vocab, 1 << 22}};
    std::size_t pos = 0;
    while (pos < options.size()) {
        std::size_t end = options.find(',', pos);
        if (end == std::string::npos) end = options.size();
        const std::string item = options.substr(pos, end - pos);
        pos = end + 1;
        const std::size_t eq = item.find('=');
        const std::string key = item.substr(0, eq);
        std::int64_t* field = nullptr;
        std::int64_t max = 0;
        for (const Key& k : keys)
            if (key == k.name) field = k.field, max = k.max;
        if (!field || eq == std::string::npos)
            bad_option("gpt2 options key=value with keys seq, layers, hidden, heads, mlp, vocab", "\"" + item + "\"");
        const std::string value = item.substr(eq + 1);
        std::size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(value, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != value.size() || value.empty() || v < 1 || v > max)
            bad_option("an integer in [1, " + std::to_string(max) + "] for " + key, "\"" + value + "\"");
        *field = v;
    }
    if (o.hidden % o.heads != 0)
        bad_option("hidden divisible by heads", "hidden " + std::to_string(o.hidden) + ", heads " + std::to_string(o.heads));
    return build_gpt2(batch, o);
}

}  // namespace

std::vector<std::string> zoo_names() {
    std::vector<std::string> names;
    for (const auto& e : kZoo) names.push_back(e.name);
    return names;
}

Workload zoo_workload(const std::string& spec, std::int64_t batch) {
    if (batch < 1 || batch > kMaxBatch)
        throw RequestError("batch", "a batch size in [1, " + std::to_string(kMaxBatch) + "]", std::to_string(batch));
    const std::size_t colon = spec.find(':');
    const std::string name = spec.substr(0, colon);
    const std::string options = colon == std::string::npos ? "" : spec.substr(colon + 1);
    for (const auto& e : kZoo) {
        if (name != e.name) continue;
        if (e.build_with) return e.build_with(batch, options);
        if (colon != std::string::npos) bad_option("no options for " + name, "\"" + spec + "\"");
        return e.build(batch);
    }
    std::string list;
    for (const auto& n : zoo_names()) list += (list.empty() ? "" : ", ") + n;
    throw RequestError("workload", "one of the zoo models (" + list + ")", "\"" + spec + "\"");
}

}  // namespace mcmsim
