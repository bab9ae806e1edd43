// Kubernetes resource quantities ("1", "500m", "2Ki", "1e3", "1.5Gi") as Kubernetes
// parses them (k8s.io/apimachinery/pkg/api/resource: <signedNumber><suffix>, where the
// suffix is a binary SI unit, a decimal SI unit or an exponent e<signedNumber>).
#pragma once

#include <optional>
#include <string_view>

namespace gkebuild {

// The value of a quantity; nullopt when `text` is not one.
std::optional<double> parse_quantity(std::string_view text);
inline bool is_quantity(std::string_view text) { return parse_quantity(text).has_value(); }

}  // namespace gkebuild
