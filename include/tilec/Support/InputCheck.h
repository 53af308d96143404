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

/// "LINE:COL: error: ..." for the first construct in `text` that MLIR's
/// parser crashes on, or "" when there is none:
/// - a dense array of `index` (`array<index: 1>`: a segmentation fault in
///   Parser::parseDenseArrayAttr).
inline std::string findParserCrashers(std::string_view text) {
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
    size_t line = 1, lineStart = 0;
    for (size_t i = 0; i < at; ++i)
      if (text[i] == '\n') {
        ++line;
        lineStart = i + 1;
      }
    return std::to_string(line) + ":" + std::to_string(at - lineStart + 1) +
           ": error: dense arrays of 'index' are not supported (MLIR's parser crashes on "
           "them); use i32 or i64 elements";
  }
  return "";
}

} // namespace tilec

#endif // TILEC_SUPPORT_INPUTCHECK_H
