//===- Json.cpp - the small JSON reader the runtime needs -----------------===//

#include "tilec/Runtime/Json.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <tuple>

namespace tilec::json {

const Value *Value::get(std::string_view key) const {
  if (kind != Kind::Object)
    return nullptr;
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key)
      return &array[i];
  return nullptr;
}

namespace {

class Parser {
public:
  Parser(std::string_view text, std::string &error) : text(text), error(error) {}

  std::optional<Value> document() {
    std::optional<Value> v = value();
    skipSpace();
    if (v && pos != text.size())
      return fail("unexpected text after the document");
    return v;
  }

private:
  std::optional<Value> fail(const std::string &message) {
    if (error.empty())
      error = message + " at offset " + std::to_string(pos);
    return std::nullopt;
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '\t' ||
                                 text[pos] == '\r'))
      ++pos;
  }

  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  std::optional<std::string> stringLiteral() {
    if (!consume('"'))
      return std::nullopt;
    std::string out;
    while (pos < text.size() && text[pos] != '"') {
      char c = text[pos++];
      if (c == '\\' && pos < text.size()) {
        char e = text[pos++];
        switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u':
          // Only the ASCII range is ever written by tilec.
          if (pos + 4 <= text.size()) {
            out += static_cast<char>(std::strtol(std::string(text.substr(pos, 4)).c_str(), nullptr, 16));
            pos += 4;
          }
          break;
        default: out += e;
        }
      } else {
        out += c;
      }
    }
    if (pos >= text.size())
      return std::nullopt;
    ++pos;
    return out;
  }

  /// Objects and arrays nest at most this deep (tilec writes 3 levels), so
  /// that a hostile document cannot exhaust the stack.
  static constexpr int kMaxDepth = 64;

  std::optional<Value> value() {
    skipSpace();
    if (pos >= text.size())
      return fail("unexpected end of input");
    if (depth >= kMaxDepth)
      return fail("objects and arrays nested deeper than " + std::to_string(kMaxDepth));
    struct Nesting {
      int &depth;
      explicit Nesting(int &depth) : depth(++depth) {}
      ~Nesting() { --depth; }
    } nesting(depth);
    Value v;
    char c = text[pos];
    if (c == '{') {
      ++pos;
      v.kind = Value::Kind::Object;
      if (consume('}'))
        return v;
      do {
        std::optional<std::string> key = stringLiteral();
        if (!key)
          return fail("expected a member name");
        if (!consume(':'))
          return fail("expected ':'");
        std::optional<Value> member = value();
        if (!member)
          return std::nullopt;
        v.keys.push_back(std::move(*key));
        v.array.push_back(std::move(*member));
      } while (consume(','));
      if (!consume('}'))
        return fail("expected ',' or '}'");
      return v;
    }
    if (c == '[') {
      ++pos;
      v.kind = Value::Kind::Array;
      if (consume(']'))
        return v;
      do {
        std::optional<Value> element = value();
        if (!element)
          return std::nullopt;
        v.array.push_back(std::move(*element));
      } while (consume(','));
      if (!consume(']'))
        return fail("expected ',' or ']'");
      return v;
    }
    if (c == '"') {
      std::optional<std::string> s = stringLiteral();
      if (!s)
        return fail("unterminated string");
      v.kind = Value::Kind::String;
      v.string = std::move(*s);
      return v;
    }
    for (auto [word, kind, flag] : {std::tuple{"true", Value::Kind::Bool, true},
                                    std::tuple{"false", Value::Kind::Bool, false},
                                    std::tuple{"null", Value::Kind::Null, false}}) {
      std::string_view w(word);
      if (text.substr(pos, w.size()) == w) {
        pos += w.size();
        v.kind = kind;
        v.boolean = flag;
        return v;
      }
    }
    std::string number(text.substr(pos, std::min<size_t>(64, text.size() - pos)));
    char *end = nullptr;
    v.number = std::strtod(number.c_str(), &end);
    if (end == number.c_str())
      return fail("unexpected character");
    // strtod accepts inf/nan spellings that JSON writers use for them.
    pos += static_cast<size_t>(end - number.c_str());
    v.kind = Value::Kind::Number;
    return v;
  }

  std::string_view text;
  int depth = 0;
  std::string &error;
  size_t pos = 0;
};

} // namespace

std::optional<int64_t> integerOf(const Value &value) {
  if (!value.isNumber() || !(std::fabs(value.number) <= 9007199254740992.0) ||
      value.number != std::floor(value.number))
    return std::nullopt;
  return static_cast<int64_t>(value.number);
}

std::optional<Value> parse(std::string_view text, std::string &error) {
  return Parser(text, error).document();
}

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

} // namespace tilec::json
