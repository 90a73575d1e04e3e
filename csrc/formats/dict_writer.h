// Writing the canonical dict of docs/state.md (with the always-present fields of
// docs/advanced.md) as a Value tree, in the documented key order. The reference's dict_writer.py.
#ifndef VIKINGER_DICT_WRITER_H_
#define VIKINGER_DICT_WRITER_H_

#include "base/value.h"
#include "rules/state.h"

namespace vikinger {

// to_dict(): the canonical dict.
Value StateToDict(const State& state);

// The option flags as a dict {name: bool}, in the order of kOptionNames.
Value OptionsToDict(int options);

}  // namespace vikinger

#endif  // VIKINGER_DICT_WRITER_H_
