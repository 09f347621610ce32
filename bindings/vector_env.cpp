// rivals.VectorEnv: results land in arrays allocated once and handed to numpy without copying.
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <climits>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

#include "convert.h"
#include "py_types.h"
#include "rivals/core/error.h"
#include "rivals/core/fork.h"
#include "rivals/core/interrupt.h"
#include "rivals/core/registry.h"
#include "rivals/core/threads.h"

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
  PyVectorEnv(std::shared_ptr<AnyGame> game, int num_envs, std::uint64_t seed, int threads,
              const VectorEnvOptions& options)
      : game_(std::move(game)),
        options_(options),
        env_(game_->make_vector_env(num_envs, seed, threads, options)) {
    const auto n = static_cast<std::size_t>(num_envs);
    const bool compact = options.observation == ObservationKind::kCompact;
    if (options.observation != ObservationKind::kNone) {
      const auto floats = compact ? game_->compact_features_size() : game_->observation_size();
      obs_.resize(n * static_cast<std::size_t>(floats));  // halves use its first half
    }
    if (compact) board_.resize(n * static_cast<std::size_t>(game_->compact_board_size()));
    if (options.legal_mask)
      mask_.resize(n * static_cast<std::size_t>(game_->num_distinct_actions()));
    if (options.legal_indices) {
      legal_indices_.resize(n * static_cast<std::size_t>(game_->max_legal_actions()));
      num_legal_.resize(n);
    }
    player_.resize(n);
    rewards_.resize(n * static_cast<std::size_t>(game_->num_players()));
    terminated_.resize(n);
    actions_.resize(n);
  }

  // A step sent and never received is stopped, not waited for: its bots may think for minutes,
  // and this runs when the interpreter exits too. In a forked child, a step that the parent sent
  // or was running has no thread here: it is neither stopped nor waited for (joining its thread
  // would block for ever), and the environments it was changing are never freed (left as the
  // parent's memory, copy-on-write).
  ~PyVectorEnv() {
    if (stepped_before_fork()) {
      if (pending_.valid()) new std::future<void>(std::move(pending_));
      (void)env_.release();
      return;
    }
    if (!pending_.valid()) return;
    cancel_.stop();
    pending_.wait();
  }

  int num_envs() const { return env_->num_envs(); }

  // Every call but the constant ones holds the guard, so two threads stepping one environment get
  // an InUseError rather than a mixed-up step.
  PyState state(nb::handle env_arg) const {
    const auto writing = using_it("state");
    const std::int64_t env = to_integer(env_arg, where() + ".state: env", INT64_MIN, INT64_MAX);
    if (env < 0 || env >= num_envs())
      throw std::out_of_range(where() + ": no environment " + std::to_string(env) + " (0.." +
                              std::to_string(num_envs() - 1) + ")");
    check_idle();
    return PyState{game_->state_from_history(env_->history(static_cast<int>(env)))};
  }
  const std::shared_ptr<AnyGame>& game() const { return game_; }

  void reset(nb::handle seed) {
    const auto writing = using_it("reset");
    check_idle();
    std::optional<std::uint64_t> start;
    if (!seed.is_none()) start = to_seed(seed);
    nb::gil_scoped_release release;
    env_->reset(buffers(), start);
  }

  void step(nb::handle actions) {
    const auto writing = using_it("step");
    check_idle();
    load_actions(actions);
    nb::gil_scoped_release release;
    env_->step(actions_.data(), buffers());
  }

  nb::ndarray<nb::numpy, std::int32_t> sample_legal() {
    const auto writing = using_it("sample_legal");
    check_idle();
    const auto n = static_cast<std::size_t>(num_envs());
    auto actions = std::make_unique<std::int32_t[]>(n);
    {
      nb::gil_scoped_release release;  // the workers draw too
      env_->sample_legal(actions.get());
    }
    // A fresh array each call: a caller may keep it (a replay buffer) while sampling on.
    nb::capsule owner(actions.get(),
                      [](void* p) noexcept { delete[] static_cast<std::int32_t*>(p); });
    return nb::ndarray<nb::numpy, std::int32_t>(actions.release(), {n}, owner);
  }

  void send(nb::handle actions) {
    const auto writing = using_it("send");
    check_idle();
    load_actions(actions);
    cancel_.clear();
    sent_from_ = process_id();
    try {
      pending_ = std::async(std::launch::async, [this] {
        const auto listening = cancel_.listen();
        env_->step(actions_.data(), buffers());
      });
    } catch (const std::system_error& error) {
      throw std::runtime_error(std::string("VectorEnv.send: could not start the step (") +
                               error.what() + "); use step()");
    }
  }

  // Python runs signal handlers on the main thread only, never on the step's own thread: the wait
  // runs them itself. On Ctrl-C the step stops at its next interruption point and rolls back, as
  // an interrupted step() does (unless it had already finished), and KeyboardInterrupt is raised.
  void recv() {
    const auto writing = using_it("recv");
    if (!pending_.valid()) throw InvalidArgument("recv() without a send()");
    check_not_forked();
    auto done = std::move(pending_);
    bool interrupted = false;
    {
      nb::gil_scoped_release release;
      while (!interrupted && done.wait_for(kInterruptPoll) != std::future_status::ready) {
        nb::gil_scoped_acquire gil;
        interrupted = PyErr_CheckSignals() != 0;
      }
      if (interrupted) {
        cancel_.stop();
        done.wait();
      }
    }
    if (!interrupted) {
      done.get();
      return;
    }
    try {
      done.get();
    } catch (...) {  // Interrupted, or an error that the signal handler's exception replaces
    }
    throw nb::python_error();
  }

  // Views of the buffers; `self` keeps this object (and so the memory) alive. Only the arrays
  // the options ask for are there.
  nb::dict views(nb::handle self) {
    const auto n = static_cast<std::size_t>(num_envs());
    nb::dict out;
    if (options_.observation != ObservationKind::kNone) {
      const bool compact = options_.observation == ObservationKind::kCompact;
      std::vector<std::size_t> obs_shape{n};
      if (compact)
        obs_shape.push_back(static_cast<std::size_t>(game_->compact_features_size()));
      else
        for (int d : game_->observation_shape()) obs_shape.push_back(static_cast<std::size_t>(d));
      const nb::dlpack::dtype dtype{static_cast<std::uint8_t>(nb::dlpack::dtype_code::Float),
                                    static_cast<std::uint8_t>(options_.half_floats ? 16 : 32), 1};
      out[compact ? "features" : "obs"] = nb::ndarray<nb::numpy>(
          obs_.data(), obs_shape.size(), obs_shape.data(), self, nullptr, dtype);
      if (compact) {
        std::vector<std::size_t> board_shape{n};
        for (int d : game_->compact_board_shape())
          board_shape.push_back(static_cast<std::size_t>(d));
        out["board"] = nb::ndarray<nb::numpy, std::uint8_t>(board_.data(), board_shape.size(),
                                                            board_shape.data(), self);
      }
    }
    if (options_.legal_mask)
      out["legal_mask"] =
          array(mask_.data(), {n, static_cast<std::size_t>(game_->num_distinct_actions())}, self);
    if (options_.legal_indices) {
      out["legal_actions"] = array(legal_indices_.data(),
                                   {n, static_cast<std::size_t>(game_->max_legal_actions())}, self);
      out["num_legal"] = array(num_legal_.data(), {n}, self);
    }
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
    return {obs_.empty() ? nullptr : obs_.data(),
            board_.data(),
            mask_.data(),
            legal_indices_.data(),
            num_legal_.data(),
            player_.data(),
            rewards_.data(),
            terminated_.data()};
  }

  UseGuard::Writing using_it(const char* call) const {
    return {guard_, "VectorEnv", call, "make one VectorEnv per thread"};
  }

  bool stepped_before_fork() const {
    return guard_.held_before_fork() || (pending_.valid() && sent_from_ != process_id());
  }

  // The step sent before a fork runs only in the parent: here its results never come, and the
  // environments stay as it left them at the fork, possibly half stepped.
  void check_not_forked() const {
    if (pending_.valid() && sent_from_ != process_id())
      throw std::runtime_error(where() +
                               ": a step was sent with send() when this process was forked; it "
                               "goes on in the parent only, so this process cannot use this "
                               "VectorEnv: make a new one here");
  }

  void check_idle() const {
    check_not_forked();
    if (pending_.valid())
      throw InvalidArgument("a step sent with send() is still running: call recv() first");
  }

  std::string where() const {
    return game_->name() + " VectorEnv(" + std::to_string(num_envs()) + " environments)";
  }

  // Actions arrive as a list or tuple (each item checked as State.apply_action checks it: a bool
  // among ints is refused, not turned into 0 or 1 as numpy would) or as anything numpy.asarray
  // takes, where integers of any dtype are read in place and anything else (floats, bools, None,
  // ints past 64 bits) is refused, naming the first environment whose action is not an integer.
  void load_actions(nb::handle actions) {
    const auto n = static_cast<std::size_t>(num_envs());
    if (PyList_Check(actions.ptr()) || PyTuple_Check(actions.ptr())) {
      const nb::tuple items = items_of(actions);
      if (items.size() != n)
        throw InvalidArgument(where() + ": step needs one action per environment (" +
                              std::to_string(n) + "), got " + std::to_string(items.size()));
      for (std::size_t e = 0; e < n; ++e) load_action(e, items[e]);
      return;
    }
    nb::object array;
    try {
      array = nb::module_::import_("numpy").attr("asarray")(actions);
    } catch (nb::python_error& error) {
      if (!error.matches(PyExc_ValueError) && !error.matches(PyExc_TypeError)) throw;
      throw InvalidArgument(where() + ": step needs one integer action per environment, got " +
                            shown(actions));
    }
    const auto shape = nb::cast<std::vector<std::int64_t>>(array.attr("shape"));
    if (shape.size() != 1 || static_cast<std::size_t>(shape[0]) != n)
      throw InvalidArgument(where() + ": step needs one action per environment (" +
                            std::to_string(n) + "), got " + shown(actions) + " of shape " +
                            shown(array.attr("shape")));
    nb::ndarray<nb::ro, nb::ndim<1>, nb::device::cpu> view;
    if (nb::try_cast(array, view, false) && read_integers(view)) return;
    for (std::size_t e = 0; e < n; ++e) {
      nb::object item = array.attr("__getitem__")(e);
      // A numpy scalar as the Python number it holds, so the message shows 5.9, not np.float64.
      if (nb::hasattr(item, "item")) item = item.attr("item")();
      load_action(e, item);
    }
  }

  void load_action(std::size_t e, nb::handle item) {
    try {
      actions_[e] = to_action(item);
    } catch (const InvalidArgument& error) {
      throw InvalidArgument(where() + ": environment " + std::to_string(e) + ": " +
                            std::string(error.message()));
    }
  }

  // Copies an integer array of any width into actions_; false when the dtype is not an integer.
  bool read_integers(const nb::ndarray<nb::ro, nb::ndim<1>, nb::device::cpu>& view) {
    const auto dtype = view.dtype();
    const bool is_signed = dtype.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Int);
    const bool is_unsigned = dtype.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt);
    if ((!is_signed && !is_unsigned) || dtype.lanes != 1) return false;
    switch (dtype.bits) {
      case 8:
        return is_signed ? read_as<std::int8_t>(view) : read_as<std::uint8_t>(view);
      case 16:
        return is_signed ? read_as<std::int16_t>(view) : read_as<std::uint16_t>(view);
      case 32:
        return is_signed ? read_as<std::int32_t>(view) : read_as<std::uint32_t>(view);
      case 64:
        return is_signed ? read_as<std::int64_t>(view) : read_as<std::uint64_t>(view);
      default:
        return false;
    }
  }

  template <class T>
  bool read_as(const nb::ndarray<nb::ro, nb::ndim<1>, nb::device::cpu>& view) {
    const auto* data = static_cast<const T*>(view.data());
    const std::int64_t stride = view.stride(0);
    for (std::size_t e = 0; e < actions_.size(); ++e) {
      const T value = data[static_cast<std::int64_t>(e) * stride];
      const bool fits = std::is_signed_v<T> ? static_cast<std::int64_t>(value) >= INT32_MIN &&
                                                  static_cast<std::int64_t>(value) <= INT32_MAX
                                            : static_cast<std::uint64_t>(value) <= INT32_MAX;
      if (!fits)
        throw InvalidArgument(where() + ": environment " + std::to_string(e) + ": action " +
                              std::to_string(value) + " is out of range (32 bits)");
      actions_[e] = static_cast<std::int32_t>(value);
    }
    return true;
  }

  std::shared_ptr<AnyGame> game_;
  VectorEnvOptions options_;
  std::unique_ptr<AnyVectorEnv> env_;
  std::vector<float> obs_;  // float32, or float16 bits packed from the start
  std::vector<std::uint8_t> board_;
  BoolBuffer mask_;
  std::vector<std::int32_t> legal_indices_;
  std::vector<std::int32_t> num_legal_;
  std::vector<std::int32_t> player_;
  std::vector<float> rewards_;
  BoolBuffer terminated_;
  std::vector<std::int32_t> actions_;
  std::future<void> pending_;
  pid_t sent_from_ = 0;  // the process that sent the pending step
  StopFlag cancel_;      // the step sent runs on a thread of its own, out of Ctrl-C's reach
  UseGuard guard_;
};

// The choices of rivals.VectorEnv, by name (the Python class documents them).
VectorEnvOptions options_from(const std::string& what, nb::handle obs, nb::handle dtype,
                              nb::handle legal) {
  VectorEnvOptions options;
  const std::string kind = obs.is_none() ? std::string() : to_utf8(obs, what + "obs");
  if (obs.is_none())
    options.observation = ObservationKind::kNone;
  else if (kind == "planes")
    options.observation = ObservationKind::kPlanes;
  else if (kind == "compact")
    options.observation = ObservationKind::kCompact;
  else
    throw InvalidArgument(what + "obs must be 'planes', 'compact' or None, got " + shown(obs));
  const std::string type = to_utf8(dtype, what + "dtype");
  if (type != "float32" && type != "float16")
    throw InvalidArgument(what + "dtype must be 'float32' or 'float16', got " + shown(dtype));
  options.half_floats = type == "float16";
  const std::string arrays = to_utf8(legal, what + "legal");
  if (arrays != "mask" && arrays != "indices" && arrays != "both")
    throw InvalidArgument(what + "legal must be 'mask', 'indices' or 'both', got " + shown(legal));
  options.legal_mask = arrays != "indices";
  options.legal_indices = arrays != "mask";
  return options;
}

// One entry per seat: None for the learner's seats, else a bot name or (name, params).
std::vector<BotSpec> seat_bots(const AnyGame& game, const std::string& what, nb::handle given) {
  std::vector<BotSpec> specs;
  if (given.is_none()) return specs;
  if (!PyList_Check(given.ptr()) && !PyTuple_Check(given.ptr()))
    throw InvalidArgument(what + "opponents must be a list of one entry per seat, got " +
                          shown(given));
  const nb::tuple seats = items_of(given);
  if (static_cast<int>(seats.size()) != game.num_players())
    throw InvalidArgument(what + "opponents needs one entry per seat (" +
                          std::to_string(game.num_players()) + "), got " +
                          std::to_string(seats.size()));
  for (std::size_t seat = 0; seat < seats.size(); ++seat) {
    const nb::object bot = seats[seat];
    if (bot.is_none()) {
      specs.push_back({std::string(), Json::object()});
    } else if (nb::isinstance<nb::str>(bot)) {
      specs.push_back({to_utf8(bot, what + "bot name"), Json::object()});
      if (specs.back().name.empty()) throw InvalidArgument(what + "a bot name is empty");
    } else if (nb::isinstance<nb::tuple>(bot) && nb::len(bot) == 2 &&
               nb::isinstance<nb::str>(bot[0])) {
      specs.push_back({to_utf8(bot[0], what + "bot name"), from_python(bot[1], "bot params")});
      if (specs.back().name.empty()) throw InvalidArgument(what + "a bot name is empty");
    } else {
      throw InvalidArgument(what + "seat " + std::to_string(seat) +
                            ": a bot is a name or (name, params), got " + shown(bot));
    }
  }
  return specs;
}

}  // namespace

void bind_vector_env(nb::module_& m) {
  nb::class_<PyVectorEnv>(m, "VectorEnv",
                          "Many games stepped together in C++; see rivals.VectorEnv.")
      .def(
          "__init__",
          [](PyVectorEnv* self, nb::handle game, nb::handle num_envs_arg, nb::handle seed,
             nb::handle threads_arg, nb::handle obs_arg, nb::handle dtype_arg, nb::handle legal_arg,
             nb::handle opponents_arg) {
            std::shared_ptr<AnyGame> resolved;
            if (nb::isinstance<nb::str>(game)) {
              resolved = make_game(to_utf8(game, "game name"));
            } else {
              PyGame* py_game = nullptr;
              if (!nb::try_cast<PyGame*>(game, py_game) || py_game == nullptr)
                throw InvalidArgument("game must be a rivals.Game or a game name");
              resolved = py_game->impl;
            }
            const std::string what = resolved->name() + " VectorEnv: ";
            const int num_envs = to_int(num_envs_arg, what + "num_envs", 1, kMaxEnvs);
            const int threads = to_int(threads_arg, what + "threads", 1, kMaxThreads);
            VectorEnvOptions options = options_from(what, obs_arg, dtype_arg, legal_arg);
            options.opponents = seat_bots(*resolved, what, opponents_arg);
            new (self) PyVectorEnv(std::move(resolved), num_envs, to_seed(seed), threads, options);
          },
          "game"_a, "num_envs"_a.none(), "seed"_a.none() = 0, "threads"_a.none() = 1,
          "obs"_a.none() = "planes", "dtype"_a.none() = "float32", "legal"_a.none() = "both",
          "opponents"_a.none() = nb::none(),
          nb::sig("def __init__(self, game: Game | str, num_envs: int, seed: int = 0, threads: int "
                  "= 1, obs: str | None = 'planes', dtype: str = 'float32', legal: str = 'both', "
                  "opponents: list[str | tuple[str, dict[str, typing.Any]] | None] | None = None) "
                  "-> None"))
      .def_prop_ro("num_envs", &PyVectorEnv::num_envs)
      .def_prop_ro("game", [](const PyVectorEnv& env) { return PyGame{env.game()}; })
      .def("state", &PyVectorEnv::state, "env"_a.none())
      .def("reset", &PyVectorEnv::reset, "seed"_a.none() = nb::none())
      .def("step", &PyVectorEnv::step, "actions"_a.none())
      .def("sample_legal", &PyVectorEnv::sample_legal,
           "One uniformly random legal action per environment (-1 where none).")
      .def("send", &PyVectorEnv::send, "actions"_a.none())
      .def("recv", &PyVectorEnv::recv)
      .def(
          "views", [](nb::handle self) { return nb::cast<PyVectorEnv&>(self).views(self); },
          nb::sig("def views(self) -> dict[str, numpy.typing.NDArray[typing.Any]]"),
          "The result arrays, views of buffers that every reset/step overwrites.");
}

}  // namespace rivals::bindings
