// Python semantics of the arithmetic, comparison and membership operators.
#pragma once

#include "tool/core/jinja/syntax/ast.h"
#include "tool/core/jinja/values/value.h"

namespace gkebuild::jinja {

Value binary_op(BinaryOp op, const Value& left, const Value& right);
Value negate(const Value& operand);
Value unary_plus(const Value& operand);
bool compare_op(CompareOp op, const Value& left, const Value& right);
bool contains(const Value& container, const Value& item);  // `item in container`
std::string_view operator_symbol(BinaryOp op);

}  // namespace gkebuild::jinja
