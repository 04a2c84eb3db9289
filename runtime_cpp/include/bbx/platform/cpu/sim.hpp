// bbx/platform/cpu/sim.hpp — the CPU reference simulator's core: configuration, errors, the
// per-block fiber scheduler, block barriers and the generic wave collective.
//
// Execution model
//   * Every GPU thread of a block is a fiber (fiber.hpp); all fibers of a block run on one host
//     thread, cooperatively: a fiber runs until it finishes, reaches sync_threads() or a wave
//     collective (shuffle, vote, later MFMA). Blocks are spread over a pool of host threads.
//   * A barrier completes when every thread of the block has reached it (the last arrival
//     releases the others and carries on without a switch); a collective completes when every
//     lane of its group (a 32-lane DSL warp, or a whole 64-lane wave) has deposited its input —
//     the last arrival runs the collective's function over all lanes' inputs and writes every
//     lane's output.
//   * When no fiber can run and the block is not finished, the block is stuck: the scheduler
//     reports a partial-wave collective or a barrier deadlock, naming the threads involved.
//   * Kernel errors never throw across a context switch: the failing fiber records the error
//     and unwinds its own stack with an internal exception (FiberAbort) caught at its entry;
//     the scheduler then resumes every other started fiber with a cancel flag so it unwinds the
//     same way, and launch() rethrows the first error as bbx::sim::SimError on the caller.
//   * Hardware faults in kernel code — an integer division by zero (SIGFPE), an invalid memory
//     access (SIGSEGV, SIGBUS), a fiber's stack overflowing into its guard page — are kernel
//     errors too, naming the block and thread, instead of killing the process: a handler
//     (installed at the first launch; faults outside simulated threads go to the handler that
//     was there before) jumps back to the fiber's entry, abandoning the fiber's frames without
//     unwinding them, and the launch fails as above.
#pragma once

#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <source_location>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "bbx/config.hpp"
#include "bbx/platform/common.hpp"
#include "bbx/platform/cpu/fiber.hpp"

// ---- out-of-line code ------------------------------------------------------------------------
// The simulator's scheduler, reports and checkers (the functions marked BBX_SIM_FN here and in
// check.hpp) are inline by default: the simulator is header-only. A unit compiled with
// -DBBX_SIM_RUNTIME_EXTERN sees their declarations only and links an object that defines them,
// compiled once from a unit that defines BBX_SIM_RUNTIME_IMPL as well (bbx builds it per compiler
// and flags, runtime/prebuilt.py): compiling them is about half the build of a small kernel.
// The simulator's thread_local state with constructors (async_copy.hpp, experimental/
// sim_rendezvous.hpp), the functions that use its containers and the initialisers that install
// checked-mode hooks are defined there too: a unit would emit them, with what they call, and
// instantiate the containers' members whether its kernels use them or not (a tenth of the
// elementwise_add sample's build). The runtime unit includes bbx/bbx.hpp: all a unit can.
#if defined(BBX_SIM_RUNTIME_EXTERN)
#  define BBX_SIM_FN
#  if defined(BBX_SIM_RUNTIME_IMPL)
#    define BBX_SIM_DEFINE_RUNTIME 1
#  endif
#else
#  define BBX_SIM_FN inline
#  define BBX_SIM_DEFINE_RUNTIME 1
#endif

namespace bbx::sim {

// Every simulator error (kernel errors and rejected launches) reaches the caller as this.
struct SimError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ------------------------------------------------------------------------------------------
// Configuration: defaults from the environment (read once), changeable through the API between
// launches (not while a launch runs).
//   BBX_SIM_WAVE=64|32       wavefront size (default 64, AMD semantics)
//   BBX_SIM_ARCH=gfx942|gfx950|gfx90a   LDS size (64 KiB, 160 KiB, 64 KiB)
//   BBX_SIM_CHECK=1          checked mode (global bounds, shared races, uninitialised reads)
//   BBX_SIM_THREADS=N        host threads (default: hardware concurrency)
//   BBX_SIM_STACK=bytes      fiber stack size (default 64 KiB; suffix K or M allowed)
struct Config {
  int wave_size = 64;
  std::string arch = "gfx942";
  std::size_t lds_bytes = 64 * 1024;
  bool checked = false;
  int threads = 1;
  std::size_t stack_bytes = 64 * 1024;
};

BBX_SIM_FN std::size_t lds_bytes_for_arch(const std::string& arch);
BBX_SIM_FN int compute_units_for_arch(const std::string& arch);
namespace detail {
BBX_SIM_FN Config config_from_env();
}  // namespace detail

#if defined(BBX_SIM_DEFINE_RUNTIME)
BBX_SIM_FN std::size_t lds_bytes_for_arch(const std::string& arch) {
  if (arch == "gfx950") return 160 * 1024;
  if (arch == "gfx942" || arch == "gfx90a" || arch == "gfx940" || arch == "gfx941")
    return 64 * 1024;
  throw SimError("bbx sim: unknown architecture '" + arch + "' (known: gfx942, gfx950, gfx90a)");
}

// The compute units of the simulated GPU (MI300X: 304, MI355X: 256, MI250X GCD: 110).
BBX_SIM_FN int compute_units_for_arch(const std::string& arch) {
  if (arch == "gfx950") return 256;
  if (arch == "gfx90a") return 110;
  return 304;
}

namespace detail {
BBX_SIM_FN std::size_t parse_bytes(const char* s, std::size_t dflt) {
  if (!s || !*s) return dflt;
  char* end = nullptr;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (end && (*end == 'k' || *end == 'K')) v *= 1024;
  if (end && (*end == 'm' || *end == 'M')) v *= 1024 * 1024;
  return v ? static_cast<std::size_t>(v) : dflt;
}
BBX_SIM_FN Config config_from_env() {
  Config c;
  if (const char* w = std::getenv("BBX_SIM_WAVE")) {
    int v = std::atoi(w);
    if (v == 32 || v == 64) c.wave_size = v;
    else std::fprintf(stderr, "bbx sim: ignoring BBX_SIM_WAVE=%s (32 or 64)\n", w);
  }
  if (const char* a = std::getenv("BBX_SIM_ARCH"); a && *a) {
    c.arch = a;
    c.lds_bytes = lds_bytes_for_arch(c.arch);
  }
  if (const char* k = std::getenv("BBX_SIM_CHECK")) c.checked = *k && std::strcmp(k, "0") != 0;
  unsigned hw = std::thread::hardware_concurrency();
  c.threads = hw ? static_cast<int>(hw) : 1;
  if (const char* t = std::getenv("BBX_SIM_THREADS"); t && std::atoi(t) > 0) c.threads = std::atoi(t);
  c.stack_bytes = parse_bytes(std::getenv("BBX_SIM_STACK"), 64 * 1024);
  if (c.stack_bytes < 16 * 1024) c.stack_bytes = 16 * 1024;
  return c;
}
}  // namespace detail
#endif  // BBX_SIM_DEFINE_RUNTIME

inline Config& config() {
  static Config c = detail::config_from_env();
  return c;
}
inline void set_wave_size(int w) {
  if (w != 32 && w != 64) throw SimError("bbx sim: wave size must be 32 or 64");
  config().wave_size = w;
}
inline void set_arch(const std::string& arch) {
  config().lds_bytes = lds_bytes_for_arch(arch);
  config().arch = arch;
}
inline void set_checked(bool on) { config().checked = on; }
inline void set_threads(int n) { config().threads = n > 0 ? n : 1; }
inline void set_stack_bytes(std::size_t b) { config().stack_bytes = b < 16384 ? 16384 : b; }

namespace detail {

// Internal: unwinds a fiber's stack after an error or a cancellation. Not a std::exception so
// kernel code catching std::exception does not swallow it.
struct FiberAbort {};

enum class St : std::uint8_t { NotStarted, Ready, Barrier, Collective, Done };

inline bool same_site(const std::source_location& a, const std::source_location& b) {
  return a.line() == b.line() && a.column() == b.column() &&
         (a.file_name() == b.file_name() || std::strcmp(a.file_name(), b.file_name()) == 0);
}
BBX_SIM_FN std::string site_str(const std::source_location& l);
BBX_SIM_FN std::string dim_str(const dim3& d);
BBX_SIM_FN std::string ranges_str(std::vector<int> ids);  // "0-15, 17, 20-31"
#if defined(BBX_SIM_DEFINE_RUNTIME)
BBX_SIM_FN std::string site_str(const std::source_location& l) {
  if (l.line() == 0) return "<unknown>";
  return std::string(l.file_name()) + ":" + std::to_string(l.line());
}
BBX_SIM_FN std::string dim_str(const dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}
BBX_SIM_FN std::string ranges_str(std::vector<int> ids) {
  std::sort(ids.begin(), ids.end());
  std::string s;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!s.empty()) s += ", ";
    s += std::to_string(ids[i]);
    if (j > i) s += "-" + std::to_string(ids[j]);
    i = j + 1;
  }
  return s.empty() ? "none" : s;
}
#endif  // BBX_SIM_DEFINE_RUNTIME

struct CollSlot {
  const void* key = nullptr;  // identifies the operation and its value types
  std::source_location loc;
  const char* what = "";
  int group = 0;
  const void* in = nullptr;
  void* out = nullptr;
};

struct Block;

struct Thread {
  FiberContext ctx;
  Block* blk = nullptr;
  int tid = 0;  // linear thread id in the block
  dim3 idx;
  St st = St::NotStarted;
  bool started = false;
  bool cancel = false;
  int barriers = 0;  // barriers passed (completed)
  std::source_location bar_loc{};  // last barrier reached
  sigjmp_buf* fault_jump = nullptr;  // set while kernel code runs (fiber_entry)
  int fault_signal = 0;
  const void* fault_address = nullptr;
  CollSlot coll;
};

struct GroupState {
  int arrived = 0;
  const void* key = nullptr;
  std::source_location loc{};
  const char* what = "";
};

struct ShadowByte {
  std::uint64_t w_epoch = 0, r_epoch = 0;
  std::int32_t writer = -1, reader = -1;  // reader == -2: several readers
  bool wref = false;  // the write was an element reference (`t(i)`): its direction is a guess
  std::source_location wloc{}, rloc{};
};

struct Block {
  // launch geometry
  dim3 bidx, bdim, gdim;
  std::source_location launch_site{};  // where the kernel was launched (reports)
  int nthreads = 0;
  int wave = 64;
  bool checked = false;
  void (*invoke)(const void*) = nullptr;
  const void* payload = nullptr;
  // fibers and run queue (ring buffer: each thread is queued at most once)
  std::vector<Thread> th;
  std::vector<int> ring;
  int head = 0, count = 0;
  int done = 0;
  SchedulerContext sched;
  StackPool stacks;
  // barrier
  int bar_arrived = 0;
  bool bar_mismatch = false;
  std::source_location bar_loc{};
  // collectives: one state per 32-lane warp and per 64-lane wave
  std::vector<GroupState> g32, g64;
  // shared memory
  char* smem = nullptr;
  std::size_t smem_bytes = 0, smem_cap = 0;
  std::uint64_t epoch = 0, first_epoch = 1;
  std::vector<ShadowByte> shadow;                           // dynamic shared memory (checked)
  std::unordered_map<std::uintptr_t, ShadowByte> shadow_other;  // other __shared__ objects
  // error
  bool failed = false;
  std::string error;

  void push(int t) {
    ring[(head + count) % nthreads] = t;
    ++count;
  }
  std::string where() const { return "block " + dim_str(bidx); }
  // ", in the kernel launched at <file:line>" (empty when the launch site is not known)
  std::string launched() const {
    return launch_site.line() == 0 ? std::string() : ", in the kernel launched at " + site_str(launch_site);
  }
  void fail(std::string msg) {
    if (!failed) {
      failed = true;
      error = std::move(msg);
    }
  }
};

inline thread_local Thread* tl_thread = nullptr;

// Ctrl-C: the host that runs launches (bbx's launcher module) owns a flag that its SIGINT handler
// sets while a launch is in flight, and hands its address to the specialization once
// (bbx_spec_set_interrupt, bbx/platform/entry.hpp), with `interrupt_arm`, which a launch of a
// non-empty grid calls first (it makes sure the handler is installed). The simulator polls the
// flag between blocks and at every fiber switch, and stops the launch with an "interrupted"
// error when it is set. (A thread that runs long without a barrier or collective is stopped
// when it ends.)
inline const volatile std::sig_atomic_t* interrupt_flag = nullptr;
inline void (*interrupt_arm)() = nullptr;
inline bool interrupted() {
  const volatile std::sig_atomic_t* f = interrupt_flag;
  return f != nullptr && *f != 0;
}
inline constexpr const char* interrupted_message = "bbx sim: launch interrupted (SIGINT)";

[[noreturn]] BBX_SIM_FN void outside_kernel(const char* what);
BBX_SIM_FN std::string thread_str(const Thread& t);
#if defined(BBX_SIM_DEFINE_RUNTIME)
[[noreturn]] BBX_SIM_FN void outside_kernel(const char* what) {
  throw SimError(std::string("bbx sim: ") + what + " called outside a simulated kernel");
}
BBX_SIM_FN std::string thread_str(const Thread& t) {
  return "thread " + std::to_string(t.tid) + " " + dim_str(t.idx);
}
#endif  // BBX_SIM_DEFINE_RUNTIME
inline Thread& cur(const char* what) {
  Thread* t = tl_thread;
  if (!t) [[unlikely]]
    outside_kernel(what);
  return *t;
}
}  // namespace detail

// Stops the current kernel launch with an error naming the block and thread (or throws
// SimError directly when called from host code outside a kernel).
[[noreturn]] BBX_SIM_FN void kernel_error(const std::string& msg);
#if defined(BBX_SIM_DEFINE_RUNTIME)
[[noreturn]] BBX_SIM_FN void kernel_error(const std::string& msg) {
  detail::Thread* t = detail::tl_thread;
  if (!t) throw SimError("bbx sim: " + msg);
  t->blk->fail("bbx sim: " + t->blk->where() + " " + detail::thread_str(*t) + ": " + msg);
  throw detail::FiberAbort{};
}
#endif  // BBX_SIM_DEFINE_RUNTIME

namespace detail {

// Suspend the current fiber until released (or cancelled).
inline void block_here(Thread& t) {
  t.ctx.suspend();
  if (t.cancel) [[unlikely]] {
    if (std::uncaught_exceptions() == 0) throw FiberAbort{};
  }
}

// Every thread reached a barrier, not all at the same one: fail the block naming the sites.
[[noreturn]] BBX_SIM_FN void divergent_barrier(Block& b);
#if defined(BBX_SIM_DEFINE_RUNTIME)
[[noreturn]] BBX_SIM_FN void divergent_barrier(Block& b) {
  std::map<std::string, std::vector<int>> by_site;
  for (const Thread& o : b.th) by_site[site_str(o.bar_loc)].push_back(o.tid);
  std::string m = "deadlock: divergent sync_threads in " + b.where() + ":";
  for (auto& [site, ids] : by_site) m += " threads " + ranges_str(ids) + " wait at " + site + ";";
  b.fail("bbx sim: " + m);
  throw FiberAbort{};
}
#endif  // BBX_SIM_DEFINE_RUNTIME

inline void barrier(std::source_location loc) {
  Thread& t = cur("sync_threads");
  Block& b = *t.blk;
  if (t.cancel) [[unlikely]] {
    if (std::uncaught_exceptions() == 0) throw FiberAbort{};
    return;
  }
  t.bar_loc = loc;
  if (b.bar_arrived == 0) b.bar_loc = loc;
  else if (!same_site(b.bar_loc, loc)) b.bar_mismatch = true;
  if (++b.bar_arrived == b.nthreads) {
    if (b.bar_mismatch) divergent_barrier(b);
    b.bar_arrived = 0;
    ++b.epoch;
    for (Thread& o : b.th) {
      ++o.barriers;
      if (o.st == St::Barrier) {
        o.st = St::Ready;
        b.push(o.tid);
      }
    }
    return;
  }
  t.st = St::Barrier;
  block_here(t);
}

template <class In, class Out, class Fn>
inline constexpr char coll_tag = 0;

}  // namespace detail

// The generic wave collective. Every lane of the caller's group (group_size 32: the caller's
// 32-lane DSL warp; 64: its whole wavefront, only with wave size 64) calls this at the same
// call site with its own `in`. When the last lane arrives, `fn(ins, outs, group_size)` runs
// once: ins[i] / outs[i] point at lane i's input and output (lane i of the group, i.e. thread
// group_base + i); both are nullptr for lanes past the end of the block. Each lane gets its
// outs[] entry back. Lanes that never arrive (exited, at a barrier, at another collective) make
// the launch fail with a partial-wave error instead of hanging.
template <class In, class Out, class Fn>
inline Out wave_collective(const In& in, int group_size, Fn&& fn, const char* what,
                           std::source_location loc = std::source_location::current()) {
  using namespace detail;
  Thread& t = cur(what);
  Block& b = *t.blk;
  if (t.cancel) [[unlikely]] {
    if (std::uncaught_exceptions() == 0) throw FiberAbort{};
    return Out{};
  }
  if (group_size != 32 && group_size != 64)
    kernel_error(std::string(what) + ": collective group size must be 32 or 64");
  if (group_size > b.wave)
    kernel_error(std::string(what) + ": a 64-lane collective needs wave size 64 (the simulator "
                 "runs wave " + std::to_string(b.wave) + ")");
  const void* key = &coll_tag<In, Out, std::decay_t<Fn>>;
  const int g = t.tid / group_size;
  const int base = g * group_size;
  const int n = std::min(group_size, b.nthreads - base);
  GroupState& gs = group_size == 32 ? b.g32[g] : b.g64[g];
  Out out{};
  t.coll = CollSlot{key, loc, what, group_size, &in, &out};
  if (gs.arrived == 0) {
    gs.key = key;
    gs.loc = loc;
    gs.what = what;
  } else if (gs.key != key || !same_site(gs.loc, loc)) {
    std::vector<int> ids;
    for (int i = 0; i < n; ++i)
      if (b.th[base + i].st == St::Collective) ids.push_back(base + i);
    kernel_error(std::string("lanes of one wave reached different collectives: this thread is at ") +
                 what + " (" + site_str(loc) + ") while threads " + ranges_str(ids) + " wait at " +
                 gs.what + " (" + site_str(gs.loc) + ")");
  }
  if (++gs.arrived == n) {
    gs.arrived = 0;
    const In* ins[64];
    Out* outs[64];
    for (int i = 0; i < group_size; ++i) {
      if (i < n) {
        const Thread& o = b.th[base + i];
        ins[i] = static_cast<const In*>(o.coll.in);
        outs[i] = static_cast<Out*>(o.coll.out);
      } else {
        ins[i] = nullptr;
        outs[i] = nullptr;
      }
    }
    fn(static_cast<const In* const*>(ins), static_cast<Out* const*>(outs), group_size);
    for (int i = 0; i < n; ++i) {
      Thread& o = b.th[base + i];
      if (&o != &t) {
        o.st = St::Ready;
        b.push(o.tid);
      }
    }
    return out;
  }
  t.st = St::Collective;
  block_here(t);
  return out;
}

namespace detail {

// Per-host-thread simulator state, reused across blocks and launches.
struct Worker {
  Block blk;
  char* smem = nullptr;
  std::size_t smem_alloc = 0;
  ~Worker() {
    if (smem) ::operator delete(smem, std::align_val_t(256));
  }
  void ensure_smem(std::size_t bytes) {
    if (smem_alloc >= bytes) return;
    if (smem) ::operator delete(smem, std::align_val_t(256));
    smem = static_cast<char*>(::operator new(bytes, std::align_val_t(256)));
    smem_alloc = bytes;
  }
};

BBX_SIM_FN std::string stall_report(Block& b);
BBX_SIM_FN void fiber_entry(void* arg);
BBX_SIM_FN void resume(Block& b, Thread& t);
BBX_SIM_FN bool run_block(Block& b);
BBX_SIM_FN Worker& worker();
BBX_SIM_FN std::string fault_report(Block& b, const Thread& t);
BBX_SIM_FN void fault_handler(int sig, siginfo_t* info, void* context);
BBX_SIM_FN void install_fault_handlers();
BBX_SIM_FN void sim_assert_handler(const char* what, const char* file, int line);
// Runs the whole grid; throws SimError on the first kernel error. `all_resident` (a cooperative
// launch): every block at once, each on a host thread of its own.
BBX_SIM_FN void run_grid(void (*invoke)(const void*), const void* payload, dim3 grid, dim3 block,
                         std::size_t smem_bytes, const std::source_location& site,
                         bool all_resident = false);

#if defined(BBX_SIM_DEFINE_RUNTIME)
// Nothing can run and the block is unfinished: explain why.
BBX_SIM_FN std::string stall_report(Block& b) {
  auto state_str = [](const Thread& o) -> std::string {
    switch (o.st) {
      case St::Done: return "exited";
      case St::Barrier: return "wait at sync_threads " + site_str(o.bar_loc);
      case St::Collective:
        return std::string("wait at ") + o.coll.what + " " + site_str(o.coll.loc) + " (group of " +
               std::to_string(o.coll.group) + ")";
      default: return "runnable";
    }
  };
  for (const Thread& t : b.th) {
    if (t.st != St::Collective) continue;
    const int gsz = t.coll.group, base = t.tid / gsz * gsz;
    const int n = std::min(gsz, b.nthreads - base);
    std::vector<int> arrived;
    std::map<std::string, std::vector<int>> missing;
    for (int i = 0; i < n; ++i) {
      const Thread& o = b.th[base + i];
      if (o.st == St::Collective && o.coll.key == t.coll.key && same_site(o.coll.loc, t.coll.loc))
        arrived.push_back(o.tid);
      else
        missing[state_str(o)].push_back(o.tid);
    }
    std::string m = "bbx sim: partial-wave collective in " + b.where() + ": " + t.coll.what + " at " +
                    site_str(t.coll.loc) + " over " + (gsz == 32 ? "warp " : "wave ") +
                    std::to_string(base / gsz) + " (threads " + std::to_string(base) + "-" +
                    std::to_string(base + n - 1) + "): threads " + ranges_str(arrived) +
                    " arrived, but";
    bool first = true;
    for (auto& [s, ids] : missing) {
      m += std::string(first ? "" : ";") + " threads " + ranges_str(ids) + " " + s;
      first = false;
    }
    return m;
  }
  std::map<std::string, std::vector<int>> by_state;
  for (const Thread& o : b.th) {
    std::string s = state_str(o);
    s += o.barriers ? " (after " + std::to_string(o.barriers) + " completed barriers)"
                    : " (no barrier completed)";
    by_state[s].push_back(o.tid);
  }
  std::string m = "bbx sim: deadlock at sync_threads in " + b.where() + ":";
  for (auto& [s, ids] : by_state) m += " threads " + ranges_str(ids) + " " + s + ";";
  return m;
}

// The kernel error of a hardware fault in thread `t` (see fault_handler).
BBX_SIM_FN std::string fault_report(Block& b, const Thread& t) {
  std::string what;
  const auto* address = static_cast<const char*>(t.fault_address);
  const Stack& stack = b.stacks[static_cast<std::size_t>(t.tid)];
  const auto* guard = static_cast<const char*>(stack.base);
  if (t.fault_signal == SIGFPE) {
    what = "integer division by zero (SIGFPE) in kernel code; an empty tensor or a zero extent "
           "where the kernel divides by one?";
  } else if (address >= guard && address < guard + stack.guard) {
    what = "stack overflow: the thread used more than its " + std::to_string(stack.size) +
           " bytes of stack (set BBX_SIM_STACK to give it more)";
  } else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", t.fault_address);
    what = std::string("invalid memory access at ") + buf +
           (t.fault_signal == SIGBUS ? " (SIGBUS)" : " (SIGSEGV)") +
           " in kernel code; run with BBX_SIM_CHECK=1 to find the access";
  }
  return "bbx sim: " + b.where() + " " + thread_str(t) + ": " + what + b.launched();
}

BBX_SIM_FN void fiber_entry(void* arg) {
  Thread& t = *static_cast<Thread*>(arg);
  Block& b = *t.blk;
  sigjmp_buf fault;
  if (sigsetjmp(fault, 0) == 0) {  // 0: the fault handler runs with SA_NODEFER, no mask to restore
    t.fault_jump = &fault;
    try {
      b.invoke(b.payload);
    } catch (FiberAbort&) {
    } catch (SimError& e) {
      b.fail(e.what());
    } catch (std::exception& e) {
      b.fail("bbx sim: " + b.where() + " " + thread_str(t) + ": kernel threw: " + e.what());
    } catch (...) {
      b.fail("bbx sim: " + b.where() + " " + thread_str(t) + ": kernel threw an unknown exception");
    }
  } else {
    b.fail(fault_report(b, t));
  }
  t.fault_jump = nullptr;
  t.st = St::Done;
  ++b.done;
  t.ctx.finish();
}

BBX_SIM_FN void resume(Block& b, Thread& t) {
  if (!t.started) {
    t.started = true;
    t.ctx.create(b.stacks[static_cast<std::size_t>(t.tid)], &fiber_entry, &t, &b.sched);
  }
  t.st = St::Ready;
  tl_thread = &t;
  t.ctx.resume();
  tl_thread = nullptr;
}

// Runs one block to completion (or failure). Returns false on failure (message in b.error).
BBX_SIM_FN bool run_block(Block& b) {
  const int n = b.nthreads;
  b.failed = false;
  b.error.clear();
  b.done = 0;
  b.head = 0;
  b.count = 0;
  b.bar_arrived = 0;
  b.bar_mismatch = false;
  b.first_epoch = ++b.epoch;
  if (b.checked) b.shadow_other.clear();
  b.th.resize(static_cast<std::size_t>(n));
  b.ring.resize(static_cast<std::size_t>(n));
  b.g32.assign(static_cast<std::size_t>((n + 31) / 32), GroupState{});
  b.g64.assign(static_cast<std::size_t>((n + 63) / 64), GroupState{});
  if (!b.stacks.reserve(static_cast<std::size_t>(n), config().stack_bytes))
    throw SimError("bbx sim: could not map fiber stacks");
  for (int i = 0; i < n; ++i) {
    Thread& t = b.th[static_cast<std::size_t>(i)];
    t.blk = &b;
    t.tid = i;
    t.idx = dim3(i % b.bdim.x, (i / b.bdim.x) % b.bdim.y, i / (b.bdim.x * b.bdim.y));
    t.st = St::NotStarted;
    t.started = false;
    t.cancel = false;
    t.barriers = 0;
    t.bar_loc = std::source_location{};
    t.coll = CollSlot{};
    b.push(i);
  }
  while (b.count > 0 && !b.failed) {
    if (interrupted()) [[unlikely]] {
      b.fail(interrupted_message);
      break;
    }
    Thread& t = b.th[static_cast<std::size_t>(b.ring[b.head])];
    b.head = (b.head + 1) % n;
    --b.count;
    resume(b, t);
  }
  if (!b.failed && b.done != n) b.fail(stall_report(b));
  if (b.failed) {  // unwind every started fiber on its own stack
    for (Thread& t : b.th) {
      if (t.st == St::Done) continue;
      if (!t.started) {
        t.st = St::Done;
        continue;
      }
      t.cancel = true;
      resume(b, t);
      if (t.st != St::Done) {
        // A destructor blocked again during unwinding: give up on this fiber (its stack is
        // simply reused; nothing else refers to it).
        t.st = St::Done;
      }
    }
    return false;
  }
  return true;
}

BBX_SIM_FN Worker& worker() {
  static thread_local Worker w;
  return w;
}

// Hardware faults (SIGFPE, SIGSEGV, SIGBUS) of simulated threads become kernel errors: the
// handler jumps back to the faulting fiber's entry; a fault anywhere else goes to the handler
// that was installed before (or the default action, which ends the process as it would have).
struct FaultHandlers {
  static constexpr int signals[3] = {SIGFPE, SIGSEGV, SIGBUS};
  struct sigaction previous[3];
};
inline FaultHandlers& fault_handlers() {
  static FaultHandlers h;
  return h;
}

BBX_SIM_FN void fault_handler(int sig, siginfo_t* info, void* context) {
  Thread* t = tl_thread;
  if (t != nullptr && t->fault_jump != nullptr) {
    t->fault_signal = sig;
    t->fault_address = info ? info->si_addr : nullptr;
    siglongjmp(*t->fault_jump, 1);
  }
  FaultHandlers& h = fault_handlers();
  for (int i = 0; i < 3; ++i) {
    if (FaultHandlers::signals[i] != sig) continue;
    const struct sigaction& before = h.previous[i];
    if ((before.sa_flags & SA_SIGINFO) && before.sa_sigaction != nullptr) {
      before.sa_sigaction(sig, info, context);
      return;
    }
    if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN) {
      before.sa_handler(sig);
      return;
    }
  }
  std::signal(sig, SIG_DFL);  // returning re-executes the faulting instruction: default action
}

// Once per process (per copy of the simulator runtime): the handlers, and for each host thread
// that runs blocks an alternate signal stack, so that a fiber whose stack overflowed can still
// be reported.
BBX_SIM_FN void install_fault_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    FaultHandlers& h = fault_handlers();
    for (int i = 0; i < 3; ++i) {
      struct sigaction action {};
      action.sa_sigaction = &fault_handler;
      action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
      sigemptyset(&action.sa_mask);
      sigaction(FaultHandlers::signals[i], &action, &h.previous[i]);
    }
  });
  static thread_local bool has_stack = false;
  if (!has_stack) {
    has_stack = true;
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
      static thread_local std::vector<char> alt(64 * 1024);
      stack_t mine{};
      mine.ss_sp = alt.data();
      mine.ss_size = alt.size();
      sigaltstack(&mine, nullptr);
    }
  }
}

BBX_SIM_FN void sim_assert_handler(const char* what, const char* file, int line) {
  if (tl_thread) kernel_error(std::string("BBX_ASSERT failed: ") + what + " at " + file + ":" +
                              std::to_string(line));
  // outside a kernel: fall through to the default print-and-abort
}

BBX_SIM_FN void run_grid(void (*invoke)(const void*), const void* payload, dim3 grid, dim3 block,
                         std::size_t smem_bytes, const std::source_location& site,
                         bool all_resident) {
  const Config& cfg = config();
  if (grid.x < 0 || grid.y < 0 || grid.z < 0 || block.x <= 0 || block.y <= 0 || block.z <= 0)
    throw SimError("bbx sim: launch rejected: grid " + dim_str(grid) + " must not be negative "
                   "and block " + dim_str(block) + " must be positive");
  if (block.volume() > 1024)
    throw SimError("bbx sim: launch rejected: block " + dim_str(block) + " has " +
                   std::to_string(block.volume()) + " threads (at most 1024)");
  if (grid.volume() == 0) return;  // an empty problem: nothing runs (as on every target)
  if (interrupt_arm != nullptr) interrupt_arm();
  if (smem_bytes > cfg.lds_bytes)
    throw SimError("bbx sim: launch rejected: dynamic shared memory of " +
                   std::to_string(smem_bytes) + " bytes exceeds the LDS of " + cfg.arch + " (" +
                   std::to_string(cfg.lds_bytes) + " bytes)");
  ::bbx::detail::assert_handler() = &sim_assert_handler;

  const long long total = grid.volume();
  if (all_resident && total > compute_units_for_arch(cfg.arch))
    throw SimError("bbx sim: cooperative launch rejected: grid " + dim_str(grid) + " has " +
                   std::to_string(total) + " blocks, more than can be resident at once (one per "
                   "compute unit of " + cfg.arch + ": " +
                   std::to_string(compute_units_for_arch(cfg.arch)) + ")");
  // A cooperative launch keeps every block resident: one host thread per block, all at once.
  const int nworkers = static_cast<int>(all_resident ? total
                                                     : std::min<long long>(cfg.threads, total));
  std::atomic<long long> next{0};
  std::atomic<bool> stop{false};
  // Blocks are handed out in increasing linear order and a started block always finishes, so
  // keeping the error of the lowest failing block makes the report independent of host timing.
  std::mutex mu;
  std::string err;
  long long err_block = total;
  const std::size_t smem_cap = cfg.lds_bytes;
  auto work = [&]() {
    try {
      install_fault_handlers();
      Worker& w = worker();
      w.ensure_smem(smem_cap);
      Block& b = w.blk;
      b.bdim = block;
      b.gdim = grid;
      b.launch_site = site;
      b.nthreads = static_cast<int>(block.volume());
      b.wave = cfg.wave_size;
      b.checked = cfg.checked;
      b.invoke = invoke;
      b.payload = payload;
      b.smem = w.smem;
      b.smem_bytes = smem_bytes;
      b.smem_cap = smem_cap;
      if (b.checked && b.shadow.size() < smem_cap) b.shadow.resize(smem_cap);
      while (!stop.load(std::memory_order_relaxed)) {
        if (interrupted()) [[unlikely]] {
          std::lock_guard<std::mutex> lk(mu);
          err_block = -1;
          err = interrupted_message;
          stop = true;
          break;
        }
        const long long i = next.fetch_add(1, std::memory_order_relaxed);
        if (i >= total) break;
        b.bidx = dim3(static_cast<int>(i % grid.x), static_cast<int>((i / grid.x) % grid.y),
                      static_cast<int>(i / (static_cast<long long>(grid.x) * grid.y)));
        if (!run_block(b)) {
          std::lock_guard<std::mutex> lk(mu);
          if (b.error == interrupted_message) err_block = -1;
          if (i < err_block || b.error == interrupted_message) {
            err_block = i;
            err = b.error;
          }
          stop = true;
        }
      }
    } catch (std::exception& e) {
      std::lock_guard<std::mutex> lk(mu);
      if (err.empty()) err = e.what();
      stop = true;
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(nworkers > 0 ? nworkers - 1 : 0));
  for (int i = 1; i < nworkers; ++i) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  if (!err.empty()) throw SimError(err);
}
#endif  // BBX_SIM_DEFINE_RUNTIME

}  // namespace detail
}  // namespace bbx::sim
