// str(state): the readable text board of docs/state.md.
//
// A header line (round, phase, start player, who moves), the wheel, the stacks and the bag, the
// pending purchase and trip when there are any, then one block per player: gold, Fame, mainland,
// the ship row and the five island rows (two characters per column: tile short, then '*' when a
// Viking stands on it). Lines carry no trailing spaces and the text no trailing newline.
#ifndef VIKINGER_TEXT_H_
#define VIKINGER_TEXT_H_

#include <string>

#include "rules/state.h"

namespace vikinger {

std::string RenderText(const Position& p);

}  // namespace vikinger

#endif  // VIKINGER_TEXT_H_
