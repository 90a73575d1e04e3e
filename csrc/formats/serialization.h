// The bytes format and the position hash of docs/state.md.
//
// The bytes pack the same content as to_dict: a header, the position, then the history. The
// hash is splitmix64 folded over the position bytes, 8 at a time, so equal positions have equal
// keys whatever their history. Bytes are read back into a StateDescription, which
// validation.h checks exactly as it checks a dict.
#ifndef VIKINGER_SERIALIZATION_H_
#define VIKINGER_SERIALIZATION_H_

#include <cstdint>
#include <string>

#include "formats/validation.h"
#include "rules/state.h"

namespace vikinger {

constexpr char kMagic[] = "VKNG";
constexpr int kMagicSize = 4;
// 2: A0, the Vikings of a round with the auction or the draw of 13 are drawn before its tiles,
// so a version-1 position of those games means something else and is refused.
constexpr int kFormatVersion = 2;
constexpr uint8_t kVikingFlag = 16;  // cell byte: a Viking stands on the tile
// Enough for the position bytes of 4 players with a full trip queue.
constexpr int kMaxPositionBytes = 2048;

// Writes the position bytes (everything after the header, before the history) to `out`, which
// holds at least kMaxPositionBytes; returns how many were written.
int PositionBytes(const Position& p, uint8_t* out);
// Bytes for keys alone, no format: the position bytes with each board's rows and ships written as
// their bit masks (fewer bytes, and cheaper); the same positions give the same bytes, different
// ones different bytes, within one process. At most kMaxPositionBytes.
int PositionKeyBytes(const Position& p, uint8_t* out);
// Header, position and history.
std::string Serialize(const State& state);
// docs/state.md: h = len(p); h = mix(h ^ chunk) for each little-endian 8-byte chunk of p.
uint64_t HashKey(const Position& p);
// The bytes the trips of `player` in a large scoring depend on (the endgame solver's key for a
// scorer's outcomes): the options, the phase, the trip under way, and the player's part of the
// key bytes (board, A5 tiles and buildings; PositionKeyBytes); writes at most kMaxPositionBytes.
int ScorerBytes(const Position& p, int player, uint8_t* out);
// The bytes the outcomes of the other player of a 2-player large scoring depend on, before or
// after the scorer's trips: the options, 0xFF (no phase: no ScorerBytes begins so), the scoring
// index (whether the other player has scored) and the player's part of the key bytes.
int OtherScorerBytes(const Position& p, int player, uint8_t* out);
// Throws std::invalid_argument unless `version` is kFormatVersion, with a reason for the older
// version 1; `what` names the field ("format version" of the bytes, "version" of a dict).
void CheckFormatVersion(int64_t version, const char* what);
// The description the bytes stand for. Format problems (magic, version, truncated or trailing
// bytes, bytes out of range) throw std::invalid_argument; the content is left to
// CheckDescription.
StateDescription BytesToDescription(const std::string& data);

}  // namespace vikinger

#endif  // VIKINGER_SERIALIZATION_H_
