//===- Json.h - the small JSON reader the runtime needs ------------*- C++ -*-===//
//
// Reads the launch metadata and case files tilec writes. No dependencies, no
// exceptions: a parse error comes back as a message with its offset.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_JSON_H
#define TILEC_RUNTIME_JSON_H

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <cstdint>
#include <vector>

namespace tilec::json {

struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> array;            ///< array elements, or object member values
  std::vector<std::string> keys;       ///< object member names, parallel to `array`

  /// The member `key` of an object, or null.
  const Value *get(std::string_view key) const;
  bool isNumber() const { return kind == Kind::Number; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
};

std::optional<Value> parse(std::string_view text, std::string &error);

/// `value` as an integer: a whole number that a double holds exactly (none
/// for anything else).
std::optional<int64_t> integerOf(const Value &value);

/// `text` as a JSON string literal.
std::string quote(std::string_view text);

} // namespace tilec::json

#endif // TILEC_RUNTIME_JSON_H
