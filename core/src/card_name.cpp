#include "warlog/core/card_name.hpp"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <unordered_map>

namespace warlog::core {
namespace {

// Names live in fixed chunks that never move, so str() reads its slot with
// no lock: the id it holds was published under the table's mutex before
// the CardName that carries it could reach this thread.
constexpr std::uint32_t kChunkBits = 12;
constexpr std::uint32_t kChunkSize = 1u << kChunkBits;
constexpr std::uint32_t kChunks = CardName::kMaxNames / kChunkSize;

class Table {
 public:
  Table() {
    chunks_[0].store(new std::string[kChunkSize], std::memory_order_release);  // id 0: ""
    next_ = 1;
  }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
  ~Table() = default;  // the process's names outlive every CardName: never freed

  std::uint32_t intern(std::string_view name) {
    if (name.empty()) return 0;
    {
      std::shared_lock lock(mutex_);
      const auto it = ids_.find(name);
      if (it != ids_.end()) return it->second;
    }
    std::unique_lock lock(mutex_);
    const auto it = ids_.find(name);
    if (it != ids_.end()) return it->second;
    if (next_ >= CardName::kMaxNames)
      throw std::length_error("more than 4,194,304 distinct card names in one process");
    const std::uint32_t id = next_;
    std::string* chunk = chunks_[id >> kChunkBits].load(std::memory_order_acquire);
    if (chunk == nullptr) {
      chunk = new std::string[kChunkSize];
      chunks_[id >> kChunkBits].store(chunk, std::memory_order_release);
    }
    std::string& slot = chunk[id & (kChunkSize - 1)];
    slot.assign(name);
    ids_.emplace(std::string_view(slot), id);
    ++next_;
    count_.store(next_ - 1, std::memory_order_relaxed);
    return id;
  }

  const std::string& name(std::uint32_t id) const noexcept {
    return chunks_[id >> kChunkBits].load(std::memory_order_acquire)[id & (kChunkSize - 1)];
  }

  std::uint32_t count() const noexcept { return count_.load(std::memory_order_relaxed); }

 private:
  std::array<std::atomic<std::string*>, kChunks> chunks_{};
  std::unordered_map<std::string_view, std::uint32_t> ids_;
  std::shared_mutex mutex_;
  std::uint32_t next_ = 0;
  std::atomic<std::uint32_t> count_{0};
};

Table& table() {
  static Table* const t = new Table();  // never destroyed: CardNames may be read during static teardown
  return *t;
}

}  // namespace

CardName::CardName(std::string_view name) : id_(table().intern(name)) {}

const std::string& CardName::str() const noexcept { return table().name(id_); }

std::uint32_t CardName::interned() noexcept { return table().count(); }

}  // namespace warlog::core
