// run_isolated: the child side (open the store, run the games, stream
// frames), the parent side (read frames, deliver in order, restart after a
// death) and the in-process baseline.
//
// Frames on the result pipe: kind u8, game index u32, length u32, payload.
// Which games are in flight is kept in shared memory (Running), not sent.
// A death is reported on a second pipe by the child's signal handler (one
// fixed-size write, async-signal-safe), so it can never land inside a frame
// another thread was writing.

#include "warlog/replay/isolate.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>

#include "isolate_detail.hpp"
#include "warlog/replay/batch.hpp"
#include "warlog/store/page_walk.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

void Outbox::flush() {
  if (!records_.empty()) emit_(std::exchange(records_, {}));
}

bool isolation_disabled() noexcept {
  const char* v = std::getenv("WARLOG_NO_ISOLATION");
  return v != nullptr && std::string_view(v) == "1";
}

namespace {

struct Pipe {
  int read = -1, write = -1;
  static Pipe make() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
    return Pipe{fds[0], fds[1]};
  }
};

std::string read_all(int fd) {
  std::string s;
  char buf[65536];
  for (;;) {
    const auto n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    s.append(buf, static_cast<std::size_t>(n));
  }
  return s;
}

}  // namespace

namespace detail {

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

std::optional<store::DamagedPage> walk_in_child(const std::string& store) {
  Pipe p = Pipe::make();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(p.read);
    auto found = store::find_damaged_page(store);
    if (found && *found) {
      std::string out(reinterpret_cast<const char*>(&(*found)->page), sizeof(std::uint64_t));
      out += (*found)->what;
      [[maybe_unused]] const auto n = ::write(p.write, out.data(), out.size());
    }
    ::_exit(0);
  }
  ::close(p.write);
  if (pid < 0) {
    ::close(p.read);
    return std::nullopt;
  }
  const std::string bytes = read_all(p.read);
  ::close(p.read);
  wait_for(pid);
  if (bytes.size() < sizeof(std::uint64_t)) return std::nullopt;
  store::DamagedPage page;
  std::memcpy(&page.page, bytes.data(), sizeof page.page);
  page.what = bytes.substr(sizeof page.page);
  return page;
}

}  // namespace detail

namespace {

using detail::wait_for;
using detail::walk_in_child;

enum class Kind : std::uint8_t { Selected = 1, Begin, Part, End, Error, Internal, Done };
constexpr std::uint32_t kNoGame = 0xFFFFFFFF;

void put_u32(std::string& s, std::uint32_t v) { s.append(reinterpret_cast<const char*>(&v), sizeof v); }
std::uint32_t get_u32(std::string_view s, std::size_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, s.data() + at, sizeof v);
  return v;
}

std::string encode_records(const std::vector<Record>& records) {
  std::string out;
  for (const auto& r : records) {
    put_u32(out, r.tag);
    put_u32(out, static_cast<std::uint32_t>(r.bytes.size()));
    out += r.bytes;
  }
  return out;
}

std::vector<Record> decode_records(std::string_view s) {
  std::vector<Record> out;
  for (std::size_t at = 0; at + 8 <= s.size();) {
    Record r{get_u32(s, at), {}};
    const std::size_t n = get_u32(s, at + 4);
    r.bytes.assign(s.substr(at + 8, n));
    at += 8 + n;
    out.push_back(std::move(r));
  }
  return out;
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGABRT: return "SIGABRT";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    default: return fmt::format("signal {}", sig);
  }
}

// --- The child ----------------------------------------------------------------------
struct Fault {
  std::uint32_t magic = 0;
  std::int32_t signal = 0;
  std::uint32_t index = kNoGame;  // the game the faulting thread was running
  std::uint32_t has_page = 0;
  std::uint64_t page = 0;
};
constexpr std::uint32_t kFaultMagic = 0x574C4654;  // "WLFT"

// What each of the child's threads is running, in memory shared with the
// parent (MAP_SHARED): read after a death to know the games in flight,
// without a pipe message (and a wakeup of the parent) per game begun.
constexpr std::size_t kRunningSlots = 1024;  // threads in a child; more go uncounted
struct Running {
  std::atomic<std::uint32_t> index[kRunningSlots];
};
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

std::atomic<int> g_fault_fd{-1};
std::atomic<std::uintptr_t> g_map_base{0};
std::atomic<std::size_t> g_map_bytes{0};
std::atomic<std::size_t> g_page_size{0};
thread_local std::uint32_t t_current = kNoGame;

extern "C" void on_fault(int sig, siginfo_t* info, void*) {
  Fault f;
  f.magic = kFaultMagic;
  f.signal = sig;
  f.index = t_current;
  // Only a fault the kernel raised has an address (si_code > 0); a raise()
  // or kill() puts a pid where si_addr would be.
  if ((sig == SIGSEGV || sig == SIGBUS) && info != nullptr && info->si_code > 0) {
    const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
    const auto base = g_map_base.load(), bytes = g_map_bytes.load(), psize = g_page_size.load();
    if (psize != 0 && addr >= base && addr - base < bytes) {
      f.has_page = 1;
      f.page = (addr - base) / psize;
    }
  }
  [[maybe_unused]] const auto n = ::write(g_fault_fd.load(), &f, sizeof f);
  ::raise(sig);  // SA_RESETHAND: the default action, death by this signal
}

void install_fault_handlers(int fault_fd) {
  g_fault_fd = fault_fd;
  // The main thread gets a stack of its own for the handler: a runaway
  // recursion over a cyclic tree faults on its guard page.
  static char alt[64 * 1024];
  stack_t st{};
  st.ss_sp = alt;
  st.ss_size = sizeof alt;
  ::sigaltstack(&st, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) ::sigaction(sig, &sa, nullptr);
}

class FrameWriter {
 public:
  explicit FrameWriter(int fd) : fd_(fd) {}
  void send(Kind kind, std::uint32_t index, std::string_view payload) {
    std::string frame;
    frame.reserve(9 + payload.size());
    frame.push_back(static_cast<char>(kind));
    put_u32(frame, index);
    put_u32(frame, static_cast<std::uint32_t>(payload.size()));
    frame.append(payload);
    std::lock_guard lock(mutex_);
    for (std::size_t at = 0; at < frame.size();) {
      const auto n = ::write(fd_, frame.data() + at, frame.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ::_exit(3);  // the parent is gone: nobody to report to
      at += static_cast<std::size_t>(n);
    }
  }

 private:
  int fd_;
  std::mutex mutex_;
};

std::string error_payload(const Error& e) {
  std::string p(1, static_cast<char>(e.code));
  return p + e.message;
}

// Runs `games` (indices into `ids`) and exits. `ids` empty and `select_first`:
// chooses them first and sends them.
[[noreturn]] void child_main(const IsolatedJob& job, std::vector<core::GameId> ids, std::vector<std::uint32_t> games,
                             bool select_first, unsigned jobs, int out_fd, int fault_fd, Running* running) {
  install_fault_handlers(fault_fd);
  // Everything the child reports goes through the pipe; what LMDB prints
  // itself before it aborts ("mdb.c:5921: Assertion 'IS_LEAF(mp)' failed")
  // would be a second line, so its stderr goes nowhere.
  if (const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC); null >= 0) {
    ::dup2(null, STDERR_FILENO);
    ::close(null);
  }
  FrameWriter out(out_fd);
  {
    auto archive = Archive::open(job.store, job.mode);
    if (!archive) {
      out.send(Kind::Error, kNoGame, error_payload(archive.error()));
      ::_exit(0);
    }
    const auto extent = archive->store().map_extent();
    g_map_base = reinterpret_cast<std::uintptr_t>(extent.base);
    g_map_bytes = extent.bytes;
    g_page_size = extent.page_size;
    if (select_first) {
      auto chosen = job.select(*archive);
      if (!chosen) {
        out.send(Kind::Error, kNoGame, error_payload(chosen.error()));
        ::_exit(0);
      }
      ids = std::move(*chosen);
      std::string payload(reinterpret_cast<const char*>(ids.data()), ids.size() * sizeof(core::GameId));
      out.send(Kind::Selected, kNoGame, payload);
      games.resize(ids.size());
      for (std::uint32_t i = 0; i < games.size(); ++i) games[i] = i;
    }
    std::atomic<std::size_t> next_slot{0};
    parallel_for(
        games.size(), jobs,
        [&](std::size_t k) {
          const std::uint32_t i = games[k];
          thread_local const std::size_t slot = next_slot++;
          t_current = i;
          if (slot < kRunningSlots) {
            running->index[slot] = i;
          } else {
            out.send(Kind::Begin, i, {});
          }
          Outbox box([&](std::vector<Record>&& r) { out.send(Kind::Part, i, encode_records(r)); });
          try {
            job.run(*archive, ids[i], box);
          } catch (const std::exception& e) {
            out.send(Kind::Internal, i, e.what());
          } catch (...) {
            out.send(Kind::Internal, i, "unknown exception");
          }
          out.send(Kind::End, i, encode_records(box.take()));
          if (slot < kRunningSlots) running->index[slot] = kNoGame;
          t_current = kNoGame;
        },
        {});
    if (job.finish) {
      if (auto f = job.finish(*archive); !f) {
        out.send(Kind::Error, kNoGame, error_payload(f.error()));
        ::_exit(0);
      }
    }
  }  // the store is closed before Done: a writer's last commit is out
  out.send(Kind::Done, kNoGame, {});
  ::_exit(0);
}

// --- The parent -----------------------------------------------------------------------
struct Slot {
  std::vector<std::vector<Record>> parts;  // not yet delivered
  bool begun = false, ended = false, lost = false, delivered_some = false;
  LostGame why;
};

class Parent {
 public:
  Parent(const IsolatedJob& job, const IsolatedSink& sink) : job_(job), sink_(sink) {}

  Expected<IsolatedRun> run() {
    std::vector<std::uint32_t> suspects;
    for (;;) {
      std::vector<std::uint32_t> list;
      if (!suspects.empty()) {
        list = suspects;
      } else {
        for (std::uint32_t i = 0; i < slots_.size(); ++i) {
          if (!slots_[i].ended && !slots_[i].lost) list.push_back(i);
        }
        if (selected_ && list.empty()) break;
      }
      auto outcome = run_child(list, suspects.empty() ? job_.jobs : 1);
      if (!outcome) return tl::unexpected(outcome.error());
      if (*outcome == Outcome::Finished) {
        suspects.clear();
        continue;
      }
      if (list.empty()) {  // the first child chose the games itself: all of them were its
        for (std::uint32_t i = 0; i < slots_.size(); ++i) list.push_back(i);
      }
      // It died. Which game killed it: the one its handler named, or the
      // only one in flight; otherwise run those in flight again one by one.
      std::vector<std::uint32_t> inflight;
      for (std::uint32_t i : list) {
        if (slots_[i].begun && !slots_[i].ended && !slots_[i].lost) inflight.push_back(i);
      }
      std::optional<std::uint32_t> culprit;
      if (std::find(inflight.begin(), inflight.end(), fault_.index) != inflight.end()) {
        culprit = fault_.index;
      } else if (inflight.size() == 1) {
        culprit = inflight.front();
      } else if (inflight.empty()) {
        // Between games (opening the store again, or finishing): blame the
        // first game not done, so each death moves the run on.
        auto first = std::find_if(list.begin(), list.end(), [&](std::uint32_t i) {
          return !slots_[i].ended && !slots_[i].lost;
        });
        if (first == list.end()) return make_error(ErrorCode::DataLoss, lost_for(kNoGame).message(job_.store));
        culprit = *first;
      }
      for (std::uint32_t i : inflight) {
        // Output already delivered cannot be taken back: that game is lost too.
        if ((culprit && i == *culprit) || slots_[i].delivered_some) {
          lose(i);
        } else {
          slots_[i].begun = false;
          slots_[i].parts.clear();
        }
      }
      if (culprit && !slots_[*culprit].lost) lose(*culprit);
      // After a named culprit the rest go back to running in parallel.
      suspects.clear();
      if (!culprit) suspects = inflight;
      std::erase_if(suspects, [&](std::uint32_t i) { return slots_[i].ended || slots_[i].lost; });
      deliver_ready();
    }
    deliver_ready();
    IsolatedRun r;
    r.games = ids_;
    r.lost = lost_;
    r.children = children_;
    return r;
  }

 private:
  enum class Outcome { Finished, Died };

  Expected<Outcome> run_child(const std::vector<std::uint32_t>& list, unsigned jobs) {
    Pipe out = Pipe::make();
    Pipe faults = Pipe::make();
    void* shared = ::mmap(nullptr, sizeof(Running), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) throw std::runtime_error(fmt::format("mmap: {}", std::strerror(errno)));
    auto* running = new (shared) Running;
    for (auto& r : running->index) r = kNoGame;
    struct Unmap {
      void* p;
      ~Unmap() { ::munmap(p, sizeof(Running)); }
    } unmap{shared};
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(out.read);
      ::close(faults.read);
      child_main(job_, ids_, list, !selected_, jobs, out.write, faults.write, running);
    }
    ::close(out.write);
    ::close(faults.write);
    if (pid < 0) {
      ::close(out.read);
      ::close(faults.read);
      return make_error(ErrorCode::ResourceExhausted, fmt::format("cannot start a reader process: {}", std::strerror(errno)));
    }
    ++children_;
    bool done = false;
    std::optional<Error> error;
    std::optional<std::string> internal;
    std::string buf;
    char chunk[65536];
    for (;;) {
      const auto n = ::read(out.read, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      buf.append(chunk, static_cast<std::size_t>(n));
      std::size_t at = 0;
      while (buf.size() - at >= 9) {
        const auto len = get_u32(buf, at + 5);
        if (buf.size() - at < 9 + len) break;
        const auto kind = static_cast<Kind>(buf[at]);
        const auto index = get_u32(buf, at + 1);
        const std::string_view payload(buf.data() + at + 9, len);
        at += 9 + len;
        if (kind == Kind::Selected) {
          ids_.resize(payload.size() / sizeof(core::GameId));
          std::memcpy(ids_.data(), payload.data(), ids_.size() * sizeof(core::GameId));
          slots_.assign(ids_.size(), Slot{});
          selected_ = true;
        } else if (kind == Kind::Error) {
          error = Error{static_cast<ErrorCode>(payload.empty() ? 0 : payload[0]),
                        std::string(payload.substr(payload.empty() ? 0 : 1))};
        } else if (kind == Kind::Done) {
          done = true;
        } else if (index < slots_.size()) {
          on_frame(kind, index, payload, internal);
        }
      }
      buf.erase(0, at);
    }
    ::close(out.read);
    const int status = wait_for(pid);
    for (const auto& r : running->index) {
      if (const std::uint32_t i = r.load(); i < slots_.size() && !slots_[i].ended) slots_[i].begun = true;
    }
    const std::string f = read_all(faults.read);
    ::close(faults.read);
    fault_ = Fault{};
    if (f.size() >= sizeof(Fault)) std::memcpy(&fault_, f.data(), sizeof(Fault));
    if (fault_.magic != kFaultMagic) fault_ = Fault{};
    deliver_ready();
    if (internal) throw std::runtime_error(*internal);
    if (error) return tl::unexpected(*error);
    if (done && WIFEXITED(status) && WEXITSTATUS(status) == 0) return Outcome::Finished;
    death_signal_ = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    death_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    if (!selected_) return make_error(ErrorCode::DataLoss, lost_for(kNoGame).message(job_.store));
    return Outcome::Died;
  }

  void on_frame(Kind kind, std::uint32_t i, std::string_view payload, std::optional<std::string>& internal) {
    Slot& s = slots_[i];
    if (s.lost) return;
    switch (kind) {
      case Kind::Begin: s.begun = true; break;
      case Kind::Part:
        s.parts.push_back(decode_records(payload));
        if (i == next_) deliver_parts(i);
        break;
      case Kind::End:
        s.parts.push_back(decode_records(payload));
        s.ended = true;
        ++ended_;
        if (sink_.progress) sink_.progress(ended_ + lost_, ids_.size());
        deliver_ready();
        break;
      case Kind::Internal: internal = std::string(payload); break;
      default: break;
    }
  }

  LostGame lost_for(std::uint32_t index) {
    LostGame l;
    l.game = index == kNoGame || index >= ids_.size() ? 0 : ids_[index];
    l.signal = death_signal_;
    l.exit_code = death_code_;
    if (fault_.has_page) {
      l.page = fault_.page;
    } else {
      if (!walked_) {
        const auto found = walk_in_child(job_.store);
        walked_ = found ? std::optional<std::uint64_t>(found->page) : std::nullopt;
      }
      l.page = *walked_;
    }
    return l;
  }

  void lose(std::uint32_t i) {
    Slot& s = slots_[i];
    s.why = lost_for(i);
    s.lost = true;
    s.parts.clear();
    ++lost_;
    if (sink_.progress) sink_.progress(ended_ + lost_, ids_.size());
  }

  void deliver_parts(std::uint32_t i) {
    Slot& s = slots_[i];
    for (auto& part : s.parts) {
      s.delivered_some = true;
      sink_.records(ids_[i], std::move(part));
    }
    s.parts.clear();
  }

  void deliver_ready() {
    while (next_ < slots_.size() && (slots_[next_].ended || slots_[next_].lost)) {
      if (slots_[next_].lost) {
        sink_.lost(slots_[next_].why);
      } else {
        deliver_parts(next_);
      }
      ++next_;
    }
  }

  const IsolatedJob& job_;
  const IsolatedSink& sink_;
  std::vector<core::GameId> ids_;
  std::vector<Slot> slots_;
  bool selected_ = false;
  std::uint32_t next_ = 0;
  std::size_t ended_ = 0, lost_ = 0, children_ = 0;
  Fault fault_;
  int death_signal_ = 0, death_code_ = 0;
  std::optional<std::optional<std::uint64_t>> walked_;
};

// WARLOG_NO_ISOLATION=1: the same jobs in this process, for the baseline.
Expected<IsolatedRun> run_in_process(const IsolatedJob& job, const IsolatedSink& sink) {
  auto archive = Archive::open(job.store, job.mode);
  if (!archive) return tl::unexpected(archive.error());
  auto ids = job.select(*archive);
  if (!ids) return tl::unexpected(ids.error());
  std::vector<std::vector<Record>> slots(ids->size());
  std::unique_ptr<std::atomic<bool>[]> ended(new std::atomic<bool>[ids->size()]);
  for (std::size_t i = 0; i < ids->size(); ++i) ended[i] = false;
  std::mutex mutex;
  std::size_t next = 0;
  auto deliver = [&] {
    while (next < ids->size() && ended[next]) {
      sink.records((*ids)[next], std::move(slots[next]));
      ++next;
    }
  };
  parallel_for(
      ids->size(), job.jobs,
      [&](std::size_t i) {
        Outbox box([&](std::vector<Record>&& r) {
          std::lock_guard lock(mutex);
          for (auto& x : r) slots[i].push_back(std::move(x));
        });
        job.run(*archive, (*ids)[i], box);
        box.flush();
        ended[i] = true;
      },
      [&](std::size_t done) {
        deliver();
        if (sink.progress) sink.progress(done, ids->size());
      });
  deliver();
  if (job.finish) {
    if (auto f = job.finish(*archive); !f) return tl::unexpected(f.error());
  }
  return IsolatedRun{std::move(*ids), 0, 0};
}

}  // namespace

std::string LostGame::message(std::string_view store, std::string_view doing) const {
  const std::string where = page ? fmt::format(" near page {}", *page) : std::string();
  const std::string reading = !doing.empty() ? std::string(doing)
                              : game         ? fmt::format("game {} was being read", game)
                                             : std::string("opening the store and listing its games");
  const std::string how = signal ? fmt::format("the {} died of {}", process, signal_name(signal))
                                 : fmt::format("the {} exited with code {}", process, exit_code);
  return fmt::format("store {}: the data file is corrupt{}: restore it from a copy ({}; {})", store, where, reading,
                     how);
}

std::optional<store::DamagedPage> find_damaged_page_isolated(const std::string& store) {
  return detail::walk_in_child(store);
}

Expected<IsolatedRun> run_isolated(const IsolatedJob& job, const IsolatedSink& sink) {
  if (isolation_disabled()) return run_in_process(job, sink);
  return Parent(job, sink).run();
}

}  // namespace warlog::replay
