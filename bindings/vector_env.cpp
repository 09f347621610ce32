// rivals.VectorEnv: results land in arrays allocated once and handed to numpy without copying.
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <future>
#include <stdexcept>
#include <string>
#include <vector>

#include "convert.h"
#include "py_types.h"
#include "rivals/core/registry.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace rivals::bindings {
namespace {

// std::vector<bool> packs bits, and numpy's bool is one byte: keep a plain bool array.
class BoolBuffer {
 public:
  void resize(std::size_t n) { data_ = std::make_unique<bool[]>(n); }
  bool* data() { return data_.get(); }

 private:
  std::unique_ptr<bool[]> data_;
};

class PyVectorEnv {
 public:
  PyVectorEnv(std::shared_ptr<AnyGame> game, int num_envs, std::uint64_t seed, int threads)
      : game_(std::move(game)), env_(game_->make_vector_env(num_envs, seed, threads)) {
    const auto n = static_cast<std::size_t>(num_envs);
    obs_.resize(n * static_cast<std::size_t>(game_->observation_size()));
    mask_.resize(n * static_cast<std::size_t>(game_->num_distinct_actions()));
    player_.resize(n);
    rewards_.resize(n * static_cast<std::size_t>(game_->num_players()));
    terminated_.resize(n);
    actions_.resize(n);
  }

  ~PyVectorEnv() {
    if (pending_.valid()) pending_.wait();
  }

  int num_envs() const { return env_->num_envs(); }

  PyState state(int env) const {
    check_idle();
    return PyState{game_->state_from_history(env_->history(env))};
  }
  const std::shared_ptr<AnyGame>& game() const { return game_; }

  void reset() {
    check_idle();
    nb::gil_scoped_release release;
    env_->reset(buffers());
  }

  void step(nb::handle actions) {
    check_idle();
    load_actions(actions);
    nb::gil_scoped_release release;
    env_->step(actions_.data(), buffers());
  }

  void send(nb::handle actions) {
    check_idle();
    load_actions(actions);
    pending_ = std::async(std::launch::async, [this] { env_->step(actions_.data(), buffers()); });
  }

  void recv() {
    if (!pending_.valid()) throw std::invalid_argument("recv() without a send()");
    nb::gil_scoped_release release;
    auto done = std::move(pending_);
    done.get();
  }

  // Views of the buffers; `self` keeps this object (and so the memory) alive.
  nb::dict views(nb::handle self) {
    const auto n = static_cast<std::size_t>(num_envs());
    std::vector<std::size_t> obs_shape{n};
    for (int d : game_->observation_shape()) obs_shape.push_back(static_cast<std::size_t>(d));
    nb::dict out;
    out["obs"] =
        nb::ndarray<nb::numpy, float>(obs_.data(), obs_shape.size(), obs_shape.data(), self);
    out["legal_mask"] =
        array(mask_.data(), {n, static_cast<std::size_t>(game_->num_distinct_actions())}, self);
    out["player"] = array(player_.data(), {n}, self);
    out["rewards"] =
        array(rewards_.data(), {n, static_cast<std::size_t>(game_->num_players())}, self);
    out["terminated"] = array(terminated_.data(), {n}, self);
    return out;
  }

 private:
  template <class T>
  static nb::ndarray<nb::numpy, T> array(T* data, std::initializer_list<std::size_t> shape,
                                         nb::handle owner) {
    return nb::ndarray<nb::numpy, T>(data, shape.size(), shape.begin(), owner);
  }

  VectorBuffers buffers() {
    return {obs_.data(), mask_.data(), player_.data(), rewards_.data(), terminated_.data()};
  }

  void check_idle() const {
    if (pending_.valid())
      throw std::invalid_argument("a step sent with send() is still running: call recv() first");
  }

  void load_actions(nb::handle actions) {
    const auto n = static_cast<std::size_t>(num_envs());
    auto array = nb::cast<nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig>>(
        nb::module_::import_("numpy").attr("ascontiguousarray")(actions, "dtype"_a = "int64"));
    if (array.shape(0) != n)
      throw std::invalid_argument("step needs one action per environment (" + std::to_string(n) +
                                  "), got " + std::to_string(array.shape(0)));
    for (std::size_t e = 0; e < n; ++e) {
      const std::int64_t action = array.data()[e];
      if (action < INT32_MIN || action > INT32_MAX)
        throw std::invalid_argument("environment " + std::to_string(e) + ": action " +
                                    std::to_string(action) + " is out of range");
      actions_[e] = static_cast<std::int32_t>(action);
    }
  }

  std::shared_ptr<AnyGame> game_;
  std::unique_ptr<AnyVectorEnv> env_;
  std::vector<float> obs_;
  BoolBuffer mask_;
  std::vector<std::int32_t> player_;
  std::vector<float> rewards_;
  BoolBuffer terminated_;
  std::vector<std::int32_t> actions_;
  std::future<void> pending_;
};

}  // namespace

void bind_vector_env(nb::module_& m) {
  nb::class_<PyVectorEnv>(m, "VectorEnv",
                          "Many games stepped together in C++; see rivals.VectorEnv.")
      .def(
          "__init__",
          [](PyVectorEnv* self, nb::handle game, int num_envs, const nb::int_& seed, int threads) {
            std::shared_ptr<AnyGame> resolved;
            if (nb::isinstance<nb::str>(game)) {
              resolved = make_game(to_utf8(game, "game name"));
            } else {
              PyGame* py_game = nullptr;
              if (!nb::try_cast<PyGame*>(game, py_game) || py_game == nullptr)
                throw std::invalid_argument("game must be a rivals.Game or a game name");
              resolved = py_game->impl;
            }
            if (threads < 1) throw std::invalid_argument("threads must be at least 1");
            new (self) PyVectorEnv(std::move(resolved), num_envs, to_seed(seed), threads);
          },
          "game"_a, "num_envs"_a, "seed"_a = 0, "threads"_a = 1,
          nb::sig("def __init__(self, game: Game | str, num_envs: int, seed: int = 0, threads: int "
                  "= 1) -> None"))
      .def_prop_ro("num_envs", &PyVectorEnv::num_envs)
      .def_prop_ro("game", [](const PyVectorEnv& env) { return PyGame{env.game()}; })
      .def("state", &PyVectorEnv::state, "env"_a)
      .def("reset", &PyVectorEnv::reset)
      .def("step", &PyVectorEnv::step, "actions"_a)
      .def("send", &PyVectorEnv::send, "actions"_a)
      .def("recv", &PyVectorEnv::recv)
      .def(
          "views", [](nb::handle self) { return nb::cast<PyVectorEnv&>(self).views(self); },
          nb::sig("def views(self) -> dict[str, numpy.typing.NDArray[typing.Any]]"),
          "The result arrays, views of buffers that every reset/step overwrites.");
}

}  // namespace rivals::bindings
