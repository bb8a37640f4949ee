// MobileNetV2 (width 1.0) as torchvision builds it: 224×224 input, 8-bit.
// Only MAC layers are layers (52 convolutions + 1 FC), like resnet50. Names follow
// torchvision's modules: features.0 is the 3×3/2 stem, features.1..17 the inverted residual
// blocks (expand 1×1 when t ≠ 1, depthwise 3×3, project 1×1), features.18 the last 1×1 conv,
// classifier the FC after the global average pool (folded: it reads 1280×1×1).
//
// Residual blocks (stride 1, same channels) add their input to the projection; as in resnet50
// the next layer lists every producer of that sum, flattened (see resnet50.cpp).
#include "mapper/workload/zoo/zoo_builders.h"
#include "mapper/workload/zoo/zoo_models.h"

namespace mcmsim {

Workload build_mobilenet_v2(std::int64_t batch) {
    Workload wl;
    wl.name = "mobilenet_v2";
    wl.batch = batch;

    std::int64_t hw = 112, channels = 32;
    std::vector<int> block_in = {zoo::add_conv(wl, "features.0", 3, 224, 32, 3, 2, 1, {})};

    // torchvision's inverted_residual_setting: expansion t, output channels c, repeats n, stride s.
    struct Setting {
        std::int64_t t, c;
        int n;
        std::int64_t s;
    };
    const Setting settings[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    int block = 1;
    for (const Setting& st : settings) {
        for (int i = 0; i < st.n; ++i, ++block) {
            const std::string prefix = "features." + std::to_string(block) + ".";
            const std::int64_t stride = i == 0 ? st.s : 1;
            const std::int64_t hidden = channels * st.t;
            std::vector<int> dw_in = block_in;
            if (st.t != 1) dw_in = {zoo::add_conv(wl, prefix + "expand", channels, hw, hidden, 1, 1, 0, block_in)};
            int dw = zoo::add_conv(wl, prefix + "dw", hidden, hw, hidden, 3, stride, 1, dw_in, hidden);
            const std::int64_t out_hw = (hw - 1) / stride + 1;
            int proj = zoo::add_conv(wl, prefix + "project", hidden, out_hw, st.c, 1, 1, 0, {dw});
            std::vector<int> block_out = {proj};
            if (stride == 1 && channels == st.c)  // residual connection
                block_out.insert(block_out.end(), block_in.begin(), block_in.end());
            block_in = std::move(block_out);
            channels = st.c;
            hw = out_hw;
        }
    }
    int last = zoo::add_conv(wl, "features.18", channels, hw, 1280, 1, 1, 0, block_in);
    zoo::add_fc(wl, "classifier", 1280, 1000, 1, {last});
    return wl;
}

}  // namespace mcmsim
