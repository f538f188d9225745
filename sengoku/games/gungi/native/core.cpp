// Gungi's native core: the pure-Python engine (sengoku/games/gungi/state.py) mirrored in C++.
//
// Everything that is data (piece movement, attack paths, Zobrist keys, evaluation tables)
// comes in from Python at init (sengoku/games/gungi/native_core.py builds it from
// pieces.json / modes.json and the evaluation module), so nothing here re-types a rule
// table. Moves are the Python engine's integer codes (see move.py):
//
//     code = action_int << 14 | turned1 << 10 | turned2 << 6 | kind << 2 | tier
//
// Each function names the Python method it mirrors; the differential tests in
// tests/gungi/test_native_differential.py pin the two together.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <memory_resource>
#include <random>
#include <unordered_map>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace py = pybind11;

namespace {

constexpr int NK = 14;  // checked against the data at init
constexpr int NIDX = 2 * NK * 4 * 81;
constexpr int MOVE_SPACE = 81 * 81 * 2 * 4;
constexpr int DROP_SPACE = NK * 81 * 4;
constexpr int DONE_INT = MOVE_SPACE + DROP_SPACE;
constexpr uint32_t DONE_CODE = uint32_t(DONE_INT) << 14;
constexpr int SLIDE = 0, JUMP = 1;
constexpr int SETUP = 0, PLAY = 1;
constexpr int WHITE = 0, BLACK = 1;

// A list of move codes. Polymorphic, so that a batch can keep its games' lists in its own
// memory (Batch::pool); made without a resource, it takes the heap's.
using Codes = std::pmr::vector<uint32_t>;

// Memory handed out in 2 MB pieces, each aligned and marked for transparent huge pages where
// the kernel offers them (madvise; elsewhere, plain aligned memory). A large batch touches a
// few cache lines of each game's lists at every step: in 4 KB pages, each on a page of its
// own, those cost a TLB miss apiece. (With this, the ply plane asked for later and the tiles
// of step_all, a step of 256 games took about 3% less: docs/interop.md, twenty-second part.)
class HugePageMemory final : public std::pmr::memory_resource {
public:
    static constexpr size_t PAGE = size_t(1) << 21;

private:
    void* do_allocate(size_t bytes, size_t align) override {
        size_t size = (bytes + PAGE - 1) & ~(PAGE - 1);
        void* p = ::operator new(size, std::align_val_t(std::max(align, PAGE)));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, size, MADV_HUGEPAGE);  // advice only: refused or ignored, pages stay 4 KB
#endif
        return p;
    }
    void do_deallocate(void* p, size_t bytes, size_t align) override {
        size_t size = (bytes + PAGE - 1) & ~(PAGE - 1);
        ::operator delete(p, size, std::align_val_t(std::max(align, PAGE)));
    }
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
        return this == &other;
    }
};

constexpr double WIN = 1000.0;

// Outcome reasons (the Python Outcome.reason strings, by index).
enum Reason { R_NONE = 0, R_MARSHAL = 1, R_REPETITION = 2, R_MATE = 3, R_LENGTH = 4 };

struct Ray {
    int mode;
    int start, len;      // squares in Tables::pool
    int extra;           // JUMP: first landing index
    int bstart, blen;    // DIAGONAL: blocker squares in Tables::pool
};

struct Tables {
    int marshal = 0, captain = 0, archer = 0;
    std::vector<int> ray_off;  // NIDX + 1
    std::vector<Ray> rays;
    // Per NIDX entry: the destinations of its one-square slides (a step cannot be blocked
    // on the way) as two words of squares, and its other rays (long_rays[long_off[i] ..
    // long_off[i + 1]], indices into rays), walked square by square.
    std::vector<uint64_t> step_lo, step_hi;
    std::vector<int> long_off, long_rays;
    // The same, packed for gen_board: per NIDX entry its steps and the range of its other
    // rays in long_list (copies of the Ray, in a compact form), so that a piece's moves read
    // one entry and consecutive rays, not four tables and an index (in a batch of many
    // games the tables are mostly out of the cache between two moves of a game).
    struct Reach {
        uint64_t lo, hi;
        int32_t begin, end;
    };
    struct LongRay {
        int32_t start, bstart;  // squares and blockers in pool
        uint8_t mode, len, extra, blen;
    };
    std::vector<Reach> reach;
    std::vector<LongRay> long_list;
    std::vector<uint8_t> pool;
    std::vector<int32_t> att;  // NIDX * 81: offset into apool or -1
    // The same as bits (bit i * 81 + target set where att holds an offset): 92 KB that stay
    // in the cache, where att's 2.9 MB do not; marshal_capturable reads att only for a set
    // bit.
    std::vector<uint64_t> att_bits;
    std::vector<uint8_t> apool;  // is_jump, len, path...
    std::vector<uint8_t> src_pool;
    int src_off[2][81]{}, src_len[2][81]{};
    // The same squares as two words per [colour][target]: marshal_capturable looks at the
    // occupied ones only.
    uint64_t src_lo[2][81]{}, src_hi[2][81]{};
    std::vector<uint64_t> zpiece, zhand;
    uint64_t zblack = 0, zsetup[4]{};
    // near[archers][sq]: two 64-bit words of squares (sq 81: no Marshal, empty).
    uint64_t near_lo[2][82]{}, near_hi[2][82]{};
    // Evaluation (sengoku/games/gungi/features.py).
    std::vector<double> top;  // [piece][height][sq]
    // The same terms with their sign (White +, Black -): negating is exact, so adding these
    // gives the same sum as the Python's "+=" / "-=" by colour, without a branch.
    std::vector<double> signed_top;  // [piece][height][sq]
    double signed_buried[2 * NK][2]{};  // [piece][colour of the top]
    double value[NK]{};
    double hand_factor = 0.85, buried = 0.6, scale = 12.0;

    bool in_near(int archers, int msq, int sq) const {
        int i = msq < 0 ? 81 : msq;
        return sq < 64 ? (near_lo[archers][i] >> sq) & 1 : (near_hi[archers][i] >> (sq - 64)) & 1;
    }
};

// Could the enemy capture ``color``'s Marshal, standing at ``target`` (-1: none), with one
// move, on the board of towers ``b`` (heights ``h``, occupied squares ``occ``)? The question
// of Position::marshal_capturable, also asked of a board that is no position (an encoder's
// snapshot: encode_snapshot).
inline bool marshal_capturable_on(const Tables& t, const uint8_t (&b)[81][3],
                                  const uint8_t (&h)[81], const uint64_t (&occ)[2], int target,
                                  int color) {
    if (target < 0) return false;
    int height = h[target];
    int enemy = 1 - color;
    int table_base = enemy * NK * 4;
    // The occupied squares an attack can come from, ascending (as src_pool lists them).
    uint64_t words[2] = {t.src_lo[enemy][target] & occ[0], t.src_hi[enemy][target] & occ[1]};
    for (int half = 0; half < 2; ++half)
        for (uint64_t bits = words[half]; bits; bits &= bits - 1) {
            int sq = half * 64 + __builtin_ctzll(bits);
            int tier = h[sq];
            int top = b[sq][tier - 1];
            if ((top & 1) != enemy) continue;
            if (height > tier) continue;
            int idx = ((table_base + (top >> 1) * 4) + tier) * 81 + sq;
            size_t at = size_t(idx) * 81 + size_t(target);
            if (!((t.att_bits[at >> 6] >> (at & 63)) & 1)) continue;
            int off = t.att[at];
            bool is_jump = t.apool[off];
            int n = t.apool[off + 1];
            const uint8_t* path = &t.apool[off + 2];
            bool ok = true;
            if (is_jump) {
                for (int j = 0; j < n; ++j)
                    if (h[path[j]] > tier) {
                        ok = false;
                        break;
                    }
            } else {
                for (int j = 0; j < n; ++j)
                    if (h[path[j]]) {
                        ok = false;
                        break;
                    }
            }
            if (ok) return true;
        }
    return false;
}

inline bool is_noisy_code(uint32_t code) {
    int action = int(code >> 14);
    return action < DONE_INT && ((action & 3) != 0 || (action < MOVE_SPACE && (action & 4) != 0));
}

struct Undo {
    uint32_t code;
    uint64_t hash;
    int8_t sq[2];
    uint8_t tower[2][3], height[2];
    int nchanged;
    int8_t hand_kind[3], hand_count[3];
    int nhand;
    int color;
    int marshal_at[2];
    int drafting[2], phase;
    int64_t move_number;  // a FEN's move number has up to 18 digits (fen.py)
    bool marshal_taken;
    uint8_t captured[3];
    int ncaptured;
    int outcome, reason;
};

// How often each position hash was seen (GungiState.seen): open addressing, no allocation
// per move. A count that drops to 0 keeps its slot until the next rehash.
struct Counts {
    struct Slot {
        uint64_t key;
        int32_t count;
        int32_t used;
    };
    std::vector<Slot> slots = std::vector<Slot>(64, Slot{0, 0, 0});
    size_t mask = 63, filled = 0;

    static size_t mix(uint64_t k) { return size_t(k ^ (k >> 29) ^ (k >> 47)); }
    void clear() {
        std::fill(slots.begin(), slots.end(), Slot{0, 0, 0});
        filled = 0;
    }
    size_t index(uint64_t key) const {
        size_t i = mix(key) & mask;
        while (slots[i].used && slots[i].key != key) i = (i + 1) & mask;
        return i;
    }
    // Ask for key's first slot ahead of an add (the table of a long game is kilobytes, out
    // of the cache in a batch of many games).
    void prefetch(uint64_t key) const { __builtin_prefetch(&slots[mix(key) & mask]); }
    int get(uint64_t key) const {
        const Slot& s = slots[index(key)];
        return s.used ? s.count : 0;
    }
    // Add n to key's count; a count of 0 leaves the table (backward-shift deletion, so no
    // tombstones lengthen the probes).
    int add(uint64_t key, int n) {
        size_t i = index(key);
        if (!slots[i].used) {
            if (n == 0) return 0;
            if ((filled + 1) * 2 > slots.size()) {
                grow();
                i = index(key);
            }
            slots[i] = Slot{key, 0, 1};
            ++filled;
        }
        int count = slots[i].count += n;
        if (count == 0) erase_at(i);
        return count;
    }
    void erase_at(size_t i) {
        size_t j = i;
        for (;;) {
            j = (j + 1) & mask;
            if (!slots[j].used) break;
            size_t k = mix(slots[j].key) & mask;
            bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
            if (stays) continue;
            slots[i] = slots[j];
            i = j;
        }
        slots[i].used = 0;
        --filled;
    }
    void grow() {
        std::vector<Slot> old;
        old.swap(slots);
        slots.assign(old.size() * 2, Slot{0, 0, 0});
        mask = slots.size() - 1;
        for (const Slot& s : old)
            if (s.used) slots[index(s.key)] = s;
    }
};

// One game's board moves of each colour as its last turn generated them, square by square,
// with the squares each piece's generation read, and the squares changed since (by the moves
// played: Batch marks them). On the colour's next turn a piece keeps its moves when it is the
// same piece at the same height on the same square and none of the squares its generation
// read changed (the generation is a function of those squares alone, and of the hand for a
// Captain's betrayals: a Captain's are always made again); only the others are generated
// again (a ply changes two squares, so most pieces keep theirs). The list is the same as
// gen_board's: the squares come in the same ascending order, each with its moves in
// gen_board's order.
struct BoardCache {
    struct Entry {
        uint16_t frm, idx;     // the square and the piece's NIDX entry
        uint32_t begin, end;   // its moves in Side::codes
        uint64_t reads[2];     // the squares its generation read
    };
    // Room for one square each (written in place: no push_back a piece), the first
    // ``count`` in use, ascending squares.
    static constexpr size_t SQUARES = 81;
    struct Side {
        // Its codes with a slack of at least COPY_SLACK past the last (copied in chunks).
        Codes codes;
        std::pmr::vector<Entry> entries;
        size_t count = 0;
        uint64_t dirty[2]{0, 0};  // squares changed since the list was made
        explicit Side(std::pmr::memory_resource* memory) : codes(memory), entries(SQUARES, memory) {}
    };
    static constexpr size_t COPY_CHUNK = 8, COPY_SLACK = COPY_CHUNK;
    Side side[2];
    // The list being made (swapped with the side's).
    Codes next_codes;
    std::pmr::vector<Entry> next_entries;

    // Every list in ``memory`` (a copy takes the heap's: the lists swap within one cache).
    explicit BoardCache(std::pmr::memory_resource* memory = std::pmr::get_default_resource())
        : side{Side(memory), Side(memory)}, next_codes(memory), next_entries(SQUARES, memory) {}

    void forget() {
        for (Side& x : side) x.count = 0;
    }
    void touch(int sq) {
        uint64_t bit = uint64_t(1) << (sq & 63);
        side[0].dirty[sq >> 6] |= bit;
        side[1].dirty[sq >> 6] |= bit;
    }
};

struct Position {
    const Tables* T = nullptr;
    int stack_limit = 2;
    bool marshal_may_stack = false, self_check_forbidden = false, all_or_nothing = false;
    uint8_t b[81][3]{};
    uint8_t h[81]{};
    // Occupied squares (h > 0): bit sq of occ[sq >> 6]. Loops over the board walk these in
    // ascending order, the order of a loop over every square.
    uint64_t occ[2]{0, 0};
    void mark_square(int sq) {
        if (h[sq])
            occ[sq >> 6] |= uint64_t(1) << (sq & 63);
        else
            occ[sq >> 6] &= ~(uint64_t(1) << (sq & 63));
    }
    int hand[2][NK]{};
    int to_move = WHITE, phase = PLAY, drafting[2]{0, 0}, first = WHITE;
    int64_t move_number = 1;  // a FEN's move number has up to 18 digits (fen.py)
    int ply = 0, max_length = 1000;
    uint64_t hash = 0;
    int marshal_at[2]{-1, -1};
    int outcome = -1;  // -1 none; 0/1 that seat won; 2 no winner
    int reason = R_NONE;
    Counts seen;
    Codes mate_codes;  // is_mate's scratch list

    // ------------------------------------------------------------------ keys
    uint64_t tower_key(int sq, const uint8_t* t, int n) const {
        uint64_t key = 0;
        int base = sq * 3 * 2 * NK;
        for (int i = 0; i < n; ++i) key ^= T->zpiece[base + i * 2 * NK + t[i]];
        return key;
    }
    uint64_t hand_key(int color, int kind, int count) const {
        return T->zhand[(color * NK + kind) * 8 + count];
    }
    uint64_t setup_key() const {
        return phase != SETUP ? 0 : T->zsetup[drafting[0] + 2 * drafting[1]];
    }
    void recompute() {
        uint64_t key = to_move == BLACK ? T->zblack : 0;
        marshal_at[0] = marshal_at[1] = -1;
        for (int sq = 0; sq < 81; ++sq) {
            if (h[sq]) {
                key ^= tower_key(sq, b[sq], h[sq]);
                for (int i = 0; i < h[sq]; ++i)
                    if (b[sq][i] >> 1 == T->marshal) marshal_at[b[sq][i] & 1] = sq;
            }
        }
        for (int c = 0; c < 2; ++c)
            for (int k = 0; k < NK; ++k) key ^= hand_key(c, k, hand[c][k]);
        key ^= setup_key();
        hash = key;
    }

    // ------------------------------------------------------------------ generation
    // With ``cache`` (a batch's game: see BoardCache), the board moves come from it.
    void pseudo_codes(Codes& codes, BoardCache* cache = nullptr) {
        int color = to_move;
        if (phase == SETUP) {
            gen_setup(codes, color);
            return;
        }
        if (cache != nullptr)
            gen_board_cached(codes, color, *cache);
        else
            gen_board(codes, color, -1, true);
        gen_drops(codes, color, true);
    }

    // The most codes one square's piece can make: 80 destinations, each a capture, a stack
    // and three betrayals at most.
    static constexpr int SQUARE_CODES = 80 * 5;

    // Each square's moves come out ascending without a sort: its empty destinations are
    // gathered as bits and its occupied ones in a short list (make_tables checks that no
    // destination is listed twice), then both are walked in ascending order. The squares
    // come in ascending order, so the board moves are ascending.
    void gen_board(Codes& codes, int color, int only, bool quiet) {
        int table_base = color * NK * 4;
        uint64_t words[2];
        if (only < 0) {
            words[0] = occ[0];
            words[1] = occ[1];
        } else {
            words[0] = only < 64 ? uint64_t(1) << only : 0;
            words[1] = only >= 64 ? uint64_t(1) << (only - 64) : 0;
        }
        // The squares' moves gather in buf, copied into ``codes`` when it could not hold one
        // more square's and at the end: usually once (a copy per square cost a fifth of the
        // generation).
        constexpr int BUF_CODES = 5 * SQUARE_CODES;
        uint32_t buf[BUF_CODES];
        uint32_t* w = buf;
        for (int frm_i = 0; frm_i < 2 * 64; frm_i += 64)  // the two words, then their bits
        for (uint64_t bits = words[frm_i >> 6]; bits; bits &= bits - 1) {
            int frm = frm_i + __builtin_ctzll(bits);
            int tier = h[frm];
            if (!tier) continue;
            int top = b[frm][tier - 1];
            if ((top & 1) != color) continue;
            int kind = top >> 1;
            int idx = ((table_base + kind * 4) + tier) * 81 + frm;
            if (w - buf > BUF_CODES - SQUARE_CODES) {
                codes.insert(codes.end(), buf, w);
                w = buf;
            }
            gen_square<false>(w, color, frm, tier, kind, idx, quiet, nullptr);
        }
        codes.insert(codes.end(), buf, w);
    }

    // The moves of the piece ``kind`` on top of ``frm`` (``tier`` high; ``idx`` its NIDX
    // entry), ascending, written at w (SQUARE_CODES at most). With READS, ``reads`` (two
    // words) gets every square whose tower it looked at (its own square included).
    template <bool READS>
    __attribute__((always_inline)) inline void gen_square(uint32_t*& w, int color, int frm,
                                                          int tier, int kind, int idx,
                                                          bool quiet, uint64_t* reads) {
        const Tables& t = *T;
        // The steps at once: the empty ones are quiet moves, the occupied ones moves
        // onto a tower no taller than this one.
        const Tables::Reach& reach = t.reach[size_t(idx)];
        uint64_t step_lo = reach.lo, step_hi = reach.hi;
        // The empty destinations as two words kept in registers: an OR into an array
        // indexed by the square's word made each square of a ray wait for the store of
        // the square before (a chain through memory, the walk's largest cost).
        uint64_t empty_lo = step_lo & ~occ[0], empty_hi = step_hi & ~occ[1];
        auto add_empty = [&empty_lo, &empty_hi](int to) {
            uint64_t bit = uint64_t(1) << (to & 63);
            empty_lo |= to < 64 ? bit : 0;
            empty_hi |= to < 64 ? 0 : bit;
        };
        // The occupied squares of the rays looked at (the empty ones are in empty_lo/hi, the
        // steps in step_lo/hi), and the squares before a jump's first landing.
        uint64_t seen_lo = 0, seen_hi = 0;
        auto note = [&seen_lo, &seen_hi](int to) {
            if constexpr (READS) {
                uint64_t bit = uint64_t(1) << (to & 63);
                seen_lo |= to < 64 ? bit : 0;
                seen_hi |= to < 64 ? 0 : bit;
            }
        };
        int onto[81], nonto = 0;  // occupied destinations
        for (int half = 0; half < 2; ++half)
            for (uint64_t o = (half ? step_hi & occ[1] : step_lo & occ[0]); o; o &= o - 1) {
                int to = half * 64 + __builtin_ctzll(o);
                if (h[to] <= tier) onto[nonto++] = to;
            }
        for (int k = reach.begin; k < reach.end; ++k) {
            const Tables::LongRay& ray = t.long_list[size_t(k)];
            const uint8_t* sqs = &t.pool[size_t(ray.start)];
            if (ray.mode == SLIDE) {
                for (int i = 0; i < ray.len; ++i) {
                    int to = sqs[i];
                    if (!h[to]) {
                        add_empty(to);
                        continue;
                    }
                    note(to);
                    if (h[to] <= tier) onto[nonto++] = to;
                    break;
                }
            } else if (ray.mode == JUMP) {
                for (int i = 0; i < ray.len; ++i) {
                    int to = sqs[i];
                    note(to);
                    if (h[to] > tier) break;
                    if (i >= ray.extra) {
                        if (!h[to])
                            add_empty(to);
                        else
                            onto[nonto++] = to;
                    }
                }
            } else {
                bool blocked = false;
                for (int i = 0; i < ray.blen; ++i) {
                    note(t.pool[size_t(ray.bstart + i)]);
                    if (h[t.pool[size_t(ray.bstart + i)]] > tier) blocked = true;
                }
                if (blocked) continue;
                for (int i = 0; i < ray.len; ++i) {
                    int to = sqs[i];
                    note(to);
                    if (h[to] > tier) break;
                    if (!h[to])
                        add_empty(to);
                    else
                        onto[nonto++] = to;
                }
            }
        }
        if constexpr (READS) {
            reads[0] = step_lo | empty_lo | seen_lo;
            reads[1] = step_hi | empty_hi | seen_hi;
            reads[frm >> 6] |= uint64_t(1) << (frm & 63);
        }
        if (!quiet) empty_lo = empty_hi = 0;
        uint64_t empty[2] = {empty_lo, empty_hi};
        if (!nonto && !(empty_lo | empty_hi)) return;
        for (int a = 1; a < nonto; ++a) {  // a few at most: insertion sort
            int x = onto[a], c = a;
            for (; c > 0 && onto[c - 1] > x; --c) onto[c] = onto[c - 1];
            onto[c] = x;
        }
        bool may_stack = kind != t.marshal || marshal_may_stack;
        uint32_t low = uint32_t(kind) << 2;
        int frm81 = frm * 81;
        int next = 0;  // the next occupied destination to write
        for (int half = 0; half < 2; ++half)
            for (uint64_t e = empty[half]; e; e &= e - 1) {
                int to = half * 64 + __builtin_ctzll(e);
                for (; next < nonto && onto[next] < to; ++next)
                    gen_onto(w, color, kind, frm81 + onto[next], onto[next], may_stack, quiet);
                *w++ = (uint32_t(frm81 + to) << 17) | low | 1;
            }
        for (; next < nonto; ++next)
            gen_onto(w, color, kind, frm81 + onto[next], onto[next], may_stack, quiet);
    }

    // gen_board(codes, color, -1, true) through a batch game's BoardCache: a piece whose
    // entry and squares are as on the colour's last turn copies its moves from then.
    void gen_board_cached(Codes& codes, int color, BoardCache& cache) {
        const Tables& t = *T;
        BoardCache::Side& side = cache.side[color];
        Codes& made = cache.next_codes;
        BoardCache::Entry* entries = cache.next_entries.data();
        size_t count = 0;
        const BoardCache::Entry* old = side.entries.data();
        const BoardCache::Entry* old_end = old + side.count;
        const uint32_t* old_codes = side.codes.data();
        uint64_t dirty0 = side.dirty[0], dirty1 = side.dirty[1];
        int table_base = color * NK * 4;
        size_t n = 0;
        // The colour's squares first, without a branch on each top's colour (half the
        // occupied squares are the other colour's: a branch there is a coin toss).
        uint64_t own[2] = {0, 0};
        for (int half = 0; half < 2; ++half)
            for (uint64_t bits = occ[half]; bits; bits &= bits - 1) {
                int sq = half * 64 + __builtin_ctzll(bits);
                own[half] |= uint64_t((b[sq][h[sq] - 1] & 1) == color) << (sq & 63);
            }
        for (int frm_i = 0; frm_i < 2 * 64; frm_i += 64)
        for (uint64_t bits = own[frm_i >> 6]; bits; bits &= bits - 1) {
            int frm = frm_i + __builtin_ctzll(bits);
            int tier = h[frm];
            int top = b[frm][tier - 1];
            int kind = top >> 1;
            int idx = ((table_base + kind * 4) + tier) * 81 + frm;
            // Room for a square's codes and the slack of a chunked copy.
            if (made.size() < n + SQUARE_CODES + BoardCache::COPY_SLACK)
                made.resize(2 * made.size() + SQUARE_CODES + BoardCache::COPY_SLACK);
            uint32_t* w = made.data() + n;
            while (old < old_end && old->frm < frm) ++old;
            BoardCache::Entry& e = entries[count++];
            // A Captain's betrayals depend on the hand too: always made again.
            if (old < old_end && old->frm == frm && old->idx == idx && kind != t.captain &&
                !((old->reads[0] & dirty0) | (old->reads[1] & dirty1))) {
                // In whole chunks (a few codes a piece: a loop code by code cost more than
                // the copy); both lists have the slack past their last code.
                const uint32_t* from = old_codes + old->begin;
                uint32_t len = old->end - old->begin;
                for (uint32_t k = 0; k < len; k += BoardCache::COPY_CHUNK)
                    std::memcpy(w + k, from + k, BoardCache::COPY_CHUNK * sizeof(uint32_t));
                w += len;
                e.reads[0] = old->reads[0];
                e.reads[1] = old->reads[1];
            } else {
                gen_square<true>(w, color, frm, tier, kind, idx, true, e.reads);
            }
            size_t end = size_t(w - made.data());
            e.frm = uint16_t(frm);
            e.idx = uint16_t(idx);
            e.begin = uint32_t(n);
            e.end = uint32_t(end);
            n = end;
        }
        codes.insert(codes.end(), made.data(), made.data() + n);
        side.codes.swap(made);
        side.entries.swap(cache.next_entries);
        side.count = count;
        side.dirty[0] = side.dirty[1] = 0;
    }

    // The moves onto an occupied square, ascending: the stack (and the betrayals that go
    // with it), then the capture (its code has the capture bit, above the betrayal bits).
    void gen_onto(uint32_t*& w, int color, int kind, int ft, int to, bool may_stack,
                  bool quiet) {
        int height = h[to];
        int top = b[to][height - 1];
        if (height < stack_limit && (top >> 1) != T->marshal && may_stack) {
            uint32_t base = (uint32_t(ft) << 17) | (uint32_t(kind) << 2) | uint32_t(height + 1);
            if (kind == T->captain)
                gen_betrayals(w, color, b[to], height, base, hand[color], quiet);
            else if (quiet)
                *w++ = base;
        }
        if ((top & 1) != color) {
            int own = 0;
            for (int i = 0; i < height; ++i) own += (b[to][i] & 1) == color;
            *w++ = (uint32_t(ft) << 17) | 65536u | (uint32_t(kind) << 2) | uint32_t(own + 1);
        }
    }

    void gen_betrayals(uint32_t*& w, int color, const uint8_t* target, int height,
                       uint32_t base, const int* hnd, bool quiet) const {
        if (quiet) *w++ = base;
        int el_tier[3], el_kind[3], ne = 0;
        for (int i = 0; i < height; ++i) {
            int p = target[i];
            if ((p & 1) != color && hnd[p >> 1] > 0) {
                el_tier[ne] = i + 1;
                el_kind[ne] = p >> 1;
                ++ne;
            }
        }
        if (!ne) return;
        int cmask[3], nc = 0;
        for (int mask = 1; mask < 4; ++mask) {
            int picked = 0, pk[3];
            for (int e = 0; e < ne; ++e)
                if ((mask >> (el_tier[e] - 1)) & 1) pk[picked++] = e;
            if (picked != __builtin_popcount(mask)) continue;
            bool ok = true;
            for (int i = 0; i < picked && ok; ++i) {
                int need = 0;
                for (int j = 0; j < picked; ++j) need += el_kind[pk[j]] == el_kind[pk[i]];
                if (hnd[el_kind[pk[i]]] < need) ok = false;
            }
            if (ok) cmask[nc++] = mask;
        }
        for (int c = 0; c < nc; ++c) {
            int mask = cmask[c];
            if (all_or_nothing) {
                bool sub = false;
                for (int o = 0; o < nc; ++o)
                    if (cmask[o] != mask && (cmask[o] & mask) == mask) sub = true;
                if (sub) continue;
            }
            uint32_t extra = uint32_t(mask) << 14;
            for (int e = 0; e < ne; ++e)
                if ((mask >> (el_tier[e] - 1)) & 1)
                    extra |= uint32_t(el_kind[e]) << (el_tier[e] == 1 ? 10 : 6);
            *w++ = base | extra;
        }
    }

    // The rows a colour may drop on: up to its front piece (the first square, in the
    // colour's direction, with its piece on top), found among the occupied squares only.
    void drop_zone(int color, int& y0, int& y1) const {
        if (color == WHITE) {
            int front = 8;
            for (int half = 0; half < 2 && front == 8; ++half)
                for (uint64_t bits = occ[half]; bits; bits &= bits - 1) {
                    int sq = half * 64 + __builtin_ctzll(bits);  // ascending
                    if ((b[sq][h[sq] - 1] & 1) == WHITE) {
                        front = sq / 9;
                        break;
                    }
                }
            y0 = front;
            y1 = 9;
        } else {
            int front = 0;
            bool found = false;
            for (int half = 1; half >= 0 && !found; --half)
                for (uint64_t bits = occ[half]; bits; bits &= ~(uint64_t(1) << (63 - __builtin_clzll(bits)))) {
                    int sq = half * 64 + 63 - __builtin_clzll(bits);  // descending
                    if ((b[sq][h[sq] - 1] & 1) == BLACK) {
                        front = sq / 9;
                        found = true;
                        break;
                    }
                }
            y0 = 0;
            y1 = front + 1;
        }
    }

    void gen_drops(Codes& codes, int color, bool quiet) {
        int kinds[NK], nk = 0;
        for (int k = 0; k < NK; ++k)
            if (hand[color][k]) kinds[nk++] = k;
        if (!nk) return;
        int y0, y1;
        drop_zone(color, y0, y1);
        int tsq[81], ttier[81], nt = 0;
        for (int y = y0; y < y1; ++y)
            for (int sq = y * 9; sq < y * 9 + 9; ++sq) {
                if (!h[sq]) {
                    tsq[nt] = sq;
                    ttier[nt++] = 1;
                } else {
                    int top = b[sq][h[sq] - 1];
                    if ((top & 1) == color && (top >> 1) != T->marshal && h[sq] < stack_limit) {
                        tsq[nt] = sq;
                        ttier[nt++] = h[sq] + 1;
                    }
                }
            }
        emit_drops(codes, color, kinds, nk, tsq, ttier, nt, quiet);
    }

    void emit_drops(Codes& codes, int color, const int* kinds, int nk, const int* tsq,
                    const int* ttier, int nt, bool quiet) {
        // Gathered in a buffer and appended once (a push_back a drop cost more than the
        // drop): a kind's drops, each with its three betrayals at most.
        uint32_t buf[81 * 4];
        for (int i = 0; i < nk; ++i) {
            int kind = kinds[i];
            uint32_t kind_base = uint32_t(MOVE_SPACE + kind * 81 * 4) << 14;
            uint32_t low = uint32_t(kind) << 2;
            uint32_t* w = buf;
            for (int j = 0; j < nt; ++j) {
                int sq = tsq[j];
                uint32_t code = kind_base + (uint32_t(sq) << 16) + low + uint32_t(ttier[j]);
                bool enemy = false;
                if (kind == T->captain)
                    for (int k = 0; k < h[sq]; ++k) enemy |= (b[sq][k] & 1) != color;
                if (enemy) {
                    hand[color][kind] -= 1;
                    gen_betrayals(w, color, b[sq], h[sq], code, hand[color], quiet);
                    hand[color][kind] += 1;
                } else if (quiet) {
                    *w++ = code;
                }
            }
            codes.insert(codes.end(), buf, w);
        }
    }

    void gen_setup(Codes& codes, int color) {
        int y0 = color == WHITE ? 6 : 0;
        int tsq[27], ttier[27], nt = 0;
        for (int y = y0; y < y0 + 3; ++y)
            for (int sq = y * 9; sq < y * 9 + 9; ++sq) {
                if (!h[sq]) {
                    tsq[nt] = sq;
                    ttier[nt++] = 1;
                } else if ((b[sq][h[sq] - 1] >> 1) != T->marshal && h[sq] < stack_limit) {
                    tsq[nt] = sq;
                    ttier[nt++] = h[sq] + 1;
                }
            }
        if (hand[color][T->marshal]) {
            int ssq[27], stier[27], ns = 0;
            for (int j = 0; j < nt; ++j)
                if (ttier[j] == 1) {
                    ssq[ns] = tsq[j];
                    stier[ns++] = 1;
                }
            int k = T->marshal;
            emit_drops(codes, color, &k, 1, ssq, stier, ns, true);
            return;
        }
        int kinds[NK], nk = 0;
        for (int k = 0; k < NK; ++k)
            if (hand[color][k]) kinds[nk++] = k;
        emit_drops(codes, color, kinds, nk, tsq, ttier, nt, true);
        codes.push_back(DONE_CODE);
    }

    // Ascending without a sort: gen_board sorts each square's moves and takes the squares in
    // order, the drops (and setup placements) come out ascending, and Done is the largest
    // code; without_self_checks keeps the order.
    void legal_codes(Codes& codes, BoardCache* cache = nullptr) {
        codes.clear();
        if (outcome >= 0) return;
        pseudo_codes(codes, cache);
        without_self_checks(codes);
    }

    void noisy_codes(Codes& codes) {
        codes.clear();
        if (outcome >= 0) return;
        if (phase == SETUP) {
            legal_codes(codes);
            codes.erase(std::remove_if(codes.begin(), codes.end(),
                                       [](uint32_t c) { return !is_noisy_code(c); }),
                        codes.end());
            return;
        }
        gen_board(codes, to_move, -1, false);
        gen_drops(codes, to_move, false);
        without_self_checks(codes);
        std::sort(codes.begin(), codes.end());
    }

    void without_self_checks(Codes& codes) {
        if (phase != PLAY || !self_check_forbidden) return;
        int color = to_move;
        bool exposed = marshal_capturable_now(color);
        int archers = -1;  // whether the enemy has an Archer on top, found when first needed
        size_t kept = 0;
        for (size_t i = 0; i < codes.size(); ++i) {
            uint32_t code = codes[i];
            bool keep;
            if (!exposed && cannot_expose_lazy(code, color, archers)) {
                keep = true;
            } else {
                Undo u;
                make(code, u, false);
                keep = u.marshal_taken || !marshal_capturable(color);
                unmake(u, false);
            }
            if (keep) codes[kept++] = code;
        }
        codes.resize(kept);
    }

    // ------------------------------------------------------------------ attack and mate
    // marshal_capturable of the position now, kept per colour with the hash it was found
    // for (the hash covers the board: the mate test after a move, the next legal list and
    // the observation planes ask the same question of the same position).
    uint64_t capturable_hash[2]{0, 0};
    int8_t capturable_known[2]{0, 0}, capturable_value[2]{0, 0};
    bool marshal_capturable_now(int color) {
        if (capturable_known[color] && capturable_hash[color] == hash) return capturable_value[color];
        bool value = marshal_capturable(color);
        capturable_hash[color] = hash;
        capturable_known[color] = 1;
        capturable_value[color] = int8_t(value);
        return value;
    }

    bool marshal_capturable(int color) const {
        return marshal_capturable_on(*T, b, h, occ, marshal_at[color], color);
    }

    bool droppable(int color, int sq) const {
        if (!h[sq]) return true;
        int top = b[sq][h[sq] - 1];
        return (top & 1) == color && (top >> 1) != T->marshal && h[sq] < stack_limit;
    }

    bool has_drop(int color) const {
        bool any = false;
        for (int k = 0; k < NK; ++k) any |= hand[color][k] != 0;
        if (!any) return false;
        // The back row (White's 8, Black's 0) is always in the drop zone: most positions have
        // a square there, without finding the front line.
        int back = color == WHITE ? 72 : 0;
        for (int sq = back; sq < back + 9; ++sq)
            if (droppable(color, sq)) return true;
        int y0, y1;
        drop_zone(color, y0, y1);
        for (int y = y0; y < y1; ++y)
            for (int sq = y * 9; sq < y * 9 + 9; ++sq)
                if (droppable(color, sq)) return true;
        return false;
    }

    int enemy_archers(int color) const {
        int archer = T->archer * 2 + (1 - color);
        for (int half = 0; half < 2; ++half)  // the occupied squares only
            for (uint64_t bits = occ[half]; bits; bits &= bits - 1) {
                int sq = half * 64 + __builtin_ctzll(bits);
                if (b[sq][h[sq] - 1] == archer) return 1;
            }
        return 0;
    }

    // Whether sq is near the Marshal at msq (mate._near), finding whether the enemy has an
    // Archer on top (``archers``, -1 until needed) only for squares that depend on it.
    bool near_lazy(int color, int msq, int sq, int& archers) const {
        if (!T->in_near(1, msq, sq)) return false;
        if (T->in_near(0, msq, sq)) return true;
        if (archers < 0) archers = enemy_archers(color);
        return archers == 1;
    }

    bool cannot_expose_lazy(uint32_t code, int color, int& archers) const {
        int action = int(code >> 14);
        if (action >= MOVE_SPACE) return true;
        if (int((code >> 2) & 15) == T->marshal) return false;
        int ft = action >> 3;
        int frm = ft / 81, to = ft % 81;
        int msq = marshal_at[color];
        if (near_lazy(color, msq, frm, archers) ||
            (((action >> 2) & 1) && near_lazy(color, msq, to, archers)))
            return false;
        return h[frm] < 2 || (b[frm][h[frm] - 2] & 1) == color;
    }

    bool is_mate(int color) {
        bool exposed = marshal_capturable_now(color);
        if (!exposed && has_drop(color)) return false;
        int archers = -1;  // found when first needed
        Codes& codes = mate_codes;  // make/unmake below never re-enter here
        if (!exposed) {
            // mate.safe_board_move: square by square, stop at the first move that cannot expose.
            // Only occupied squares, from the side's own back row (White's are the high
            // squares): its pieces come first. The order changes no answer, only how soon.
            int msq = marshal_at[color];
            uint64_t lo = occ[0], hi = occ[1];
            while (lo | hi) {
                int sq;
                if (color == WHITE) {
                    if (hi) {
                        sq = 64 + 63 - __builtin_clzll(hi);
                        hi &= ~(uint64_t(1) << (sq - 64));
                    } else {
                        sq = 63 - __builtin_clzll(lo);
                        lo &= ~(uint64_t(1) << sq);
                    }
                } else if (lo) {
                    sq = __builtin_ctzll(lo);
                    lo &= lo - 1;
                } else {
                    sq = 64 + __builtin_ctzll(hi);
                    hi &= hi - 1;
                }
                int n = h[sq];
                int top = b[sq][n - 1];
                if ((top & 1) != color || (top >> 1) == T->marshal || near_lazy(color, msq, sq, archers))
                    continue;
                if (n >= 2 && (b[sq][n - 2] & 1) != color) continue;
                codes.clear();
                gen_board(codes, color, sq, true);
                for (uint32_t c : codes)
                    if (cannot_expose_lazy(c, color, archers)) return false;
            }
        }
        codes.clear();
        pseudo_codes(codes);  // color is the side to move (the mate test after each move)
        if (!exposed)
            for (uint32_t c : codes)
                if (cannot_expose_lazy(c, color, archers)) return false;
        if (exposed)
            // The Marshal's own moves first (the order changes no answer, only how soon).
            std::partition(codes.begin(), codes.end(), [this](uint32_t c) {
                return int((c >> 2) & 15) == T->marshal;
            });
        for (uint32_t c : codes) {
            Undo u;
            make(c, u, false);
            bool safe = u.marshal_taken || !marshal_capturable(color);
            unmake(u, false);
            if (safe) return false;
        }
        return true;
    }

    // ------------------------------------------------------------------ make / unmake
    void set_tower(int sq, const uint8_t* t, int n) {
        for (int i = 0; i < n; ++i) b[sq][i] = t[i];
        h[sq] = uint8_t(n);
        mark_square(sq);
    }

    // ``track``: count the new position in ``seen`` (a move played); a probe that is undone
    // at once (the self-check and mate tests) leaves the history alone.
    void make(uint32_t code, Undo& u, bool track = true) {
        const Tables& t = *T;
        int color = to_move;
        int* hnd = hand[color];
        uint64_t key = hash ^ setup_key();
        int action = int(code >> 14);
        int kind = int((code >> 2) & 15);
        u.code = code;
        u.hash = hash;
        u.nchanged = 0;
        u.nhand = 0;
        u.ncaptured = 0;
        u.color = color;
        u.marshal_at[0] = marshal_at[0];
        u.marshal_at[1] = marshal_at[1];
        u.drafting[0] = drafting[0];
        u.drafting[1] = drafting[1];
        u.phase = phase;
        u.move_number = move_number;
        u.marshal_taken = false;
        u.outcome = outcome;
        u.reason = reason;
        int next_color;
        if (action == DONE_INT) {
            drafting[color] = 0;
            if (color != first || !drafting[1 - color]) {
                drafting[0] = drafting[1] = 0;
                phase = PLAY;
                next_color = first;
            } else {
                next_color = 1 - color;
            }
        } else {
            int mask = action & 3;
            int to;
            uint8_t nt[3];
            int nn = 0;
            auto save = [&](int sq) {
                int i = u.nchanged++;
                u.sq[i] = int8_t(sq);
                u.height[i] = h[sq];
                std::memcpy(u.tower[i], b[sq], 3);
            };
            if (action < MOVE_SPACE) {
                int ft = action >> 3;
                int frm = ft / 81;
                to = ft % 81;
                int piece = b[frm][h[frm] - 1];
                save(frm);
                key ^= tower_key(frm, b[frm], h[frm]);
                h[frm] -= 1;
                mark_square(frm);
                key ^= tower_key(frm, b[frm], h[frm]);
                if ((action >> 2) & 1) {
                    for (int i = 0; i < h[to]; ++i) {
                        int p = b[to][i];
                        if ((p & 1) != color)
                            u.captured[u.ncaptured++] = uint8_t(p);
                        else
                            nt[nn++] = uint8_t(p);
                    }
                    nt[nn++] = uint8_t(piece);
                } else {
                    for (int i = 0; i < h[to]; ++i) nt[nn++] = b[to][i];
                    nt[nn++] = uint8_t(piece);
                }
                if (kind == t.marshal) marshal_at[color] = to;
            } else {
                to = ((action - MOVE_SPACE) >> 2) % 81;
                for (int i = 0; i < h[to]; ++i) nt[nn++] = b[to][i];
                nt[nn++] = uint8_t(kind * 2 + color);
                u.hand_kind[u.nhand] = int8_t(kind);
                u.hand_count[u.nhand++] = int8_t(hnd[kind]);
                key ^= hand_key(color, kind, hnd[kind]);
                hnd[kind] -= 1;
                key ^= hand_key(color, kind, hnd[kind]);
                if (kind == t.marshal) marshal_at[color] = to;
            }
            if (mask) {
                for (int ti = 0; ti < 2; ++ti) {
                    if ((mask >> ti) & 1) {
                        int turned_kind = int((code >> (ti == 0 ? 10 : 6)) & 15);
                        u.captured[u.ncaptured++] = nt[ti];
                        nt[ti] = uint8_t(turned_kind * 2 + color);
                        u.hand_kind[u.nhand] = int8_t(turned_kind);
                        u.hand_count[u.nhand++] = int8_t(hnd[turned_kind]);
                        key ^= hand_key(color, turned_kind, hnd[turned_kind]);
                        hnd[turned_kind] -= 1;
                        key ^= hand_key(color, turned_kind, hnd[turned_kind]);
                    }
                }
            }
            save(to);
            key ^= tower_key(to, b[to], h[to]) ^ tower_key(to, nt, nn);
            set_tower(to, nt, nn);
            for (int i = 0; i < u.ncaptured; ++i) {
                int p = u.captured[i];
                if ((p >> 1) == t.marshal) {
                    u.marshal_taken = true;
                    marshal_at[p & 1] = -1;
                }
            }
            next_color = 1 - color;
            if (phase == SETUP && !drafting[next_color]) next_color = color;
        }
        if (color == BLACK) move_number += 1;
        if (next_color != color) key ^= t.zblack;
        to_move = next_color;
        key ^= setup_key();
        hash = key;
        ply += 1;
        if (track) seen.add(key, 1);
    }

    void unmake(const Undo& u, bool track = true) {
        if (track) seen.add(hash, -1);
        for (int i = u.nchanged - 1; i >= 0; --i) set_tower(u.sq[i], u.tower[i], u.height[i]);
        for (int i = u.nhand - 1; i >= 0; --i) hand[u.color][u.hand_kind[i]] = u.hand_count[i];
        to_move = u.color;
        marshal_at[0] = u.marshal_at[0];
        marshal_at[1] = u.marshal_at[1];
        drafting[0] = u.drafting[0];
        drafting[1] = u.drafting[1];
        phase = u.phase;
        move_number = u.move_number;
        hash = u.hash;
        ply -= 1;
        outcome = u.outcome;
        reason = u.reason;
    }

    // _judge: the result if the move ``mover`` just made ended the game (sets outcome).
    void judge(int mover, bool marshal_taken) {
        if (marshal_taken) {
            outcome = mover;
            reason = R_MARSHAL;
        } else if (seen.get(hash) >= 4) {
            outcome = 2;
            reason = R_REPETITION;
        } else if (phase == PLAY && is_mate(to_move)) {
            outcome = 1 - to_move;
            reason = R_MATE;
        } else if (ply >= max_length) {
            outcome = 2;
            reason = R_LENGTH;
        }
    }

    // make + judge: what apply does to the position.
    void play(uint32_t code, Undo& u) {
        make(code, u);
        judge(u.color, u.marshal_taken);
    }

    // play, for a caller that wants the next legal list too (the batch): the list is made
    // once and the mate test reads it, where judge's is_mate would generate the same moves
    // again. Same outcome as play; ``next`` is legal_codes() of the new position.
    // With ``cache`` (a batch's game), the squares the move changed are marked in it and the
    // board moves come from it.
    void play_listed(uint32_t code, Undo& u, Codes& next,
                     BoardCache* cache = nullptr) {
        make(code, u, false);
        if (cache != nullptr)
            for (int i = 0; i < u.nchanged; ++i) cache->touch(u.sq[i]);
        next.clear();
        if (u.marshal_taken) {
            seen.add(hash, 1);  // what make's tracking does
            outcome = u.color;
            reason = R_MARSHAL;
            return;
        }
        // The count is read once the next list is made (nothing before reads ``seen``):
        // the look-up in the table, out of the cache in a batch, overlaps the generation.
        seen.prefetch(hash);
        if (phase == PLAY) {
            pseudo_codes(next, cache);
            without_self_checks(next);
        }
        if (seen.add(hash, 1) >= 4) {  // what make's tracking does, keeping the count
            next.clear();
            outcome = 2;
            reason = R_REPETITION;
            return;
        }
        if (phase == PLAY) {
            if (mate_among(next)) {
                outcome = 1 - to_move;
                reason = R_MATE;
                next.clear();
                return;
            }
        }
        if (ply >= max_length) {
            outcome = 2;
            reason = R_LENGTH;
            next.clear();
            return;
        }
        if (phase != PLAY) legal_codes(next, cache);
    }

    // is_mate(to_move) from the side to move's legal list ``codes`` (pseudo_codes after
    // without_self_checks): the same question, asked of moves already made. With
    // self_check forbidden the list holds exactly the moves that leave the Marshal safe, so
    // it is mate when the list is empty; with it allowed the list is every pseudo move, and
    // the moves are tested as is_mate tests them (it only looks at them in another order).
    bool mate_among(const Codes& codes) {
        int color = to_move;
        if (self_check_forbidden) return codes.empty();
        bool exposed = marshal_capturable_now(color);
        if (!exposed && has_drop(color)) return false;
        int archers = -1;
        if (!exposed) {
            for (uint32_t c : codes)
                if (cannot_expose_lazy(c, color, archers)) return false;
        } else {
            // The Marshal's own moves first, as is_mate (the order changes no answer).
            for (uint32_t c : codes)
                if (int((c >> 2) & 15) == T->marshal && probe_safe(c, color)) return false;
        }
        for (uint32_t c : codes)
            if ((!exposed || int((c >> 2) & 15) != T->marshal) && probe_safe(c, color))
                return false;
        return true;
    }

    // Whether playing ``code`` leaves ``color``'s Marshal uncapturable (or takes the enemy's).
    bool probe_safe(uint32_t code, int color) {
        Undo u;
        make(code, u, false);
        bool safe = u.marshal_taken || !marshal_capturable(color);
        unmake(u, false);
        return safe;
    }

    uint64_t perft(int depth) {
        if (depth <= 0) return 1;
        if (outcome >= 0) return 0;
        return perft_inner(depth);
    }

    uint64_t perft_inner(int depth) {
        Codes codes;
        codes.reserve(256);
        legal_codes(codes);
        if (depth == 1) return codes.size();
        uint64_t total = 0;
        for (uint32_t c : codes) {
            Undo u;
            play(c, u);
            if (outcome < 0) total += perft_inner(depth - 1);
            unmake(u);
        }
        return total;
    }

    int current_player() const { return outcome >= 0 ? -1 : to_move; }
};

// ---------------------------------------------------------------------- alpha-beta
// A mirror of sengoku/ai/alphabeta.py's AlphaBetaAgent with GungiKnowledge: negamax,
// iterative deepening, a transposition table keyed on (hash, to_move, phase), order keys
// (captures by gain, then betrayals), killers, quiescence on captures and betrayals.

struct Stop {};

// The transposition table: the Python search's dict keyed on (hash, to_move, phase), cleared
// when it holds table_size entries and a new one comes, as that dict is. Open addressing with
// a generation per slot (a clear is one increment), grown by doubling up to twice table_size.
struct TTSlot {
    uint64_t hash;
    double value;
    int64_t move;  // -1: None
    int32_t depth;
    uint32_t gen;
    int8_t flag, to_move, phase;
};

struct Table {
    std::vector<TTSlot> slots;
    size_t mask = 0, size = 0, limit = 0, max_slots = 0;
    uint32_t gen = 1;

    explicit Table(size_t table_size) : limit(table_size) {
        max_slots = 16;
        while (max_slots < 2 * (table_size + 1)) max_slots *= 2;
        size_t n = std::min<size_t>(max_slots, 1 << 12);
        slots.assign(n, TTSlot{0, 0.0, -1, 0, 0, 0, 0, 0});
        mask = n - 1;
    }
    static size_t mix(uint64_t hash, int to_move, int phase) {
        uint64_t k = hash ^ (uint64_t(to_move) << 1) ^ (uint64_t(phase) << 2);
        return size_t(k ^ (k >> 31));
    }
    const TTSlot* find(uint64_t hash, int to_move, int phase) const {
        size_t i = mix(hash, to_move, phase) & mask;
        while (slots[i].gen == gen) {
            const TTSlot& e = slots[i];
            if (e.hash == hash && e.to_move == to_move && e.phase == phase) return &e;
            i = (i + 1) & mask;
        }
        return nullptr;
    }
    TTSlot& slot(uint64_t hash, int to_move, int phase) {
        size_t i = mix(hash, to_move, phase) & mask;
        while (slots[i].gen == gen) {
            TTSlot& e = slots[i];
            if (e.hash == hash && e.to_move == to_move && e.phase == phase) return e;
            i = (i + 1) & mask;
        }
        return slots[i];
    }
    void put(uint64_t hash, int to_move, int phase, int depth, double value, int flag,
             int64_t move) {
        if (size >= limit) {  // dict.clear()
            ++gen;
            size = 0;
        }
        TTSlot* e = &slot(hash, to_move, phase);
        if (e->gen != gen) {
            if ((size + 1) * 2 > slots.size() && slots.size() < max_slots) {
                grow();
                e = &slot(hash, to_move, phase);
            }
            ++size;
            e->gen = gen;
            e->hash = hash;
            e->to_move = int8_t(to_move);
            e->phase = int8_t(phase);
        }
        e->depth = depth;
        e->value = value;
        e->flag = int8_t(flag);
        e->move = move;
    }
    void grow() {
        std::vector<TTSlot> old;
        old.swap(slots);
        slots.assign(old.size() * 2, TTSlot{0, 0.0, -1, 0, 0, 0, 0, 0});
        mask = slots.size() - 1;
        for (const TTSlot& e : old)
            if (e.gen == gen) slot(e.hash, e.to_move, e.phase) = e;
    }
};

struct Search {
    Position& pos;
    int quiescence;
    size_t table_size;
    int64_t iterations;  // -1: none
    double seconds;      // <= 0: none
    int64_t count = 0;
    std::chrono::steady_clock::time_point start, deadline;
    Table table;
    // killers[ply]: at most two quiet moves that cut off at that ply, newest first.
    struct Killers {
        uint32_t move[2];
        int n;
    };
    std::vector<Killers> killers;
    Killers& killers_at(int ply) {
        if (size_t(ply) >= killers.size()) killers.resize(size_t(ply) + 1, Killers{{0, 0}, 0});
        return killers[size_t(ply)];
    }
    Codes plain_buf;  // by_order_key's and ordered's (no recursion inside)
    struct D {
        int tt;
        double key;
        int killer;
        size_t index;
    };
    std::vector<D> ord_dec;        // ordered's (no recursion inside)
    Codes ord_res;
    std::vector<std::pair<double, uint32_t>> key_buf;  // by_order_key's (no recursion inside)
    // Per ply; a deque, so growing it keeps the lists of the plies above in place.
    std::deque<Codes> move_buf, noisy_buf;
    Codes& buffer(std::deque<Codes>& bufs, int ply) {
        if (size_t(ply) >= bufs.size()) bufs.resize(size_t(ply) + 1);
        return bufs[size_t(ply)];
    }
    bool have_partial = false;
    double partial_value = 0;
    uint32_t partial_move = 0;

    Search(Position& p, int q, size_t ts, int64_t it, double s)
        : pos(p), quiescence(q), table_size(ts), iterations(it), seconds(s), table(ts) {
        start = std::chrono::steady_clock::now();
        deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                               std::chrono::duration<double>(s > 0 ? s : 0));
    }

    bool exhausted() const {
        if (iterations >= 0 && count >= iterations) return true;
        return seconds > 0 && std::chrono::steady_clock::now() >= deadline;
    }

    void count_node() {
        count += 1;
        if (((count & 7) == 0 || iterations >= 0) && exhausted()) throw Stop();
    }

    // White's material minus Black's (features.balance), in the Python's order of additions.
    // Not cached: summing the towers costs less than a cache miss on a table of them.
    double balance() {
        const Tables& t = *pos.T;
        double total = 0.0;
        const double* signed_top = t.signed_top.data();
        for (int sq_i = 0; sq_i < 2 * 64; sq_i += 64)  // the two words, then their bits
        for (uint64_t bits = pos.occ[sq_i >> 6]; bits; bits &= bits - 1) {
            int sq = sq_i + __builtin_ctzll(bits);
            int height = pos.h[sq];
            const uint8_t* tower = pos.b[sq];
            int top = tower[height - 1];
            total += signed_top[(size_t(top) * 4 + height) * 81 + sq];
            for (int i = 0; i < height - 1; ++i) total += t.signed_buried[tower[i]][top & 1];
        }
        bool any = false;
        for (int k = 0; k < NK; ++k) any |= pos.hand[0][k] || pos.hand[1][k];
        if (any)
            for (int k = 0; k < NK; ++k)
                if (pos.hand[0][k] || pos.hand[1][k])
                    total += double(pos.hand[0][k] - pos.hand[1][k]) * t.value[k] * t.hand_factor;
        return total;
    }

    double evaluate(int seat) {
        double value = balance() / pos.T->scale;
        return 0.9 * std::tanh(seat == 0 ? value : -value);
    }

    double order_key(uint32_t code) const {
        int act = int(code >> 14);
        if (act >= MOVE_SPACE || !((act >> 2) & 1))
            return (act < DONE_INT && (act & 3)) ? 1.0 : 0.0;
        int to = (act >> 3) % 81;
        int mover = pos.current_player();
        const Tables& t = *pos.T;
        double gain = 0.0;
        for (int i = 0; i < pos.h[to]; ++i) {
            int p = pos.b[to][i];
            if ((p & 1) != mover) gain += (p >> 1) == t.marshal ? 100.0 : t.value[p >> 1];
        }
        return 10.0 + gain - t.value[(code >> 2) & 15] / 10.0;
    }

    // A stable sort by descending order key, as Python's sorted(key=-order_key): most keys are
    // 0 (quiet moves), so those keep their order and only the others are sorted (by insertion,
    // stable, no allocation, while they are few).
    void by_order_key(Codes& codes) {
        if (codes.size() < 2) return;
        auto& dec = key_buf;
        auto& plain = plain_buf;
        dec.clear();
        plain.clear();
        for (uint32_t c : codes) {
            double k = -order_key(c);
            if (k == 0.0)
                plain.push_back(c);
            else
                dec.emplace_back(k, c);
        }
        if (dec.size() > 48) {
            std::stable_sort(dec.begin(), dec.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
        } else {
            for (size_t i = 1; i < dec.size(); ++i) {
                auto x = dec[i];
                size_t j = i;
                while (j > 0 && x.first < dec[j - 1].first) {
                    dec[j] = dec[j - 1];
                    --j;
                }
                dec[j] = x;
            }
        }
        size_t out = 0, i = 0;
        for (; i < dec.size() && dec[i].first < 0.0; ++i) codes[out++] = dec[i].second;
        for (uint32_t c : plain) codes[out++] = c;
        for (; i < dec.size(); ++i) codes[out++] = dec[i].second;
    }

    double child_value(uint32_t code, int player, int depth, double alpha, double beta, int ply,
                       int q /* -1: none */) {
        Undo u;
        pos.play(code, u);
        double result;
        try {
            if (pos.outcome >= 0) {
                count_node();
                double r = pos.outcome == 2 ? 0.0 : (pos.outcome == player ? 1.0 : -1.0);
                result = r != 0.0 ? r * (WIN - ply - 1) : 0.0;
            } else if (pos.to_move == player) {
                result = q >= 0 ? quiesce(alpha, beta, ply + 1, q) : negamax(depth, alpha, beta, ply + 1);
            } else {
                result = q >= 0 ? -quiesce(-beta, -alpha, ply + 1, q)
                                : -negamax(depth, -beta, -alpha, ply + 1);
            }
        } catch (...) {
            pos.unmake(u);
            throw;
        }
        pos.unmake(u);
        return result;
    }

    double negamax(int depth, double alpha, double beta, int ply) {
        count_node();
        if (depth <= 0) return quiesce(alpha, beta, ply, quiescence);
        const TTSlot* e = table.find(pos.hash, pos.to_move, pos.phase);
        int64_t tt_move = -1;
        double alpha0 = alpha;
        if (e != nullptr) {
            tt_move = e->move;
            if (e->depth >= depth) {
                if (e->flag == 0) return e->value;
                if (e->flag == 1 && e->value >= beta) return e->value;
                if (e->flag == 2 && e->value <= alpha) return e->value;
            }
        }
        uint64_t key_hash = pos.hash;
        int key_to_move = pos.to_move, key_phase = pos.phase;
        int player = pos.to_move;
        double best_value = -INFINITY;
        int64_t best_move = -1;
        Codes& moves = buffer(move_buf, ply);
        ordered(moves, tt_move, ply);
        for (size_t mi = 0; mi < moves.size(); ++mi) {
            uint32_t code = moves[mi];
            double value = child_value(code, player, depth - 1, alpha, beta, ply, -1);
            if (value > best_value) {
                best_value = value;
                best_move = code;
            }
            if (value > alpha) alpha = value;
            if (alpha >= beta) {
                if (!is_noisy_code(code)) {
                    Killers& k = killers_at(ply);
                    if (!((k.n > 0 && k.move[0] == code) || (k.n > 1 && k.move[1] == code))) {
                        k.move[1] = k.move[0];
                        k.move[0] = code;
                        if (k.n < 2) ++k.n;
                    }
                }
                break;
            }
        }
        int flag = best_value <= alpha0 ? 2 : best_value >= beta ? 1 : 0;
        table.put(key_hash, key_to_move, key_phase, depth, best_value, flag, best_move);
        return best_value;
    }

    double quiesce(double alpha, double beta, int ply, int left) {
        int player = pos.to_move;
        double stand = evaluate(player);
        if (stand >= beta || left <= 0) return stand;
        if (stand > alpha) alpha = stand;
        Codes& noisy = buffer(noisy_buf, ply);
        pos.noisy_codes(noisy);
        by_order_key(noisy);
        for (size_t ni = 0; ni < noisy.size(); ++ni) {
            uint32_t code = noisy[ni];
            double value = child_value(code, player, 0, alpha, beta, ply, left - 1);
            if (value >= beta) return value;
            if (value > alpha) alpha = value;
        }
        return alpha;
    }

    // The legal codes sorted by (not the table's move, -order key, not a killer, index), as the
    // Python search sorts them. Most moves are plain (key 0, no killer, not the table's move)
    // and keep their order between the ones sorted before and after them.
    void ordered(Codes& out, int64_t tt_move, int ply) {
        pos.legal_codes(out);
        const Killers* k = size_t(ply) < killers.size() ? &killers[size_t(ply)] : nullptr;
        bool no_killers = k == nullptr || k->n == 0;
        if (tt_move < 0 && no_killers) {
            by_order_key(out);
            return;
        }
        auto& dec = ord_dec;
        auto& plain = plain_buf;
        dec.clear();
        plain.clear();
        for (size_t i = 0; i < out.size(); ++i) {
            uint32_t c = out[i];
            bool killer = !no_killers && ((k->n > 0 && k->move[0] == c) || (k->n > 1 && k->move[1] == c));
            int tt = int64_t(c) == tt_move ? 0 : 1;
            double key = -order_key(c);
            if (tt == 1 && key == 0.0 && !killer)
                plain.push_back(c);
            else
                dec.push_back(D{tt, key, killer ? 0 : 1, i});
        }
        auto less = [](const D& a, const D& b) {
            if (a.tt != b.tt) return a.tt < b.tt;
            if (a.key != b.key) return a.key < b.key;
            if (a.killer != b.killer) return a.killer < b.killer;
            return a.index < b.index;
        };
        if (dec.size() > 48) {
            std::sort(dec.begin(), dec.end(), less);
        } else {
            for (size_t i = 1; i < dec.size(); ++i) {
                D x = dec[i];
                size_t j = i;
                while (j > 0 && less(x, dec[j - 1])) {
                    dec[j] = dec[j - 1];
                    --j;
                }
                dec[j] = x;
            }
        }
        auto& res = ord_res;
        res.clear();
        size_t i = 0;
        // Before the plain moves: the table's move, then keys below 0, then killers (key 0).
        for (; i < dec.size() && (dec[i].tt == 0 || dec[i].key <= 0.0); ++i)
            res.push_back(out[dec[i].index]);
        for (uint32_t c : plain) res.push_back(c);
        for (; i < dec.size(); ++i) res.push_back(out[dec[i].index]);
        std::copy(res.begin(), res.end(), out.begin());
    }

    std::pair<double, uint32_t> root_search(int depth, Codes& order,
                                            uint32_t previous) {
        Codes moves{previous};
        for (uint32_t c : order)
            if (c != previous) moves.push_back(c);
        double alpha = -INFINITY, beta = INFINITY;
        uint32_t best = moves[0];
        int player = pos.to_move;
        have_partial = false;
        for (uint32_t code : moves) {
            double value = child_value(code, player, depth - 1, alpha, beta, 0, -1);
            if (value > alpha) {
                alpha = value;
                best = code;
                have_partial = true;
                partial_value = alpha;
                partial_move = best;
            }
        }
        order.erase(std::find(order.begin(), order.end(), best));
        order.insert(order.begin(), best);
        return {alpha, best};
    }

    // AlphaBetaAgent.choose after the root order is made (in Python: seeded shuffle + sort).
    py::dict choose(Codes order, int max_depth) {
        uint32_t best = order[0];
        double best_value = 0.0;
        int depth_done = 0;
        for (int depth = 1; depth <= max_depth; ++depth) {
            std::pair<double, uint32_t> r;
            try {
                r = root_search(depth, order, best);
            } catch (Stop&) {
                if (have_partial && (depth_done == 0 || partial_move != best)) {
                    best_value = partial_value;
                    best = partial_move;
                }
                break;
            }
            best = r.second;
            best_value = r.first;
            depth_done = depth;
            if (std::fabs(r.first) >= WIN - 100 || exhausted()) break;
        }
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        py::dict out;
        out["move"] = best;
        out["value"] = best_value;
        out["depth"] = depth_done;
        out["nodes"] = count;
        out["seconds"] = elapsed;
        return out;
    }
};

// ---------------------------------------------------------------------- Python glue

std::shared_ptr<Tables> make_tables(py::list rays, py::list attacks, py::list sources,
                                    std::vector<uint64_t> zpiece, std::vector<uint64_t> zhand,
                                    uint64_t zblack, std::vector<uint64_t> zsetup, py::dict kinds,
                                    std::vector<double> top, std::vector<double> value,
                                    py::dict eval_constants) {
    auto t = std::make_shared<Tables>();
    if (py::len(rays) != NIDX) throw std::invalid_argument("ray table size does not match 14 kinds");
    t->marshal = kinds["marshal"].cast<int>();
    t->captain = kinds["captain"].cast<int>();
    t->archer = kinds["archer"].cast<int>();
    t->ray_off.resize(NIDX + 1);
    t->step_lo.assign(NIDX, 0);
    t->step_hi.assign(NIDX, 0);
    t->long_off.assign(NIDX + 1, 0);
    for (int i = 0; i < NIDX; ++i) {
        t->ray_off[i] = int(t->rays.size());
        for (py::handle rh : py::reinterpret_borrow<py::tuple>(rays[i])) {
            py::tuple ray = py::reinterpret_borrow<py::tuple>(rh);
            Ray r{};
            r.mode = ray[0].cast<int>();
            r.start = int(t->pool.size());
            for (py::handle s : py::reinterpret_borrow<py::tuple>(ray[1])) t->pool.push_back(s.cast<uint8_t>());
            r.len = int(t->pool.size()) - r.start;
            r.extra = 0;
            r.bstart = r.blen = 0;
            if (r.mode == JUMP) {
                r.extra = ray[2].cast<int>();
            } else if (r.mode != SLIDE) {
                r.bstart = int(t->pool.size());
                for (py::handle s : py::reinterpret_borrow<py::tuple>(ray[2]))
                    t->pool.push_back(s.cast<uint8_t>());
                r.blen = int(t->pool.size()) - r.bstart;
            }
            t->rays.push_back(r);
        }
        // gen_board gathers one square's destinations as bits (each listed once) and writes
        // its moves into a buffer of Position::SQUARE_CODES: at most 80 destinations, each
        // with five codes at most.
        uint64_t listed[2] = {0, 0};
        t->long_off[size_t(i)] = int(t->long_rays.size());
        for (size_t r = size_t(t->ray_off[i]); r < t->rays.size(); ++r) {
            const Ray& ray = t->rays[r];
            if (ray.mode == SLIDE && ray.len == 1) {
                int to = t->pool[size_t(ray.start)];
                (to < 64 ? t->step_lo[size_t(i)] : t->step_hi[size_t(i)]) |= uint64_t(1) << (to & 63);
            } else {
                t->long_rays.push_back(int(r));
            }
        }
        for (size_t r = size_t(t->ray_off[i]); r < t->rays.size(); ++r) {
            const Ray& ray = t->rays[r];
            for (int k = ray.mode == JUMP ? ray.extra : 0; k < ray.len; ++k) {
                int to = t->pool[size_t(ray.start + k)];
                if (to >= 81 || (listed[to >> 6] >> (to & 63)) & 1)
                    throw std::invalid_argument("a piece's rays list a destination twice");
                listed[to >> 6] |= uint64_t(1) << (to & 63);
            }
        }
    }
    t->ray_off[NIDX] = int(t->rays.size());
    t->long_off[NIDX] = int(t->long_rays.size());
    t->reach.resize(NIDX);
    for (int i = 0; i < NIDX; ++i) {
        Tables::Reach& r = t->reach[size_t(i)];
        r.lo = t->step_lo[size_t(i)];
        r.hi = t->step_hi[size_t(i)];
        r.begin = int32_t(t->long_list.size());
        for (int k = t->long_off[size_t(i)]; k < t->long_off[size_t(i) + 1]; ++k) {
            const Ray& ray = t->rays[size_t(t->long_rays[size_t(k)])];
            if (ray.len > 255 || ray.extra > 255 || ray.blen > 255)
                throw std::invalid_argument("a ray longer than 255 squares");
            t->long_list.push_back(Tables::LongRay{ray.start, ray.bstart, uint8_t(ray.mode),
                                                   uint8_t(ray.len), uint8_t(ray.extra),
                                                   uint8_t(ray.blen)});
        }
        r.end = int32_t(t->long_list.size());
    }
    t->att.assign(size_t(NIDX) * 81, -1);
    t->att_bits.assign((size_t(NIDX) * 81 + 63) / 64, 0);
    for (int i = 0; i < NIDX; ++i) {
        py::dict targets = py::reinterpret_borrow<py::dict>(attacks[i]);
        for (auto item : targets) {
            int target = item.first.cast<int>();
            py::tuple hit = py::reinterpret_borrow<py::tuple>(item.second);
            size_t at = size_t(i) * 81 + size_t(target);
            t->att[at] = int(t->apool.size());
            t->att_bits[at >> 6] |= uint64_t(1) << (at & 63);
            t->apool.push_back(hit[0].cast<bool>() ? 1 : 0);
            py::tuple path = py::reinterpret_borrow<py::tuple>(hit[1]);
            t->apool.push_back(uint8_t(py::len(path)));
            for (py::handle s : path) t->apool.push_back(s.cast<uint8_t>());
        }
    }
    for (int c = 0; c < 2; ++c) {
        py::list by_target = py::reinterpret_borrow<py::list>(sources[c]);
        for (int sq = 0; sq < 81; ++sq) {
            t->src_off[c][sq] = int(t->src_pool.size());
            for (py::handle s : py::reinterpret_borrow<py::tuple>(by_target[sq])) {
                int from = s.cast<int>();
                if (from < 0 || from >= 81) throw std::invalid_argument("a source square off the board");
                t->src_pool.push_back(uint8_t(from));
                (from < 64 ? t->src_lo[c][sq] : t->src_hi[c][sq]) |= uint64_t(1) << (from & 63);
            }
            t->src_len[c][sq] = int(t->src_pool.size()) - t->src_off[c][sq];
        }
    }
    t->zpiece = std::move(zpiece);
    t->zhand = std::move(zhand);
    t->zblack = zblack;
    for (int i = 0; i < 4; ++i) t->zsetup[i] = zsetup.at(i);
    // NEAR_MARSHAL (mate._near): the Marshal's eight lines, and within four against Archers.
    for (int archers = 0; archers < 2; ++archers)
        for (int msq = 0; msq < 81; ++msq) {
            int x = msq % 9, y = msq / 9;
            for (int o = 0; o < 81; ++o) {
                if (o == msq) continue;
                int dx = std::abs(o % 9 - x), dy = std::abs(o / 9 - y);
                if (dx == 0 || dy == 0 || dx == dy || (archers && std::max(dx, dy) <= 4)) {
                    if (o < 64)
                        t->near_lo[archers][msq] |= uint64_t(1) << o;
                    else
                        t->near_hi[archers][msq] |= uint64_t(1) << (o - 64);
                }
            }
        }
    t->top = std::move(top);
    for (int k = 0; k < NK; ++k) t->value[k] = value.at(k);
    t->hand_factor = eval_constants["hand_factor"].cast<double>();
    t->buried = eval_constants["buried"].cast<double>();
    t->scale = eval_constants["scale"].cast<double>();
    t->signed_top.resize(t->top.size());
    for (size_t i = 0; i < t->top.size(); ++i) {
        int piece = int(i / (4 * 81));
        t->signed_top[i] = (piece & 1) ? -t->top[i] : t->top[i];
    }
    for (int piece = 0; piece < 2 * NK; ++piece)
        for (int top_color = 0; top_color < 2; ++top_color) {
            double value = t->value[piece >> 1];
            if ((piece & 1) != top_color) value *= t->buried;
            t->signed_buried[piece][top_color] = (piece & 1) == 0 ? value : -value;
        }
    return t;
}

// The contract's Move objects by code (each the interned Move of its code), in an open-
// addressing table: a legal list is built from codes with one lookup per move, and Move(code)
// is called (Python's move module interns it) only for a code not met before. Codes are
// never 0 (a tier is 1 to 3), so 0 marks an empty slot.
struct MoveTable {
    struct Slot {
        uint32_t code;
        PyObject* obj;
    };
    // One array of pairs: a look-up reads one cache line, not one in each of two arrays.
    std::vector<Slot> slots = std::vector<Slot>(size_t(1) << 14, Slot{0, nullptr});
    size_t mask = (size_t(1) << 14) - 1, filled = 0;

    static size_t mix(uint32_t code) { return size_t((uint64_t(code) * 0x9E3779B97F4A7C15ull) >> 32); }
    size_t index(uint32_t code) const {
        size_t i = mix(code) & mask;
        while (slots[i].code != 0 && slots[i].code != code) i = (i + 1) & mask;
        return i;
    }
    void grow() {
        std::vector<Slot> old;
        old.swap(slots);
        slots.assign(old.size() * 2, Slot{0, nullptr});
        mask = slots.size() - 1;
        for (const Slot& slot : old)
            if (slot.code != 0) slots[index(slot.code)] = slot;
    }
};
MoveTable* g_moves = nullptr;  // made once, never freed (it holds Python objects)
PyObject* g_move_class = nullptr;

PyObject* g_interned = nullptr;  // move.py's INTERNED: code -> Move
PyObject* g_code_name = nullptr;  // "code"
PyObject* g_texts_name = nullptr;  // "_texts"

// The interned Move of a code the generator made (so well formed): the one in move.py's
// table if there is one, else a new one made as Move.__new__ makes it and put there.
PyObject* new_move(uint32_t code) {  // a new reference
    py::int_ key(code);
    PyObject* found = PyDict_GetItemWithError(g_interned, key.ptr());
    if (found != nullptr) {
        Py_INCREF(found);
        return found;
    }
    if (PyErr_Occurred()) throw py::error_already_set();
    PyTypeObject* type = reinterpret_cast<PyTypeObject*>(g_move_class);
    PyObject* obj = type->tp_alloc(type, 0);
    if (obj == nullptr) throw py::error_already_set();
    py::list texts(4);
    for (size_t i = 0; i < 4; ++i) texts[i] = py::none();
    // object.__setattr__, as Move.__new__ does (Move's own __setattr__ refuses).
    if (PyObject_GenericSetAttr(obj, g_code_name, key.ptr()) < 0 ||
        PyObject_GenericSetAttr(obj, g_texts_name, texts.ptr()) < 0 ||
        PyDict_SetItem(g_interned, key.ptr(), obj) < 0) {
        Py_DECREF(obj);
        throw py::error_already_set();
    }
    return obj;
}

PyObject* move_object(uint32_t code) {  // a new reference
    MoveTable& t = *g_moves;
    size_t i = t.index(code);
    if (t.slots[i].code == code) {
        Py_INCREF(t.slots[i].obj);
        return t.slots[i].obj;
    }
    PyObject* obj = new_move(code);
    if ((t.filled + 1) * 2 > t.slots.size()) {
        t.grow();
        i = t.index(code);
    }
    Py_INCREF(obj);  // the table's reference
    t.slots[i] = MoveTable::Slot{code, obj};
    ++t.filled;
    return obj;
}

// The interned Move of each code, as a new list. In three passes (the table's slots asked
// for, then the Moves, then each taken): a legal list's 70-odd Moves are among the tens of
// thousands a long run interns, mostly out of the cache, and a pass that waits on each slot,
// then on its Move, in turn, waited on every miss one after another (half of the contract's
// legal_actions).
py::list move_list(const Codes& codes) {
    size_t n = codes.size();
    PyObject* list = PyList_New(Py_ssize_t(n));
    if (list == nullptr) throw py::error_already_set();
    try {
        const MoveTable& t = *g_moves;
        // The Moves found, on the stack for a usual list: not a buffer kept between calls,
        // since interning a new Move runs Python, which may build another list meanwhile.
        PyObject* on_stack[512];
        std::unique_ptr<PyObject*[]> on_heap;
        PyObject** found = on_stack;
        if (n > 512) {
            on_heap.reset(new PyObject*[n]);
            found = on_heap.get();
        }
        for (size_t i = 0; i < n; ++i)
            __builtin_prefetch(&t.slots[MoveTable::mix(codes[i]) & t.mask]);
        for (size_t i = 0; i < n; ++i) {
            const MoveTable::Slot& slot = t.slots[t.index(codes[i])];
            PyObject* obj = slot.code == codes[i] ? slot.obj : nullptr;
            if (obj != nullptr) __builtin_prefetch(obj, 1);  // its count is written next
            found[i] = obj;
        }
        for (size_t i = 0; i < n; ++i) {
            PyObject* obj = found[i];
            if (obj != nullptr)
                Py_INCREF(obj);
            else
                obj = move_object(codes[i]);  // met for the first time: interned now
            PyList_SET_ITEM(list, Py_ssize_t(i), obj);
        }
    } catch (...) {
        Py_DECREF(list);  // the items not set yet are NULL, which a list's dealloc skips
        throw;
    }
    return py::reinterpret_steal<py::list>(list);
}

// A tuple of small ints (a tower, the pieces a move took), a new reference. Untracked by
// the garbage collector at once (it holds ints only, so it can be in no cycle): the towers
// written into a GungiState's board on every move then never wait in the collector's
// youngest generation (the collector itself untracks such a tuple, but only once it has
// scanned it).
PyObject* tower_tuple(const uint8_t* t, int n) {
    PyObject* tup = PyTuple_New(n);
    if (tup == nullptr) throw py::error_already_set();
    for (int i = 0; i < n; ++i) PyTuple_SET_ITEM(tup, i, PyLong_FromLong(t[i]));
    PyObject_GC_UnTrack(tup);
    return tup;
}

// The action integers (code >> 14) of ``codes``, in their order, as a new list. Each action
// integer's int object is made once and kept for the process (the integers are few:
// DONE_INT + 1): a fresh int per legal action was most of a call.
py::list action_ints(const Codes& codes) {
    PyObject* list = PyList_New(Py_ssize_t(codes.size()));
    if (list == nullptr) throw py::error_already_set();
    static std::vector<PyObject*> kept(size_t(DONE_INT) + 1, nullptr);
    for (size_t i = 0; i < codes.size(); ++i) {
        PyObject*& n = kept[codes[i] >> 14];
        if (n == nullptr) n = PyLong_FromUnsignedLong(codes[i] >> 14);
        if (n == nullptr) {
            Py_DECREF(list);
            throw py::error_already_set();
        }
        Py_INCREF(n);
        PyList_SET_ITEM(list, Py_ssize_t(i), n);
    }
    return py::reinterpret_steal<py::list>(list);
}

struct PyPosition {
    std::shared_ptr<Tables> tables;
    Position pos;
    // The legal codes of the position now, kept until the position changes (the contract
    // asks for the list, then plays one of them: the legality check reuses it).
    Codes legal_cache;
    bool legal_fresh = false;
    // The pieces' moves kept from turn to turn (BoardCache, as a batch's game keeps them):
    // a GungiState played move by move (the contract's loop) copies most of its next list.
    // Every change of ``pos`` either marks the squares it changed (moved) or forgets it.
    BoardCache board_cache;

    // ``pos`` changed by the move ``u`` undoes: its next list is made again, from the
    // kept moves of the squares the move left alone.
    void moved(const Undo& u) {
        legal_fresh = false;
        for (int i = 0; i < u.nchanged; ++i) board_cache.touch(u.sq[i]);
    }
    // ``pos`` replaced (or changed where no Undo says): nothing kept is trusted.
    void replaced() {
        legal_fresh = false;
        board_cache.forget();
    }

    const Codes& cached_legal() {
        if (!legal_fresh) {
            pos.legal_codes(legal_cache, &board_cache);
            legal_fresh = true;
        }
        return legal_cache;
    }

    PyPosition(std::shared_ptr<Tables> t, int stack_limit, bool marshal_may_stack,
               bool self_check_forbidden, bool all_or_nothing, int max_length)
        : tables(std::move(t)) {
        pos.T = tables.get();
        pos.stack_limit = stack_limit;
        pos.marshal_may_stack = marshal_may_stack;
        pos.self_check_forbidden = self_check_forbidden;
        pos.all_or_nothing = all_or_nothing;
        pos.max_length = max_length;
    }

    // Load the board part (what move generation reads) from a GungiState's fields.
    void load(py::list board, py::list hands, int to_move, bool setup, py::list drafting, int first,
              int64_t move_number, int ply, uint64_t hash, py::list marshal_at) {
        replaced();  // first: a load that fails half way leaves nothing kept either
        for (int sq = 0; sq < 81; ++sq) {
            py::tuple tower = py::reinterpret_borrow<py::tuple>(board[sq]);
            int n = int(py::len(tower));
            pos.h[sq] = uint8_t(n);
            pos.mark_square(sq);
            for (int i = 0; i < n; ++i) pos.b[sq][i] = tower[i].cast<uint8_t>();
        }
        for (int c = 0; c < 2; ++c) {
            py::list hc = py::reinterpret_borrow<py::list>(hands[c]);
            for (int k = 0; k < NK; ++k) pos.hand[c][k] = hc[k].cast<int>();
        }
        pos.to_move = to_move;
        pos.phase = setup ? SETUP : PLAY;
        pos.drafting[0] = drafting[0].cast<bool>();
        pos.drafting[1] = drafting[1].cast<bool>();
        pos.first = first;
        pos.move_number = move_number;
        pos.ply = ply;
        pos.hash = hash;
        pos.marshal_at[0] = marshal_at[0].cast<int>();
        pos.marshal_at[1] = marshal_at[1].cast<int>();
        pos.outcome = -1;
        pos.reason = R_NONE;
    }

    void load_seen(py::dict seen) {
        legal_fresh = false;
        pos.seen.clear();
        for (auto item : seen) pos.seen.add(item.first.cast<uint64_t>(), item.second.cast<int>());
    }

    Codes legal() { return cached_legal(); }

    // Gungi.legal_action_ints: each legal code's action integer (code >> 14), ascending, from
    // the kept legal list (no list of codes in between).
    py::list legal_ints() { return action_ints(cached_legal()); }

    // Gungi.int_to_action: the legal code whose action integer is n, or -1 (a binary search
    // of the ascending legal list).
    int64_t code_of(int64_t n) {
        if (n < 0 || n >= (int64_t(1) << 18)) return -1;
        const Codes& codes = cached_legal();
        uint32_t low = uint32_t(n) << 14;
        auto it = std::lower_bound(codes.begin(), codes.end(), low);
        if (it == codes.end() || int64_t(*it >> 14) != n) return -1;
        return int64_t(*it);
    }

    // The towers as a tuple of 81 tuples, each its pieces bottom to top (kind * 2 + colour;
    // empty squares the empty tuple): the state's board as the encoder's snapshot keeps it.
    py::tuple towers() const {
        PyObject* board = PyTuple_New(81);
        if (board == nullptr) throw py::error_already_set();
        for (int sq = 0; sq < 81; ++sq) {
            int h = pos.h[sq];
            PyObject* tower = PyTuple_New(h);
            if (tower == nullptr) {
                Py_DECREF(board);
                throw py::error_already_set();
            }
            for (int t = 0; t < h; ++t) {
                PyObject* piece = PyLong_FromLong(long(pos.b[sq][t]));
                if (piece == nullptr) {
                    Py_DECREF(tower);
                    Py_DECREF(board);
                    throw py::error_already_set();
                }
                PyTuple_SET_ITEM(tower, t, piece);
            }
            PyTuple_SET_ITEM(board, sq, tower);
        }
        return py::reinterpret_steal<py::tuple>(board);
    }

    // GungiState.legal_actions: the interned Move of each legal code, ascending.
    py::list legal_moves() {
        if (g_move_class == nullptr) throw std::runtime_error("set_move_class was not called");
        return move_list(cached_legal());
    }

    // GungiState.apply's position part, for the GungiState whose position this holds: plays
    // ``code`` when legal here (else returns None and changes nothing), writes the changed
    // towers, hand counts, drafting flags and Marshal squares into that state's lists, counts
    // the new position in its ``seen``, and judges the move as the_end.judge does.
    // Returns (hash, to_move, in_setup, ply, captured pieces, reason), reason 0 when the game
    // goes on, else R_MARSHAL / R_REPETITION / R_MATE (the caller asks the Python judge then).
    py::object apply_to(uint32_t code, py::list board, py::list hands, py::list drafting,
                        py::list marshal_at, py::dict seen) {
        const Codes& codes = cached_legal();
        if (!std::binary_search(codes.begin(), codes.end(), code)) return py::none();
        Undo u;
        pos.make(code, u, false);  // the state's own ``seen`` is the history
        moved(u);
        for (int i = 0; i < u.nchanged; ++i) {
            int sq = u.sq[i];
            if (PyList_SetItem(board.ptr(), sq, tower_tuple(pos.b[sq], pos.h[sq])) < 0)
                throw py::error_already_set();
        }
        PyObject* hand = PyList_GetItem(hands.ptr(), u.color);
        if (hand == nullptr) throw py::error_already_set();
        for (int i = 0; i < u.nhand; ++i) {
            int kind = u.hand_kind[i];
            if (PyList_SetItem(hand, kind, PyLong_FromLong(pos.hand[u.color][kind])) < 0)
                throw py::error_already_set();
        }
        // Drafting flags and Marshal squares: only those that changed are written (in play the
        // flags never change, and a Marshal moves or is taken on few moves).
        for (int c = 0; c < 2; ++c) {
            if (pos.drafting[c] != u.drafting[c]) {
                PyObject* flag = pos.drafting[c] ? Py_True : Py_False;
                Py_INCREF(flag);
                if (PyList_SetItem(drafting.ptr(), c, flag) < 0) throw py::error_already_set();
            }
            if (pos.marshal_at[c] != u.marshal_at[c]) {
                PyObject* sq = PyLong_FromLong(pos.marshal_at[c]);
                if (sq == nullptr || PyList_SetItem(marshal_at.ptr(), c, sq) < 0)
                    throw py::error_already_set();
            }
        }
        PyObject* key = PyLong_FromUnsignedLongLong(pos.hash);
        if (key == nullptr) throw py::error_already_set();
        py::object key_owner = py::reinterpret_steal<py::object>(key);
        PyObject* before = PyDict_GetItemWithError(seen.ptr(), key);
        if (before == nullptr && PyErr_Occurred()) throw py::error_already_set();
        long count = (before == nullptr ? 0 : PyLong_AsLong(before)) + 1;
        PyObject* count_obj = PyLong_FromLong(count);
        if (count_obj == nullptr) throw py::error_already_set();
        int failed = PyDict_SetItem(seen.ptr(), key, count_obj);
        Py_DECREF(count_obj);
        if (failed < 0) throw py::error_already_set();
        int reason = R_NONE;
        if (u.marshal_taken)
            reason = R_MARSHAL;
        else if (count >= 4)
            reason = R_REPETITION;
        else if (pos.phase == PLAY && pos.is_mate(pos.to_move))
            reason = R_MATE;
        PyObject* captured = tower_tuple(u.captured, u.ncaptured);
        PyObject* result = PyTuple_New(6);
        if (result == nullptr) {
            Py_DECREF(captured);
            throw py::error_already_set();
        }
        PyTuple_SET_ITEM(result, 0, key_owner.release().ptr());
        PyTuple_SET_ITEM(result, 1, PyLong_FromLong(pos.to_move));  // small ints: cached
        PyObject* in_setup = pos.phase == SETUP ? Py_True : Py_False;
        Py_INCREF(in_setup);
        PyTuple_SET_ITEM(result, 2, in_setup);
        PyTuple_SET_ITEM(result, 3, PyLong_FromLong(pos.ply));
        PyTuple_SET_ITEM(result, 4, captured);
        PyTuple_SET_ITEM(result, 5, PyLong_FromLong(reason));
        for (int i = 0; i < 6; ++i)
            if (PyTuple_GET_ITEM(result, i) == nullptr) {
                Py_DECREF(result);
                throw py::error_already_set();
            }
        PyObject_GC_UnTrack(result);  // ints, bools and a tuple of ints: in no cycle
        return py::reinterpret_steal<py::object>(result);
    }
    Codes noisy() {
        Codes codes;
        pos.noisy_codes(codes);
        return codes;
    }
};

// ---------------------------------------------------------------------- observations
// GungiEncoder's planes (sengoku/games/gungi/encoder.py), from one seat: 6 * NK board planes
// (tier, then owner, then kind; the board turned for Black), then the planes filled with
// one value: the two hands, then eight flags.
constexpr int BOARD_PLANES = 6 * NK, PLANES = 8 * NK + 8;
constexpr size_t PLANES_SIZE = size_t(PLANES) * 81;

// The board entries (offsets in a game's planes) set to 1 in ``g``'s planes from seat ``me``,
// written at ``out`` (81 * 3 at most), square by square then tier by tier; how many.
int board_cells(const Position& g, int me, uint16_t* out) {
    int k = 0;
    for (uint64_t lo = g.occ[0], hi = g.occ[1]; lo | hi;) {
        int sq;
        if (lo) {
            sq = __builtin_ctzll(lo);
            lo &= lo - 1;
        } else {
            sq = 64 + __builtin_ctzll(hi);
            hi &= hi - 1;
        }
        int cell = me ? 80 - sq : sq;
        for (int t = 0; t < g.h[sq]; ++t) {
            int p = g.b[sq][t];
            int owner = (p & 1) == me ? 0 : 1;
            out[k++] = uint16_t((t * 2 * NK + owner * NK + (p >> 1)) * 81 + cell);
        }
    }
    return k;
}

// The value of each plane after the board's (PLANES - BOARD_PLANES of them) in ``g`` from seat
// ``me``: the hands, then the flags (to move, setup, each side drafting, each Marshal
// capturable, seen from Black, the game's length over ``max_length``).
void plane_values(Position& g, int me, int max_length, float* value) {
    std::fill(value, value + (PLANES - BOARD_PLANES), 0.0f);
    for (int c = 0; c < 2; ++c)
        for (int k = 0; k < NK; ++k) value[(c == me ? 0 : 1) * NK + k] = float(g.hand[c][k]);
    float* f = value + 2 * NK;
    if (g.outcome < 0 && g.to_move == me) f[0] = 1.0f;
    if (g.phase == SETUP) {
        f[1] = 1.0f;
        for (int c = 0; c < 2; ++c)
            if (g.drafting[c]) f[2 + (c == me ? 0 : 1)] = 1.0f;
    } else {
        if (g.marshal_capturable_now(me)) f[4] = 1.0f;
        if (g.marshal_capturable_now(1 - me)) f[5] = 1.0f;
    }
    if (me == 1) f[6] = 1.0f;
    f[7] = float(std::min(1.0, double(g.ply) / double(max_length)));
}

// The planes whose board entries set to 1 are ``cells`` and whose filled planes hold
// ``value`` (board_cells' and plane_values' answers) into ``x`` (PLANES_SIZE floats, every one
// written).
void write_planes(const uint16_t* cells, int ncells, const float* value, float* x) {
    std::memset(x, 0, PLANES_SIZE * sizeof(float));
    for (int k = 0; k < ncells; ++k) x[cells[k]] = 1.0f;
    for (int q = 0; q < PLANES - BOARD_PLANES; ++q)
        std::fill(x + size_t(BOARD_PLANES + q) * 81, x + size_t(BOARD_PLANES + q + 1) * 81,
                  value[q]);
}

// ``g``'s planes from seat ``seat`` (-1: a spectator, who sees from White's side) into ``x``
// (PLANES_SIZE floats, every one written).
void encode_planes(Position& g, int seat, int max_length, float* x) {
    int me = seat == 1 ? 1 : 0;
    uint16_t cells[81 * 3];
    int ncells = board_cells(g, me, cells);
    float value[PLANES - BOARD_PLANES];
    plane_values(g, me, max_length, value);
    write_planes(cells, ncells, value, x);
}

// An observation kept small until its planes are read (PettingZoo's, made on every step,
// most never read by an agent that reads the mask only): ``g``'s filled planes' values and
// board entries set to 1 from seat ``seat`` as encode_planes writes them, as bytes: the
// values (PLANES - BOARD_PLANES floats), the number of entries (uint16), the entries
// (uint16 offsets). A few hundred bytes where the planes are 38,880.
constexpr size_t FILLED_PLANES = size_t(PLANES - BOARD_PLANES);
constexpr size_t CAPTURE_HEAD = FILLED_PLANES * sizeof(float) + sizeof(uint16_t);

py::bytes capture_planes(Position& g, int seat, int max_length) {
    int me = seat == 1 ? 1 : 0;
    char buf[CAPTURE_HEAD + 81 * 3 * sizeof(uint16_t)];
    float value[FILLED_PLANES];
    plane_values(g, me, max_length, value);
    uint16_t cells[81 * 3];
    uint16_t ncells = uint16_t(board_cells(g, me, cells));
    std::memcpy(buf, value, sizeof value);
    std::memcpy(buf + sizeof value, &ncells, sizeof ncells);
    std::memcpy(buf + CAPTURE_HEAD, cells, ncells * sizeof(uint16_t));
    return py::bytes(buf, CAPTURE_HEAD + ncells * sizeof(uint16_t));
}

// The planes of a capture_planes capture into ``x`` (PLANES_SIZE floats, every one written):
// what encode_planes writes. False (nothing written) for bytes that are not such a capture.
bool expand_planes(const char* data, size_t size, float* x) {
    if (size < CAPTURE_HEAD) return false;
    uint16_t ncells;
    std::memcpy(&ncells, data + FILLED_PLANES * sizeof(float), sizeof ncells);
    if (ncells > 81 * 3 || size != CAPTURE_HEAD + ncells * sizeof(uint16_t)) return false;
    uint16_t cells[81 * 3];
    std::memcpy(cells, data + CAPTURE_HEAD, ncells * sizeof(uint16_t));
    for (int k = 0; k < ncells; ++k)
        if (cells[k] >= size_t(BOARD_PLANES) * 81) return false;
    float value[FILLED_PLANES];
    std::memcpy(value, data, sizeof value);
    write_planes(cells, ncells, value, x);
    return true;
}

// N games stepped together (sengoku/games/gungi/batch.py).
struct Batch {
    // The memory of the games and their lists (declared first: freed last), packed one
    // after another; from HUGE_FROM games on, in huge pages: the lists of 256 games, a few
    // lines of each touched at every step, then share a few TLB entries (a smaller batch
    // would hold a 2 MB page for a few kilobytes a game, and its lines stay in the cache).
    // Nothing is given back before the batch goes (a monotonic resource): the lists only
    // grow, each to the longest it held, so what a list left behind as it grew is at most
    // what it holds.
    static constexpr size_t HUGE_FROM = 128, GAME_BYTES = 16 << 10;  // about what a game holds
    HugePageMemory pages;
    std::pmr::monotonic_buffer_resource pool;

    std::vector<std::shared_ptr<Tables>> tables;  // keeps the tables alive
    std::pmr::vector<Position> games{&pool};
    std::vector<Position> protos;
    std::mt19937_64 rng;
    std::pmr::vector<Codes> legal{&pool};  // per game, cached after each step
    std::vector<char> fresh;
    // Per game, its pieces' moves kept from turn to turn (BoardCache): most of a legal list
    // is copied, not generated again.
    std::vector<BoardCache> boards;
    // Per game: the action integers legal_sparse last set in the caller's mask, so the next
    // call clears those entries only (not the whole 57025-wide row).
    std::pmr::vector<Codes> marked{&pool};
    // The buffer at ``observed`` (the (n, 120, 9, 9) float32 array of the last call made
    // with ``kept``, which the caller keeps unchanged until the next; null after a call
    // without), described game by game in obs_notes (ObsNote, below).
    const float* observed = nullptr;

    Batch(const std::vector<PyPosition*>& starts, uint64_t seed)
        : pool(starts.size() >= HUGE_FROM ? HugePageMemory::PAGE : starts.size() * GAME_BYTES + 1,
               starts.size() >= HUGE_FROM ? static_cast<std::pmr::memory_resource*>(&pages)
                                          : std::pmr::new_delete_resource()),
          rng(seed) {
        for (const PyPosition* p : starts) {
            tables.push_back(p->tables);
            protos.push_back(p->pos);
        }
        games.assign(protos.begin(), protos.end());
        legal.assign(games.size(), {});  // each list in the pool (a pmr container's elements)
        fresh.assign(games.size(), 0);
        boards.reserve(games.size());
        for (size_t i = 0; i < games.size(); ++i) boards.emplace_back(&pool);
    }

    const Codes& codes(size_t i) {
        if (!fresh[i]) {
            games[i].legal_codes(legal[i], &boards[i]);
            fresh[i] = 1;
        }
        return legal[i];
    }

    // Game i starts again from ``start`` (its kept moves forgotten).
    void restart(size_t i, const Position& start) {
        games[i] = start;
        fresh[i] = 0;
        boards[i].forget();
    }

    // Game i's mask row (width >= the action space) made equal to its legal list, from what
    // marked[i] says the row holds (its set entries, ascending, each once). A row written
    // two plies ago (VectorEnv's two buffers) holds the same side's moves, nearly the list
    // of now: the two ascending lists are merged, and only the entries in one of them are
    // written, a few, where clearing the old entries and setting the new ones touched a
    // cache line for each. A row of the ply before holds the other side's moves: cleared
    // and set. (Either way is right whatever the row holds; the lists' ends choose.)
    void mark_row(size_t i, int8_t* row) {
        plan_row(i, row);
        apply_row(i, row);
    }

    // mark_row's two plain loops: the entries the row holds cleared, the legal ones set.
    void rewrite_row(size_t i, int8_t* row) {
        const auto& list = codes(i);
        Codes& before = marked[i];
        for (uint32_t x : before) row[x] = 0;
        before.resize(list.size());
        uint32_t* w = before.data();
        uint32_t last = UINT32_MAX;
        for (uint32_t c : list) {
            uint32_t x = c >> 14;
            row[x] = 1;
            if (x != last) *w++ = x;  // each entry once
            last = x;
        }
        before.resize(size_t(w - before.data()));
    }
    // mark_row's list being made (swapped with the game's: no allocation a row).
    Codes scratch_ints{&pool};  // swapped with marked's lists: in the same memory

    // mark_row in two halves, which step_all's pass over a large batch runs a few games
    // apart: plan_row merges the lists, keeps the writes the row needs (an entry, its top
    // bit the value) and asks for their cache lines; apply_row makes them (in step_all the
    // lines have arrived meanwhile). A row of the other side's moves (nothing to merge) is
    // left to apply_row, which rewrites it with rewrite_row's two loops.
    static constexpr size_t ROW_PLANS = 16, ROW_AHEAD = 8;
    static constexpr size_t TILE = 32;  // step_all's games moved, then written, together
    static constexpr uint32_t SET_BIT = 0x80000000u;
    Codes row_plans[ROW_PLANS];
    bool row_planned[ROW_PLANS] = {};

    void plan_row(size_t i, int8_t* row) {
        const auto& list = codes(i);
        Codes& before = marked[i];
        Codes& plan = row_plans[i % ROW_PLANS];
        plan.clear();
        if (before.empty() || list.empty() ||
            (before.front() != list.front() >> 14 && before.back() != list.back() >> 14)) {
            row_planned[i % ROW_PLANS] = false;
            return;
        }
        row_planned[i % ROW_PLANS] = true;
        scratch_ints.clear();
        const uint32_t* a = before.data();
        const uint32_t* a_end = a + before.size();
        uint32_t last = UINT32_MAX;
        for (uint32_t c : list) {
            uint32_t x = c >> 14;
            if (x == last) continue;
            last = x;
            while (a != a_end && *a < x) plan.push_back(*a++);  // held, no longer legal
            if (a != a_end && *a == x)
                ++a;  // held and still legal: left as it is
            else
                plan.push_back(x | SET_BIT);
            scratch_ints.push_back(x);
        }
        while (a != a_end) plan.push_back(*a++);
        before.swap(scratch_ints);
        for (uint32_t w : plan) __builtin_prefetch(row + (w & ~SET_BIT), 1);
    }

    void apply_row(size_t i, int8_t* row) {
        if (!row_planned[i % ROW_PLANS]) {
            rewrite_row(i, row);
            return;
        }
        for (uint32_t w : row_plans[i % ROW_PLANS]) row[w & ~SET_BIT] = int8_t(w >> 31);
    }

    static constexpr int BOARD_PLANES = ::BOARD_PLANES, PLANES = ::PLANES;
    static constexpr size_t PER_GAME = PLANES_SIZE;

    // What observations last wrote into a game's planes of the buffer at ``observed``: the
    // value of each filled plane (the hands and flags, one value over a whole plane) and the
    // board entries set to 1 (offsets within the game's planes). The next call into that
    // buffer clears those entries and rewrites only the planes whose value changed. One
    // block a game, written in place (it is out of the cache at each step of a large batch:
    // two vectors a game cost two misses more, and a push_back an entry).
    struct ObsNote {
        float planes[PLANES - BOARD_PLANES];
        uint16_t ncells;
        int8_t seat;  // the seat the board entries were written from (-1: none yet)
        uint16_t cells[81 * 3];  // a tower is three high at most
    };
    std::pmr::vector<ObsNote> obs_notes{&pool};

    // Start following the observation buffer ``o`` (n games' planes): true when what
    // obs_notes say it holds cannot be trusted, so every plane is written.
    bool follow_observations(const float* o, bool kept) {
        size_t n = games.size();
        bool whole = !kept || o != observed || obs_notes.size() != n;
        if (whole) {
            ObsNote blank{};  // all planes 0, no entries
            blank.seat = -1;
            obs_notes.assign(n, blank);
        }
        // Only a kept call's buffer is followed: any other call forgets it (a buffer freed
        // since could come back at the same address, holding else). Spare notes of this
        // buffer are stale once it is written here.
        observed = kept ? o : nullptr;
        if (spare_observed == o) spare_observed = nullptr;
        return whole;
    }

    // The board entries set to 1 in game i's planes from seat ``me`` (::board_cells).
    int board_cells(size_t i, int me, uint16_t* out) const { return ::board_cells(games[i], me, out); }

    // A board entry's place in board_cells' order from seat ``me``: its square, then its
    // tier (the entry's plane gives the tier, its cell the square).
    static int board_order(int entry, int me) {
        int cell = entry % 81, tier = entry / (81 * 2 * NK);
        return (me ? 80 - cell : cell) * 3 + tier;
    }

    // The GungiEncoder planes of game i from seat ``seat`` into x (its 120 * 81 floats):
    // whole, or over what the last call wrote there (obs_notes).
    void observe_game(size_t i, int seat, float* x, bool whole, int max_length) {
        Position& g = games[i];
        ObsNote& note = obs_notes[i];
        uint16_t* cells = note.cells;
        float* planes = note.planes;
        int me = seat == 1 ? 1 : 0;
        if (whole) {
            // Zeroed game by game: the planes are written while still in the cache (one
            // memset of all the games first would evict them again).
            std::memset(x, 0, PER_GAME * sizeof(float));
            int ncells = board_cells(i, me, cells);
            note.ncells = uint16_t(ncells);
            for (int k = 0; k < ncells; ++k) x[cells[k]] = 1.0f;
        } else if (note.seat != me) {
            // Written from the other seat (the planes of the ply before): every entry moves.
            for (int k = 0; k < note.ncells; ++k) x[cells[k]] = 0.0f;
            int ncells = board_cells(i, me, cells);
            note.ncells = uint16_t(ncells);
            for (int k = 0; k < ncells; ++k) x[cells[k]] = 1.0f;
        } else {
            // Written from this seat (VectorEnv's two buffers: two plies ago): only the
            // pieces that moved differ. Both lists run in board order (square, then tier),
            // so they are merged, and the planes' cache lines are touched only where an
            // entry changes.
            uint16_t now[81 * 3];
            int ncells = board_cells(i, me, now);
            int a = 0, b = 0, na = note.ncells;
            while (a < na && b < ncells) {
                int ka = board_order(cells[a], me), kb = board_order(now[b], me);
                if (ka == kb) {
                    if (cells[a] != now[b]) {  // another piece there
                        x[cells[a]] = 0.0f;
                        x[now[b]] = 1.0f;
                    }
                    ++a;
                    ++b;
                } else if (ka < kb) {
                    x[cells[a++]] = 0.0f;
                } else {
                    x[now[b++]] = 1.0f;
                }
            }
            while (a < na) x[cells[a++]] = 0.0f;
            while (b < ncells) x[now[b++]] = 1.0f;
            std::memcpy(cells, now, size_t(ncells) * sizeof(uint16_t));
            note.ncells = uint16_t(ncells);
        }
        note.seat = int8_t(me);
        // The planes filled with one value: hands, then the flags.
        float value[PLANES - BOARD_PLANES];
        plane_values(g, me, max_length, value);
        for (int q = 0; q < PLANES - BOARD_PLANES; ++q) {
            if (value[q] == planes[q]) continue;  // as written last time
            std::fill(x + size_t(BOARD_PLANES + q) * 81, x + size_t(BOARD_PLANES + q + 1) * 81,
                      value[q]);
            planes[q] = value[q];
        }
    }

    // The data of a caller's (n, width) int8 mask, width at least the action space.
    int8_t* mask_of(py::array_t<int8_t, py::array::c_style>& mask) {
        if (mask.ndim() != 2 || size_t(mask.shape(0)) != games.size())
            throw std::invalid_argument("the mask must be int8 of shape (n, num_actions)");
        if (size_t(mask.shape(1)) < size_t(DONE_INT) + 1)
            throw std::invalid_argument("the mask is narrower than the action space");
        return mask.mutable_data();
    }

    // Every game's legal action integers, ascending, as (ints, offsets).
    py::tuple sparse() {
        size_t n = games.size();
        size_t total = 0;
        for (size_t i = 0; i < n; ++i) total += codes(i).size();
        py::array_t<int64_t> ints(static_cast<ssize_t>(total));
        py::array_t<int64_t> offsets(static_cast<ssize_t>(n + 1));
        int64_t* a = ints.mutable_data();
        int64_t* o = offsets.mutable_data();
        size_t k = 0;
        for (size_t i = 0; i < n; ++i) {
            o[i] = int64_t(k);
            for (uint32_t c : legal[i]) a[k++] = int64_t(c >> 14);
        }
        o[n] = int64_t(k);
        return py::make_tuple(ints, offsets);
    }

    // Play game i's action (the contract integer; -1 or a finished game: nothing), keeping
    // its next legal list. Throws for an action its legal list does not hold.
    // The code of action ``want`` in game i's legal list (ascending by action), or 0 when
    // the list does not hold it (no legal code is 0: the action 0 is a move with a tier).
    uint32_t code_for(size_t i, int64_t want) {
        if (want < 0 || want > DONE_INT) return 0;
        const auto& list = codes(i);
        auto it = std::lower_bound(list.begin(), list.end(), uint32_t(want) << 14);
        return it != list.end() && int64_t(*it >> 14) == want ? *it : 0;
    }

    // The first game whose action its legal list does not hold (a live game's -1 included;
    // a finished game's action is not looked at), or -1.
    int64_t first_illegal(const int64_t* actions) {
        for (size_t i = 0; i < games.size(); ++i)
            if (games[i].outcome < 0 && code_for(i, actions[i]) == 0) return int64_t(i);
        return -1;
    }

    void play_action(size_t i, int64_t want) {
        Position& g = games[i];
        if (g.outcome >= 0 || want < 0) return;  // over, or left as it is
        uint32_t found = code_for(i, want);
        if (found == 0) refuse(i, want);
        play_code(i, found);
    }

    [[noreturn]] static void refuse(size_t i, int64_t want) {
        throw std::invalid_argument("game " + std::to_string(i) + ": action " +
                                    std::to_string(want) + " is not legal there");
    }

    // Play ``code``, found in game i's legal list.
    void play_code(size_t i, uint32_t code) {
        Undo u;
        games[i].play_listed(code, u, legal[i], &boards[i]);
        fresh[i] = 1;
    }

    // Ask for what playing game i's move reads first (its position, legal list and kept
    // moves): in a large batch they are out of the cache at each step (the buffers' writes
    // push them out); asked for a game ahead, they arrive while the game before moves.
    void prefetch_game(size_t i) const {
        const Position& g = games[i];
        const char* p = reinterpret_cast<const char*>(&g);
        for (size_t k = 0; k < sizeof(Position); k += 64) __builtin_prefetch(p + k);
        const Codes& list = legal[i];
        const char* l = reinterpret_cast<const char*>(list.data());
        for (size_t k = 0; k < list.size() * sizeof(uint32_t); k += 64) __builtin_prefetch(l + k);
        // The side whose moves are made after this move: the other one (in play).
        const BoardCache::Side& side = boards[i].side[1 - (g.to_move & 1)];
        const char* e = reinterpret_cast<const char*>(side.entries.data());
        for (size_t k = 0; k < side.count * sizeof(BoardCache::Entry); k += 64)
            __builtin_prefetch(e + k);
        if (side.count) {
            const char* c = reinterpret_cast<const char*>(side.codes.data());
            size_t bytes = side.entries[side.count - 1].end * sizeof(uint32_t);
            for (size_t k = 0; k < bytes; k += 64) __builtin_prefetch(c + k);
        }
    }

    // Ask for what writing game i's row and planes reads first: its notes (what the buffers
    // hold). In a large batch they are out of the cache (written two steps ago, with two
    // buffers); asked for a few games ahead, they arrive while the games before are written.
    static constexpr size_t NOTES_AHEAD = 12;  // past ROW_AHEAD: plan_row reads them first
    void prefetch_notes(size_t i) const {
        const Codes& before = marked[i];
        const char* b = reinterpret_cast<const char*>(before.data());
        for (size_t k = 0; k < before.size() * sizeof(uint32_t); k += 64) __builtin_prefetch(b + k);
        const ObsNote& note = obs_notes[i];
        const char* p = reinterpret_cast<const char*>(&note);
        size_t bytes = offsetof(ObsNote, cells) + size_t(note.ncells) * sizeof(uint16_t);
        for (size_t k = 0; k < bytes; k += 64) __builtin_prefetch(p + k);
    }

    // Ask for game i's plane of the game's length, written at every ply: one game ahead.
    // (Asked for with the notes, 12 games ahead, it was likelier out of the first-level
    // cache again when written.)
    static constexpr size_t PLANE_AHEAD = 1;
    void prefetch_ply_plane(size_t i, float* o) const {
        const char* ply = reinterpret_cast<const char*>(o + i * PER_GAME +
                                                        size_t(BOARD_PLANES + 2 * NK + 7) * 81);
        for (size_t k = 0; k < 81 * sizeof(float); k += 64) __builtin_prefetch(ply + k, 1);
        __builtin_prefetch(ply + 81 * sizeof(float) - 1, 1);
    }

    // Per game, the code step_observed plays (0: none).
    Codes to_play;
    // The mask the last legal_sparse or step with a mask kept (null: none followed), so a
    // step into the same mask writes only its changed entries.
    const int8_t* marked_at = nullptr;

    // step_observed's pass (see its binding): every action looked up, then every game
    // moved (a finished one restarted from ``start`` when given, its outcome and reason
    // passed to ``ended(i, outcome, reason)`` first), then each game's mask row (into ``m``,
    // rows ``width`` wide) and planes (into the kept buffer ``o``) written.
    template <class Ended>
    void step_all(const int64_t* a, int8_t* m, size_t width, bool clear, float* o,
                  int max_length, const Position* start, bool strict, Ended&& ended) {
        size_t n = games.size();
        // Every action is found in its game's legal list before any game moves: an
        // illegal one changes nothing (``strict``: a live game's -1 is illegal too).
        to_play.resize(n);
        for (size_t i = 0; i < n; ++i) {
            int64_t want = a[i];
            uint32_t code = 0;
            if (games[i].outcome < 0 && (want >= 0 || strict)) {
                code = code_for(i, want);
                if (code == 0) refuse(i, want);
            }
            to_play[i] = code;
        }
        if (marked.size() != n || marked_at != m) {
            marked.assign(n, {});
            clear = true;
        }
        if (clear) {
            std::memset(m, 0, n * width);
            for (auto& v : marked) v.clear();
        }
        marked_at = m;
        if (spare_marked_at == m) spare_marked_at = nullptr;  // written now: stale
        bool whole = follow_observations(o, true);
        try {
            // In tiles of TILE games: the tile's moves, then its writes, game by game. The
            // moves of many games in a row keep the move tables in the cache, which the
            // writes (scattered over the 25 MB of 256 games' buffers) would push out
            // between two games; the writes of a tile find its games' lists and positions
            // still in the cache, where after the moves of all 256 games they were not
            // (tiles of 16 or 64 did no better than 32).
            for (size_t lo = 0; lo < n; lo += TILE) {
                size_t hi = std::min(n, lo + TILE);
                for (size_t i = lo; i < hi; ++i) {
                    if (i + 1 < n) prefetch_game(i + 1);
                    if (uint32_t code = to_play[i]) {
                        play_code(i, code);
                        Position& g = games[i];
                        if (g.outcome >= 0) {
                            ended(i, g.outcome, g.reason);
                            if (start != nullptr) restart(i, *start);
                        }
                    }
                }
                for (size_t i = lo; i < std::min(hi, lo + ROW_AHEAD); ++i)
                    plan_row(i, m + i * width);
                for (size_t i = lo; i < hi; ++i) {
                    if (i + NOTES_AHEAD < hi) prefetch_notes(i + NOTES_AHEAD);
                    if (i + PLANE_AHEAD < hi) prefetch_ply_plane(i + PLANE_AHEAD, o);
                    if (i + ROW_AHEAD < hi) plan_row(i + ROW_AHEAD, m + (i + ROW_AHEAD) * width);
                    apply_row(i, m + i * width);
                    observe_game(i, std::max(games[i].current_player(), 0),
                                 o + i * PER_GAME, whole, max_length);
                }
            }
        } catch (...) {
            // (An illegal action was refused above, before anything changed: what ends
            // here midway is a failed allocation.) The notes of the games planned but not
            // written describe what their rows and planes were to hold: both buffers are
            // forgotten (written whole next time).
            observed = nullptr;
            marked_at = nullptr;
            throw;
        }
    }

    // What the notes above (marked at marked_at, obs_notes at observed) say of the buffers
    // written the time before (env_step's other pair): swapped in when that pair is
    // written again.
    std::pmr::vector<Codes> spare_marked{&pool};
    const int8_t* spare_marked_at = nullptr;
    std::pmr::vector<ObsNote> spare_obs_notes{&pool};
    const float* spare_observed = nullptr;

    // Follow ``m`` and ``o`` with the notes kept of them (the spare notes, where those
    // describe them): step_all then writes only what changed since they were written.
    // (The notes followed until now become the spare ones: they describe the other pair.)
    void follow_pair(const int8_t* m, const float* o) {
        if (marked_at != m) {
            std::swap(marked, spare_marked);
            std::swap(marked_at, spare_marked_at);
        }
        if (observed != o) {
            std::swap(obs_notes, spare_obs_notes);
            std::swap(observed, spare_observed);
        }
    }

    // The buffers VectorEnv's step writes (bind_env), held here so that its step is one
    // call with one argument (Batch.env_step): one pair (mask, planes), or two written in
    // turn (env_written: the pair written last).
    py::object env_mask, env_out, env_start, env_spare_mask, env_spare_out;
    int8_t* env_m[2] = {nullptr, nullptr};
    float* env_o[2] = {nullptr, nullptr};
    int env_pairs = 0, env_written = 0;
    size_t env_width = 0;
    int env_max_length = 0;
    const Position* env_start_pos = nullptr;
};

// The contract's two calls on every ply (GungiState.legal_actions and apply), bound as
// plain METH_FASTCALL methods of Position rather than through pybind11's dispatcher: its
// argument records, casters and overload loop cost about what a legal list of Moves does
// (0.2-0.3 us a ply of about 3). Same names, arguments, results and errors as before.
// ---------------------------------------------------------------------- matches
// One game for the research adapters (sengoku/core/native_play.py's NativeMatch): a
// position with its history of positions, its legal list kept from ply to ply and its
// pieces' moves kept as a batch's game keeps them (BoardCache), played and judged as a batch
// plays its games (Position::play_listed), its observations GungiEncoder's planes.
struct Match {
    std::shared_ptr<Tables> tables;  // keeps the tables alive
    Position pos;
    Codes legal;
    bool fresh = false;
    BoardCache cache;
    // The codes played since the match was made from its origin, in order.
    Codes played;
    // What Python keeps with the match: the contract state it was made from (never changed),
    // which with ``played`` gives the contract state of any of its positions.
    py::object origin;

    explicit Match(const PyPosition& start) : tables(start.tables), pos(start.pos) {
        pos.T = tables.get();
    }

    const Codes& codes() {
        if (!fresh) {
            if (pos.outcome >= 0)
                legal.clear();
            else
                pos.legal_codes(legal, &cache);
            fresh = true;
        }
        return legal;
    }

    // Play the legal action integer ``want``: false (nothing changed) when the match is over
    // or its legal list does not hold it.
    bool apply(int64_t want) {
        if (pos.outcome >= 0 || want < 0 || want > DONE_INT) return false;
        const Codes& list = codes();
        auto it = std::lower_bound(list.begin(), list.end(), uint32_t(want) << 14);
        if (it == list.end() || int64_t(*it >> 14) != want) return false;
        uint32_t code = *it;
        Undo u;
        pos.play_listed(code, u, legal, &cache);
        fresh = true;
        played.push_back(code);
        return true;
    }
};

Match& match_of(PyObject* self) {
    return py::cast<Match&>(py::handle(self));  // a TypeError for another object
}

// Match.legal_ints and Match.apply, once a ply each in the adapters' loops: plain
// METH_FASTCALL methods, as the Position's.
PyObject* fast_match_legal_ints(PyObject* self, PyObject* const*, Py_ssize_t nargs) {
    if (nargs != 0) {
        PyErr_SetString(PyExc_TypeError, "legal_ints() takes no arguments");
        return nullptr;
    }
    try {
        return action_ints(match_of(self).codes()).release().ptr();
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
}

PyObject* fast_match_apply(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 1 || !PyLong_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "apply(action: int) takes one int");
        return nullptr;
    }
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(args[0], &overflow);
    if (n == -1 && PyErr_Occurred()) return nullptr;
    try {
        bool done = overflow == 0 && match_of(self).apply(n);
        return PyBool_FromLong(done);
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
}

PyObject* fast_match_capture(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyLong_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "capture(max_length: int, seat: int) takes two ints");
        return nullptr;
    }
    long max_length = PyLong_AsLong(args[0]);
    long seat = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return nullptr;
    if (max_length <= 0) {
        PyErr_SetString(PyExc_ValueError, "capture: max_length must be positive");
        return nullptr;
    }
    try {
        return capture_planes(match_of(self).pos, int(seat), int(max_length)).release().ptr();
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
}

PyMethodDef g_match_fast_methods[] = {
    {"legal_ints",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_match_legal_ints)),
     METH_FASTCALL, "The legal action integers, ascending (empty once over): a new list."},
    {"apply", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_match_apply)),
     METH_FASTCALL,
     "Play a legal action integer; False (nothing changed) for one not legal here."},
    {"capture", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_match_capture)),
     METH_FASTCALL,
     "capture(max_length, seat): the observation of seat (-1: a spectator) kept small, as "
     "bytes, until expand_planes writes its planes."},
    {nullptr, nullptr, 0, nullptr}};

PyPosition* position_of(PyObject* self) {
    return &py::cast<PyPosition&>(py::handle(self));  // a TypeError for another object
}

PyObject* fast_legal_moves(PyObject* self, PyObject* const*, Py_ssize_t nargs) {
    if (nargs != 0) {
        PyErr_SetString(PyExc_TypeError, "legal_moves() takes no arguments");
        return nullptr;
    }
    try {
        return position_of(self)->legal_moves().release().ptr();
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
}

PyObject* fast_apply_to(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    // apply_to(code, board, hands, drafting, marshal_at, seen): lists and a dict, as the
    // pybind11 signature asked (py::list and py::dict accept those types only).
    if (nargs != 6 || !PyLong_Check(args[0]) || !PyList_Check(args[1]) ||
        !PyList_Check(args[2]) || !PyList_Check(args[3]) || !PyList_Check(args[4]) ||
        !PyDict_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "apply_to(code: int, board: list, hands: list, drafting: list, "
                        "marshal_at: list, seen: dict)");
        return nullptr;
    }
    unsigned long code = PyLong_AsUnsignedLong(args[0]);
    if (code == static_cast<unsigned long>(-1) && PyErr_Occurred()) return nullptr;
    if (code > 0xFFFFFFFFul) {
        PyErr_SetString(PyExc_OverflowError, "a move code fits in 32 bits");
        return nullptr;
    }
    try {
        return position_of(self)
            ->apply_to(uint32_t(code), py::reinterpret_borrow<py::list>(args[1]),
                       py::reinterpret_borrow<py::list>(args[2]),
                       py::reinterpret_borrow<py::list>(args[3]),
                       py::reinterpret_borrow<py::list>(args[4]),
                       py::reinterpret_borrow<py::dict>(args[5]))
            .release()
            .ptr();
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
}

// Gungi.legal_action_ints and Gungi.int_to_action, once a ply each in the adapters' loops
// (PettingZoo, OpenSpiel): plain METH_FASTCALL methods as the two above, without pybind11's
// dispatcher.
PyObject* fast_legal_ints(PyObject* self, PyObject* const* /*args*/, Py_ssize_t nargs) {
    if (nargs != 0) {
        PyErr_SetString(PyExc_TypeError, "legal_ints() takes no arguments");
        return nullptr;
    }
    try {
        return position_of(self)->legal_ints().release().ptr();
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
}

PyObject* fast_code_of(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 1 || !PyLong_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "code_of(n: int) takes one int");
        return nullptr;
    }
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(args[0], &overflow);
    if (n == -1 && PyErr_Occurred()) return nullptr;
    if (overflow != 0) return PyLong_FromLong(-1);  // no action has such an integer
    try {
        return PyLong_FromLongLong(position_of(self)->code_of(n));
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
}

// GungiEncoder.capture's snapshot in one call (an environment takes one every step):
// snapshot(cls, board, hand0, hand1, current_player, to_move, setup, drafting, marshal_at,
// blockers, ply, capturable) is cls(tuple(board), (tuple(hand0), tuple(hand1)),
// current_player, to_move, setup, tuple(drafting), tuple(marshal_at), blockers, ply,
// capturable), made as tuple.__new__(cls, ...) makes it (cls: a tuple subclass of ten
// fields, GungiSnapshot). The copies are what keeps the snapshot as the position was: the
// state's lists change in place on the next move.
PyObject* fast_snapshot(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 12 || !PyType_Check(args[0]) ||
        !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(args[0]), &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError,
                        "snapshot(cls, board, hand0, hand1, current_player, to_move, setup, "
                        "drafting, marshal_at, blockers, ply, capturable): cls a tuple type");
        return nullptr;
    }
    PyTypeObject* cls = reinterpret_cast<PyTypeObject*>(args[0]);
    PyObject* copies[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
    const int copied[5] = {1, 2, 3, 7, 8};  // board, the hands, drafting, marshal_at
    for (int i = 0; i < 5; ++i) {
        copies[i] = PySequence_Tuple(args[copied[i]]);
        if (copies[i] == nullptr) {
            for (int j = 0; j < i; ++j) Py_DECREF(copies[j]);
            return nullptr;
        }
    }
    PyObject* hands = PyTuple_Pack(2, copies[1], copies[2]);
    Py_DECREF(copies[1]);
    Py_DECREF(copies[2]);
    PyObject* snap = hands == nullptr ? nullptr : cls->tp_alloc(cls, 10);
    if (snap == nullptr) {
        Py_XDECREF(hands);
        Py_DECREF(copies[0]);
        Py_DECREF(copies[3]);
        Py_DECREF(copies[4]);
        return nullptr;
    }
    PyObject* items[10] = {copies[0], hands,    args[4],     args[5],  args[6],
                           copies[3], copies[4], args[9], args[10], args[11]};
    for (int i = 0; i < 10; ++i) {
        if (i >= 2 && i <= 4) Py_INCREF(items[i]);  // borrowed arguments
        if (i >= 7) Py_INCREF(items[i]);
        PyTuple_SET_ITEM(snap, i, items[i]);  // the copies' references move into it
    }
    return snap;
}

// An int item of a snapshot's field, or -1 with a Python error set.
long snapshot_int(PyObject* item) {
    long value = PyLong_AsLong(item);
    if (value == -1 && PyErr_Occurred()) return -1;
    return value;
}

// GungiEncoder's planes of a snapshot (GungiEncoder._encode_snapshot, the same entries):
// encode_snapshot(tables, snapshot, me, out, max_length) writes into ``out`` (a writable
// C-contiguous float32 buffer of the 120 * 81 planes, zeroed by the caller) the planes of
// ``snapshot`` (a GungiSnapshot) from colour ``me``'s side, ``tables`` those of the
// snapshot's ``blockers`` (native_core.tables), which answer whether each Marshal can be
// captured where the snapshot leaves it to the encoding (its ``capturable`` None).
// Python's encoding of one snapshot took about 30 us; an observation tensor is made every
// step a learner reads one.
PyObject* fast_encode_snapshot(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) {
    constexpr int BOARD_PLANES = Batch::BOARD_PLANES, PLANES = Batch::PLANES;
    if (nargs != 5 || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != 10) {
        PyErr_SetString(PyExc_TypeError,
                        "encode_snapshot(tables, snapshot, me, out, max_length): snapshot a "
                        "GungiSnapshot");
        return nullptr;
    }
    const Tables* tables = nullptr;
    try {
        tables = &py::cast<const Tables&>(py::handle(args[0]));
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
    PyObject* snap = args[1];
    long me = snapshot_int(args[2]);
    long max_length = snapshot_int(args[4]);
    if (PyErr_Occurred()) return nullptr;
    if ((me != 0 && me != 1) || max_length <= 0) {
        PyErr_SetString(PyExc_ValueError,
                        "encode_snapshot: me must be 0 or 1 and max_length positive");
        return nullptr;
    }
    // The board: 81 towers of pieces (kind * 2 + colour), bottom to top.
    uint8_t b[81][3]{};
    uint8_t h[81]{};
    uint64_t occ[2]{0, 0};
    PyObject* board = PySequence_Fast(PyTuple_GET_ITEM(snap, 0), "the board must be a sequence");
    if (board == nullptr) return nullptr;
    bool bad = PySequence_Fast_GET_SIZE(board) != 81;
    for (int sq = 0; sq < 81 && !bad; ++sq) {
        PyObject* tower = PySequence_Fast(PySequence_Fast_GET_ITEM(board, sq),
                                          "a tower must be a sequence");
        if (tower == nullptr) {
            Py_DECREF(board);
            return nullptr;
        }
        Py_ssize_t height = PySequence_Fast_GET_SIZE(tower);
        bad = height > 3;
        for (Py_ssize_t t = 0; t < height && !bad; ++t) {
            long piece = snapshot_int(PySequence_Fast_GET_ITEM(tower, t));
            bad = piece < 0 || piece >= 2 * NK;
            if (!bad) b[sq][t] = uint8_t(piece);
        }
        Py_DECREF(tower);
        if (!bad && height) {
            h[sq] = uint8_t(height);
            occ[sq >> 6] |= uint64_t(1) << (sq & 63);
        }
    }
    Py_DECREF(board);
    if (bad) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "encode_snapshot: the board must be 81 towers of at most 3 pieces, "
                            "each kind * 2 + colour");
        return nullptr;
    }
    // The planes filled with one value: hands, then the flags (as GungiEncoder orders them).
    float value[PLANES - BOARD_PLANES];
    std::fill(value, value + (PLANES - BOARD_PLANES), 0.0f);
    PyObject* hands = PyTuple_GET_ITEM(snap, 1);
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != 2) {
        PyErr_SetString(PyExc_ValueError, "encode_snapshot: hands must be a pair");
        return nullptr;
    }
    for (int c = 0; c < 2; ++c) {
        PyObject* hand = PySequence_Fast(PyTuple_GET_ITEM(hands, c), "a hand must be a sequence");
        if (hand == nullptr) return nullptr;
        bool wrong = PySequence_Fast_GET_SIZE(hand) != NK;
        for (int k = 0; k < NK && !wrong; ++k) {
            long count = snapshot_int(PySequence_Fast_GET_ITEM(hand, k));
            wrong = PyErr_Occurred() != nullptr;
            value[(c == me ? 0 : 1) * NK + k] = float(count);
        }
        Py_DECREF(hand);
        if (wrong) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "encode_snapshot: a hand counts every kind");
            return nullptr;
        }
    }
    float* f = value + 2 * NK;
    long current_player = snapshot_int(PyTuple_GET_ITEM(snap, 2));
    long to_move = snapshot_int(PyTuple_GET_ITEM(snap, 3));
    int setup = PyObject_IsTrue(PyTuple_GET_ITEM(snap, 4));
    long ply = snapshot_int(PyTuple_GET_ITEM(snap, 8));
    if (PyErr_Occurred() || setup < 0) return nullptr;
    if (current_player >= 0 && to_move == me) f[0] = 1.0f;
    if (setup) f[1] = 1.0f;
    PyObject* drafting = PyTuple_GET_ITEM(snap, 5);
    PyObject* marshal_at = PyTuple_GET_ITEM(snap, 6);
    PyObject* capturable = PyTuple_GET_ITEM(snap, 9);
    if (!PyTuple_Check(drafting) || PyTuple_GET_SIZE(drafting) != 2 || !PyTuple_Check(marshal_at) ||
        PyTuple_GET_SIZE(marshal_at) != 2 ||
        (capturable != Py_None &&
         (!PyTuple_Check(capturable) || PyTuple_GET_SIZE(capturable) != 2))) {
        PyErr_SetString(PyExc_ValueError,
                        "encode_snapshot: drafting, marshal_at and capturable must be pairs");
        return nullptr;
    }
    for (int c = 0; c < 2; ++c) {
        int drafts = PyObject_IsTrue(PyTuple_GET_ITEM(drafting, c));
        if (drafts < 0) return nullptr;
        if (drafts) f[2 + (c == me ? 0 : 1)] = 1.0f;
    }
    if (capturable != Py_None) {
        for (int c = 0; c < 2; ++c) {
            int known = PyObject_IsTrue(PyTuple_GET_ITEM(capturable, c));
            if (known < 0) return nullptr;
            if (known) f[c == me ? 4 : 5] = 1.0f;
        }
    } else if (!setup) {  // the view's marshal_capturable, as the position works it out
        for (int c = 0; c < 2; ++c) {
            long target = snapshot_int(PyTuple_GET_ITEM(marshal_at, c));
            if (PyErr_Occurred()) return nullptr;
            if (target < -1 || target >= 81) {
                PyErr_SetString(PyExc_ValueError, "encode_snapshot: marshal_at out of the board");
                return nullptr;
            }
            if (marshal_capturable_on(*tables, b, h, occ, int(target), c))
                f[c == me ? 4 : 5] = 1.0f;
        }
    }
    if (me == 1) f[6] = 1.0f;
    f[7] = float(std::min(1.0, double(ply) / double(max_length)));
    // The caller's tensor.
    Py_buffer view;
    if (PyObject_GetBuffer(args[3], &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return nullptr;
    if (view.itemsize != 4 || view.format == nullptr || std::strcmp(view.format, "f") != 0 ||
        view.len != Py_ssize_t(PLANES) * 81 * 4) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError,
                        "encode_snapshot: out must be float32 of the encoder's shape");
        return nullptr;
    }
    float* x = static_cast<float*>(view.buf);
    for (int sq = 0; sq < 81; ++sq) {
        int cell = me ? 80 - sq : sq;
        for (int t = 0; t < h[sq]; ++t) {
            int p = b[sq][t];
            int owner = (p & 1) == me ? 0 : 1;
            x[(t * 2 * NK + owner * NK + (p >> 1)) * 81 + cell] = 1.0f;
        }
    }
    for (int q = 0; q < PLANES - BOARD_PLANES; ++q)
        std::fill(x + size_t(BOARD_PLANES + q) * 81, x + size_t(BOARD_PLANES + q + 1) * 81,
                  value[q]);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

// VectorEnv.step on the buffers bind_env bound, in one call of one argument (the actions:
// an int64 C-contiguous array, one a game): step_observed's pass with ``strict``, then
// what the environment returns besides the kept buffers, made here rather than by numpy
// calls in Python (about a tenth of a step of 256 games went there). Returns (ints,
// offsets, agent, rewards, terminations, truncations, ended): legal_sparse's lists, the
// seat to act in each game (-1: over), the (n, 2) float32 returns of the games that ended
// (0 else), which of them ended by the rules or by the length guard (bool), and ((i,
// outcome, reason), ...) of those games, in order (outcome and reason as status gives
// them). An illegal action raises ValueError naming its game, and nothing moves.
PyObject* fast_env_step(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    using Actions = py::array_t<int64_t, py::array::c_style>;
    try {
        Batch& bt = py::cast<Batch&>(py::handle(self));
        if (nargs != 1 || !Actions::check_(args[0]))
            throw py::type_error("env_step(actions): an int64 C-contiguous array");
        if (bt.env_pairs == 0) throw std::runtime_error("env_step needs bind_env first");
        auto actions = py::reinterpret_borrow<Actions>(args[0]);
        size_t n = bt.games.size();
        if (actions.ndim() != 1 || size_t(actions.shape(0)) != n)
            throw std::invalid_argument("one action per game");
        std::vector<std::array<int, 3>> ended;
        // With two pairs, the one not written last (it holds what was written two plies
        // ago: the same seats' planes and the same sides' moves, mostly unchanged).
        int pair = bt.env_pairs == 2 ? 1 - bt.env_written : 0;
        bt.follow_pair(bt.env_m[pair], bt.env_o[pair]);
        bt.step_all(actions.data(), bt.env_m[pair], bt.env_width, false, bt.env_o[pair],
                    bt.env_max_length, bt.env_start_pos, true,
                    [&](size_t i, int outcome, int reason) {
                        ended.push_back({int(i), outcome, reason});
                    });
        bt.env_written = pair;
        py::tuple lists = bt.sparse();
        py::array_t<int64_t> agent(static_cast<ssize_t>(n));
        int64_t* who = agent.mutable_data();
        for (size_t i = 0; i < n; ++i) who[i] = bt.games[i].current_player();
        py::array_t<float> rewards({static_cast<ssize_t>(n), ssize_t(2)});
        py::array_t<bool> terminations(static_cast<ssize_t>(n)),
            truncations(static_cast<ssize_t>(n));
        float* r = rewards.mutable_data();
        bool* term = terminations.mutable_data();
        bool* trunc = truncations.mutable_data();
        std::fill(r, r + 2 * n, 0.0f);
        std::fill(term, term + n, false);
        std::fill(trunc, trunc + n, false);
        py::tuple rows(ended.size());
        for (size_t k = 0; k < ended.size(); ++k) {
            auto [i, outcome, reason] = ended[k];
            if (outcome == 0 || outcome == 1) {  // Outcome.win's returns; no winner: 0, 0
                r[2 * i + outcome] = 1.0f;
                r[2 * i + 1 - outcome] = -1.0f;
            }
            (reason == R_LENGTH ? trunc : term)[i] = true;
            rows[k] = py::make_tuple(i, outcome, reason);
        }
        py::object ints = lists[0], offsets = lists[1];
        return py::make_tuple(ints, offsets, agent, rewards, terminations, truncations, rows,
                              pair)
            .release()
            .ptr();
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
}

PyMethodDef g_batch_fast_methods[] = {
    {"env_step", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_env_step)),
     METH_FASTCALL,
     "VectorEnv.step on the buffers of bind_env: (ints, offsets, agent, rewards, "
     "terminations, truncations, ended)."},
    {nullptr, nullptr, 0, nullptr}};

// An action mask: mask_of(ints, num_actions) is a new int8 array of ``num_actions`` entries,
// 1 at each of ``ints`` (a list of ints in range), 0 elsewhere: what
// sengoku/interop/encoders.py's mask_of makes, without the index array numpy would make of the
// list first (two thirds of that call for Gungi's 57,025 actions).
PyObject* fast_mask_of(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyList_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "mask_of(ints: list, num_actions: int)");
        return nullptr;
    }
    Py_ssize_t n = PyLong_AsSsize_t(args[1]);
    if (n == -1 && PyErr_Occurred()) return nullptr;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "mask_of: num_actions must not be negative");
        return nullptr;
    }
    try {
        py::array_t<int8_t> mask(n);
        int8_t* m = mask.mutable_data();
        std::memset(m, 0, size_t(n));
        PyObject* ints = args[0];
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(ints); ++i) {
            Py_ssize_t x = PyLong_AsSsize_t(PyList_GET_ITEM(ints, i));
            if (x == -1 && PyErr_Occurred()) return nullptr;
            if (x < 0 || x >= n) {
                PyErr_Format(PyExc_IndexError, "mask_of: action %zd is not below %zd", x, n);
                return nullptr;
            }
            m[x] = 1;
        }
        return mask.release().ptr();
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
}

PyObject* fast_expand_planes(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "expand_planes(capture: bytes, out)");
        return nullptr;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[1], &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return nullptr;
    if (view.itemsize != 4 || view.format == nullptr || std::strcmp(view.format, "f") != 0 ||
        view.len != Py_ssize_t(PLANES_SIZE * sizeof(float))) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError,
                        "expand_planes: out must be C-contiguous float32 of the encoder's shape");
        return nullptr;
    }
    bool done = expand_planes(PyBytes_AS_STRING(args[0]), size_t(PyBytes_GET_SIZE(args[0])),
                              static_cast<float*>(view.buf));
    PyBuffer_Release(&view);
    if (!done) {
        PyErr_SetString(PyExc_ValueError, "expand_planes: not a capture of Match.capture");
        return nullptr;
    }
    Py_RETURN_NONE;
}

PyMethodDef g_module_functions[] = {
    {"mask_of", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_mask_of)),
     METH_FASTCALL,
     "mask_of(ints, num_actions): a new int8 array of num_actions entries, 1 at ints."},
    {"snapshot", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_snapshot)),
     METH_FASTCALL,
     "GungiEncoder.capture's snapshot: cls(tuple(board), (tuple(hand0), tuple(hand1)), "
     "current_player, to_move, setup, tuple(drafting), tuple(marshal_at), blockers, ply, "
     "capturable)."},
    {"encode_snapshot",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_encode_snapshot)),
     METH_FASTCALL,
     "GungiEncoder's planes of a GungiSnapshot: encode_snapshot(tables, snapshot, me, out, "
     "max_length) writes them into out (zeroed float32 of the encoder's shape)."},
    {"expand_planes",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_expand_planes)),
     METH_FASTCALL,
     "expand_planes(capture, out): the planes of a Match.capture into out (C-contiguous "
     "float32 of the encoder's shape, every entry written)."},
    {nullptr, nullptr, 0, nullptr}};

PyMethodDef g_fast_methods[] = {
    {"legal_ints", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_legal_ints)),
     METH_FASTCALL, "Gungi.legal_action_ints: each legal code's action integer, ascending."},
    {"code_of", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_code_of)),
     METH_FASTCALL, "Gungi.int_to_action: the legal code of action integer n, or -1."},
    {"legal_moves", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_legal_moves)),
     METH_FASTCALL, "GungiState.legal_actions: the interned Move of each legal code, ascending."},
    {"apply_to", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_apply_to)),
     METH_FASTCALL,
     "apply_to(code, board, hands, drafting, marshal_at, seen): GungiState.apply's position "
     "part; None for an illegal code."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PYBIND11_MODULE(_gungi_native, m) {
    m.doc() = "Gungi's native core (C++): move generation, make/unmake, mate, perft, alpha-beta.";
    m.attr("MOVE_SPACE") = MOVE_SPACE;
    m.attr("DONE_INT") = DONE_INT;
    m.attr("NUM_KINDS") = NK;
    // Batch.observations takes ``kept`` (a core built before it has not: batch.py asks).
    m.attr("OBSERVATIONS_KEPT") = true;
    // Batch.step_observed checks every action before it plays any, and takes ``strict``.
    m.attr("STEP_CHECKS_FIRST") = true;
    // Batch.bind_env and Batch.env_step (VectorEnv's step in one call).
    m.attr("ENV_STEP") = true;
    // Batch.bind_env takes a spare pair of buffers, written in turn; env_step returns which
    // pair it wrote as an eighth item.
    m.attr("ENV_SPARE_PAIR") = true;

    if (PyModule_AddFunctions(m.ptr(), g_module_functions) < 0) throw py::error_already_set();

    py::class_<Tables, std::shared_ptr<Tables>>(m, "Tables");
    // The Move class (sengoku.games.gungi.move.Move) and its intern table: legal_moves makes
    // and interns Moves as Move(code) would.
    m.def("set_move_class", [](py::type cls, py::dict interned) {
        if (g_move_class != nullptr) throw std::runtime_error("set_move_class was called already");
        g_move_class = cls.release().ptr();
        g_interned = interned.release().ptr();
        g_code_name = PyUnicode_InternFromString("code");
        g_texts_name = PyUnicode_InternFromString("_texts");
        g_moves = new MoveTable();
    });
    m.def("make_tables", &make_tables);

    py::class_<PyPosition> position(m, "Position");
    position
        .def(py::init<std::shared_ptr<Tables>, int, bool, bool, bool, int>())
        .def("load", &PyPosition::load)
        .def("load_seen", &PyPosition::load_seen)
        .def("legal_codes", &PyPosition::legal)
        .def("towers", &PyPosition::towers)
        .def("noisy_codes", &PyPosition::noisy)
        .def("recompute_hash",
             [](PyPosition& p) {
                 p.pos.recompute();
                 return p.pos.hash;
             })
        .def("is_mate", [](PyPosition& p, int color) { return p.pos.is_mate(color); })
        .def("marshal_capturable",
             [](PyPosition& p, int color) { return p.pos.marshal_capturable(color); })
        .def("perft", [](PyPosition& p, int depth) {
            py::gil_scoped_release release;
            return p.pos.perft(depth);
        })
        // Play a code (no legality check: the caller passes a legal code); returns
        // (outcome, reason): outcome -1 none, 0/1 the winner, 2 no winner.
        .def("play",
             [](PyPosition& p, uint32_t code) {
                 Undo u;
                 p.pos.play(code, u);
                 p.moved(u);
                 return std::make_pair(p.pos.outcome, p.pos.reason);
             })
        // Make a (legal) code without judging it or keeping it in the position history:
        // the scratch copy following a GungiState move by move.
        .def("advance",
             [](PyPosition& p, uint32_t code) {
                 Undo u;
                 p.pos.make(code, u, false);
                 p.moved(u);
                 return p.pos.hash;
             })
        .def_property_readonly("hash", [](PyPosition& p) { return p.pos.hash; })
        .def_property_readonly("to_move", [](PyPosition& p) { return p.pos.to_move; })
        .def_property_readonly("ply", [](PyPosition& p) { return p.pos.ply; })
        .def("search",
             [](PyPosition& p, Codes order, int max_depth, int quiescence,
                size_t table_size, int64_t iterations, double seconds) {
                 p.replaced();
                 Search s(p.pos, quiescence, table_size, iterations, seconds);
                 return s.choose(std::move(order), max_depth);
             })
        // Random playouts from this position (not changed): plies played, for benchmarks.
        .def("random_playouts", [](PyPosition& p, int games, uint64_t seed) {
            py::gil_scoped_release release;
            std::mt19937_64 rng(seed);
            Codes codes;
            codes.reserve(256);
            int64_t plies = 0;
            for (int g = 0; g < games; ++g) {
                Position q = p.pos;
                while (q.outcome < 0) {
                    q.legal_codes(codes);
                    Undo u;
                    q.play(codes[rng() % codes.size()], u);
                    ++plies;
                }
            }
            return plies;
        });
    // The hot methods, as plain CPython methods of the class (see g_fast_methods).
    for (PyMethodDef* def = g_fast_methods; def->ml_name != nullptr; ++def) {
        PyObject* method =
            PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(position.ptr()), def);
        if (method == nullptr) throw py::error_already_set();
        position.attr(def->ml_name) = py::reinterpret_steal<py::object>(method);
    }

    py::class_<Batch> batch(m, "Batch");
    batch
        .def(py::init<const std::vector<PyPosition*>&, uint64_t>())
        .def("reset_game",
             [](Batch& bt, size_t i, const PyPosition& start) {
                 if (i >= bt.games.size()) throw std::out_of_range("no game " + std::to_string(i));
                 bt.restart(i, start.pos);
             })
        .def("size", [](Batch& bt) { return bt.games.size(); })
        .def("legal_codes", [](Batch& bt, size_t i) { return bt.codes(i); })
        .def("legal_mask",
             [](Batch& bt, py::array_t<bool, py::array::c_style> out) {
                 auto m = out.mutable_unchecked<2>();
                 std::memset(out.mutable_data(), 0, size_t(out.size()));
                 for (size_t i = 0; i < bt.games.size(); ++i)
                     for (uint32_t c : bt.codes(i)) m(ssize_t(i), ssize_t(c >> 14)) = true;
             })
        // Every game's legal action integers, ascending, as (ints, offsets): game i's are
        // ints[offsets[i]:offsets[i + 1]] (two new arrays). With a mask (an (n, width) int8
        // array, width the action space), its entries are kept equal to those lists: the ones
        // this call set last time are cleared and the new ones set, unless ``clear`` (a mask
        // this batch did not fill last: it is zeroed first).
        .def("legal_sparse",
             [](Batch& bt, py::object mask_obj, bool clear) {
                 size_t n = bt.games.size();
                 if (bt.marked.size() != n) {
                     bt.marked.assign(n, {});
                     clear = true;
                 }
                 if (!mask_obj.is_none()) {
                     auto mask = mask_obj.cast<py::array_t<int8_t, py::array::c_style>>();
                     int8_t* m = bt.mask_of(mask);
                     // Another mask than the one kept last is zeroed first, whatever the
                     // caller says (env_step also keeps the mask it writes).
                     clear = clear || bt.marked_at != m;
                     if (clear) {
                         std::memset(m, 0, size_t(mask.size()));
                         for (auto& v : bt.marked) v.clear();
                     }
                     for (size_t i = 0; i < n; ++i) bt.mark_row(i, m + i * size_t(mask.shape(1)));
                     bt.marked_at = m;
                     if (bt.spare_marked_at == m) bt.spare_marked_at = nullptr;  // stale
                 } else {
                     bt.marked_at = nullptr;  // whatever mask was kept is no longer followed
                 }
                 return bt.sparse();
             })
        .def("step",
             [](Batch& bt, py::array_t<int64_t, py::array::c_style> actions,
                py::array_t<int8_t, py::array::c_style> outcomes) {
                 auto a = actions.unchecked<1>();
                 auto o = outcomes.mutable_unchecked<1>();
                 for (size_t i = 0; i < bt.games.size(); ++i) {
                     bt.play_action(i, a(ssize_t(i)));
                     o(ssize_t(i)) = int8_t(bt.games[i].outcome);
                 }
             })
        // step, then each game's mask row (the kept mask, as legal_sparse keeps it; zeroed
        // first when ``clear``) and observation planes (from the seat to act, seat 0 once
        // over; into the kept buffer as observations(kept=True) writes it), game by game:
        // one game's writes go on while the next game's moves are made. A game that ends
        // sets its row of ``finished`` (outcome, reason; else -1, -1) and, with ``restart``
        // (a Position), starts again from it at once. Returns legal_sparse's (ints, offsets).
        // Every action is looked up in its game's legal list first, and one that is not
        // there (with ``strict``, a live game's -1 too) is refused before any game moves.
        .def("step_observed",
             [](Batch& bt, py::array_t<int64_t, py::array::c_style> actions,
                py::array_t<int8_t, py::array::c_style> mask, bool clear,
                py::array_t<float, py::array::c_style> out, int max_length,
                py::object restart, py::array_t<int64_t, py::array::c_style> finished,
                bool strict) {
                 size_t n = bt.games.size();
                 if (size_t(actions.size()) != n) throw std::invalid_argument("one action per game");
                 if (size_t(out.size()) != n * Batch::PER_GAME)
                     throw std::invalid_argument("out must be float32 of shape (n, 120, 9, 9)");
                 if (finished.ndim() != 2 || size_t(finished.shape(0)) != n || finished.shape(1) != 2)
                     throw std::invalid_argument("finished must be int64 of shape (n, 2)");
                 const Position* start = nullptr;
                 if (!restart.is_none()) start = &restart.cast<PyPosition&>().pos;
                 int8_t* m = bt.mask_of(mask);
                 auto f = finished.mutable_unchecked<2>();
                 for (size_t i = 0; i < n; ++i) f(ssize_t(i), 0) = f(ssize_t(i), 1) = -1;
                 // ``clear`` is the caller's word that the mask is not the one kept last.
                 if (clear) bt.marked_at = nullptr;
                 bt.step_all(actions.data(), m, size_t(mask.shape(1)), clear,
                             out.mutable_data(), max_length, start, strict,
                             [&](size_t i, int outcome, int reason) {
                                 f(ssize_t(i), 0) = outcome;
                                 f(ssize_t(i), 1) = reason;
                             });
                 return bt.sparse();
             },
             py::arg("actions"), py::arg("mask"), py::arg("clear"), py::arg("out"),
             py::arg("max_length"), py::arg("restart"), py::arg("finished"),
             py::arg("strict") = false)
        // VectorEnv's buffers for env_step: the (n, width) int8 mask and the (n, 120, 9, 9)
        // float32 planes it keeps, the encoder's max length and the restart position (None:
        // finished games wait); with a spare pair (both or neither), the steps write the two
        // pairs in turn, the spare first (env_step says which it wrote). Held (referenced)
        // until bound again.
        .def("bind_env",
             [](Batch& bt, py::array_t<int8_t, py::array::c_style> mask,
                py::array_t<float, py::array::c_style> out, int max_length, py::object restart,
                py::object spare_mask, py::object spare_out) {
                 size_t n = bt.games.size();
                 int8_t* m = bt.mask_of(mask);
                 if (size_t(out.size()) != n * Batch::PER_GAME)
                     throw std::invalid_argument("out must be float32 of shape (n, 120, 9, 9)");
                 if (spare_mask.is_none() != spare_out.is_none())
                     throw std::invalid_argument("a spare mask and a spare out, or neither");
                 int8_t* m2 = nullptr;
                 float* o2 = nullptr;
                 py::array_t<int8_t, py::array::c_style> mask2;
                 py::array_t<float, py::array::c_style> out2;
                 if (!spare_mask.is_none()) {
                     mask2 = spare_mask.cast<py::array_t<int8_t, py::array::c_style>>();
                     out2 = spare_out.cast<py::array_t<float, py::array::c_style>>();
                     m2 = bt.mask_of(mask2);
                     if (size_t(out2.size()) != n * Batch::PER_GAME)
                         throw std::invalid_argument(
                             "spare_out must be float32 of shape (n, 120, 9, 9)");
                     if (mask2.shape(1) != mask.shape(1))
                         throw std::invalid_argument("the two masks must have one width");
                     o2 = out2.mutable_data();
                     if (m2 == m || o2 == out.mutable_data())
                         throw std::invalid_argument("the spare pair must be other arrays");
                 }
                 bt.env_start_pos = nullptr;
                 if (!restart.is_none()) bt.env_start_pos = &restart.cast<PyPosition&>().pos;
                 bt.env_start = restart;
                 bt.env_mask = mask;
                 bt.env_out = out;
                 bt.env_spare_mask = mask2;
                 bt.env_spare_out = out2;
                 bt.env_m[0] = m;
                 bt.env_o[0] = out.mutable_data();
                 bt.env_m[1] = m2;
                 bt.env_o[1] = o2;
                 bt.env_pairs = m2 == nullptr ? 1 : 2;
                 bt.env_written = 0;  // the spare is written first
                 bt.env_width = size_t(mask.shape(1));
                 bt.env_max_length = max_length;
                 // What the spare notes described is not known to be these arrays.
                 bt.spare_marked_at = nullptr;
                 bt.spare_observed = nullptr;
             },
             py::arg("mask"), py::arg("out"), py::arg("max_length"), py::arg("restart"),
             py::arg("spare_mask") = py::none(), py::arg("spare_out") = py::none())
        // The first game whose action is not in its legal list (-1 for a live game
        // included; finished games are not looked at), or -1: nothing is played.
        .def("first_illegal",
             [](Batch& bt, py::array_t<int64_t, py::array::c_style> actions) {
                 if (size_t(actions.size()) != bt.games.size())
                     throw std::invalid_argument("one action per game");
                 return bt.first_illegal(actions.data());
             })
        .def("random_actions",
             [](Batch& bt, py::array_t<int64_t, py::array::c_style> out) {
                 auto o = out.mutable_unchecked<1>();
                 for (size_t i = 0; i < bt.games.size(); ++i) {
                     const auto& codes = bt.codes(i);
                     o(ssize_t(i)) = codes.empty() ? -1 : int64_t(codes[bt.rng() % codes.size()] >> 14);
                 }
             })
        .def("status",
             [](Batch& bt, py::array_t<int64_t, py::array::c_style> out) {
                 // per game: current player (-1 terminal), outcome, reason, ply, side to move
                 auto o = out.mutable_unchecked<2>();
                 for (size_t i = 0; i < bt.games.size(); ++i) {
                     const Position& g = bt.games[i];
                     o(ssize_t(i), 0) = g.current_player();
                     o(ssize_t(i), 1) = g.outcome;
                     o(ssize_t(i), 2) = g.reason;
                     o(ssize_t(i), 3) = g.ply;
                     o(ssize_t(i), 4) = g.to_move;
                 }
             })
        .def("state",
             [](Batch& bt, size_t i) {
                 const Position& g = bt.games.at(i);
                 py::list board;
                 for (int sq = 0; sq < 81; ++sq) {
                     py::tuple t(g.h[sq]);
                     for (int k = 0; k < g.h[sq]; ++k) t[size_t(k)] = int(g.b[sq][k]);
                     board.append(t);
                 }
                 py::list hands;
                 for (int c = 0; c < 2; ++c) {
                     py::list hc;
                     for (int k = 0; k < NK; ++k) hc.append(g.hand[c][k]);
                     hands.append(hc);
                 }
                 py::dict d;
                 d["board"] = board;
                 d["hands"] = hands;
                 d["to_move"] = g.to_move;
                 d["setup"] = g.phase == SETUP;
                 d["drafting"] = py::make_tuple(bool(g.drafting[0]), bool(g.drafting[1]));
                 d["ply"] = g.ply;
                 d["move_number"] = g.move_number;
                 d["hash"] = g.hash;
                 d["outcome"] = g.outcome;
                 d["reason"] = g.reason;
                 return d;
             })
        // The GungiEncoder planes (sengoku/interop/encoders.py) of each game, from the seat in
        // ``seats`` (-1: a spectator, White's side), into ``out`` of shape (n, 120, 9, 9).
        // ``kept``: ``out`` holds what the previous call wrote there, unchanged since; only
        // what differs is written (else, or for another buffer, every plane is).
        .def("observations",
             [](Batch& bt, py::array_t<int64_t, py::array::c_style> seats,
                py::array_t<float, py::array::c_style> out, int max_length, bool kept) {
                 auto s = seats.unchecked<1>();
                 float* o = out.mutable_data();
                 size_t n = bt.games.size();
                 if (size_t(out.size()) != n * Batch::PER_GAME)
                     throw std::invalid_argument("out must be float32 of shape (n, 120, 9, 9)");
                 bool whole = bt.follow_observations(o, kept);
                 for (size_t i = 0; i < n; ++i)
                     bt.observe_game(i, int(s(ssize_t(i))), o + i * Batch::PER_GAME, whole, max_length);
             },
             py::arg("seats"), py::arg("out"), py::arg("max_length"), py::arg("kept") = false);
    // The environment's step, as a plain CPython method (see fast_env_step).
    for (PyMethodDef* def = g_batch_fast_methods; def->ml_name != nullptr; ++def) {
        PyObject* method = PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(batch.ptr()), def);
        if (method == nullptr) throw py::error_already_set();
        batch.attr(def->ml_name) = py::reinterpret_steal<py::object>(method);
    }

    // A game for the research adapters (sengoku/games/gungi/native_core.py, native_play).
    py::class_<Match> match(m, "Match");
    match
        .def(py::init<const PyPosition&>(), py::arg("start"))
        .def("clone", [](const Match& x) { return Match(x); })
        .def_property_readonly("current_player",
                               [](const Match& x) { return x.pos.current_player(); })
        .def("is_terminal", [](const Match& x) { return x.pos.outcome >= 0; })
        // (winner, reason) once over (winner 0 or 1, 2 for none; reason as Batch.status
        // gives it), else None.
        .def("result",
             [](const Match& x) -> py::object {
                 if (x.pos.outcome < 0) return py::none();
                 return py::make_tuple(x.pos.outcome, x.pos.reason);
             })
        // Make the match over with (winner, reason), as a finished contract state is.
        .def("end",
             [](Match& x, int outcome, int reason) {
                 if (outcome < 0 || outcome > 2) throw std::invalid_argument("outcome 0, 1 or 2");
                 x.pos.outcome = outcome;
                 x.pos.reason = reason;
                 x.fresh = false;
             })
        .def_property_readonly("played", [](const Match& x) { return x.played; })
        .def_property_readonly("ply", [](const Match& x) { return x.pos.ply; })
        .def_readwrite("origin", &Match::origin)
        // GungiEncoder's planes of the position from ``seat`` (-1: a spectator, who sees from
        // White's side) into ``out`` (C-contiguous float32 of 120 * 9 * 9 floats, every one
        // written), the length plane over ``max_length``.
        .def("encode",
             [](Match& x, int max_length, int seat,
                py::array_t<float, py::array::c_style> out) {
                 if (size_t(out.size()) != PLANES_SIZE)
                     throw std::invalid_argument("out must be float32 of the encoder's size");
                 if (max_length <= 0) throw std::invalid_argument("max_length must be positive");
                 encode_planes(x.pos, seat, max_length, out.mutable_data());
             },
             py::arg("max_length"), py::arg("seat"), py::arg("out"));
    for (PyMethodDef* def = g_match_fast_methods; def->ml_name != nullptr; ++def) {
        PyObject* method = PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(match.ptr()), def);
        if (method == nullptr) throw py::error_already_set();
        match.attr(def->ml_name) = py::reinterpret_steal<py::object>(method);
    }
}
