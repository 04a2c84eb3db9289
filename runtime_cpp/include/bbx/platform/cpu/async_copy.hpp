// bbx/platform/cpu/async_copy.hpp — the simulator's asynchronous global -> shared copies
// (cp.async semantics: the DSL's cpasync.CopyG2SOp, cp_async_commit_group, cp_async_wait_group).
//
// Per thread, copies are issued into an open group; commit closes it; wait(N) retires the oldest
// committed groups until at most N remain. A copy reads its source when it is issued and writes
// its destination only when its group is retired, so a kernel that reads the destination too
// early sees stale data here, as it may on hardware. A copy of `bytes` with a source size below
// it (cp.async's src-size operand) reads only the first `src_bytes` and writes zeros after them:
// with a source size of 0 it reads nothing and its write is all zeros, retired like any other. Uncommitted copies are not waited for (as
// PTX); copies still pending when the block ends are dropped with the block's shared memory.
//
// Checked mode (BBX_SIM_CHECK=1) additionally reports, naming both sites:
//   * any access (read or write, by any thread) to bytes an unretired copy will write;
//   * a copy whose source is outside every registered allocation (the global bounds check);
// and counts the copy as a write by the issuing thread both when issued and when retired, so
// other threads reading it before a barrier that follows the wait are shared-memory races.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <source_location>
#include <string>
#include <vector>

#include "bbx/arch/copy_async.hpp"
#include "bbx/platform/cpu/check.hpp"
#include "bbx/platform/cpu/sim.hpp"

namespace bbx::sim {
namespace detail {

struct AsyncCopy {
  char* dst = nullptr;
  int bytes = 0;
  unsigned char data[16] = {};
  std::source_location loc{};
};
struct PendingCopy {
  int bytes = 0;
  int tid = 0;
  std::source_location loc{};
};
struct ThreadAsync {
  std::vector<AsyncCopy> open;
  std::deque<std::vector<AsyncCopy>> committed;
};
// One per host thread, for the block it is running (a block runs on one host thread).
struct AsyncState {
  const Block* blk = nullptr;
  std::uint64_t first_epoch = 0;
  std::vector<ThreadAsync> threads;
  std::multimap<std::uintptr_t, PendingCopy> pending;  // destination start -> copy
};

// The work of the three entry points below. With the simulator's runtime object (sim.hpp) it is
// compiled there only, with the per-thread state: a unit sees these declarations, neither the
// state (whose constructor, destructor and TLS initialisation a unit would emit, used or not) nor
// any use of its containers (which every unit would instantiate).
BBX_SIM_FN void async_issue(void* dst, const void* src, int bytes, int src_bytes, std::source_location loc);
BBX_SIM_FN void async_commit();
BBX_SIM_FN void async_wait(int pending_groups, std::source_location loc);

#if defined(BBX_SIM_DEFINE_RUNTIME)
inline thread_local AsyncState async_state;

inline AsyncState& async_for(Block& b) {
  AsyncState& s = async_state;
  if (s.blk != &b || s.first_epoch != b.first_epoch) {
    s.blk = &b;
    s.first_epoch = b.first_epoch;
    s.threads.assign(static_cast<std::size_t>(b.nthreads), ThreadAsync{});
    s.pending.clear();
  }
  return s;
}

inline std::string shared_where(const Block& b, const void* p) {
  const char* c = static_cast<const char*>(p);
  if (c >= b.smem && c < b.smem + b.smem_cap)
    return "dynamic shared offset " + std::to_string(c - b.smem);
  return "shared address " + hex(p);
}

// Checked mode: an access to bytes that an unretired asynchronous copy will write.
inline void check_async_pending(const void* p, std::size_t bytes, bool is_write, const std::source_location& loc) {
  Thread* t = tl_thread;
  if (!t) return;
  AsyncState& s = async_state;
  if (s.blk != t->blk || s.first_epoch != t->blk->first_epoch || s.pending.empty()) return;
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  const auto hi = lo + bytes;
  for (auto it = s.pending.lower_bound(lo >= 16 ? lo - 16 : 0); it != s.pending.end() && it->first < hi; ++it) {
    if (it->first + static_cast<std::uintptr_t>(it->second.bytes) <= lo) continue;
    const PendingCopy& c = it->second;
    kernel_error(std::string(is_write ? "write to " : "read of ") + shared_where(*t->blk, p) + " at " +
                 site_str(loc) + ", which an asynchronous copy (cp.async) issued by thread " +
                 std::to_string(c.tid) + " at " + site_str(c.loc) +
                 " has not written yet: wait for it with cp_async_wait_group (and sync_threads "
                 "before other threads use it)");
  }
}

inline void retire(AsyncState& s, std::vector<AsyncCopy>& group, const std::source_location& loc) {
  for (AsyncCopy& c : group) {
    const auto key = reinterpret_cast<std::uintptr_t>(c.dst);
    for (auto it = s.pending.find(key); it != s.pending.end() && it->first == key; ++it) {
      if (it->second.loc.line() == c.loc.line() && it->second.bytes == c.bytes &&
          it->second.tid == tl_thread->tid) {
        s.pending.erase(it);
        break;
      }
    }
    if (config().checked) check_shared_access(c.dst, static_cast<std::size_t>(c.bytes), true, loc);
    std::memcpy(c.dst, c.data, static_cast<std::size_t>(c.bytes));
  }
}

// Installs the checked-mode hook when the simulator runtime is loaded (with the runtime object:
// there only).
inline const bool async_check_installed = (async_copy_check = &check_async_pending, true);

BBX_SIM_FN void async_issue(void* dst, const void* src, int bytes, int src_bytes, std::source_location loc) {
  Thread& t = cur("cp.async");
  Block& b = *t.blk;
  if (bytes <= 0 || bytes > 16) kernel_error("cp.async: a copy moves 1 to 16 bytes");
  if (src_bytes < 0 || src_bytes > bytes)
    kernel_error("cp.async: the source size must be between 0 and the copy's size");
  AsyncState& s = async_for(b);
  const std::source_location at = access_site_or(loc);
  if (src_bytes > 0) check_global_access(src, static_cast<std::size_t>(src_bytes), false, at);
  if (config().checked) check_shared_access(dst, static_cast<std::size_t>(bytes), true, at);
  AsyncCopy c;  // c.data is zeros past src_bytes (the zero fill)
  c.dst = static_cast<char*>(dst);
  c.bytes = bytes;
  c.loc = at;
  if (src_bytes > 0) std::memcpy(c.data, src, static_cast<std::size_t>(src_bytes));
  s.threads[static_cast<std::size_t>(t.tid)].open.push_back(c);
  s.pending.emplace(reinterpret_cast<std::uintptr_t>(dst), PendingCopy{bytes, t.tid, at});
}

BBX_SIM_FN void async_commit() {
  Thread& t = cur("cp_async_commit_group");
  AsyncState& s = async_for(*t.blk);
  ThreadAsync& ta = s.threads[static_cast<std::size_t>(t.tid)];
  ta.committed.push_back(std::move(ta.open));
  ta.open.clear();
}

BBX_SIM_FN void async_wait(int pending_groups, std::source_location loc) {
  Thread& t = cur("cp_async_wait_group");
  if (pending_groups < 0) kernel_error("cp_async_wait_group: the number of groups left pending must be >= 0");
  AsyncState& s = async_for(*t.blk);
  ThreadAsync& ta = s.threads[static_cast<std::size_t>(t.tid)];
  while (static_cast<int>(ta.committed.size()) > pending_groups) {
    retire(s, ta.committed.front(), loc);
    ta.committed.pop_front();
  }
}
#endif  // BBX_SIM_DEFINE_RUNTIME

}  // namespace detail

inline void async_copy_issue(void* dst, const void* src, int bytes, std::source_location loc) {
  detail::async_issue(dst, src, bytes, bytes, loc);
}
// cp.async with a source size: reads src_bytes (0..bytes) of src, zero-fills the rest of dst.
inline void async_copy_issue_zfill(void* dst, const void* src, int bytes, int src_bytes, std::source_location loc) {
  detail::async_issue(dst, src, bytes, src_bytes, loc);
}
inline void async_copy_commit() { detail::async_commit(); }
inline void async_copy_wait(int pending_groups, std::source_location loc) {
  detail::async_wait(pending_groups, loc);
}

}  // namespace bbx::sim
