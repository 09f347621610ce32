#include "rivals/core/network.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <utility>

#include "rivals/core/error.h"

namespace rivals {
namespace {

constexpr const char* kFormat = "rivals-network";

std::string shape_text(const std::vector<int>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
  return text + "]";
}

float finite_float(const DataNode& node) {
  const Json& value = node.json();
  if (!value.is_number()) node.fail("must be a number, got " + node.shown());
  const double number = value.as_number();
  if (!(std::abs(number) <= std::numeric_limits<float>::max()))
    node.fail("must be a finite number within float range, got " + node.shown());
  return static_cast<float>(number);
}

// `node` is a list of `rows` lists of `columns` numbers; appended to `out` row after row.
void read_matrix(const DataNode& node, int rows, int columns, std::vector<float>& out) {
  node.list(static_cast<std::size_t>(rows), static_cast<std::size_t>(rows));
  out.reserve(out.size() + static_cast<std::size_t>(rows) * static_cast<std::size_t>(columns));
  for (int r = 0; r < rows; ++r) {
    const DataNode row = node[static_cast<std::size_t>(r)];
    row.list(static_cast<std::size_t>(columns), static_cast<std::size_t>(columns));
    for (int c = 0; c < columns; ++c) out.push_back(finite_float(row[static_cast<std::size_t>(c)]));
  }
}

// acc[j] += x * row[j] for every output: independent sums, so the compiler vectorises them
// without reordering any one of them.
inline void add_scaled(float* __restrict acc, const float* __restrict row, float x, int outputs) {
  for (int j = 0; j < outputs; ++j) acc[j] += x * row[j];
}

inline void add_row(float* __restrict acc, const float* __restrict row, int outputs) {
  for (int j = 0; j < outputs; ++j) acc[j] += row[j];
}

inline void relu(float* values, int size) {
  for (int j = 0; j < size; ++j) values[j] = std::max(values[j], 0.0f);
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return hash;
}

}  // namespace

int NetworkInput::board_size() const {
  int size = 1;
  for (const int extent : board_shape) size *= extent;
  return size;
}

Network Network::parse(const DataDocument& document, const NetworkInput& input) {
  const DataNode root(document);
  root.keys({"format", "version", "game", "input", "layers", "value"}, {"policy", "about"});
  if (root["format"].json() != Json(kFormat))
    root["format"].fail(std::string("must be \"") + kFormat + "\", got " + root["format"].shown());
  root["version"].integer(1, 1);
  if (root["game"].string() != input.game)
    root["game"].fail("is " + root["game"].shown() + ", and the network is used for " +
                      quoted(input.game));
  const DataNode shape = root["input"];
  shape.keys({"board", "features"}, {"evaluations"});
  const DataNode board = shape["board"];
  const std::size_t dims = board.list(0, 8);
  std::vector<int> board_shape;
  for (std::size_t d = 0; d < dims; ++d) board_shape.push_back(board[d].small_int(1, 1 << 20));
  const int features = shape["features"].small_int(0, kMaxNetworkInputs);
  if (board_shape != input.board_shape || features != input.features)
    shape.fail("is a board of " + shape_text(board_shape) + " and " + std::to_string(features) +
               " features, and " + input.game + "'s compact observation here is a board of " +
               shape_text(input.board_shape) + " and " + std::to_string(input.features) +
               " features (another player count or card set?)");

  Network network;
  network.board_size_ = input.board_size();
  network.features_ = features;
  if (const auto evaluations = shape.get("evaluations")) {
    const std::size_t count = evaluations->list(0, input.evaluations.size());
    for (std::size_t k = 0; k < count; ++k) {
      const int index = (*evaluations)[k].choice(input.evaluations);
      if (std::find(network.evaluations_.begin(), network.evaluations_.end(), index) !=
          network.evaluations_.end())
        (*evaluations)[k].fail("is named twice");
      network.evaluations_.push_back(index);
    }
  }
  const int inputs_size =
      network.board_size_ + features + static_cast<int>(network.evaluations_.size());
  if (inputs_size > kMaxNetworkInputs)
    shape.fail("has more than " + std::to_string(kMaxNetworkInputs) + " entries");
  const auto read_layer = [](const DataNode& node, int inputs, int outputs_min, int outputs_max) {
    node.keys({"weights", "bias"});
    Layer layer;
    layer.inputs = inputs;
    layer.outputs = static_cast<int>(node["bias"].list(static_cast<std::size_t>(outputs_min),
                                                       static_cast<std::size_t>(outputs_max)));
    for (int j = 0; j < layer.outputs; ++j)
      layer.bias.push_back(finite_float(node["bias"][static_cast<std::size_t>(j)]));
    read_matrix(node["weights"], inputs, layer.outputs, layer.weights);
    return layer;
  };
  const DataNode layers = root["layers"];
  const std::size_t count = layers.list(1, kMaxNetworkLayers);
  int inputs = inputs_size;
  for (std::size_t k = 0; k < count; ++k) {
    network.hidden_.push_back(read_layer(layers[k], inputs, 1, kMaxNetworkWidth));
    inputs = network.hidden_.back().outputs;
  }
  network.value_ = read_layer(root["value"], inputs, 1, 1);
  if (const auto policy = root.get("policy")) {
    if (input.actions < 1) policy->fail("is a policy head, and the game has no decisions to score");
    Layer scores = read_layer(*policy, inputs, input.actions, input.actions);
    if (scores.outputs != input.actions)
      policy->fail("must score the game's " + std::to_string(input.actions) + " decisions");
    // Transposed, so that an action's score reads one contiguous row.
    network.policy_ = scores;
    for (int i = 0; i < scores.inputs; ++i)
      for (int a = 0; a < scores.outputs; ++a)
        network.policy_.weights[static_cast<std::size_t>(a) * scores.inputs + i] =
            scores.weights[static_cast<std::size_t>(i) * scores.outputs + a];
  }
  // What made the network (command, seed, time): for people, so any object.
  if (const auto about = root.get("about"); about && !about->json().is_object())
    about->fail("must be an object, got " + about->shown());
  return network;
}

const float* Network::trunk(const std::uint8_t* board, const float* inputs,
                            float (&buffers)[2][kMaxNetworkWidth]) const {
  float* in = buffers[0];
  float* out = buffers[1];
  // The first layer reads 0/1 bytes and mostly sparse features: only the non-zero inputs add
  // their row, which leaves each sum as a dense product would compute it.
  const Layer& first = hidden_.front();
  std::copy(first.bias.begin(), first.bias.end(), in);
  const float* row = first.weights.data();
  for (int i = 0; i < board_size_; ++i, row += first.outputs)
    if (board[i] != 0) add_row(in, row, first.outputs);
  const int floats = features_ + static_cast<int>(evaluations_.size());
  for (int f = 0; f < floats; ++f, row += first.outputs)
    if (inputs[f] != 0) add_scaled(in, row, inputs[f], first.outputs);
  relu(in, first.outputs);
  for (std::size_t k = 1; k < hidden_.size(); ++k) {
    const Layer& layer = hidden_[k];
    std::copy(layer.bias.begin(), layer.bias.end(), out);
    row = layer.weights.data();
    for (int i = 0; i < layer.inputs; ++i, row += layer.outputs)
      if (in[i] != 0) add_scaled(out, row, in[i], layer.outputs);
    relu(out, layer.outputs);
    std::swap(in, out);
  }
  return in;
}

float Network::value(const std::uint8_t* board, const float* inputs) const {
  float buffers[2][kMaxNetworkWidth];
  const float* hidden = trunk(board, inputs, buffers);
  float sum = value_.bias[0];
  for (int i = 0; i < value_.inputs; ++i)
    sum += hidden[i] * value_.weights[static_cast<std::size_t>(i)];
  return std::tanh(sum);
}

void Network::policy(const std::uint8_t* board, const float* inputs, const Action* actions,
                     int count, float* priors) const {
  float buffers[2][kMaxNetworkWidth];
  const float* hidden = trunk(board, inputs, buffers);
  float top = -std::numeric_limits<float>::infinity();
  for (int k = 0; k < count; ++k) {
    const float* row =
        policy_.weights.data() + static_cast<std::size_t>(actions[k]) * policy_.inputs;
    float score = policy_.bias[static_cast<std::size_t>(actions[k])];
    for (int i = 0; i < policy_.inputs; ++i) score += hidden[i] * row[i];
    priors[k] = score;
    top = std::max(top, score);
  }
  float total = 0;
  for (int k = 0; k < count; ++k) total += priors[k] = std::exp(priors[k] - top);
  for (int k = 0; k < count; ++k) priors[k] /= total;
}

std::string shipped_network_name(std::string_view game) { return std::string(game) + "-net"; }

std::shared_ptr<const Network> load_network(const NetworkInput& input, const Json& value) {
  // A bot builds an evaluator per part that uses one (rollouts, priors, backups), and a vector of
  // environments one bot per environment: a few parsed networks per thread spare them the parse.
  // Per thread, so it needs no lock (and a fork inherits no lock held by another thread).
  struct Cached {
    std::string key;
    std::shared_ptr<const Network> network;
  };
  thread_local std::vector<Cached> cache;
  constexpr std::size_t kCached = 4;

  const std::string prefix = input.game + ": ";
  std::string key;
  std::string file_text;
  if (value.is_null() || (value.is_string() && is_shipped_data(value.as_string()))) {
    const std::string name = value.is_null() ? shipped_network_name(input.game) : value.as_string();
    if (!is_shipped_data(name))
      throw InvalidArgument(prefix + "no network ships for " + input.game +
                            "; give network= a network file (docs/learning.md)");
    key = "shipped\n" + name;
  } else if (value.is_string()) {
    file_text =
        read_data_file(value.as_string(), prefix + "network file " + quoted(value.as_string()));
    key = "file\n" + std::to_string(fnv1a(file_text)) + "\n" + std::to_string(file_text.size());
  }
  if (!key.empty()) {
    key += "\n" + shape_text(input.board_shape) + "\n" + std::to_string(input.features);
    for (const std::string& name : input.evaluations) key += "\n" + name;
    key += "\n" + std::to_string(input.actions);
    const auto hit = std::find_if(cache.begin(), cache.end(),
                                  [&](const Cached& entry) { return entry.key == key; });
    if (hit != cache.end()) {
      std::rotate(cache.begin(), hit, hit + 1);
      return cache.front().network;
    }
  }
  // A file is parsed from the text read above, so the network cached is the one keyed.
  const DataDocument document =
      value.is_string() && !is_shipped_data(value.as_string())
          ? read_data_text(file_text, prefix + "network file " + quoted(value.as_string()))
          : read_data(input.game, "network", value, shipped_network_name(input.game));
  auto network = std::make_shared<const Network>(Network::parse(document, input));
  if (!key.empty()) {
    if (cache.size() == kCached) cache.pop_back();
    cache.insert(cache.begin(), Cached{std::move(key), network});
  }
  return network;
}

}  // namespace rivals
