// Tables on stdout as kubectl get prints them: columns padded to their widest cell, two
// spaces apart, the last column unpadded. Cells are printed as given (escape untrusted text
// with printable() first).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gkebuild {

void print_text_table(const std::vector<std::vector<std::string>>& rows, std::ostream& out);

}  // namespace gkebuild
