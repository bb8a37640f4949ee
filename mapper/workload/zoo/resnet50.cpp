// ResNet-50 v1.5 as torchvision builds it: 224×224 input, 8-bit, stride on the 3×3 conv of
// each stage's first bottleneck, a strided 1×1 "downsample" conv on every stage's first block.
//
// Only MAC layers are layers (53 convolutions + 1 FC). Max-pool, the residual adds, ReLUs and
// the global average pool are not layers, but the spatial sizes account for them.
//
// Layer.inputs convention: a layer lists every producer whose output the tensor it reads is
// built from. A bottleneck's output is conv3 + shortcut; the shortcut is either the strided
// downsample conv (first block of a stage) or the block's own input, which is itself built
// from several producers. That list is flattened, so inside a stage it grows by one per block:
//   layer1.0.*          <- {conv1}                         (max-pool of conv1)
//   layer1.1.conv1      <- {layer1.0.conv3, layer1.0.downsample}
//   layer1.2.conv1      <- {layer1.1.conv3, layer1.0.conv3, layer1.0.downsample}
// and resets at the next stage's downsample. The element-wise ReLUs between the adds make
// the tensor not literally the plain sum, but the data dependencies (which layers must have
// produced their outputs, with matching channel counts) are exactly these.
#include "mapper/workload/zoo/zoo_builders.h"
#include "mapper/workload/zoo/zoo_models.h"

#include <string>
#include <vector>

namespace mcmsim {

using zoo::add_conv;
using zoo::add_fc;

Workload build_resnet50(std::int64_t batch) {
    Workload wl;
    wl.name = "resnet50";
    wl.batch = batch;

    // Stem: conv1 7×7/2 pad 3 on 3×224×224 -> 64×112×112; max-pool 3×3/2 pad 1 -> 56×56.
    int conv1 = add_conv(wl, "conv1", 3, 224, 64, 7, 2, 3, {});
    std::int64_t hw = (112 + 2 * 1 - 3) / 2 + 1;  // max-pool output size
    std::int64_t channels = 64;
    std::vector<int> block_in = {conv1};  // producers of the current block's input

    struct Stage {
        std::int64_t planes;
        int blocks;
        std::int64_t stride;
    };
    const Stage stages[] = {{64, 3, 1}, {128, 4, 2}, {256, 6, 2}, {512, 3, 2}};
    const std::int64_t expansion = 4;

    for (int si = 0; si < 4; ++si) {
        const Stage& st = stages[si];
        for (int b = 0; b < st.blocks; ++b) {
            const std::string prefix = "layer" + std::to_string(si + 1) + "." + std::to_string(b) + ".";
            const std::int64_t stride = b == 0 ? st.stride : 1;
            const std::int64_t out_ch = st.planes * expansion;
            const std::int64_t out_hw = (hw - 1) / stride + 1;  // 3×3 pad 1 (and 1×1 pad 0)

            int c1 = add_conv(wl, prefix + "conv1", channels, hw, st.planes, 1, 1, 0, block_in);
            int c2 = add_conv(wl, prefix + "conv2", st.planes, hw, st.planes, 3, stride, 1, {c1});
            int c3 = add_conv(wl, prefix + "conv3", st.planes, out_hw, out_ch, 1, 1, 0, {c2});

            std::vector<int> block_out = {c3};
            if (b == 0) {
                // torchvision adds the downsample on the first block of every stage (layer1's
                // only changes channels 64 -> 256, stride 1).
                block_out.push_back(add_conv(wl, prefix + "downsample", channels, hw, out_ch, 1, stride, 0, block_in));
            } else {
                block_out.insert(block_out.end(), block_in.begin(), block_in.end());
            }
            block_in = std::move(block_out);
            channels = out_ch;
            hw = out_hw;
        }
    }

    // Global average pool folds into the FC: it reads 2048×1×1.
    add_fc(wl, "fc", channels, 1000, 1, block_in);
    return wl;
}

}  // namespace mcmsim
