// str(state): the text board of docs/state.md.
#include "formats/text.h"

#include <string>

namespace vikinger {
namespace {

std::string Counts(const uint8_t* counts) {
  std::string out;
  for (int c = 0; c < kNumColours; ++c) {
    if (c) out += ' ';
    out += kColourShort[c];
    out += '=';
    out += std::to_string(counts[c]);
  }
  return out;
}

void RightStrip(std::string& line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
}

// The label column: two spaces, the name left-justified in 10, then '|'.
std::string Label(const char* name) {
  std::string label = std::string("  ") + name;
  label.resize(12, ' ');
  return label + '|';
}

int HighestColumn(const PlayerBoard& board) {
  uint64_t used = board.ShipColumns();
  for (const IslandRow& row : board.rows) used |= row.Occupied();
  return used ? 64 - __builtin_clzll(used) : 0;
}

// A5: `kind=count` for held tiles; placed buildings as `building2@r3c4`.
std::string HeldSpecials(const PlayerBoard& board) {
  std::string out;
  for (int kind = 0; kind < kNumSpecialKinds; ++kind) {
    if (!board.specials[kind]) continue;
    if (!out.empty()) out += ' ';
    out += kSpecialKindNames[kind];
    const int b = kind - kBuilding1;
    if (b >= 0 && board.building_row[b]) {
      out += "@r" + std::to_string(board.building_row[b]) + 'c' +
             std::to_string(board.building_col[b]);
    } else {
      out += '=' + std::to_string(board.specials[kind]);
    }
  }
  return out;
}

void AppendPlayer(const PlayerBoard& board, int index, std::string& out) {
  out += "\nPlayer " + std::to_string(index) + ": gold " + std::to_string(board.gold) + ", fame " +
         std::to_string(board.fame) + ", mainland " + Counts(board.mainland);
  const int width = HighestColumn(board);
  std::string line = Label("ships");
  for (int col = 1; col <= width; ++col) {
    const int ship = board.ShipAt(col);
    line += ship < 0 ? '.' : kTileShort[ship];
    line += ' ';
  }
  RightStrip(line);
  out += '\n' + line;
  const std::string held = HeldSpecials(board);
  if (!held.empty()) out += "\n  specials  " + held;
  for (int row = 1; row <= kNumRows; ++row) {
    const IslandRow& r = board.Row(row);
    line = Label(kRowNames[row - 1]);
    for (int col = 1; col <= width; ++col) {
      const int kind = r.KindAt(col);
      line += kind < 0 ? '.' : kTileShort[kind];
      line += (r.vikings & ColumnBit(col)) ? '*' : ' ';
    }
    RightStrip(line);
    out += '\n' + line;
  }
}

}  // namespace

std::string RenderText(const Position& p) {
  const int player = CurrentPlayer(p);
  std::string out = "Round " + std::to_string(p.round) + "/6 | phase " +
                    kPhaseNames[static_cast<int>(p.phase)] + " | start player " +
                    std::to_string(p.start_player) + " | ";
  out += player == kChance     ? std::string("chance")
         : player == kTerminal ? std::string("game over")
                               : "player " + std::to_string(player) + " to move";
  const uint16_t occupied = p.wheel.OccupiedMask();
  if (!occupied) {
    out += "\nWheel: empty";
  } else {
    out += "\nWheel:";
    const int low = __builtin_ctz(occupied);
    for (int s = 0; s < kWheelSpaces; ++s) {
      if (!(occupied & (1u << s))) continue;
      const uint8_t viking = p.wheel.vikings[s];
      out += ' ' + std::to_string(s) + ':' + kTileShort[p.wheel.tiles[s]] + '/' +
             (viking == kNone ? "-" : kColourNames[viking]) + '$' + std::to_string(s - low);
    }
  }
  out += "\nStacks:";
  for (int k = 0; k < kNumTileKinds; ++k) {
    out += ' ';
    out += kTileShort[k];
    out += '=' + std::to_string(p.stacks[k]);
  }
  out += "\nBag: " + Counts(p.bag) + " | drawn: " + Counts(p.drawn);
  if (p.pending.tile != kNone) {
    out += std::string("\nPending: tile ") + kTileShort[p.pending.tile] + ", viking " +
           kColourNames[p.pending.viking];
    if (p.pending.row) {
      out += ", cell r" + std::to_string(p.pending.row) + 'c' + std::to_string(p.pending.col);
    }
  }
  if (p.auction.present) {  // A1
    out += "\nAuction: high " +
           (p.auction.high == kNoBid ? std::string("-") : std::to_string(p.auction.high)) +
           " by player " + std::to_string(p.auction.leader) + ", turn " +
           std::to_string(p.auction.turn) + ", passed ";
    std::string passed;
    for (int q = 0; q < p.num_players; ++q) {
      if (!((p.auction.passed >> q) & 1)) continue;
      if (!passed.empty()) passed += ',';
      passed += std::to_string(q);
    }
    out += passed.empty() ? "none" : passed;
  }
  if (HasOption(p, kOptSpecialTiles)) {  // A5
    out += "\nDisplay:";
    int stack = 0;
    for (int i = 0; i < kDisplaySlots; ++i) {
      const uint8_t kind = p.specials.display[i];
      out += ' ';
      out += kind == kNone ? "-" : kSpecialKindNames[kind];
    }
    for (int k = 0; k < kNumSpecialKinds; ++k) stack += p.specials.stack[k];
    out += " | stack " + std::to_string(stack);
  }
  if (p.trip.length) {
    out += "\nTrip:";
    for (int i = 0; i < p.trip.length; ++i) {
      out += ' ';
      out += kColourShort[p.trip.colour[i]];
      out += "\u00d7" + std::to_string(p.trip.count[i]);
    }
    out += " from c" + std::to_string(p.trip.last_col);
  }
  for (int i = 0; i < p.num_players; ++i) AppendPlayer(p.players[i], i, out);
  return out;
}

}  // namespace vikinger
