// Reading the canonical dict of docs/state.md back into a StateDescription with every type and
// key check (validation.h then checks the content). The reference's dict_reader.py.
//
// A non-dict is a TypeError; everything else that is malformed (a missing or unknown key, a
// wrong type, bool where an int belongs) is a ValueError naming the problem.
#ifndef VIKINGER_DICT_READER_H_
#define VIKINGER_DICT_READER_H_

#include "base/value.h"
#include "formats/validation.h"

namespace vikinger {

// The description a dict stands for, in a game of `num_players` with `options`: keys, types and
// ranges checked in the order of the reference's dict_reader.py, so that both name the same
// first problem (the position checks follow in CheckDescription).
StateDescription DictToDescription(const Value& d, int num_players, int options);

}  // namespace vikinger

#endif  // VIKINGER_DICT_READER_H_
