// The value tree of value.h.
#include "base/value.h"

namespace vikinger {

Value Value::Bool(bool value) {
  Value v;
  v.kind_ = Kind::kBool;
  v.int_ = value ? 1 : 0;
  return v;
}

Value Value::Int(int64_t value) {
  Value v;
  v.kind_ = Kind::kInt;
  v.int_ = value;
  return v;
}

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

Value Value::Str(std::string value) {
  Value v;
  v.kind_ = Kind::kStr;
  v.str_ = std::move(value);
  return v;
}

Value Value::List() {
  Value v;
  v.kind_ = Kind::kList;
  return v;
}

Value Value::Dict() {
  Value v;
  v.kind_ = Kind::kDict;
  return v;
}

Value Value::Other(std::string type_name) {
  Value v;
  v.kind_ = Kind::kOther;
  v.str_ = std::move(type_name);
  return v;
}

std::string Value::TypeName() const {
  switch (kind_) {
    case Kind::kNone:
      return "NoneType";
    case Kind::kBool:
      return "bool";
    case Kind::kInt:
      return "int";
    case Kind::kStr:
      return "str";
    case Kind::kList:
      return "list";
    case Kind::kDict:
      return "dict";
    default:
      return str_;
  }
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
