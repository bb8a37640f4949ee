#pragma once
// Arch config files written by a test into a directory of its own, and the checks every bad
// config's error must pass (file, JSON pointer, expected, found, one line).
#include "hw/common/input_error.h"
#include "hw/config/arch_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <unistd.h>

namespace mcmsim::arch_test {

namespace fs = std::filesystem;
using nlohmann::json;

inline const std::string kConfigDir = MCMSIM_CONFIG_DIR;

inline std::string shipped(const std::string& name) { return kConfigDir + "/arch/" + name + ".json"; }

inline bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

/// A fresh directory per test (tests may run in parallel processes). Arch files go to
/// <dir>/arch/, so that <dir>/links etc. are the "next to the arch file" preset directories.
class ArchConfigFiles : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() / ("mcmsim_test_arch_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_ / "arch");
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    /// Writes `text` to <dir>/<sub>/<name> and returns the path.
    std::string write(const std::string& name, const std::string& text, const std::string& sub = "arch") {
        fs::create_directories(dir_ / sub);
        const fs::path p = dir_ / sub / name;
        std::ofstream out(p, std::ios::binary | std::ios::trunc);
        out << text;
        return p.string();
    }
    std::string write_json(const std::string& name, const json& doc) { return write(name, doc.dump(2)); }

    /// A valid 2x2 config in the shape of configs/arch/mcm-2x2.json, to be broken by tests.
    static json good() {
        return json::parse(R"({
          "name": "t-2x2",
          "description": "test package",
          "chiplet": "small-test",
          "package": {
            "rows": 2, "cols": 2,
            "link": { "preset": "grs-organic" },
            "router": { "clock_ghz": 1.0, "pipeline_cycles": 4, "flit_bytes": 32, "energy_pj_per_flit": 42 }
          },
          "memories": [ { "name": "hbm0", "dram": "hbm2", "attach": { "row": 0, "col": 0 } } ]
        })");
    }

    /// Loads `path`, which must fail; checks the error names the file and `pointer`.
    std::optional<InputError> expect_bad(const std::string& path, const std::string& pointer) {
        try {
            load_arch_config(path);
        } catch (const InputError& e) {
            EXPECT_EQ(e.file(), path);
            EXPECT_EQ(e.where(), pointer);
            const std::string msg = e.what();
            EXPECT_TRUE(contains(msg, path)) << msg;
            EXPECT_TRUE(contains(msg, pointer)) << msg;
            EXPECT_TRUE(contains(msg, "expected ")) << msg;
            EXPECT_TRUE(contains(msg, ", found ")) << msg;
            EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
            return e;
        } catch (const std::exception& e) {
            ADD_FAILURE() << "expected InputError, got: " << e.what();
            return std::nullopt;
        }
        ADD_FAILURE() << path << " loaded without error";
        return std::nullopt;
    }
    std::optional<InputError> expect_bad(const json& doc, const std::string& pointer) {
        return expect_bad(write_json("bad.json", doc), pointer);
    }

    fs::path dir_;
};

}  // namespace mcmsim::arch_test
