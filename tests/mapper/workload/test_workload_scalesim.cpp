// SCALE-Sim topology CSV import: conv and GEMM files written here, MACs by hand, SCALE-Sim's
// conventions (padded IFMAP, rounded-up output, "DP" depthwise, trailing commas/comments),
// and malformed rows naming the file, the line and the field.
#include "hw/common/input_error.h"
#include "mapper/workload/import/scalesim_importer.h"
#include "mapper/workload/workload.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace mcmsim;

namespace test_workload_scalesim {

class CsvFile {
public:
    CsvFile(const std::string& tag, const std::string& text)
        : path_((std::filesystem::temp_directory_path() / ("mcmsim_ss_" + tag + "_" + std::to_string(::getpid()) + ".csv"))
                    .string()) {
        std::ofstream(path_) << text;
    }
    ~CsvFile() { std::filesystem::remove(path_); }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

void expect_bad(const std::string& tag, const std::string& text, int line, const std::string& field) {
    CsvFile f(tag, text);
    try {
        import_scalesim_csv(f.path());
        ADD_FAILURE() << tag << ": no InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), f.path()) << tag;
        EXPECT_EQ(e.where(), "line " + std::to_string(line)) << tag << ": " << e.what();
        EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << tag << ": " << e.what();
    }
}

const char* kConvHeader = "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n";

TEST(ScaleSimCsv, ConvolutionFile) {
    CsvFile f("conv", std::string(kConvHeader) +
                          "\n"
                          "Conv1, 230, 230, 7, 7, 3, 64, 2,\n"      // padded 224: (230-7)/2 rounds up to 112
                          "Conv2_DP, 56, 56, 3, 3, 64, 1, 1,#dw\n"  // depthwise on 64 channels
                          "Stage 2,,,,,,,,\n"                       // a section row
                          "Conv3,56,56,1,1,64,128,1\n"              // no trailing comma
                          "FC, 1, 1, 1, 1, 1024, 1000, 1,\n");
    const Workload wl = import_scalesim_csv(f.path());
    ASSERT_EQ(wl.layers.size(), 4u);
    const Layer& c1 = wl.layers[0];
    // SCALE-Sim: ofmap = ceil((230 - 7 + 2) / 2) = 113.
    EXPECT_EQ(c1.p, 113);
    EXPECT_EQ(c1.q, 113);
    EXPECT_EQ(c1.macs(), 113LL * 113 * 7 * 7 * 3 * 64);
    const Layer& dp = wl.layers[1];
    EXPECT_EQ(dp.groups, 64);
    EXPECT_EQ(dp.k, 64);
    EXPECT_EQ(dp.macs(), 64LL * 54 * 54 * 3 * 3);  // 64 channels × 1 filter each
    EXPECT_EQ(wl.layers[2].macs(), 56LL * 56 * 64 * 128);
    EXPECT_EQ(wl.layers[3].kind, LayerKind::FullyConnected);
    EXPECT_EQ(wl.layers[3].macs(), 1024LL * 1000);
    EXPECT_EQ(wl.total_macs(), 113LL * 113 * 7 * 7 * 3 * 64 + 64LL * 54 * 54 * 9 + 56LL * 56 * 64 * 128 + 1024LL * 1000);
    // Channels chain conv1 -> DP (64) -> conv3; FC's 1024 inputs do not come from conv3's 128.
    EXPECT_TRUE(wl.layers[0].inputs.empty());
    EXPECT_EQ(wl.layers[1].inputs, std::vector<int>{0});
    EXPECT_EQ(wl.layers[2].inputs, std::vector<int>{1});
    EXPECT_TRUE(wl.layers[3].inputs.empty());
    // Notes: the blank row, the section row, the unchained FC.
    std::string notes;
    for (const auto& n : wl.notes) notes += n + "\n";
    EXPECT_NE(notes.find("line 2"), std::string::npos) << notes;
    EXPECT_NE(notes.find("section row \"Stage 2"), std::string::npos) << notes;
    EXPECT_NE(notes.find("line 7"), std::string::npos) << notes;
    EXPECT_EQ(import_scalesim_csv(f.path(), 4).total_macs(), 4 * wl.total_macs());
}

TEST(ScaleSimCsv, GemmFile) {
    CsvFile f("gemm", "Layer, M, N, K,\nQKT, 1024, 1024, 64,\nLinear1,1024,4800,1600\n\n");
    const Workload wl = import_scalesim_csv(f.path());
    ASSERT_EQ(wl.layers.size(), 2u);
    EXPECT_EQ(wl.layers[0].kind, LayerKind::FullyConnected);
    EXPECT_EQ(wl.layers[0].macs(), 1024LL * 1024 * 64);
    EXPECT_EQ(wl.layers[0].weight_bytes(), 1024LL * 64);  // K × N
    EXPECT_EQ(wl.layers[1].macs(), 1024LL * 4800 * 1600);
    EXPECT_EQ(wl.total_macs(), 1024LL * 1024 * 64 + 1024LL * 4800 * 1600);
    // Through resolve_workload by extension, with a batch.
    EXPECT_EQ(resolve_workload(f.path(), 2).total_macs(), 2 * wl.total_macs());
}

TEST(ScaleSimCsv, MalformedRows) {
    const std::string h = kConvHeader;
    expect_bad("letters", h + "Conv1, 224, 2x4, 3, 3, 3, 64, 1,\n", 2, "IFMAP Width");
    expect_bad("zero", h + "Conv1, 224, 224, 3, 3, 0, 64, 1,\n", 2, "Channels");
    expect_bad("short", h + "\nConv1, 224, 224, 3, 3, 3,\n", 3, "Num Filter");
    expect_bad("filter", h + "Conv1, 2, 224, 3, 3, 3, 64, 1,\n", 2, "Filter Height");
    expect_bad("strides", h + "Conv1, 224, 224, 3, 3, 3, 64, 1, 2,\n", 2, "Stride Width");
    expect_bad("gemm_field", "Layer, M, N, K,\nL1, 64, -3, 64,\n", 2, "N");
    expect_bad("gemm_short", "Layer, M, N, K,\nL1, 64, 64,\n", 2, "K");
    expect_bad("header", "name, a, b\nL1, 1, 2, 3,\n", 1, "header");
    expect_bad("empty", h + "\n", 3, "layer row");
    EXPECT_THROW(import_scalesim_csv("/nonexistent/topology.csv"), InputError);
}

}  // namespace test_workload_scalesim
