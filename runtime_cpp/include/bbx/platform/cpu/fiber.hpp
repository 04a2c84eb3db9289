// bbx/platform/cpu/fiber.hpp — execution contexts and stacks for the simulator's fibers.
//
// Context switching uses Boost.Context's fcontext (no syscall per switch; link -lboost_context,
// Debian package libboost-context-dev). Define BBX_SIM_UCONTEXT to use POSIX ucontext instead
// (no extra library, but every swapcontext makes a sigprocmask syscall: several times slower).
//
// Stacks come from a per-host-thread pool: one mmap'ed region per slot, reused for every block
// that host thread runs, with an inaccessible guard page below each stack so that an overflow
// faults immediately instead of corrupting a neighbouring fiber.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#if !defined(BBX_SIM_UCONTEXT) && !__has_include(<boost/context/detail/fcontext.hpp>)
#  define BBX_SIM_UCONTEXT 1
#endif

#if defined(BBX_SIM_UCONTEXT)
#  include <ucontext.h>
#else
#  include <boost/context/detail/fcontext.hpp>
#endif

namespace bbx::sim::detail {

inline std::size_t page_size() {
  static const std::size_t p = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return p;
}

// A reusable stack: [base, base + guard) is PROT_NONE, [base + guard, base + guard + size) usable.
struct Stack {
  void* base = nullptr;
  std::size_t guard = 0, size = 0;
  void* lo() const { return static_cast<char*>(base) + guard; }
  void* hi() const { return static_cast<char*>(base) + guard + size; }
};

class StackPool {
 public:
  StackPool() = default;
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool() { release(); }

  // Make sure at least `n` stacks of `bytes` usable bytes exist (re-creates them if the size
  // changed). Returns false if memory could not be mapped.
  bool reserve(std::size_t n, std::size_t bytes) {
    const std::size_t pg = page_size();
    bytes = (bytes + pg - 1) / pg * pg;
    if (bytes != size_) {
      release();
      size_ = bytes;
    }
    while (stacks_.size() < n) {
      const std::size_t total = bytes + pg;
      void* p = ::mmap(nullptr, total, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) return false;
      ::mprotect(p, pg, PROT_NONE);  // guard page below the stack (stacks grow down)
      stacks_.push_back(Stack{p, pg, bytes});
    }
    return true;
  }
  const Stack& operator[](std::size_t i) const { return stacks_[i]; }

 private:
  void release() {
    for (auto& s : stacks_) ::munmap(s.base, s.guard + s.size);
    stacks_.clear();
  }
  std::vector<Stack> stacks_;
  std::size_t size_ = 0;
};

// One-directional handles: the scheduler resumes a fiber, the fiber suspends back to the
// scheduler. `entry(arg)` must never return; it ends with `finish()`.
#if defined(BBX_SIM_UCONTEXT)
struct SchedulerContext {
  ucontext_t uc;
};
struct FiberContext {
  ucontext_t uc;
  SchedulerContext* sched = nullptr;
  static void trampoline(unsigned hi, unsigned lo, unsigned fhi, unsigned flo) {
    auto* arg = reinterpret_cast<void*>((static_cast<std::uintptr_t>(hi) << 32) | lo);
    auto* fn = reinterpret_cast<void (*)(void*)>((static_cast<std::uintptr_t>(fhi) << 32) | flo);
    fn(arg);
  }
  void create(const Stack& st, void (*entry)(void*), void* arg, SchedulerContext* s) {
    sched = s;
    ::getcontext(&uc);
    uc.uc_stack.ss_sp = st.lo();
    uc.uc_stack.ss_size = st.size;
    uc.uc_link = nullptr;
    auto a = reinterpret_cast<std::uintptr_t>(arg);
    auto f = reinterpret_cast<std::uintptr_t>(entry);
    ::makecontext(&uc, reinterpret_cast<void (*)()>(&trampoline), 4,
                  static_cast<unsigned>(a >> 32), static_cast<unsigned>(a),
                  static_cast<unsigned>(f >> 32), static_cast<unsigned>(f));
  }
  void resume() { ::swapcontext(&sched->uc, &uc); }   // scheduler -> fiber
  void suspend() { ::swapcontext(&uc, &sched->uc); }  // fiber -> scheduler
  [[noreturn]] void finish() {
    ::setcontext(&sched->uc);
    __builtin_unreachable();
  }
};
#else
namespace bctx = boost::context::detail;
struct SchedulerContext {
  bctx::fcontext_t ctx = nullptr;
};
struct FiberContext {
  bctx::fcontext_t ctx = nullptr;
  SchedulerContext* sched = nullptr;
  void (*entry)(void*) = nullptr;
  void* arg = nullptr;
  static void trampoline(bctx::transfer_t t) {
    auto* self = static_cast<FiberContext*>(t.data);
    self->sched->ctx = t.fctx;
    self->entry(self->arg);
  }
  void create(const Stack& st, void (*e)(void*), void* a, SchedulerContext* s) {
    sched = s;
    entry = e;
    arg = a;
    ctx = bctx::make_fcontext(st.hi(), st.size, &trampoline);
  }
  void resume() {  // scheduler -> fiber; returns when the fiber suspends or finishes
    bctx::transfer_t t = bctx::jump_fcontext(ctx, this);
    ctx = t.fctx;
  }
  void suspend() {  // fiber -> scheduler; returns when resumed
    bctx::transfer_t t = bctx::jump_fcontext(sched->ctx, nullptr);
    sched->ctx = t.fctx;
  }
  [[noreturn]] void finish() {
    bctx::jump_fcontext(sched->ctx, nullptr);
    __builtin_unreachable();
  }
};
#endif

}  // namespace bbx::sim::detail
