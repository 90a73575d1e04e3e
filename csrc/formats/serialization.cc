// The bytes format and the position hash of docs/state.md.
#include "formats/serialization.h"

#include <cstring>

#include "base/rng.h"

namespace vikinger {
namespace {

uint8_t* PutI32(uint8_t* out, int32_t value) {
  const uint32_t bits = static_cast<uint32_t>(value);
  for (int i = 0; i < 4; ++i) *out++ = static_cast<uint8_t>(bits >> (8 * i));
  return out;
}

uint8_t* PutBytes(uint8_t* out, const uint8_t* data, int count) {
  std::memcpy(out, data, count);
  return out + count;
}

uint8_t* PutPlayer(uint8_t* out, const PlayerBoard& board) {
  out = PutI32(out, board.gold);
  out = PutI32(out, board.fame);
  *out++ = board.start_row;
  out = PutBytes(out, board.mainland, kNumColours);
  std::memset(out, 0, kNumColumns);  // ships: 0 empty, 1 red .. 4 blue
  for (int s = 0; s < kNumSails; ++s) {
    for (uint64_t cols = board.ships[s]; cols; cols &= cols - 1) {
      out[__builtin_ctzll(cols)] = static_cast<uint8_t>(1 + s);
    }
  }
  out += kNumColumns;
  for (const IslandRow& row : board.rows) {  // cells: 0 empty, 1 + kind, +16 with a Viking
    const uint64_t occupied = row.Occupied();
    std::memset(out, 0, kNumColumns);
    for (uint64_t cols = occupied; cols; cols &= cols - 1) {
      const int col = __builtin_ctzll(cols) + 1;
      out[col - 1] = static_cast<uint8_t>(1 + row.KindAt(col) +
                                          ((row.vikings & ColumnBit(col)) ? kVikingFlag : 0));
    }
    out += kNumColumns;
  }
  return out;
}

// A player's board as PutPlayer writes it, in another layout for keys alone (no format): the
// island rows as their bit masks (a Viking on a tile only, as SamePosition compares them) and
// the ships as theirs, in the machine's byte order. The same boards give the same bytes and
// different ones different bytes, without spreading 384 cells, which with the hashing of those
// bytes was a third of the endgame solver's time. Rows within 16 columns (all rows of 300 random
// games were within 11) take one word each after a tag byte 0 (63 bytes a board, against
// PutPlayer's 398); a longer row makes the tag 1 and each row four words.
uint8_t* PutPlayerKey(uint8_t* out, const PlayerBoard& board) {
  out = PutI32(out, board.gold);
  out = PutI32(out, board.fame);
  *out++ = board.start_row;
  out = PutBytes(out, board.mainland, kNumColours);
  std::memcpy(out, board.ships, sizeof(board.ships));
  out += sizeof(board.ships);
  uint64_t wide = 0;
  for (const IslandRow& row : board.rows) wide |= row.Occupied() >> 16;
  *out++ = wide != 0;
  for (const IslandRow& row : board.rows) {
    // Each word stored by itself: copied through a local array, the stores stalled the loads.
    const uint64_t on_tiles = row.vikings & row.Occupied();
    if (wide == 0) {
      const uint64_t word = row.mid | row.lo << 16 | row.hi << 32 | on_tiles << 48;
      std::memcpy(out, &word, 8);
      out += 8;
      continue;
    }
    std::memcpy(out, &row.mid, 8);
    std::memcpy(out + 8, &row.lo, 8);
    std::memcpy(out + 16, &row.hi, 8);
    std::memcpy(out + 24, &on_tiles, 8);
    out += 32;
  }
  return out;
}

// A player's A5 tiles and buildings (docs/advanced.md block).
uint8_t* PutPlayerAdvanced(uint8_t* out, const PlayerBoard& board) {
  out = PutBytes(out, board.specials, kNumSpecialKinds);
  for (int b = 0; b < kNumBuildings; ++b) {
    *out++ = board.building_row[b];
    *out++ = board.building_col[b];
  }
  return out;
}

// A player's part of the key bytes: the board (PutPlayerKey), then its A5 tiles and buildings.
uint8_t* PutPlayerKeyPart(uint8_t* out, const PlayerBoard& board) {
  return PutPlayerAdvanced(PutPlayerKey(out, board), board);
}

// docs/state.md's fold: h = len; h = mix(h ^ chunk) for each little-endian 8-byte chunk, the last
// one zero-padded.
uint64_t HashBytes(const uint8_t* data, int size) {
  uint64_t h = static_cast<uint64_t>(size);
  for (int start = 0; start < size; start += 8) {
    uint64_t chunk = 0;
    for (int i = 0; i < 8 && start + i < size; ++i) chunk |= uint64_t{data[start + i]} << (8 * i);
    h = Mix(h ^ chunk);
  }
  return h;
}

// The position bytes, each board written by `put_board` (PutPlayer, or PutPlayerKey for keys).
template <typename PutBoard>
int WritePosition(const Position& p, uint8_t* out, const PutBoard& put_board) {
  uint8_t* const begin = out;
  *out++ = p.num_players;
  *out++ = p.options;
  *out++ = p.round;
  *out++ = static_cast<uint8_t>(p.phase);
  *out++ = p.start_player;
  *out++ = p.purchases;
  *out++ = p.scoring_index;
  out = PutBytes(out, p.stacks, kNumTileKinds);
  out = PutBytes(out, p.bag, kNumColours);
  out = PutBytes(out, p.drawn, kNumColours);
  out = PutBytes(out, p.removed, kNumColours);
  *out++ = p.discarded_tiles;
  for (int s = 0; s < kWheelSpaces; ++s) {
    *out++ = p.wheel.tiles[s];
    *out++ = p.wheel.vikings[s];
  }
  *out++ = p.pending.tile;
  *out++ = p.pending.viking;
  *out++ = p.pending.row;
  *out++ = p.pending.col;
  *out++ = p.trip.length > 0 ? 1 : 0;
  *out++ = p.trip.last_col;
  *out++ = p.trip.length;
  for (int i = 0; i < p.trip.length; ++i) {
    *out++ = p.trip.colour[i];
    *out++ = p.trip.count[i];
  }
  for (int i = 0; i < p.num_players; ++i) out = put_board(out, p.players[i]);
  // docs/advanced.md block: the A1 auction (high 65535 = None) and the A5 tiles.
  const Auction& auction = p.auction;
  const uint16_t high = auction.present ? auction.high : kNoBid;
  *out++ = auction.present;
  *out++ = static_cast<uint8_t>(high & 0xFF);
  *out++ = static_cast<uint8_t>(high >> 8);
  *out++ = auction.present ? auction.leader : 0;
  *out++ = auction.present ? auction.turn : 0;
  *out++ = auction.present ? auction.passed : 0;
  out = PutBytes(out, p.specials.stack, kNumSpecialKinds);
  out = PutBytes(out, p.specials.display, kDisplaySlots);
  out = PutBytes(out, p.specials.removed, kNumSpecialKinds);
  for (int i = 0; i < p.num_players; ++i) out = PutPlayerAdvanced(out, p.players[i]);
  return static_cast<int>(out - begin);
}

}  // namespace

int PositionBytes(const Position& p, uint8_t* out) { return WritePosition(p, out, PutPlayer); }

int PositionKeyBytes(const Position& p, uint8_t* out) {
  return WritePosition(p, out, PutPlayerKey);
}

std::string Serialize(const State& state) {
  uint8_t position[kMaxPositionBytes];
  const int size = PositionBytes(state.position, position);
  std::string bytes(kMagic, kMagicSize);
  bytes.push_back(static_cast<char>(kFormatVersion));
  bytes.append(reinterpret_cast<const char*>(position), size);
  const uint32_t count = static_cast<uint32_t>(state.history.size());
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>(count >> (8 * i)));
  for (uint16_t action : state.history) {
    bytes.push_back(static_cast<char>(action & 0xFF));
    bytes.push_back(static_cast<char>(action >> 8));
  }
  return bytes;
}

uint64_t HashKey(const Position& p) {
  uint8_t data[kMaxPositionBytes];
  return HashBytes(data, PositionBytes(p, data));
}

int ScorerBytes(const Position& p, int player, uint8_t* out) {
  uint8_t* const begin = out;
  *out++ = p.options;
  *out++ = static_cast<uint8_t>(p.phase);
  *out++ = p.trip.length > 0 ? 1 : 0;
  *out++ = p.trip.last_col;
  *out++ = p.trip.length;
  for (int i = 0; i < p.trip.length; ++i) {
    *out++ = p.trip.colour[i];
    *out++ = p.trip.count[i];
  }
  return static_cast<int>(PutPlayerKeyPart(out, p.players[player]) - begin);
}

int OtherScorerBytes(const Position& p, int player, uint8_t* out) {
  uint8_t* const begin = out;
  *out++ = p.options;
  *out++ = 0xFF;
  *out++ = p.scoring_index;
  return static_cast<int>(PutPlayerKeyPart(out, p.players[player]) - begin);
}

}  // namespace vikinger

namespace vikinger {
namespace {

// Reads the bytes front to back; running past the end is a truncation.
class Reader {
 public:
  explicit Reader(const std::string& data) : data_(data) {}
  const uint8_t* Take(size_t count) {
    if (at_ + count > data_.size()) {
      Fail("bytes end at " + std::to_string(data_.size()) + ", " + std::to_string(at_ + count) +
           " needed (truncated)");
    }
    const uint8_t* chunk = reinterpret_cast<const uint8_t*>(data_.data()) + at_;
    at_ += count;
    return chunk;
  }
  uint8_t U8() { return *Take(1); }
  uint32_t U32() {
    const uint8_t* b = Take(4);
    return uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
  }
  size_t Remaining() const { return data_.size() - at_; }

 private:
  const std::string& data_;
  size_t at_ = 0;
};

int32_t I32At(const uint8_t* b) {
  return static_cast<int32_t>(uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 |
                              uint32_t{b[3]} << 24);
}

// A name byte: kNone for None, otherwise an index below `count`; `where`, or where[index]field.
int NameOrNone(uint8_t value, int count, const char* where, int index = -1,
               const char* field = "") {
  if (value == kNone) return -1;
  if (value >= count) {
    const std::string at = index < 0 ? "" : "[" + std::to_string(index) + "]" + field;
    Fail(std::string(where) + at + " byte " + std::to_string(value) + " is out of range");
  }
  return value;
}

void ReadCounts(Reader& r, int64_t* out, int count) {
  const uint8_t* bytes = r.Take(count);
  for (int i = 0; i < count; ++i) out[i] = bytes[i];
}

PlayerDescription ReadPlayer(Reader& r) {
  PlayerDescription player = EmptyPlayerDescription();
  const uint8_t* money = r.Take(8);  // read as one, as the reference unpacks "<ii"
  player.gold = I32At(money);
  player.fame = I32At(money + 4);
  player.start_row = r.U8();
  ReadCounts(r, player.mainland, kNumColours);
  const uint8_t* ships = r.Take(kNumColumns);
  for (int c = 0; c < kNumColumns; ++c) {
    if (ships[c] > kNumSails) Fail("ship byte " + std::to_string(ships[c]) + " is out of range");
    player.ships[c] = static_cast<int8_t>(ships[c] ? kShipRed + ships[c] - 1 : -1);
  }
  for (int row = 0; row < kNumRows; ++row) {
    const uint8_t* cells = r.Take(kNumColumns);
    for (int c = 0; c < kNumColumns; ++c) {
      const int kind = cells[c] & ~kVikingFlag;
      const bool viking = cells[c] & kVikingFlag;
      if (kind > kRight + 1 || (viking && kind == 0)) {
        Fail("cell byte " + std::to_string(cells[c]) + " is out of range");
      }
      player.tiles[row][c] = static_cast<int8_t>(kind - 1);
      if (viking) player.vikings[row] |= ColumnBit(c + 1);
    }
  }
  return player;
}

// docs/advanced.md: the A1 auction and the A5 tiles, after the players.
void ReadAdvanced(Reader& r, StateDescription& d) {
  // Read in the reference's pieces (present, high, leader turn passed), so that truncated
  // bytes end at the same place.
  uint8_t auction[6];
  auction[0] = r.U8();
  std::memcpy(auction + 1, r.Take(2), 2);
  std::memcpy(auction + 3, r.Take(3), 3);
  const int high = auction[1] | auction[2] << 8;
  if (auction[0] > 1 || auction[5] >> d.num_players) Fail("auction bytes out of range");
  if (auction[0]) {
    d.has_auction = true;
    d.auction_high = high == kNoBid ? -1 : high;
    d.auction_leader = auction[3];
    d.auction_turn = auction[4];
    for (int i = 0; i < d.num_players; ++i) d.auction_passed.push_back((auction[5] >> i) & 1);
  } else if (high != kNoBid || auction[3] || auction[4] || auction[5]) {
    Fail("auction bytes set without an auction");
  }
  ReadCounts(r, d.special_stack, kNumSpecialKinds);
  const uint8_t* display = r.Take(kDisplaySlots);
  for (int i = 0; i < kDisplaySlots; ++i)
    d.display[i] = NameOrNone(display[i], kNumSpecialKinds, "display");
  ReadCounts(r, d.special_removed, kNumSpecialKinds);
  for (PlayerDescription& player : d.players) {
    ReadCounts(r, player.specials, kNumSpecialKinds);
    const uint8_t* cells = r.Take(2 * kNumBuildings);
    for (int b = 0; b < kNumBuildings; ++b) {
      player.has_building[b] = cells[2 * b] != 0 || cells[2 * b + 1] != 0;
      player.building_row[b] = cells[2 * b];
      player.building_col[b] = cells[2 * b + 1];
    }
  }
}

}  // namespace

void CheckFormatVersion(int64_t version, const char* what) {
  const std::string current = std::to_string(kFormatVersion);
  if (version == 1) {
    Fail(std::string(what) +
         " 1 is the format before the A0 round order (docs/state.md) and cannot be read; this "
         "engine reads version " +
         current);
  }
  if (version != kFormatVersion) {
    Fail(std::string(what) + " " + std::to_string(version) + " is not " + current);
  }
}

StateDescription BytesToDescription(const std::string& data) {
  Reader r(data);
  if (std::memcmp(r.Take(kMagicSize), kMagic, kMagicSize) != 0) {
    Fail("the bytes do not start with b'VKNG'");
  }
  StateDescription d;
  d.version = r.U8();
  CheckFormatVersion(d.version, "format version");
  const uint8_t* head = r.Take(7);
  d.num_players = head[0];
  if (d.num_players < kMinPlayers || d.num_players > kMaxPlayers)
    Fail("num_players " + std::to_string(d.num_players) + " is outside 2..4");
  if (head[3] >= kNumPhases) Fail("phase byte " + std::to_string(head[3]) + " is out of range");
  d.options = head[1];
  d.round = head[2];
  d.phase = head[3];
  d.start_player = head[4];
  d.purchases = head[5];
  d.scoring_index = head[6];
  ReadCounts(r, d.stacks, kNumTileKinds);
  ReadCounts(r, d.bag, kNumColours);
  ReadCounts(r, d.drawn, kNumColours);
  ReadCounts(r, d.removed, kNumColours);
  d.discarded_tiles = r.U8();
  if (d.options >> kNumOptions) {
    Fail("options byte " + std::to_string(d.options) + " has unknown bits");
  }
  // A group, pending purchase or trip entry without a tile, Viking or colour is refused later,
  // where the checks of the dict it stands for reach it (CheckDescription).
  for (int s = 0; s < kWheelSpaces; ++s) {
    const uint8_t* group = r.Take(2);
    if (group[0] == kNone && group[1] == kNone) continue;
    d.wheel_tile[s] = NameOrNone(group[0], kNumTileKinds, "wheel", s, ".tile");
    d.wheel_viking[s] = NameOrNone(group[1], kNumColours, "wheel", s, ".viking");
  }
  const uint8_t* pending = r.Take(4);
  if (pending[0] != kNone || pending[1] != kNone) {
    d.has_pending = true;
    d.pending_tile = NameOrNone(pending[0], kNumTileKinds, "pending.tile");
    d.pending_viking = NameOrNone(pending[1], kNumColours, "pending.viking");
    d.has_cell = pending[2] != 0 || pending[3] != 0;
    d.pending_row = pending[2];
    d.pending_col = pending[3];
  } else if (pending[2] || pending[3]) {
    Fail("pending bytes set without a pending purchase");
  }
  const uint8_t* trip = r.Take(3);
  if (trip[0] > 1) Fail("trip byte " + std::to_string(trip[0]) + " is not 0 or 1");
  for (int i = 0; i < trip[2]; ++i) {
    const uint8_t* entry = r.Take(2);
    d.queue_colour.push_back(NameOrNone(entry[0], kNumColours, "trip colour"));
    d.queue_count.push_back(entry[1]);
  }
  d.has_trip = trip[0] == 1;
  d.last_col = trip[1];
  if (!d.has_trip && (trip[1] || trip[2])) Fail("trip bytes set without a trip");
  for (int i = 0; i < d.num_players; ++i) d.players.push_back(ReadPlayer(r));
  ReadAdvanced(r, d);
  const uint32_t count = r.U32();
  if (count > data.size()) Fail("history truncated");
  const uint8_t* history = r.Take(size_t{count} * 2);
  for (uint32_t i = 0; i < count; ++i)
    d.history.push_back(history[2 * i] | history[2 * i + 1] << 8);
  if (r.Remaining()) Fail(std::to_string(r.Remaining()) + " bytes after the end of the state");
  return d;
}

}  // namespace vikinger
