// Python's random.Random in C++: the same numbers from the same integer seed.
//
// Shared by the native cores (sengoku/games/*/native/core.cpp include it). A native core that deals a game (shuffles the tiles, the decks) must deal exactly the game
// that the Python engine deals from the same seed, so that a record (seed and actions) replays
// the same in both. CPython's generator is MT19937 seeded by init_by_array with the seed's
// 32-bit words, and its shuffle, choice and randrange draw through _randbelow, rejection
// sampling over getrandbits(n.bit_length()); this header reproduces those steps (CPython
// 3.11's Modules/_randommodule.c and Lib/random.py), and nothing else of the module.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace sengoku {

class PythonRandom {
  public:
    // random.Random(seed) from the seed's ``key``: the 32-bit words of abs(seed), least
    // significant first, one word (0) for 0 (sengoku/core/python_random.py's seed_key
    // makes it), as CPython's random_seed hands them to init_by_array.
    explicit PythonRandom(const std::vector<uint32_t>& key) {
        if (key.empty()) throw std::invalid_argument("a seed key has at least one word");
        init_by_array(key.data(), int(key.size()));
    }

    uint32_t genrand_uint32() {
        if (index_ >= N) twist();
        uint32_t y = state_[index_++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= y >> 18;
        return y;
    }

    // getrandbits(k) for 0 < k <= 64.
    uint64_t getrandbits(int k) {
        if (k <= 32) return genrand_uint32() >> (32 - k);
        uint64_t low = genrand_uint32();
        uint64_t high = genrand_uint32() >> (64 - k);
        return low | (high << 32);
    }

    // _randbelow(n): uniform in [0, n), n > 0.
    uint64_t randbelow(uint64_t n) {
        int k = 64 - __builtin_clzll(n);  // n.bit_length()
        uint64_t r = getrandbits(k);
        while (r >= n) r = getrandbits(k);
        return r;
    }

    // random(): a float in [0, 1) with 53 random bits.
    double random() {
        uint32_t a = genrand_uint32() >> 5, b = genrand_uint32() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

    // shuffle(x), in place.
    template <class T>
    void shuffle(std::vector<T>& x) {
        for (size_t i = x.size(); i-- > 1;) {
            size_t j = size_t(randbelow(i + 1));
            std::swap(x[i], x[j]);
        }
    }

    // choice(seq)'s index: randbelow(len(seq)).
    size_t choice_index(size_t size) {
        if (size == 0) throw std::out_of_range("Cannot choose from an empty sequence");
        return size_t(randbelow(size));
    }

  private:
    static constexpr int N = 624, M = 397;
    uint32_t state_[N];
    int index_ = N + 1;

    void init_genrand(uint32_t s) {
        state_[0] = s;
        for (int i = 1; i < N; ++i)
            state_[i] = 1812433253u * (state_[i - 1] ^ (state_[i - 1] >> 30)) + uint32_t(i);
        index_ = N;
    }

    void init_by_array(const uint32_t* key, int length) {
        init_genrand(19650218u);
        int i = 1, j = 0;
        for (int k = N > length ? N : length; k; --k) {
            state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1664525u)) +
                        key[j] + uint32_t(j);
            ++i;
            ++j;
            if (i >= N) {
                state_[0] = state_[N - 1];
                i = 1;
            }
            if (j >= length) j = 0;
        }
        for (int k = N - 1; k; --k) {
            state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1566083941u)) -
                        uint32_t(i);
            ++i;
            if (i >= N) {
                state_[0] = state_[N - 1];
                i = 1;
            }
        }
        state_[0] = 0x80000000u;
        index_ = N;
    }

    void twist() {
        static constexpr uint32_t MATRIX_A = 0x9908b0dfu, UPPER = 0x80000000u, LOWER = 0x7fffffffu;
        int kk = 0;
        uint32_t y;
        for (; kk < N - M; ++kk) {
            y = (state_[kk] & UPPER) | (state_[kk + 1] & LOWER);
            state_[kk] = state_[kk + M] ^ (y >> 1) ^ ((y & 1u) ? MATRIX_A : 0u);
        }
        for (; kk < N - 1; ++kk) {
            y = (state_[kk] & UPPER) | (state_[kk + 1] & LOWER);
            state_[kk] = state_[kk + (M - N)] ^ (y >> 1) ^ ((y & 1u) ? MATRIX_A : 0u);
        }
        y = (state_[N - 1] & UPPER) | (state_[0] & LOWER);
        state_[N - 1] = state_[M - 1] ^ (y >> 1) ^ ((y & 1u) ? MATRIX_A : 0u);
        index_ = 0;
    }
};

}  // namespace sengoku
