// The value tree of value.h.
#include "base/value.h"

namespace vikinger {

Value::Value(Kind kind, int64_t int_value, std::string str_value)
    : kind_(kind), int_(int_value), str_(std::move(str_value)) {}

Value Value::Bool(bool value) { return Value(Kind::kBool, value ? 1 : 0, ""); }

Value Value::Int(int64_t value) { return Value(Kind::kInt, value, ""); }

Value Value::BigInt(int64_t saturated, std::string text) {
  Value v = Int(saturated);
  v.extra_ = std::move(text);
  return v;
}

Value Value::WideStr(std::string value, std::string first_wide) {
  Value v = Str(std::move(value));
  v.extra_ = std::move(first_wide);
  return v;
}

Value Value::Str(std::string value) { return Value(Kind::kStr, 0, std::move(value)); }

Value Value::List() { return Value(Kind::kList, 0, ""); }

Value Value::Dict() { return Value(Kind::kDict, 0, ""); }

Value Value::Other(std::string type_name) { return Value(Kind::kOther, 0, std::move(type_name)); }

std::string Value::TypeName() const {
  // Python's names of the kinds, in the order of Kind; kOther keeps its own.
  static const char* const kNames[] = {"NoneType", "bool", "int", "str", "list", "dict"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(Kind::kOther),
                "a name for every kind before kOther");
  return kind_ == Kind::kOther ? str_ : kNames[static_cast<int>(kind_)];
}

Value& Value::Append(Value item) {
  items_.push_back(std::move(item));
  return items_.back();
}

Value& Value::Set(std::string key, Value item) {
  entries_.emplace_back(std::move(key), std::move(item));
  return entries_.back().second;
}

const Value* Value::Find(const std::string& key) const {
  for (const auto& entry : entries_) {
    if (entry.first == key) return &entry.second;
  }
  return nullptr;
}

}  // namespace vikinger
