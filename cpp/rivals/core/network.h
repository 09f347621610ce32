// A small neural network as data: a position's value learned from games, evaluated by the search
// bots without any machine-learning library (docs/formats.md, "Networks"; docs/learning.md).
//
// The network reads a game's compact observation (the board as 0/1 bytes, the other entries as
// floats; game_concept.h) from one seat's view, and optionally the game's own evaluations of the
// position from that seat's side, and returns that seat's value in (-1, 1): dense layers with
// ReLU, then one output through tanh. What the hand-written evaluations compute exactly (scores
// by flood fill) a small network would only approximate; given them, it learns what they miss. A
// network file is a data document read under the rules of core/data.h (size cap, strict JSON, one
// message naming what is wrong) and checked against the game it is used with: its name and the
// exact sizes of its compact observation.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rivals/core/data.h"
#include "rivals/core/json.h"
#include "rivals/core/types.h"

namespace rivals {

// The largest hidden layer, and the most hidden layers: bounds for the forward pass's buffers on
// the stack, far above what a leaf evaluation can afford.
inline constexpr int kMaxNetworkWidth = 1024;
inline constexpr int kMaxNetworkLayers = 4;
// The largest compact observation a network reads (the shipped games' reach 1,651 entries).
inline constexpr int kMaxNetworkInputs = 16384;

// The shape of the input a network reads: a game's compact observation, and the names of the
// game's own evaluations that a network may read besides (from the same seat's view).
struct NetworkInput {
  std::string game;
  std::vector<int> board_shape;
  int features = 0;
  std::vector<std::string> evaluations;
  int actions = 0;  // the game's distinct decisions, which a policy head scores

  int board_size() const;
};

class Network {
 public:
  // Checks `document` (format "rivals-network", version 1) for `input`. Throws
  // std::invalid_argument naming the document and the place in it.
  static Network parse(const DataDocument& document, const NetworkInput& input);

  // The value in (-1, 1) of one compact observation: `board` holds board_size() bytes of 0 or 1,
  // `inputs` features() floats of the observation, then the values of evaluations() in order.
  float value(const std::uint8_t* board, const float* inputs) const;

  // Whether the network has a policy head: a score for each of the game's decisions.
  bool has_policy() const { return !policy_.bias.empty(); }
  // The policy's probabilities of the `count` decisions `actions` (a softmax of their scores
  // over these alone) for the same inputs, into `priors`. Needs has_policy().
  void policy(const std::uint8_t* board, const float* inputs, const Action* actions, int count,
              float* priors) const;

  int board_size() const { return board_size_; }
  int features() const { return features_; }
  // The game's own evaluations the network reads, as indices into NetworkInput::evaluations.
  const std::vector<int>& evaluations() const { return evaluations_; }

 private:
  struct Layer {
    int inputs = 0;
    int outputs = 0;
    std::vector<float> weights;  // inputs x outputs, one row of outputs per input
    std::vector<float> bias;     // outputs
  };

  // The last hidden layer's activations into one of `buffers`; returns it.
  const float* trunk(const std::uint8_t* board, const float* inputs,
                     float (&buffers)[2][kMaxNetworkWidth]) const;

  int board_size_ = 0;
  int features_ = 0;
  std::vector<int> evaluations_;
  std::vector<Layer> hidden_;
  Layer value_;
  Layer policy_;  // weights held one row of hidden inputs per action: a score is one dot product
};

// The network that a bot's `network` parameter names, for a game whose compact observation is
// `input`: null is the game's shipped network ("<game>-net"), a string a shipped name or a path
// to a file, an object the document itself (core/data.h). The same document read again on the
// same thread is not parsed again.
std::shared_ptr<const Network> load_network(const NetworkInput& input, const Json& value);

// The name of the network a game ships: "<game>-net".
std::string shipped_network_name(std::string_view game);

}  // namespace rivals
