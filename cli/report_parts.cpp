#include "report_parts.hpp"

#include <fmt/format.h>

#include "warlog/replay/report.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

namespace warlog::cli {

std::string junit_case(const std::string& name, const std::string& failure_type, const std::string& failure_message,
                       const std::string& body, const std::string& system_out) {
  std::string out = fmt::format("    <testcase classname=\"warlog\" name=\"{}\">\n", replay::xml_escape(name));
  if (!failure_type.empty()) {
    out += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n", replay::xml_escape(failure_type),
                       replay::xml_escape(failure_message), replay::xml_escape(body));
  }
  if (!system_out.empty()) out += fmt::format("      <system-out>{}</system-out>\n", replay::xml_escape(system_out));
  return out + "    </testcase>\n";
}

std::string junit_suite(const std::string& name, std::size_t tests, std::size_t failures, std::size_t errors,
                        const std::string& cases) {
  return junit_head(name, tests, failures, errors) + cases + junit_tail();
}

std::string junit_head(const std::string& name, std::size_t tests, std::size_t failures, std::size_t errors) {
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"{0}\" tests=\"{1}\" failures=\"{2}\" "
      "errors=\"{3}\">\n  <testsuite name=\"{0}\" tests=\"{1}\" failures=\"{2}\" errors=\"{3}\">\n",
      replay::xml_escape(name), tests, failures, errors);
}

std::string junit_tail() { return "  </testsuite>\n</testsuites>\n"; }

std::string tally(std::initializer_list<std::size_t> numbers) {
  std::string out;
  for (std::size_t n : numbers) out += fmt::format("{} ", n);
  return out;
}

std::vector<std::size_t> untally(const std::string& text) {
  std::vector<std::size_t> out;
  std::size_t n = 0;
  bool digits = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      n = n * 10 + static_cast<std::size_t>(c - '0');
      digits = true;
    } else if (digits) {
      out.push_back(std::exchange(n, 0));
      digits = false;
    }
  }
  return out;
}

Expected<Spool> Spool::make() {
  Spool s;
  s.file_.reset(std::tmpfile());
  if (!s.file_) {
    return make_error(ErrorCode::IoError, fmt::format("cannot make a temporary file: {}", std::strerror(errno)));
  }
  return s;
}

void Spool::write(const std::string& text) {
  if (std::fwrite(text.data(), 1, text.size(), file_.get()) != text.size()) failed_ = true;
}

Expected<void> Spool::print() {
  if (failed_ || std::fflush(file_.get()) != 0) {
    return make_error(ErrorCode::IoError, "cannot write the temporary file (is the disk full?)");
  }
  std::rewind(file_.get());
  char buf[1 << 16];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, file_.get())) > 0;) std::fwrite(buf, 1, n, stdout);
  if (std::ferror(file_.get())) return make_error(ErrorCode::IoError, "cannot read back the temporary file");
  return {};
}

}  // namespace warlog::cli
