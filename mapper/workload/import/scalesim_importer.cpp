// SCALE-Sim topology CSV -> Workload (see scalesim_importer.h for the conventions).
#include "mapper/workload/import/scalesim_importer.h"

#include "hw/common/input_error.h"
#include "hw/common/integer_math.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

namespace mcmsim {

namespace {

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// Comma-separated fields, trimmed; trailing empty fields and a trailing "#comment" dropped.
std::vector<std::string> split_row(const std::string& line) {
    std::vector<std::string> fields;
    std::size_t pos = 0;
    while (true) {
        const std::size_t comma = line.find(',', pos);
        fields.push_back(trim(line.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos)));
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    while (!fields.empty() && (fields.back().empty() || fields.back()[0] == '#')) fields.pop_back();
    return fields;
}

// Every numeric field and the batch: the bound of a workload JSON dimension, so that a CSV layer
// is never one the JSON format would refuse, and IFMAP + Stride cannot overflow.
constexpr std::int64_t kCsvMaxValue = std::int64_t(1) << 30;

std::string csv_range() { return "an integer in [1, " + std::to_string(kCsvMaxValue) + "]"; }

// A product of positive factors, or -1 when it does not fit in 64 bits; `text` spells it out
// for the error message.
struct CsvProduct {
    std::int64_t value = 1;
    std::string text;
};

CsvProduct csv_product(const std::vector<std::int64_t>& factors) {
    CsvProduct p;
    for (std::int64_t f : factors) {
        p.value = (p.value < 0 || p.value > kInt64Max / f) ? -1 : p.value * f;
        p.text += (p.text.empty() ? "" : " x ") + std::to_string(f);
    }
    return p;
}

// One spatial axis as SCALE-Sim v2 sizes it (topology_utils.py): out = ceil((in − filter +
// stride) / stride) windows, the first at position 0, stride apart. The last window may run
// `trail` (< stride) positions past the end; SCALE-Sim reads those as zero padding
// (operand_matrix.py gives them no address).
struct CsvAxis {
    std::int64_t out = 1, trail = 0;
    // The symmetric pads with which mcmsim's (in + 2·pad − filter)/stride + 1 is also `out`:
    // (out − 1)·stride <= in + 2·pad − filter <= out·stride − 1.
    std::int64_t pad_lo = 0, pad_hi = 0;
};

CsvAxis csv_axis(std::int64_t in, std::int64_t filter, std::int64_t stride) {
    CsvAxis a;
    a.out = ceil_div(in - filter + stride, stride);
    a.trail = (a.out - 1) * stride + filter - in;
    a.pad_lo = (a.trail + 1) / 2;
    a.pad_hi = (a.trail + stride - 1) / 2;
    return a;
}

const char* const kConvFields[] = {"Layer name", "IFMAP Height", "IFMAP Width", "Filter Height", "Filter Width",
                                   "Channels",   "Num Filter",   "Strides",     "Stride Width"};
const char* const kGemmFields[] = {"Layer", "M", "N", "K"};

class CsvReader {
public:
    CsvReader(const std::string& path, std::int64_t batch) : path_(path), batch_(batch) {
        if (batch_ < 1 || batch_ > kCsvMaxValue)
            throw InputError(path_, "", "a batch size in [1, " + std::to_string(kCsvMaxValue) + "]", std::to_string(batch_));
    }

    Workload read(std::istream& in) {
        std::string base = path_.substr(path_.find_last_of('/') + 1);
        wl_.name = base.substr(0, base.rfind('.'));
        wl_.batch = batch_;

        std::string line;
        bool header = false;
        std::vector<std::int64_t> blank;
        while (std::getline(in, line)) {
            ++line_no_;
            if (!line.empty() && line.back() == '\r') line.pop_back();
            const std::string text = trim(line);
            if (text.empty()) {
                blank.push_back(line_no_);
                continue;
            }
            if (!header) {
                read_header(split_row(text));
                header = true;
                continue;
            }
            const auto fields = split_row(text);
            if (text[0] != '#') widest_row_ = std::max(widest_row_, fields.size());
            // Only SCALE-Sim's own columns count: a section row may still carry annotations.
            const std::size_t numeric_end = std::min(fields.size(), first_extra_);
            const bool no_numbers = std::all_of(fields.begin() + std::min<std::size_t>(1, numeric_end),
                                                fields.begin() + numeric_end, [](const std::string& f) { return f.empty(); });
            if (text[0] == '#' || no_numbers) {
                wl_.notes.push_back("line " + std::to_string(line_no_) + ": section row \"" + text + "\" skipped");
                continue;
            }
            gemm_ ? read_gemm(fields) : read_conv(fields);
        }
        if (!header)
            throw InputError(path_, "line " + std::to_string(line_no_ + 1), "a SCALE-Sim header row", "the end of the file");
        if (wl_.layers.empty())
            throw InputError(path_, "line " + std::to_string(line_no_ + 1), "at least one layer row", "the end of the file");
        if (!blank.empty()) {
            std::string list;
            for (std::int64_t b : blank) list += (list.empty() ? "" : ", ") + std::to_string(b);
            wl_.notes.push_back("blank rows skipped (line " + list + ")");
        }
        note_extra_columns();
        if (from_dram_count_ > 0)
            wl_.notes.push_back(std::to_string(from_dram_count_) +
                                " layers do not take the previous layer's channels "
                                "and read their input from DRAM (" +
                                from_dram_ + ")");
        validate_workload(wl_, path_);
        return std::move(wl_);
    }

private:
    [[noreturn]] void bad(const std::string& expected, const std::string& found) const {
        throw InputError(path_, "line " + std::to_string(line_no_), expected, found);
    }

    // The header fixes the columns: SCALE-Sim's (4 for GEMM; 8 for convolution, plus Stride
    // Width as a ninth) and, after them, annotation columns that are ignored.
    void read_header(const std::vector<std::string>& f) {
        header_ = f;
        if (f.size() >= 4 && lower(f[1]) == "m" && lower(f[2]) == "n" && lower(f[3]) == "k") {
            gemm_ = true;
            first_extra_ = 4;
        } else if (f.size() >= 8 && lower(f[1]).find("ifmap") != std::string::npos) {
            gemm_ = false;
            // SCALE-Sim reads a ninth number as the column stride; a header that names its ninth
            // column something else declares it (and any after it) an annotation.
            stride_width_ = f.size() == 8 || lower(f[8]).find("stride") != std::string::npos;
            first_extra_ = stride_width_ ? 9 : 8;
        } else {
            bad("a SCALE-Sim header (\"Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, "
                "Num Filter, Strides,\" or \"Layer, M, N, K,\")",
                "\"" + (f.empty() ? std::string() : f[0]) + (f.size() > 1 ? ", " + f[1] : "") + "...\"");
        }
    }

    // One note for the whole file, whatever number of rows carry annotations.
    void note_extra_columns() {
        const std::size_t last = std::max(header_.size(), widest_row_);
        if (last <= first_extra_) return;
        std::string names;
        for (std::size_t i = first_extra_; i < header_.size(); ++i)
            if (!header_[i].empty()) names += (names.empty() ? "" : ", ") + ("\"" + header_[i] + "\"");
        const std::string cols = last == first_extra_ + 1
                                     ? "column " + std::to_string(last)
                                     : "columns " + std::to_string(first_extra_ + 1) + " to " + std::to_string(last);
        wl_.notes.push_back(cols + (names.empty() ? "" : " (" + names + ")") + " after SCALE-Sim's " +
                            std::to_string(first_extra_) + " ignored as annotations");
    }

    std::int64_t number(const std::vector<std::string>& f, std::size_t i, const char* field, const std::string& hint = "") const {
        const std::string& text = f[i];
        std::size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (text.empty() || used != text.size() || v < 1 || v > kCsvMaxValue)
            bad(std::string(field) + " (column " + std::to_string(i + 1) + "): " + csv_range() + hint, "\"" + text + "\"");
        return v;
    }

    std::string name_of(const std::vector<std::string>& f) {
        std::string name = f[0].empty() ? "layer" + std::to_string(wl_.layers.size()) : f[0];
        if (!names_.insert(name).second) {
            const std::string renamed = name + "@line" + std::to_string(line_no_);
            if (!names_.insert(renamed).second)
                bad("a layer name used once (a repeated name becomes \"" + renamed + "\", which an earlier row has)",
                    "\"" + name + "\"");
            wl_.notes.push_back("line " + std::to_string(line_no_) + ": repeated layer name renamed \"" + renamed + "\"");
            name = renamed;
        }
        return name;
    }

    void read_conv(const std::vector<std::string>& f) {
        if (f.size() < 8)
            bad("at least 8 fields (Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num "
                "Filter, Strides); missing " +
                    std::string(kConvFields[f.size()]),
                std::to_string(f.size()) + " fields");
        std::int64_t v[8] = {};
        for (std::size_t i = 1; i < 8; ++i) v[i] = number(f, i, kConvFields[i]);
        const std::int64_t H = v[1], W = v[2], R = v[3], S = v[4], C = v[5], M = v[6], stride = v[7];
        if (stride_width_ && f.size() > 8) {
            const std::string hint = header_.size() == 8 ? " (the header names no ninth column, so it is the column "
                                                           "stride; name it in the header to make it an annotation)"
                                                         : "";
            const std::int64_t stride_w = number(f, 8, kConvFields[8], hint);
            if (stride_w != stride)
                bad("Stride Width (column 9) equal to Strides (mcmsim models one stride)", std::to_string(stride_w));
        }
        if (R > H) bad("Filter Height (column 4): at most IFMAP Height " + std::to_string(H), std::to_string(R));
        if (S > W) bad("Filter Width (column 5): at most IFMAP Width " + std::to_string(W), std::to_string(S));
        Layer l;
        l.name = name_of(f);
        l.n = batch_;
        l.r = R;
        l.s = S;
        l.stride = stride;
        l.c = C;
        l.k = M;
        if (f[0].find("DP") != std::string::npos) {  // SCALE-Sim's depthwise marker
            if (M > kCsvMaxValue / C)
                bad("Num Filter (column 7) of a depthwise (\"DP\") layer: at most " + std::to_string(kCsvMaxValue / C) +
                        ", so that its Channels x Num Filter output channels are at most " + std::to_string(kCsvMaxValue),
                    std::to_string(M));
            l.k = C * M;
            l.groups = C;
        }
        const CsvAxis y = csv_axis(H, R, stride), x = csv_axis(W, S, stride);
        l.p = y.out;
        l.q = x.out;
        const std::int64_t pad = std::max(y.pad_lo, x.pad_lo);
        if (pad <= std::min(y.pad_hi, x.pad_hi)) {
            l.pad = pad;
            l.h = H;
            l.w = W;
        } else {
            // No one pad fits both axes: that happens at an even stride when one axis's windows end
            // at its edge and the other's last window runs stride − 1 past it. SCALE-Sim's windows
            // start at the first row and column and read zeros past the bottom and right edges;
            // those zeros become part of the IFMAP, which in this format holds the padding anyway.
            // Output size and MACs stay SCALE-Sim's, and no window is shifted.
            l.pad = 0;
            l.h = H + y.trail;
            l.w = W + x.trail;
            wl_.notes.push_back("line " + std::to_string(line_no_) + ": no symmetric pad gives SCALE-Sim's " +
                                std::to_string(l.p) + " x " + std::to_string(l.q) + " output at stride " +
                                std::to_string(stride) + "; IFMAP " + std::to_string(H) + " x " + std::to_string(W) +
                                " taken as " + std::to_string(l.h) + " x " + std::to_string(l.w) +
                                " with pad 0 (the zeros SCALE-Sim reads past the bottom and right edges)");
        }
        if (H == 1 && W == 1 && R == 1 && S == 1 && l.groups == 1) {
            l.kind = LayerKind::FullyConnected;
            l.stride = 1;  // a 1 x 1 window over a 1 x 1 IFMAP reads its one position at any stride
        }
        check_counts(l);
        chain(l);
        wl_.layers.push_back(std::move(l));
    }

    void read_gemm(const std::vector<std::string>& f) {
        if (f.size() < 4)
            bad("at least 4 fields (Layer, M, N, K); missing " + std::string(kGemmFields[f.size()]),
                std::to_string(f.size()) + " fields");
        Layer l;
        l.kind = LayerKind::FullyConnected;
        l.n = batch_;
        l.h = l.p = number(f, 1, "M");
        l.k = number(f, 2, "N");
        l.c = number(f, 3, "K");
        l.name = name_of(f);
        check_counts(l);
        chain(l);
        wl_.layers.push_back(std::move(l));
    }

    // The counts validate_workload keeps within 64 bits, checked here so that a row too large
    // for them is reported at its line and in the file's terms; then the running MAC total.
    void check_counts(const Layer& l) {
        struct Count {
            const char* what;
            CsvProduct product;
        };
        // validate_workload also bounds the operand sizes of a matrix product, n·p·c and n·c·k,
        // and their sum, for every kind of layer.
        const CsvProduct a = csv_product({l.n, l.p, l.c}), b = csv_product({l.n, l.c, l.k});
        const CsvProduct sum{a.value < 0 || b.value < 0 || a.value > kInt64Max - b.value ? -1 : a.value + b.value,
                             a.text + " + " + b.text};
        const std::int64_t cg = l.c / l.groups;
        const std::vector<Count> counts =
            gemm_ ? std::vector<Count>{{"MACs (batch x M x N x K)", csv_product({l.n, l.p, l.k, l.c})},
                                       {"input elements (batch x M x K)", a},
                                       {"output elements (batch x M x N)", csv_product({l.n, l.p, l.k})},
                                       {"weight elements (K x N)", csv_product({l.c, l.k})},
                                       {"batch x K x N", b},
                                       {"batch x M x K + batch x K x N", sum}}
                  : std::vector<Count>{
                        {"MACs (batch x output channels x P x Q x channels per group x R x S)",
                         csv_product({l.n, l.k, l.p, l.q, cg, l.r, l.s})},
                        {"IFMAP elements (batch x Channels x H x W)", csv_product({l.n, l.c, l.h, l.w})},
                        {"OFMAP elements (batch x output channels x P x Q)", csv_product({l.n, l.k, l.p, l.q})},
                        {"filter elements (output channels x channels per group x R x S)", csv_product({l.k, cg, l.r, l.s})},
                        {"batch x P x Channels", a},
                        {"batch x Channels x output channels", b},
                        {"batch x P x Channels + batch x Channels x output channels", sum}};
        const std::string limit = "at most " + std::to_string(kInt64Max);
        for (const Count& c : counts)
            if (c.product.value < 0)
                bad("a layer whose MAC count and tensor sizes fit in 64 bits (" + limit + ")",
                    std::string(c.what) + " = " + c.product.text);
        if (l.macs() > kInt64Max - total_macs_)
            bad("a file whose total MACs fit in 64 bits (" + limit + ")",
                std::to_string(l.macs()) + " MACs here after " + std::to_string(total_macs_) + " in the rows above");
        total_macs_ += l.macs();
    }

    // Reads the previous layer when its output channels are this layer's input channels.
    void chain(Layer& l) {
        if (wl_.layers.empty()) return;
        const Layer& prev = wl_.layers.back();
        const bool fits = prev.k == l.c;
        if (fits) {
            l.inputs = {static_cast<int>(wl_.layers.size()) - 1};
        } else {
            from_dram_ += (from_dram_.empty() ? "line " : ", ") + std::to_string(line_no_);
            ++from_dram_count_;
        }
    }

    const std::string& path_;
    std::int64_t batch_;
    Workload wl_;
    std::int64_t line_no_ = 0;
    bool gemm_ = false;
    bool stride_width_ = false;    ///< column 9 is Stride Width (convolution files)
    std::size_t first_extra_ = 0;  ///< index of the first annotation column
    std::vector<std::string> header_;
    std::size_t widest_row_ = 0;
    std::set<std::string> names_;
    std::string from_dram_;
    int from_dram_count_ = 0;
    std::int64_t total_macs_ = 0;
};

}  // namespace

Workload import_scalesim_csv(const std::string& path, std::int64_t batch) {
    CsvReader reader(path, batch);
    std::ifstream in(path);
    if (!in) throw InputError(path, "", "a readable SCALE-Sim topology file", "a file that cannot be opened");
    return reader.read(in);
}

Workload import_scalesim_text(const std::string& text, const std::string& file, std::int64_t batch) {
    std::istringstream in(text);
    return CsvReader(file, batch).read(in);
}

}  // namespace mcmsim
