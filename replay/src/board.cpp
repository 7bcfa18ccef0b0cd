#include "warlog/replay/board.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "warlog/replay/event_text.hpp"
#include "warlog/replay/report.hpp"

namespace warlog::replay {

std::vector<std::string> troop_badges(const core::GameState& s, const core::Troop& t, const core::Card* card) {
  std::vector<std::string> badges;
  if (core::still_mustering(s, t)) badges.emplace_back("mustering");
  if (t.has(core::kTroopLost)) badges.emplace_back("Lost");
  if (t.has(core::kTroopBurrowed)) badges.emplace_back("Burrowed");
  if (t.has(core::kTroopUnprovisioned)) badges.emplace_back("unprovisioned");
  if (card && card->has(core::kQuirkShocked)) badges.emplace_back("Shocked");
  if (t.has(core::kTroopMovedThisPhase)) badges.emplace_back("moved");
  if (t.has(core::kTroopTurncoat)) badges.emplace_back("Turncoat");
  return badges;
}

bool alarming_badge(std::string_view badge) noexcept { return badge == "Lost" || badge == "unprovisioned"; }

Board board_of(const core::GameState& s, const core::Catalog& catalog, const core::Ruleset& rules) {
  Board out;
  out.cols = s.cols;
  out.rows = s.rows;
  for (std::size_t i = 0; i < s.grid.size(); ++i) {
    if (!s.grid[i]) continue;
    const core::Troop& t = *s.grid[i];
    const core::Card* card = catalog.find(t.card);
    BoardTroop f;
    f.space = s.space_of(i);
    f.name = t.card.str();
    f.seat = t.owner;
    f.damage = t.damage;
    f.known = card != nullptr;
    if (card) {
      f.vigor = card->vigor;
      f.vitality = card->vitality;
    }
    f.morale = core::effective_morale(t, catalog);
    f.badges = troop_badges(s, t, card);
    out.troops.push_back(std::move(f));
  }
  for (const core::TerritoryState& t : s.territories) {
    const core::Card* card = catalog.find(t.card);
    out.territories.push_back(BoardTerritory{t.space, t.card.str(), t.beneath, card ? card->threshold : 0,
                                             core::territory_controller(s, t, catalog, rules), t.final_due});
  }
  return out;
}

std::string_view seat_colour_hex(core::Seat seat) noexcept {
  static constexpr std::string_view colours[] = {"#0072b2", "#cc79a7", "#009e73", "#56b4e9"};
  return seat < 4 ? colours[seat] : "#808080";
}

namespace {

constexpr int kCardWidth = 168;
constexpr int kCardHeight = 112;
constexpr int kGap = 10;
constexpr int kLabel = 22;
constexpr int kCaption = 24;

std::string col_letter(int c) { return std::string(1, static_cast<char>('a' + c)); }

bool is_marked(const std::vector<core::Space>& marked, core::Space sp) {
  return std::find(marked.begin(), marked.end(), sp) != marked.end();
}

// Text cut to fit a card: SVG has no elision of its own.
std::string fit(std::string_view s, std::size_t max) {
  if (s.size() <= max) return std::string(s);
  std::size_t cut = max - 1;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;  // not inside a UTF-8 sequence
  return std::string(s.substr(0, cut)) + "\u2026";
}

std::string seat_label(const std::vector<core::SeatSetup>& seats, core::Seat seat) {
  return seat == core::kNoSeat ? std::string() : seat_name(seats, seat);
}

}  // namespace

std::string board_svg(const Board& b, const std::vector<core::SeatSetup>& seats, const std::vector<core::Space>& marked,
                      std::string_view caption) {
  const int grid_w = kLabel + b.cols * (kCardWidth + kGap);
  const int top = kCaption;
  const int grid_h = kLabel + b.rows * (kCardHeight + kGap);
  const int width = std::max(grid_w, 360);
  const int height = top + grid_h + 26;
  auto x_of = [](int c) { return kLabel + c * (kCardWidth + kGap); };
  auto y_of = [top](int r) { return top + kLabel + r * (kCardHeight + kGap); };
  std::string o = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" role=\"img\">\n<title>{2}</title>\n"
      "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"#f6f4ee\"/>\n"
      "<text x=\"4\" y=\"17\" font-size=\"14\" font-weight=\"bold\">{2}</text>\n",
      width, height, xml_escape(caption));
  for (int c = 0; c < b.cols; ++c) {
    o += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" text-anchor=\"middle\">{}</text>\n",
                     x_of(c) + kCardWidth / 2, top + 16, col_letter(c));
  }
  for (int r = 0; r < b.rows; ++r) {
    o += fmt::format("<text x=\"6\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">{}</text>\n",
                     y_of(r) + kCardHeight / 2 + 4, r + 1);
    for (int c = 0; c < b.cols; ++c) {
      o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#d0ccc0\" "
                       "stroke-dasharray=\"2,3\"/>\n",
                       x_of(c) + 1, y_of(r) + 1, kCardWidth - 2, kCardHeight - 2);
    }
  }
  for (const BoardTerritory& t : b.territories) {
    const int x = x_of(t.space.col);
    const int y = y_of(t.space.row);
    std::string control = t.controller == core::kNoSeat ? "uncontrolled" : "held by " + seat_label(seats, t.controller);
    if (t.final_turn) control += " \u00b7 final turn";
    o += fmt::format(
        "<g><rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" rx=\"7\" fill=\"#efe6d2\" stroke=\"#795548\" "
        "stroke-width=\"2\" stroke-dasharray=\"6,3\"/>\n"
        "<text x=\"{4}\" y=\"{5}\" font-size=\"13\" font-weight=\"bold\">{6}</text>\n"
        "<text x=\"{4}\" y=\"{7}\" font-size=\"11\">Territory</text>\n"
        "<text x=\"{4}\" y=\"{8}\" font-size=\"13\">Threshold {9}/{10}</text>\n"
        "<text x=\"{4}\" y=\"{11}\" font-size=\"11\">{12}</text></g>\n",
        x + 2, y + 2, kCardWidth - 4, kCardHeight - 4, x + 10, y + 22, xml_escape(fit(t.name, 22)), y + 38, y + 60,
        t.beneath, t.threshold, y + 82, xml_escape(fit(control, 28)));
  }
  for (const BoardTroop& t : b.troops) {
    const int x = x_of(t.space.col);
    const int y = y_of(t.space.row);
    const std::string_view colour = seat_colour_hex(t.seat);
    const int left = std::max(0, t.vitality - t.damage);
    o += fmt::format(
        "<g><title>{0} ({1})</title>\n"
        "<rect x=\"{2}\" y=\"{3}\" width=\"{4}\" height=\"{5}\" rx=\"7\" fill=\"{6}\" fill-opacity=\"0.22\" "
        "stroke=\"{6}\" stroke-width=\"3\"/>\n"
        "<text x=\"{7}\" y=\"{8}\" font-size=\"13\" font-weight=\"bold\">{9}</text>\n"
        "<text x=\"{7}\" y=\"{10}\" font-size=\"11\" fill=\"#333333\">{11}</text>\n"
        "<text x=\"{7}\" y=\"{12}\" font-size=\"13\">Vigor {13}</text>\n"
        "<text x=\"{14}\" y=\"{12}\" font-size=\"13\" text-anchor=\"end\">Morale {15}</text>\n"
        "<text x=\"{7}\" y=\"{16}\" font-size=\"13\">Vitality</text>\n"
        "<text x=\"{14}\" y=\"{16}\" font-size=\"13\" text-anchor=\"end\">{17}/{18}</text>\n",
        xml_escape(t.name), core::to_string(t.space), x + 2, y + 2, kCardWidth - 4, kCardHeight - 4, colour, x + 10,
        y + 22, xml_escape(fit(t.name, 22)), y + 37, xml_escape(fit(seat_label(seats, t.seat), 26)), y + 56, t.vigor,
        x + kCardWidth - 10, t.morale, y + 75, left, t.vitality);
    // Vitality: a pip per point, spent ones hollow and red.
    for (int i = 0; i < t.vitality && i < 6; ++i) {
      o += i < left ? fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"#2e7d32\" stroke=\"#000000\"/>\n",
                                  x + 73 + i * 13, y + 71)
                    : fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"#ffffff\" stroke=\"#c62828\" "
                                  "stroke-width=\"1.5\"/>\n",
                                  x + 73 + i * 13, y + 71);
    }
    int bx = x + 10;
    for (const std::string& badge : t.badges) {
      const int w = static_cast<int>(badge.size()) * 7 + 10;
      if (bx + w > x + kCardWidth - 8) break;
      o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"15\" rx=\"4\" fill=\"{}\"/>\n"
                       "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#ffffff\" text-anchor=\"middle\">{}</text>\n",
                       bx, y + 86, w, alarming_badge(badge) ? "#c62828" : "#454545", bx + w / 2, y + 97,
                       xml_escape(badge));
      bx += w + 4;
    }
    o += "</g>\n";
  }
  // What the event concerns, over everything: a frame, so a space emptied
  // by the event (a defeat, a move away) is marked too.
  for (const core::Space sp : marked) {
    if (sp.col >= b.cols || sp.row >= b.rows) continue;
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#222222\" "
                     "stroke-width=\"4\" stroke-dasharray=\"10,5\"><title>{}: the event or its findings concern "
                     "it</title></rect>\n",
                     x_of(sp.col) - 3, y_of(sp.row) - 3, kCardWidth + 6, kCardHeight + 6, core::to_string(sp));
  }
  int lx = kLabel;
  const int ly = top + grid_h + 4;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const auto seat = static_cast<core::Seat>(i);
    const std::string name = fmt::format("Seat {}: {}", i + 1, seat_label(seats, seat));
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>\n"
                     "<text x=\"{}\" y=\"{}\" font-size=\"12\">{}</text>\n",
                     lx, ly + 2, seat_colour_hex(seat), lx + 16, ly + 12, xml_escape(name));
    lx += 16 + static_cast<int>(name.size()) * 7 + 18;
  }
  o += "</svg>\n";
  return o;
}

std::string board_text(const Board& b, const std::vector<core::SeatSetup>& seats,
                       const std::vector<core::Space>& marked) {
  // A cell per space: "S1 Archer 2/3 Lost" for a Troop (seat, name,
  // Vitality left of printed, badges), "T Old Mill 1/3" for a Territory.
  std::vector<std::string> cells(static_cast<std::size_t>(std::max(0, b.cols * b.rows)), ".");
  auto at = [&](core::Space sp) -> std::string* {
    if (sp.col < 0 || sp.row < 0 || sp.col >= b.cols || sp.row >= b.rows) return nullptr;
    return &cells[static_cast<std::size_t>(sp.row * b.cols + sp.col)];
  };
  for (const BoardTerritory& t : b.territories) {
    if (std::string* c = at(t.space)) *c = fmt::format("T {} {}/{}", fit(t.name, 14), t.beneath, t.threshold);
  }
  for (const BoardTroop& t : b.troops) {
    std::string* c = at(t.space);
    if (c == nullptr) continue;
    *c = fmt::format("S{} {} {}/{}", t.seat + 1, fit(t.name, 14), std::max(0, t.vitality - t.damage), t.vitality);
    for (const std::string& badge : t.badges) *c += " " + badge;
  }
  std::size_t width = 1;
  for (const std::string& c : cells) width = std::max(width, c.size());
  width += 2;  // room for the marks
  std::string out = "   ";
  for (int c = 0; c < b.cols; ++c) out += fmt::format(" {:<{}}", col_letter(c), width);
  out += "\n";
  for (int r = 0; r < b.rows; ++r) {
    out += fmt::format("{:>2} ", r + 1);
    for (int c = 0; c < b.cols; ++c) {
      const core::Space sp{static_cast<std::int8_t>(c), static_cast<std::int8_t>(r)};
      const std::string& cell = cells[static_cast<std::size_t>(r * b.cols + c)];
      const std::string shown = is_marked(marked, sp) ? ">" + cell + "<" : " " + cell + " ";
      out += fmt::format(" {:<{}}", shown, width);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
  }
  std::string legend;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    legend += fmt::format("{}S{}: {}", legend.empty() ? "" : ", ", i + 1, seat_label(seats, static_cast<core::Seat>(i)));
  }
  out += fmt::format("(S1, S2: a seat's Troop, Vitality left/printed; T: a Territory, beneath/Threshold; >...<: the "
                     "event or its findings concern it. {})\n",
                     legend);
  return out;
}

}  // namespace warlog::replay
