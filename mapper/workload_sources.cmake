# The workload model's files (included by mapper/CMakeLists.txt). Paths relative to mapper/.
# The ONNX importer reads the graph with its own protobuf wire reader and takes shapes from
# ONNX's shape inference (libonnx-dev, libprotobuf-dev).
set(MCMSIM_WORKLOAD_SOURCES
  workload.cpp
  workload_json.cpp
  zoo/zoo.cpp
  zoo/zoo_builders.cpp
  zoo/transformer_block.cpp
  zoo/resnet50.cpp
  zoo/vgg16.cpp
  zoo/mobilenet_v2.cpp
  zoo/vit_b16.cpp
  zoo/gpt2.cpp
  import/onnx_proto.cpp
  import/onnx_shapes.cpp
  import/onnx_inference.cpp
  import/onnx_importer.cpp
  import/scalesim_importer.cpp
)
find_package(Protobuf REQUIRED)
find_package(ONNX REQUIRED CONFIG)  # Debian's libonnx-dev; its targets define ONNX_ML=1, ONNX_NAMESPACE=onnx
set(MCMSIM_WORKLOAD_LIBS onnx onnx_proto protobuf::libprotobuf)
