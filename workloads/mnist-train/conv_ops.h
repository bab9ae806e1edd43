// The operations the CNN adds to MlpOps, on the same device and memory: stride-1
// convolutions with bias and ReLU, their two backward passes, and 2×2 max pooling. Tensors
// are NCHW, `rows` images of a layer at a time.
#pragma once

#include <cstddef>

namespace gkebuild::workloads {

struct ConvGeometry {
  int channels = 1, height = 1, width = 1;  // input
  int filters = 1, kernel = 1, pad = 0;     // square filters, stride 1
  int out_height() const { return height + 2 * pad - kernel + 1; }
  int out_width() const { return width + 2 * pad - kernel + 1; }
  std::size_t input_per_row() const { return static_cast<std::size_t>(channels) * height * width; }
  std::size_t output_per_row() const { return static_cast<std::size_t>(filters) * out_height() * out_width(); }
};

class ConvOps {
 public:
  virtual ~ConvOps() = default;

  // Prepares a layer for batches of up to `max_rows` images; returns its id.
  virtual int add_layer(const ConvGeometry& geometry, int max_rows) = 0;
  // y = max(0, x ⋆ w + bias): w is filters × channels × kernel × kernel.
  virtual void forward(int layer, int rows, const float* x, const float* w, const float* bias, float* y) = 0;
  // dw = Σ over the batch of dy ⋆ x, dbias = Σ dy per filter (dy: the gradient after the ReLU).
  virtual void backward_filter(int layer, int rows, const float* x, const float* dy, float* dw, float* dbias) = 0;
  // dx = the gradient of the input.
  virtual void backward_data(int layer, int rows, const float* w, const float* dy, float* dx) = 0;

  // y = the maximum of each 2×2 window, stride 2, of rows × channels × height × width (an
  // odd last row or column is dropped).
  virtual void max_pool(int rows, int channels, int height, int width, const float* x, float* y) = 0;
  // dx = dy at the first maximum (row-major) of each window, 0 elsewhere.
  virtual void max_pool_backward(int rows, int channels, int height, int width, const float* x, const float* dy,
                                 float* dx) = 0;
};

}  // namespace gkebuild::workloads
