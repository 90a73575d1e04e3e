// A JSON-like value tree: the canonical dict of docs/state.md built and read without Python.
//
// to_dict and state_from_dict are format logic, so they live in the C++ core (dict_writer.h,
// dict_reader.h); bindings/helpers.cc only converts between these trees and Python objects. A tree
// keeps what the format checks need: bool apart from int (docs/state.md: bool is not an int), dict
// insertion order (the key order of to_dict), and, for anything else a caller passes, its type
// name.
#ifndef VIKINGER_VALUE_H_
#define VIKINGER_VALUE_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace vikinger {

// Raised for arguments of the wrong type; the bindings map it to Python's TypeError (every
// std::invalid_argument becomes a ValueError).
class TypeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Value {
 public:
  enum class Kind : uint8_t { kNone, kBool, kInt, kStr, kList, kDict, kOther };

  Value() = default;  // None
  static Value Bool(bool value);
  // Ints beyond 64 bits are stored saturated, so every range check refuses them; `text` keeps
  // their decimal digits for the message.
  static Value Int(int64_t value);
  static Value BigInt(int64_t saturated, std::string text);
  // A str with a character beyond ASCII: `first_wide` is repr() of the first such character,
  // for messages that name it (the text of a lone surrogate is kept as "surrogatepass" UTF-8).
  static Value WideStr(std::string value, std::string first_wide);
  static Value Str(std::string value);
  static Value List();
  static Value Dict();
  // Any other object (float, tuple, bytes, ...), known by its type name.
  static Value Other(std::string type_name);

  Kind kind() const { return kind_; }
  bool is_none() const { return kind_ == Kind::kNone; }
  bool AsBool() const { return int_ != 0; }
  int64_t AsInt() const { return int_; }
  const std::string& AsStr() const { return str_; }
  // An int's value in decimal, as Python prints it (the digits of a saturated one).
  std::string IntText() const { return extra_.empty() ? std::to_string(int_) : extra_; }
  // An int beyond 64 bits, stored saturated.
  bool IsBig() const { return kind_ == Kind::kInt && !extra_.empty(); }
  // repr() of the first character beyond ASCII of a str ("" when the bindings did not say).
  const std::string& FirstWideRepr() const { return extra_; }
  const std::vector<Value>& Items() const { return items_; }
  const std::vector<std::pair<std::string, Value>>& Entries() const { return entries_; }
  // The name of the value's type as Python calls it ("int", "str", "list", ...).
  std::string TypeName() const;

  // Appends to a list; returns the new item.
  Value& Append(Value item);
  // Adds a dict entry at the end (keys are not checked for repeats); returns its value.
  Value& Set(std::string key, Value item);
  // The value under `key` of a dict, or null.
  const Value* Find(const std::string& key) const;

 private:
  // The factories' one way in: a kind and its scalar (int_ for bool and int, str_ for str and
  // the type name of kOther).
  Value(Kind kind, int64_t int_value, std::string str_value);

  Kind kind_ = Kind::kNone;
  int64_t int_ = 0;    // bool and int
  std::string str_;    // str, and the type name of kOther
  std::string extra_;  // the digits of an int beyond 64 bits; see WideStr
  std::vector<Value> items_;
  std::vector<std::pair<std::string, Value>> entries_;
};

}  // namespace vikinger

#endif  // VIKINGER_VALUE_H_
