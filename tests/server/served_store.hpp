#pragma once
// A `warlog serve` process on loopback for a test, and a small HTTP/1.1
// client to talk to it. The server is started on port 0 (it prints the port
// it bound), stopped with SIGTERM (SIGKILL after 10 s) when the ServedStore
// dies: no test leaves a server behind.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_run.hpp"
#include "sample_lines.hpp"

extern char** environ;

namespace warlog::testing {

struct HttpReply {
  int status = 0;  // 0: no answer (the connection failed or closed first)
  std::map<std::string, std::string> headers;  // names lowercased
  std::string body;
};

// A connected TCP socket to 127.0.0.1:port, -1 on failure.
inline int connect_loopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

inline bool send_all(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// Whether `raw` holds a whole reply: its headers and the body they announce.
inline bool reply_complete(const std::string& raw) {
  const auto end = raw.find("\r\n\r\n");
  if (end == std::string::npos) return false;
  std::string head = raw.substr(0, end);
  for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (const auto at = head.find("\r\ncontent-length: "); at != std::string::npos) {
    return raw.size() - (end + 4) >= std::stoul(head.substr(at + 18));
  }
  if (head.find("\r\ntransfer-encoding: chunked") != std::string::npos) {
    return raw.size() >= 5 && raw.compare(raw.size() - 5, 5, "0\r\n\r\n") == 0;
  }
  return false;
}

// Reads until the peer closes, the reply is whole, or `timeout` passes.
inline std::string read_until_closed(int fd, std::chrono::milliseconds timeout) {
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  char buf[16384];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (reply_complete(out)) break;  // KJ keeps a connection open after its answer
  }
  return out;
}

// A header of a reply, "" when absent.
inline std::string header(const HttpReply& r, const std::string& lowercase_name) {
  const auto it = r.headers.find(lowercase_name);
  return it == r.headers.end() ? std::string() : it->second;
}

inline HttpReply parse_reply(const std::string& raw) {
  HttpReply r;
  const auto end = raw.find("\r\n\r\n");
  if (raw.rfind("HTTP/1.1 ", 0) != 0 || end == std::string::npos) return r;
  r.status = std::stoi(raw.substr(9, 3));
  std::size_t at = raw.find("\r\n") + 2;
  while (at < end) {
    const auto eol = raw.find("\r\n", at);
    const std::string line = raw.substr(at, eol - at);
    const auto colon = line.find(':');
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers[name] = line.substr(colon + 2);
    at = eol + 2;
  }
  std::string body = raw.substr(end + 4);
  if (r.headers["transfer-encoding"] == "chunked") {
    std::string plain;
    std::size_t p = 0;
    while (p < body.size()) {
      const auto eol = body.find("\r\n", p);
      if (eol == std::string::npos) break;
      const std::size_t n = std::stoul(body.substr(p, eol - p), nullptr, 16);
      if (n == 0) break;
      plain += body.substr(eol + 2, n);
      p = eol + 2 + n + 2;
    }
    body = plain;
  }
  r.body = body;
  return r;
}

// The bytes of one request (Connection: close), plain or inside TLS.
inline std::string request_text(const std::string& method, const std::string& target, const std::string& token,
                                const std::string& body) {
  std::string req = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
  if (!token.empty()) req += "Authorization: Bearer " + token + "\r\n";
  if (method == "POST") req += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  return req + "\r\n" + body;
}

// One request on its own connection (Connection: close).
inline HttpReply http(int port, const std::string& method, const std::string& target, const std::string& token = "",
                      const std::string& body = "", std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  const int fd = connect_loopback(port);
  if (fd < 0) return {};
  HttpReply r;
  if (send_all(fd, request_text(method, target, token, body))) r = parse_reply(read_until_closed(fd, timeout));
  ::close(fd);
  return r;
}

inline std::string line_body(std::uint64_t expected, const std::string& line) {
  std::string escaped;
  for (char c : line) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return "{\"expectedSeq\":" + std::to_string(expected) + ",\"line\":\"" + escaped + "\"}";
}

// Reads a follow stream for up to `timeout`: what it sent and whether it closed.
struct FollowRead {
  std::string text;
  bool closed = false;
};
inline FollowRead follow_for(int fd, std::chrono::milliseconds timeout, const std::string& until = "") {
  FollowRead out;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  char buf[8192];
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      out.closed = true;
      break;
    }
    out.text.append(buf, static_cast<std::size_t>(n));
    if (!until.empty() && out.text.find(until) != std::string::npos) break;
    if (out.text.ends_with("0\r\n\r\n")) {  // the chunked stream ended (its last chunk came before)
      out.closed = true;
      break;
    }
  }
  return out;
}

class ServedStore {
 public:
  // Starts `warlog serve STORE --http 127.0.0.1:0 EXTRA` and waits (up to
  // 20 s) for the line naming its port. Throws when it does not come.
  explicit ServedStore(const std::string& store, const std::vector<std::string>& extra = {},
                       const std::string& host = "127.0.0.1") {
    start(store, extra, host);
  }
  ServedStore(const ServedStore&) = delete;
  ServedStore& operator=(const ServedStore&) = delete;
  ~ServedStore() { stop(SIGTERM); }

  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] pid_t pid() const { return pid_; }
  [[nodiscard]] const std::string& first_line() const { return first_line_; }

  // Sends `sig` and waits for the process (SIGKILL after 10 s); its exit code, or -signal.
  int stop(int sig) {
    if (pid_ <= 0) return exit_;
    ::kill(pid_, sig);
    int status = 0;
    for (int i = 0; i < 1000; ++i) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) break;
      if (i == 999) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (out_ >= 0) ::close(out_);
    out_ = -1;
    pid_ = -1;
    exit_ = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    return exit_;
  }

  // The server's stderr so far.
  [[nodiscard]] std::string err() const { return slurp(err_path_); }

 private:
  void start(const std::string& store, const std::vector<std::string>& extra, const std::string& host) {
    int pipefd[2];
    if (::pipe2(pipefd, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    err_path_ = io_.path() / "serve.err";
    std::vector<std::string> args = {WARLOG_CLI_PATH, "serve", store, "--http", host + ":0"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int rc = posix_spawn(&pid_, WARLOG_CLI_PATH, &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(pipefd[1]);
    out_ = pipefd[0];
    if (rc != 0) throw std::runtime_error("posix_spawn warlog serve");
    const std::string got = read_line(std::chrono::seconds(20));
    first_line_ = got;
    const auto at = got.find("://" + host + ":");  // http:// or, with --tls, https://
    if (at == std::string::npos) {
      stop(SIGKILL);
      throw std::runtime_error("warlog serve did not start: " + got + " / " + slurp(err_path_));
    }
    port_ = std::stoi(got.substr(at + 4 + host.size()));
  }

 public:
  // The server's next line on stdout ("" when none comes within `timeout`).
  std::string read_line(std::chrono::milliseconds timeout) {
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (line.empty() || line.back() != '\n') {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd p{out_, POLLIN, 0};
      if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
      char c = 0;
      if (::read(out_, &c, 1) != 1) break;
      line += c;
    }
    return line;
  }

 private:
  TempDir io_;
  std::filesystem::path err_path_;
  pid_t pid_ = -1;
  int out_ = -1;
  int port_ = 0;
  int exit_ = -1;
  std::string first_line_;
};

// `warlog serve token issue STORE --role ROLE [--game N]`: the token printed.
inline std::string issue_token(const std::string& store, const std::string& role, int game = 0) {
  const CliResult r = run_warlog("serve token issue '" + store + "' --role " + role +
                                 (game ? " --game " + std::to_string(game) : std::string()));
  if (r.code != 0) throw std::runtime_error("token issue: " + r.err);
  return r.out.substr(0, r.out.find('\n'));
}

// Every server test's store: game 1 created from the tutorial's header as
// a table's game is (`warlog record --header`), its body left to record;
// with `table_two`, game 2 another table's, the tutorial imported whole.
// Throws when warlog refuses (the fixture cannot go on).
inline SampleLines serve_tutorial(const TempDir& dir, bool table_two) {
  SampleLines lines = sample_lines(dir.path(), "tutorial/spine_first_blood.wlog");
  const CliResult created = run_warlog("record '" + dir.store() + "' --header '" + lines.header.string() + "' </dev/null");
  if (created.code != 0) throw std::runtime_error("record --header: " + created.err);
  if (table_two) {
    const CliResult imported =
        run_warlog("import --store '" + dir.store() + "' '" + retitled_sample(dir.path(), "Table 2").string() + "'");
    if (imported.code != 0) throw std::runtime_error("import: " + imported.err);
  }
  return lines;
}

}  // namespace warlog::testing
