// SCALE-Sim topology CSV import: conv and GEMM files written here, MACs by hand, SCALE-Sim's
// conventions (padded IFMAP, rounded-up output, "DP" depthwise, trailing commas/comments),
// rows no symmetric pad describes, annotation columns, and malformed rows naming the file,
// the line, the field and the accepted range.
#include "hw/common/input_error.h"
#include "mapper/workload/import/scalesim_importer.h"
#include "mapper/workload/workload.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

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

// Like expect_bad, and the message says every one of `says`.
void expect_bad_says(const std::string& tag, const std::string& text, int line, const std::vector<std::string>& says,
                     std::int64_t batch = 1) {
    CsvFile f(tag, text);
    try {
        import_scalesim_csv(f.path(), batch);
        ADD_FAILURE() << tag << ": no InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), f.path()) << tag;
        if (line > 0) {
            EXPECT_EQ(e.where(), "line " + std::to_string(line)) << tag << ": " << e.what();
        }
        for (const std::string& s : says) EXPECT_NE(std::string(e.what()).find(s), std::string::npos) << tag << ": " << e.what();
    }
}

// SCALE-Sim v2's output size, as topology_utils.py writes it:
// int(math.ceil((ifmap - filt + stride) / stride)).
std::int64_t scalesim_ofmap(std::int64_t ifmap, std::int64_t filt, std::int64_t stride) {
    return static_cast<std::int64_t>(std::ceil(static_cast<double>(ifmap - filt + stride) / static_cast<double>(stride)));
}

// The notes that contain `needle`.
int notes_with(const Workload& wl, const std::string& needle) {
    int n = 0;
    for (const auto& note : wl.notes) n += note.find(needle) != std::string::npos;
    return n;
}

const std::string kLimit = std::to_string(std::int64_t(1) << 30);  // the documented bound of every field

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

// Stride 2, H - R = 6 even, W - S = 7 odd: SCALE-Sim's last column window runs one column past
// the right edge while the rows fit exactly, and no single symmetric pad gives both sizes.
TEST(ScaleSimCsv, NoSymmetricPadRowKeepsScaleSimSizes) {
    CsvFile f("trail", std::string(kConvHeader) + "L1,8,9,2,2,1,1,2,\n");
    const Workload wl = import_scalesim_csv(f.path());
    ASSERT_EQ(wl.layers.size(), 1u);
    const Layer& l = wl.layers[0];
    const std::int64_t p = scalesim_ofmap(8, 2, 2), q = scalesim_ofmap(9, 2, 2);  // 4 and 5
    EXPECT_EQ(p, 4);
    EXPECT_EQ(q, 5);
    EXPECT_EQ(l.p, p);
    EXPECT_EQ(l.q, q);
    EXPECT_EQ(l.macs(), p * q * 2 * 2 * 1 * 1);
    // pad 0 gives q = (9 - 2)/2 + 1 = 4 and pad 1 gives p = (8 + 2 - 2)/2 + 1 = 5: neither fits.
    // The convention: pad 0, and the IFMAP reaches the end of SCALE-Sim's last window,
    // (p - 1)·stride + R rows and (q - 1)·stride + S columns.
    EXPECT_EQ(l.pad, 0);
    EXPECT_EQ(l.h, (p - 1) * 2 + 2);  // 8: the rows needed no padding
    EXPECT_EQ(l.w, (q - 1) * 2 + 2);  // 10: one zero column past the right edge
    EXPECT_EQ(notes_with(wl, "line 2: no symmetric pad"), 1);
    EXPECT_EQ(notes_with(wl, "8 x 10"), 1);
}

// Every stride 1..4, filter 1..7 per axis and IFMAP 1..9 per axis (even and odd IFMAP - Filter,
// filters larger than the IFMAP): SCALE-Sim's output size and MACs, or InputError.
TEST(ScaleSimCsv, GeometrySweep) {
    struct Row {
        std::int64_t h, w, r, s, stride;
    };
    std::vector<Row> rows;
    std::ostringstream csv;
    csv << kConvHeader;
    for (std::int64_t st = 1; st <= 4; ++st)
        for (std::int64_t r = 1; r <= 7; ++r)
            for (std::int64_t s = 1; s <= 7; ++s)
                for (std::int64_t h = r; h <= 9; ++h)
                    for (std::int64_t w = s; w <= 9; ++w) {
                        csv << "L" << rows.size() << "," << h << "," << w << "," << r << "," << s << ",3,5," << st << ",\n";
                        rows.push_back({h, w, r, s, st});
                    }
    ASSERT_GT(rows.size(), 5000u);
    CsvFile f("sweep", csv.str());
    const Workload wl = import_scalesim_csv(f.path());  // a search without a bound would hang here
    ASSERT_EQ(wl.layers.size(), rows.size());
    int unpadded = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& x = rows[i];
        const Layer& l = wl.layers[i];
        const std::int64_t p = scalesim_ofmap(x.h, x.r, x.stride), q = scalesim_ofmap(x.w, x.s, x.stride);
        ASSERT_EQ(l.p, p) << l.name;
        ASSERT_EQ(l.q, q) << l.name;
        ASSERT_EQ(l.macs(), p * q * x.r * x.s * 3 * 5) << l.name;
        // The smallest symmetric pad giving both sizes by mcmsim's floor rule, searched here
        // by brute force well past any pad that can work.
        std::int64_t pad = -1;
        for (std::int64_t t = 0; t <= 16 && pad < 0; ++t)
            if ((x.h + 2 * t - x.r) / x.stride + 1 == p && (x.w + 2 * t - x.s) / x.stride + 1 == q) pad = t;
        // The zeros SCALE-Sim reads past each edge: one pad fits both axes unless the stride is
        // even, one axis needs none and the other stride - 1.
        const std::int64_t trail_h = (p - 1) * x.stride + x.r - x.h, trail_w = (q - 1) * x.stride + x.s - x.w;
        const bool apart = x.stride % 2 == 0 && std::max(trail_h, trail_w) == x.stride - 1 && std::min(trail_h, trail_w) == 0;
        ASSERT_EQ(pad < 0, apart) << l.name;
        if (pad >= 0) {
            ASSERT_EQ(l.pad, pad) << l.name;
            ASSERT_EQ(l.h, x.h) << l.name;
            ASSERT_EQ(l.w, x.w) << l.name;
        } else {
            ++unpadded;
            ASSERT_EQ(l.pad, 0) << l.name;
            ASSERT_EQ(l.h, (p - 1) * x.stride + x.r) << l.name;
            ASSERT_EQ(l.w, (q - 1) * x.stride + x.s) << l.name;
            ASSERT_LT(l.h - x.h, x.stride) << l.name;  // fewer zero rows than a stride
            ASSERT_LT(l.w - x.w, x.stride) << l.name;
        }
    }
    EXPECT_GT(unpadded, 0);
    EXPECT_EQ(notes_with(wl, "no symmetric pad"), unpadded);

    // A filter larger than its IFMAP: one file each, as SCALE-Sim asserts on the first.
    for (std::int64_t st = 1; st <= 4; ++st)
        for (std::int64_t f_size = 2; f_size <= 7; ++f_size)
            for (std::int64_t in = 1; in < f_size; ++in) {
                const std::string tag = std::to_string(st) + "_" + std::to_string(f_size) + "_" + std::to_string(in);
                const std::string a = std::to_string(in), b = std::to_string(f_size), c = std::to_string(st);
                expect_bad("tall" + tag, kConvHeader + ("L," + a + ",9," + b + ",3,3,5," + c + ",\n"), 2, "Filter Height");
                expect_bad("wide" + tag, kConvHeader + ("L,9," + a + ",3," + b + ",3,5," + c + ",\n"), 2, "Filter Width");
            }
}

// A 1 x 1 window over a 1 x 1 IFMAP is a fully connected layer whatever the stride.
TEST(ScaleSimCsv, OneByOneRowAnyStride) {
    CsvFile f("fc_stride", std::string(kConvHeader) + "FC,1,1,1,1,1024,1000,2,\n");
    const Workload wl = import_scalesim_csv(f.path());
    ASSERT_EQ(wl.layers.size(), 1u);
    EXPECT_EQ(wl.layers[0].kind, LayerKind::FullyConnected);
    EXPECT_EQ(wl.layers[0].macs(), 1024LL * 1000);
}

TEST(ScaleSimCsv, AnnotationColumnsIgnoredWithOneNote) {
    // Five named annotation columns after SCALE-Sim's eight: 13 fields a row.
    CsvFile f("annot",
              "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides, "
              "Type, Activation, Params, Notes, Owner,\n"
              "Conv1, 230, 230, 7, 7, 3, 64, 2, conv, relu, 9408, stem, a,\n"
              "Stage 2,,,,,,,, section,,,,,\n"
              "Conv2, 56, 56, 3, 3, 64, 64, 1, conv, relu, 36864, , b,\n"
              "Conv3, 56, 56, 1, 1, 64, 256, 1, conv, none, 16384, 1x1, c\n");
    const Workload wl = import_scalesim_csv(f.path());
    ASSERT_EQ(wl.layers.size(), 3u);
    EXPECT_EQ(wl.layers[0].macs(), 113LL * 113 * 7 * 7 * 3 * 64);  // ceil((230 - 7 + 2)/2) = 113
    EXPECT_EQ(wl.layers[1].macs(), 54LL * 54 * 3 * 3 * 64 * 64);
    EXPECT_EQ(wl.layers[2].macs(), 56LL * 56 * 64 * 256);
    EXPECT_EQ(notes_with(wl, "annotation"), 1);
    EXPECT_EQ(notes_with(wl, "columns 9 to 13"), 1);
    EXPECT_EQ(notes_with(wl, "\"Type\""), 1);
    EXPECT_EQ(notes_with(wl, "section row \"Stage 2"), 1);

    // A header naming the ninth column Stride Width: annotations start at column 10.
    CsvFile g("annot_sw",
              "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, "
              "Stride height, Stride width, Comment,\n"
              "L1, 8, 8, 3, 3, 4, 4, 1, 1, first,\nL2, 8, 8, 3, 3, 4, 4, 1, 1, second,\n");
    const Workload wg = import_scalesim_csv(g.path());
    ASSERT_EQ(wg.layers.size(), 2u);
    EXPECT_EQ(wg.layers[1].macs(), 6LL * 6 * 3 * 3 * 4 * 4);
    EXPECT_EQ(notes_with(wg, "column 10 (\"Comment\")"), 1);
    expect_bad("annot_sw_differs",
               "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Stride height, "
               "Stride width, Comment,\nL1, 8, 8, 3, 3, 4, 4, 1, 2, first,\n",
               2, "Stride Width");

    // An eight-column header: a ninth number is the column stride (SCALE-Sim's reading), and
    // fields after it are annotations.
    CsvFile h("annot_unnamed", std::string(kConvHeader) + "L1, 8, 8, 3, 3, 4, 4, 1, 1, x, y,\n");
    const Workload wh = import_scalesim_csv(h.path());
    EXPECT_EQ(wh.layers.at(0).macs(), 6LL * 6 * 3 * 3 * 4 * 4);
    EXPECT_EQ(notes_with(wh, "columns 10 to 11"), 1);
    expect_bad_says("annot_text_stride", std::string(kConvHeader) + "L1, 8, 8, 3, 3, 4, 4, 1, relu,\n", 2,
                    {"Stride Width (column 9)", "[1, " + kLimit + "]", "name it in the header", "\"relu\""});

    // GEMM files take annotations after K.
    CsvFile m("annot_gemm", "Layer, M, N, K, Note,\nQKT, 64, 32, 16, attention,\nPV, 64, 16, 32, attention,\n");
    const Workload wm = import_scalesim_csv(m.path());
    ASSERT_EQ(wm.layers.size(), 2u);
    EXPECT_EQ(wm.total_macs(), 64LL * 32 * 16 + 64LL * 16 * 32);
    EXPECT_EQ(notes_with(wm, "column 5 (\"Note\")"), 1);
}

TEST(ScaleSimCsv, ErrorsNameTheLimits) {
    const std::string h = kConvHeader;
    const std::string range = "[1, " + kLimit + "]";
    expect_bad_says("filters", h + "L1, 56, 56, 3, 3, 64, 99999999999, 1,\n", 2,
                    {"Num Filter (column 7)", "an integer in " + range, "\"99999999999\""});
    expect_bad_says("past_int64", h + "L1, 56, 99999999999999999999999, 3, 3, 64, 64, 1,\n", 2,
                    {"IFMAP Width (column 3)", range});
    expect_bad_says("one_over", h + "L1, " + std::to_string((std::int64_t(1) << 30) + 1) + ", 56, 3, 3, 64, 64, 1,\n", 2,
                    {"IFMAP Height (column 2)", range});
    expect_bad_says("negative", h + "L1, 56, 56, 3, 3, 64, 64, -1,\n", 2, {"Strides (column 8)", range});
    expect_bad_says("gemm_big", "Layer, M, N, K,\nL1, 64, 64, 4294967296,\n", 2, {"K (column 4)", range});

    // Depthwise: Channels x Num Filter output channels within the same bound.
    const std::int64_t c = 65536;
    expect_bad_says("dp_channels", h + "Conv_DP, 8, 8, 3, 3, 65536, 65536, 1,\n", 2,
                    {"Num Filter (column 7)", "at most " + std::to_string((std::int64_t(1) << 30) / c), kLimit});

    // 2^20 x 2^20 positions, 2^30 channels in and out: 2^100 MACs.
    expect_bad_says("macs", h + "L1, 1048576, 1048576, 1, 1, 1073741824, 1073741824, 1,\n", 2, {"fit in 64 bits", "MACs"});
    // A stride as large as the IFMAP leaves one output but 2^90 IFMAP elements.
    expect_bad_says("ifmap", h + "L1, 1073741824, 1073741824, 1, 1, 1073741824, 1, 1073741824,\n", 2,
                    {"fit in 64 bits", "IFMAP elements"});
    // 2^62 MACs a row (2^20 x 2^20 positions, 2^11 channels in and out): the second overflows the total.
    expect_bad_says("total", h + "A, 1048576, 1048576, 1, 1, 2048, 2048, 1,\nB, 1048576, 1048576, 1, 1, 2048, 2048, 1,\n", 3,
                    {"total MACs"});
    // The batch multiplies: 2^30 x 2^40 MACs.
    expect_bad_says("batch_macs", h + "L1, 1048576, 1048576, 1, 1, 1024, 1024, 1,\n", 2, {"fit in 64 bits", "MACs"},
                    std::int64_t(1) << 30);
    expect_bad_says("gemm_macs", "Layer, M, N, K,\nL1, 1073741824, 1073741824, 1073741824,\n", 2,
                    {"fit in 64 bits", "MACs (batch x M x N x K)"});
    // Depthwise at batch 2^30: 2^50 MACs, but 2^30 x 2^20 x 2^20 for batch x channels x output
    // channels, a size validate_workload bounds too.
    expect_bad_says("dp_operands", h + "Conv_DP, 1, 1, 1, 1, 1048576, 1, 1,\n", 2,
                    {"fit in 64 bits", "batch x Channels x output channels"}, std::int64_t(1) << 30);
    expect_bad_says("batch_zero", h + "L1, 8, 8, 3, 3, 4, 4, 1,\n", 0, {"batch", range, "found 0"}, 0);
    expect_bad_says("batch_big", h + "L1, 8, 8, 3, 3, 4, 4, 1,\n", 0, {"batch", range}, (std::int64_t(1) << 30) + 1);

    // A repeated name is renamed "<name>@line<N>"; an earlier row already called that is an error.
    expect_bad_says("renamed", h + "A, 8, 8, 3, 3, 4, 4, 1,\nA@line4, 8, 8, 3, 3, 4, 4, 1,\nA, 8, 8, 3, 3, 4, 4, 1,\n", 4,
                    {"layer name", "\"A@line4\""});
    // Fewer fields than SCALE-Sim's columns still names the first missing one.
    expect_bad_says("short_annotated", h + "L1, 8, 8, 3, 3, 4,\n", 2, {"at least 8 fields", "Num Filter", "6 fields"});
}

}  // namespace test_workload_scalesim
