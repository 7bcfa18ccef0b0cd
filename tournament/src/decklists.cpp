#include "warlog/tournament/decklists.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "event_file.hpp"
#include "tags.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/core/notation_session.hpp"
#include "warlog/core/state.hpp"
#include "warlog/core/text_file.hpp"

namespace fs = std::filesystem;

namespace warlog::tournament {

using detail::quote;

std::string player_key(std::string_view name) {
  std::string out;
  bool gap = false;
  for (unsigned char c : name) {
    if (c == ' ' || c == '\t') {
      gap = !out.empty();
      continue;
    }
    if (gap) out += ' ';
    gap = false;
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

const Decklist* Registry::find(std::string_view player) const noexcept {
  const std::string key = player_key(player);
  for (const Decklist& d : decklists) {
    if (player_key(d.player) == key) return &d;
  }
  return nullptr;
}

namespace {

void put_setup(std::string& out, const EventSetup& e) {
  if (!e.date.empty()) out += fmt::format("[Date {}]\n", quote(e.date));
  out += fmt::format("[Ruleset {}]\n[Catalog {}]\n", quote(e.ruleset_hash), quote(e.catalog_hash));
  out += fmt::format("[Board \"{}x{}\"]\n", static_cast<int>(e.cols), static_cast<int>(e.rows));
  for (const auto& t : e.territories) out += fmt::format("[Territory {} {}]\n", quote(t.card), core::to_string(t.space));
}

void put_cards(std::string& out, std::string_view tag, const std::vector<core::CardCount>& cards) {
  for (const auto& c : cards) out += fmt::format("[{} {} {}]\n", tag, c.count, quote(c.card));
}

}  // namespace

std::string game_header(const EventSetup& event, std::uint16_t round, std::uint16_t table, const Decklist& seat1,
                        const Decklist& seat2) {
  std::string out;
  if (round != 0) {
    out += fmt::format("[Title {}]\n", quote(fmt::format("{}, round {}, table {}", event.name, round, table)));
    out += fmt::format("[Event {}]\n[Round {}]\n[Table {}]\n", quote(event.name), round, table);
  }
  put_setup(out, event);
  int n = 1;
  for (const Decklist* d : {&seat1, &seat2}) {
    out += fmt::format("[Seat{} {} {}]\n", n, quote(d->player), quote(core::to_string(d->allegiance)));
    put_cards(out, fmt::format("Army{}", n), d->army);
    put_cards(out, fmt::format("Orders{}", n), d->orders);
    ++n;
  }
  return out;
}

std::vector<DeckFault> audit_decklist(const EventSetup& event, const core::Catalog& catalog,
                                      const core::Ruleset& ruleset, const Decklist& deck) {
  // The deck in both seats of a game of the event: its seat 1 ArmyRegistered
  // (seq 1) is folded as the audit folds every game's.
  auto shared = std::make_shared<const core::Catalog>(catalog);
  const std::string header = game_header(event, 0, 0, deck, deck);
  auto session = core::NotationSession::from_header(header, deck.source, shared, ruleset.hash, nullptr);
  std::vector<DeckFault> out;
  if (!session) {
    for (const auto& e : session.error()) {
      out.push_back(DeckFault{deck.player, deck.source, "", "", fmt::format("expected {}, found {}", e.expected, e.found)});
    }
    return out;
  }
  const core::Context ctx{*shared, ruleset};
  core::GameState state;
  std::vector<core::Finding> found;
  for (const core::Event& ev : session->setup_events()) core::apply(ctx, state, ev, found);
  for (const core::Finding& f : found) {
    if (f.seq != 1 || f.severity != core::Severity::Violation) continue;
    const core::Rule* rule = core::find_rule(f.rule_id);
    out.push_back(DeckFault{deck.player, deck.source, std::string(f.rule_id),
                            rule != nullptr ? std::string(rule->citation) : std::string(), f.message});
  }
  return out;
}

std::string registry_path(const replay::Archive& archive) { return (fs::path(archive.path()) / "event.wlog").string(); }

std::string registry_text(const Registry& r) {
  std::string out =
      "# The event's registry, written whole by `warlog serve decks` (docs/server.md § 7).\n"
      "# Only `serve round open` reads it: each game carries its players' decks in its own events.\n";
  out += fmt::format("[Event {}]\n", quote(r.event.name));
  put_setup(out, r.event);
  for (const Decklist& d : r.decklists) {
    out += fmt::format("\n[Player {}]\n[Allegiance {}]\n", quote(d.player), quote(core::to_string(d.allegiance)));
    put_cards(out, "Army", d.army);
    put_cards(out, "Orders", d.orders);
  }
  return out;
}

namespace {

Error joined(std::vector<std::string> lines) {
  std::string msg;
  for (auto& l : lines) msg += (msg.empty() ? "" : "\n") + l;
  return Error{ErrorCode::InvalidArgument, std::move(msg)};
}

// Writes `text` to `path` whole or not at all: a temporary beside it,
// flushed, renamed over it, the folder flushed.
Expected<void> write_whole(const fs::path& path, std::string_view text) {
  const fs::path tmp = path.string() + fmt::format(".tmp-{}", ::getpid());
  auto fail = [&](std::string_view what) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return make_error(ErrorCode::IoError, fmt::format("{} {}: {}", what, tmp.string(), std::strerror(err)));
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return fail("cannot create");
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return fail("cannot write");
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    return fail("cannot flush");
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return fail("cannot rename");
  if (const int dir = ::open(path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
    (void)::fsync(dir);
    ::close(dir);
  }
  return {};
}

}  // namespace

Expected<std::optional<Registry>> load_registry(const replay::Archive& archive) {
  const std::string path = registry_path(archive);
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::optional<Registry>{};
  auto text = core::read_text_file(path, core::kMaxGameFileBytes, "event registry");
  if (!text) return tl::unexpected(text.error());
  detail::ParsedFile parsed = detail::parse_event_text(*text, path);
  if (parsed.errors.empty() && !parsed.event) {
    parsed.errors.push_back(path + ": expected the event's tags, found none");
  }
  if (!parsed.errors.empty()) return tl::unexpected(joined(std::move(parsed.errors)));
  auto resolved = detail::resolve_event(archive, *parsed.event, false);
  if (!resolved) return make_error(ErrorCode::DataLoss, fmt::format("{}: {}", path, resolved.error().message));
  Registry r;
  r.event = resolved->setup;
  for (auto& d : parsed.decks) r.decklists.push_back(std::move(d.deck));
  return std::optional<Registry>(std::move(r));
}

Expected<Registered> register_decklists(replay::Archive& archive, const DeckInput& input) {
  // The files: a directory is its event.wlog and its *.decklist files.
  std::vector<std::string> files;
  std::optional<std::string> event_file = input.event_file;
  for (const std::string& p : input.paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> in_dir;
      for (const auto& entry : fs::directory_iterator(p, ec)) {
        if (entry.path().extension() == ".decklist") in_dir.push_back(entry.path().string());
      }
      if (ec) return make_error(ErrorCode::IoError, fmt::format("cannot list {}: {}", p, ec.message()));
      std::sort(in_dir.begin(), in_dir.end());
      const fs::path ev = fs::path(p) / "event.wlog";
      if (!event_file && fs::exists(ev, ec)) event_file = ev.string();
      if (in_dir.empty() && !fs::exists(ev, ec)) {
        return make_error(ErrorCode::NotFound, fmt::format("{} holds no *.decklist file", p));
      }
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else {
      files.push_back(p);
    }
  }
  if (event_file) files.insert(files.begin(), *event_file);

  std::vector<std::string> errors;
  std::optional<detail::EventDraft> new_event;
  std::vector<detail::DeckDraft> drafts;
  for (const std::string& f : files) {
    auto text = core::read_text_file(f, core::kMaxDeckFileBytes, "decklist file");
    if (!text) {
      errors.push_back(text.error().message);
      continue;
    }
    detail::ParsedFile parsed = detail::parse_event_text(*text, f);
    errors.insert(errors.end(), parsed.errors.begin(), parsed.errors.end());
    if (parsed.event) {
      if (new_event) {
        errors.push_back(fmt::format("{}:{}: expected the event's tags in one file, found them in {} too",
                                     parsed.event->file, parsed.event->line, new_event->file));
      } else {
        new_event = std::move(parsed.event);
      }
    }
    for (auto& d : parsed.decks) drafts.push_back(std::move(d));
  }
  // A player twice in one call is a slip, never a replacement.
  std::map<std::string, std::string> seen;
  for (const auto& d : drafts) {
    auto [it, fresh] = seen.emplace(player_key(d.deck.player), d.deck.source);
    if (!fresh) {
      errors.push_back(fmt::format("{}: expected one decklist per player, found {}'s again (first at {})",
                                   d.deck.source, d.deck.player, it->second));
    }
  }
  if (!errors.empty()) return tl::unexpected(joined(std::move(errors)));

  auto existing = load_registry(archive);
  if (!existing) return tl::unexpected(existing.error());
  Expected<detail::ResolvedEvent> event =
      new_event ? detail::resolve_event(archive, *new_event, true)
      : *existing ? detail::resolve_setup(archive, (*existing)->event)
                  : Expected<detail::ResolvedEvent>(make_error(
                        ErrorCode::NotFound, "no event is registered: give the event's tags ([Event], [Ruleset], "
                                             "[Catalog], [Board], [Territory]) with --event FILE or as DIR/event.wlog"));
  if (!event) return tl::unexpected(event.error());
  if (new_event) {
    auto bad = detail::setup_errors(*event, new_event->file);
    if (!bad.empty()) return tl::unexpected(joined(std::move(bad)));
  }
  for (const auto& d : drafts) {
    auto bad = detail::unknown_cards(d, *event->catalog);
    errors.insert(errors.end(), bad.begin(), bad.end());
  }
  if (!errors.empty()) return tl::unexpected(joined(std::move(errors)));

  Registered out;
  out.registry.event = event->setup;
  const bool event_changed = !*existing || (*existing)->event != event->setup;
  if (*existing) {
    for (const Decklist& kept : (*existing)->decklists) {
      if (seen.count(player_key(kept.player)) == 0) {
        out.registry.decklists.push_back(kept);
        if (event_changed) {
          // Registered under another setup: audited again under this one.
          auto faults = audit_decklist(event->setup, *event->catalog, *event->ruleset, kept);
          out.refused.insert(out.refused.end(), faults.begin(), faults.end());
        }
      } else {
        out.replaced.push_back(kept.player);
      }
    }
  }
  for (auto& d : drafts) {
    auto faults = audit_decklist(event->setup, *event->catalog, *event->ruleset, d.deck);
    out.refused.insert(out.refused.end(), faults.begin(), faults.end());
    if (std::find(out.replaced.begin(), out.replaced.end(), d.deck.player) == out.replaced.end()) {
      bool was = false;
      for (const auto& r : out.replaced) was = was || player_key(r) == player_key(d.deck.player);
      if (!was) out.added.push_back(d.deck.player);
    }
    out.registry.decklists.push_back(std::move(d.deck));
  }
  std::sort(out.registry.decklists.begin(), out.registry.decklists.end(),
            [](const Decklist& a, const Decklist& b) { return player_key(a.player) < player_key(b.player); });
  if (!out.refused.empty()) return out;  // nothing written
  if (auto w = write_whole(registry_path(archive), registry_text(out.registry)); !w) return tl::unexpected(w.error());
  return out;
}

}  // namespace warlog::tournament
