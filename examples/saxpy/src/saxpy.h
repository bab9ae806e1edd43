// y = a*x + y over n floats, on the GPU or on the CPU.
#pragma once

#include <string>
#include <vector>

// The CUDA path: false (with `why` set) when no usable GPU is visible, so the caller
// falls back to the CPU; the driver library itself is loaded only here, at run time.
bool saxpy_gpu(float a, const std::vector<float>& x, std::vector<float>& y, std::string& device, std::string& why);

void saxpy_cpu(float a, const std::vector<float>& x, std::vector<float>& y);
