#include "warlog/core/ruleset.hpp"

#include <array>
#include <fmt/format.h>
#include <toml++/toml.h>
#include <variant>

#include "warlog/core/catalog.hpp"
#include "warlog/core/text.hpp"
#include "warlog/core/text_file.hpp"

namespace warlog::core {

namespace {

// One descriptor per TOML key: section, key, and the field it sets. Adding
// an option is one line here plus the field in ruleset.hpp.
struct Option {
  std::string_view section;
  std::string_view key;
  std::variant<int Ruleset::*, bool Ruleset::*, std::string Ruleset::*> field;
};

const std::array<Option, 44>& options() {
  static const std::array<Option, 44> kOptions{{
      {"ruleset", "name", &Ruleset::name},
      {"ruleset", "version", &Ruleset::version},
      {"deck", "min", &Ruleset::deck_min},
      {"deck", "max", &Ruleset::deck_max},
      {"deck", "max_per_extra_territory", &Ruleset::deck_max_per_extra_territory},
      {"deck", "orders_min", &Ruleset::orders_min},
      {"deck", "orders_max", &Ruleset::orders_max},
      {"deck", "limit_common", &Ruleset::limit_common},
      {"deck", "limit_seasoned", &Ruleset::limit_seasoned},
      {"deck", "limit_renowned", &Ruleset::limit_renowned},
      {"deck", "allegiance_surcharge", &Ruleset::allegiance_surcharge},
      {"muster", "draw_per_turn", &Ruleset::draw_per_turn},
      {"attrition", "recovery_cost", &Ruleset::recovery_cost},
      {"wip", "empty_deck_penalty", &Ruleset::empty_deck_penalty},
      {"wip", "turncoat", &Ruleset::turncoat},
      {"rulings", "foraged_supply_immediate", &Ruleset::foraged_supply_immediate},
      {"rulings", "overspend_provisions", &Ruleset::overspend_provisions},
      {"rulings", "renowned_unique_per_player", &Ruleset::renowned_unique_per_player},
      {"rulings", "attrition_moves_both_players", &Ruleset::attrition_moves_both_players},
      {"rulings", "combat_split_all", &Ruleset::combat_split_all},
      {"rulings", "defender_strikes_each_combat", &Ruleset::defender_strikes_each_combat},
      {"rulings", "shotte_damage_is_vigor", &Ruleset::shotte_damage_is_vigor},
      {"rulings", "army_ability_counts_in_deck", &Ruleset::army_ability_counts_in_deck},
      {"rulings", "burrowed_troops_hidden", &Ruleset::burrowed_troops_hidden},
      {"rulings", "dwellings_hold_sides", &Ruleset::dwellings_hold_sides},
      {"rulings", "cards_on_territory_spaces", &Ruleset::cards_on_territory_spaces},
      {"rulings", "burrow_while_mustering", &Ruleset::burrow_while_mustering},
      {"rulings", "lost_troops_act", &Ruleset::lost_troops_act},
      {"rulings", "fought_troops_stay", &Ruleset::fought_troops_stay},
      {"rulings", "charge_combats_optional", &Ruleset::charge_combats_optional},
      {"rulings", "strike_back_optional", &Ruleset::strike_back_optional},
      {"rulings", "favor_when_preempted", &Ruleset::favor_when_preempted},
      {"rulings", "favor_same_turn", &Ruleset::favor_same_turn},
      {"rulings", "rarity_per_deck", &Ruleset::rarity_per_deck},
      {"rulings", "beneath_first_territory", &Ruleset::beneath_first_territory},
      {"rulings", "threshold_most_territories", &Ruleset::threshold_most_territories},
      {"rulings", "final_control_any_moment", &Ruleset::final_control_any_moment},
      {"rulings", "unpaid_gambit_morale_penalty", &Ruleset::unpaid_gambit_morale_penalty},
      {"rulings", "leader_from_morale", &Ruleset::leader_from_morale},
      {"rulings", "draws_from_card_text", &Ruleset::draws_from_card_text},
      {"rulings", "dwelling_allegiance_surcharge", &Ruleset::dwelling_allegiance_surcharge},
      {"visibility", "homeland_hidden", &Ruleset::homeland_hidden},
      {"ruleset", "description", static_cast<std::string Ruleset::*>(nullptr)},
      {"ruleset", "based_on", static_cast<std::string Ruleset::*>(nullptr)},
  }};
  return kOptions;
}

std::string where(const toml::source_region& r) {
  return fmt::format("{}:{}", r.begin.line, r.begin.column);
}

// Options that bound each other: a deck minimum above its maximum left
// every deck illegal without saying why.
Expected<void> check_ranges(const toml::table& root, const Ruleset& r) {
  auto check = [&](std::string_view lo_key, int lo, std::string_view hi_key, int hi) -> Expected<void> {
    if (lo <= hi) return {};
    const toml::node* at = root.at_path(fmt::format("deck.{}", lo_key)).node();
    if (at == nullptr) at = root.at_path(fmt::format("deck.{}", hi_key)).node();
    const std::string pos = at != nullptr ? where(at->source()) : std::string("1:1");
    return make_error(ErrorCode::InvalidArgument, fmt::format("{}: deck.{} ({}) is above deck.{} ({})", pos, lo_key,
                                                              lo, hi_key, hi));
  };
  if (auto ok = check("min", r.deck_min, "max", r.deck_max); !ok) return ok;
  return check("orders_min", r.orders_min, "orders_max", r.orders_max);
}

}  // namespace

Expected<Ruleset> parse_ruleset_toml(std::string_view text) {
  toml::table root;
  try {
    root = toml::parse(text);
  } catch (const toml::parse_error& e) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("{}: {}", where(e.source()), std::string(e.description())));
  }

  Ruleset rules;
  std::size_t options_set = 0;
  // Named references, not structured bindings: clang 14 (the fuzz preset)
  // cannot capture a structured binding in the lambda below.
  for (const auto& section_entry : root) {
    const toml::key& section_key = section_entry.first;
    const toml::node& section_node = section_entry.second;
    const toml::table* section = section_node.as_table();
    if (section == nullptr) {
      return make_error(ErrorCode::InvalidArgument,
                        fmt::format("{}: '{}' must be a [section] (ruleset, deck, muster, attrition, wip, rulings)",
                                    where(section_node.source()), clip_for_message(section_key.str())));
    }
    for (const auto& entry : *section) {
      const toml::key& key = entry.first;
      const toml::node& node = entry.second;
      const Option* opt = nullptr;
      for (const auto& o : options()) {
        if (o.section == section_key.str() && o.key == key.str()) opt = &o;
      }
      if (opt == nullptr) {
        return make_error(ErrorCode::InvalidArgument,
                          fmt::format("{}: unknown option '{}.{}' (see samples/rulesets/standard.toml)",
                                      where(key.source()), clip_for_message(section_key.str()),
                                      clip_for_message(key.str())));
      }
      std::optional<Error> err;
      std::visit(
          [&](auto member) {
            using M = decltype(member);
            if constexpr (std::is_same_v<M, int Ruleset::*>) {
              if (const auto* v = node.as_integer(); v && v->get() >= -1000 && v->get() <= 1000) {
                rules.*member = static_cast<int>(v->get());
              } else {
                err = Error{ErrorCode::InvalidArgument,
                            fmt::format("{}: '{}.{}' must be a whole number from -1000 to 1000",
                                        where(node.source()), section_key.str(), key.str())};
              }
            } else if constexpr (std::is_same_v<M, bool Ruleset::*>) {
              if (const auto* v = node.as_boolean()) {
                rules.*member = v->get();
              } else {
                err = Error{ErrorCode::InvalidArgument, fmt::format("{}: '{}.{}' must be true or false",
                                                                    where(node.source()), section_key.str(),
                                                                    key.str())};
              }
            } else {
              const auto* v = node.as_string();
              if (v == nullptr) {
                err = Error{ErrorCode::InvalidArgument, fmt::format("{}: '{}.{}' must be a string",
                                                                    where(node.source()), section_key.str(),
                                                                    key.str())};
              } else if (member != nullptr) {
                rules.*member = v->get();
              }
            }
          },
          opt->field);
      if (err) return tl::unexpected(*err);
      ++options_set;
    }
  }
  // A file that sets nothing used to read as the standard ruleset: an empty
  // file, one of comments only, or sections with no options under them.
  if (options_set == 0) {
    const bool blank = text.find_first_not_of(" \t\r\n") == std::string_view::npos;
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("1:1: {}: expected a [section] with options, as in samples/rulesets/standard.toml",
                                  blank ? "empty ruleset file" : "the ruleset sets no option"));
  }
  if (auto ok = check_ranges(root, rules); !ok) return tl::unexpected(ok.error());
  rules.hash = content_hash(text);
  return rules;
}

Expected<Ruleset> load_ruleset(const std::string& path) {
  auto text = read_text_file(path, kMaxRulesetFileBytes, "ruleset file");
  if (!text) return tl::unexpected(text.error());
  auto rules = parse_ruleset_toml(*text);
  if (!rules) return make_error(rules.error().code, path + ":" + rules.error().message);
  return rules;
}

}  // namespace warlog::core
