// Statements: the template body, tags and their end tags (jinja2/parser.py).
#include "tool/core/jinja/syntax/parser.h"

#include "base/source_error.h"
#include "tool/core/jinja/errors.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/syntax/parser_internal.h"

namespace gkebuild::jinja {

namespace {
const std::vector<std::string_view> kEndFor{"endfor", "else"};
const std::vector<std::string_view> kEndForOnly{"endfor"};
const std::vector<std::string_view> kEndIf{"elif", "else", "endif"};
const std::vector<std::string_view> kEndIfOnly{"endif"};
const std::vector<std::string_view> kEndSet{"endset"};
const std::vector<std::string_view> kEndWith{"endwith"};
const std::vector<std::string_view> kEndBlock{"endblock"};
const std::vector<std::string_view> kEndMacro{"endmacro"};
const std::vector<std::string_view> kEndCall{"endcall"};
const std::vector<std::string_view> kEndFilter{"endfilter"};
const std::vector<std::string_view> kForTargetEnd{"in"};
const std::vector<std::string_view> kForIterEnd{"recursive"};
}  // namespace

bool Parser::skip_if(TokenType type) {
  if (current().type != type) return false;
  next();
  return true;
}

bool Parser::skip_if_name(std::string_view name) {
  if (!current().is_name(name)) return false;
  next();
  return true;
}

const Token& Parser::expect(TokenType type) {
  if (current().type != type) {
    if (current().type == TokenType::Eof)
      fail("unexpected end of template, expected '" + describe(type) + "'.", current().offset);
    fail("expected token '" + describe(type) + "', got '" + describe(current()) + "'", current().offset);
  }
  return next();
}

const Token& Parser::expect_name(std::string_view name) {
  if (!current().is_name(name)) {
    if (current().type == TokenType::Eof)
      fail("unexpected end of template, expected '" + std::string(name) + "'.", current().offset);
    fail("expected token '" + std::string(name) + "', got '" + describe(current()) + "'", current().offset);
  }
  return next();
}

void Parser::fail(const std::string& message, size_t offset) const { throw ParseError{offset, message}; }

void Parser::Nesting::deeper(size_t offset) {
  if (parser_.depth_ >= kMaxNesting)
    parser_.fail("nesting deeper than " + std::to_string(kMaxNesting) +
                     " levels (blocks, parentheses, brackets and operator chains together)",
                 offset);
  ++parser_.depth_;
  ++levels_;
}

std::string Parser::looking_for_message(const std::vector<std::string_view>* end_tokens) const {
  (void)end_tokens;
  std::string message;
  if (!end_token_stack_.empty()) {
    std::string looking;
    const auto& last = *end_token_stack_.back();
    for (size_t i = 0; i < last.size(); ++i) {
      if (i) looking += " or ";
      looking += "'" + std::string(last[i]) + "'";
    }
    message += " Jinja was looking for the following tags: " + looking + ".";
  }
  if (!tag_stack_.empty())
    message += " The innermost block that needs to be closed is '" + std::string(tag_stack_.back()) + "'.";
  return message;
}

void Parser::fail_unknown_tag(std::string_view name, size_t offset) const {
  std::string message = "Encountered unknown tag '" + std::string(name) + "'.";
  bool expected_elsewhere = false;
  for (const auto* tokens : end_token_stack_)
    for (std::string_view t : *tokens)
      if (t == name) expected_elsewhere = true;
  if (expected_elsewhere && !end_token_stack_.empty()) {
    std::string looking;
    const auto& last = *end_token_stack_.back();
    for (size_t i = 0; i < last.size(); ++i) looking += (i ? " or '" : "'") + std::string(last[i]) + "'";
    message += " You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for " +
               looking + ".";
    if (!tag_stack_.empty())
      message += " The innermost block that needs to be closed is '" + std::string(tag_stack_.back()) + "'.";
  } else {
    message += looking_for_message(nullptr);
  }
  fail(message, offset);
}

void Parser::fail_eof(const std::vector<std::string_view>& end_tokens) const {
  auto* self = const_cast<Parser*>(this);
  self->end_token_stack_.push_back(&end_tokens);
  std::string message = "Unexpected end of template." + looking_for_message(&end_tokens);
  self->end_token_stack_.pop_back();
  fail(message, current().offset);
}

Body Parser::parse() {
  Body body = subparse(nullptr);
  return body;
}

Body Parser::subparse(const std::vector<std::string_view>* end_tokens) {
  Body body;
  if (end_tokens) end_token_stack_.push_back(end_tokens);
  while (current().type != TokenType::Eof) {
    const Token& token = current();
    if (token.type == TokenType::Data) {
      body.push_back(std::make_unique<TextStmt>(token.offset, token.text));
      next();
    } else if (token.type == TokenType::VariableBegin) {
      next();
      size_t offset = current().offset;
      body.push_back(std::make_unique<PrintStmt>(offset, parse_tuple()));
      expect(TokenType::VariableEnd);
    } else if (token.type == TokenType::BlockBegin) {
      next();
      if (end_tokens && current().type == TokenType::Name) {
        for (std::string_view end : *end_tokens) {
          if (current().text == end) {
            end_token_stack_.pop_back();
            return body;
          }
        }
      }
      parse_statement(body);
      expect(TokenType::BlockEnd);
    } else {
      fail("unexpected '" + describe(token) + "'", token.offset);
    }
  }
  if (end_tokens) end_token_stack_.pop_back();
  return body;
}

Body Parser::parse_statements(const std::vector<std::string_view>& end_tokens, bool drop_needle) {
  Nesting nesting(*this, current().offset);
  skip_if(TokenType::Colon);
  expect(TokenType::BlockEnd);
  Body body = subparse(&end_tokens);
  if (current().type == TokenType::Eof) fail_eof(end_tokens);
  if (drop_needle) next();
  return body;
}

void Parser::parse_statement(Body& out) {
  const Token& token = current();
  if (token.type != TokenType::Name) fail("tag name expected", token.offset);
  std::string_view name = token.text;
  tag_stack_.push_back(name);
  StmtPtr stmt;
  if (name == "for") stmt = parse_for();
  else if (name == "if") stmt = parse_if();
  else if (name == "set") stmt = parse_set();
  else if (name == "with") stmt = parse_with();
  else if (name == "block") stmt = parse_block();
  else if (name == "extends") stmt = parse_extends();
  else if (name == "include") stmt = parse_include();
  else if (name == "import") stmt = parse_import();
  else if (name == "from") stmt = parse_from();
  else if (name == "macro") stmt = parse_macro();
  else if (name == "call") stmt = parse_call_block();
  else if (name == "filter") stmt = parse_filter_block();
  else if (name == "print") {
    parse_print(out);
    tag_stack_.pop_back();
    return;
  } else if (name == "break" || name == "continue") {
    size_t offset = next().offset;
    if (loop_depth_ == 0) fail("'" + std::string(name) + "' outside loop", offset);
    stmt = std::make_unique<LoopControlStmt>(name == "break" ? StmtKind::Break : StmtKind::Continue, offset);
  } else {
    tag_stack_.pop_back();
    fail_unknown_tag(name, token.offset);
  }
  tag_stack_.pop_back();
  out.push_back(std::move(stmt));
}

void Parser::parse_print(Body& out) {
  next();
  bool first = true;
  while (current().type != TokenType::BlockEnd) {
    if (!first) expect(TokenType::Comma);
    first = false;
    size_t offset = current().offset;
    out.push_back(std::make_unique<PrintStmt>(offset, parse_expression()));
  }
}

StmtPtr Parser::parse_set() {
  auto node = std::make_unique<SetStmt>(next().offset);
  Target target = parse_assign_target(true, false, {}, true);
  if (skip_if(TokenType::Assign)) {
    node->target = std::move(target);
    node->value = parse_tuple();
    return node;
  }
  auto block = std::make_unique<SetBlockStmt>(node->offset);
  block->target = std::move(target);
  if (current().type == TokenType::Pipe) block->filter = parse_filter(nullptr);
  block->body = parse_statements(kEndSet, true);
  return block;
}

namespace {
// Jinja2 refuses `{% for loop in ... %}` (and `loop` inside a tuple target): the name is the
// loop object's.
const Target* find_loop_name(const Target& target) {
  if (target.kind == Target::Kind::Name && target.name == "loop") return &target;
  for (const Target& item : target.items)
    if (const Target* found = find_loop_name(item)) return found;
  return nullptr;
}
}  // namespace

StmtPtr Parser::parse_for() {
  auto node = std::make_unique<ForStmt>(next().offset);
  node->target = parse_assign_target(true, false, kForTargetEnd);
  if (const Target* loop = find_loop_name(node->target))
    fail("Can't assign to special loop variable in for-loop target", loop->offset);
  expect_name("in");
  node->iter = parse_tuple(false, false, kForIterEnd);
  if (skip_if_name("if")) node->filter = parse_expression();
  node->recursive = skip_if_name("recursive");
  ++loop_depth_;
  const size_t body_start = pos_;
  node->body = parse_statements(kEndFor);
  node->uses_loop = names_loop_or_block(body_start, pos_);
  node->may_split = !node->recursive && iterations_may_split(node->body);
  --loop_depth_;
  if (next().text == "endfor") return node;
  node->otherwise = parse_statements(kEndForOnly, true);
  return node;
}

StmtPtr Parser::parse_if() {
  auto node = std::make_unique<IfStmt>(next().offset);
  while (true) {
    ExprPtr test = parse_tuple(false, false);
    Body body = parse_statements(kEndIf);
    node->branches.emplace_back(std::move(test), std::move(body));
    const Token& token = next();
    if (token.text == "elif") continue;
    if (token.text == "else") node->otherwise = parse_statements(kEndIfOnly, true);
    break;
  }
  return node;
}

StmtPtr Parser::parse_with() {
  auto node = std::make_unique<WithStmt>(next().offset);
  while (current().type != TokenType::BlockEnd) {
    if (!node->targets.empty()) expect(TokenType::Comma);
    node->targets.push_back(parse_assign_target());
    expect(TokenType::Assign);
    node->values.push_back(parse_expression());
  }
  node->body = parse_statements(kEndWith, true);
  return node;
}

StmtPtr Parser::parse_block() {
  auto node = std::make_unique<BlockStmt>(next().offset);
  node->name = std::string(expect(TokenType::Name).text);
  node->scoped = skip_if_name("scoped");
  node->required = skip_if_name("required");
  if (current().type == TokenType::Sub)
    fail("Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an "
         "underscore instead.", current().offset);
  node->body = parse_function_body(kEndBlock);
  if (node->required) {
    for (const auto& stmt : node->body) {
      bool whitespace = stmt->kind == StmtKind::Text &&
                        static_cast<const TextStmt&>(*stmt).text.find_first_not_of(" \t\n\r\f\v") == std::string_view::npos;
      if (!whitespace) fail("Required blocks can only contain comments or whitespace", stmt->offset);
    }
  }
  if (current().type == TokenType::Name && current().text == node->name) next();
  if (template_.blocks.count(node->name))
    fail("block '" + node->name + "' defined twice", node->offset);
  template_.blocks[node->name] = node.get();
  return node;
}

StmtPtr Parser::parse_extends() {
  auto node = std::make_unique<ExtendsStmt>(next().offset);
  node->name = parse_expression();
  return node;
}

bool Parser::parse_import_context(bool default_value) {
  if ((current().is_name("with") || current().is_name("without")) && look().is_name("context")) {
    bool with = next().text == "with";
    next();
    return with;
  }
  return default_value;
}

StmtPtr Parser::parse_include() {
  auto node = std::make_unique<IncludeStmt>(next().offset);
  node->name = parse_expression();
  if (current().is_name("ignore") && look().is_name("missing")) {
    node->ignore_missing = true;
    next();
    next();
  }
  node->with_context = parse_import_context(true);
  return node;
}

StmtPtr Parser::parse_import() {
  auto node = std::make_unique<ImportStmt>(next().offset);
  node->name = parse_expression();
  expect_name("as");
  node->alias = std::string(expect(TokenType::Name).text);
  node->with_context = parse_import_context(false);
  return node;
}

StmtPtr Parser::parse_from() {
  auto node = std::make_unique<FromImportStmt>(next().offset);
  node->name = parse_expression();
  expect_name("import");
  auto parse_context = [&]() {
    if ((current().is_name("with") || current().is_name("without")) && look().is_name("context")) {
      node->with_context = next().text == "with";
      next();
      return true;
    }
    return false;
  };
  while (true) {
    if (!node->names.empty()) expect(TokenType::Comma);
    if (current().type != TokenType::Name) {
      expect(TokenType::Name);
    }
    if (parse_context()) break;
    const Token& name = next();
    if (name.text.front() == '_') fail("names starting with an underline can not be imported", name.offset);
    std::string alias(name.text);
    if (skip_if_name("as")) alias = std::string(expect(TokenType::Name).text);
    node->names.emplace_back(std::string(name.text), alias);
    node->name_offsets.push_back(name.offset);
    if (parse_context() || current().type != TokenType::Comma) break;
  }
  return node;
}

void Parser::parse_signature(MacroSignature& signature) {
  expect(TokenType::LParen);
  while (current().type != TokenType::RParen) {
    if (!signature.params.empty()) expect(TokenType::Comma);
    const Token& name = expect(TokenType::Name);
    if (skip_if(TokenType::Assign)) {
      signature.defaults.push_back(parse_expression());
    } else if (!signature.defaults.empty()) {
      fail("non-default argument follows default argument", name.offset);
    }
    signature.params.emplace_back(name.text);
  }
  expect(TokenType::RParen);
}

bool Parser::names_loop_or_block(size_t first_token, size_t last_token) const {
  for (size_t i = first_token; i < last_token && i < tokens_.size(); ++i) {
    const Token& token = tokens_[i];
    if (token.type != TokenType::Name || (i > 0 && tokens_[i - 1].type == TokenType::Dot)) continue;
    if (token.text == "loop" || token.text == "block") return true;
  }
  return false;
}

void Parser::note_macro_names(MacroSignature& signature, size_t first_token, size_t last_token,
                              size_t offset) const {
  for (size_t i = first_token; i < last_token && i < tokens_.size(); ++i) {
    const Token& token = tokens_[i];
    if (token.type != TokenType::Name) continue;
    if (i > 0 && tokens_[i - 1].type == TokenType::Dot) continue;
    if (token.text == "caller") signature.uses_caller = true;
    else if (token.text == "varargs") signature.uses_varargs = true;
    else if (token.text == "kwargs") signature.uses_kwargs = true;
  }
  const size_t first_default = signature.params.size() - signature.defaults.size();
  for (size_t i = 0; i < signature.params.size(); ++i) {
    const std::string& param = signature.params[i];
    // A body that calls caller() with `caller` as a parameter that has no default would
    // shadow the special caller; Jinja2 refuses that.
    if (param == "caller" && signature.uses_caller && i < first_default)
      fail("When defining macros or call blocks the special \"caller\" argument must be omitted or be "
           "given a default.",
           offset);
    if (param == "caller") signature.uses_caller = false;
    if (param == "varargs") signature.uses_varargs = false;
    if (param == "kwargs") signature.uses_kwargs = false;
  }
}

Body Parser::parse_function_body(const std::vector<std::string_view>& end_tokens) {
  int saved = loop_depth_;
  loop_depth_ = 0;
  Body body = parse_statements(end_tokens, true);
  loop_depth_ = saved;
  return body;
}

StmtPtr Parser::parse_macro() {
  auto node = std::make_unique<MacroStmt>(next().offset);
  node->name = std::string(expect(TokenType::Name).text);
  parse_signature(node->signature);
  size_t body_start = pos_;
  node->body = parse_function_body(kEndMacro);
  note_macro_names(node->signature, body_start, pos_, node->offset);
  return node;
}

StmtPtr Parser::parse_call_block() {
  auto node = std::make_unique<CallBlockStmt>(next().offset);
  if (current().type == TokenType::LParen) parse_signature(node->signature);
  size_t call_offset = current().offset;
  node->call = parse_expression();
  if (node->call->kind != ExprKind::Call) fail("expected call", call_offset);
  size_t body_start = pos_;
  node->body = parse_function_body(kEndCall);
  note_macro_names(node->signature, body_start, pos_, node->offset);
  return node;
}

StmtPtr Parser::parse_filter_block() {
  auto node = std::make_unique<FilterBlockStmt>(next().offset);
  node->filter = parse_filter(nullptr, true);
  node->body = parse_statements(kEndFilter, true);
  return node;
}

Target Parser::parse_target_primary(bool with_namespace) {
  const Token& token = current();
  if (token.type == TokenType::Name) {
    if (token.text == "true" || token.text == "false" || token.text == "True" || token.text == "False" ||
        token.text == "none" || token.text == "None")
      fail("can't assign to 'const'", token.offset);
    next();
    Target target;
    target.offset = token.offset;
    target.name = std::string(token.text);
    if (with_namespace && current().type == TokenType::Dot) {
      next();
      target.kind = Target::Kind::NamespaceAttr;
      target.attr = std::string(expect(TokenType::Name).text);
    }
    return target;
  }
  if (token.type == TokenType::LParen) {
    next();
    Target target;
    target.kind = Target::Kind::Tuple;
    target.offset = token.offset;
    while (current().type != TokenType::RParen) {
      if (!target.items.empty()) expect(TokenType::Comma);
      if (current().type == TokenType::RParen) break;
      target.items.push_back(parse_target_primary(with_namespace));
    }
    expect(TokenType::RParen);
    return target;
  }
  if (token.type == TokenType::String || token.type == TokenType::Integer || token.type == TokenType::Float)
    fail("can't assign to 'const'", token.offset);
  fail("unexpected '" + describe(token) + "'", token.offset);
}

Target Parser::parse_assign_target(bool with_tuple, bool name_only, const std::vector<std::string_view>& extra_end,
                                   bool with_namespace) {
  if (name_only) {
    const Token& token = expect(TokenType::Name);
    Target target;
    target.offset = token.offset;
    target.name = std::string(token.text);
    return target;
  }
  if (!with_tuple) return parse_target_primary(with_namespace);
  size_t offset = current().offset;
  std::vector<Target> items;
  bool is_tuple = false;
  while (true) {
    if (!items.empty()) expect(TokenType::Comma);
    if (is_tuple_end(extra_end)) break;
    items.push_back(parse_target_primary(with_namespace));
    if (current().type == TokenType::Comma) is_tuple = true;
    else break;
  }
  if (!is_tuple) {
    if (items.empty()) fail("Expected an expression, got '" + describe(current()) + "'", current().offset);
    return std::move(items[0]);
  }
  Target target;
  target.kind = Target::Kind::Tuple;
  target.offset = offset;
  target.items = std::move(items);
  return target;
}

bool Parser::is_tuple_end(const std::vector<std::string_view>& extra_end) const {
  TokenType type = current().type;
  if (type == TokenType::VariableEnd || type == TokenType::BlockEnd || type == TokenType::RParen) return true;
  for (std::string_view end : extra_end)
    if (current().is_name(end)) return true;
  return false;
}

SourceLocation source_location(const Template& tmpl, size_t offset) {
  SourceLocation where{tmpl.name, 1, 1};
  std::string_view text = tmpl.source;
  if (offset > text.size()) offset = text.size();
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++where.line;
      line_start = i + 1;
    }
  }
  where.column = static_cast<int>(offset - line_start) + 1;
  return where;
}

std::shared_ptr<Template> parse_template(std::string name, std::string_view source, const LexerOptions& options) {
  auto tmpl = std::make_shared<Template>();
  tmpl->name = std::move(name);
  tmpl->source = normalize_source(source, options.keep_trailing_newline);
  try {
    Parser parser(tokenize(tmpl->source, options), *tmpl);
    tmpl->body = parser.parse();
  } catch (const LexError& error) {
    throw TemplateError(TemplateErrorKind::Syntax, source_location(*tmpl, error.offset), error.message, tmpl->source);
  } catch (const ParseError& error) {
    throw TemplateError(TemplateErrorKind::Syntax, source_location(*tmpl, error.offset), error.message, tmpl->source);
  }
  return tmpl;
}

}  // namespace gkebuild::jinja
