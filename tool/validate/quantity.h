// Kubernetes resource quantities ("1", "500m", "2Ki", "1e3", 4) as numbers.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gkebuild::validate {

std::optional<double> parse_quantity(std::string_view text);
// A JSON number or quantity string; nullopt when it is neither.
std::optional<double> quantity_value(const nlohmann::json& value);

}  // namespace gkebuild::validate
