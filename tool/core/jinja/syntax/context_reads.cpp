#include "tool/core/jinja/syntax/context_reads.h"

#include <vector>

namespace gkebuild::jinja {
namespace {

// The constant string an expression is, or null.
const std::string_view* constant_text(const Expr* expr, std::string_view& storage) {
  if (expr == nullptr || expr->kind != ExprKind::Const) return nullptr;
  const auto& value = static_cast<const ConstExpr*>(expr)->value;
  if (!value.is_str()) return nullptr;
  storage = value.str();
  return &storage;
}

class ReadsWalker {
 public:
  explicit ReadsWalker(const TemplateFinder& find) : find_(find) {}

  ContextReads walk(const Template& tmpl) {
    template_(tmpl);
    return std::move(out_);
  }

 private:
  // Locals certainly bound where a name is read, innermost scope last.
  using Scope = std::set<std::string, std::less<>>;

  bool is_local(std::string_view name) const {
    for (const auto& scope : scopes_)
      if (scope.count(name)) return true;
    return false;
  }
  void bind(const std::string& name) { scopes_.back().insert(name); }
  void bind(const Target& target) {
    if (target.kind == Target::Kind::Name) bind(target.name);
    for (const auto& item : target.items) bind(item);
  }
  // A scope for the duration of a nested body.
  struct Nested {
    Nested(ReadsWalker& walker, Scope scope = {}) : walker(walker) { walker.scopes_.push_back(std::move(scope)); }
    ~Nested() { walker.scopes_.pop_back(); }
    ReadsWalker& walker;
  };

  void read_whole(const std::string& name) {
    if (is_local(name)) return;
    out_.names.insert(name);
    out_.whole.insert(name);
  }
  void read_key(const std::string& name, std::string_view key) {
    out_.names.insert(name);
    out_.keys[name].insert(std::string(key));
  }

  // NAME.KEY or NAME['KEY'] of a context variable: true when recorded as a key read.
  bool keyed(const Expr& object, const Expr* index_expr, std::string_view attribute) {
    if (object.kind != ExprKind::Name) return false;
    const auto& name = static_cast<const NameExpr&>(object).name;
    if (is_local(name)) return false;  // walked as usual: a computed key may read the context
    std::string_view storage;
    if (index_expr != nullptr) {
      const auto* key = constant_text(index_expr, storage);
      if (key == nullptr) return false;
      attribute = *key;
    }
    read_key(name, attribute);
    return true;
  }

  void expr(const Expr* e) {
    if (e == nullptr) return;
    switch (e->kind) {
      case ExprKind::Const: return;
      case ExprKind::Name: return read_whole(static_cast<const NameExpr*>(e)->name);
      case ExprKind::Getattr: {
        const auto* get = static_cast<const GetattrExpr*>(e);
        if (!get->dict_method && keyed(*get->object, nullptr, get->name)) return;
        return expr(get->object.get());
      }
      case ExprKind::Getitem: {
        const auto* get = static_cast<const GetitemExpr*>(e);
        if (keyed(*get->object, get->index.get(), {})) return;
        expr(get->object.get());
        return expr(get->index.get());
      }
      case ExprKind::Slice: {
        const auto* slice = static_cast<const SliceExpr*>(e);
        for (const auto* part : {slice->start.get(), slice->stop.get(), slice->step.get()}) expr(part);
        return;
      }
      case ExprKind::Call: {
        const auto* call = static_cast<const CallExpr*>(e);
        expr(call->callee.get());
        return arguments(call->args);
      }
      case ExprKind::Filter: {
        const auto* filter = static_cast<const FilterExpr*>(e);
        expr(filter->operand.get());
        return arguments(filter->args);
      }
      case ExprKind::Test: {
        const auto* test = static_cast<const TestExpr*>(e);
        expr(test->operand.get());
        return arguments(test->args);
      }
      case ExprKind::Neg: case ExprKind::Pos: case ExprKind::Not:
        return expr(static_cast<const UnaryExpr*>(e)->operand.get());
      case ExprKind::Binary: case ExprKind::And: case ExprKind::Or: {
        const auto* binary = static_cast<const BinaryExpr*>(e);
        expr(binary->left.get());
        return expr(binary->right.get());
      }
      case ExprKind::Concat:
        for (const auto& item : static_cast<const ConcatExpr*>(e)->items) expr(item.get());
        return;
      case ExprKind::Compare: {
        const auto* compare = static_cast<const CompareExpr*>(e);
        expr(compare->first.get());
        for (const auto& [op, operand] : compare->rest) expr(operand.get());
        return;
      }
      case ExprKind::Cond: {
        const auto* cond = static_cast<const CondExpr*>(e);
        for (const auto* part : {cond->test.get(), cond->then.get(), cond->otherwise.get()}) expr(part);
        return;
      }
      case ExprKind::List: case ExprKind::Tuple:
        for (const auto& item : static_cast<const ListExpr*>(e)->items) expr(item.get());
        return;
      case ExprKind::Dict:
        for (const auto& [key, value] : static_cast<const DictExpr*>(e)->items) {
          expr(key.get());
          expr(value.get());
        }
        return;
    }
  }

  void arguments(const Arguments& args) {
    for (const auto& item : args.positional) expr(item.get());
    for (const auto& [name, item] : args.keywords) expr(item.get());
    expr(args.star_args.get());
    expr(args.star_kwargs.get());
  }

  void body(const Body& statements) {
    for (const auto& statement : statements) stmt(*statement);
  }
  void nested_body(const Body& statements, Scope scope = {}) {
    Nested nested(*this, std::move(scope));
    body(statements);
  }

  Scope signature(const MacroSignature& signature) {
    for (const auto& value : signature.defaults) expr(value.get());
    Scope scope(signature.params.begin(), signature.params.end());
    scope.insert({"caller", "varargs", "kwargs"});
    return scope;
  }

  // The template named by `name`, walked in place (an include sees the includer's variables).
  void other_template(const Expr* name) {
    std::string_view storage;
    std::vector<const Expr*> names{name};
    if (name != nullptr && (name->kind == ExprKind::List || name->kind == ExprKind::Tuple)) {
      names.clear();
      for (const auto& item : static_cast<const ListExpr*>(name)->items) names.push_back(item.get());
    }
    for (const auto* each : names) {
      const auto* text = constant_text(each, storage);
      if (text == nullptr) {
        out_.unknown = true;
        continue;
      }
      const std::string key(*text);
      if (!visiting_.insert(key).second) continue;  // a cycle: already being walked
      if (const auto found = find_(key)) template_(*found);
      visiting_.erase(key);
    }
  }

  void template_(const Template& tmpl) {
    Nested nested(*this);
    body(tmpl.body);
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Text: case StmtKind::Break: case StmtKind::Continue: return;
      case StmtKind::Print: return expr(static_cast<const PrintStmt&>(s).expr.get());
      case StmtKind::If: {
        const auto& branches = static_cast<const IfStmt&>(s);
        for (const auto& [test, branch] : branches.branches) {
          expr(test.get());
          nested_body(branch);
        }
        return nested_body(branches.otherwise);
      }
      case StmtKind::For: {
        const auto& loop = static_cast<const ForStmt&>(s);
        expr(loop.iter.get());
        Scope scope{"loop"};
        {
          Nested nested(*this, scope);
          bind(loop.target);
          expr(loop.filter.get());
          body(loop.body);
        }
        return nested_body(loop.otherwise);
      }
      case StmtKind::Set: {
        const auto& set = static_cast<const SetStmt&>(s);
        expr(set.value.get());
        if (set.target.kind == Target::Kind::NamespaceAttr) return read_whole(set.target.name);
        return bind(set.target);
      }
      case StmtKind::SetBlock: {
        const auto& set = static_cast<const SetBlockStmt&>(s);
        expr(set.filter.get());
        nested_body(set.body);
        if (set.target.kind == Target::Kind::NamespaceAttr) return read_whole(set.target.name);
        return bind(set.target);
      }
      case StmtKind::Macro: {
        const auto& macro = static_cast<const MacroStmt&>(s);
        bind(macro.name);
        return nested_body(macro.body, signature(macro.signature));
      }
      case StmtKind::CallBlock: {
        const auto& call = static_cast<const CallBlockStmt&>(s);
        expr(call.call.get());
        return nested_body(call.body, signature(call.signature));
      }
      case StmtKind::FilterBlock: {
        const auto& filter = static_cast<const FilterBlockStmt&>(s);
        expr(filter.filter.get());
        return nested_body(filter.body);
      }
      case StmtKind::Include: {
        const auto& include = static_cast<const IncludeStmt&>(s);
        expr(include.name.get());
        if (include.with_context) other_template(include.name.get());
        return;
      }
      case StmtKind::Import: {
        const auto& import = static_cast<const ImportStmt&>(s);
        expr(import.name.get());
        if (import.with_context) other_template(import.name.get());
        return bind(import.alias);
      }
      case StmtKind::FromImport: {
        const auto& import = static_cast<const FromImportStmt&>(s);
        expr(import.name.get());
        if (import.with_context) other_template(import.name.get());
        for (const auto& [name, alias] : import.names) bind(alias.empty() ? name : alias);
        return;
      }
      case StmtKind::Extends: {
        const auto& extends = static_cast<const ExtendsStmt&>(s);
        expr(extends.name.get());
        return other_template(extends.name.get());
      }
      case StmtKind::Block: return nested_body(static_cast<const BlockStmt&>(s).body);
      case StmtKind::With: {
        const auto& with = static_cast<const WithStmt&>(s);
        for (const auto& value : with.values) expr(value.get());
        Nested nested(*this);
        for (const auto& target : with.targets) bind(target);
        return body(with.body);
      }
    }
  }

  const TemplateFinder& find_;
  std::vector<Scope> scopes_;
  std::set<std::string> visiting_;
  ContextReads out_;
};

}  // namespace

bool ContextReads::reads_key(std::string_view name, std::string_view key) const {
  if (unknown || whole.count(name)) return true;
  const auto found = keys.find(name);
  return found != keys.end() && found->second.count(key) > 0;
}

void ContextReads::merge(const ContextReads& other) {
  names.insert(other.names.begin(), other.names.end());
  whole.insert(other.whole.begin(), other.whole.end());
  for (const auto& [name, more] : other.keys) keys[name].insert(more.begin(), more.end());
  unknown = unknown || other.unknown;
}

ContextReads context_reads(const Template& tmpl, const TemplateFinder& find) {
  return ReadsWalker(find).walk(tmpl);
}

}  // namespace gkebuild::jinja
