// The notation fed one line at a time (notation_session.hpp): the whole-file
// parser's own Parser, kept between lines, with each refused line rolled back.

#include "warlog/core/notation_session.hpp"


#include "notation_lex.hpp"
#include "notation_parser.hpp"
#include "warlog/core/corrections.hpp"

namespace warlog::core {

struct NotationSession::Impl {
  Impl(const std::string& file, std::shared_ptr<const Catalog> cat, std::string ruleset, DeckLoader loader)
      : catalog(std::move(cat)),
        ruleset_hash(std::move(ruleset)),
        load_deck(std::move(loader)),
        parser(file, *catalog, ruleset_hash, load_deck) {}

  // The parser holds references to these three: the Impl stays where it is.
  std::shared_ptr<const Catalog> catalog;
  std::string ruleset_hash;
  DeckLoader load_deck;
  notation::Parser parser;
  std::vector<Event> setup;
  std::vector<Event> seen;  // every event observed, by seq: what a correction's context is computed from
  std::size_t corrections = 0;
  Seq next_seq = 0;
  std::uint32_t next_line = 1;
};

NotationSession::NotationSession(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
NotationSession::NotationSession(NotationSession&&) noexcept = default;
NotationSession& NotationSession::operator=(NotationSession&&) noexcept = default;
NotationSession::~NotationSession() = default;

tl::expected<NotationSession, std::vector<NotationError>> NotationSession::from_header(
    std::string_view header, const std::string& file, std::shared_ptr<const Catalog> catalog,
    const std::string& ruleset_hash, const DeckLoader& load_deck) {
  auto impl = std::make_unique<Impl>(file, std::move(catalog), ruleset_hash, load_deck);
  notation::Parser& p = impl->parser;
  for (const notation::SourceLine& line : notation::split_lines(header)) {
    impl->next_line = line.number + 1;
    if (line.text.size() <= kMaxNotationLineBytes) {
      const notation::LexedLine lexed = notation::lex(line.text);
      const notation::Token& first = lexed.tokens.front();
      if (!lexed.error && first.kind != notation::Tok::LBracket && first.kind != notation::Tok::End) {
        // Fed to the parser, this line would end the header and start the game.
        p.report_at(file, line.number, first.col, "a header tag such as [Seat1 \"Alice\" \"Claw Empire\"]",
                    notation::describe(first), "a header holds tags only: record the moves line by line");
        continue;
      }
    }
    p.feed(line);
  }
  if (!p.header_done) p.finish_header(nullptr);
  if (!p.errors.empty()) return tl::unexpected(std::move(p.errors));
  impl->setup = std::move(p.game.events);
  p.game.events.clear();
  p.game.lines.clear();
  impl->seen = impl->setup;
  impl->next_seq = impl->setup.size();
  return NotationSession(std::move(impl));
}

Expected<NotationSession> NotationSession::resume(std::span<const Event> events, const std::string& file,
                                                  std::shared_ptr<const Catalog> catalog) {
  if (events.empty() || !std::holds_alternative<GameCreated>(events.front().payload)) {
    return make_error(ErrorCode::InvalidArgument, "a game to continue starts with GameCreated");
  }
  auto impl = std::make_unique<Impl>(file, std::move(catalog), std::string{}, DeckLoader{});
  impl->parser.header_done = true;
  NotationSession session(std::move(impl));
  for (const Event& ev : events) session.observe(ev);
  return session;
}

LineResult NotationSession::parse(std::string_view line) {
  if (line.ends_with('\r')) line.remove_suffix(1);
  notation::Parser& p = impl_->parser;
  const notation::BodyContext saved = p.ctx;
  p.errors.clear();
  p.game.events.clear();
  p.game.lines.clear();
  p.feed(notation::SourceLine{impl_->next_line++, line});
  // The context is the events' to move (observe), never the parse's: a
  // line parsed and then not recorded leaves the session as it was.
  p.ctx = saved;
  LineResult r;
  if (!p.errors.empty()) {
    r.errors = std::move(p.errors);
    p.errors.clear();
  } else {
    r.events = std::move(p.game.events);
    Seq seq = impl_->next_seq;
    for (Event& ev : r.events) ev.seq = seq++;
  }
  p.game.events.clear();
  p.game.lines.clear();
  return r;
}

LineResult NotationSession::feed(std::string_view line) {
  LineResult r = parse(line);
  for (const Event& ev : r.events) observe(ev);
  return r;
}

void NotationSession::observe(const Event& ev) {
  notation::Parser& p = impl_->parser;
  if (ev.seq == impl_->seen.size()) impl_->seen.push_back(ev);
  if (is_correction(ev.payload)) {
    // As the whole-file parser moves it (notation_body.cpp), with the same bound.
    if (++impl_->corrections <= kMaxCorrections) p.ctx = notation::context_after(impl_->seen);
    impl_->next_seq = ev.seq + 1;
    return;
  }
  // The context moves exactly as the body parser moves it (notation_body.cpp).
  if (const auto* created = std::get_if<GameCreated>(&ev.payload)) {
    p.created = *created;
    p.have_board = true;
  } else if (std::holds_alternative<TurnStarted>(ev.payload)) {
    p.ctx = notation::BodyContext{true, ev.turn, Phase::Muster, kNoSeat};
  } else if (std::holds_alternative<PhaseStarted>(ev.payload)) {
    p.ctx.phase = ev.phase;
    p.ctx.seat = ev.seat;
  }
  impl_->next_seq = ev.seq + 1;
}

const std::vector<Event>& NotationSession::setup_events() const noexcept { return impl_->setup; }
Seq NotationSession::next_seq() const noexcept { return impl_->next_seq; }
std::uint32_t NotationSession::next_line() const noexcept { return impl_->next_line; }
const Catalog& NotationSession::catalog() const noexcept { return *impl_->catalog; }
const GameCreated& NotationSession::created() const noexcept { return impl_->parser.created; }

NotationPlace NotationSession::place() const noexcept {
  const notation::BodyContext& c = impl_->parser.ctx;
  return NotationPlace{c.in_turn, c.turn, c.phase, c.seat};
}

}  // namespace warlog::core
