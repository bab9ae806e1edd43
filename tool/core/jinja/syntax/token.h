// Tokens of the Jinja template language; positions are byte offsets into the normalised source.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gkebuild::jinja {

enum class TokenType : uint8_t {
  Data, VariableBegin, VariableEnd, BlockBegin, BlockEnd,
  Name, String, Integer, Float,
  Add, Sub, Div, FloorDiv, Mul, Mod, Pow, Tilde,
  LBracket, RBracket, LParen, RParen, LBrace, RBrace,
  Eq, Ne, Gt, GtEq, Lt, LtEq, Assign, Dot, Colon, Pipe, Comma, Semicolon,
  Eof,
};

struct Token {
  TokenType type = TokenType::Eof;
  size_t offset = 0;
  std::string_view text;  // source text (names, operators, data)
  std::string value;      // decoded string literal
  int64_t int_value = 0;
  double float_value = 0;

  bool is_name(std::string_view name) const { return type == TokenType::Name && text == name; }
};

// How a token reads in "expected X, got Y" messages, like Jinja's describe_token.
std::string describe(const Token& token);
std::string describe(TokenType type);

}  // namespace gkebuild::jinja
