// A long `for` loop rendered on several threads (Options::loop_threads). Its items are cut
// into blocks of consecutive iterations; each thread claims the next block and renders it
// with an interpreter, a scope and a `loop` of its own, and the thread that runs the template
// writes the blocks out in order. The output is the one a single thread gives, byte for byte,
// and so is a failure: a block's error is raised only after every block before it has been
// written out, with what its own iterations wrote before it.
//
// That holds while no iteration changes anything another one can see. Only bodies without
// break, macro definitions, imports, includes, blocks or namespace assignments may split (the
// parser asks iterations_may_split); everything else that changes state (a macro call, list.append,
// cycler.next(), loop.changed(), random) is a call whose table entry declares it (effects.h), and
// the interpreter acts on that where it dispatches the call (before_call): that ends the split
// before the change is made. A block that runs into one is dropped, nothing of it having been
// kept, with every block after it, and the loop goes on from there on one thread. Where the
// template's own thread meets one in a block it writes straight to the output (every block
// before it is out), it waits for the other threads to stop and goes on itself.
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>

#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/runtime/objects.h"

namespace gkebuild::jinja {

namespace {

// Thrown out of a block that reached a side effect on a thread that may not make it.
struct SplitStopped {};

// Small blocks keep the threads evenly busy and the output waiting in memory small; a block
// costs a lock and a wake-up, so not too small: about 32 for each thread.
constexpr size_t kMinBlockItems = 1;  // 2,048 items (split_loop_items) on two threads: blocks of 32
constexpr size_t kMaxBlockItems = 64;
// How many blocks may be claimed ahead of the one written out next.
constexpr size_t kBlocksAhead = 8;

bool target_may_split(const Target& target) {
  if (target.kind == Target::Kind::NamespaceAttr) return false;
  return std::all_of(target.items.begin(), target.items.end(), target_may_split);
}

// `own_level`: a break here would leave the loop being split (not a loop inside it).
bool body_may_split(const Body& body, bool own_level) {
  auto may = [](const Body& inner, bool own) { return body_may_split(inner, own); };
  for (const StmtPtr& stmt : body) {
    switch (stmt->kind) {
      case StmtKind::Text:
      case StmtKind::Print:
      case StmtKind::Continue:
        break;
      case StmtKind::Break:
        if (own_level) return false;
        break;
      case StmtKind::If: {
        const auto& s = static_cast<const IfStmt&>(*stmt);
        for (const auto& branch : s.branches)
          if (!may(branch.second, own_level)) return false;
        if (!may(s.otherwise, own_level)) return false;
        break;
      }
      case StmtKind::For: {
        const auto& s = static_cast<const ForStmt&>(*stmt);
        // The else branch runs in the scope around the inner loop: a break there is ours.
        if (s.recursive || !target_may_split(s.target) || !may(s.body, false) || !may(s.otherwise, own_level))
          return false;
        break;
      }
      case StmtKind::Set:
        if (!target_may_split(static_cast<const SetStmt&>(*stmt).target)) return false;
        break;
      case StmtKind::SetBlock: {
        const auto& s = static_cast<const SetBlockStmt&>(*stmt);
        if (!target_may_split(s.target) || !may(s.body, own_level)) return false;
        break;
      }
      case StmtKind::FilterBlock:
        if (!may(static_cast<const FilterBlockStmt&>(*stmt).body, own_level)) return false;
        break;
      case StmtKind::With: {
        const auto& s = static_cast<const WithStmt&>(*stmt);
        if (!std::all_of(s.targets.begin(), s.targets.end(), target_may_split) || !may(s.body, own_level))
          return false;
        break;
      }
      default:  // macro, call block, include, import, extends, block
        return false;
    }
  }
  return true;
}

}  // namespace

bool iterations_may_split(const Body& body) { return body_may_split(body, true); }

struct SplitBlock {
  std::string text;
  bool done = false;
  bool stopped = false;  // reached a side effect: dropped, to be rendered again on one thread
  bool completed_iteration = false;
  std::exception_ptr error;  // failed; `text` is what its iterations wrote before
};

// What one thread renders iterations with: its own copy of the sequence (reading one fills
// caches in it), its own `loop` and scope.
struct SplitThread {
  SplitThread(const ForStmt& stmt, const Sequence& items, int depth, const std::shared_ptr<Frame>& around)
      : sequence(items), loop(std::make_shared<LoopObject>()), scope(std::make_shared<Frame>()) {
    loop->stmt = &stmt;
    loop->sequence = &sequence;
    loop->size = sequence.size();
    loop->depth = depth;
    if (stmt.uses_loop) loop_value = Value::object(loop);
    scope->parent = around;
    scope->vars.reserve(4);
  }
  ~SplitThread() {  // a `loop` kept by the template reads nothing after the loop
    loop->sequence = nullptr;
    loop->size = 0;
  }
  SplitThread(const SplitThread&) = delete;
  SplitThread& operator=(const SplitThread&) = delete;

  Sequence sequence;
  std::shared_ptr<LoopObject> loop;
  Value loop_value;
  std::shared_ptr<Frame> scope;
};

struct SplitLoop {
  SplitLoop(const ForStmt& stmt, const Sequence& sequence, int depth, std::shared_ptr<Frame> around, int threads)
      : stmt(stmt), sequence(sequence), depth(depth), around(std::move(around)) {
    block_items = std::clamp(sequence.size() / (static_cast<size_t>(threads) * 32), kMinBlockItems, kMaxBlockItems);
    blocks = (sequence.size() + block_items - 1) / block_items;
    results.resize(blocks);
    stop_at = blocks;
  }
  ~SplitLoop() { stop_helpers(); }
  SplitLoop(const SplitLoop&) = delete;
  SplitLoop& operator=(const SplitLoop&) = delete;

  size_t first_item(size_t block) const { return block * block_items; }
  size_t end_item(size_t block) const { return std::min(sequence.size(), (block + 1) * block_items); }

  // The rest under the lock.
  bool may_claim() const { return next_claim < stop_at && next_claim - next_out < kBlocksAhead; }
  // A buffer for a block's text: one that served before, or one as large as blocks have been.
  std::string take_spare() {
    std::string text;
    if (spare.empty()) {
      try {
        text.reserve(block_bytes + block_bytes / 8);
      } catch (const std::bad_alloc&) {  // under the lock, on a helper: it grows as it goes
      }
    } else {
      text = std::move(spare.back());
      spare.pop_back();
    }
    return text;
  }
  void finish(size_t block, SplitBlock&& result) {
    block_bytes = std::max(block_bytes, result.text.size());
    if (result.stopped || result.error) stop_at = std::min(stop_at, block + 1);
    results[block] = std::move(result);
    results[block].done = true;
    changed.notify_all();
  }

  // No block is claimed any more; returns once the helpers have finished the ones they hold.
  void stop_helpers() {
    {
      std::lock_guard lock(mutex);
      stop_at = 0;
    }
    changed.notify_all();
    for (std::thread& helper : helpers)
      if (helper.joinable()) helper.join();
  }

  const ForStmt& stmt;
  const Sequence& sequence;
  const int depth;
  const std::shared_ptr<Frame> around;  // the scope the loop runs in
  size_t block_items = 0;
  size_t blocks = 0;
  std::vector<std::thread> helpers;

  std::mutex mutex;
  std::condition_variable changed;
  std::vector<SplitBlock> results;
  std::vector<std::string> spare;  // buffers of blocks written out, for the next ones
  size_t block_bytes = 0;          // the longest block's text so far
  size_t next_claim = 0;
  size_t stop_at = 0;   // no block from here on is claimed
  size_t next_out = 0;  // the first block not written out yet
};

// Whether some iteration ran its body to the end (for the loop's else branch).
bool Interpreter::render_split(const ForStmt& stmt, const Sequence& sequence, int depth) {
  SplitLoop split(stmt, sequence, depth, frame_, options_.loop_threads);
  SplitThread mine(stmt, sequence, depth, split.around);
  // The helpers start from this thread's state, copied now, before it moves on. `joined`
  // joins their threads before these are destroyed, on every way out.
  std::vector<std::unique_ptr<Interpreter>> helpers;
  for (int i = 1; i < options_.loop_threads && static_cast<size_t>(i) < split.blocks; ++i) {
    auto helper = std::make_unique<Interpreter>(store_, options_);
    helper->current_ = current_;
    helper->state_ = state_;
    helper->block_input_ = block_input_;
    helper->split_ = &split;
    helpers.push_back(std::move(helper));
  }
  struct Joined {
    SplitLoop& split;
    ~Joined() { split.stop_helpers(); }  // also when a block's error leaves here
  } joined{split};
  for (const auto& helper : helpers) {
    try {
      split.helpers.emplace_back([&split, h = helper.get()] {
        h->help_split(split);
        RenderMemory::settle_thread();  // the values it made are freed on other threads
      });
    } catch (const std::system_error&) {
      break;  // no more threads to be had: fewer helpers
    }
  }
  struct Unsplit {
    Interpreter& interp;
    ~Unsplit() {
      interp.split_ = nullptr;
      interp.split_in_order_ = false;
    }
  } unsplit{*this};
  split_ = &split;

  bool completed = false;
  size_t alone_from = split.blocks;  // the first block this thread renders alone, if any
  std::unique_lock lock(split.mutex);
  while (split.next_out < split.blocks) {
    SplitBlock& next = split.results[split.next_out];
    if (next.done) {
      if (next.stopped) {
        alone_from = split.next_out;
        break;
      }
      lock.unlock();
      write_out(next.text);
      completed = completed || next.completed_iteration;
      if (next.error) std::rethrow_exception(next.error);
      lock.lock();
      if (!next.text.empty()) {  // copied, not handed on: the buffer serves again
        next.text.clear();
        split.spare.push_back(std::move(next.text));
      }
      ++split.next_out;
      split.changed.notify_all();
      continue;
    }
    if (!split.may_claim()) {
      split.changed.wait(lock, [&] { return split.results[split.next_out].done; });
      continue;
    }
    const size_t block = split.next_claim++;
    if (block == split.next_out) {  // everything before it is out: straight to the output
      lock.unlock();
      split_in_order_ = true;
      {
        StateGuard guard(*this);
        frame_ = mine.scope;
        if (render_items(stmt, mine.sequence, *mine.loop, mine.loop_value, *mine.scope, split.first_item(block),
                         split.end_item(block)))
          completed = true;
      }
      split_in_order_ = false;
      lock.lock();
      if (!split_) {  // it met a side effect (stop_split): the rest on this thread
        alone_from = block + 1;
        break;
      }
      ++split.next_out;
      split.changed.notify_all();
      continue;
    }
    SplitBlock result;
    result.text = split.take_spare();
    lock.unlock();
    render_split_block(split, mine, block, result);
    lock.lock();
    split.finish(block, std::move(result));
  }
  lock.unlock();
  split.stop_helpers();
  split_ = nullptr;
  if (alone_from < split.blocks) {
    StateGuard guard(*this);
    frame_ = mine.scope;
    if (render_items(stmt, mine.sequence, *mine.loop, mine.loop_value, *mine.scope, split.first_item(alone_from),
                     sequence.size()))
      completed = true;
  }
  return completed;
}

// A helper thread: claims blocks until there are none left or the split stops.
void Interpreter::help_split(SplitLoop& split) {
  std::unique_ptr<SplitThread> mine;
  try {
    mine = std::make_unique<SplitThread>(split.stmt, split.sequence, split.depth, split.around);
  } catch (const std::bad_alloc&) {
    return;  // the other threads render the blocks
  }
  std::unique_lock lock(split.mutex);
  while (true) {
    split.changed.wait(lock, [&] { return split.next_claim >= split.stop_at || split.may_claim(); });
    if (split.next_claim >= split.stop_at) return;
    const size_t block = split.next_claim++;
    SplitBlock result;
    result.text = split.take_spare();
    lock.unlock();
    render_split_block(split, *mine, block, result);
    lock.lock();
    split.finish(block, std::move(result));
  }
}

// One block into result.text, on a thread that keeps it until its turn to be written out.
void Interpreter::render_split_block(SplitLoop& split, SplitThread& mine, size_t block, SplitBlock& result) {
  StateGuard guard(*this);
  out_ = &result.text;
  frame_ = mine.scope;
  try {
    result.completed_iteration = render_items(split.stmt, mine.sequence, *mine.loop, mine.loop_value, *mine.scope,
                                              split.first_item(block), split.end_item(block));
  } catch (const SplitStopped&) {
    result.stopped = true;
  } catch (...) {
    result.error = std::current_exception();
  }
}

void Interpreter::stop_split() {
  if (!split_in_order_) throw SplitStopped{};
  split_->stop_helpers();
  split_ = nullptr;
}

// A block's text for the output. Where the output streams, a block of some size is handed on
// as a piece of its own (the text left empty): copying it is work for the thread everyone waits
// on; smaller ones join the piece being gathered, which goes on once it is full.
void Interpreter::write_out(std::string& text) {
  if (!streamed_ || out_ != streamed_) {
    *out_ += text;
    return;
  }
  if (text.size() < kStreamPieceBytes / 8) {
    *out_ += text;
    if (out_->size() >= kStreamPieceBytes) flush_streamed();
    return;
  }
  if (!streamed_->empty()) flush_streamed();
  (*sink_)(std::move(text));
  text.clear();
}

}  // namespace gkebuild::jinja
