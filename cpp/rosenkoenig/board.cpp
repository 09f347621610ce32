#include "rivals/rosenkoenig/board.h"

namespace rivals::rosenkoenig {

GroupScore score_stones(u128 stones) {
  GroupScore score;
  score.stones = popcount(stones);
  // Most groups on a finished board are single stones: count them with one mask and flood-fill
  // only what is left.
  const u128 isolated = stones & ~orthogonal_neighbours(stones);
  const int singles = popcount(isolated);
  score.points = singles;
  score.largest = singles > 0 ? 1 : 0;
  u128 rest = stones & ~isolated;
  while (rest) {
    u128 group = rest & (~rest + 1);  // lowest stone
    for (u128 grown = group | (orthogonal_neighbours(group) & rest); grown != group;
         grown = group | (orthogonal_neighbours(group) & rest))
      group = grown;
    rest &= ~group;
    const int size = popcount(group);
    score.points += size * size;
    if (size > score.largest) score.largest = size;
  }
  return score;
}

}  // namespace rivals::rosenkoenig
