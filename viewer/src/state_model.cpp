#include "state_model.hpp"

#include "warlog/replay/board.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>

#include <algorithm>

#include "event_text.hpp"

namespace warlog::viewer {

namespace {

QString str(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

int pile_count(const core::CardPile& pile) {
  int n = 0;
  for (const auto& [card, count] : pile) n += count;
  return n;
}

QString pile_text(const core::CardPile& pile) {
  QStringList parts;
  for (const auto& [card, count] : pile) {
    if (count > 0) parts << QStringLiteral("%1× %2").arg(count).arg(str(card));
  }
  return parts.join(QStringLiteral("\n"));
}

QString held_text(const std::vector<core::HeldCard>& held) {
  QStringList parts;
  for (const auto& h : held) parts << QObject::tr("%1 (since turn %2)").arg(str(h.card)).arg(h.since_turn);
  return parts.join(QStringLiteral("\n"));
}

std::vector<core::SeatSetup> seat_setups(const core::GameState& s) {
  std::vector<core::SeatSetup> out;
  for (const auto& seat : s.seats) out.push_back({seat.player, seat.allegiance});
  return out;
}

StateModel::Row field(QString key, QString value, int raw = 0, QString tooltip = {}) {
  StateModel::Row r;
  r.kind = StateModel::Kind::Field;
  r.cells[StateModel::Item] = key;
  r.cells[StateModel::Value] = std::move(value);
  r.key = std::move(key);
  r.raw = raw;
  r.tooltip = std::move(tooltip);
  return r;
}

StateModel::Row count_field(QString key, int n, QString tooltip = {}) {
  return field(std::move(key), QString::number(n), n, std::move(tooltip));
}

// A pile shown as its cards, not a count alone: "3: 2× Briar Archer, 1×
// Thornback Warden" ("0" when empty); the tooltip lists them a line each.
// What a perspective does not see reads "(hidden)" (replay::view_of).
StateModel::Row cards_field(QString key, int n, const QString& lines) {
  QString value = QString::number(n);
  if (n > 0 && !lines.isEmpty()) value += QStringLiteral(": ") + QString(lines).replace(QLatin1Char('\n'), QStringLiteral(", "));
  return field(std::move(key), std::move(value), n, lines);
}

}  // namespace

QStringList troop_badges(const core::GameState& s, const core::Troop& t, const core::Card* card) {
  QStringList badges;
  for (const std::string& b : replay::troop_badges(s, t, card)) badges << QString::fromStdString(b);
  return badges;
}

namespace {

QString troop_status(const core::GameState& s, const core::Troop& t, const core::Card* card) {
  return troop_badges(s, t, card).join(QStringLiteral(" · "));
}

StateModel::SectionRows game_section(const core::GameState& s, const std::vector<core::SeatSetup>& seats) {
  StateModel::SectionRows sec;
  sec.title = QObject::tr("Game");
  sec.rows.push_back(field(QObject::tr("Turn"), s.turn == 0 ? QObject::tr("setup") : QString::number(s.turn), s.turn));
  QString phase = str(phase_title(s.phase));
  if (s.active != core::kNoSeat) phase += QStringLiteral(" · ") + str(seat_name(seats, s.active));
  sec.rows.push_back(field(QObject::tr("Phase"), phase, static_cast<int>(s.phase)));
  sec.rows.push_back(field(QObject::tr("Leading in Morale"),
                           s.leader == core::kNoSeat ? QStringLiteral("—") : str(seat_name(seats, s.leader)),
                           s.leader == core::kNoSeat ? -1 : s.leader));
  QString result = QObject::tr("in play");
  if (s.winner != core::kNoSeat) {
    result = QObject::tr("%1 wins").arg(str(seat_name(seats, s.winner)));
  } else if (s.victory) {
    result = QObject::tr("ended");
  } else if (s.final_turn != 0) {
    result = QObject::tr("final turn %1").arg(s.final_turn);
  }
  sec.rows.push_back(field(QObject::tr("Result"), result));
  return sec;
}

StateModel::SectionRows seat_section(const core::GameState& s, core::Seat seat, const core::Catalog& catalog,
                                     const core::Ruleset& rules, const std::vector<core::SeatSetup>& seats) {
  const core::SeatState& st = s.seats[seat];
  StateModel::SectionRows sec;
  sec.title = QObject::tr("Seat %1 · %2 (%3)").arg(seat + 1).arg(str(seat_name(seats, seat))).arg(str(core::to_string(st.allegiance)));
  sec.rows.push_back(cards_field(QObject::tr("Hand"), pile_count(st.hand), pile_text(st.hand)));
  sec.rows.push_back(count_field(QObject::tr("Army Deck"), pile_count(st.deck)));
  if (st.allegiance == core::Allegiance::ClawEmpire) {
    sec.rows.push_back(count_field(QObject::tr("Orders Deck"), pile_count(st.orders)));
  }
  sec.rows.push_back(cards_field(QObject::tr("Homeland"), static_cast<int>(st.homeland.size()), held_text(st.homeland)));
  sec.rows.push_back(cards_field(QObject::tr("Discard"), pile_count(st.discard), pile_text(st.discard)));
  sec.rows.push_back(cards_field(QObject::tr("Gambits in play"), static_cast<int>(st.gambits_in_play.size()),
                                 held_text(st.gambits_in_play)));
  sec.rows.push_back(count_field(QObject::tr("Morale total"), core::morale_total(s, seat, catalog)));
  const int supply = core::provision_supply(s, seat, catalog, rules);
  const int cost = core::provision_cost(s, seat, catalog, rules);
  sec.rows.push_back(field(QObject::tr("Provisions (supply / cost)"), QStringLiteral("%1 / %2").arg(supply).arg(cost),
                           supply - cost));
  sec.rows.push_back(field(QObject::tr("Leading in Morale"), s.leader == seat ? QObject::tr("yes") : QStringLiteral("—"),
                           s.leader == seat ? 1 : 0));
  sec.rows.push_back(field(QObject::tr("Local Favor"),
                           st.local_favor_until_turn == 0 ? QStringLiteral("—")
                                                          : QObject::tr("until turn %1").arg(st.local_favor_until_turn),
                           st.local_favor_until_turn));
  for (auto& row : sec.rows) row.seat = seat;
  return sec;
}

StateModel::SectionRows battlefield_section(const core::GameState& s, const core::Catalog& catalog,
                                            const std::vector<core::SeatSetup>& seats) {
  StateModel::SectionRows sec;
  for (std::size_t i = 0; i < s.grid.size(); ++i) {
    if (!s.grid[i]) continue;
    const core::Troop& t = *s.grid[i];
    const core::Card* card = catalog.find(t.card);
    StateModel::Row r;
    r.kind = StateModel::Kind::Troop;
    r.key = str(core::to_string(s.space_of(i)));
    r.cells[StateModel::Item] = r.key;
    r.cells[StateModel::Value] = str(t.card);
    r.cells[StateModel::Owner] = str(seat_name(seats, t.owner));
    if (card) {
      r.cells[StateModel::Condition] = QObject::tr("Vitality %1/%2 · Morale %3")
                                           .arg(card->vitality - t.damage)
                                           .arg(card->vitality)
                                           .arg(core::effective_morale(t, catalog));
      r.tooltip = str(card->text);
    } else {
      r.cells[StateModel::Condition] = QObject::tr("damage %1 (card not in catalog)").arg(t.damage);
    }
    r.cells[StateModel::Status] = troop_status(s, t, card);
    r.raw = t.damage;
    r.seat = t.owner;
    sec.rows.push_back(std::move(r));
  }
  sec.title = sec.rows.size() == 1 ? QObject::tr("Battlefield · 1 Troop")
                                    : QObject::tr("Battlefield · %1 Troops").arg(sec.rows.size());
  return sec;
}

StateModel::SectionRows territory_section(const core::GameState& s, const core::Catalog& catalog,
                                          const core::Ruleset& rules, const std::vector<core::SeatSetup>& seats) {
  StateModel::SectionRows sec;
  sec.title = QObject::tr("Territories");
  for (std::size_t i = 0; i < s.territories.size(); ++i) {
    const core::TerritoryState& t = s.territories[i];
    const core::Card* card = catalog.find(t.card);
    const core::Seat by = core::territory_controller(s, t, catalog, rules);  // derived, never stored
    StateModel::Row r;
    r.kind = StateModel::Kind::Territory;
    r.key = str(core::to_string(t.space));
    r.cells[StateModel::Item] = r.key;
    r.cells[StateModel::Value] = str(t.card);
    r.cells[StateModel::Owner] = by == core::kNoSeat ? QString() : str(seat_name(seats, by));
    r.cells[StateModel::Condition] = card ? QObject::tr("Threshold %1/%2").arg(t.beneath).arg(card->threshold)
                                          : QObject::tr("Threshold %1").arg(t.beneath);
    r.tooltip = QObject::tr("%1 destroyed Troops counted toward its Threshold").arg(t.beneath);
    if (t.final_due) r.cells[StateModel::Status] = QObject::tr("final turn");
    r.raw = t.beneath;
    r.seat = by == core::kNoSeat ? -1 : by;
    sec.rows.push_back(std::move(r));
  }
  return sec;
}

}  // namespace

std::vector<StateModel::SectionRows> state_sections(const core::GameState& state, const core::Catalog& catalog,
                                                    const core::Ruleset& rules) {
  const auto seats = seat_setups(state);
  std::vector<StateModel::SectionRows> out;
  out.push_back(game_section(state, seats));
  for (core::Seat seat = 0; seat < core::kSeatCount; ++seat) out.push_back(seat_section(state, seat, catalog, rules, seats));
  out.push_back(battlefield_section(state, catalog, seats));
  out.push_back(territory_section(state, catalog, rules, seats));
  return out;
}

StateModel::StateModel(QObject* parent) : QAbstractItemModel(parent) {}

void StateModel::clear() {
  beginResetModel();
  sections_.clear();
  endResetModel();
}

void StateModel::set_state(const core::GameState& state, const core::Catalog& catalog, const core::Ruleset& rules,
                           const core::GameState* before) {
  auto next = state_sections(state, catalog, rules);
  if (before) {
    const auto prior = state_sections(*before, catalog, rules);
    for (std::size_t s = 0; s < next.size(); ++s) {
      for (Row& row : next[s].rows) {
        const auto& old_rows = prior[s].rows;
        auto old = std::find_if(old_rows.begin(), old_rows.end(), [&](const Row& r) { return r.key == row.key; });
        row.changed = old == old_rows.end() || old->cells != row.cells;
      }
    }
  }
  if (sections_.empty()) {
    beginResetModel();
    sections_ = std::move(next);
    endResetModel();
    return;
  }
  for (int s = 0; s < SectionCount; ++s) replace_section(s, std::move(next[static_cast<std::size_t>(s)]));
}

void StateModel::replace_section(int section, SectionRows next) {
  SectionRows& cur = sections_[static_cast<std::size_t>(section)];
  const QModelIndex parent = index(section, 0);
  const int old_n = static_cast<int>(cur.rows.size());
  const int new_n = static_cast<int>(next.rows.size());
  if (new_n < old_n) {
    beginRemoveRows(parent, new_n, old_n - 1);
    cur.rows.resize(static_cast<std::size_t>(new_n));
    endRemoveRows();
  } else if (new_n > old_n) {
    beginInsertRows(parent, old_n, new_n - 1);
    cur.rows.insert(cur.rows.end(), next.rows.begin() + old_n, next.rows.end());
    endInsertRows();
  }
  const int common = std::min(old_n, new_n);
  std::copy(next.rows.begin(), next.rows.begin() + common, cur.rows.begin());
  if (common > 0) emit dataChanged(index(0, 0, parent), index(common - 1, ColumnCount - 1, parent));
  if (cur.title != next.title) {
    cur.title = std::move(next.title);
    emit dataChanged(index(section, 0), index(section, 0));
  }
}

QModelIndex StateModel::find(Section section, const QString& key, int column) const {
  if (sections_.empty()) return {};
  const auto& rows = sections_[static_cast<std::size_t>(section)].rows;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].key == key) return index(static_cast<int>(i), column, index(section, 0));
  }
  return {};
}

// internalId: 0 for a section row, section + 1 for a row inside it.
QModelIndex StateModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount) return {};
  if (!parent.isValid()) {
    return row < static_cast<int>(sections_.size()) ? createIndex(row, column, quintptr{0}) : QModelIndex();
  }
  if (parent.internalId() != 0 || parent.column() != 0) return {};
  const auto& rows = sections_[static_cast<std::size_t>(parent.row())].rows;
  if (row >= static_cast<int>(rows.size())) return {};
  return createIndex(row, column, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex StateModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == 0) return {};
  return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr{0});
}

int StateModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(sections_.size());
  if (parent.internalId() != 0 || parent.column() != 0) return 0;
  return static_cast<int>(sections_[static_cast<std::size_t>(parent.row())].rows.size());
}

int StateModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant StateModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  if (index.internalId() == 0) {
    const SectionRows& sec = sections_[static_cast<std::size_t>(index.row())];
    switch (role) {
      case Qt::DisplayRole: return index.column() == Item ? QVariant(sec.title) : QVariant();
      case Qt::FontRole: {
        QFont f;
        f.setBold(true);
        return f;
      }
      case KindRole: return static_cast<int>(Kind::Section);
      case KeyRole: return sec.title;
      default: return {};
    }
  }
  const Row& r = sections_[static_cast<std::size_t>(index.internalId() - 1)].rows[static_cast<std::size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole: return r.cells[static_cast<std::size_t>(index.column())];
    case Qt::ToolTipRole: return r.tooltip.isEmpty() ? QVariant() : QVariant(r.tooltip);
    case Qt::BackgroundRole: return r.changed ? QVariant(QBrush(QColor(0xd8, 0xf0, 0xd0))) : QVariant();
    case KindRole: return static_cast<int>(r.kind);
    case KeyRole: return r.key;
    case RawValueRole: return r.raw;
    case SeatRole: return r.seat;
    case ChangedRole: return r.changed;
    default: return {};
  }
}

QVariant StateModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractItemModel::headerData(section, orientation, role);
  switch (static_cast<Column>(section)) {
    case Item: return tr("Item");
    case Value: return tr("Value");
    case Owner: return tr("Owner");
    case Condition: return tr("Condition");
    case Status: return tr("Status");
    case ColumnCount: break;
  }
  return {};
}

}  // namespace warlog::viewer
