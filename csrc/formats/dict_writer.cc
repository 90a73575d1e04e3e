// Writing the canonical dict of docs/state.md as a Value tree (to_dict; the reference's
// dict_writer.py). Reading it back is dict_reader.cc.
#include "formats/dict_writer.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "formats/serialization.h"
#include "rules/actions.h"

namespace vikinger {
namespace {

template <typename Count>
Value NamedCounts(const char* const* names, const Count* counts, int n) {
  Value d = Value::Dict();
  for (int i = 0; i < n; ++i) d.Set(names[i], Value::Int(counts[i]));
  return d;
}

Value IntList(std::initializer_list<int64_t> values) {
  Value list = Value::List();
  for (int64_t v : values) list.Append(Value::Int(v));
  return list;
}

// A row or ship string: one short per column 1..64, trailing empty columns cut.
std::string CutEmpty(std::string text) {
  text.erase(text.find_last_not_of('.') + 1);
  return text;
}

Value PlayerToDict(const PlayerBoard& board) {
  Value d = Value::Dict();
  d.Set("gold", Value::Int(board.gold));
  d.Set("fame", Value::Int(board.fame));
  d.Set("start_row", board.start_row ? Value::Int(board.start_row) : Value());
  d.Set("mainland", NamedCounts(kColourNames, board.mainland, kNumColours));
  std::string ships;
  for (int col = 1; col <= kNumColumns; ++col) {
    const int kind = board.ShipAt(col);
    ships += kind < 0 ? '.' : kTileShort[kind];
  }
  d.Set("ships", Value::Str(CutEmpty(ships)));
  Value& rows = d.Set("rows", Value::List());
  Value vikings = Value::List();
  for (int row = 1; row <= kNumRows; ++row) {
    const IslandRow& r = board.Row(row);
    std::string text;
    for (int col = 1; col <= kNumColumns; ++col) {
      const int kind = r.KindAt(col);
      text += kind < 0 ? '.' : kTileShort[kind];
    }
    rows.Append(Value::Str(CutEmpty(text)));
    Value& cols = vikings.Append(Value::List());
    for (uint64_t bits = r.vikings; bits; bits &= bits - 1) {
      cols.Append(Value::Int(LowestColumn(bits)));
    }
  }
  d.Set("vikings", std::move(vikings));
  // docs/advanced.md: A5 tiles held, and the cells of the placed building tiles.
  d.Set("specials", NamedCounts(kSpecialKindNames, board.specials, kNumSpecialKinds));
  Value& buildings = d.Set("buildings", Value::List());
  for (int b = 0; b < kNumBuildings; ++b) {
    buildings.Append(board.building_row[b] ? IntList({board.building_row[b], board.building_col[b]})
                                           : Value());
  }
  return d;
}

// --- reading --------------------------------------------------------------------------------

}  // namespace

Value OptionsToDict(int options) {
  Value d = Value::Dict();
  for (int i = 0; i < kNumOptions; ++i) d.Set(kOptionNames[i], Value::Bool((options >> i) & 1));
  return d;
}

Value StateToDict(const State& state) {
  const Position& p = state.position;
  Value d = Value::Dict();
  d.Set("version", Value::Int(kFormatVersion));
  d.Set("num_players", Value::Int(p.num_players));
  d.Set("options", OptionsToDict(p.options));
  d.Set("round", Value::Int(p.round));
  d.Set("phase", Value::Str(kPhaseNames[static_cast<int>(p.phase)]));
  d.Set("start_player", Value::Int(p.start_player));
  d.Set("purchases", Value::Int(p.purchases));
  d.Set("scoring_index", Value::Int(p.scoring_index));
  d.Set("stacks", NamedCounts(kTileKindNames, p.stacks, kNumTileKinds));
  d.Set("bag", NamedCounts(kColourNames, p.bag, kNumColours));
  d.Set("drawn", NamedCounts(kColourNames, p.drawn, kNumColours));
  d.Set("removed", NamedCounts(kColourNames, p.removed, kNumColours));
  d.Set("discarded_tiles", Value::Int(p.discarded_tiles));
  Value& wheel = d.Set("wheel", Value::List());
  for (int s = 0; s < kWheelSpaces; ++s) {
    if (!(p.wheel.occupied & (1u << s))) {
      wheel.Append(Value());
      continue;
    }
    Value& group = wheel.Append(Value::Dict());
    group.Set("tile", Value::Str(kTileKindNames[p.wheel.tiles[s]]));
    const uint8_t viking = p.wheel.vikings[s];
    group.Set("viking", viking == kNone ? Value() : Value::Str(kColourNames[viking]));
  }
  Value& pending = d.Set("pending", Value());
  if (p.pending.tile != kNone) {
    pending = Value::Dict();
    pending.Set("tile", Value::Str(kTileKindNames[p.pending.tile]));
    pending.Set("viking", Value::Str(kColourNames[p.pending.viking]));
    pending.Set("cell", p.pending.row ? IntList({p.pending.row, p.pending.col}) : Value());
  }
  Value& trip = d.Set("trip", Value());
  if (p.trip.length) {
    trip = Value::Dict();
    Value& queue = trip.Set("queue", Value::List());
    for (int i = 0; i < p.trip.length; ++i) {
      Value& entry = queue.Append(Value::List());
      entry.Append(Value::Str(kColourNames[p.trip.colour[i]]));
      entry.Append(Value::Int(p.trip.count[i]));
    }
    trip.Set("last_col", Value::Int(p.trip.last_col));
  }
  // docs/advanced.md: always present (A1 auction, A5 special tiles).
  Value& auction = d.Set("auction", Value());
  if (p.auction.present) {
    auction = Value::Dict();
    auction.Set("high", p.auction.high == kNoBid ? Value() : Value::Int(p.auction.high));
    auction.Set("leader", Value::Int(p.auction.leader));
    Value& passed = auction.Set("passed", Value::List());
    for (int i = 0; i < p.num_players; ++i) passed.Append(Value::Bool((p.auction.passed >> i) & 1));
    auction.Set("turn", Value::Int(p.auction.turn));
  }
  d.Set("special_stack", NamedCounts(kSpecialKindNames, p.specials.stack, kNumSpecialKinds));
  Value& display = d.Set("display", Value::List());
  for (int i = 0; i < kDisplaySlots; ++i) {
    const uint8_t kind = p.specials.display[i];
    display.Append(kind == kNone ? Value() : Value::Str(kSpecialKindNames[kind]));
  }
  d.Set("special_removed", NamedCounts(kSpecialKindNames, p.specials.removed, kNumSpecialKinds));
  Value& players = d.Set("players", Value::List());
  for (int i = 0; i < p.num_players; ++i) players.Append(PlayerToDict(p.players[i]));
  Value& history = d.Set("history", Value::List());
  for (uint16_t action : state.history) history.Append(Value::Int(action));
  return d;
}

}  // namespace vikinger
