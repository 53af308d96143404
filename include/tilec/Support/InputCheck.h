//===- InputCheck.h - reject text that MLIR's own parser crashes on -*- C++ -*-===//
//
// A few inputs crash MLIR 22's parser itself before any tilec code runs
// (found by scripts/fuzz.py). tilec and tilec-opt look for them in the
// source text first and answer with an error at the spot instead.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_INPUTCHECK_H
#define TILEC_SUPPORT_INPUTCHECK_H

#include <cctype>
#include <string>
#include <string_view>

namespace tilec {

/// "LINE:COL" of offset `at` in `text`.
inline std::string lineAndColumn(std::string_view text, size_t at) {
  size_t line = 1, lineStart = 0;
  for (size_t i = 0; i < at && i < text.size(); ++i)
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  return std::to_string(line) + ":" + std::to_string(at - lineStart + 1);
}

/// The result numbers MLIR's parser takes without trouble: it makes room for
/// every result up to the number before it checks the number exists.
inline constexpr unsigned long long kMaxResultNumber = 65535;

/// "LINE:COL: error: ..." for the first construct in `text` that MLIR's
/// parser crashes on, or "" when there is none:
/// - a dense array of `index` (`array<index: 1>`: a segmentation fault in
///   Parser::parseDenseArrayAttr);
/// - a use of a result number past kMaxResultNumber (`%r#2147483648`: out
///   of memory, mlir-opt too).
inline std::string findParserCrashers(std::string_view text) {
  for (size_t at = text.find('#'); at != std::string_view::npos; at = text.find('#', at + 1)) {
    // `%name#digits`: the name runs back to a '%'.
    size_t start = at;
    while (start > 0 && (std::isalnum(static_cast<unsigned char>(text[start - 1])) ||
                         text[start - 1] == '_' || text[start - 1] == '$' ||
                         text[start - 1] == '.' || text[start - 1] == '-'))
      --start;
    if (start == 0 || start == at || text[start - 1] != '%')
      continue;
    size_t end = at + 1;
    unsigned long long number = 0;
    bool tooBig = false;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) {
      number = number * 10 + static_cast<unsigned>(text[end] - '0');
      tooBig = tooBig || number > kMaxResultNumber;
      ++end;
    }
    if (tooBig)
      return lineAndColumn(text, start - 1) + ": error: result number " +
             std::string(text.substr(at + 1, end - at - 1)) + " is over " +
             std::to_string(kMaxResultNumber) +
             " (MLIR's parser runs out of memory on such numbers)";
  }
  for (size_t at = text.find("array<"); at != std::string_view::npos;
       at = text.find("array<", at + 1)) {
    size_t type = at + 6;
    while (type < text.size() && std::isspace(static_cast<unsigned char>(text[type])))
      ++type;
    if (text.compare(type, 5, "index") != 0)
      continue;
    size_t after = type + 5;
    if (after < text.size() && (std::isalnum(static_cast<unsigned char>(text[after])) ||
                                text[after] == '_'))
      continue;
    return lineAndColumn(text, at) +
           ": error: dense arrays of 'index' are not supported (MLIR's parser crashes on "
           "them); use i32 or i64 elements";
  }
  return "";
}

} // namespace tilec

#endif // TILEC_SUPPORT_INPUTCHECK_H
