//===- Registry.cpp - named, parameterized kernels ------------------------===//

#include "tilec/Registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace tilec {

std::string ParamSpec::typeName() const {
  switch (type) {
  case Type::Int:
    if (multipleOf > 1)
      return fmt::format("int (multiple of {})", multipleOf);
    return powerOfTwo ? "int (power of 2)" : "int";
  case Type::Bool: return "bool";
  case Type::Float: return "float";
  case Type::Choice: return fmt::format("one of {}", fmt::join(choices, "|"));
  }
  return "?";
}

static std::optional<int64_t> parseInt(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  char *end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (*end != '\0')
    return std::nullopt;
  return value;
}

static std::optional<double> parseFloat(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::string ParamSpec::check(const std::string &value) const {
  switch (type) {
  case Type::Int: {
    std::optional<int64_t> v = parseInt(value);
    if (!v)
      return fmt::format("'{}' expects an integer, got '{}'", name, value);
    bool inRange = !(min && *v < *min) && !(max && *v > *max);
    bool multiple = multipleOf <= 1 || *v % multipleOf == 0;
    if (!inRange || !multiple)
      return fmt::format("'{}' must be {}in [{}, {}], got {}", name,
                         multipleOf > 1 ? fmt::format("a multiple of {} ", multipleOf) : "",
                         min ? std::to_string(*min) : "-inf", max ? std::to_string(*max) : "inf",
                         *v);
    if (powerOfTwo && *v != 0 && (*v < 0 || (*v & (*v - 1)) != 0))
      return fmt::format("'{}' must be a power of two (tile sizes are, on the GPU), got {}", name,
                         *v);
    return "";
  }
  case Type::Bool:
    if (value != "true" && value != "false" && value != "1" && value != "0")
      return fmt::format("'{}' expects true or false, got '{}'", name, value);
    return "";
  case Type::Float:
    if (!parseFloat(value))
      return fmt::format("'{}' expects a finite number, got '{}'", name, value);
    return "";
  case Type::Choice:
    if (std::find(choices.begin(), choices.end(), value) == choices.end())
      return fmt::format("'{}' expects one of {}, got '{}'", name, fmt::join(choices, ", "),
                         value);
    return "";
  }
  return "";
}

Params::Params(const std::vector<ParamSpec> &specs) {
  for (const ParamSpec &spec : specs)
    values[spec.name] = spec.defaultValue;
}

std::string Params::set(const std::vector<ParamSpec> &specs, const std::string &name,
                        const std::string &value) {
  auto spec = std::find_if(specs.begin(), specs.end(),
                           [&](const ParamSpec &s) { return s.name == name; });
  if (spec == specs.end()) {
    std::vector<std::string> names;
    for (const ParamSpec &s : specs)
      names.push_back(s.name);
    if (names.empty())
      return fmt::format("unknown parameter '{}': this kernel takes none", name);
    return fmt::format("unknown parameter '{}'; accepted: {}", name, fmt::join(names, ", "));
  }
  if (std::string error = spec->check(value); !error.empty())
    return error;
  values[name] = value;
  return "";
}

std::string Params::setAssignment(const std::vector<ParamSpec> &specs,
                                  const std::string &assignment) {
  size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    return fmt::format("expected key=value, got '{}'", assignment);
  return set(specs, assignment.substr(0, eq), assignment.substr(eq + 1));
}

const std::string &Params::get(const std::string &name) const {
  static const std::string empty;
  auto it = values.find(name);
  return it == values.end() ? empty : it->second;
}

int64_t Params::getInt(const std::string &name) const { return parseInt(get(name)).value_or(0); }

bool Params::getBool(const std::string &name) const {
  const std::string &v = get(name);
  return v == "true" || v == "1";
}

double Params::getFloat(const std::string &name) const {
  return parseFloat(get(name)).value_or(0.0);
}

Registry &Registry::global() {
  static Registry registry;
  return registry;
}

void Registry::add(KernelDef def) {
  if (kernels.count(def.name)) {
    std::fprintf(stderr, "tilec: kernel '%s' is registered twice; keeping the first\n",
                 def.name.c_str());
    return;
  }
  std::string name = def.name;
  kernels.emplace(std::move(name), std::move(def));
}

const KernelDef *Registry::find(const std::string &name) const {
  auto it = kernels.find(name);
  return it == kernels.end() ? nullptr : &it->second;
}

std::vector<const KernelDef *> Registry::all() const {
  std::vector<const KernelDef *> defs;
  for (const auto &[name, def] : kernels)
    defs.push_back(&def);
  return defs;
}

} // namespace tilec
