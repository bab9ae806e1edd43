// The recursive-descent parser shared by parser.cpp (statements) and
// parse_expression.cpp (expressions); it mirrors jinja2/parser.py rule by rule.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "tool/core/jinja/syntax/ast.h"
#include "tool/core/jinja/syntax/token.h"

namespace gkebuild::jinja {

struct ParseError {
  size_t offset;
  std::string message;
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, Template& tmpl) : tokens_(std::move(tokens)), template_(tmpl) {}
  Body parse();

  // Counts one level of nesting for as long as it lives (a block, a parenthesis, each operator
  // of a chain, which builds a left-nested tree); past kMaxNesting the parse fails there.
  class Nesting {
   public:
    explicit Nesting(Parser& parser) : parser_(parser) {}  // a chain: deeper() per operator
    Nesting(Parser& parser, size_t offset) : parser_(parser) { deeper(offset); }
    ~Nesting() { parser_.depth_ -= levels_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    void deeper(size_t offset);

   private:
    Parser& parser_;
    int levels_ = 0;
  };

  // Expressions (parse_expression.cpp).
  ExprPtr parse_expression(bool with_condexpr = true);
  ExprPtr parse_tuple(bool simplified = false, bool with_condexpr = true,
                      const std::vector<std::string_view>& extra_end = {}, bool explicit_parens = false);

 private:
  const Token& current() const { return tokens_[pos_]; }
  const Token& look() const { return tokens_[pos_ + 1 < tokens_.size() ? pos_ + 1 : pos_]; }
  const Token& next() { const Token& t = tokens_[pos_]; if (pos_ + 1 < tokens_.size()) ++pos_; return t; }
  bool skip_if(TokenType type);
  bool skip_if_name(std::string_view name);
  const Token& expect(TokenType type);
  const Token& expect_name(std::string_view name);
  [[noreturn]] void fail(const std::string& message, size_t offset) const;
  [[noreturn]] void fail_unknown_tag(std::string_view name, size_t offset) const;
  [[noreturn]] void fail_eof(const std::vector<std::string_view>& end_tokens) const;
  std::string looking_for_message(const std::vector<std::string_view>* end_tokens) const;

  // Statements (parser.cpp).
  Body subparse(const std::vector<std::string_view>* end_tokens);
  Body parse_statements(const std::vector<std::string_view>& end_tokens, bool drop_needle = false);
  void parse_statement(Body& out);
  StmtPtr parse_set();
  StmtPtr parse_for();
  StmtPtr parse_if();
  StmtPtr parse_with();
  StmtPtr parse_block();
  StmtPtr parse_extends();
  StmtPtr parse_include();
  StmtPtr parse_import();
  StmtPtr parse_from();
  StmtPtr parse_macro();
  StmtPtr parse_call_block();
  StmtPtr parse_filter_block();
  void parse_print(Body& out);
  void parse_signature(MacroSignature& signature);
  // `offset`: the macro or call block, for the error on a `caller` parameter without default.
  void note_macro_names(MacroSignature& signature, size_t first_token, size_t last_token, size_t offset) const;
  // Whether the tokens name `loop` or open a block (not as an attribute: `x.loop`).
  bool names_loop_or_block(size_t first_token, size_t last_token) const;
  bool parse_import_context(bool default_value);
  Target parse_assign_target(bool with_tuple = true, bool name_only = false,
                             const std::vector<std::string_view>& extra_end = {}, bool with_namespace = false);
  Target parse_target_primary(bool with_namespace);

  // Expressions (parse_expression.cpp).
  ExprPtr parse_condexpr();
  ExprPtr parse_or();
  ExprPtr parse_and();
  ExprPtr parse_not();
  ExprPtr parse_compare();
  ExprPtr parse_math1();
  ExprPtr parse_concat();
  ExprPtr parse_math2();
  ExprPtr parse_pow();
  ExprPtr parse_unary(bool with_filter = true);
  ExprPtr parse_primary();
  ExprPtr parse_list();
  ExprPtr parse_dict();
  ExprPtr parse_postfix(ExprPtr node);
  ExprPtr parse_filter_expr(ExprPtr node);
  ExprPtr parse_subscript(ExprPtr node);
  ExprPtr parse_subscribed();
  void parse_call_args(Arguments& args);
  ExprPtr parse_call(ExprPtr node);

 public:
  // `chain`: the caller's count of the operator chain the filters extend (null: a new chain).
  ExprPtr parse_filter(ExprPtr node, bool start_inline = false, Nesting* chain = nullptr);

 private:
  ExprPtr parse_test(ExprPtr node);
  bool is_tuple_end(const std::vector<std::string_view>& extra_end) const;

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;  // current nesting, see Nesting
  Template& template_;
  std::vector<std::string_view> tag_stack_;
  std::vector<const std::vector<std::string_view>*> end_token_stack_;
  // For bodies around the current tag; a macro, call or block body starts again at 0
  // because Jinja2 compiles it to a function of its own, where break is a syntax error.
  int loop_depth_ = 0;
  Body parse_function_body(const std::vector<std::string_view>& end_tokens);
};

}  // namespace gkebuild::jinja
