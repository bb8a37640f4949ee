#pragma once
// What the ONNX importer tests write models with: a protobuf wire-format writer (just enough
// for ModelProto messages) and a temporary model file.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace mcmsim::onnx_writer {

struct Pb {
    std::string bytes;
    Pb& varint(std::uint64_t v) {
        while (v >= 0x80) {
            bytes += static_cast<char>((v & 0x7f) | 0x80);
            v >>= 7;
        }
        bytes += static_cast<char>(v);
        return *this;
    }
    Pb& tag(int field, int wire) { return varint(static_cast<std::uint64_t>(field) << 3 | static_cast<unsigned>(wire)); }
    Pb& i(int field, std::int64_t v) { return tag(field, 0).varint(static_cast<std::uint64_t>(v)); }
    Pb& s(int field, const std::string& v) {
        tag(field, 2).varint(v.size());
        bytes += v;
        return *this;
    }
    Pb& m(int field, const Pb& msg) { return s(field, msg.bytes); }
    Pb& packed(int field, const std::vector<std::int64_t>& v) {
        Pb p;
        for (std::int64_t x : v) p.varint(static_cast<std::uint64_t>(x));
        return m(field, p);
    }
};

/// A model written to a temporary file for the life of the object.
class File {
public:
    File(const std::string& tag, const std::string& bytes, const std::string& ext = ".onnx")
        : path_((std::filesystem::temp_directory_path() / ("mcmsim_onnx_" + tag + "_" + std::to_string(::getpid()) + ext))
                    .string()) {
        std::ofstream(path_, std::ios::binary) << bytes;
    }
    ~File() { std::filesystem::remove(path_); }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

}  // namespace mcmsim::onnx_writer
