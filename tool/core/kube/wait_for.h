// Waiting for work that finishes on another thread (the HTTP client's event loop): the
// synchronous forms of kube's asynchronous operations are this wrapped around them.
#pragma once

#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <utility>

namespace gkebuild::kube {

// Calls `start` with a completion, and waits until something calls that completion: returns
// its value, or rethrows its error.
template <typename T, typename Start>
T wait_for(Start&& start) {
  auto promise = std::make_shared<std::promise<T>>();
  auto future = promise->get_future();
  start(std::function<void(T, std::exception_ptr)>([promise](T value, std::exception_ptr error) {
    if (error)
      promise->set_exception(error);
    else
      promise->set_value(std::move(value));
  }));
  return future.get();
}

}  // namespace gkebuild::kube
