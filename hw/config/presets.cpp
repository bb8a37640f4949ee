#include "hw/config/presets.h"

#include <algorithm>
#include <filesystem>
#include <vector>

namespace mcmsim {

namespace fs = std::filesystem;

namespace {
/// Presets are JSON files named after the preset.
constexpr const char* kPresetExtension = ".json";
}  // namespace

std::string list_presets(const std::string& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == kPresetExtension) names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::string find_preset(const JsonNode& where, const std::string& arch_file, const std::string& kind, const std::string& name) {
    std::vector<fs::path> dirs = {fs::path(arch_file).parent_path().parent_path() / kind, fs::path(default_config_dir()) / kind};
    for (const auto& d : dirs) {
        fs::path p = d / (name + kPresetExtension);
        if (!name.empty() && name.find('/') == std::string::npos && fs::exists(p)) return p.string();
    }
    where.fail("a preset name from configs/" + kind + " (" + list_presets(dirs.back().string()) + ") or an object",
               "\"" + name + "\"");
}

std::string default_config_dir() {
#ifdef MCMSIM_CONFIG_DIR
    return MCMSIM_CONFIG_DIR;
#else
    return "configs";
#endif
}

}  // namespace mcmsim
