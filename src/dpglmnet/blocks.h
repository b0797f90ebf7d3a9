// Factor blocks (dpcd.h): columns with disjoint supports, whose coordinate
// steps in a row DP-CD releases as one Gaussian mechanism. The argument
// needs every record to have at most one non-zero among a block's columns,
// as the solver reads them; these checks say whether it holds.
#ifndef DPGLMNET_BLOCKS_H
#define DPGLMNET_BLOCKS_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace dpglmnet {

// The distinct non-zero block ids of `block`, in order of appearance.
inline std::vector<int> block_ids(const std::vector<int>& block) {
  std::vector<int> ids;
  for (const int b : block)
    if (b != 0 && std::find(ids.begin(), ids.end(), b) == ids.end()) ids.push_back(b);
  return ids;
}

// Whether, for each block, no record has two of its columns non-zero as
// `design` reads them (after its transform). O(n) per block column.
template <class Design>
bool blocks_disjoint(const Design& design, const std::vector<int>& block) {
  std::vector<char> taken(design.rows());
  for (const int id : block_ids(block)) {
    std::fill(taken.begin(), taken.end(), 0);
    for (int j = 0; j < design.cols(); ++j) {
      if (block[j] != id) continue;
      bool clash = false;
      design.for_each_in_column(j, [&](int i, double v) {
        if (v == 0.0) return;
        if (taken[i]) clash = true;
        taken[i] = 1;
      });
      if (clash) return false;
    }
  }
  return true;
}

// Whether the block columns of a column-major n x p matrix already are what
// reading them clamped to [0, 1] with one non-zero per record gives (every
// value finite and in [0, 1], at most one non-zero per record and block):
// then making them disjoint changes nothing and needs no copy.
inline bool raw_blocks_disjoint(const double* x, int n, const std::vector<int>& block) {
  std::vector<char> taken(n);
  for (const int id : block_ids(block)) {
    std::fill(taken.begin(), taken.end(), 0);
    for (std::size_t j = 0; j < block.size(); ++j) {
      if (block[j] != id) continue;
      const double* column = x + j * static_cast<std::size_t>(n);
      for (int i = 0; i < n; ++i) {
        const double v = column[i];
        if (!(v >= 0.0 && v <= 1.0)) return false;  // (NaN too)
        if (v == 0.0) continue;
        if (taken[i]) return false;
        taken[i] = 1;
      }
    }
  }
  return true;
}

}  // namespace dpglmnet

#endif  // DPGLMNET_BLOCKS_H
