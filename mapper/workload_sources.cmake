# The workload model's files (included by mapper/CMakeLists.txt). Paths relative to mapper/.
# The ONNX importer reads the protobuf wire format itself: no protobuf/onnx libraries needed.
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
  import/onnx_importer.cpp
  import/scalesim_importer.cpp
)
set(MCMSIM_WORKLOAD_LIBS "")
