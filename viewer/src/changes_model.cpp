#include "changes_model.hpp"

#include <QBrush>
#include <QColor>
#include <QObject>
#include <QStringList>

#include <algorithm>
#include <variant>

#include "state_model.hpp"

namespace warlog::viewer {

namespace {

// A section's heading without its counts ("Battlefield · 3 Troops" -> "Battlefield").
QString where_of(int section, const QString& title) {
  if (section == StateModel::BattlefieldSection) return QObject::tr("Battlefield");
  return title;
}

QString item_of(const StateModel::Row& r) {
  if (r.kind == StateModel::Kind::Field) return r.cells[StateModel::Item];
  return QStringLiteral("%1 %2").arg(r.cells[StateModel::Item], r.cells[StateModel::Value]);
}

// What a row says, in one line.
QString value_of(const StateModel::Row& r) {
  QStringList parts;
  if (r.kind == StateModel::Kind::Field) {
    parts << r.cells[StateModel::Value];
  } else {
    for (int c : {StateModel::Owner, StateModel::Condition, StateModel::Status}) {
      if (!r.cells[static_cast<std::size_t>(c)].isEmpty()) parts << r.cells[static_cast<std::size_t>(c)];
    }
  }
  return parts.join(QStringLiteral(" · "));
}

}  // namespace

std::vector<StateChange> state_changes(const core::GameState& before, const core::GameState& after,
                                       const core::Catalog& catalog, const core::Ruleset& rules) {
  const auto old_sections = state_sections(before, catalog, rules);
  const auto new_sections = state_sections(after, catalog, rules);
  std::vector<StateChange> out;
  for (std::size_t s = 0; s < new_sections.size() && s < old_sections.size(); ++s) {
    const QString where = where_of(static_cast<int>(s), new_sections[s].title);
    const auto& old_rows = old_sections[s].rows;
    const auto& new_rows = new_sections[s].rows;
    auto find = [](const std::vector<StateModel::Row>& rows, const StateModel::Row& r) {
      return std::find_if(rows.begin(), rows.end(), [&](const StateModel::Row& o) { return o.key == r.key; });
    };
    for (const auto& row : new_rows) {
      auto old = find(old_rows, row);
      if (old == old_rows.end()) {
        out.push_back({where, item_of(row), {}, value_of(row)});
      } else if (old->cells != row.cells) {
        // A Troop that moved in keeps its key (the space); name the card it was.
        const QString item = item_of(row) == item_of(*old) ? item_of(row)
                                                           : QStringLiteral("%1 → %2").arg(item_of(*old), item_of(row));
        out.push_back({where, item, value_of(*old), value_of(row)});
      }
    }
    for (const auto& row : old_rows) {
      if (find(new_rows, row) == new_rows.end()) out.push_back({where, item_of(row), value_of(row), {}});
    }
  }
  return out;
}

std::vector<StateChange> side_by_side(const core::GameState& base, const core::Catalog& base_catalog,
                                     const core::Ruleset& base_rules, const core::GameState& candidate,
                                     const core::Catalog& candidate_catalog, const core::Ruleset& candidate_rules) {
  const auto a = state_sections(base, base_catalog, base_rules);
  const auto b = state_sections(candidate, candidate_catalog, candidate_rules);
  std::vector<StateChange> out;
  for (std::size_t s = 0; s < a.size() && s < b.size(); ++s) {
    const QString where = where_of(static_cast<int>(s), a[s].title);
    auto find = [](const std::vector<StateModel::Row>& rows, const QString& key) {
      return std::find_if(rows.begin(), rows.end(), [&](const StateModel::Row& o) { return o.key == key; });
    };
    for (const auto& row : a[s].rows) {
      auto other = find(b[s].rows, row.key);
      const QString theirs = other == b[s].rows.end() ? QString() : value_of(*other);
      out.push_back({where, item_of(row), value_of(row), theirs, other == b[s].rows.end() || other->cells != row.cells});
    }
    for (const auto& row : b[s].rows) {
      if (find(a[s].rows, row.key) == a[s].rows.end()) out.push_back({where, item_of(row), {}, value_of(row), true});
    }
  }
  return out;
}

ChangesModel::ChangesModel(QObject* parent) : QAbstractTableModel(parent) {}

void ChangesModel::set_changes(std::vector<StateChange> changes) {
  beginResetModel();
  changes_ = std::move(changes);
  endResetModel();
}

void ChangesModel::set_titles(QString before, QString after) {
  before_title_ = std::move(before);
  after_title_ = std::move(after);
  emit headerDataChanged(Qt::Horizontal, Before, After);
}

int ChangesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(changes_.size());
}

int ChangesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ChangesModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const StateChange& c = changes_[static_cast<std::size_t>(index.row())];
  if (role == Qt::BackgroundRole && !before_title_.isEmpty() && c.differs) return QBrush(QColor(0xe4, 0xd8, 0xf8));
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (static_cast<Column>(index.column())) {
    case Where: return c.where;
    case Item: return c.item;
    case Before:
      if (c.before.isEmpty() && role == Qt::DisplayRole) return before_title_.isEmpty() ? tr("(none)") : QStringLiteral("—");
      return c.before;
    case After:
      if (c.after.isEmpty() && role == Qt::DisplayRole) return after_title_.isEmpty() ? tr("(gone)") : QStringLiteral("—");
      return c.after;
    case ColumnCount: break;
  }
  return {};
}

QVariant ChangesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  switch (static_cast<Column>(section)) {
    case Where: return tr("Where");
    case Item: return tr("What");
    case Before: return before_title_.isEmpty() ? tr("Before") : before_title_;
    case After: return after_title_.isEmpty() ? tr("After") : after_title_;
    case ColumnCount: break;
  }
  return {};
}

QString no_change_note(const core::Event& event, const core::GameState& before, const core::GameState& after,
                       std::size_t findings, bool hidden, const QString& seen_as) {
  const qulonglong seq = event.seq;
  if (hidden) {
    return QObject::tr("What changed at seq %1 is hidden from %2: View › Seen as › Judge (Ctrl+0) shows it.")
        .arg(seq)
        .arg(seen_as);
  }
  const QString why = findings == 0 ? QString()
                                    : QObject::tr(" Findings here (%1) say what the rules make of it.").arg(findings);
  if (std::holds_alternative<core::TroopDefeated>(event.payload)) {
    // Whatever the fold's bookkeeping noted (which Territory it went beneath).
    return QObject::tr("Nothing on the board changed at seq %1: a TroopDefeated records a defeat the fold already "
                       "made when the combat resolved (the Troop left the battlefield at that event).%2")
        .arg(seq)
        .arg(why);
  }
  if (before == after) {
    return QObject::tr("Nothing in the state changed at seq %1 (%2).%3")
        .arg(seq)
        .arg(QString::fromUtf8(core::payload_name(event.payload)))
        .arg(why);
  }
  return QObject::tr("Nothing the state view lays out changed at seq %1 (%2): only the fold's bookkeeping of the "
                     "turn did, which later checks read.%3")
      .arg(seq)
      .arg(QString::fromUtf8(core::payload_name(event.payload)))
      .arg(why);
}

}  // namespace warlog::viewer
