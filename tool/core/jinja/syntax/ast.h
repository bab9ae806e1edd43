// The parsed form of a template. Nodes keep the byte offset of their first token so
// errors can name line and column.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tool/core/jinja/values/value.h"

namespace gkebuild::jinja {

struct CallArgs;
using FilterFn = Value (*)(Interpreter&, const Value&, CallArgs&);
// The same filter writing what printing its result would write straight into `out`, for
// `{{ x | f }}`: no result value is made. Nothing is written when it throws.
using AppendFilterFn = void (*)(Interpreter&, const Value&, CallArgs&, std::string& out);
using TestFn = bool (*)(Interpreter&, const Value&, CallArgs&);
struct FilterEntry;  // effects.h
struct TestEntry;

enum class ExprKind : uint8_t {
  Const, Name, Getattr, Getitem, Slice, Call, Filter, Test,
  Neg, Pos, Not, Binary, And, Or, Concat, Compare, Cond, List, Tuple, Dict,
};

struct Expr {
  Expr(ExprKind kind, size_t offset) : kind(kind), offset(offset) {}
  virtual ~Expr() = default;
  ExprKind kind;
  size_t offset;
};
using ExprPtr = std::unique_ptr<Expr>;

struct ConstExpr : Expr {
  ConstExpr(size_t offset, Value value) : Expr(ExprKind::Const, offset), value(std::move(value)) {}
  Value value;
};
struct NameExpr : Expr {
  NameExpr(size_t offset, std::string name) : Expr(ExprKind::Name, offset), name(std::move(name)) {}
  std::string name;
};
struct GetattrExpr : Expr {
  GetattrExpr(size_t offset, ExprPtr object, std::string name)
      : Expr(ExprKind::Getattr, offset), object(std::move(object)), name(std::move(name)) {}
  ExprPtr object;
  std::string name;
  bool dict_method = false;  // `name` is a dict method (items, get …): a mapping's key does not answer it
  // Where `name` was last found in a values document's mapping: its shared keys (high bits)
  // and index (low 16 bits). Templates may be rendered by several threads at once.
  mutable std::atomic<uint64_t> field_hint{0};
};
struct GetitemExpr : Expr {
  GetitemExpr(size_t offset, ExprPtr object, ExprPtr index)
      : Expr(ExprKind::Getitem, offset), object(std::move(object)), index(std::move(index)) {}
  ExprPtr object;
  ExprPtr index;
};
struct SliceExpr : Expr {
  explicit SliceExpr(size_t offset) : Expr(ExprKind::Slice, offset) {}
  ExprPtr start, stop, step;
};

struct Arguments {
  std::vector<ExprPtr> positional;
  std::vector<std::pair<std::string, ExprPtr>> keywords;
  ExprPtr star_args;    // *args
  ExprPtr star_kwargs;  // **kwargs
  bool empty() const { return positional.empty() && keywords.empty() && !star_args && !star_kwargs; }
};

struct CallExpr : Expr {
  CallExpr(size_t offset, ExprPtr callee) : Expr(ExprKind::Call, offset), callee(std::move(callee)) {}
  ExprPtr callee;
  Arguments args;
};
struct FilterExpr : Expr {
  FilterExpr(size_t offset, ExprPtr operand, std::string name)
      : Expr(ExprKind::Filter, offset), operand(std::move(operand)), name(std::move(name)) {}
  ExprPtr operand;  // null for the innermost filter of a filter block or block set
  std::string name;
  const FilterEntry* entry = nullptr;  // the filter's table entry
  Arguments args;
};
struct TestExpr : Expr {
  TestExpr(size_t offset, ExprPtr operand, std::string name)
      : Expr(ExprKind::Test, offset), operand(std::move(operand)), name(std::move(name)) {}
  ExprPtr operand;
  std::string name;
  const TestEntry* entry = nullptr;  // the test's table entry
  Arguments args;
};
struct UnaryExpr : Expr {
  UnaryExpr(ExprKind kind, size_t offset, ExprPtr operand) : Expr(kind, offset), operand(std::move(operand)) {}
  ExprPtr operand;
};

enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, Pow };
struct BinaryExpr : Expr {
  BinaryExpr(ExprKind kind, size_t offset, BinaryOp op, ExprPtr left, ExprPtr right)
      : Expr(kind, offset), op(op), left(std::move(left)), right(std::move(right)) {}
  BinaryOp op;  // for ExprKind::Binary; And/Or use the kind
  ExprPtr left, right;
};
struct ConcatExpr : Expr {
  explicit ConcatExpr(size_t offset) : Expr(ExprKind::Concat, offset) {}
  std::vector<ExprPtr> items;
};

enum class CompareOp : uint8_t { Eq, Ne, Lt, LtEq, Gt, GtEq, In, NotIn };
struct CompareExpr : Expr {
  CompareExpr(size_t offset, ExprPtr first) : Expr(ExprKind::Compare, offset), first(std::move(first)) {}
  ExprPtr first;
  std::vector<std::pair<CompareOp, ExprPtr>> rest;
};
struct CondExpr : Expr {
  explicit CondExpr(size_t offset) : Expr(ExprKind::Cond, offset) {}
  ExprPtr test, then, otherwise;  // otherwise may be null (yields Undefined)
};
struct ListExpr : Expr {  // also tuples
  ListExpr(ExprKind kind, size_t offset) : Expr(kind, offset) {}
  std::vector<ExprPtr> items;
};
struct DictExpr : Expr {
  explicit DictExpr(size_t offset) : Expr(ExprKind::Dict, offset) {}
  std::vector<std::pair<ExprPtr, ExprPtr>> items;
};

// Left-hand sides of set/for/with.
struct Target {
  enum class Kind : uint8_t { Name, Tuple, NamespaceAttr } kind = Kind::Name;
  size_t offset = 0;
  std::string name;
  std::string attr;
  std::vector<Target> items;
};

enum class StmtKind : uint8_t {
  Text, Print, If, For, Set, SetBlock, Macro, CallBlock, FilterBlock, Include, Import,
  FromImport, Extends, Block, With, Break, Continue,
};

struct Stmt {
  Stmt(StmtKind kind, size_t offset) : kind(kind), offset(offset) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  size_t offset;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

struct TextStmt : Stmt {
  TextStmt(size_t offset, std::string_view text) : Stmt(StmtKind::Text, offset), text(text) {}
  std::string_view text;
};
struct PrintStmt : Stmt {
  PrintStmt(size_t offset, ExprPtr expr) : Stmt(StmtKind::Print, offset), expr(std::move(expr)) {}
  ExprPtr expr;
};
struct IfStmt : Stmt {
  explicit IfStmt(size_t offset) : Stmt(StmtKind::If, offset) {}
  std::vector<std::pair<ExprPtr, Body>> branches;
  Body otherwise;
};
struct ForStmt : Stmt {
  explicit ForStmt(size_t offset) : Stmt(StmtKind::For, offset) {}
  Target target;
  ExprPtr iter;
  ExprPtr filter;
  bool recursive = false;
  // Whether the body can see `loop`: it names it, or holds a block (a scoped block overridden
  // elsewhere may read it). Without it no loop object is made, as Jinja2 makes none.
  bool uses_loop = true;
  // Whether the iterations may be rendered on several threads (split_loop.cpp): the body has
  // no statement that ties them together (break, macro, import, include, block, a namespace
  // attribute); the calls it makes are checked as they run.
  bool may_split = false;
  Body body, otherwise;
};
struct SetStmt : Stmt {
  explicit SetStmt(size_t offset) : Stmt(StmtKind::Set, offset) {}
  Target target;
  ExprPtr value;
};
struct SetBlockStmt : Stmt {
  explicit SetBlockStmt(size_t offset) : Stmt(StmtKind::SetBlock, offset) {}
  Target target;
  ExprPtr filter;  // may be null
  Body body;
};

struct MacroSignature {
  std::vector<std::string> params;
  std::vector<ExprPtr> defaults;  // for the last defaults.size() params
  bool uses_caller = false, uses_varargs = false, uses_kwargs = false;
};
struct MacroStmt : Stmt {
  explicit MacroStmt(size_t offset) : Stmt(StmtKind::Macro, offset) {}
  std::string name;
  MacroSignature signature;
  Body body;
};
struct CallBlockStmt : Stmt {
  explicit CallBlockStmt(size_t offset) : Stmt(StmtKind::CallBlock, offset) {}
  MacroSignature signature;  // of the caller
  ExprPtr call;              // a CallExpr
  Body body;
};
struct FilterBlockStmt : Stmt {
  explicit FilterBlockStmt(size_t offset) : Stmt(StmtKind::FilterBlock, offset) {}
  ExprPtr filter;
  Body body;
};
struct IncludeStmt : Stmt {
  explicit IncludeStmt(size_t offset) : Stmt(StmtKind::Include, offset) {}
  ExprPtr name;
  bool ignore_missing = false;
  bool with_context = true;
};
struct ImportStmt : Stmt {
  explicit ImportStmt(size_t offset) : Stmt(StmtKind::Import, offset) {}
  ExprPtr name;
  std::string alias;
  bool with_context = false;
};
struct FromImportStmt : Stmt {
  explicit FromImportStmt(size_t offset) : Stmt(StmtKind::FromImport, offset) {}
  ExprPtr name;
  std::vector<std::pair<std::string, std::string>> names;  // (name, alias)
  std::vector<size_t> name_offsets;
  bool with_context = false;
};
struct ExtendsStmt : Stmt {
  explicit ExtendsStmt(size_t offset) : Stmt(StmtKind::Extends, offset) {}
  ExprPtr name;
};
struct BlockStmt : Stmt {
  explicit BlockStmt(size_t offset) : Stmt(StmtKind::Block, offset) {}
  std::string name;
  bool scoped = false;
  bool required = false;
  Body body;
};
struct WithStmt : Stmt {
  explicit WithStmt(size_t offset) : Stmt(StmtKind::With, offset) {}
  std::vector<Target> targets;
  std::vector<ExprPtr> values;
  Body body;
};
struct LoopControlStmt : Stmt {
  LoopControlStmt(StmtKind kind, size_t offset) : Stmt(kind, offset) {}
};

// One parsed template: its normalised source (which text nodes point into) and its AST.
struct Template {
  std::string name;
  std::string source;
  Body body;
  std::map<std::string, const BlockStmt*, std::less<>> blocks;
};

// ForStmt::may_split for a loop with this body (split_loop.cpp).
bool iterations_may_split(const Body& body);

}  // namespace gkebuild::jinja
