// Typed reads of JSON from outside (result records, report.json): each throws UsageError naming the
// member's path, "cells[3].device", and what it holds instead, so that a bad file is one line.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

namespace wc::cli {

// What a member must hold.
enum class Shape {
  text,     // a string
  count,    // a whole number from 0 to 2^64 - 1
  integer,  // a whole number that fits an int
  number,   // a finite number
  flag,     // true or false
  object,
  list,     // an array
  counts,   // an object of counts
};

class JsonObject {
 public:
  // Throws where `value` is not an object; `path` names it in messages ("" for a whole record).
  JsonObject(const nlohmann::json& value, std::string path);

  // Required members: absent, null or of another shape is an error.
  const nlohmann::json& at(const char* key) const;  // of any shape
  std::string text(const char* key) const;
  std::string text_of(const char* key, std::initializer_list<const char*> allowed) const;  // one of `allowed`
  uint64_t count(const char* key) const;
  int64_t integer(const char* key, int64_t low, int64_t high) const;
  double number(const char* key, double low, double high) const;
  JsonObject object(const char* key) const;
  std::vector<JsonObject> objects(const char* key) const;  // an array of objects: key[0], key[1], ...
  std::vector<std::string> texts(const char* key) const;   // an array of strings
  std::map<std::string, uint64_t> counts(const char* key) const;

  std::string optional_text(const char* key) const;  // "" where absent or null
  // Where the member is present, it has `shape` (or is null, where `null_ok`).
  void expect(const char* key, Shape shape, bool null_ok = false) const;
  bool has(const char* key) const { return value_.contains(key); }
  const std::string& path() const { return path_; }
  std::string path_of(const char* key) const;  // "cells[3].device"

 private:
  const nlohmann::json& member(const char* key, Shape shape) const;

  const nlohmann::json& value_;
  std::string path_;
};

// A member as text: a string as it is, a number or an object as JSON, "" when absent or null, or
// when `object` is no object.
std::string field_text(const nlohmann::json& object, const char* key);

}  // namespace wc::cli
