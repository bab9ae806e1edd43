// Expressions, by Jinja2's precedence: conditional, or, and, not, comparisons, + -, ~,
// * / // %, **, unary - +, then postfix (. [] ()) and filters/tests.
#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/objects.h"
#include "tool/core/jinja/syntax/parser_internal.h"
#include "tool/core/jinja/builtins/tests.h"

namespace gkebuild::jinja {

// Every recursion of the expression grammar passes through parse_unary (parentheses,
// brackets, braces, arguments, subscripts), parse_not or a chain loop: those count nesting.
ExprPtr Parser::parse_expression(bool with_condexpr) { return with_condexpr ? parse_condexpr() : parse_or(); }

ExprPtr Parser::parse_condexpr() {
  size_t offset = current().offset;
  ExprPtr expr = parse_or();
  Nesting chain(*this);
  while (skip_if_name("if")) {
    chain.deeper(current().offset);
    auto cond = std::make_unique<CondExpr>(offset);
    cond->test = parse_or();
    cond->then = std::move(expr);
    if (skip_if_name("else")) cond->otherwise = parse_condexpr();
    expr = std::move(cond);
    offset = current().offset;
  }
  return expr;
}

ExprPtr Parser::parse_or() {
  ExprPtr left = parse_and();
  Nesting chain(*this);
  while (current().is_name("or")) {
    chain.deeper(current().offset);
    size_t offset = next().offset;
    left = std::make_unique<BinaryExpr>(ExprKind::Or, offset, BinaryOp::Add, std::move(left), parse_and());
  }
  return left;
}

ExprPtr Parser::parse_and() {
  ExprPtr left = parse_not();
  Nesting chain(*this);
  while (current().is_name("and")) {
    chain.deeper(current().offset);
    size_t offset = next().offset;
    left = std::make_unique<BinaryExpr>(ExprKind::And, offset, BinaryOp::Add, std::move(left), parse_not());
  }
  return left;
}

ExprPtr Parser::parse_not() {
  if (current().is_name("not")) {
    Nesting nesting(*this, current().offset);
    size_t offset = next().offset;
    return std::make_unique<UnaryExpr>(ExprKind::Not, offset, parse_not());
  }
  return parse_compare();
}

ExprPtr Parser::parse_compare() {
  size_t offset = current().offset;
  ExprPtr expr = parse_math1();
  std::unique_ptr<CompareExpr> compare;
  while (true) {
    CompareOp op;
    TokenType type = current().type;
    if (type == TokenType::Eq) op = CompareOp::Eq;
    else if (type == TokenType::Ne) op = CompareOp::Ne;
    else if (type == TokenType::Lt) op = CompareOp::Lt;
    else if (type == TokenType::LtEq) op = CompareOp::LtEq;
    else if (type == TokenType::Gt) op = CompareOp::Gt;
    else if (type == TokenType::GtEq) op = CompareOp::GtEq;
    else if (current().is_name("in")) op = CompareOp::In;
    else if (current().is_name("not") && look().is_name("in")) {
      next();
      op = CompareOp::NotIn;
    } else {
      break;
    }
    next();
    if (!compare) compare = std::make_unique<CompareExpr>(offset, std::move(expr));
    compare->rest.emplace_back(op, parse_math1());
  }
  if (compare) return compare;
  return expr;
}

ExprPtr Parser::parse_math1() {
  ExprPtr left = parse_concat();
  Nesting chain(*this);
  while (current().type == TokenType::Add || current().type == TokenType::Sub) {
    chain.deeper(current().offset);
    BinaryOp op = current().type == TokenType::Add ? BinaryOp::Add : BinaryOp::Sub;
    size_t offset = next().offset;
    left = std::make_unique<BinaryExpr>(ExprKind::Binary, offset, op, std::move(left), parse_concat());
  }
  return left;
}

ExprPtr Parser::parse_concat() {
  size_t offset = current().offset;
  ExprPtr first = parse_math2();
  if (current().type != TokenType::Tilde) return first;
  auto concat = std::make_unique<ConcatExpr>(offset);
  concat->items.push_back(std::move(first));
  while (skip_if(TokenType::Tilde)) concat->items.push_back(parse_math2());
  return concat;
}

ExprPtr Parser::parse_math2() {
  ExprPtr left = parse_pow();
  Nesting chain(*this);
  while (true) {
    BinaryOp op;
    TokenType type = current().type;
    if (type == TokenType::Mul) op = BinaryOp::Mul;
    else if (type == TokenType::Div) op = BinaryOp::Div;
    else if (type == TokenType::FloorDiv) op = BinaryOp::FloorDiv;
    else if (type == TokenType::Mod) op = BinaryOp::Mod;
    else break;
    chain.deeper(current().offset);
    size_t offset = next().offset;
    left = std::make_unique<BinaryExpr>(ExprKind::Binary, offset, op, std::move(left), parse_pow());
  }
  return left;
}

ExprPtr Parser::parse_pow() {
  ExprPtr left = parse_unary();
  Nesting chain(*this);
  while (current().type == TokenType::Pow) {
    chain.deeper(current().offset);
    size_t offset = next().offset;
    left = std::make_unique<BinaryExpr>(ExprKind::Binary, offset, BinaryOp::Pow, std::move(left), parse_unary());
  }
  return left;
}

ExprPtr Parser::parse_unary(bool with_filter) {
  ExprPtr node;
  size_t offset = current().offset;
  Nesting nesting(*this, offset);
  if (current().type == TokenType::Sub) {
    next();
    node = std::make_unique<UnaryExpr>(ExprKind::Neg, offset, parse_unary(false));
  } else if (current().type == TokenType::Add) {
    next();
    node = std::make_unique<UnaryExpr>(ExprKind::Pos, offset, parse_unary(false));
  } else {
    node = parse_primary();
  }
  node = parse_postfix(std::move(node));
  if (with_filter) node = parse_filter_expr(std::move(node));
  return node;
}

ExprPtr Parser::parse_primary() {
  const Token& token = current();
  size_t offset = token.offset;
  switch (token.type) {
    case TokenType::Name: {
      next();
      std::string_view name = token.text;
      if (name == "true" || name == "True") return std::make_unique<ConstExpr>(offset, Value::boolean(true));
      if (name == "false" || name == "False") return std::make_unique<ConstExpr>(offset, Value::boolean(false));
      if (name == "none" || name == "None") return std::make_unique<ConstExpr>(offset, Value::none());
      return std::make_unique<NameExpr>(offset, std::string(name));
    }
    case TokenType::String: {
      std::string text = next().value;
      while (current().type == TokenType::String) text += next().value;
      return std::make_unique<ConstExpr>(offset, Value::string(std::move(text)));
    }
    case TokenType::Integer: return std::make_unique<ConstExpr>(offset, Value::integer(next().int_value));
    case TokenType::Float: return std::make_unique<ConstExpr>(offset, Value::floating(next().float_value));
    case TokenType::LParen: {
      next();
      ExprPtr node = parse_tuple(false, true, {}, true);
      expect(TokenType::RParen);
      return node;
    }
    case TokenType::LBracket: return parse_list();
    case TokenType::LBrace: return parse_dict();
    default: break;
  }
  if (token.type == TokenType::Eof || token.type == TokenType::BlockEnd || token.type == TokenType::VariableEnd)
    fail("unexpected '" + describe(token) + "'", offset);
  fail("unexpected '" + describe(token) + "'", offset);
}

ExprPtr Parser::parse_tuple(bool simplified, bool with_condexpr, const std::vector<std::string_view>& extra_end,
                            bool explicit_parens) {
  size_t offset = current().offset;
  std::vector<ExprPtr> items;
  bool is_tuple = false;
  while (true) {
    if (!items.empty()) expect(TokenType::Comma);
    if (is_tuple_end(extra_end)) break;
    items.push_back(simplified ? parse_primary() : parse_expression(with_condexpr));
    if (current().type == TokenType::Comma) is_tuple = true;
    else break;
  }
  if (!is_tuple) {
    if (!items.empty()) return std::move(items[0]);
    if (!explicit_parens) fail("Expected an expression, got '" + describe(current()) + "'", current().offset);
  }
  auto tuple = std::make_unique<ListExpr>(ExprKind::Tuple, offset);
  tuple->items = std::move(items);
  return tuple;
}

ExprPtr Parser::parse_list() {
  auto node = std::make_unique<ListExpr>(ExprKind::List, expect(TokenType::LBracket).offset);
  while (current().type != TokenType::RBracket) {
    if (!node->items.empty()) expect(TokenType::Comma);
    if (current().type == TokenType::RBracket) break;
    node->items.push_back(parse_expression());
  }
  expect(TokenType::RBracket);
  return node;
}

ExprPtr Parser::parse_dict() {
  auto node = std::make_unique<DictExpr>(expect(TokenType::LBrace).offset);
  while (current().type != TokenType::RBrace) {
    if (!node->items.empty()) expect(TokenType::Comma);
    if (current().type == TokenType::RBrace) break;
    ExprPtr key = parse_expression();
    expect(TokenType::Colon);
    node->items.emplace_back(std::move(key), parse_expression());
  }
  expect(TokenType::RBrace);
  return node;
}

ExprPtr Parser::parse_postfix(ExprPtr node) {
  Nesting chain(*this);
  while (true) {
    TokenType type = current().type;
    if (type != TokenType::Dot && type != TokenType::LBracket && type != TokenType::LParen) return node;
    chain.deeper(current().offset);
    node = type == TokenType::LParen ? parse_call(std::move(node)) : parse_subscript(std::move(node));
  }
}

ExprPtr Parser::parse_filter_expr(ExprPtr node) {
  Nesting chain(*this);
  while (true) {
    TokenType type = current().type;
    if (type == TokenType::Pipe) {
      node = parse_filter(std::move(node), false, &chain);
    } else if (current().is_name("is") || type == TokenType::LParen) {
      chain.deeper(current().offset);
      node = type == TokenType::LParen ? parse_call(std::move(node)) : parse_test(std::move(node));
    } else {
      return node;
    }
  }
}

ExprPtr Parser::parse_subscript(ExprPtr node) {
  const Token& token = next();
  if (token.type == TokenType::Dot) {
    const Token& attr = next();
    if (attr.type == TokenType::Name) {
      auto getattr = std::make_unique<GetattrExpr>(token.offset, std::move(node), std::string(attr.text));
      getattr->dict_method = is_dict_method(getattr->name);
      return getattr;
    }
    if (attr.type != TokenType::Integer) fail("expected name or number", attr.offset);
    return std::make_unique<GetitemExpr>(token.offset, std::move(node),
                                         std::make_unique<ConstExpr>(attr.offset, Value::integer(attr.int_value)));
  }
  std::vector<ExprPtr> args;
  while (current().type != TokenType::RBracket) {
    if (!args.empty()) expect(TokenType::Comma);
    args.push_back(parse_subscribed());
  }
  expect(TokenType::RBracket);
  if (args.size() == 1) return std::make_unique<GetitemExpr>(token.offset, std::move(node), std::move(args[0]));
  auto tuple = std::make_unique<ListExpr>(ExprKind::Tuple, token.offset);
  tuple->items = std::move(args);
  return std::make_unique<GetitemExpr>(token.offset, std::move(node), std::move(tuple));
}

ExprPtr Parser::parse_subscribed() {
  size_t offset = current().offset;
  auto slice = std::make_unique<SliceExpr>(offset);
  if (current().type == TokenType::Colon) {
    next();
  } else {
    ExprPtr node = parse_expression();
    if (current().type != TokenType::Colon) return node;
    next();
    slice->start = std::move(node);
  }
  if (current().type != TokenType::Colon && current().type != TokenType::RBracket &&
      current().type != TokenType::Comma)
    slice->stop = parse_expression();
  if (current().type == TokenType::Colon) {
    next();
    if (current().type != TokenType::RBracket && current().type != TokenType::Comma) slice->step = parse_expression();
  }
  return slice;
}

void Parser::parse_call_args(Arguments& args) {
  const Token& open = expect(TokenType::LParen);
  bool require_comma = false;
  auto ensure = [&](bool ok) {
    if (!ok) fail("invalid syntax for function call expression", open.offset);
  };
  while (current().type != TokenType::RParen) {
    if (require_comma) {
      expect(TokenType::Comma);
      if (current().type == TokenType::RParen) break;
    }
    if (current().type == TokenType::Mul) {
      ensure(!args.star_args && !args.star_kwargs);
      next();
      args.star_args = parse_expression();
    } else if (current().type == TokenType::Pow) {
      ensure(!args.star_kwargs);
      next();
      args.star_kwargs = parse_expression();
    } else if (current().type == TokenType::Name && look().type == TokenType::Assign) {
      ensure(!args.star_kwargs);
      std::string key(next().text);
      next();
      args.keywords.emplace_back(std::move(key), parse_expression());
    } else {
      ensure(!args.star_args && !args.star_kwargs && args.keywords.empty());
      args.positional.push_back(parse_expression());
    }
    require_comma = true;
  }
  expect(TokenType::RParen);
}

ExprPtr Parser::parse_call(ExprPtr node) {
  auto call = std::make_unique<CallExpr>(current().offset, std::move(node));
  parse_call_args(call->args);
  return call;
}

ExprPtr Parser::parse_filter(ExprPtr node, bool start_inline, Nesting* chain) {
  Nesting own(*this);
  if (!chain) chain = &own;
  while (current().type == TokenType::Pipe || start_inline) {
    chain->deeper(current().offset);
    if (!start_inline) next();
    const Token& token = expect(TokenType::Name);
    std::string name(token.text);
    while (current().type == TokenType::Dot) {
      next();
      name += "." + std::string(expect(TokenType::Name).text);
    }
    auto filter = std::make_unique<FilterExpr>(token.offset, std::move(node), name);
    filter->entry = find_filter(name);
    if (!filter->entry) fail("No filter named '" + name + "'.", token.offset);
    if (current().type == TokenType::LParen) parse_call_args(filter->args);
    node = std::move(filter);
    start_inline = false;
  }
  return node;
}

ExprPtr Parser::parse_test(ExprPtr node) {
  size_t offset = next().offset;
  bool negated = skip_if_name("not");
  const Token& token = expect(TokenType::Name);
  std::string name(token.text);
  while (current().type == TokenType::Dot) {
    next();
    name += "." + std::string(expect(TokenType::Name).text);
  }
  auto test = std::make_unique<TestExpr>(offset, std::move(node), name);
  test->entry = find_test(name);
  if (!test->entry) fail("No test named '" + name + "'.", token.offset);
  TokenType type = current().type;
  if (type == TokenType::LParen) {
    parse_call_args(test->args);
  } else if ((type == TokenType::Name || type == TokenType::String || type == TokenType::Integer ||
              type == TokenType::Float || type == TokenType::LBracket || type == TokenType::LBrace) &&
             !current().is_name("else") && !current().is_name("or") && !current().is_name("and")) {
    if (current().is_name("is")) fail("You cannot chain multiple tests with is", current().offset);
    test->args.positional.push_back(parse_postfix(parse_primary()));
  }
  if (negated) return std::make_unique<UnaryExpr>(ExprKind::Not, offset, std::move(test));
  return test;
}

}  // namespace gkebuild::jinja
