#include "warpconf/report/json_fields.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "core/numbers.hpp"

namespace wc::cli {
namespace {

// A value as a message quotes it: its JSON, at most 40 characters.
std::string shown(const nlohmann::json& value) {
  const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return text.size() <= 40 ? text : text.substr(0, 40) + "...";
}

const char* wanted(Shape shape) {
  switch (shape) {
    case Shape::text: return "a string";
    case Shape::count: return "a whole number from 0";
    case Shape::integer: return "a whole number of an int";
    case Shape::number: return "a finite number";
    case Shape::flag: return "true or false";
    case Shape::object: return "an object";
    case Shape::list: return "an array";
    case Shape::counts: return "an object of whole numbers from 0";
  }
  return "";
}

bool is_count(const nlohmann::json& v) {
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
}

bool has_shape(const nlohmann::json& v, Shape shape) {
  switch (shape) {
    case Shape::text: return v.is_string();
    case Shape::count: return is_count(v);
    case Shape::integer:
      if (v.is_number_unsigned()) return v.get<uint64_t>() <= std::numeric_limits<int>::max();
      return v.is_number_integer() && v.get<int64_t>() >= std::numeric_limits<int>::min() &&
             v.get<int64_t>() <= std::numeric_limits<int>::max();
    case Shape::number: return v.is_number() && std::isfinite(v.get<double>());
    case Shape::flag: return v.is_boolean();
    case Shape::object: return v.is_object();
    case Shape::list: return v.is_array();
    case Shape::counts:
      if (!v.is_object()) return false;
      for (const auto& item : v.items())
        if (!is_count(item.value())) return false;
      return true;
  }
  return false;
}

}  // namespace

JsonObject::JsonObject(const nlohmann::json& value, std::string path) : value_(value), path_(std::move(path)) {
  if (!value.is_object()) throw UsageError((path_.empty() ? "" : path_ + ": ") + shown(value) + " is not an object");
}

std::string JsonObject::path_of(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

const nlohmann::json& JsonObject::member(const char* key, Shape shape) const {
  const auto it = value_.find(key);
  if (it == value_.end()) throw UsageError(path_of(key) + ": missing");
  if (!has_shape(*it, shape))
    throw UsageError(path_of(key) + ": " + shown(*it) + " is not " + wanted(shape));
  return *it;
}

const nlohmann::json& JsonObject::at(const char* key) const {
  const auto it = value_.find(key);
  if (it == value_.end()) throw UsageError(path_of(key) + ": missing");
  return *it;
}

std::string JsonObject::text(const char* key) const { return member(key, Shape::text).get<std::string>(); }

std::string JsonObject::text_of(const char* key, std::initializer_list<const char*> allowed) const {
  const std::string value = text(key);
  std::string known;
  for (const char* a : allowed) {
    if (value == a) return value;
    known += std::string(known.empty() ? "" : ", ") + "'" + a + "'";
  }
  throw UsageError(path_of(key) + ": " + shown(value) + " is not " + known);
}

uint64_t JsonObject::count(const char* key) const { return member(key, Shape::count).get<uint64_t>(); }

int64_t JsonObject::integer(const char* key, int64_t low, int64_t high) const {
  const nlohmann::json& v = member(key, Shape::integer);
  const int64_t n = v.get<int64_t>();
  if (n < low || n > high)
    throw UsageError(path_of(key) + ": " + shown(v) + " is not from " + std::to_string(low) + " to " +
                     std::to_string(high));
  return n;
}

double JsonObject::number(const char* key, double low, double high) const {
  const nlohmann::json& v = member(key, Shape::number);
  const double x = v.get<double>();
  if (x < low || x > high) {
    char range[64];
    std::snprintf(range, sizeof range, " is not from %g to %g", low, high);
    throw UsageError(path_of(key) + ": " + shown(v) + range);
  }
  return x;
}

JsonObject JsonObject::object(const char* key) const { return JsonObject(member(key, Shape::object), path_of(key)); }

std::vector<JsonObject> JsonObject::objects(const char* key) const {
  std::vector<JsonObject> out;
  const nlohmann::json& list = member(key, Shape::list);
  for (size_t i = 0; i < list.size(); ++i) out.emplace_back(list[i], path_of(key) + "[" + std::to_string(i) + "]");
  return out;
}

std::vector<std::string> JsonObject::texts(const char* key) const {
  std::vector<std::string> out;
  const nlohmann::json& list = member(key, Shape::list);
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string())
      throw UsageError(path_of(key) + "[" + std::to_string(i) + "]: " + shown(list[i]) + " is not a string");
    out.push_back(list[i].get<std::string>());
  }
  return out;
}

std::map<std::string, uint64_t> JsonObject::counts(const char* key) const {
  std::map<std::string, uint64_t> out;
  for (const auto& item : member(key, Shape::counts).items()) out[item.key()] = item.value().get<uint64_t>();
  return out;
}

std::string JsonObject::optional_text(const char* key) const {
  expect(key, Shape::text, true);
  const auto it = value_.find(key);
  return it == value_.end() || it->is_null() ? "" : it->get<std::string>();
}

void JsonObject::expect(const char* key, Shape shape, bool null_ok) const {
  const auto it = value_.find(key);
  if (it == value_.end() || (null_ok && it->is_null())) return;
  member(key, shape);
}

std::string field_text(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

}  // namespace wc::cli
