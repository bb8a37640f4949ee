// Zoo dispatch: one table of names and builders so zoo_names() and zoo_workload() agree.
#include "hw/common/input_error.h"
#include "mapper/workload.h"
#include "mapper/zoo/zoo_models.h"

#include <string>
#include <vector>

namespace mcmsim {

namespace {

struct ZooEntry {
    const char* name;
    Workload (*build)(std::int64_t batch);
};

const ZooEntry kZoo[] = {
    {"resnet50", build_resnet50},
};

}  // namespace

std::vector<std::string> zoo_names() {
    std::vector<std::string> names;
    for (const auto& e : kZoo) names.push_back(e.name);
    return names;
}

Workload zoo_workload(const std::string& name, std::int64_t batch) {
    if (batch < 1)
        throw InputError("", "--batch", "a batch size of at least 1", std::to_string(batch));
    for (const auto& e : kZoo)
        if (name == e.name) return e.build(batch);
    std::string list;
    for (const auto& n : zoo_names()) list += (list.empty() ? "" : ", ") + n;
    throw InputError("", "--workload", "one of the zoo models (" + list + ")", "\"" + name + "\"");
}

}  // namespace mcmsim
