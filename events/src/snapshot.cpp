// Snapshots: core::GameState <-> packed Cap'n Proto. The same boundary rules
// as codec.cpp: every exception Cap'n Proto or the readers throw for bad input
// stops here and becomes an Error.

#include "warlog/events/snapshot.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <kj/exception.h>
#include <kj/io.h>

#include "bounds.hpp"
#include "warlog/core/fold.hpp"
#include "convert.hpp"
#include "snapshot_state.hpp"

namespace warlog::events {

namespace {

namespace cs = detail::cs;
using SnapshotSchema = cs::Snapshot;

// --- Guards against hostile input ----------------------------------------------
// A state is mostly text (card names in piles); legal ones unpack to under
// three times their packed size, as events do, and a decode reads the
// message twice (check_whole_message, then the readers), so eight times the
// largest accepted snapshot bounds the work of a decode while leaving room
// (the reasoning beside codec.cpp's limits). The deepest legal path is five
// pointers (Snapshot > State > seats > Seat.wagesDue > WageDue.space, or
// State > grid > Cell.troop > Troop.card); 8 leaves room to grow.
constexpr std::uint64_t kTraversalLimitWords = kMaxSnapshotBytes / sizeof(capnp::word) * 8;
constexpr int kNestingLimit = 8;

std::string text(capnp::Text::Reader t) { return std::string(t.cStr(), t.size()); }
// std::string keeps a NUL after its last char, as Text::Reader requires.
capnp::Text::Reader tx(const std::string& s) { return capnp::Text::Reader(s.data(), s.size()); }

SnapshotHeader read_header(SnapshotSchema::Reader snap) {
  // A missing header would read as engine version 0, game 0: plausible and wrong.
  if (!snap.hasHeader()) detail::snapshot_failure("no header");
  const auto h = snap.getHeader();
  SnapshotHeader out;
  out.engine_version = h.getEngineVersion();
  out.ruleset_hash = text(h.getRulesetHash());
  out.catalog_hash = text(h.getCatalogHash());
  out.game = h.getGame();
  out.seq = h.getSeq();
  const auto chain = h.getChainHash();
  if (chain.size() != out.chain_hash.size()) {
    detail::snapshot_failure("the chain hash is " + std::to_string(chain.size()) + " bytes, expected " +
                             std::to_string(out.chain_hash.size()));
  }
  std::copy(chain.begin(), chain.end(), out.chain_hash.begin());
  return out;
}

std::string one_line(kj::StringPtr s) {
  std::string out(s.cStr(), s.size());
  std::replace_if(out.begin(), out.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return out;
}

// Checks the checksum, runs `read` on the message and turns every failure
// into an Error (as codec.cpp's guard does for events).
template <class Read>
auto guarded(std::string_view value, Read&& read) -> Expected<decltype(read(std::declval<SnapshotSchema::Reader>()))> {
  if (value.size() > kMaxSnapshotBytes) {
    return make_error(ErrorCode::DataLoss, "snapshot of " + std::to_string(value.size()) + " bytes is over the limit of " +
                                               std::to_string(kMaxSnapshotBytes));
  }
  constexpr std::size_t kSum = std::tuple_size_v<core::Digest>;
  if (value.size() <= kSum) {
    return make_error(ErrorCode::DataLoss, "snapshot of " + std::to_string(value.size()) + " bytes is too short");
  }
  const std::string_view bytes = value.substr(0, value.size() - kSum);
  const core::Digest sum = core::blake2b(bytes);
  if (!std::equal(sum.begin(), sum.end(), value.end() - kSum, [](std::uint8_t a, char b) {
        return a == static_cast<std::uint8_t>(b);
      })) {
    return make_error(ErrorCode::DataLoss, "snapshot bytes do not match their checksum (corrupt or cut short)");
  }
  try {
    kj::ArrayInputStream in(kj::arrayPtr(reinterpret_cast<const kj::byte*>(bytes.data()), bytes.size()));
    auto result = [&] {
      capnp::ReaderOptions options;
      options.traversalLimitInWords = kTraversalLimitWords;
      options.nestingLimit = kNestingLimit;
      // Unpacks into word-aligned memory it owns: the input may sit at any
      // address (LMDB values are only 2-byte aligned).
      capnp::PackedMessageReader message(in, options);
      detail::check_whole_message(message);
      return read(message.getRoot<SnapshotSchema>());
    }();
    if (const auto rest = in.tryGetReadBuffer().size(); rest != 0) {
      return make_error(ErrorCode::DataLoss, std::to_string(rest) + " trailing bytes after the snapshot message");
    }
    return result;
  } catch (const detail::DecodeFailure& f) {
    return make_error(f.code, f.message);
  } catch (const kj::Exception& e) {
    return make_error(ErrorCode::DataLoss, "snapshot bytes (" + std::to_string(bytes.size()) +
                                               ") are not a valid message: " + one_line(e.getDescription()));
  }
}

}  // namespace

std::string encode_snapshot(const core::GameState& state, const SnapshotHeader& header) {
  capnp::MallocMessageBuilder message;
  auto root = message.initRoot<SnapshotSchema>();
  auto h = root.initHeader();
  h.setEngineVersion(header.engine_version);
  h.setRulesetHash(tx(header.ruleset_hash));
  h.setCatalogHash(tx(header.catalog_hash));
  h.setGame(header.game);
  h.setSeq(header.seq);
  h.setChainHash(capnp::Data::Reader(header.chain_hash.data(), header.chain_hash.size()));
  detail::write_state(root.initState(), state);

  kj::VectorOutputStream out;
  capnp::writePackedMessage(out, message);
  const auto packed = out.getArray();
  std::string bytes(reinterpret_cast<const char*>(packed.begin()), packed.size());
  const core::Digest sum = core::blake2b(bytes);
  bytes.append(reinterpret_cast<const char*>(sum.data()), sum.size());
  return bytes;
}

Expected<Snapshot> decode_snapshot(std::string_view bytes) {
  return guarded(bytes, [](SnapshotSchema::Reader snap) {
    Snapshot out;
    out.header = read_header(snap);
    if (!snap.hasState()) detail::snapshot_failure("no state");
    out.state = detail::read_state(snap.getState());
    // Whoever writes the store can seal any state with a sound checksum, and
    // the fold indexes the grid and the seats by what the state says: a
    // state the fold could never have made (a grid of another size than
    // cols x rows, ...) is refused here, never folded on (fuzz target
    // "snapshot", fuzz/corpus/snapshot/crash-grid-size-mismatch).
    if (const std::string why = core::check_invariants(out.state); !why.empty()) {
      detail::snapshot_failure("the state breaks the fold's invariants: " + why);
    }
    return out;
  });
}

Expected<SnapshotHeader> decode_snapshot_header(std::string_view bytes) {
  return guarded(bytes, [](SnapshotSchema::Reader snap) { return read_header(snap); });
}

}  // namespace warlog::events
