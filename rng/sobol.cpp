#include "rng/sobol.hpp"

#include <vector>

namespace mcsim::rng {

namespace {

// Polynomials over GF(2) as bit masks (bit k: the coefficient of x^k).
std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p, int degree) {
  std::uint64_t r = 0;
  for (; b; b >>= 1) {
    if (b & 1) r ^= a;
    a <<= 1;
    if (a >> degree & 1) a ^= p;
  }
  return r;
}

std::uint64_t x_power(std::uint64_t e, std::uint64_t p, int degree) {
  std::uint64_t r = 1, base = 2 % (std::uint64_t{1} << degree);
  if (degree == 1) base = 1;  // x = 1 modulo x + 1
  for (; e; e >>= 1) {
    if (e & 1) r = mul_mod(r, base, p, degree);
    base = mul_mod(base, base, p, degree);
  }
  return r;
}

// Primitive: x has order 2^degree - 1 modulo p (so p is also irreducible).
bool primitive(std::uint64_t p, int degree) {
  if (!(p & 1)) return false;
  const std::uint64_t order = (std::uint64_t{1} << degree) - 1;
  if (x_power(order, p, degree) != 1) return false;
  std::uint64_t n = order;
  for (std::uint64_t q = 2; q * q <= n; ++q) {
    if (n % q) continue;
    if (x_power(order / q, p, degree) == 1) return false;
    while (n % q == 0) n /= q;
  }
  return n == 1 || n == order || x_power(order / n, p, degree) != 1;
}

// Direction numbers of one dimension from its polynomial and initial odd numbers
// m_1..m_s (m_k < 2^k): Sobol's recurrence.
void directions(std::uint64_t p, int s, const std::vector<std::uint32_t>& m0, std::uint32_t* v) {
  std::vector<std::uint64_t> m(kSobolBits + 1);
  for (int k = 1; k <= kSobolBits; ++k) {
    if (k <= s) {
      m[k] = m0[k - 1];
    } else {
      std::uint64_t x = m[k - s] ^ (m[k - s] << s);
      for (int j = 1; j < s; ++j)
        if (p >> (s - j) & 1) x ^= m[k - j] << j;
      m[k] = x;
    }
    v[k - 1] = static_cast<std::uint32_t>(m[k] << (kSobolBits - k));
  }
}

// Rows of the generating matrix: row r holds digit r of each direction number.
std::uint32_t row(const std::uint32_t* v, int r, int bits) {
  std::uint32_t out = 0;
  for (int k = 0; k < bits; ++k) out |= ((v[k] >> (31 - r)) & 1u) << k;
  return out;
}

bool independent(std::vector<std::uint32_t> rows) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i]) return false;
    const std::uint32_t low = rows[i] & (0u - rows[i]);
    for (std::size_t j = i + 1; j < rows.size(); ++j)
      if (rows[j] & low) rows[j] ^= rows[i];
  }
  return true;
}

int pair_t(const std::uint32_t* a, const std::uint32_t* b, int bits) {
  for (int q = bits; q > 0; --q) {
    bool all = true;
    for (int i = 0; i <= q && all; ++i) {
      std::vector<std::uint32_t> rows;
      for (int r = 0; r < i; ++r) rows.push_back(row(a, r, bits));
      for (int r = 0; r < q - i; ++r) rows.push_back(row(b, r, bits));
      all = independent(rows);
    }
    if (all) return bits - q;
  }
  return bits;
}

SobolDirections build() {
  SobolDirections t{};
  for (int k = 0; k < kSobolBits; ++k) t.v[0][k] = 1u << (31 - k);  // van der Corput
  constexpr int kSearchBits = 10, kCandidates = 32;
  std::uint64_t state = 0x5eed;
  const auto next = [&] { return splitmix64(state += kGolden); };  // the candidates' source, fixed
  int dim = 1;
  for (int s = 1; dim < kSobolDims; ++s)
    for (std::uint64_t p = (std::uint64_t{1} << s) | 1; p < (std::uint64_t{2} << s) && dim < kSobolDims; p += 2) {
      if (!primitive(p, s)) continue;
      int best = -1;
      std::uint32_t chosen[kSobolBits];
      for (int c = 0; c < kCandidates; ++c) {
        std::vector<std::uint32_t> m0(s);
        for (int k = 1; k <= s; ++k)
          m0[k - 1] = k == 1 ? 1u : static_cast<std::uint32_t>((next() % (std::uint64_t{1} << (k - 1))) * 2 + 1);
        std::uint32_t v[kSobolBits];
        directions(p, s, m0, v);
        int cost = 0;  // the t-values against every earlier dimension
        for (int d = 0; d < dim; ++d) cost += pair_t(t.v[d], v, kSearchBits);
        if (best < 0 || cost < best) {
          best = cost;
          for (int k = 0; k < kSobolBits; ++k) chosen[k] = v[k];
        }
      }
      for (int k = 0; k < kSobolBits; ++k) t.v[dim][k] = chosen[k];
      ++dim;
    }
  return t;
}

}  // namespace

const SobolDirections& sobol_directions() {
  static const SobolDirections table = build();
  return table;
}

int sobol_pair_t(const SobolDirections& table, int a, int b, int bits) { return pair_t(table.v[a], table.v[b], bits); }

}  // namespace mcsim::rng
