#pragma once
// The workload model: a graph of layers with the shapes needed to count MACs and bytes.
// Pure C++ (no SystemC): the mapper, the analytical model and the CLI all use it.
#include <cstdint>
#include <string>
#include <vector>

namespace mcmsim {

enum class LayerKind { Conv, FullyConnected };

const char* to_string(LayerKind kind);

/// One MAC layer. Convolutions use the usual N,C,H,W -> N,K,P,Q naming (R×S filter);
/// a fully connected layer is a 1×1 convolution on a 1×1 input (H=W=R=S=P=Q=1).
struct Layer {
    std::string name;
    LayerKind kind = LayerKind::Conv;
    std::int64_t n = 1;           ///< batch
    std::int64_t c = 1, h = 1, w = 1;  ///< input channels and spatial size
    std::int64_t k = 1;           ///< output channels
    std::int64_t r = 1, s = 1;    ///< filter height and width
    std::int64_t p = 1, q = 1;    ///< output height and width
    std::int64_t stride = 1, pad = 0;
    std::int64_t groups = 1;
    std::int64_t bytes_per_element = 1;  ///< 8-bit inference by default
    /// Producer layers whose outputs, summed element-wise, form this layer's input
    /// (a residual join lists two). Empty: the layer reads the network input from DRAM.
    std::vector<int> inputs;

    std::int64_t macs() const { return n * k * p * q * (c / groups) * r * s; }
    std::int64_t weight_bytes() const { return k * (c / groups) * r * s * bytes_per_element; }
    std::int64_t input_bytes() const { return n * c * h * w * bytes_per_element; }
    std::int64_t output_bytes() const { return n * k * p * q * bytes_per_element; }
};

struct Workload {
    std::string name;
    std::int64_t batch = 1;
    std::vector<Layer> layers;  ///< topological order: inputs always refer to earlier layers

    std::int64_t total_macs() const;
    std::int64_t total_weight_bytes() const;
    /// Layers no other layer consumes: their outputs are written back to DRAM.
    std::vector<bool> is_output_layer() const;
};

/// Builds a zoo network by name ("resnet50"); throws InputError for an unknown name.
Workload zoo_workload(const std::string& name, std::int64_t batch);
std::vector<std::string> zoo_names();

/// Reads a workload JSON file (format documented in README.md); strict, errors name the pointer.
Workload load_workload_file(const std::string& path);

/// `spec` is a zoo name or a path to a workload file.
/// `batch` > 0 sets the batch (overriding a file's own); `batch` <= 0 keeps a file's batch
/// and gives zoo models batch 1.
Workload resolve_workload(const std::string& spec, std::int64_t batch);

/// Checks shapes and the layer graph; throws InputError naming `file` and the layer's pointer.
void validate_workload(const Workload& w, const std::string& file);

}  // namespace mcmsim
