// base/http_client against tests/base/http_test_server.py on loopback.
#include <signal.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "base/http_client.h"
#include "tests/common/temp_dir.h"

namespace gkebuild {
namespace {

// The Python server, started once for the whole program and stopped at its end.
class TestServer {
 public:
  TestServer() {
    // exec: the server is the shell's process, so that pclose() waits for the server itself.
    const std::string command =
        "exec python3 '" GKEBUILD_SOURCE_ROOT "/tests/base/http_test_server.py' --dir '" + dir_.path().string() + "'";
    output_ = ::popen(command.c_str(), "r");
    char line[128] = {};
    if (!output_ || !std::fgets(line, sizeof line, output_) ||
        std::sscanf(line, "PORTS %d %d %d", &http_port_, &https_port_, &pid_) != 3)
      throw std::runtime_error(std::string("the HTTP test server did not start: ") + line);
  }
  ~TestServer() {
    ::kill(pid_, SIGTERM);
    ::pclose(output_);
  }

  std::string http(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(http_port_) + path; }
  std::string https(const std::string& path) const {
    return "https://127.0.0.1:" + std::to_string(https_port_) + path;
  }
  std::string certificate_pem() const {
    std::ifstream in(dir_ / "server.crt");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

 private:
  testing::TempDir dir_;
  FILE* output_ = nullptr;
  int pid_ = 0;
  int http_port_ = 0;
  int https_port_ = 0;
};

const TestServer& server() {
  static const TestServer shared;
  return shared;
}

// Some machines set a proxy; loopback must not go through it.
class HttpClientTest : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("no_proxy", "127.0.0.1", 1); }
  HttpResponse get(HttpClient& client, const std::string& url) {
    HttpRequest request;
    request.url = url;
    return client.send(request);
  }
};

TEST_F(HttpClientTest, BuffersTheBodyAndSendsTheUserAgent) {
  HttpClient client;
  HttpRequest request;
  request.method = "POST";
  request.url = server().http("/echo");
  request.body = "payload";
  const HttpResponse response = client.send(request);
  EXPECT_EQ(response.status, 200);
  EXPECT_NE(response.body.find("\"user_agent\": \"gkebuild/"), std::string::npos) << response.body;
  EXPECT_NE(response.body.find("\"body\": \"payload\""), std::string::npos) << response.body;
}

TEST_F(HttpClientTest, StreamsARequestBody) {
  HttpClient client;
  const std::string payload = "streamed-body";
  size_t offset = 0;
  uint64_t reported = 0;
  HttpRequest request;
  request.method = "PUT";
  request.url = server().http("/echo");
  request.upload_size = payload.size();
  request.upload = [&](char* buffer, size_t room) {
    const size_t n = std::min<size_t>({room, 4, payload.size() - offset});  // a few bytes at a time
    payload.copy(buffer, n, offset);
    offset += n;
    return n;
  };
  request.on_sent = [&](uint64_t total) { reported = total; };
  const HttpResponse response = client.send(request);
  EXPECT_NE(response.body.find("\"method\": \"PUT\""), std::string::npos) << response.body;
  EXPECT_NE(response.body.find("\"body\": \"streamed-body\""), std::string::npos) << response.body;
  EXPECT_EQ(response.bytes_sent, payload.size());
  EXPECT_EQ(reported, payload.size());
}

TEST_F(HttpClientTest, ProxiesComeFromTheEnvironment) {
  // The test server answers a proxy's absolute-form request line like any other,
  // so a name that resolves nowhere is reached only if the proxy is used.
  ::setenv("http_proxy", server().http("").c_str(), 1);
  HttpClient client;
  HttpResponse response;
  EXPECT_NO_THROW(response = get(client, "http://through-the-proxy.invalid/bytes?n=4"));
  ::unsetenv("http_proxy");
  EXPECT_EQ(response.body, "xxxx");
}

TEST_F(HttpClientTest, ATotalTimeoutEndsASilentStream) {
  HttpClient client;
  HttpRequest request;
  request.url = server().http("/silent");
  request.timeout_seconds = 1;
  try {
    client.send(request);
    FAIL() << "no error";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.failure(), HttpError::Failure::kDropped);
    EXPECT_EQ(e.status(), 200);
  }
}

TEST_F(HttpClientTest, AStallLimitEndsASilentStream) {
  HttpClient client({.timeouts = {.stall_seconds = 1}});
  try {
    get(client, server().http("/silent"));
    FAIL() << "no error";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.failure(), HttpError::Failure::kDropped);
    EXPECT_NE(std::string(e.what()).find("cannot talk to " + server().http("")), std::string::npos) << e.what();
  }
}

TEST_F(HttpClientTest, ARequestsStallLimitReplacesTheClientsAndCountsBytesPerSecond) {
  HttpClient client;  // no stall limit of its own
  HttpRequest request;
  request.url = server().http("/silent");
  request.stall = StallLimit{.seconds = 1, .bytes_per_second = 1024};
  try {
    client.send(request);
    FAIL() << "no error";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.failure(), HttpError::Failure::kDropped);
    EXPECT_NE(std::string(e.what()).find("fewer than 1024 bytes/s moved for 1 s"), std::string::npos) << e.what();
  }
}

// A server may think after the last byte of a request body (a registry
// verifying an upload) for answer_wait_seconds; without it the stall limit holds.
TEST_F(HttpClientTest, AnswerWaitLetsTheServerThinkAfterTheLastByte) {
  HttpClient client({.timeouts = {.stall_seconds = 1}});
  HttpRequest request;
  request.method = "PUT";
  request.url = server().http("/think?s=3");
  request.body = "the last byte";
  request.answer_wait_seconds = 60;
  EXPECT_EQ(client.send(request).body, "thought");
  request.answer_wait_seconds = 0;
  try {
    client.send(request);
    FAIL() << "no error";
  } catch (const HttpError& e) {
    EXPECT_NE(std::string(e.what()).find("no byte moved for 1 s"), std::string::npos) << e.what();
  }
  request.answer_wait_seconds = 1;
  try {
    client.send(request);
    FAIL() << "no error";
  } catch (const HttpError& e) {
    EXPECT_NE(std::string(e.what()).find("no answer 1 s after the request was sent"), std::string::npos) << e.what();
  }
}

TEST_F(HttpClientTest, StreamsABodyToTheSink) {
  HttpClient client;
  HttpRequest request;
  request.url = server().http("/bytes?n=100000");
  size_t received = 0;
  request.sink = [&](std::string_view chunk) {
    received += chunk.size();
    return true;
  };
  const HttpResponse response = client.send(request);
  EXPECT_EQ(received, 100000u);
  EXPECT_TRUE(response.body.empty());
  EXPECT_EQ(response.end, HttpResponse::End::Complete);
}

TEST_F(HttpClientTest, ABodyPastTheLimitAbortsNamingOnlyTheOrigin) {
  HttpClient client;
  HttpRequest request;
  request.url = server().http("/bytes?n=5000&secret=token");
  request.body_limit = 4096;
  request.sink = [](std::string_view) { return true; };
  try {
    client.send(request);
    FAIL() << "no error";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.failure(), HttpError::Failure::kTooLarge);
    EXPECT_EQ(std::string(e.what()), server().http("") + " sent an answer larger than 4096 bytes");
    EXPECT_EQ(e.status(), 200);
  }
  request.body_limit = 5000;
  EXPECT_EQ(client.send(request).status, 200);
}

TEST_F(HttpClientTest, BufferedBodiesAreBoundedByDefault) {
  HttpClient client;
  try {
    get(client, server().http("/bytes?n=" + std::to_string(kDefaultBodyLimit + 1)));
    FAIL() << "no error";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.failure(), HttpError::Failure::kTooLarge);
    EXPECT_NE(std::string(e.what()).find("larger than 16 MiB"), std::string::npos) << e.what();
  }
}

TEST_F(HttpClientTest, HeaderNamesAreLowerCase) {
  HttpClient client;
  const HttpResponse response = get(client, server().http("/headers"));
  EXPECT_EQ(response.header("x-mixed-case"), "Value Kept");
  EXPECT_EQ(response.all("x-twice"), (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(response.header("X-Mixed-Case"), "");
}

TEST_F(HttpClientTest, RedirectsAreNotFollowedUnlessAsked) {
  HttpClient client;
  HttpRequest request;
  request.url = server().http("/redirect?to=/bytes%3Fn%3D3");
  HttpResponse response = client.send(request);
  EXPECT_EQ(response.status, 302);
  EXPECT_EQ(response.header("location"), "/bytes?n=3");
  request.follow_redirects = true;
  response = client.send(request);
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.body, "xxx");
}

void expect_refused_redirect(HttpClient& client, const std::string& url, const std::string& scheme) {
  HttpRequest request;
  request.url = url;
  request.follow_redirects = true;
  try {
    client.send(request);
    ADD_FAILURE() << "followed " << url;
  } catch (const HttpError& e) {
    EXPECT_EQ(e.failure(), HttpError::Failure::kRedirectRefused) << e.what();
    EXPECT_NE(std::string(e.what()).find("refused a redirect to " + scheme + "://"), std::string::npos) << e.what();
  }
}

TEST_F(HttpClientTest, FollowingRefusesSchemesOtherThanHttp) {
  HttpClient client;
  expect_refused_redirect(client, server().http("/redirect?to=file:///etc/passwd"), "file");
  expect_refused_redirect(client, server().http("/redirect?to=gopher://127.0.0.1/"), "gopher");
}

TEST_F(HttpClientTest, FollowingNeverGoesFromHttpsToHttp) {
  HttpClient client({.tls = {.ca_pem = server().certificate_pem()}});
  HttpRequest request;
  request.url = server().https("/redirect?to=/bytes%3Fn%3D2");
  request.follow_redirects = true;
  EXPECT_EQ(client.send(request).body, "xx");  // https to https is fine
  expect_refused_redirect(client, server().https("/redirect?to=" + server().http("/bytes%3Fn%3D2")), "http");
}

TEST_F(HttpClientTest, RequestsForOtherSchemesFail) {
  HttpClient client;
  EXPECT_THROW(get(client, "file:///etc/passwd"), HttpError);
}

TEST_F(HttpClientTest, AnUntrustedCertificateFails) {
  HttpClient client;
  try {
    get(client, server().https("/bytes?n=1"));
    FAIL() << "no error";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.failure(), HttpError::Failure::kTlsUntrusted) << e.what();
  }
  HttpClient insecure({.tls = {.verify = false}});
  EXPECT_EQ(get(insecure, server().https("/bytes?n=1")).body, "x");
}

TEST_F(HttpClientTest, TlsServerNameIsCheckedAgainstTheCertificate) {
  // api.gkebuild.test resolves nowhere: the connection still goes to the URL's address.
  HttpClient named({.tls = {.ca_pem = server().certificate_pem(), .server_name = "api.gkebuild.test"}});
  EXPECT_EQ(get(named, server().https("/bytes?n=2")).body, "xx");
  // The certificate does not carry this name: refused, although the address is right.
  HttpClient wrong_name({.tls = {.ca_pem = server().certificate_pem(), .server_name = "kubernetes.default"}});
  EXPECT_THROW(get(wrong_name, server().https("/bytes?n=1")), HttpError);
}

TEST_F(HttpClientTest, CancelStopsASilentStream) {
  HttpClient client;
  std::atomic<bool> cancel{false};
  std::promise<void> first_chunk;
  HttpRequest request;
  request.url = server().http("/silent");
  request.cancel = &cancel;
  std::string received;
  request.sink = [&](std::string_view chunk) {
    if (received.empty()) first_chunk.set_value();
    received += chunk;
    return true;
  };
  std::thread canceller([&] {
    first_chunk.get_future().wait();
    cancel = true;
  });
  const HttpResponse response = client.send(request);
  canceller.join();
  EXPECT_EQ(response.end, HttpResponse::End::Stopped);
  EXPECT_EQ(received, "hello");
}

TEST_F(HttpClientTest, WhatTheSinkThrowsComesOutOfSend) {
  HttpClient client;
  HttpRequest request;
  request.url = server().http("/bytes?n=10");
  request.sink = [](std::string_view) -> bool { throw std::invalid_argument("disk full"); };
  EXPECT_THROW(client.send(request), std::invalid_argument);
}

TEST_F(HttpClientTest, ASinkThatSaysStopStopsTheTransfer) {
  HttpClient client;
  HttpRequest request;
  request.url = server().http("/silent");
  request.sink = [](std::string_view) { return false; };
  EXPECT_EQ(client.send(request).end, HttpResponse::End::Stopped);
}

TEST_F(HttpClientTest, ReusesOneConnection) {
  HttpClient client;
  HttpClient counter;  // its own pool, so that asking opens one more connection
  auto connections = [&] { return std::stoi(get(counter, server().http("/connections")).body); };
  const int before = connections();
  EXPECT_EQ(get(client, server().http("/bytes?n=1")).status, 200);
  EXPECT_EQ(get(client, server().http("/bytes?n=2")).status, 200);
  std::thread other([&] { EXPECT_EQ(get(client, server().http("/bytes?n=3")).status, 200); });
  other.join();
  // One for `client`'s three requests (from two threads), one for the counter's second question.
  EXPECT_EQ(connections() - before, 1);
}

TEST_F(HttpClientTest, ResetConnectionsStartsANewOne) {
  HttpClient client;
  HttpClient counter;
  auto connections = [&] { return std::stoi(get(counter, server().http("/connections")).body); };
  const int before = connections();
  get(client, server().http("/bytes?n=1"));
  get(client, server().http("/bytes?n=1"));
  EXPECT_EQ(connections() - before, 1);
  client.reset_connections();
  get(client, server().http("/bytes?n=1"));
  EXPECT_EQ(connections() - before, 2);
}

TEST_F(HttpClientTest, AnUnreachableServerFailsWithoutStatus) {
  HttpClient client;
  try {
    get(client, "http://127.0.0.1:1/");
    FAIL() << "no error";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.failure(), HttpError::Failure::kDropped);
    EXPECT_EQ(e.status(), 0);
    EXPECT_NE(std::string(e.what()).find("cannot talk to http://127.0.0.1:1:"), std::string::npos) << e.what();
  }
}

TEST(PercentEncode, KeepsOnlyUnreservedBytes) {
  EXPECT_EQ(percent_encode("job-name=a b"), "job-name%3Da%20b");
  EXPECT_EQ(percent_encode("A-z_0.9~/?&\xff"), "A-z_0.9~%2F%3F%26%FF");
}

TEST(OriginOf, DropsPathQueryAndCredentials) {
  EXPECT_EQ(origin_of("https://user:secret@example.com:5000/v2/x?token=y"), "https://example.com:5000");
  EXPECT_EQ(origin_of("http://h/p#f"), "http://h");
  EXPECT_EQ(without_query("https://h/a/b?x=1"), "https://h/a/b");
}

}  // namespace
}  // namespace gkebuild

namespace gkebuild {
namespace {

// What a started transfer came to, waited for.
class Started {
 public:
  HttpCompletion completion() {
    return [this](HttpOutcome outcome) { promise_.set_value(std::move(outcome)); };
  }
  HttpOutcome wait() { return future_.get(); }

 private:
  std::promise<HttpOutcome> promise_;
  std::future<HttpOutcome> future_ = promise_.get_future();
};

// Transfers started together run side by side on the client's one loop thread, their
// callbacks there too, and each completes once.
TEST_F(HttpClientTest, StartedTransfersRunOnTheLoopThread) {
  HttpClient client;
  std::array<Started, 3> started;
  std::array<std::atomic<size_t>, 3> received{};
  std::atomic<bool> off_loop{false};
  for (size_t i = 0; i < started.size(); ++i) {
    HttpRequest request;
    request.url = server().http("/bytes?n=" + std::to_string(100000 * (i + 1)));
    request.sink = [&, i](std::string_view chunk) {
      if (!client.on_loop_thread()) off_loop = true;
      received[i] += chunk.size();
      return true;
    };
    client.start(std::move(request), started[i].completion());
  }
  EXPECT_FALSE(client.on_loop_thread());
  for (size_t i = 0; i < started.size(); ++i) {
    const HttpOutcome outcome = started[i].wait();
    ASSERT_FALSE(outcome.error);
    EXPECT_EQ(outcome.response.status, 200);
    EXPECT_EQ(outcome.response.end, HttpResponse::End::Complete);
    EXPECT_EQ(received[i], 100000 * (i + 1));
  }
  EXPECT_FALSE(off_loop);
}

// cancel() ends a stream that would stay silent for a minute; a timer runs on the loop.
TEST_F(HttpClientTest, CancelStopsAStartedStream) {
  HttpClient client;
  std::promise<void> first_chunk;
  HttpRequest request;
  request.url = server().http("/silent");
  request.sink = [&, once = true](std::string_view) mutable {
    if (std::exchange(once, false)) first_chunk.set_value();
    return true;
  };
  Started started;
  const uint64_t id = client.start(std::move(request), started.completion());
  first_chunk.get_future().wait();
  std::promise<bool> timer;
  client.after(std::chrono::milliseconds(10), [&] { timer.set_value(client.on_loop_thread()); });
  EXPECT_TRUE(timer.get_future().get());
  client.cancel(id);
  const HttpOutcome outcome = started.wait();
  ASSERT_FALSE(outcome.error);
  EXPECT_EQ(outcome.response.status, 200);
  EXPECT_EQ(outcome.response.end, HttpResponse::End::Stopped);
  client.cancel(id);  // finished already: nothing happens
}

// A started transfer fails as send() does: the same HttpError, handed to the completion.
TEST_F(HttpClientTest, StartedTransferFailsAsSendDoes) {
  HttpClient client({.timeouts = {.stall_seconds = 1}});
  HttpRequest large;
  large.url = server().http("/bytes?n=2000");
  large.body_limit = 1000;
  HttpRequest silent;
  silent.url = server().http("/silent");
  silent.sink = [](std::string_view) { return true; };
  Started too_large, stalled;
  client.start(large, too_large.completion());
  client.start(silent, stalled.completion());
  for (auto [started, failure] : {std::pair{&too_large, HttpError::Failure::kTooLarge},
                                  std::pair{&stalled, HttpError::Failure::kDropped}}) {
    const HttpOutcome outcome = started->wait();
    ASSERT_TRUE(outcome.error);
    try {
      std::rethrow_exception(outcome.error);
    } catch (const HttpError& e) {
      EXPECT_EQ(e.failure(), failure) << e.what();
      EXPECT_EQ(e.status(), 200);
      EXPECT_TRUE(e.request_sent());
    }
  }
}

}  // namespace
}  // namespace gkebuild
