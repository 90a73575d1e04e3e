// The fused random playout (see playout.h): B3-B8 and A0-A5 as straight-line code on the board,
// wheel, auction, special-tile and trip primitives that the state machine uses too.
#include "play/playout.h"

#include <cstring>

#include "base/bits.h"
#include "base/rng.h"
#include "play/packed_rows.h"
#include "play/playout_modules.h"
#include "rules/actions.h"
#include "rules/auction.h"
#include "rules/scoring.h"
#include "rules/specials.h"
#include "rules/trips.h"

#if VIKINGER_HAVE_PDEP
#include <cpuid.h>
#endif

namespace vikinger {

namespace {

// The k-th set bit of a legal mask, the k-th legal action, in two ways that give the same bits:
// the playout is a template on them and is compiled once with each (FusedPlayout<TableSelect>,
// FusedPlayout<PdepSelect>); PlayFusedRandomGame picks one per call. Each has
//   Small(mask, k)  any mask with few bits (ship columns, trips, trip targets, a wide board's row)
//   Wheel(mask, k)  a mask of at most 16 bits (the legal groups)
//   Cells(mask, k)  any mask (the packed legal cells, up to 60 bits)
// TableSelect works on every CPU: a loop for the short masks, and for the others no loop, whose
// exit depends on the random k and is mispredicted about once a call (the loop, NthBit, for every
// mask: 8% slower playouts where PDEP is not used, docs/performance-notes.md).
struct TableSelect {
  static int Small(uint64_t mask, int k) { return NthBit(mask, k); }
  // The low or the high byte, then the table.
  static int Wheel(unsigned mask, int k) {
    const int low_count = PopCount(mask & 0xFF);
    const int in_high = k >= low_count;  // 0 or 1; arithmetic below, so that no branch is made
    const int shift = 8 * in_high;
    return shift + kSelectInByte.bit[(mask >> shift) & 0xFF][k - (low_count & -in_high)];
  }
  // The byte holding the bit from the running bit counts of the bytes (byte-parallel, as in
  // KindAt, rng.h), then the table within that byte.
  static int Cells(uint64_t mask, int k) {
    uint64_t counts = mask - ((mask >> 1) & 0x5555555555555555ULL);  // set bits per byte
    counts = (counts & 0x3333333333333333ULL) + ((counts >> 2) & 0x3333333333333333ULL);
    counts = (counts + (counts >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    const uint64_t running = counts * kByteOnes;  // byte i: set bits in bytes 0..i (<= 64)
    const uint64_t above_k = static_cast<uint64_t>(k + 1) * kByteOnes;
    const int byte = 8 - PopCount(((running | kByteHighs) - above_k) & kByteHighs);
    const int before = static_cast<int>(((running << 8) >> (8 * byte)) & 0xFF);  // bytes < byte
    return 8 * byte + kSelectInByte.bit[(mask >> (8 * byte)) & 0xFF][k - before];
  }
};

#if VIKINGER_HAVE_PDEP
// PdepSelect: one PDEP instruction for every mask (bits.h), on CPUs where it is fast. The
// playout took 9-11% less time with it than with TableSelect (docs/performance-notes.md).
struct PdepSelect {
  static int Small(uint64_t mask, int k) { return NthBitPdep(mask, k); }
  static int Wheel(unsigned mask, int k) { return NthBitPdep(mask, k); }
  static int Cells(uint64_t mask, int k) { return NthBitPdep(mask, k); }
};
#endif

// kModules: false for the base game (options == 0), whose code is then the same as before the
// modules came in; true for any combination of A1-A5, whose steps test the option bits (the same
// for a whole game, so the branches are predicted).
template <class Select, bool kModules>
class FusedPlayout {
 public:
  FusedPlayout(Position& p, uint64_t seed)
      : p_(p),
        choices_(seed),
        auction_(HasOption(p, kOptAuction)),
        weak_boatsmen_(HasOption(p, kOptWeakBoatsmen)),
        special_tiles_(HasOption(p, kOptSpecialTiles)),
        modules_(p, choices_) {
    for (int i = 0; i < p_.num_players; ++i) packed_ok_[i] = packed_[i].Pack(p_.players[i]);
  }

  int32_t Play() {
    // Entered mid-round (playout.h): the offer is on the wheel, a purchase may be under way; with
    // modules also anywhere in the round's preparation (the round's first phase included).
    bool mid_round = kModules || p_.phase != Phase::kRevealTile;
    for (;;) {
      int first = 0;
      if (mid_round) {
        mid_round = false;
        if (kModules && IsPreparation(p_.phase)) {
          modules_.PrepareRound(p_.phase);
          ColourSpacesFromWheel();
        } else {
          ColourSpacesFromWheel();
          first = p_.purchases;
          if (p_.phase != Phase::kBuy) ResumePurchase(Seat(first++));
        }
      } else if constexpr (kModules) {
        modules_.PrepareRound(Phase::kSpecialFill);  // from the round's first phase that applies
        ColourSpacesFromWheel();
      } else {
        RevealTiles();
        DrawVikings();
      }
      for (int i = first, buyer = Seat(first); i < kGroupsPerRound; ++i) {  // B5.1 in turn
        p_.purchases = static_cast<uint8_t>(i);
        Purchase(buyer);
        buyer = buyer + 1 == p_.num_players ? 0 : buyer + 1;
      }
      p_.purchases = kGroupsPerRound;
      if (p_.round % 2 == 1) {  // B7.1 after rounds 1, 3, 5
        for (int i = 0; i < p_.num_players; ++i) SmallScoring(p_.players[i]);
      } else {  // B7.2 after rounds 2, 4, 6
        for (int i = 0; i < p_.num_players; ++i) {
          p_.scoring_index = static_cast<uint8_t>(i);
          ScoreLarge(p_.players[Seat(i)]);
        }
        p_.scoring_index = 0;
      }
      if (p_.round == kNumRounds) break;
      ++p_.round;  // B3.3 the next round, the next start player (⚖ not with A1's auction)
      if (!kModules || !auction_) p_.start_player = static_cast<uint8_t>(Seat(1));
      p_.purchases = 0;
    }
    FinalScoring(p_.players, p_.num_players);  // B8
    p_.phase = Phase::kGameOver;
    return choices_.length;
  }

 private:
  int Seat(int offset) const { return vikinger::Seat(p_.start_player, offset, p_.num_players); }

  int Choose(int count) { return choices_.Choose(count); }
  int Draw(ByteCounts& counts, int n, int& total) { return choices_.Draw(counts, n, total); }

  void RevealTiles() {  // B4.1 twelve tiles onto the wheel, empty after the last round's buys
    ByteCounts stacks = ByteCounts::Load(p_.stacks, kNumTileKinds);
    int total = stacks.Total();
    for (int i = 0; i < kGroupsPerRound; ++i) p_.wheel.Reveal(Draw(stacks, kNumTileKinds, total));
    stacks.Store(p_.stacks, kNumTileKinds);
  }

  void DrawVikings() {  // B4.2 twelve Vikings from the bag, laid out by colour
    ByteCounts bag = ByteCounts::Load(p_.bag, kNumColours);
    int total = bag.Total();
    const ByteCounts before = bag;
    for (int i = 0; i < kGroupsPerRound; ++i) Draw(bag, kNumColours, total);
    bag.Store(p_.bag, kNumColours);
    uint8_t drawn[kNumColours];  // what left the bag, by colour
    ByteCounts{before.low - bag.low, 0}.Store(drawn, kNumColours);
    p_.wheel.LayOutVikings(drawn);
    // The spaces of each colour: colour c on spaces [Vikings of colours < c, ... <= c).
    for (int c = 0, first = 0; c < kNumColours; ++c) {
      const int end = first + drawn[c];
      colour_spaces_[c] = static_cast<uint16_t>(((1u << end) - 1) & ~((1u << first) - 1));
      first = end;
    }
  }

  // The spaces of each colour from the Vikings still on the wheel (a playout entered mid-round):
  // only occupied spaces can be bought, so the spaces bought already do not matter.
  void ColourSpacesFromWheel() {
    for (uint16_t& spaces : colour_spaces_) spaces = 0;
    for (int s = 0; s < kWheelSpaces; ++s) {
      if ((p_.wheel.occupied >> s) & 1) colour_spaces_[p_.wheel.vikings[s]] |= uint16_t{1} << s;
    }
  }

  void Purchase(int buyer) {
    PlayerBoard& board = p_.players[buyer];
    const Wheel& wheel = p_.wheel;  // B5, with the colours' spaces of this round
    const unsigned same_colour = colour_spaces_[wheel.vikings[wheel.LowestSpace()]];
    const uint64_t buys =
        Wheel::LegalBuysGiven(wheel.occupied, same_colour, board.gold, board.fame);
    const int space = Select::Wheel(buys, Choose(PopCount(buys)));
    const int price = p_.wheel.Price(space);
    // A5: the group on the highest occupied space, bought for more than 0, with a tile on display.
    // The first two conditions combined without a branch: each is random (with the branches,
    // 1.7% of the conditional mispredicts of 4-player A5 rollouts by callgrind's simulation).
    const bool may_take_special = kModules && special_tiles_ &&
                                  ((price > 0) & (space == 31 - __builtin_clz(wheel.occupied))) &&
                                  OccupiedSlots(p_.specials) != 0;
    board.Pay(price);  // B5.5
    int tile;
    int viking;
    p_.wheel.Take(space, &tile, &viking);  // B5.4
    if (may_take_special) modules_.ChooseSpecial(board);
    PlaceGroup(buyer, tile, viking);
  }

  // A purchase entered after its buy (playout.h): the rest of B6 from the phase the state
  // machine stopped at, the group bought being in `pending`.
  void ResumePurchase(int buyer) {
    const Pending pending = p_.pending;
    p_.pending = Pending{kNone, kNone, 0, 0};
    if (p_.phase == Phase::kViking) {  // the tile lies on the board already
      PlaceViking(p_.players[buyer], pending.row, pending.col, pending.viking);
    } else {  // start row, ship column or island cell still to choose
      if (kModules && p_.phase == Phase::kTakeSpecial) {  // A5, right after the payment
        modules_.ChooseSpecial(p_.players[buyer]);
      } else if (kModules && p_.phase == Phase::kBuildingReplace) {
        modules_.ReplaceWithBuilding(p_.players[buyer]);
      }
      PlaceGroup(buyer, pending.tile, pending.viking);
    }
  }

  // B6 for a bought group: the start tile if missing, then the tile, then its Viking.
  void PlaceGroup(int buyer, int tile, int viking) {
    PlayerBoard& board = p_.players[buyer];
    if (board.start_row == 0) {  // B6.0
      const int row = Choose(kNumRows) + 1;
      board.PlaceStartTile(row);
      packed_[buyer].Place(kLeft, (row - 1) * PackedRows::kStride);
    }
    if (IsShip(tile)) {  // B6.1
      const int col = board.num_ships < 3
                          ? Select::Small(board.FreeShipColumns(), Choose(3 - board.num_ships)) + 1
                          : board.num_ships + 1;
      board.PlaceShip(tile, col);
      ++board.mainland[viking];  // B6.4
      return;
    }
    int row;
    int col;
    if (!ChooseCell(buyer, tile, &row, &col)) {  // B6.3 unplaceable: the tile leaves
      ++p_.discarded_tiles;
      ++board.mainland[viking];
      return;
    }
    board.Row(row).Place(tile, col);
    // A5: a waiting building replaces the middle tile just placed, which leaves the game. Asked
    // only of a board holding a building tile: the tile's kind is random, so the test whether it
    // is a middle tile was mispredicted at about 40% of the placements (callgrind's simulation).
    if (kModules && special_tiles_ && HoldsBuilding(board) &&
        BuildingForPlacedTile(board, tile, row, col)) {
      ++p_.discarded_tiles;
    }
    PlaceViking(board, row, col, viking);
  }

  // B6.4 a Viking of the tile's row may stay on the tile (choice 0) or go to the mainland.
  void PlaceViking(PlayerBoard& board, int row, int col, int viking) {
    if (viking != kBoatsman && RowOfColour(viking) == row && Choose(2) == 0) {
      board.Row(row).vikings |= ColumnBit(col);
    } else {
      ++board.mainland[viking];
    }
  }

  // B6.2 the buyer's cell for an island tile: the k-th legal cell in id order (row by row,
  // columns ascending). False when there is none. From the packed rows while the board is narrow
  // (packed_rows.h), else from the board's rows.
  bool ChooseCell(int buyer, int tile, int* row, int* col) {
    if (packed_ok_[buyer]) {
      const uint64_t cells = packed_[buyer].LegalCells(tile);
      if (cells == 0) return false;
      const int bit = Select::Cells(cells, Choose(PopCount(cells)));
      *row = PackedRows::Row(bit);
      *col = PackedRows::Column(bit);
      packed_ok_[buyer] = packed_[buyer].Place(tile, bit);
      return true;
    }
    uint64_t cells[kNumRows];
    if (p_.players[buyer].LegalIslandCells(tile, cells) == 0) return false;
    int before[kNumRows + 1] = {0};  // legal cells in the rows above each row
    for (int r = 0; r < kNumRows; ++r) before[r + 1] = before[r] + PopCount(cells[r]);
    const int k = Choose(before[kNumRows]);
    int index = 0;
    for (int r = 1; r < kNumRows; ++r) index += before[r] <= k;
    *row = index + 1;
    *col = Select::Small(cells[index], k - before[index]) + 1;
    return true;
  }

  // B7.2: the scorer's boatsman trips while one is possible, then steps 2-6. The trips of the
  // state machine (trips.h), with the free tiles of each colour's row kept in `free` as the
  // Vikings land, and each trip's Vikings moved in one loop (TripTargets).
  void ScoreLarge(PlayerBoard& board) {
    uint64_t free[kBoatsman];
    for (int c = 0; c < kBoatsman; ++c) free[c] = board.Row(RowOfColour(c)).FreeTiles();
    while (board.mainland[kBoatsman] > 0) {  // TripPossible
      unsigned movable = 0;                  // MovableColours
      for (int c = 0; c < kBoatsman; ++c) {
        movable |= static_cast<unsigned>(board.mainland[c] != 0 && free[c] != 0) << c;
      }
      if (movable == 0) break;
      // LegalTripMask: bits relative to kTripStop.
      uint64_t trips = uint64_t{movable} << 1 | uint64_t{1} << (kTripEach - kTripStop);
      if (kModules && weak_boatsmen_) {
        trips = WeakTripMask(board, movable);  // A4
      } else if (p_.round != kNumRounds) {
        trips |= 1;  // ⚖ stopping is allowed before round 6
      } else {       // B7.2.1a
        int counts[kBoatsman];
        for (int c = 0; c < kBoatsman; ++c) counts[c] = TripVikings(board.mainland[c], free[c]);
        trips = FullTripsKeepingMost(counts, board.mainland[kBoatsman], trips);
      }
      const int action = kTripStop + Select::Small(trips, Choose(PopCount(trips)));
      if (action == kTripStop) break;
      ++p_.removed[kBoatsman];
      --board.mainland[kBoatsman];                            // StartTrip
      if (kModules && weak_boatsmen_ && action < kTripOne) {  // A4 a full trip spends a boat tile
        --board.specials[kBoat];
        ++p_.specials.removed[kBoat];
      }
      if (kModules && action >= kTripOne) {  // A4 one Viking of one colour, onto any free tile
        const int colour = action - kTripOne;
        LandTripViking(board, colour, Select::Small(free[colour], Choose(PopCount(free[colour]))),
                       free);
      } else if (action == kTripEach) {  // one Viking of each movable colour, in colour order
        for (unsigned rest = movable; rest != 0; rest &= rest - 1) {
          const int colour = LowestBit(rest);
          LandTripViking(board, colour, Select::Small(free[colour], Choose(PopCount(free[colour]))),
                         free);
        }
      } else {  // all Vikings of one colour that its row has free tiles for
        const int colour = action - kTripAll;
        const uint64_t row_free = free[colour];
        const int tiles = PopCount(row_free);  // TripVikings, whose count the select needs too
        const int vikings = board.mainland[colour] < tiles ? board.mainland[colour] : tiles;
        // Held back: the vikings - 1 highest free tiles, those above the (tiles - vikings)-th.
        TripTargets targets(row_free,
                            row_free & ~uint64_t{1} << Select::Small(row_free, tiles - vikings));
        for (int i = 0; i < vikings; ++i) {
          const uint64_t legal = targets.Next();
          const int bit = Select::Small(legal, Choose(PopCount(legal)));
          targets.Land(bit);
          LandTripViking(board, colour, bit, free);
        }
      }
    }
    LargeScoring(board);
  }

  // A4 LegalTripMask for the scorer's `movable` colours: one Viking of a movable colour, and the
  // full trips only with a boat tile. In round 6 without a boat every trip keeps the most (B7.2.1a:
  // the b boatsmen move min(b, Vikings movable), one trip one Viking, so each trip keeps it); with
  // a boat LegalTripMask filters (its loops cost 30 instructions an action of 2-player A4
  // games when asked for every trip, docs/performance-notes.md).
  uint64_t WeakTripMask(const PlayerBoard& board, unsigned movable) const {
    const bool boat = board.specials[kBoat] != 0;
    uint64_t trips = uint64_t{movable} << (kTripOne - kTripStop);
    if (boat) trips |= uint64_t{movable} << 1 | uint64_t{1} << (kTripEach - kTripStop);
    if (p_.round != kNumRounds) return trips | 1;  // ⚖ stopping is allowed before round 6
    if (!boat) return trips;
    return LegalTripMask(board, p_.round, /*weak_boatsmen=*/true);
  }

  // A5: the board holds one of the building tiles (placed or waiting).
  static bool HoldsBuilding(const PlayerBoard& board) {
    uint32_t held;
    static_assert(kBuilding1 + kNumBuildings == kNumSpecialKinds, "the last four kinds");
    std::memcpy(&held, board.specials + kBuilding1, sizeof(held));
    return held != 0;
  }

  // MoveTripViking: a Viking of `colour` from the mainland onto the tile of bit `bit` of its row.
  static void LandTripViking(PlayerBoard& board, int colour, int bit, uint64_t* free) {
    --board.mainland[colour];
    board.Row(RowOfColour(colour)).vikings |= uint64_t{1} << bit;
    free[colour] &= ~(uint64_t{1} << bit);
  }

  Position& p_;
  FusedChoices choices_;
  const bool auction_;  // the modules that change the base game's own steps (A1, A4, A5)
  const bool weak_boatsmen_;
  const bool special_tiles_;
  PlayoutModules<Select> modules_;  // the modules' own steps
  PackedRows packed_[kMaxPlayers];  // each board's island rows in one word, while narrow enough
  bool packed_ok_[kMaxPlayers] = {};
  uint16_t colour_spaces_[kNumColours] = {};  // B5.2: the wheel's spaces of each Viking colour
};

}  // namespace

namespace {

#if VIKINGER_HAVE_PDEP
// Hygon's Dhyana (a Zen 1 under its own vendor name, which __builtin_cpu_is does not know).
bool HygonCpu() {
  unsigned eax = 0;
  unsigned ebx = 0;
  unsigned ecx = 0;
  unsigned edx = 0;
  return __get_cpuid(0, &eax, &ebx, &ecx, &edx) && ebx == 0x6f677948;  // "Hygo"
}
#endif

}  // namespace

bool PdepIsAvailable() {
#if VIKINGER_HAVE_PDEP
  return __builtin_cpu_supports("bmi2");
#else
  return false;
#endif
}

BitSelect AutoBitSelect() {
#if VIKINGER_HAVE_PDEP
  // AMD CPUs before Zen 3 (families 15h and 17h; Hygon's 18h is a Zen 1) run PDEP in microcode,
  // slower than the tables.
  static const bool fast = PdepIsAvailable() && !__builtin_cpu_is("amdfam15h") &&
                           !__builtin_cpu_is("amdfam17h") && !HygonCpu();
  return fast ? BitSelect::kPdep : BitSelect::kTable;
#else
  return BitSelect::kTable;
#endif
}

namespace {

// The base game's playout, or the one with the modules' steps.
template <class Select>
int32_t PlayFused(Position& p, uint64_t seed) {
  if (p.options == 0) return FusedPlayout<Select, false>(p, seed).Play();
  return FusedPlayout<Select, true>(p, seed).Play();
}

}  // namespace

int32_t PlayFusedRandomGame(Position& p, uint64_t seed, BitSelect how) {
#if VIKINGER_HAVE_PDEP
  if (how == BitSelect::kAuto) how = AutoBitSelect();
  if (how == BitSelect::kPdep) return PlayFused<PdepSelect>(p, seed);
#endif
  return PlayFused<TableSelect>(p, seed);
}

}  // namespace vikinger
