#include "saxpy.h"

void saxpy_cpu(float a, const std::vector<float>& x, std::vector<float>& y) {
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = a * x[i] + y[i];
}
