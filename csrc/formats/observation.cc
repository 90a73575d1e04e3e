// The observation tensor of docs/state.md.
#include "formats/observation.h"

#include <cstring>

namespace vikinger {
namespace {

// Global block offsets.
constexpr int kRoundOffset = 0;
constexpr int kPhaseOffset = 6;
constexpr int kToMoveOffset = 22;
constexpr int kStartOffset = 26;
constexpr int kPurchasesOffset = 30;
constexpr int kWheelOffset = 31;
constexpr int kWheelEntry = 18;  // occupied, tile kind x10, Viking colour x6, price
constexpr int kStacksOffset = 247;
constexpr int kBagOffset = 257;
constexpr int kDrawnOffset = 263;
constexpr int kPendingTileOffset = 269;
constexpr int kPendingVikingOffset = 279;
constexpr int kPendingCellOffset = 285;
constexpr int kTripQueueOffset = 287;
constexpr int kTripLastOffset = 293;
// Player block offsets.
constexpr int kCellFeatures = 4;  // left piece, middle piece, right piece, Viking
constexpr int kShipsOffset = 1280;
constexpr int kMainlandOffset = 1536;
constexpr int kGoldOffset = 1542;
constexpr int kFameOffset = 1543;
constexpr int kStartedOffset = 1544;
// Advanced block offsets (docs/advanced.md): auction 10, display 4 x 14, special stack 14.
constexpr int kAuctionOnOffset = 0;
constexpr int kAuctionHighOffset = 1;
constexpr int kAuctionLeaderOffset = 2;
constexpr int kAuctionPassedOffset = 6;
constexpr int kDisplayOffset = 10;
constexpr int kSpecialStackOffset = 66;
// Per-player advanced block: specials 14, then buildings 4 x (row, col).
constexpr int kBuildingsOffset = kNumSpecialKinds;

static_assert(kObsGlobalSize == kTripLastOffset + 1, "global block size");
static_assert(kWheelOffset + kWheelEntry * kWheelSpaces == kStacksOffset, "wheel block size");
static_assert(kObsPlayerSize == kStartedOffset + 1, "player block size");
static_assert(kShipsOffset == kNumRows * kNumColumns * kCellFeatures, "cell block size");
static_assert(kObsAdvancedSize == kSpecialStackOffset + kNumSpecialKinds, "advanced block size");
static_assert(kObsPlayerAdvancedSize == kBuildingsOffset + 2 * kNumBuildings, "player advanced");

void SetBits(uint64_t mask, float* base, int feature) {
  for (; mask; mask &= mask - 1) base[__builtin_ctzll(mask) * kCellFeatures + feature] = 1.0f;
}

void PlayerBlock(const PlayerBoard& board, float* out) {
  for (int row = 1; row <= kNumRows; ++row) {
    const IslandRow& r = board.Row(row);
    float* cells = out + (row - 1) * kNumColumns * kCellFeatures;
    SetBits(r.LeftPieces(), cells, 0);
    SetBits(r.mid, cells, 1);
    SetBits(r.RightPieces(), cells, 2);
    SetBits(r.vikings, cells, 3);
  }
  for (int s = 0; s < kNumSails; ++s) {
    for (uint64_t cols = board.ships[s]; cols; cols &= cols - 1) {
      out[kShipsOffset + __builtin_ctzll(cols) * 4 + s] = 1.0f;
    }
  }
  for (int c = 0; c < kNumColours; ++c) out[kMainlandOffset + c] = board.mainland[c];
  out[kGoldOffset] = static_cast<float>(board.gold);
  out[kFameOffset] = static_cast<float>(board.fame);
  out[kStartedOffset] = board.start_row != 0 ? 1.0f : 0.0f;
}

}  // namespace

void ObservationTensor(const Position& p, int player, float* out) {
  const int n = p.num_players;
  std::memset(out, 0, sizeof(float) * ObservationSize(n));
  auto slot = [&](int q) { return (q - player + n) % n; };
  out[kRoundOffset + p.round - 1] = 1.0f;
  out[kPhaseOffset + static_cast<int>(p.phase)] = 1.0f;
  const int to_move = CurrentPlayer(p);
  if (to_move >= 0) out[kToMoveOffset + slot(to_move)] = 1.0f;
  out[kStartOffset + slot(p.start_player)] = 1.0f;
  out[kPurchasesOffset] = p.purchases;
  const uint16_t occupied = p.wheel.OccupiedMask();
  const int low = occupied ? __builtin_ctz(occupied) : 0;
  for (int s = 0; s < kWheelSpaces; ++s) {
    if (!(occupied & (1u << s))) continue;
    float* entry = out + kWheelOffset + kWheelEntry * s;
    entry[0] = 1.0f;
    entry[1 + p.wheel.tiles[s]] = 1.0f;
    if (p.wheel.vikings[s] != kNone) entry[1 + kNumTileKinds + p.wheel.vikings[s]] = 1.0f;
    entry[1 + kNumTileKinds + kNumColours] = static_cast<float>(s - low);
  }
  for (int k = 0; k < kNumTileKinds; ++k) out[kStacksOffset + k] = p.stacks[k];
  for (int c = 0; c < kNumColours; ++c) {
    out[kBagOffset + c] = p.bag[c];
    out[kDrawnOffset + c] = p.drawn[c];
  }
  if (p.pending.tile != kNone) {
    out[kPendingTileOffset + p.pending.tile] = 1.0f;
    out[kPendingVikingOffset + p.pending.viking] = 1.0f;
    out[kPendingCellOffset] = p.pending.row;
    out[kPendingCellOffset + 1] = p.pending.col;
  }
  for (int i = 0; i < p.trip.length; ++i)
    out[kTripQueueOffset + p.trip.colour[i]] += p.trip.count[i];
  out[kTripLastOffset] = p.trip.last_col;
  for (int q = 0; q < n; ++q)
    PlayerBlock(p.players[q], out + kObsGlobalSize + kObsPlayerSize * slot(q));
  // docs/advanced.md: the A1 auction and the A5 special tiles.
  float* advanced = out + kObsGlobalSize + kObsPlayerSize * n;
  if (p.auction.present) {
    advanced[kAuctionOnOffset] = 1.0f;
    advanced[kAuctionHighOffset] = p.auction.high == kNoBid ? 0.0f : p.auction.high;
    advanced[kAuctionLeaderOffset + slot(p.auction.leader)] = 1.0f;
    for (int q = 0; q < n; ++q) {
      if ((p.auction.passed >> q) & 1) advanced[kAuctionPassedOffset + slot(q)] = 1.0f;
    }
  }
  for (int i = 0; i < kDisplaySlots; ++i) {
    const uint8_t kind = p.specials.display[i];
    if (kind != kNone) advanced[kDisplayOffset + kNumSpecialKinds * i + kind] = 1.0f;
  }
  for (int k = 0; k < kNumSpecialKinds; ++k)
    advanced[kSpecialStackOffset + k] = p.specials.stack[k];
  for (int q = 0; q < n; ++q) {
    const PlayerBoard& board = p.players[q];
    float* at = advanced + kObsAdvancedSize + kObsPlayerAdvancedSize * slot(q);
    for (int k = 0; k < kNumSpecialKinds; ++k) at[k] = board.specials[k];
    for (int b = 0; b < kNumBuildings; ++b) {
      if (!board.building_row[b]) continue;
      at[kBuildingsOffset + 2 * b] = board.building_row[b];
      at[kBuildingsOffset + 2 * b + 1] = board.building_col[b];
    }
  }
}

namespace {

// The non-zero entries of ObservationTensor, written where it writes them.
struct FeatureList {
  int32_t* index;
  int32_t* value;
  int count = 0;

  void Add(int at, int v) {
    if (v == 0) return;
    index[count] = at;
    value[count] = v;
    ++count;
  }
  void AddBits(uint64_t mask, int cells, int feature) {
    for (; mask; mask &= mask - 1) Add(cells + __builtin_ctzll(mask) * kCellFeatures + feature, 1);
  }
};

void PlayerFeatures(const PlayerBoard& board, int base, FeatureList* f) {
  for (int row = 1; row <= kNumRows; ++row) {
    const IslandRow& r = board.Row(row);
    const int cells = base + (row - 1) * kNumColumns * kCellFeatures;
    f->AddBits(r.LeftPieces(), cells, 0);
    f->AddBits(r.mid, cells, 1);
    f->AddBits(r.RightPieces(), cells, 2);
    f->AddBits(r.vikings, cells, 3);
  }
  for (int s = 0; s < kNumSails; ++s) {
    for (uint64_t cols = board.ships[s]; cols; cols &= cols - 1) {
      f->Add(base + kShipsOffset + __builtin_ctzll(cols) * 4 + s, 1);
    }
  }
  for (int c = 0; c < kNumColours; ++c) f->Add(base + kMainlandOffset + c, board.mainland[c]);
  f->Add(base + kGoldOffset, board.gold);
  f->Add(base + kFameOffset, board.fame);
  f->Add(base + kStartedOffset, board.start_row != 0 ? 1 : 0);
}

}  // namespace

int ObservationFeatures(const Position& p, int player, int32_t* index, int32_t* value) {
  const int n = p.num_players;
  FeatureList f{index, value};
  auto slot = [&](int q) { return (q - player + n) % n; };
  f.Add(kRoundOffset + p.round - 1, 1);
  f.Add(kPhaseOffset + static_cast<int>(p.phase), 1);
  const int to_move = CurrentPlayer(p);
  if (to_move >= 0) f.Add(kToMoveOffset + slot(to_move), 1);
  f.Add(kStartOffset + slot(p.start_player), 1);
  f.Add(kPurchasesOffset, p.purchases);
  const uint16_t occupied = p.wheel.OccupiedMask();
  const int low = occupied ? __builtin_ctz(occupied) : 0;
  for (int s = 0; s < kWheelSpaces; ++s) {
    if (!(occupied & (1u << s))) continue;
    const int entry = kWheelOffset + kWheelEntry * s;
    f.Add(entry, 1);
    f.Add(entry + 1 + p.wheel.tiles[s], 1);
    if (p.wheel.vikings[s] != kNone) f.Add(entry + 1 + kNumTileKinds + p.wheel.vikings[s], 1);
    f.Add(entry + 1 + kNumTileKinds + kNumColours, s - low);
  }
  for (int k = 0; k < kNumTileKinds; ++k) f.Add(kStacksOffset + k, p.stacks[k]);
  for (int c = 0; c < kNumColours; ++c) f.Add(kBagOffset + c, p.bag[c]);
  for (int c = 0; c < kNumColours; ++c) f.Add(kDrawnOffset + c, p.drawn[c]);
  if (p.pending.tile != kNone) {
    f.Add(kPendingTileOffset + p.pending.tile, 1);
    f.Add(kPendingVikingOffset + p.pending.viking, 1);
    f.Add(kPendingCellOffset, p.pending.row);
    f.Add(kPendingCellOffset + 1, p.pending.col);
  }
  int queue[kNumColours] = {};  // a colour may stand in the queue more than once
  for (int i = 0; i < p.trip.length; ++i) queue[p.trip.colour[i]] += p.trip.count[i];
  for (int c = 0; c < kNumColours; ++c) f.Add(kTripQueueOffset + c, queue[c]);
  f.Add(kTripLastOffset, p.trip.last_col);
  for (int k = 0; k < n; ++k) {
    PlayerFeatures(p.players[(player + k) % n], kObsGlobalSize + kObsPlayerSize * k, &f);
  }
  // docs/advanced.md: the A1 auction and the A5 special tiles.
  const int advanced = kObsGlobalSize + kObsPlayerSize * n;
  if (p.auction.present) {
    f.Add(advanced + kAuctionOnOffset, 1);
    f.Add(advanced + kAuctionHighOffset, p.auction.high == kNoBid ? 0 : p.auction.high);
    f.Add(advanced + kAuctionLeaderOffset + slot(p.auction.leader), 1);
    for (int q = 0; q < n; ++q) {
      if ((p.auction.passed >> q) & 1) f.Add(advanced + kAuctionPassedOffset + slot(q), 1);
    }
  }
  for (int i = 0; i < kDisplaySlots; ++i) {
    const uint8_t kind = p.specials.display[i];
    if (kind != kNone) f.Add(advanced + kDisplayOffset + kNumSpecialKinds * i + kind, 1);
  }
  for (int k = 0; k < kNumSpecialKinds; ++k) {
    f.Add(advanced + kSpecialStackOffset + k, p.specials.stack[k]);
  }
  for (int k = 0; k < n; ++k) {
    const PlayerBoard& board = p.players[(player + k) % n];
    const int at = advanced + kObsAdvancedSize + kObsPlayerAdvancedSize * k;
    for (int s = 0; s < kNumSpecialKinds; ++s) f.Add(at + s, board.specials[s]);
    for (int b = 0; b < kNumBuildings; ++b) {
      if (!board.building_row[b]) continue;
      f.Add(at + kBuildingsOffset + 2 * b, board.building_row[b]);
      f.Add(at + kBuildingsOffset + 2 * b + 1, board.building_col[b]);
    }
  }
  return f.count;
}

}  // namespace vikinger
