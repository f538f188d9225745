// Gunkimono's native core: the Python engine's rules (sengoku/games/gunkimono/, the turn's
// flow in state.py) mirrored in C++, on the same integer actions (actions.py:
// Gunkimono.action_to_int) and the same state fields (GunkimonoState.to_json).
//
// Nothing here re-types the game's data: the printed battlefield, its squares' neighbours
// and the places of a large tile, the honor track's rows, the small tiles' symbols, the
// action blocks and the phase names come in from Python (native_core.py builds the Rules
// from data.components() and the rule modules' tables). Each function names the Python
// function it mirrors; tests/gunkimono/test_native_core.py plays both engines side by side
// and compares every legal list and every state (to_json) after every decision.
//
// A Match is one game: load_json(state.to_json()) takes a position (setup's shuffles stay
// in Python: the state stores them), legal_ints() lists its legal action integers in
// ascending order (Gunkimono.legal_action_ints), apply(n) plays one (refusing an illegal
// one, changing nothing), to_json() gives the position back as GunkimonoState.to_json()
// writes it (GunkimonoState.from_json reads it), and encode(seat, out) writes
// GunkimonoEncoder's observation of view(seat), entry for entry (the encoder's layout and
// tables handed in from Python, as the Rules are: an Encoding).
//
// A Batch is n matches stepped together (batch.py's GunkimonoBatch, the batch contract of
// sengoku/core/batch.py): the legal lists as sparse arrays and a kept mask, a step of every
// game checked before any moves, the observations, the outcomes.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../../../native/core_batch.hpp"
#include "../../../native/python_random.hpp"

namespace py = pybind11;

namespace {

// The most squares a battlefield may have here (battlefield.json's is 10 x 8): the board
// arrays are fixed, so a Match is one block of memory (a batch holds many).
constexpr int MAXC = 128;
constexpr int MAXP = 5;       // players (Gunkimono.options["players"])
constexpr int TROOPS = 5;     // troop types = honor-track columns (troops.json)
constexpr int FACE_DOWN = 5;  // battlefield.FACE_DOWN: a support's top
constexpr int END_TILE = 100; // end_of_the_game.END_TILE
constexpr int REMOVED = -1;   // honor_track.REMOVED
constexpr int ROW_SIZE = 3;   // refill_your_hand.ROW_SIZE

// A set of squares, one bit a square (MAXC bits).
using Bits = unsigned __int128;
static_assert(MAXC <= 128, "a set of squares is 128 bits");
inline Bits bit(int c) { return Bits(1) << c; }
// The lowest square of a set that is not empty.
inline int lowest(Bits x) {
    uint64_t lo = uint64_t(x);
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(uint64_t(x >> 64));
}

// turn_sequence.Phase, in PHASES' order (checked when the Rules are made).
enum Phase { PLACE = 0, SUPPORT, SCORE, STRONGHOLD, DRAW, OVER, NUM_PHASES };
const char* const PHASE_NAMES[NUM_PHASES] = {"place", "support", "score",
                                             "stronghold", "draw", "over"};
// turn_record.KINDS.
enum RecordKind { R_VP = 0, R_HONOR, R_STRONGHOLDS, R_STRONGHOLD_BUILT, R_BANNER };

// Everything about a match that does not change while it is played: the components, the
// options, the action blocks.
struct Rules {
    int width = 0, height = 0, cells = 0, players = 0;
    std::vector<int> printed;
    // NEIGHBOURS (battlefield.py), in its order.
    std::vector<std::array<int, 4>> nb;
    std::vector<int> nb_count;
    // PAIRS (battlefield.py): each place of a large tile, in action-number order.
    std::vector<int> pair_a, pair_b;
    // The same places as sets: the top or left square of each horizontal place, and of
    // each vertical one.
    Bits h_pairs = 0, v_pairs = 0;
    int ending_row = 0;
    int stronghold_row[2]{};
    int small_symbols = 0;
    // Setting Up the Game (setup.py, data.components()): the large tiles in the data's
    // order, how many are removed unseen, the end-game stack's tiles, the row's and a hand's
    // size, and each banner kind's values (top of a stack first) if this player count uses it.
    std::vector<int> large_tiles;
    int removed_tiles = 0, end_stack_tiles = 0, row_tiles = 0, hand_tiles = 0;
    std::vector<std::vector<int>> banner_values;
    std::vector<bool> banner_used;
    // The spec's rulings (Gunkimono.options).
    bool own_double_stronghold = false;
    bool empty_banner_stay = false;  // empty_banner_stack == "stay"
    bool removed_marker_counts = true;
    bool end_tile_replacement = true;
    bool link_own_formations = true;
    int length_limit = 1000;
    // actions.py's blocks.
    int small_base = 0, support_base = 0, score_base = 0, stronghold_base = 0, draw_base = 0,
        num_actions = 0;
    // The options as the state's JSON holds them (given back by to_json).
    py::object options;
};

struct Pending {  // turn_sequence.PendingScore
    int cell, troop, symbols, vp;
    bool vp_allowed;
};

struct Scored {  // a turn_record scoring
    int kind, troop, square, points;
};

struct Banner {  // war_banners: [kind, value] on a stack, [kind, value, column] claimed
    int kind, value, column;
};

// A small deterministic generator for playouts (benchmarks), not Python's.
struct SplitMix {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int below(int n) { return int(next() % uint64_t(n)); }
};

// What GunkimonoState.to_json names "ended": an ending made by core (a concession, a timeout,
// the length limit), as Outcome.to_json().
struct Ended {
    bool set = false;
    std::string reason;
    std::vector<int> winners;
    std::vector<double> scores, returns;
};

class Match {
  public:
    explicit Match(std::shared_ptr<const Rules> rules) : R(std::move(rules)) {
        n = R->players;
        fresh();
    }

    // ------------------------------------------------------------------ state
    std::shared_ptr<const Rules> R;
    int n = 0;
    // placement.Battlefield
    std::array<int8_t, MAXC> top{}, sym{}, level{};
    std::vector<int> placed;
    std::vector<std::array<int, 3>> placed_small;
    // strongholds.Strongholds
    std::array<int8_t, MAXC> sh{};
    std::vector<int> strongholds[MAXP];
    std::vector<std::array<int, 2>> built_at;
    // refill_your_hand.Supply
    std::vector<int> hands[MAXP], known[MAXP], reserve[MAXP];
    std::vector<int> row, stack, removed;
    // victory_points.VictoryPointTrack, honor_track.HonorTrack
    int score[MAXP]{}, vp_strongholds[MAXP]{};
    int honor[MAXP][TROOPS]{};
    // war_banners.WarBanners
    std::vector<Banner> banner_stacks[TROOPS];
    std::vector<Banner> banners[MAXP];
    // scoring.Scoring
    std::vector<Pending> pending;
    // turn_sequence.TurnSequence
    int turn = 0, turns = 0, phase = PLACE, support_cell = -1, passes = 0, decisions = 0;
    bool placed_large = false;
    // end_of_the_game.Ending
    std::vector<int> end_stack;
    bool end_stack_in_play = false, end_triggered = false;
    std::string reason;  // empty: None
    Ended ended;
    // turn_record.TurnRecord
    int record_seat = -1;
    std::vector<int> record_squares;
    std::vector<Scored> record_scores;

    // ------------------------------------------------------------------ caches
    // formations.Formations of the board as it is (valid until top or sh changes): each
    // square's formation (its lowest square), each formation's size, and for a formation
    // holding strongholds its lowest stronghold square, their owner (-2: several) and how
    // many it holds; whether some formation holds two or more (``held_twice``).
    bool formations_valid = false;
    std::array<uint8_t, MAXC> comp{}, fsize{};
    std::array<int8_t, MAXC> held_first{}, held_owner{}, held_n{};
    int held_count = 0;
    bool held_twice = false;
    bool linkable_valid = false;
    std::array<bool, MAXC> linkable{};
    // The legal list of the position (valid until the next decision).
    bool legal_valid = false;
    std::vector<int> legal;

    void fresh() {
        // GunkimonoState.__init__ before setup (load_json fills every field).
        for (int c = 0; c < R->cells; ++c) {
            top[c] = int8_t(R->printed[c]);
            sym[c] = level[c] = 0;
            sh[c] = -1;
        }
        touched();
    }

    // GunkimonoState.setup: a new game as GunkimonoState.__init__ makes it, dealt as
    // setup.set_up deals it from random.Random(seed) (``key``: the seed's 32-bit words, as
    // CPython seeds its generator with them), and the first turn begun.
    void deal(const std::vector<uint32_t>& key) {
        const Rules& r = *R;
        sengoku::PythonRandom rng(key);
        // GunkimonoState.__init__: the printed battlefield, nothing dealt yet.
        fresh();
        placed.clear();
        placed_small.clear();
        built_at.clear();
        for (int s = 0; s < n; ++s) {
            strongholds[s].clear();
            hands[s].clear();
            known[s].clear();
            reserve[s] = {0, 1, 2, 3, 4};
            score[s] = vp_strongholds[s] = 0;
            for (int t = 0; t < TROOPS; ++t) honor[s][t] = 0;
            banners[s].clear();
        }
        for (auto& pile : banner_stacks) pile.clear();
        pending.clear();
        turn = turns = passes = decisions = 0;
        phase = PLACE;
        support_cell = -1;
        placed_large = false;
        end_stack_in_play = end_triggered = false;
        reason.clear();
        ended = Ended();
        record_seat = -1;
        record_squares.clear();
        record_scores.clear();
        // setup.set_up
        std::vector<int> tiles = r.large_tiles;
        rng.shuffle(tiles);
        removed.assign(tiles.begin(), tiles.begin() + r.removed_tiles);
        std::sort(removed.begin(), removed.end());
        tiles.erase(tiles.begin(), tiles.begin() + r.removed_tiles);
        end_stack.assign(tiles.end() - r.end_stack_tiles, tiles.end());
        end_stack.push_back(END_TILE);
        tiles.resize(tiles.size() - size_t(r.end_stack_tiles));
        rng.shuffle(end_stack);
        stack = std::move(tiles);
        row.clear();
        for (int i = 0; i < r.row_tiles; ++i) {
            row.push_back(stack.back());
            stack.pop_back();
        }
        for (int s = 0; s < n; ++s)
            for (int i = 0; i < r.hand_tiles; ++i) {
                hands[s].push_back(stack.back());
                stack.pop_back();
            }
        for (int kind = int(r.banner_values.size()); kind-- > 0;) {
            if (!r.banner_used[size_t(kind)]) continue;
            std::vector<int> values = r.banner_values[size_t(kind)];
            rng.shuffle(values);
            for (int col = 0; col < TROOPS; ++col)
                banner_stacks[col].push_back({kind, values[size_t(col)], col});
        }
        touched();
        start_turn();
    }

    // The board changed: its formations and legal list are worked out again when asked.
    void touched() {
        formations_valid = false;
        linkable_valid = false;
        legal_valid = false;
    }

    // ------------------------------------------------------------------ formations.py
    void ensure_formations() {
        if (formations_valid) return;
        const int cells = R->cells;
        int todo[MAXC];
        for (int c = 0; c < cells; ++c) comp[c] = 0xFF;
        for (int start = 0; start < cells; ++start) {
            if (comp[start] != 0xFF) continue;
            int t = top[start];
            comp[start] = uint8_t(start);
            int sp = 0, count = 1;
            todo[sp++] = start;
            while (sp) {
                int c = todo[--sp];
                for (int k = 0; k < R->nb_count[c]; ++k) {
                    int x = R->nb[c][k];
                    if (comp[x] == 0xFF && top[x] == t) {
                        comp[x] = uint8_t(start);
                        todo[sp++] = x;
                        ++count;
                    }
                }
            }
            fsize[start] = uint8_t(count);
        }
        held_count = 0;
        held_twice = false;
        for (int c = 0; c < cells; ++c) {
            held_first[c] = -1;
            held_n[c] = 0;
        }
        for (int c = 0; c < cells; ++c) {
            if (sh[c] < 0) continue;
            int g = comp[c];
            if (held_first[g] < 0) {
                held_first[g] = int8_t(c);
                held_owner[g] = sh[c];
                held_n[g] = 1;
                ++held_count;
            } else {
                if (held_owner[g] != sh[c]) held_owner[g] = -2;
                ++held_n[g];
                held_twice = true;
            }
        }
        formations_valid = true;
        linkable_valid = false;
    }

    // formations.formation: the squares of the formation on ``cell`` with ``a`` and ``b``
    // showing ``ta`` and ``tb`` (the board itself otherwise unchanged), into ``out``; its size.
    int formation_with(int cell, int a, int ta, int b, int tb, int* out) {
        int8_t old_a = top[a], old_b = top[b];
        top[a] = int8_t(ta);
        top[b] = int8_t(tb);
        const int cells = R->cells;
        bool seen[MAXC];
        for (int c = 0; c < cells; ++c) seen[c] = false;
        int t = top[cell];
        int count = 0, sp = 0;
        int todo[MAXC];
        seen[cell] = true;
        todo[sp++] = cell;
        out[count++] = cell;
        while (sp) {
            int c = todo[--sp];
            for (int k = 0; k < R->nb_count[c]; ++k) {
                int x = R->nb[c][k];
                if (!seen[x] && top[x] == t) {
                    seen[x] = true;
                    todo[sp++] = x;
                    out[count++] = x;
                }
            }
        }
        top[a] = old_a;
        top[b] = old_b;
        return count;
    }

    int formation_size(int cell) {
        ensure_formations();
        return fsize[comp[cell]];
    }

    // ------------------------------------------------------------------ strongholds.py
    int built_total() const {
        int built = 0;
        for (int s = 0; s < n; ++s) built += int(strongholds[s].size());
        return built;
    }

    // placement._rule_4_board: may Stronghold rule 4 refuse a placement now?
    bool rule_4_applies() {
        if (built_total() < 2) return false;  // strongholds.may_link
        ensure_formations();
        return held_count >= 2;
    }

    // Does square ``x`` touch two different controlled formations through its neighbours
    // (those other than ``a`` and ``b`` that show troop ``t``; t < 0: any neighbour)?
    bool touches_two_held(int x, int a, int b, int t) const {
        int first = -1;
        for (int j = 0; j < R->nb_count[x]; ++j) {
            int y = R->nb[x][j];
            if (y == a || y == b || (t >= 0 && top[y] != t)) continue;
            int g = comp[y];
            if (held_first[g] < 0) continue;
            if (first < 0)
                first = g;
            else if (g != first)
                return true;
        }
        return false;
    }

    // strongholds.links_controlled (with the formations of the board; rule 4 applies).
    bool links_controlled(int a, int ta, int b, int tb) {
        if (held_count < 2) return false;
        int squares[MAXC];
        for (int k = 0; k < 2; ++k) {
            int x = k == 0 ? a : b;
            int t = k == 0 ? ta : tb;
            if (!touches_two_held(x, a, b, t)) continue;
            // Possibly linking: the formation as it would be after the placement.
            int size = formation_with(x, a, ta, b, tb, squares);
            int groups[MAXC];
            int ngroups = 0;
            for (int i = 0; i < size; ++i) {
                int c = squares[i];
                if (sh[c] < 0) continue;
                int g = comp[c];
                bool known_group = false;
                for (int j = 0; j < ngroups; ++j) known_group = known_group || groups[j] == g;
                if (!known_group) groups[ngroups++] = g;
            }
            if (ngroups < 2) continue;
            if (!R->link_own_formations) return true;
            int owner = sh[held_first[groups[0]]];
            for (int j = 1; j < ngroups; ++j)
                if (sh[held_first[groups[j]]] != owner) return true;
        }
        return false;
    }

    // placement._linkable: the squares next to two different controlled formations (only
    // there can rule 4 refuse a troop).
    void ensure_linkable() {
        if (linkable_valid) return;
        ensure_formations();
        for (int c = 0; c < R->cells; ++c) linkable[c] = touches_two_held(c, -1, -1, -1);
        linkable_valid = true;
    }

    // strongholds.stronghold_due
    bool stronghold_due(int seat) const {
        int built = int(strongholds[seat].size());
        if (built >= 2) return false;
        int row_needed = R->stronghold_row[built];
        for (int t = 0; t < TROOPS; ++t) {
            int r = honor[seat][t];
            bool ok = (r == REMOVED && R->removed_marker_counts) ||
                      (r != REMOVED && r >= row_needed);
            if (!ok) return false;
        }
        return true;
    }

    // strongholds.stronghold_cells (ascending).
    void stronghold_cells(int seat, std::vector<int>& out) {
        ensure_formations();
        for (int c = 0; c < R->cells; ++c) {
            if (sh[c] >= 0 || top[c] == FACE_DOWN) continue;
            int g = comp[c];
            if (held_first[g] >= 0 && !(R->own_double_stronghold && held_owner[g] == seat))
                continue;
            out.push_back(c);
        }
    }

    bool any_stronghold_cell(int seat) {
        std::vector<int> cells;
        stronghold_cells(seat, cells);
        return !cells.empty();
    }

    // strongholds.built: the stronghold due is built (one a turn), or none can be.
    bool built_now() {
        if (!built_at.empty() && built_at.back()[0] == turn && built_at.back()[1] == turns)
            return true;
        return !any_stronghold_cell(turn);
    }

    // strongholds.build
    void build(int cell) {
        int seat = turn;
        strongholds[seat].push_back(cell);
        sh[cell] = int8_t(seat);
        touched();
        built_at.push_back({seat, turns});
        int size = formation_size(cell);
        record_scores.push_back({R_STRONGHOLD_BUILT, top[cell], cell, size});
    }

    // strongholds.assess (step 3)
    void assess() {
        int seat = turn;
        if (strongholds[seat].empty()) return;
        int total = 0;
        for (int c : strongholds[seat]) total += formation_size(c);
        score[seat] += total;  // victory_points.gain, by strongholds
        vp_strongholds[seat] += total;
        record_scores.push_back({R_STRONGHOLDS, -1, -1, total});
    }

    // strongholds.controlled_troops (the end's tie-break).
    int controlled_troops(int seat) {
        ensure_formations();
        int seen[MAXC];
        int nseen = 0, total = 0;
        for (int c : strongholds[seat]) {
            int g = comp[c];
            bool dup = false;
            for (int j = 0; j < nseen; ++j) dup = dup || seen[j] == g;
            if (dup) continue;
            seen[nseen++] = g;
            total += fsize[g];
        }
        return total;
    }

    // ------------------------------------------------------------------ legal actions
    // placement.place_actions / large_placements: step 1's legal actions in ascending order
    // (over the support square only, when ``support`` >= 0: then large tiles alone).
    //
    // As placement.py's scan, worked out on sets of squares (one bit a square): the places
    // free for a large tile (no stronghold, one level: Stronghold rule 1, the Level
    // Difference rule), each as the bit of its top or left square, horizontal and vertical
    // apart; each tile side then keeps those whose squares do not show its own troops (the
    // Troop Duplication rule) in a few word operations, and rule 4 is asked only of the
    // places next to two controlled formations.
    void place_actions(int support, std::vector<int>& out) {
        const Rules& r = *R;
        const int cells = r.cells, width = r.width;
        const int npairs = int(r.pair_a.size());
        const int seat = turn;
        bool rule4 = rule_4_applies();
        if (rule4) ensure_linkable();
        // The hand's tile sides, sorted by key c1 * 10 + c2: (key, t1, c1, t2, c2).
        std::array<int, 5> kinds[2 * 100];
        int nkinds = 0;
        bool mixed = false;
        {
            bool seen_code[100] = {};
            for (int code : hands[seat]) {
                if (code < 0 || code >= 100 || seen_code[code]) continue;
                seen_code[code] = true;
                int c1 = code / 10, c2 = code % 10;
                kinds[nkinds++] = {c1 * 10 + c2, c1 / 2, c1, c2 / 2, c2};
                kinds[nkinds++] = {c2 * 10 + c1, c2 / 2, c2, c1 / 2, c1};
                mixed = mixed || c1 / 2 != c2 / 2;
            }
            std::sort(kinds, kinds + nkinds);
        }
        // The board as sets: free squares, each troop's squares, the places at one level
        // and those one level apart (the lower square the top or left one: ``up``; the
        // other: ``down``).
        Bits free = 0, is_top[FACE_DOWN + 1] = {}, linked = 0;
        Bits eq_h = 0, eq_v = 0, up_h = 0, up_v = 0, down_h = 0, down_v = 0;
        for (int c = 0; c < cells; ++c) {
            Bits b = bit(c);
            if (sh[c] < 0) free |= b;
            is_top[top[c]] |= b;
            if (rule4 && linkable[c]) linked |= b;
            if (r.h_pairs & b) {
                int d = level[c + 1] - level[c];
                if (d == 0) eq_h |= b;
                else if (d == 1) up_h |= b;
                else if (d == -1) down_h |= b;
            }
            if (r.v_pairs & b) {
                int d = level[c + width] - level[c];
                if (d == 0) eq_v |= b;
                else if (d == 1) up_v |= b;
                else if (d == -1) down_v |= b;
            }
        }
        const Bits free_h = r.h_pairs & free & (free >> 1);
        const Bits free_v = r.v_pairs & free & (free >> width);
        Bits ok_h = free_h & eq_h, ok_v = free_v & eq_v;
        if (support >= 0) {  // only the places over the support
            Bits over = bit(support);
            ok_h &= over | (support >= 1 ? bit(support - 1) : Bits(0));
            ok_v &= over | (support >= width ? bit(support - width) : Bits(0));
        }
        const Bits risky_h = linked | (linked >> 1), risky_v = linked | (linked >> width);
        for (int k = 0; k < nkinds; ++k) {
            const auto& kind = kinds[k];
            int t1 = kind[1], t2 = kind[3];
            int base = kind[0] * cells;
            Bits h = ok_h & ~is_top[t1] & ~(is_top[t2] >> 1);
            Bits v = ok_v & ~is_top[t1] & ~(is_top[t2] >> width);
            if (rule4) {
                for (Bits x = h & risky_h; x; x &= x - 1) {
                    int a = lowest(x);
                    if (links_controlled(a, t1, a + 1, t2)) h &= ~bit(a);
                }
                for (Bits x = v & risky_v; x; x &= x - 1) {
                    int a = lowest(x);
                    if (links_controlled(a, t1, a + width, t2)) v &= ~bit(a);
                }
            }
            for (Bits x = h | v; x; x &= x - 1) {
                int a = lowest(x);
                Bits b = bit(a);
                if (h & b) out.push_back((base + a) * 2);
                if (v & b) out.push_back((base + a) * 2 + 1);
            }
        }
        if (support >= 0) return;
        int res[TROOPS];
        int nres = 0;
        for (int t : reserve[seat])
            if (t >= 0 && t < TROOPS && nres < TROOPS) res[nres++] = t;
        if (nres == 0) return;
        for (int j = 1; j < nres; ++j)  // sorted (a handful: an insertion)
            for (int i = j; i > 0 && res[i - 1] > res[i]; --i) std::swap(res[i - 1], res[i]);
        for (int j = 0; j < nres; ++j) {
            int t = res[j];
            Bits allowed = free & ~is_top[t];
            if (rule4) {
                for (Bits x = allowed & linked; x; x &= x - 1) {
                    int c = lowest(x);
                    if (links_controlled(c, t, c, t)) allowed &= ~bit(c);
                }
            }
            for (Bits x = allowed; x; x &= x - 1)
                out.push_back(r.small_base + t * cells + lowest(x));
        }
        // Supports (placement._supports, extra_support.support_cells): the lower square of
        // a place whose squares differ by one level takes one when a tile side of the hand
        // may then lie there.
        if (nkinds == 0) return;
        Bits found = 0;
        if (!rule4 && mixed) {
            // A tile of two troop types, turned either way, puts either on the upper square:
            // one of them differs from the troop there, so every such lower square takes one.
            found = (free_h & up_h) | ((free_h & down_h) << 1) | (free_v & up_v) |
                    ((free_v & down_v) << width);
        } else {
            for (int i = 0; i < npairs; ++i) {
                int a = r.pair_a[i], b = r.pair_b[i];
                if (sh[a] >= 0 || sh[b] >= 0) continue;
                int x;
                if (level[b] == level[a] + 1)
                    x = a;
                else if (level[a] == level[b] + 1)
                    x = b;
                else
                    continue;
                if (found & bit(x)) continue;
                int y = a + b - x;
                for (int k = 0; k < nkinds; ++k) {
                    int tx = kinds[k][1], ty = kinds[k][3];
                    if (ty == top[y]) continue;
                    if (rule4 && links_controlled(x, tx, y, ty)) continue;
                    found |= bit(x);
                    break;
                }
            }
        }
        // extra_support.still_covered: judged again on the board after the support where it
        // splits a formation holding two strongholds or more (only there may rule 4 judge it
        // otherwise than on the board now).
        if (found && built_total() >= 2) {
            ensure_formations();
            if (held_twice)
                for (Bits x = found; x; x &= x - 1) {
                    int c = lowest(x);
                    if (held_n[comp[c]] >= 2 && !coverable_after_support(c, kinds, nkinds))
                        found &= ~bit(c);
                }
        }
        if (!found) return;
        for (int j = 0; j < nres; ++j)
            for (Bits x = found; x; x &= x - 1)
                out.push_back(r.support_base + res[j] * cells + lowest(x));
    }

    // extra_support._coverable_after: may a tile side of the hand (``kinds``) cover a support
    // on ``x`` once it lies there: its first troop on ``x``, its other on a neighbour one
    // level up with no stronghold and not that troop's own type, and Stronghold rule 4 judged
    // with the formations of the board after the support (worked out here, then the
    // formations of the board as it is put back).
    bool coverable_after_support(int x, const std::array<int, 5>* kinds, int nkinds) {
        ensure_formations();
        const auto saved_comp = comp, saved_fsize = fsize;
        const auto saved_first = held_first, saved_owner = held_owner, saved_n = held_n;
        const int saved_count = held_count;
        const bool saved_twice = held_twice, saved_linkable_valid = linkable_valid;
        const int8_t old_top = top[x];
        top[x] = FACE_DOWN;
        formations_valid = false;
        ensure_formations();
        // links_controlled sets the troops on x and its neighbour itself: x's top now is
        // not read.
        top[x] = old_top;
        bool ok = false;
        for (int j = 0; j < R->nb_count[x] && !ok; ++j) {
            int y = R->nb[x][j];
            if (sh[y] >= 0 || level[y] != level[x] + 1) continue;
            for (int k = 0; k < nkinds; ++k) {
                int tx = kinds[k][1], ty = kinds[k][3];
                if (ty == top[y] || links_controlled(x, tx, y, ty)) continue;
                ok = true;
                break;
            }
        }
        comp = saved_comp;
        fsize = saved_fsize;
        held_first = saved_first;
        held_owner = saved_owner;
        held_n = saved_n;
        held_count = saved_count;
        held_twice = saved_twice;
        linkable_valid = saved_linkable_valid;
        formations_valid = true;
        return ok;
    }

    // honor_track.can_honor
    bool can_honor(int seat, int troop) const {
        int row_now = honor[seat][troop];
        return row_now != REMOVED && row_now < R->ending_row;
    }

    void make_legal() {
        legal.clear();
        const Rules& r = *R;
        switch (phase) {
            case PLACE:
                place_actions(-1, legal);
                break;
            case SUPPORT:
                place_actions(support_cell, legal);
                break;
            case SCORE: {  // scoring.legal_scores
                if (pending.empty()) break;
                const Pending& p = pending.front();
                if (p.vp_allowed) legal.push_back(r.score_base + p.troop * r.cells + p.cell);
                if (can_honor(turn, p.troop))
                    legal.push_back(r.score_base + (TROOPS + p.troop) * r.cells + p.cell);
                break;
            }
            case STRONGHOLD: {  // strongholds.legal_builds
                std::vector<int> cells;
                stronghold_cells(turn, cells);
                for (int c : cells) legal.push_back(r.stronghold_base + c);
                break;
            }
            case DRAW: {  // refill_your_hand.legal_draws
                if (!stack.empty()) legal.push_back(r.draw_base);
                std::vector<int> tiles = row;
                std::sort(tiles.begin(), tiles.end());
                tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
                for (int t : tiles) legal.push_back(r.draw_base + 1 + t);
                break;
            }
            default:
                break;
        }
        // Every generator above makes its list in ascending order (the row's tiles and the
        // reserve are sorted first), as the flow's generators make theirs (FLOW.legal).
        legal_valid = true;
    }

    const std::vector<int>& legal_ints() {
        if (!legal_valid) make_legal();
        return legal;
    }

    bool is_legal(int action) {
        const auto& l = legal_ints();
        return std::binary_search(l.begin(), l.end(), action);
    }

    // ------------------------------------------------------------------ the rules' effects
    void record_begin() {  // turn_record.begin
        record_seat = turn;
        record_squares.clear();
        record_scores.clear();
    }

    static void remove_first(std::vector<int>& v, int value) {
        auto it = std::find(v.begin(), v.end(), value);
        if (it != v.end()) v.erase(it);
    }

    // scoring.queue_scoring
    void queue_scoring(const int* cells, int count) {
        passes = 0;
        ensure_formations();
        pending.clear();
        for (int i = 0; i < count; ++i) {
            int c = cells[i];
            int g = comp[c];
            pending.push_back({c, top[c], sym[c], fsize[g], held_first[g] < 0});
        }
    }

    // placement.place_large
    void place_large(int first, int a, int second, int b) {
        int seat = turn;
        if (support_cell < 0) record_begin();
        record_squares.push_back(a);
        record_squares.push_back(b);
        int tile = first <= second ? first * 10 + second : second * 10 + first;
        remove_first(hands[seat], tile);  // refill_your_hand.play_from_hand
        remove_first(known[seat], tile);
        placed.push_back(tile);
        top[a] = int8_t(first / 2);
        sym[a] = int8_t(first % 2 + 1);
        ++level[a];
        top[b] = int8_t(second / 2);
        sym[b] = int8_t(second % 2 + 1);
        ++level[b];
        touched();
        placed_large = true;
        support_cell = -1;
        int cells[2] = {a, b};
        queue_scoring(cells, 2);
    }

    // placement.place_small (face up), extra_support.place_support (face down)
    void place_small(int troop, int cell, bool support) {
        int seat = turn;
        record_begin();
        record_squares.push_back(cell);
        remove_first(reserve[seat], troop);  // refill_your_hand.play_from_reserve
        ++level[cell];
        placed_small.push_back({seat, troop, support ? 0 : 1});
        touched();
        if (support) {
            top[cell] = FACE_DOWN;
            sym[cell] = 0;
            support_cell = cell;
            return;
        }
        top[cell] = int8_t(troop);
        sym[cell] = int8_t(R->small_symbols);
        placed_large = false;
        queue_scoring(&cell, 1);
    }

    // war_banners.reach_ending_row: true if the marker leaves the track.
    bool reach_ending_row(int seat, int troop) {
        auto& pile = banner_stacks[troop];
        if (!pile.empty()) {
            Banner top_banner = pile.back();
            pile.pop_back();
            banners[seat].push_back({top_banner.kind, top_banner.value, troop});
            record_scores.push_back({R_BANNER, troop, -1, top_banner.kind});
            return true;
        }
        return !R->empty_banner_stay;
    }

    // honor_track.advance_honor
    void advance_honor(int seat, int troop, int points) {
        int end = R->ending_row;
        int row_now = std::min(honor[seat][troop] + points, end);
        honor[seat][troop] = row_now;
        if (row_now >= end && reach_ending_row(seat, troop)) honor[seat][troop] = REMOVED;
    }

    // scoring.skip_unscorable
    void skip_unscorable() {
        while (!pending.empty()) {
            const Pending& p = pending.front();
            if (p.vp_allowed || can_honor(turn, p.troop)) return;
            pending.erase(pending.begin());
        }
    }

    // scoring.score
    void score_troop(bool for_honor) {
        int seat = turn;
        Pending p = pending.front();
        pending.erase(pending.begin());
        if (!for_honor) {
            score[seat] += p.vp;  // victory_points.gain
            record_scores.push_back({R_VP, p.troop, p.cell, p.vp});
        } else {
            record_scores.push_back({R_HONOR, p.troop, p.cell, p.symbols});
            advance_honor(seat, p.troop, p.symbols);
        }
        skip_unscorable();
    }

    // end_of_the_game.bring_end_stack via refill_your_hand.open_end_stack
    void open_end_stack() {
        end_stack_in_play = true;
        stack = end_stack;
        end_stack.clear();
    }

    // refill_your_hand.pop_stack: -1 when the stack is empty.
    int pop_stack() {
        if (stack.empty()) return -1;
        int tile = stack.back();
        stack.pop_back();
        if (stack.empty() && !end_stack_in_play) open_end_stack();
        return tile;
    }

    // end_of_the_game.trigger_end
    void trigger_end() { end_triggered = true; }

    // refill_your_hand.refill_row
    void refill_row() {
        while (int(row.size()) < ROW_SIZE) {
            int tile = pop_stack();
            if (tile < 0) return;
            if (tile == END_TILE) {
                trigger_end();
                if (!R->end_tile_replacement) return;
                continue;
            }
            row.push_back(tile);
        }
    }

    // refill_your_hand.draw (and the flow's _draw: no second draw this turn)
    void draw(int tile) {
        int seat = turn;
        if (tile < 0) {
            int got = pop_stack();
            while (got == END_TILE) {
                trigger_end();
                got = R->end_tile_replacement ? pop_stack() : -1;
            }
            if (got >= 0) hands[seat].push_back(got);
        } else {
            remove_first(row, tile);
            hands[seat].push_back(tile);
            known[seat].push_back(tile);
            refill_row();
        }
        placed_large = false;
    }

    // ------------------------------------------------------------------ the turn (state.py)
    // extra_support.awaits_large
    bool awaits_large() const { return support_cell >= 0 && top[support_cell] == FACE_DOWN; }

    // refill_your_hand.draw_due
    bool draw_due() const { return placed_large && (!stack.empty() || !row.empty()); }

    // end_of_the_game.game_ends_now: the reason, or nullptr.
    const char* game_ends_now() const {
        if (end_triggered && turn == n - 1) return "end_of_game";
        if (passes >= n) return "no_placement";
        return nullptr;
    }

    // GunkimonoState._start_turn: false if the seat passed.
    bool start_turn() {
        phase = PLACE;
        legal_valid = false;
        make_legal();  // placement.can_place: the list is the position's, kept
        if (!legal.empty()) return true;
        ++passes;
        record_begin();
        assess();
        return false;
    }

    // GunkimonoState.end_turn
    void end_turn() {
        while (true) {
            ++turns;
            pending.clear();  // scoring.turn_over
            placed_large = false;
            const char* why = game_ends_now();
            if (why != nullptr) {
                phase = OVER;  // end_of_the_game.finish
                reason = why;
                legal_valid = false;
                return;
            }
            turn = (turn + 1) % n;
            if (start_turn()) return;
        }
    }

    // The flow's table (state.py FLOW): is the phase over, which follows, how it begins.
    bool phase_end(int p) {
        switch (p) {
            case PLACE:
                return !pending.empty() || awaits_large();  // _placed
            case SUPPORT:
                return !awaits_large();  // _covered
            case SCORE:
                return pending.empty();  // scoring.scored
            case STRONGHOLD:
                return built_now();
            case DRAW:
                return !draw_due();  // _drawn
            default:
                return false;
        }
    }

    int phase_next(int p) {
        switch (p) {
            case PLACE:
                return awaits_large() ? SUPPORT : SCORE;  // _after_placing
            case SUPPORT:
                return SCORE;
            case SCORE:
                return stronghold_due(turn) ? STRONGHOLD : DRAW;  // _after_scoring
            case STRONGHOLD:
                return DRAW;
            default:
                return PLACE;
        }
    }

    void phase_begin(int p) {
        switch (p) {
            case PLACE:
                end_turn();
                break;
            case SCORE:
                skip_unscorable();
                break;
            case DRAW:
                assess();  // step 3
                break;
            default:  // STRONGHOLD: begin_building only tells; SUPPORT: nothing
                break;
        }
    }

    // Flow.apply's template for this table: play a legal action, then move through the
    // phases that end, then the length guard. False (nothing changed) when not legal.
    bool apply(int action) {
        if (phase == OVER || !is_legal(action)) return false;
        play(action);
        return true;
    }

    // The phase's do (the decision counted first: GunkimonoState.decide).
    void play(int action) {
        const Rules& r = *R;
        ++decisions;
        legal_valid = false;
        int p = phase;
        switch (p) {
            case PLACE:
            case SUPPORT:
                if (action < r.small_base) {
                    int rest = action / 2, vertical = action % 2;
                    int pair = rest / r.cells, a = rest % r.cells;
                    int first = pair / 10, second = pair % 10;
                    place_large(first, a, second, a + (vertical ? r.width : 1));
                } else if (action < r.support_base) {
                    int k = action - r.small_base;
                    place_small(k / r.cells, k % r.cells, false);
                } else {
                    int k = action - r.support_base;
                    place_small(k / r.cells, k % r.cells, true);
                }
                break;
            case SCORE:
                score_troop((action - r.score_base) / r.cells >= TROOPS);
                break;
            case STRONGHOLD:
                build(action - r.stronghold_base);
                break;
            case DRAW:
                draw(action == r.draw_base ? -1 : action - r.draw_base - 1);
                break;
            default:
                break;
        }
        int moves = 0;
        while (phase != OVER && phase_end(p)) {
            if (++moves > NUM_PHASES) throw std::runtime_error("gunkimono core: the flow loops");
            p = phase_next(p);
            phase = p;
            phase_begin(p);
        }
        // State._end_if_too_long: past the limit the game ends with no winner.
        if (decisions >= r.length_limit && phase != OVER) {
            phase = OVER;
            reason = "length_limit";
            ended.set = true;
            ended.reason = "length_limit";
            ended.winners.clear();
            ended.scores.assign(score, score + n);
            ended.returns.assign(n, 0.0);
        }
        legal_valid = false;
    }

    // ------------------------------------------------------------------ the end
    std::vector<int> final_scores() const {  // end_of_the_game.final_scores
        std::vector<int> out(n);
        for (int s = 0; s < n; ++s) {
            int total = score[s];
            for (const Banner& b : banners[s]) total += b.value;
            out[s] = total;
        }
        return out;
    }

    // GunkimonoState.outcome: (reason, winners, scores, returns); only once the game is over.
    Ended outcome() {
        if (ended.set) return ended;
        Ended o;
        o.set = true;
        o.reason = reason.empty() ? "end_of_game" : reason;
        std::vector<int> finals = final_scores();
        std::vector<int> tb(n), ranks(n);
        for (int s = 0; s < n; ++s) tb[s] = controlled_troops(s);
        for (int s = 0; s < n; ++s) {
            int rank = 0;
            for (int x = 0; x < n; ++x)
                if (finals[x] > finals[s] || (finals[x] == finals[s] && tb[x] > tb[s])) ++rank;
            ranks[s] = rank;
        }
        // Outcome.ranked
        std::vector<int> order(n);
        for (int s = 0; s < n; ++s) order[s] = s;
        std::stable_sort(order.begin(), order.end(),
                         [&](int x, int y) { return ranks[x] < ranks[y]; });
        std::vector<double> slot(n);
        for (int i = 0; i < n; ++i) slot[i] = n > 1 ? 1.0 - 2.0 * i / (n - 1) : 0.0;
        o.returns.assign(n, 0.0);
        for (int i = 0; i < n;) {
            int j = i;
            while (j + 1 < n && ranks[order[j + 1]] == ranks[order[i]]) ++j;
            double sum = 0.0;
            for (int k = i; k <= j; ++k) sum += slot[k];
            double mean = sum / (j - i + 1);
            for (int k = i; k <= j; ++k) o.returns[order[k]] = mean;
            i = j + 1;
        }
        int best = *std::min_element(ranks.begin(), ranks.end());
        for (int s = 0; s < n; ++s)
            if (ranks[s] == best) o.winners.push_back(s);
        for (int s = 0; s < n; ++s) o.scores.push_back(double(finals[s]));
        return o;
    }

    // ------------------------------------------------------------------ playouts
    // Uniformly random playouts from here (this match unchanged): decisions played.
    int64_t random_playouts(int games, uint64_t seed) const {
        SplitMix rng{seed};
        int64_t plies = 0;
        for (int g = 0; g < games; ++g) {
            Match m(*this);
            while (m.phase != OVER) {
                const auto& l = m.legal_ints();
                if (l.empty()) break;  // a loaded position with no decision: stop
                m.play(l[size_t(rng.below(int(l.size())))]);
                ++plies;
            }
        }
        return plies;
    }
};

// ---------------------------------------------------------------------- the observation
// GunkimonoEncoder's layout (encoder.py: offsets, block sizes) and its tables from the
// state's integers to its entries (top_entry, code_entry, row_entry, ...), handed in from
// Python (native_core.encoding_spec) so that the encoder stays the one definition.
struct Encoding {
    int size = 0;
    int board = 0, row = 0, globals = 0, placed = 0, small = 0, banner_stacks = 0, built = 0,
        players = 0;
    int cell = 0, tile = 0, codes = 0, slots = 0, troops = 0, kinds = 0, player_size = 0;
    std::vector<int> top_entry, code_entry, troop_entry, kind_entry, column_entry, cell_entry;
    std::vector<std::array<int, 4>> row_entry;
    int phase_entry[NUM_PHASES]{};
};

// GunkimonoEncoder._encode of snapshot(state, seat) into ``w``, zeros (seat -1: a spectator,
// seen as seat 0 with no hand).
void encode(const Match& m, const Encoding& e, int seat, float* w) {
    const int n = m.n, cells = m.R->cells;
    const int me = seat >= 0 ? seat : 0;
    const bool over = m.phase == OVER;
    int slot[MAXP];
    for (int s = 0; s < n; ++s) slot[s] = ((s - me) % n + n) % n;
    // The board: troops, symbols, levels (_board), then the marks (_marks).
    for (int c = 0; c < cells; ++c) {
        float* k = w + e.board + c * e.cell;
        k[e.top_entry[size_t(m.top[c])]] = 1.0f;
        k[6] = float(m.sym[c]);
        k[7] = float(m.level[c]);
        if (m.sh[c] >= 0) k[8 + ((m.sh[c] - me) % n + n) % n] = 1.0f;
    }
    for (const Pending& p : m.pending) {
        float* k = w + e.board + e.cell_entry[size_t(p.cell)] * e.cell;
        k[13] = 1.0f;
        k[14] = float(p.vp);
        k[15] = p.vp_allowed ? 1.0f : 0.0f;
    }
    if (m.support_cell >= 0) w[e.board + e.cell_entry[size_t(m.support_cell)] * e.cell + 16] = 1.0f;
    // The row and the counters (_row_and_globals).
    for (size_t i = 0; i < m.row.size(); ++i) {
        float* k = w + e.row + int(i) * (1 + e.tile);
        const auto& t = e.row_entry[size_t(m.row[i])];
        k[0] = 1.0f;
        k[1 + t[0]] = 1.0f;
        k[6] = float(t[1]);
        k[7 + t[2]] = 1.0f;
        k[12] = float(t[3]);
    }
    float* g = w + e.globals;
    g[e.phase_entry[m.phase]] = 1.0f;
    g += NUM_PHASES;
    g[0] = float(m.turn);
    g[1] = float(m.turns);
    g[2] = float(m.decisions);
    g[3] = float(m.stack.size());
    g[4] = float(m.end_stack.size());
    g[5] = m.end_stack_in_play ? 1.0f : 0.0f;
    g[6] = m.end_triggered ? 1.0f : 0.0f;
    g[7] = float(m.removed.size());
    g[8] = m.placed_large ? 1.0f : 0.0f;
    g[9] = float(m.passes);
    if (!over) g[10 + slot[m.turn]] = 1.0f;
    // The tiles placed, the small tiles, the banner stacks, the strongholds' turns (_placed).
    for (int code : m.placed) w[e.placed + e.code_entry[size_t(code)]] += 1.0f;
    for (const auto& p : m.placed_small) {
        float* k = w + e.small + (slot[p[0]] * e.troops + p[1]) * 2;
        k[0] = 1.0f;
        k[1] = float(p[2]);
    }
    for (int col = 0; col < TROOPS; ++col)
        for (const Banner& b : m.banner_stacks[col])
            w[e.banner_stacks + col * e.kinds + e.kind_entry[size_t(b.kind)]] += 1.0f;
    int built_count[MAXP] = {};
    for (const auto& b : m.built_at) {
        int k = slot[b[0]];
        w[e.built + k * 2 + built_count[k]] = float(b[1] + 1);
        ++built_count[k];
    }
    // Each player's block (_player).
    for (int s = 0; s < n; ++s) {
        float* k = w + e.players + slot[s] * e.player_size;
        k[0] = 1.0f;
        k[1] = float(m.score[s]);
        k += 2;
        if (s == seat)
            for (int code : m.hands[s]) k[e.code_entry[size_t(code)]] += 1.0f;
        k += e.codes;
        k[0] = float(m.hands[s].size());
        k += 1;
        for (int code : m.known[s]) k[e.code_entry[size_t(code)]] += 1.0f;
        k += e.codes;
        for (int t : m.reserve[s]) k[e.troop_entry[size_t(t)]] += 1.0f;
        k += e.troops;
        for (int col = 0; col < TROOPS; ++col) {
            int r = m.honor[s][col];
            if (r == REMOVED) {
                k[col] = -1.0f;
                k[e.troops + col] = 1.0f;  // the removed flag
            } else {
                k[col] = float(r);
            }
        }
        k += 2 * e.troops;
        k[0] = float(2 - int(m.strongholds[s].size()));
        k += 1;
        const bool shown = s == seat || over;  // banner values: their owner's, all at the end
        for (const Banner& b : m.banners[s]) {
            int at = e.kind_entry[size_t(b.kind)] * 5 + e.column_entry[size_t(b.column)];
            float* x = k + at * 3;
            x[0] = 1.0f;
            if (shown) {
                x[1] = 1.0f;
                x[2] = float(b.value);
            }
        }
    }
}

// ---------------------------------------------------------------------- JSON in and out

[[noreturn]] void bad(const std::string& field, const std::string& why) {
    throw py::value_error("gunkimono core: field '" + field + "' " + why);
}

py::object field(const py::dict& data, const char* name) {
    if (!data.contains(name)) bad(name, "is missing");
    return data[name];
}

std::vector<int> ints(const py::dict& data, const char* name) {
    try {
        return field(data, name).cast<std::vector<int>>();
    } catch (const py::cast_error&) {
        bad(name, "must be a list of whole numbers");
    }
}

std::vector<std::vector<int>> int_rows(const py::dict& data, const char* name) {
    try {
        return field(data, name).cast<std::vector<std::vector<int>>>();
    } catch (const py::cast_error&) {
        bad(name, "must be a list of lists of whole numbers");
    }
}

std::vector<std::vector<std::vector<int>>> int_rows_of_rows(const py::dict& data,
                                                            const char* name) {
    try {
        return field(data, name).cast<std::vector<std::vector<std::vector<int>>>>();
    } catch (const py::cast_error&) {
        bad(name, "must be a list of lists of lists of whole numbers");
    }
}

int whole(const py::dict& data, const char* name) {
    py::object v = field(data, name);
    if (!py::isinstance<py::int_>(v)) bad(name, "must be a whole number");
    return v.cast<int>();
}

bool flag(const py::dict& data, const char* name) {
    py::object v = field(data, name);
    if (!py::isinstance<py::bool_>(v) && !py::isinstance<py::int_>(v))
        bad(name, "must be true or false");
    return v.cast<bool>();
}

void board_field(const py::dict& data, const char* name, int cells, std::array<int8_t, MAXC>& out,
                 int lo, int hi) {
    std::vector<int> v = ints(data, name);
    if (int(v.size()) != cells) bad(name, "must hold one value per square");
    for (int c = 0; c < cells; ++c) {
        if (v[c] < lo || v[c] > hi) bad(name, "holds " + std::to_string(v[c]) + " out of range");
        out[c] = int8_t(v[c]);
    }
}

void seat_rows(const py::dict& data, const char* name, int n, std::vector<int>* out) {
    auto rows = int_rows(data, name);
    if (int(rows.size()) != n) bad(name, "must hold one list per seat");
    for (int s = 0; s < n; ++s) out[s] = rows[s];
}

void load_json(Match& m, const py::dict& data) {
    const Rules& r = *m.R;
    const int n = m.n, cells = r.cells;
    board_field(data, "top", cells, m.top, 0, FACE_DOWN);
    board_field(data, "sym", cells, m.sym, 0, 2);
    board_field(data, "level", cells, m.level, 0, 127);
    board_field(data, "sh_owner", cells, m.sh, -1, n - 1);
    m.row = ints(data, "row");
    m.stack = ints(data, "stack");
    m.end_stack = ints(data, "end_stack");
    m.removed = ints(data, "removed");
    m.placed = ints(data, "placed");
    std::vector<int> sc = ints(data, "score");
    if (int(sc.size()) != n) bad("score", "must hold one value per seat");
    std::copy(sc.begin(), sc.end(), m.score);
    seat_rows(data, "strongholds", n, m.strongholds);
    seat_rows(data, "hands", n, m.hands);
    seat_rows(data, "known", n, m.known);
    seat_rows(data, "reserve", n, m.reserve);
    m.placed_small.clear();
    for (const auto& p : int_rows(data, "placed_small")) {
        if (p.size() != 3) bad("placed_small", "rows must be [seat, troop, face up]");
        m.placed_small.push_back({p[0], p[1], p[2]});
    }
    auto hon = int_rows(data, "honor");
    if (int(hon.size()) != n) bad("honor", "must hold one row per seat");
    for (int s = 0; s < n; ++s) {
        if (hon[s].size() != TROOPS) bad("honor", "rows must hold one row per troop column");
        for (int t = 0; t < TROOPS; ++t) m.honor[s][t] = hon[s][t];
    }
    m.pending.clear();
    for (const auto& p : int_rows(data, "pending")) {
        if (p.size() != 5) bad("pending", "rows must be [cell, troop, symbols, vp, vp_allowed]");
        if (p[0] < 0 || p[0] >= cells) bad("pending", "names a square off the board");
        m.pending.push_back({p[0], p[1], p[2], p[3], p[4] != 0});
    }
    m.built_at.clear();
    for (const auto& p : int_rows(data, "built_at")) {
        if (p.size() != 2) bad("built_at", "rows must be [seat, turns]");
        m.built_at.push_back({p[0], p[1]});
    }
    m.end_stack_in_play = flag(data, "end_stack_in_play");
    m.turn = whole(data, "turn");
    if (m.turn < 0 || m.turn >= n) bad("turn", "must be a seat");
    m.turns = whole(data, "turns");
    py::object ph = field(data, "phase");
    std::string phase_name = py::str(ph);
    m.phase = -1;
    for (int p = 0; p < NUM_PHASES; ++p)
        if (phase_name == PHASE_NAMES[p]) m.phase = p;
    if (m.phase < 0) bad("phase", "names no phase: " + phase_name);
    m.support_cell = whole(data, "support_cell");
    if (m.support_cell >= cells) bad("support_cell", "names a square off the board");
    m.placed_large = flag(data, "placed_large");
    m.end_triggered = flag(data, "end_triggered");
    m.passes = whole(data, "passes");
    m.decisions = whole(data, "decisions");
    py::object why = field(data, "reason");
    m.reason = why.is_none() ? std::string() : std::string(py::str(why));
    py::object ended = field(data, "ended");
    m.ended = Ended();
    if (!ended.is_none()) {
        py::dict e = ended.cast<py::dict>();
        m.ended.set = true;
        m.ended.reason = std::string(py::str(field(e, "reason")));
        m.ended.winners = ints(e, "winners");
        m.ended.scores = field(e, "scores").cast<std::vector<double>>();
        m.ended.returns = field(e, "returns").cast<std::vector<double>>();
    }
    auto stacks = int_rows_of_rows(data, "banner_stacks");
    if (stacks.size() != TROOPS) bad("banner_stacks", "must hold one stack per troop column");
    for (int t = 0; t < TROOPS; ++t) {
        m.banner_stacks[t].clear();
        for (const auto& b : stacks[t]) {
            if (b.size() != 2) bad("banner_stacks", "entries must be [kind, value]");
            m.banner_stacks[t].push_back({b[0], b[1], t});
        }
    }
    auto won = int_rows_of_rows(data, "banners");
    if (int(won.size()) != n) bad("banners", "must hold one list per seat");
    for (int s = 0; s < n; ++s) {
        m.banners[s].clear();
        for (const auto& b : won[s]) {
            if (b.size() != 3) bad("banners", "entries must be [kind, value, column]");
            m.banners[s].push_back({b[0], b[1], b[2]});
        }
    }
    std::vector<int> vps = ints(data, "vp_strongholds");
    if (int(vps.size()) != n) bad("vp_strongholds", "must hold one value per seat");
    std::copy(vps.begin(), vps.end(), m.vp_strongholds);
    py::object last = field(data, "last_turn");
    m.record_seat = -1;
    m.record_squares.clear();
    m.record_scores.clear();
    if (!last.is_none()) {
        py::dict lt = last.cast<py::dict>();
        m.record_seat = whole(lt, "seat");
        m.record_squares = ints(lt, "squares");
        for (const auto& x : int_rows(lt, "scores")) {
            if (x.size() != 4) bad("last_turn", "scores must be [kind, troop, square, points]");
            m.record_scores.push_back({x[0], x[1], x[2], x[3]});
        }
    }
    for (int s = 0; s < n; ++s)
        for (int c : m.strongholds[s])
            if (c < 0 || c >= cells) bad("strongholds", "names a square off the board");
    m.touched();
}

py::list int_list(const std::vector<int>& v) {
    py::list out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = py::int_(v[i]);
    return out;
}

template <size_t N>
py::list board_list(const std::array<int8_t, N>& v, int cells) {
    py::list out(cells);
    for (int i = 0; i < cells; ++i) out[size_t(i)] = py::int_(int(v[size_t(i)]));
    return out;
}

py::list seat_lists(const std::vector<int>* rows, int n) {
    py::list out(n);
    for (int s = 0; s < n; ++s) out[size_t(s)] = int_list(rows[s]);
    return out;
}

py::dict outcome_json(const Ended& e) {
    py::dict d;
    d["reason"] = e.reason;
    d["winners"] = int_list(e.winners);
    py::list scores, returns;
    for (double x : e.scores) scores.append(x);
    for (double x : e.returns) returns.append(x);
    d["scores"] = scores;
    d["returns"] = returns;
    return d;
}

// GunkimonoState.to_json, key for key and in its order (_JSON_ORDER).
py::dict to_json(const Match& m) {
    const Rules& r = *m.R;
    const int n = m.n, cells = r.cells;
    py::dict d;
    d["game"] = "gunkimono";
    d["options"] = py::dict(r.options);
    d["top"] = board_list(m.top, cells);
    d["sym"] = board_list(m.sym, cells);
    d["level"] = board_list(m.level, cells);
    d["sh_owner"] = board_list(m.sh, cells);
    d["row"] = int_list(m.row);
    d["stack"] = int_list(m.stack);
    d["end_stack"] = int_list(m.end_stack);
    d["removed"] = int_list(m.removed);
    d["placed"] = int_list(m.placed);
    d["score"] = int_list(std::vector<int>(m.score, m.score + n));
    d["strongholds"] = seat_lists(m.strongholds, n);
    d["hands"] = seat_lists(m.hands, n);
    d["known"] = seat_lists(m.known, n);
    d["reserve"] = seat_lists(m.reserve, n);
    py::list small;
    for (const auto& p : m.placed_small) small.append(int_list({p[0], p[1], p[2]}));
    d["placed_small"] = small;
    py::list hon(n);
    for (int s = 0; s < n; ++s)
        hon[size_t(s)] = int_list(std::vector<int>(m.honor[s], m.honor[s] + TROOPS));
    d["honor"] = hon;
    py::list pend;
    for (const auto& p : m.pending)
        pend.append(int_list({p.cell, p.troop, p.symbols, p.vp, p.vp_allowed ? 1 : 0}));
    d["pending"] = pend;
    py::list built;
    for (const auto& b : m.built_at) built.append(int_list({b[0], b[1]}));
    d["built_at"] = built;
    d["end_stack_in_play"] = m.end_stack_in_play;
    d["turn"] = m.turn;
    d["turns"] = m.turns;
    d["phase"] = PHASE_NAMES[m.phase];
    d["support_cell"] = m.support_cell;
    d["placed_large"] = m.placed_large;
    d["end_triggered"] = m.end_triggered;
    d["passes"] = m.passes;
    d["decisions"] = m.decisions;
    d["reason"] = m.reason.empty() ? py::object(py::none()) : py::object(py::str(m.reason));
    d["ended"] = m.ended.set ? py::object(outcome_json(m.ended)) : py::object(py::none());
    py::list stacks(TROOPS);
    for (int t = 0; t < TROOPS; ++t) {
        py::list pile;
        for (const Banner& b : m.banner_stacks[t]) pile.append(int_list({b.kind, b.value}));
        stacks[size_t(t)] = pile;
    }
    d["banner_stacks"] = stacks;
    py::list won(n);
    for (int s = 0; s < n; ++s) {
        py::list mine;
        for (const Banner& b : m.banners[s]) mine.append(int_list({b.kind, b.value, b.column}));
        won[size_t(s)] = mine;
    }
    d["banners"] = won;
    d["vp_strongholds"] = int_list(std::vector<int>(m.vp_strongholds, m.vp_strongholds + n));
    py::dict last;
    last["seat"] = m.record_seat;
    last["squares"] = int_list(m.record_squares);
    py::list scores;
    for (const auto& x : m.record_scores)
        scores.append(int_list({x.kind, x.troop, x.square, x.points}));
    last["scores"] = scores;
    d["last_turn"] = last;
    return d;
}

// ---------------------------------------------------------------------- the Rules from Python

std::shared_ptr<Rules> make_rules(const py::dict& spec) {
    auto r = std::make_shared<Rules>();
    r->width = whole(spec, "width");
    r->height = whole(spec, "height");
    r->cells = r->width * r->height;
    if (r->width < 2 || r->height < 2 || r->cells > MAXC)
        bad("width", "x height must make a board of 4 to " + std::to_string(MAXC) + " squares");
    r->players = whole(spec, "players");
    if (r->players < 2 || r->players > MAXP) bad("players", "must be 2 to 5");
    r->printed = ints(spec, "printed");
    if (int(r->printed.size()) != r->cells) bad("printed", "must hold one troop per square");
    for (int t : r->printed)
        if (t < 0 || t >= TROOPS) bad("printed", "must hold troop types 0..4");
    auto nbs = int_rows(spec, "neighbours");
    if (int(nbs.size()) != r->cells) bad("neighbours", "must hold one list per square");
    for (const auto& list : nbs) {
        if (list.size() > 4) bad("neighbours", "lists at most 4 squares per square");
        std::array<int, 4> row{-1, -1, -1, -1};
        for (size_t i = 0; i < list.size(); ++i) {
            if (list[i] < 0 || list[i] >= r->cells)
                bad("neighbours", "names a square off the board");
            row[i] = list[i];
        }
        r->nb.push_back(row);
        r->nb_count.push_back(int(list.size()));
    }
    auto pairs = int_rows(spec, "pairs");
    for (const auto& p : pairs) {
        if (p.size() != 2 || p[0] < 0 || p[1] >= r->cells ||
            (p[1] != p[0] + 1 && p[1] != p[0] + r->width))
            bad("pairs", "must list [a, b] with b right of or below a");
        int i = int(r->pair_a.size());
        if (i > 0 &&
            std::make_pair(r->pair_a.back(), r->pair_b.back()) >= std::make_pair(p[0], p[1]))
            bad("pairs", "must be listed in action-number order (by square, horizontal first)");
        (p[1] == p[0] + 1 ? r->h_pairs : r->v_pairs) |= bit(p[0]);
        r->pair_a.push_back(p[0]);
        r->pair_b.push_back(p[1]);
    }
    r->ending_row = whole(spec, "ending_row");
    auto rows = ints(spec, "stronghold_rows");
    if (rows.size() != 2) bad("stronghold_rows", "must hold two rows");
    r->stronghold_row[0] = rows[0];
    r->stronghold_row[1] = rows[1];
    r->small_symbols = whole(spec, "small_symbols");
    r->large_tiles = ints(spec, "large_tiles");
    for (int t : r->large_tiles)
        if (t < 0 || t >= 100) bad("large_tiles", "must hold tile codes 0..99");
    r->removed_tiles = whole(spec, "removed_tiles");
    r->end_stack_tiles = whole(spec, "end_stack_tiles");
    r->row_tiles = whole(spec, "row_tiles");
    r->hand_tiles = whole(spec, "hand_tiles");
    if (r->removed_tiles < 0 || r->end_stack_tiles < 0 || r->row_tiles < 0 || r->hand_tiles < 0 ||
        r->removed_tiles + r->end_stack_tiles + r->row_tiles + r->players * r->hand_tiles >
            int(r->large_tiles.size()))
        bad("large_tiles", "are too few to deal this setup");
    r->banner_values = int_rows(spec, "banner_values");
    for (const auto& values : r->banner_values)
        if (values.size() != TROOPS) bad("banner_values", "must hold one value per column");
    for (int min_players : ints(spec, "banner_min_players"))
        r->banner_used.push_back(r->players >= min_players);
    if (r->banner_used.size() != r->banner_values.size())
        bad("banner_min_players", "must hold one count per banner kind");
    r->own_double_stronghold = flag(spec, "own_double_stronghold");
    r->empty_banner_stay = flag(spec, "empty_banner_stay");
    r->removed_marker_counts = flag(spec, "removed_marker_counts");
    r->end_tile_replacement = flag(spec, "end_tile_replacement");
    r->link_own_formations = flag(spec, "link_own_formations");
    r->length_limit = whole(spec, "length_limit");
    r->small_base = whole(spec, "small_base");
    r->support_base = whole(spec, "support_base");
    r->score_base = whole(spec, "score_base");
    r->stronghold_base = whole(spec, "stronghold_base");
    r->draw_base = whole(spec, "draw_base");
    r->num_actions = whole(spec, "num_actions");
    // The action blocks as actions.py lays them out: the decoding in Match::play relies on it.
    int cells = r->cells;
    if (r->small_base != 100 * cells * 2 || r->support_base != r->small_base + TROOPS * cells ||
        r->score_base != r->support_base + TROOPS * cells ||
        r->stronghold_base != r->score_base + 2 * TROOPS * cells ||
        r->draw_base != r->stronghold_base + cells || r->num_actions != r->draw_base + 101)
        bad("small_base", "and the other action blocks do not follow actions.py's layout");
    auto names = field(spec, "phases").cast<std::vector<std::string>>();
    if (names.size() != NUM_PHASES) bad("phases", "must name the six phases");
    for (int p = 0; p < NUM_PHASES; ++p)
        if (names[size_t(p)] != PHASE_NAMES[p])
            bad("phases", "must be place, support, score, stronghold, draw, over (in this order)");
    r->options = field(spec, "options");
    return r;
}

std::shared_ptr<Encoding> make_encoding(const py::dict& spec) {
    auto e = std::make_shared<Encoding>();
    e->size = whole(spec, "size");
    py::dict o = field(spec, "offsets").cast<py::dict>();
    e->board = whole(o, "board");
    e->row = whole(o, "row");
    e->globals = whole(o, "globals");
    e->placed = whole(o, "placed");
    e->small = whole(o, "small");
    e->banner_stacks = whole(o, "banner_stacks");
    e->built = whole(o, "built");
    e->players = whole(o, "players");
    e->cell = whole(spec, "cell");
    e->tile = whole(spec, "tile");
    e->codes = whole(spec, "codes");
    e->slots = whole(spec, "slots");
    e->troops = whole(spec, "troops");
    e->kinds = whole(spec, "kinds");
    e->player_size = whole(spec, "player_size");
    e->top_entry = ints(spec, "top_entry");
    e->code_entry = ints(spec, "code_entry");
    e->troop_entry = ints(spec, "troop_entry");
    e->kind_entry = ints(spec, "kind_entry");
    e->column_entry = ints(spec, "column_entry");
    e->cell_entry = ints(spec, "cell_entry");
    for (const auto& r : int_rows(spec, "row_entry")) {
        if (r.size() != 4) bad("row_entry", "rows must be (troop, symbols, troop, symbols)");
        e->row_entry.push_back({r[0], r[1], r[2], r[3]});
    }
    auto phases = field(spec, "phases").cast<std::vector<std::string>>();
    for (int p = 0; p < NUM_PHASES; ++p) {
        auto at = std::find(phases.begin(), phases.end(), std::string(PHASE_NAMES[p]));
        if (at == phases.end()) bad("phases", std::string("does not name ") + PHASE_NAMES[p]);
        e->phase_entry[p] = int(at - phases.begin());
    }
    // The block sizes this core writes (encoder.py's layout): a changed encoder is refused
    // here, not written past.
    if (e->cell != 17 || e->tile != 12 || e->troops != TROOPS || e->slots != MAXP ||
        int(phases.size()) != NUM_PHASES || e->top_entry.size() != FACE_DOWN + 1 ||
        e->code_entry.size() != 100 || e->row_entry.size() != 100 ||
        e->troop_entry.size() != TROOPS || e->column_entry.size() != TROOPS ||
        int(e->kind_entry.size()) != e->kinds)
        bad("size", "and the blocks do not follow the layout this core writes (encoder.py)");
    if (e->player_size != 2 + e->codes + 1 + e->codes + 3 * e->troops + 1 + e->kinds * 5 * 3 ||
        e->players + MAXP * e->player_size != e->size)
        bad("player_size", "does not match the players' blocks this core writes");
    return e;
}

// What the shared batch (sengoku/native/core_batch.hpp) asks of a Gunkimono match.
struct GunkimonoTraits {
    using Match = ::Match;
    using Rules = ::Rules;
    using Encoding = ::Encoding;
    static bool over(const Match& m) { return m.phase == OVER; }
    static int seat(const Match& m) { return m.phase == OVER ? -1 : m.turn; }
    static int observers(const Match& m) { return m.n; }
    static const std::vector<int>& legal(Match& m) { return m.legal_ints(); }
    static bool is_legal(Match& m, int action) { return m.is_legal(action); }
    static void play(Match& m, int action) { m.play(action); }
    static void deal(Match& m, const std::vector<uint32_t>& key, py::handle /*seed*/) {
        m.deal(key);
    }
    static void load(Match& m, const py::dict& data) { load_json(m, data); }
    static int num_actions(const Rules& r) { return r.num_actions; }
    static int num_players(const Rules& r) { return r.players; }
    static int size(const Encoding& e) { return e.size; }
    static void encode(const Match& m, const Encoding& e, int seat, float* row) {
        ::encode(m, e, seat, row);
    }
    // The outcome is worked out when asked (Match::outcome is not const).
    static double payoff(const Match& m, int seat) {
        return const_cast<Match&>(m).outcome().returns[size_t(seat)];
    }
    static py::object outcome(const Match& m) {
        if (m.phase != OVER) return py::none();
        return outcome_json(const_cast<Match&>(m).outcome());
    }
};

// Checked before a decision: the integer names one of the game's actions.
int action_arg(const Rules& r, py::handle given) {
    if (!py::isinstance<py::int_>(given) || py::isinstance<py::bool_>(given))
        throw py::type_error("a Gunkimono action is a whole number (an int)");
    long long v = given.cast<long long>();
    if (v < 0 || v >= r.num_actions)
        throw py::value_error("a Gunkimono action is an integer in 0.." +
                              std::to_string(r.num_actions - 1) + ", got " + std::to_string(v));
    return int(v);
}

}  // namespace

PYBIND11_MODULE(_gunkimono_native, m) {
    m.doc() = "Gunkimono's native core (C++): legal actions, the rules' effects, the turn's flow.";
    m.attr("MAX_SQUARES") = MAXC;

    py::class_<Rules, std::shared_ptr<Rules>>(m, "Rules")
        .def(py::init(&make_rules), py::arg("spec"))
        .def_property_readonly("num_actions", [](const Rules& r) { return r.num_actions; })
        .def_property_readonly("players", [](const Rules& r) { return r.players; });

    py::class_<Match>(m, "Match")
        .def(py::init<std::shared_ptr<const Rules>>(), py::arg("rules"))
        .def("load_json", &load_json, py::arg("data"),
             "Take the position of GunkimonoState.to_json() (a ValueError names a bad field).")
        .def("to_json", &to_json, "The position as GunkimonoState.to_json() writes it.")
        .def("clone", [](const Match& self) { return Match(self); })
        .def("deal", &Match::deal, py::arg("key"),
             "Deal a new game as GunkimonoState.setup does from random.Random(seed), ``key`` "
             "the seed's 32-bit words (native_core.seed_key).")
        .def("legal_ints",
             [](Match& self) { return int_list(self.legal_ints()); },
             "Gunkimono.legal_action_ints: the legal actions' integers, ascending.")
        .def("legal_count", [](Match& self) { return self.legal_ints().size(); })
        .def("is_legal",
             [](Match& self, py::handle action) {
                 return self.phase != OVER && self.is_legal(action_arg(*self.R, action));
             })
        .def("apply",
             [](Match& self, py::handle action) {
                 return self.apply(action_arg(*self.R, action));
             },
             py::arg("action"),
             "Play the action numbered ``action``: False, having changed nothing, when it is "
             "not legal here (or the game is over).")
        .def("is_terminal", [](const Match& self) { return self.phase == OVER; })
        .def_property_readonly("current_player",
                               [](const Match& self) {
                                   return self.phase == OVER ? -1 : self.turn;  // TERMINAL
                               })
        .def_property_readonly("phase", [](const Match& self) { return PHASE_NAMES[self.phase]; })
        .def_property_readonly("decisions", [](const Match& self) { return self.decisions; })
        .def_property_readonly("players", [](const Match& self) { return self.n; })
        .def("outcome",
             [](Match& self) -> py::object {
                 if (self.phase != OVER) return py::none();
                 return outcome_json(self.outcome());
             },
             "Outcome.to_json() of the finished game (None while it goes on).")
        .def("final_scores", [](const Match& self) { return self.final_scores(); })
        .def("controlled_troops", [](Match& self, int seat) {
            if (seat < 0 || seat >= self.n) throw py::value_error("seat out of range");
            return self.controlled_troops(seat);
        })
        .def("random_playouts",
             [](const Match& self, int games, uint64_t seed) {
                 py::gil_scoped_release release;
                 return self.random_playouts(games, seed);
             },
             py::arg("games"), py::arg("seed"),
             "Play ``games`` uniformly random games from here (this match unchanged); the "
             "decisions played (benchmarks).")
        .def("encode",
             [](const Match& self, std::shared_ptr<const Encoding> e, int seat,
                py::array_t<float, py::array::c_style>& out) {
                 if (seat < -1 || seat >= self.n) throw py::value_error("no such seat");
                 if (out.ndim() != 1 || out.shape(0) != e->size)
                     throw py::value_error("out must be a float32 array of shape (" +
                                           std::to_string(e->size) + ",)");
                 float* w = out.mutable_data();
                 std::fill(w, w + e->size, 0.0f);
                 encode(self, *e, seat, w);
             },
             py::arg("encoding"), py::arg("seat"), py::arg("out"),
             "GunkimonoEncoder's observation of view(seat) into ``out`` (seat -1: a "
             "spectator).");

    py::class_<Encoding, std::shared_ptr<Encoding>>(m, "Encoding")
        .def(py::init(&make_encoding), py::arg("spec"))
        .def_property_readonly("size", [](const Encoding& e) { return e.size; });

    sengoku::bind_core_batch<GunkimonoTraits>(m);
}
