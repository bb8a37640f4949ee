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

/// AttributeProto of one integer and of a list of integers.
inline Pb attr_int(const std::string& name, std::int64_t v) { return Pb().s(1, name).i(3, v).i(20, 2); }
inline Pb attr_ints(const std::string& name, const std::vector<std::int64_t>& v) { return Pb().s(1, name).packed(8, v).i(20, 7); }

/// NodeProto named after its op and first output.
inline Pb node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out,
               const std::vector<Pb>& attrs = {}, const std::string& domain = "") {
    Pb n;
    for (const auto& x : in) n.s(1, x);
    for (const auto& x : out) n.s(2, x);
    n.s(3, op + "_" + out[0]).s(4, op);
    for (const auto& a : attrs) n.m(5, a);
    if (!domain.empty()) n.s(7, domain);
    return n;
}

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
