// VGG-16 (configuration D) as torchvision builds it: 224×224 input, 8-bit, 3×3 pad-1 convs.
// Only MAC layers are layers (13 convolutions + 3 FC), like resnet50: each 2×2/2 max-pool is
// folded into the next layer's input size, ReLUs and dropout are not layers. fc6 reads the
// pooled 512×7×7 map flattened (c = 25,088).
#include "mapper/workload/zoo/zoo_builders.h"
#include "mapper/workload/zoo/zoo_models.h"

namespace mcmsim {

Workload build_vgg16(std::int64_t batch) {
    Workload wl;
    wl.name = "vgg16";
    wl.batch = batch;

    // Channels of each conv per stage; a max-pool halves the size after every stage.
    const std::vector<std::vector<std::int64_t>> stages = {
        {64, 64}, {128, 128}, {256, 256, 256}, {512, 512, 512}, {512, 512, 512}};
    std::int64_t hw = 224, channels = 3;
    std::vector<int> prev;
    for (std::size_t st = 0; st < stages.size(); ++st) {
        for (std::size_t i = 0; i < stages[st].size(); ++i) {
            const std::string name = "conv" + std::to_string(st + 1) + "_" + std::to_string(i + 1);
            prev = {zoo::add_conv(wl, name, channels, hw, stages[st][i], 3, 1, 1, prev)};
            channels = stages[st][i];
        }
        hw /= 2;  // max-pool 2×2 stride 2
    }
    prev = {zoo::add_fc(wl, "fc6", channels * hw * hw, 4096, 1, prev)};
    prev = {zoo::add_fc(wl, "fc7", 4096, 4096, 1, prev)};
    zoo::add_fc(wl, "fc8", 4096, 1000, 1, prev);
    return wl;
}

}  // namespace mcmsim
