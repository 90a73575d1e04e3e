// The canonical dict of docs/state.md (with the always-present fields of docs/advanced.md), as
// a Value tree: written from a State in the documented key order, and read back into a
// StateDescription with every type and key check (validation.h then checks the content).
//
// Reading mirrors the reference's validation.py: a non-dict is a TypeError; everything else
// that is malformed (a missing or unknown key, a wrong type, bool where an int belongs) is a
// ValueError naming the problem.
#ifndef VIKINGER_STATE_DICT_H_
#define VIKINGER_STATE_DICT_H_

#include "rules/state.h"
#include "formats/validation.h"
#include "base/value.h"

namespace vikinger {

// to_dict(): the canonical dict.
Value StateToDict(const State& state);

// The description a dict stands for, in a game of `num_players` with `options`: keys, types and
// ranges checked in the order of the reference's validation.py, so that both name the same
// first problem (the position checks follow in CheckDescription).
StateDescription DictToDescription(const Value& d, int num_players, int options);

// The option flags as a dict {name: bool}, in the order of kOptionNames.
Value OptionsToDict(int options);

}  // namespace vikinger

#endif  // VIKINGER_STATE_DICT_H_
