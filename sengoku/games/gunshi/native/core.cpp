// Gunshi's native core: the Python engine's rules (sengoku/games/gunshi/, the turn's flow in
// state.py) mirrored in C++, on the same integer actions (actions.py: GunshiAction.to_int)
// and the same position (GunshiState.to_json), hidden parts and the opponent's knowledge
// bags (knowledge.py) included.
//
// Nothing here re-types the game's data: the cards (codes, copies, sets, costs, chainable),
// the units (letters, types, costs, Shields), the board's geometry (neighbours, edges, Home
// Territories, formation edges), the presets, the action blocks and the encoder's layout
// come in from Python (native_core.py builds the Rules and the Encoding). Each function names
// the Python function it mirrors; tests/gunshi/test_native_core.py plays both engines side
// by side and compares every legal list, every state (to_json), every outcome and every
// seat's observation after every decision.
//
// A Match is one game: deal(key) sets it up as GunshiState.setup does from random.Random(seed)
// (Modification 1's random.sample of the Advanced cards), load_json/to_json read and write
// GunshiState.to_json's position, legal_ints() lists the legal integers ascending, apply(n)
// plays one (refusing an illegal one, changing nothing), encode(seat, out) writes
// GunshiEncoder's observation of view(seat). A Batch is n matches stepped together (batch.py).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../../../native/core_batch.hpp"
#include "../../../native/python_random.hpp"

namespace py = pybind11;

namespace {

constexpr int SIZE = 7;
constexpr int CELLS = 49;
constexpr int EDGES = 84;
constexpr int NT = 24;  // unit tokens (checked against the data)
constexpr int OFF = -1;
constexpr int INVADED = 99;
constexpr int RED = 0, BLUE = 1;
constexpr int NOBAG = INT_MIN;  // a card tuple of 3 (no knowledge bag id)
constexpr int SCOUTED = 2;

// The encoder's names, in its order (checked against GunshiEncoder's tuples).
const char* const PHASE_NAMES[] = {"formation", "build", "prepare", "mod3", "secret", "battle"};
enum Phase { FORMATION, BUILD, PREPARE, MOD3, SECRET, BATTLE };
const char* const STEP_NAMES[] = {"", "send", "take", "remove", "deck", "hand", "shogun"};
enum StStep { S_NONE, S_SEND, S_TAKE, S_REMOVE, S_DECK, S_HAND, S_SHOGUN };
const char* const TYPE_NAMES[] = {"move",  "light",     "rapid", "reorient", "shoot",
                                  "crossbow", "fence", "reinforce", "enroute", "look",
                                  "ask",   "fire",      "switch"};
enum CType { T_MOVE, T_LIGHT, T_RAPID, T_REORIENT, T_SHOOT, T_CROSSBOW, T_FENCE, T_REINFORCE,
             T_ENROUTE, T_LOOK, T_ASK, T_FIRE, T_SWITCH };
const char* const CSTEP_NAMES[] = {"unit",  "face",  "chain", "dir",   "to",   "rface",
                                   "invade", "hit",  "fence", "piece", "at",   "mode",
                                   "look",  "ask",   "swap",  "rapid"};
enum CStep { C_UNIT, C_FACE, C_CHAIN, C_DIR, C_TO, C_RFACE, C_INVADE, C_HIT, C_FENCE, C_PIECE,
             C_AT, C_MODE, C_LOOK, C_ASK, C_SWAP, C_RAPID };
const char* const MODE_NAMES[] = {"reorient", "shoot", "crossbow", "commands", "shogun"};
enum Mode { M_REORIENT, M_SHOOT, M_CROSSBOW, M_COMMANDS, M_SHOGUN };
const char* const RAPID_NAMES[] = {"", "moving", "reoriented", "invaded"};
enum Rapid { R_NONE = -1, R_EMPTY = 0, R_MOVING, R_REORIENTED, R_INVADED };
const char* const TYPE_LETTERS = "IAC";  // unit types, as the place vocabulary and encoder
const char* const PIECES = "IACF";
const char* const DIRS = "nesw";

template <class T, size_t N>
int name_index(const T (&names)[N], const std::string& s, const char* what) {
    for (size_t i = 0; i < N; ++i)
        if (s == names[i]) return int(i);
    throw py::value_error(std::string("unknown ") + what + " " + s);
}

// The action kinds of actions.py's VOCABULARY, in its order (checked against OFFSET).
const char* const KINDS[] = {"pick",  "shogun", "hand",  "deck", "place",  "at",   "face",
                             "fence", "mode",   "unit",  "dir",  "chain",  "done", "to",
                             "invade", "stay",  "hit",   "swap", "look",   "ask",  "send",
                             "end",   "lightning", "take", "blind", "remove"};
enum Kind { K_PICK, K_SHOGUN, K_HAND, K_DECK, K_PLACE, K_AT, K_FACE, K_FENCE, K_MODE, K_UNIT,
            K_DIR, K_CHAIN, K_DONE, K_TO, K_INVADE, K_STAY, K_HIT, K_SWAP, K_LOOK, K_ASK,
            K_SEND, K_END, K_LIGHTNING, K_TAKE, K_BLIND, K_REMOVE, NKINDS };

// ---------------------------------------------------------------------- the rules' data
struct Rules {
    py::dict options;
    int num_actions = 0;
    int offset[NKINDS + 1] = {};
    // cards.json
    std::vector<std::string> codes;
    std::vector<int> copies, cost, set;  // set: 0 basic, 1 rikutoh, 2 sanryaku
    std::vector<int> lex;                // each code's rank in Python's sorted() of codes
    int lightning_cost = 6, review_gain = 2, hand_size = 3, row_limit = 4;
    int scout_commands = 2, scout_shogun = 5;
    int c_M = -1, c_Re = -1, c_F = -1, c_Rf = -1, c_Rapid = -1, c_Review = -1, c_Crossbow = -1,
        c_EnRoute = -1, c_Light = -1, c_Scout = -1, c_Fire = -1, c_Switch = -1, c_Trap = -1;
    // units.json
    int ttype[NT];  // token -> type index in IAC
    int unit_cost[3], en_route_cost[3];
    bool unit_shield[3];
    int fences_per_player = 4, fence_cost = 1, starting_points = 18, invaders_to_win = 3;
    // geometry
    int nb[CELLS][4], edge_of[CELLS][4], edge_cells[EDGES][2];
    bool home[2][CELLS];
    std::vector<int> home_cells[2];
    std::vector<int> formation_cands[2];  // for this game's formation_fences option
    // options
    int variant = 0;  // 0 basic, 1 inspiration, 2 custom
    int modification = 1;
    int custom_selection = 0;  // 0 alternate, 1 alternate_all, 2 agreed, 3 secret
    bool move_up = false, sanryaku = false;
    bool fence_diag_neighbour = true, shoot_any_crossed = false, back_line = true;
    bool shield_breaks = false, shield_turn = true, tournament = false;
    int lightning_alone = 0, cap = -1;
    int length_limit = 4000;
    // setup
    std::vector<int> deck;  // the deck both start with (basic, preset's or agreed)
    bool preset_formation = false;
    bool preset_public = false;
    struct Side {
        std::vector<std::array<int, 3>> units;  // type, cell, face
        std::vector<int> fences, hand, deck;
        int cost = 0;
    } sides[2];
    std::vector<int> advanced;  // advanced_codes(sanryaku)
    std::vector<int> pool;      // custom_deck.deck_pool
};

int code_of(const Rules& r, const std::string& s) {
    for (size_t i = 0; i < r.codes.size(); ++i)
        if (r.codes[i] == s) return int(i);
    throw py::value_error("unknown card code " + s);
}

template <class T>
T get(const py::dict& d, const char* k) {
    if (!d.contains(k)) throw py::value_error(std::string("the spec lacks ") + k);
    return d[k].cast<T>();
}

std::shared_ptr<Rules> make_rules(const py::dict& spec) {
    auto r = std::make_shared<Rules>();
    r->options = py::dict(spec["options"]);
    auto offs = get<std::map<std::string, int>>(spec, "offsets");
    for (int k = 0; k < NKINDS; ++k) {
        auto it = offs.find(KINDS[k]);
        if (it == offs.end()) throw py::value_error(std::string("no action kind ") + KINDS[k]);
        r->offset[k] = it->second;
    }
    r->num_actions = get<int>(spec, "num_actions");
    r->offset[NKINDS] = r->num_actions;
    for (int k = 0; k + 1 < NKINDS; ++k)
        if (r->offset[k] > r->offset[k + 1]) throw py::value_error("action kinds out of order");
    r->codes = get<std::vector<std::string>>(spec, "codes");
    r->copies = get<std::vector<int>>(spec, "copies");
    r->cost = get<std::vector<int>>(spec, "costs");
    r->set = get<std::vector<int>>(spec, "sets");
    std::vector<std::string> sorted = r->codes;
    std::sort(sorted.begin(), sorted.end());
    r->lex.resize(r->codes.size());
    for (size_t i = 0; i < r->codes.size(); ++i)
        r->lex[i] = int(std::find(sorted.begin(), sorted.end(), r->codes[i]) - sorted.begin());
    r->lightning_cost = get<int>(spec, "lightning_cost");
    r->review_gain = get<int>(spec, "review_gain");
    r->hand_size = get<int>(spec, "hand_size");
    r->row_limit = get<int>(spec, "row_limit");
    r->scout_commands = get<int>(spec, "scout_commands");
    r->scout_shogun = get<int>(spec, "scout_shogun");
    // The cards each rule module resolves (universal_rules.START names them by code).
    auto named = [&](const char* c) { return code_of(*r, c); };
    r->c_M = named("M");
    r->c_Re = named("Re");
    r->c_F = named("F");
    r->c_Rf = named("Rf");
    r->c_Rapid = named("Rapid");
    r->c_Review = named("Review");
    r->c_Crossbow = named("Crossbow");
    r->c_EnRoute = named("EnRoute");
    r->c_Light = named("Light");
    r->c_Scout = named("Scout");
    r->c_Fire = named("Fire");
    r->c_Switch = named("Switch");
    r->c_Trap = named("Trap");
    auto types = get<std::vector<int>>(spec, "token_types");
    if (types.size() != NT) throw py::value_error("the core holds 24 unit tokens");
    for (int u = 0; u < NT; ++u) r->ttype[u] = types[size_t(u)];
    auto uc = get<std::vector<int>>(spec, "unit_costs");
    auto ue = get<std::vector<int>>(spec, "en_route_costs");
    auto us = get<std::vector<bool>>(spec, "unit_shields");
    for (int t = 0; t < 3; ++t) {
        r->unit_cost[t] = uc[size_t(t)];
        r->en_route_cost[t] = ue[size_t(t)];
        r->unit_shield[t] = us[size_t(t)];
    }
    r->fences_per_player = get<int>(spec, "fences_per_player");
    r->fence_cost = get<int>(spec, "fence_cost");
    r->starting_points = get<int>(spec, "starting_points");
    r->invaders_to_win = get<int>(spec, "invaders_to_win");
    auto nb = get<std::vector<std::vector<int>>>(spec, "neighbour");
    auto eo = get<std::vector<std::vector<int>>>(spec, "edge_of");
    auto ec = get<std::vector<std::vector<int>>>(spec, "edge_cells");
    for (int c = 0; c < CELLS; ++c)
        for (int d = 0; d < 4; ++d) {
            r->nb[c][d] = nb[size_t(c)][size_t(d)];
            r->edge_of[c][d] = eo[size_t(c)][size_t(d)];
        }
    for (int e = 0; e < EDGES; ++e)
        for (int i = 0; i < 2; ++i) r->edge_cells[e][i] = ec[size_t(e)][size_t(i)];
    auto home = get<std::vector<std::vector<int>>>(spec, "home");
    auto fc = get<std::vector<std::vector<int>>>(spec, "formation_edges");
    for (int p = 0; p < 2; ++p) {
        std::fill(r->home[p], r->home[p] + CELLS, false);
        for (int c : home[size_t(p)]) r->home[p][c] = true;
        r->home_cells[p] = home[size_t(p)];
        std::sort(r->home_cells[p].begin(), r->home_cells[p].end());
        r->formation_cands[p] = fc[size_t(p)];
    }
    const py::dict& o = r->options;
    std::string variant = o["variant"].cast<std::string>();
    r->variant = variant == "basic" ? 0 : variant == "inspiration" ? 1 : 2;
    r->modification = o["modification"].cast<int>();
    std::string sel = o["custom_selection"].cast<std::string>();
    r->custom_selection =
        sel == "alternate" ? 0 : sel == "alternate_all" ? 1 : sel == "agreed" ? 2 : 3;
    r->move_up = o["move_up_for_selection"].cast<bool>();
    r->sanryaku = o["sanryaku"].cast<bool>();
    r->fence_diag_neighbour = o["fence_diagonal"].cast<std::string>() == "neighbour_front";
    r->shoot_any_crossed = o["shoot_block"].cast<std::string>() == "any_crossed";
    r->back_line = o["invasion_zone"].cast<std::string>() == "back_line";
    r->shield_breaks = o["shield_hit_breaks_fences"].cast<bool>();
    r->shield_turn = o["shield_hit_facing"].cast<std::string>() == "turn";
    r->tournament = o["time_control"].cast<std::string>() == "tournament";
    r->lightning_alone = o["lightning_alone_resupply"].cast<int>();
    r->cap = o["logistics_cap"].is_none() ? -1 : o["logistics_cap"].cast<int>();
    r->length_limit = get<int>(spec, "length_limit");
    for (auto& c : get<std::vector<std::string>>(spec, "deck")) r->deck.push_back(code_of(*r, c));
    for (auto& c : get<std::vector<std::string>>(spec, "advanced"))
        r->advanced.push_back(code_of(*r, c));
    for (auto& c : get<std::vector<std::string>>(spec, "pool")) r->pool.push_back(code_of(*r, c));
    py::object preset = spec["formation"];
    if (!preset.is_none()) {
        py::dict f = preset.cast<py::dict>();
        r->preset_formation = true;
        r->preset_public = f["public_cards"].cast<bool>();
        py::list sides = f["sides"];
        for (int p = 0; p < 2; ++p) {
            py::dict s = sides[size_t(p)].cast<py::dict>();
            for (auto& u : s["units"].cast<std::vector<std::vector<int>>>())
                r->sides[p].units.push_back({u[0], u[1], u[2]});
            r->sides[p].fences = s["fences"].cast<std::vector<int>>();
            for (auto& c : s["hand"].cast<std::vector<std::string>>())
                r->sides[p].hand.push_back(code_of(*r, c));
            for (auto& c : s["deck"].cast<std::vector<std::string>>())
                r->sides[p].deck.push_back(code_of(*r, c));
            r->sides[p].cost = s["cost"].cast<int>();
        }
    }
    return r;
}

// ---------------------------------------------------------------------- the position
// cards.py's Card tuple: (code, known, up) or (code, known, up, bag).
struct Card {
    int code = 0;
    int known = 0;  // 0 False, 1 True, 2 SCOUTED
    bool up = false;
    int bag = NOBAG;
    int bag_of() const { return bag == NOBAG ? -1 : bag; }
};

bool seen(const Card& c, bool show, bool seated) {
    return show || c.up || c.known == 1 || (c.known == SCOUTED && seated);
}

// knowledge.py's Bag.
struct Bag {
    int id = 0;
    std::vector<int> lits;
    std::vector<std::pair<int, int>> par;
    std::vector<int> gone;
    bool has_free = false;
    int free = 0;
    std::vector<int> pool, used;
};

// A tuple field of a Command (None, or units).
struct Seq {
    bool has = false;
    std::vector<int> v;
    void set(std::vector<int> x) {
        has = true;
        v = std::move(x);
    }
    bool contains(int u) const { return std::find(v.begin(), v.end(), u) != v.end(); }
};

// commands/command.py's Command: -1 for a field not decided (None).
struct Cmd {
    int card = 0;
    int type = -1;
    int step = C_UNIT;
    bool has_modes = false;
    std::vector<int> modes;
    int mode = -1;
    int leader = -1, origin = -1, dir = -1, shooter = -1, builder = -1, shots = -1, base = -1;
    int piece = -1, cell = -1, first = -1, invader = -1;
    Seq used, sel, moved, trap_moved, mates, order;
    int rapid = R_NONE;
};

struct Outcome {
    std::string reason;
    std::vector<int> winners;
    std::vector<double> scores, returns;
};

using Pile = std::vector<Card>;
using Opt = std::pair<bool, Card>;  // (present, card)

struct Match {
    explicit Match(std::shared_ptr<const Rules> rules) : R(std::move(rules)) { clear(); }
    std::shared_ptr<const Rules> R;

    std::string seed = "0";  // the seed in decimal: any Python int
    int phase = FORMATION, player = RED, step = S_NONE, ply = 0;
    bool over = false;
    Outcome result;
    int points[2];
    int fence[EDGES];
    int fences_left[2];
    int uloc[NT], uown[NT], uface[NT];
    bool ushield[NT];
    int board[CELLS];
    int invaders[2];
    bool invaded_turn = false;
    Pile hand[2], deck[2], row[2], stock[2];
    Opt lightning[2], beside[2];
    bool face_down_next[2];
    std::vector<int> prepared[2], unused[2], removed[2], pool, m3[2];
    bool swap_done[2];
    int removed_bag[2], box_bag[2];
    std::vector<int> picks[2], pick_order, pre_taken;
    bool deck_public = true;
    int fpiece = -1, fcell = -1;
    bool clock_started = false, cards_public = false;
    int shogun[2];
    bool revealed[2];
    std::vector<int> candidates[2];
    Pile queue;
    Opt cur;
    int sent = 0, turn = 0;
    bool has_cmd = false;
    Cmd cmd;
    std::vector<Bag> bags[2];
    int next_bag = 0;
    // the legal list of this position, kept until the position changes
    bool memo_ok = false;
    std::vector<int> memo;

    void clear() {
        phase = FORMATION;
        player = RED;
        step = S_NONE;
        ply = 0;
        over = false;
        result = Outcome();
        for (int p = 0; p < 2; ++p) {
            points[p] = R->starting_points;
            fences_left[p] = R->fences_per_player;
            invaders[p] = 0;
            hand[p].clear();
            deck[p].clear();
            row[p].clear();
            stock[p].clear();
            lightning[p] = {false, Card()};
            beside[p] = {false, Card()};
            face_down_next[p] = true;
            prepared[p].clear();
            unused[p].clear();
            removed[p].clear();
            m3[p].clear();
            swap_done[p] = false;
            removed_bag[p] = -1;
            box_bag[p] = -1;
            picks[p].clear();
            shogun[p] = -1;
            revealed[p] = false;
            candidates[p].clear();
            bags[p].clear();
        }
        std::fill(fence, fence + EDGES, -1);
        for (int u = 0; u < NT; ++u) {
            uloc[u] = OFF;
            uown[u] = -1;
            uface[u] = 0;
            ushield[u] = false;
        }
        std::fill(board, board + CELLS, -1);
        invaded_turn = false;
        pool.clear();
        pick_order.clear();
        pre_taken.clear();
        deck_public = true;
        fpiece = -1;
        fcell = -1;
        clock_started = false;
        cards_public = false;
        queue.clear();
        cur = {false, Card()};
        sent = 0;
        turn = 0;
        has_cmd = false;
        next_bag = 0;
        memo_ok = false;
    }

    const Rules& r() const { return *R; }
    int tt(int u) const { return R->ttype[u]; }

    // ------------------------------------------------------------ logistics.py
    void gain(int p, int n) {
        int total = points[p] + n;
        points[p] = R->cap < 0 ? total : std::max(points[p], std::min(R->cap, total));
    }
    void pay(int p, int n) { points[p] -= n; }

    // ------------------------------------------------------------ winning.py
    void win(int winner, const char* reason) {
        over = true;
        result.reason = reason;
        result.winners = {winner};
        result.scores = {winner == 0 ? 1.0 : 0.0, winner == 1 ? 1.0 : 0.0};
        result.returns = {winner == 0 ? 1.0 : -1.0, winner == 1 ? 1.0 : -1.0};
    }
    void check_shogun_captured(int target, int owner, int attacker) {
        if (shogun[owner] != target) return;
        revealed[owner] = true;
        win(attacker, "shogun_captured");
    }
    void check_invasion_win(int p) {
        if (invaders[p] >= R->invaders_to_win) win(p, "invasion");
    }

    // ------------------------------------------------------------ shogun_and_card_order.py
    void set_candidates(int p) {
        candidates[p].clear();
        for (int u = 0; u < NT; ++u)
            if (uown[u] == p) candidates[p].push_back(u);
    }
    void rule_out(int p, int u) {
        auto& c = candidates[p];
        auto it = std::find(c.begin(), c.end(), u);
        if (it != c.end()) c.erase(it);
    }

    // ------------------------------------------------------------ units.py
    int free_token(int t) const {
        for (int u = 0; u < NT; ++u)
            if (R->ttype[u] == t && uloc[u] == OFF) return u;
        return -1;
    }
    void put_unit(int u, int p, int cell, int face) {
        uloc[u] = cell;
        uown[u] = p;
        uface[u] = face;
        ushield[u] = R->unit_shield[tt(u)];
        board[cell] = u;
    }
    void remove_unit(int u) {
        int owner = uown[u];
        board[uloc[u]] = -1;
        uloc[u] = OFF;
        uown[u] = -1;
        ushield[u] = false;
        if (shogun[owner] != u) rule_out(owner, u);
    }
    void move_to(int u, int cell, int face) {
        board[uloc[u]] = -1;
        board[cell] = u;
        uloc[u] = cell;
        uface[u] = face;
    }
    bool on_field(int u) const { return uloc[u] >= 0 && uloc[u] < CELLS; }
    // types: a mask over IAC (1 I, 2 A, 4 C)
    std::vector<int> units_of(int p, int types = 7) const {
        std::vector<int> out;
        for (int u = 0; u < NT; ++u)
            if (uown[u] == p && on_field(u) && (types >> tt(u) & 1)) out.push_back(u);
        return out;
    }
    bool any_unit(int p) const {
        for (int u = 0; u < NT; ++u)
            if (uown[u] == p && on_field(u)) return true;
        return false;
    }
    std::vector<int> adjacent_own(int cell, int p, int types) const {
        std::vector<int> out;
        for (int d = 0; d < 4; ++d) {
            int n = R->nb[cell][d];
            if (n >= 0) {
                int u = board[n];
                if (u >= 0 && uown[u] == p && (types >> tt(u) & 1)) out.push_back(u);
            }
        }
        return out;
    }
    bool enemy_fence(int cell, int d, int p) const {
        int e = R->edge_of[cell][d];
        return e >= 0 && fence[e] == 1 - p;
    }
    void step1(int cell, int d, int p, const int* b, std::vector<int>& out) const {
        int n = R->nb[cell][d];
        if (n < 0) return;
        if (enemy_fence(cell, d, p)) return;
        int occ = b[n];
        if (occ >= 0 && uown[occ] == p) return;
        out.push_back(n);
    }
    int double_step(int cell, int d, int p, const int* b) const {
        int n1 = R->nb[cell][d];
        if (n1 >= 0 && !enemy_fence(cell, d, p)) {
            int n2 = R->nb[n1][d];
            if (n2 >= 0 && !enemy_fence(n1, d, p)) {
                int occ = b[n2];
                if (occ < 0 || uown[occ] != p) return n2;
            }
        }
        return -1;
    }
    // units.dests (light: Light Infantry's movement)
    std::vector<int> dests(int u, int d, bool light, const int* b = nullptr) const {
        if (!b) b = board;
        std::vector<int> out;
        int p = uown[u], cell = uloc[u], f = uface[u];
        if (!light && tt(u) == 2) {  // cavalry_dests
            if (d == (f + 2) % 4) return out;
            if (d != f) {
                step1(cell, d, p, b, out);
                return out;
            }
            bool jumped = false;
            int cur_ = cell;
            while (true) {
                int nxt = R->nb[cur_][d];
                if (nxt < 0 || enemy_fence(cur_, d, p)) break;
                int occ = b[nxt];
                if (occ < 0) {
                    out.push_back(nxt);
                } else if (uown[occ] != p) {
                    out.push_back(nxt);
                    break;
                } else if (tt(occ) != 2 && !jumped) {
                    jumped = true;
                } else {
                    break;
                }
                cur_ = nxt;
            }
            return out;
        }
        step1(cell, d, p, b, out);
        if (light && d == f) {
            int two = double_step(cell, d, p, b);
            if (two >= 0) out.push_back(two);
        }
        return out;
    }

    // ------------------------------------------------------------ fences.py
    void place_fence(int e, int p) {
        fence[e] = p;
        fences_left[p] -= 1;
    }
    std::vector<int> formation_edges(int p) const {
        std::vector<int> out;
        for (int e : R->formation_cands[p])
            if (fence[e] < 0) out.push_back(e);
        return out;
    }
    std::vector<int> buildable_edges(int u) const {
        int p = uown[u], cell = uloc[u], f = uface[u];
        int left = (f + 3) % 4, right = (f + 1) % 4;
        std::vector<int> edges = {R->edge_of[cell][f], R->edge_of[cell][left],
                                  R->edge_of[cell][right]};
        if (R->fence_diag_neighbour) {
            for (int side : {left, right}) {
                int n = R->nb[cell][side];
                if (n >= 0) edges.push_back(R->edge_of[n][f]);
            }
        } else {
            int n = R->nb[cell][f];
            if (n >= 0) {
                edges.push_back(R->edge_of[n][left]);
                edges.push_back(R->edge_of[n][right]);
            }
        }
        std::vector<int> out;
        for (int e : edges) {
            if (e < 0 || fence[e] >= 0) continue;
            bool near = false;
            for (int i = 0; i < 2; ++i) {
                int c = R->edge_cells[e][i];
                if (board[c] >= 0 && uown[board[c]] == 1 - p) near = true;
            }
            if (near) continue;
            out.push_back(e);
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    }
    void break_fences(int cell, int p) {
        for (int d = 0; d < 4; ++d) {
            int e = R->edge_of[cell][d];
            if (e >= 0 && fence[e] == 1 - p) {
                fence[e] = -1;
                fences_left[1 - p] += 1;
            }
        }
    }

    // ------------------------------------------------------------ invasion.py, combat.py
    bool in_zone(int cell, int p) const {
        int rr = cell / SIZE, c = cell % SIZE;
        if (rr != (p == RED ? SIZE - 1 : 0)) return false;
        return R->back_line || (2 <= c && c <= 4);
    }
    void invade(int m, int p) {
        int worth = ushield[m] ? 2 : 1;
        board[uloc[m]] = -1;
        uloc[m] = INVADED;
        ushield[m] = false;
        rule_out(p, m);
        invaders[p] += worth;
        invaded_turn = true;
        check_invasion_win(p);
    }
    bool capture(int target, int attacker, int by) {
        int owner = uown[target];
        if (ushield[target] && by != 2) {
            ushield[target] = false;
            return false;
        }
        remove_unit(target);
        check_shogun_captured(target, owner, attacker);
        return true;
    }

    // ------------------------------------------------------------ knowledge.py
    void sort_lits(std::vector<int>& v) const {
        std::stable_sort(v.begin(), v.end(),
                         [&](int a, int b) { return R->lex[size_t(a)] < R->lex[size_t(b)]; });
    }
    int new_bag(int p, std::vector<int> lits, std::vector<std::pair<int, int>> par = {},
                bool has_pool = false, int free = 0, std::vector<int> used = {}) {
        int bid = next_bag++;
        Bag b;
        b.id = bid;
        sort_lits(lits);
        b.lits = std::move(lits);
        std::sort(par.begin(), par.end());
        b.par = std::move(par);
        if (has_pool) {
            b.has_free = true;
            b.free = free;
            b.pool = R->pool;
            sort_lits(used);
            b.used = std::move(used);
        }
        bags[p].push_back(std::move(b));
        return bid;
    }
    void reset_knowledge(int p) {
        std::vector<Bag> kept;
        for (auto& b : bags[p])
            if (b.id == box_bag[p]) kept.push_back(b);
        bags[p] = std::move(kept);
        std::vector<Pile*> zones = {&stock[p], &hand[p], &deck[p], &row[p]};
        if (player == p) zones.push_back(&queue);
        std::vector<int> unknown, known;
        for (Pile* z : zones)
            for (const Card& c : *z) (c.known || c.up ? known : unknown).push_back(c.code);
        Opt& lt = lightning[p];
        if (lt.first) (lt.second.known || lt.second.up ? known : unknown).push_back(lt.second.code);
        int bid;
        if (unknown.empty()) {
            bid = -1;
        } else if (deck_public) {
            bid = new_bag(p, unknown);
        } else {
            std::vector<int> lits = pre_taken;
            for (int code : known) {
                auto it = std::find(lits.begin(), lits.end(), code);
                if (it != lits.end()) lits.erase(it);
            }
            int free = int(unknown.size()) - int(lits.size());
            bid = new_bag(p, lits, {}, true, free, known);
        }
        auto mark = [&](Card& c) { c.bag = (c.known || c.up) ? NOBAG : bid; };
        for (Pile* z : zones)
            for (Card& c : *z) mark(c);
        if (lt.first) mark(lt.second);
    }
    int bag_index(int p, int bid) const {
        for (size_t i = 0; i < bags[p].size(); ++i)
            if (bags[p][i].id == bid) return int(i);
        throw std::runtime_error("no knowledge bag " + std::to_string(bid));
    }
    void consume(int p, int bid, int code) {
        while (bid >= 0) {
            Bag& bag = bags[p][size_t(bag_index(p, bid))];
            int parent = -1;
            auto it = std::find(bag.lits.begin(), bag.lits.end(), code);
            if (bag.has_free) {
                bag.used.push_back(code);
                if (it != bag.lits.end())
                    bag.lits.erase(it);
                else
                    bag.free -= 1;
            } else if (it != bag.lits.end()) {
                bag.lits.erase(it);
            } else if (bag.par.size() == 1) {
                bag.par[0].second -= 1;
                parent = bag.par[0].first;
                if (bag.par[0].second <= 0) bag.par.clear();
            } else {
                bag.gone.push_back(code);
            }
            bid = parent;
        }
    }
    int mix(int p, const std::vector<Card>& cards, bool with_known) {
        std::vector<int> lits;
        if (with_known)
            for (const Card& c : cards)
                if (c.bag == NOBAG || c.bag < 0) lits.push_back(c.code);
        std::vector<std::pair<int, int>> par;  // in first-seen order
        for (const Card& c : cards)
            if (c.bag != NOBAG && c.bag >= 0) {
                bool found = false;
                for (auto& x : par)
                    if (x.first == c.bag) {
                        x.second += 1;
                        found = true;
                    }
                if (!found) par.push_back({c.bag, 1});
            }
        if (lits.empty() && par.size() == 1) return par[0].first;
        if (lits.empty() && par.empty()) return -1;
        return new_bag(p, lits, par);
    }
    void slot_bags(int p, std::vector<int>& out) const {
        for (const Pile* z : {&stock[p], &hand[p], &deck[p], &row[p]})
            for (const Card& c : *z)
                if (c.bag != NOBAG && c.bag >= 0) out.push_back(c.bag);
        if (lightning[p].first && lightning[p].second.bag_of() >= 0)
            out.push_back(lightning[p].second.bag);
        if (player == p)
            for (const Card& c : queue)
                if (c.bag != NOBAG && c.bag >= 0) out.push_back(c.bag);
        if (removed_bag[p] >= 0 && !removed[p].empty()) out.push_back(removed_bag[p]);
        if (box_bag[p] >= 0 && (!prepared[p].empty() || !unused[p].empty()))
            out.push_back(box_bag[p]);
    }
    void collect_garbage(int p) {
        while (true) {
            std::vector<int> live;
            slot_bags(p, live);
            for (auto& b : bags[p])
                for (auto& x : b.par)
                    if (x.second > 0) live.push_back(x.first);
            std::vector<int> dead;
            for (auto& b : bags[p])
                if (std::find(live.begin(), live.end(), b.id) == live.end() && b.gone.empty() &&
                    b.lits.empty() && b.par.empty() && !(b.has_free && b.free))
                    dead.push_back(b.id);
            if (dead.empty()) return;
            std::vector<Bag> kept;
            for (auto& b : bags[p])
                if (std::find(dead.begin(), dead.end(), b.id) == dead.end()) kept.push_back(b);
            bags[p] = std::move(kept);
        }
    }

    // ------------------------------------------------------------ cards.py
    static int find_card(const Pile& cards, int code, bool prefer_known) {
        int best = -1;
        for (size_t i = 0; i < cards.size(); ++i)
            if (cards[i].code == code) {
                if (best < 0 || (prefer_known && cards[i].known && !cards[size_t(best)].known))
                    best = int(i);
            }
        if (best < 0) throw std::runtime_error("no such card there");
        return best;
    }
    static Card take_card(Pile& cards, int code) {
        int i = find_card(cards, code, false);
        Card c = cards[size_t(i)];
        cards.erase(cards.begin() + i);
        return c;
    }
    void to_deck_bottom(int p, int code) { deck[p].push_back(Card{code, 1, false, NOBAG}); }

    // ------------------------------------------------------------ chained_commands.py
    static int front_key(int loc, int d) {
        int rr = loc / SIZE, c = loc % SIZE;
        return d == 0 ? -rr : d == 1 ? -c : d == 2 ? rr : c;
    }
    std::vector<int> front_first(std::vector<int> units, int d) const {
        std::stable_sort(units.begin(), units.end(), [&](int a, int b) {
            return front_key(uloc[a], d) < front_key(uloc[b], d);
        });
        return units;
    }
    std::vector<int> mates(int u, int p, const Cmd& c) const {
        if (c.type == T_RAPID) return {};
        return adjacent_own(uloc[u], p, 1 << tt(u));
    }
    // which of these units could act, resolved front first
    std::vector<int> simulate(const std::vector<int>& units, int d, bool light) const {
        int b[CELLS];
        std::copy(board, board + CELLS, b);
        std::vector<int> acted;
        for (int u : front_first(units, d)) {
            int cell = uloc[u];
            auto ds = dests(u, d, light, b);
            if (ds.empty()) continue;
            acted.push_back(u);
            int dest = ds[0];
            int occ = b[dest];
            if (occ >= 0 && ushield[occ] && tt(u) != 2) continue;
            b[cell] = -1;
            b[dest] = u;
        }
        return acted;
    }
    static bool has(const std::vector<int>& v, int x) {
        return std::find(v.begin(), v.end(), x) != v.end();
    }

    // ------------------------------------------------------------ actions
    int act(int kind, int arg) const { return R->offset[kind] + arg; }
};

}  // namespace

namespace {

using V = std::vector<int>;

// Forward declarations (the rule modules call one another as the Python modules do).
bool possible(Match& m, Cmd& c);
void legal_cmd(Match& m, Cmd& c, V& out);
void continue_turn(Match& m);
void begin_turn(Match& m);

// ---------------------------------------------------------------- commands/command.py
void done(Match& m) { m.has_cmd = false; }
void nothing(Match& m) { m.has_cmd = false; }

void open_command(Match& m, const Cmd& c, bool affordable = true) {
    m.cmd = c;
    m.has_cmd = true;
    if (!affordable || !possible(m, m.cmd)) nothing(m);
}

void set_mode(Match& m, Cmd& c, int mode);

void offer_modes(Match& m, Cmd c, const V& modes) {
    if (modes.empty()) {
        nothing(m);
    } else if (modes.size() == 1) {
        m.cmd = c;
        m.has_cmd = true;
        set_mode(m, m.cmd, modes[0]);
    } else {
        c.step = C_MODE;
        c.has_modes = true;
        c.modes = modes;
        m.cmd = c;
        m.has_cmd = true;
    }
}

Cmd make_cmd(int card, int type, int step) {
    Cmd c;
    c.card = card;
    c.type = type;
    c.step = step;
    return c;
}

// ---------------------------------------------------------------- chained_commands.py
using JoinTest = bool (*)(Match&, Cmd&, int, int);

void chain_choices(Match& m, Cmd& c, int p, JoinTest may_join, V& out) {
    for (int u : m.adjacent_own(c.origin, p, 1 << m.tt(c.leader)))
        if (!c.used.contains(u) && may_join(m, c, u, p)) out.push_back(m.act(K_CHAIN, m.uloc[u]));
}

void after_chain_member(Match& m, Cmd& c, int p, JoinTest may_join) {
    c.step = C_CHAIN;
    V out;
    chain_choices(m, c, p, may_join, out);
    if (out.empty()) done(m);
}

// ---------------------------------------------------------------- rapid_move.py (faces)
V rapid_faces(Match& m, int u) {
    V out;
    int saved = m.uface[u];
    for (int f = 0; f < 4; ++f) {
        if (f == saved) continue;
        m.uface[u] = f;
        for (int d = 0; d < 4; ++d)
            if (!m.dests(u, d, false).empty()) {
                out.push_back(f);
                break;
            }
    }
    m.uface[u] = saved;
    return out;
}

// ---------------------------------------------------------------- commands/move.py
bool is_light(const Cmd& c) { return c.type == T_LIGHT; }

bool can_lead(Match& m, int u, int d, int p, Cmd& c) {
    bool light = is_light(c);
    if (!m.dests(u, d, light).empty()) return true;
    V ms = m.mates(u, p, c);
    if (ms.empty()) return false;
    V group = {u};
    group.insert(group.end(), ms.begin(), ms.end());
    return Match::has(m.simulate(group, d, light), u);
}

V movable_units(Match& m, Cmd& c, int p, bool first_only = false) {
    bool light = is_light(c);
    V out;
    for (int u : m.units_of(p, light ? 1 : 7)) {
        int cell = m.uloc[u];
        int back = (!light && m.tt(u) == 2) ? (m.uface[u] + 2) % 4 : -1;
        bool ok = false;
        for (int d = 0; d < 4; ++d) {
            int n = m.R->nb[cell][d];
            if (n < 0 || d == back) continue;
            int e = m.R->edge_of[cell][d];
            if (e >= 0 && m.fence[e] == 1 - p) continue;
            int occ = m.board[n];
            if (occ < 0 || m.uown[occ] != p) {
                ok = true;
                break;
            }
        }
        if (!ok)
            for (int d = 0; d < 4 && !ok; ++d) ok = !m.dests(u, d, light).empty();
        if (!ok) {
            V ms = m.mates(u, p, c);
            if (!ms.empty()) {
                V group = {u};
                group.insert(group.end(), ms.begin(), ms.end());
                for (int d = 0; d < 4 && !ok; ++d) ok = Match::has(m.simulate(group, d, light), u);
            }
        }
        if (!ok && c.type == T_RAPID) ok = !rapid_faces(m, u).empty();
        if (ok) {
            out.push_back(u);
            if (first_only) break;
        }
    }
    return out;
}

void move_chain_choices(Match& m, Cmd& c, int u, V& out) {
    int d = c.dir;
    bool light = is_light(c);
    V group = {u};
    group.insert(group.end(), c.mates.v.begin(), c.mates.v.end());
    V could = m.simulate(group, d, light);
    for (int x : c.mates.v)
        if (!c.sel.contains(x) && Match::has(could, x)) out.push_back(m.act(K_CHAIN, m.uloc[x]));
    V mine = {u};
    mine.insert(mine.end(), c.sel.v.begin(), c.sel.v.end());
    if (Match::has(m.simulate(mine, d, light), u)) out.push_back(m.act(K_DONE, 0));
}

void legal_move(Match& m, Cmd& c, V& out) {
    int p = m.player;
    if (c.step == C_UNIT) {
        for (int u : movable_units(m, c, p)) out.push_back(m.act(K_UNIT, m.uloc[u]));
        return;
    }
    int u = c.leader;
    switch (c.step) {
        case C_DIR:
            for (int d = 0; d < 4; ++d)
                if (can_lead(m, u, d, p, c)) out.push_back(m.act(K_DIR, d));
            return;
        case C_RAPID:
            for (int d = 0; d < 4; ++d)
                if (!m.dests(u, d, false).empty()) out.push_back(m.act(K_DIR, d));
            for (int f : rapid_faces(m, u)) out.push_back(m.act(K_FACE, f));
            return;
        case C_RFACE:
            for (int f = 0; f < 4; ++f)
                if (f != m.uface[u]) out.push_back(m.act(K_FACE, f));
            return;
        case C_CHAIN:
            move_chain_choices(m, c, u, out);
            return;
        case C_TO:
            for (int x : m.dests(c.order.v[0], c.dir, is_light(c))) out.push_back(m.act(K_TO, x));
            return;
        case C_INVADE:
            if (m.shogun[p] != c.invader) out.push_back(m.act(K_INVADE, 0));
            out.push_back(m.act(K_STAY, 0));
            return;
        default:
            throw std::runtime_error("move: unknown step");
    }
}

void spring_trap(Match& m, Cmd& c, int p, int mover, int start, int d) {
    int o = 1 - p;
    if (!m.beside[o].first) return;
    Card trap = m.beside[o].second;
    m.beside[o].first = false;
    m.to_deck_bottom(o, trap.code);
    V forced;
    for (int u : m.adjacent_own(start, p, 7))
        if (u != mover) forced.push_back(u);
    forced = m.front_first(forced, d);
    V moved;
    for (int u : forced) {
        int cell = m.uloc[u];
        int n = m.R->nb[cell][d];
        if (n < 0 || m.enemy_fence(cell, d, p) || m.board[n] >= 0) continue;
        m.move_to(u, n, d);
        moved.push_back(u);
        m.break_fences(n, p);
    }
    V tm = c.trap_moved.v;
    tm.insert(tm.end(), moved.begin(), moved.end());
    c.trap_moved.set(tm);
}

// move.move_unit: True when an invasion decision is now pending.
bool move_unit(Match& m, Cmd& c, int p, int mv, int dest) {
    int d = c.dir;
    int start = m.uloc[mv];
    int occ = m.board[dest];
    if (occ >= 0) {
        if (!m.capture(occ, p, m.tt(mv))) {
            if (m.R->shield_turn) m.uface[mv] = d;
            if (m.R->shield_breaks) m.break_fences(start, p);
            return false;
        }
    }
    m.move_to(mv, dest, d);
    if (m.over) return false;
    m.break_fences(dest, p);
    int r0 = start / SIZE, c0 = start % SIZE, r1 = dest / SIZE, c1 = dest % SIZE;
    if (std::abs(r0 - r1) + std::abs(c0 - c1) == 1) spring_trap(m, c, p, mv, start, d);
    if (m.in_zone(dest, p)) {
        c.invader = mv;
        c.step = C_INVADE;
        return true;
    }
    return false;
}

void resolve_moves(Match& m, Cmd& c, int p) {
    bool light = is_light(c);
    int d = c.dir;
    while (!m.over && !c.order.v.empty()) {
        int mv = c.order.v[0];
        if (m.uown[mv] != p || !m.on_field(mv) || c.trap_moved.contains(mv)) {
            c.order.v.erase(c.order.v.begin());
            continue;
        }
        V ds = m.dests(mv, d, light);
        if (ds.empty()) {
            c.order.v.erase(c.order.v.begin());
            continue;
        }
        if (light) m.ushield[mv] = false;  // light_infantry.drop_shield
        if (ds.size() > 1) {
            c.step = C_TO;
            return;
        }
        c.order.v.erase(c.order.v.begin());
        if (move_unit(m, c, p, mv, ds[0])) return;
    }
    if (m.over) {
        done(m);
        return;
    }
    if (c.type == T_RAPID && c.rapid == R_MOVING) {
        c.step = C_RFACE;
        return;
    }
    done(m);
}

void start_moves(Match& m, Cmd& c, int p, int d, const V& sel) {
    V units = {c.leader};
    units.insert(units.end(), sel.begin(), sel.end());
    c.dir = d;
    c.order.set(m.front_first(units, d));
    resolve_moves(m, c, p);
}

void do_move(Match& m, Cmd& c, int kind, int arg) {
    int p = m.player;
    int step = c.step;
    if (step == C_UNIT) {
        int u = m.board[arg];
        c.leader = u;
        c.sel.set({});
        c.moved.set({});
        c.trap_moved.set({});
        if (c.type == T_RAPID) {
            m.pay(p, m.R->cost[size_t(m.R->c_Rapid)]);
            c.step = C_RAPID;
            c.rapid = R_EMPTY;
        } else {
            c.step = C_DIR;
        }
        return;
    }
    int u = c.leader;
    if (step == C_RAPID) {
        if (kind == K_FACE) {
            m.uface[u] = arg;
            c.rapid = R_REORIENTED;
            c.step = C_DIR;
            return;
        }
        c.rapid = R_MOVING;
        start_moves(m, c, p, arg, {});
        return;
    }
    if (step == C_DIR) {
        int d = arg;
        bool light = is_light(c);
        V ms = m.mates(u, p, c);
        V kept;
        if (!ms.empty()) {
            V group = {u};
            group.insert(group.end(), ms.begin(), ms.end());
            V could = m.simulate(group, d, light);
            for (int x : ms)
                if (Match::has(could, x)) kept.push_back(x);
        }
        if (kept.empty()) {
            start_moves(m, c, p, d, {});
            return;
        }
        c.dir = d;
        c.mates.set(kept);
        c.step = C_CHAIN;
        return;
    }
    if (step == C_CHAIN) {
        if (kind == K_DONE) {
            V sel = c.sel.v;
            start_moves(m, c, p, c.dir, sel);
            return;
        }
        c.sel.v.push_back(m.board[arg]);
        V out;
        move_chain_choices(m, c, u, out);
        bool any_chain = false;
        for (int x : out)
            if (x < m.R->offset[K_CHAIN + 1] && x >= m.R->offset[K_CHAIN]) any_chain = true;
        if (!any_chain) {
            V sel = c.sel.v;
            start_moves(m, c, p, c.dir, sel);
        }
        return;
    }
    if (step == C_RFACE) {
        m.uface[u] = arg;
        done(m);
        return;
    }
    if (step == C_TO) {
        int mv = c.order.v[0];
        c.order.v.erase(c.order.v.begin());
        if (!move_unit(m, c, p, mv, arg)) resolve_moves(m, c, p);
        return;
    }
    if (step == C_INVADE) {
        int mv = c.invader;
        if (kind == K_INVADE) {
            m.invade(mv, p);
            if (c.type == T_RAPID) c.rapid = R_INVADED;
        }
        resolve_moves(m, c, p);
    }
}

// ---------------------------------------------------------------- reorient_or_shoot.py
V hits(Match& m, int p, const std::vector<std::pair<int, bool>>& cands) {
    V out;
    for (auto& x : cands) {
        int occ = m.board[x.first];
        if (!x.second && occ >= 0 && m.uown[occ] == 1 - p) out.push_back(x.first);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

V shoot_targets(Match& m, int u) {
    int p = m.uown[u], cell = m.uloc[u], f = m.uface[u];
    int left = (f + 3) % 4, right = (f + 1) % 4;
    bool block_sides = m.R->shoot_any_crossed;
    int f1 = m.R->nb[cell][f];
    std::vector<std::pair<int, bool>> cands;
    if (f1 >= 0) {
        bool b1 = m.enemy_fence(cell, f, p);
        cands.push_back({f1, b1});
        int f2 = m.R->nb[f1][f];
        if (f2 >= 0) cands.push_back({f2, b1 || m.enemy_fence(f1, f, p)});
        for (int side : {left, right}) {
            int dg = m.R->nb[f1][side];
            if (dg >= 0)
                cands.push_back(
                    {dg, block_sides && m.enemy_fence(f1, side, p) && m.enemy_fence(cell, f, p)});
        }
    }
    for (int side : {left, right}) {
        int n = m.R->nb[cell][side];
        if (n >= 0) cands.push_back({n, block_sides && m.enemy_fence(cell, side, p)});
    }
    return hits(m, p, cands);
}

V crossbow_targets(Match& m, int u) {
    int p = m.uown[u], cell = m.uloc[u], f = m.uface[u];
    std::vector<std::pair<int, bool>> cands;
    for (int side : {(f + 3) % 4, (f + 1) % 4}) {
        int n = m.R->nb[cell][side];
        if (n >= 0) cands.push_back({n, m.enemy_fence(cell, side, p)});
    }
    int cur_ = cell;
    for (int i = 0; i < 3; ++i) {
        int nxt = m.R->nb[cur_][f];
        if (nxt < 0) break;
        cands.push_back({nxt, m.enemy_fence(cur_, f, p)});
        cur_ = nxt;
    }
    return hits(m, p, cands);
}

V targets(Match& m, int u, bool crossbow) {
    return crossbow ? crossbow_targets(m, u) : shoot_targets(m, u);
}

bool reorient_joins(Match& m, Cmd& c, int u, int) { return m.uface[u] != c.dir; }
bool shooter_joins(Match& m, Cmd& c, int u, int) {
    return !targets(m, u, c.type == T_CROSSBOW).empty();
}
bool builder_joins(Match& m, Cmd&, int u, int p) {
    return m.fences_left[p] >= 1 && m.points[p] >= m.R->fence_cost &&
           !m.buildable_edges(u).empty();
}

void legal_reorient(Match& m, Cmd& c, V& out) {
    int p = m.player;
    if (c.step == C_UNIT) {
        for (int u : m.units_of(p)) out.push_back(m.act(K_UNIT, m.uloc[u]));
        return;
    }
    if (c.step == C_FACE) {
        for (int d = 0; d < 4; ++d)
            if (d != m.uface[c.leader]) out.push_back(m.act(K_FACE, d));
        return;
    }
    chain_choices(m, c, p, reorient_joins, out);
    out.push_back(m.act(K_DONE, 0));
}

void do_reorient(Match& m, Cmd& c, int kind, int arg) {
    int p = m.player;
    if (kind == K_UNIT) {
        int u = m.board[arg];
        c.leader = u;
        c.origin = m.uloc[u];
        c.step = C_FACE;
        c.used.set({u});
        return;
    }
    if (kind == K_FACE) {
        c.dir = arg;
        m.uface[c.leader] = arg;
        after_chain_member(m, c, p, reorient_joins);
        return;
    }
    if (kind == K_DONE) {
        done(m);
        return;
    }
    int u = m.board[arg];
    c.used.v.push_back(u);
    m.uface[u] = c.dir;
    after_chain_member(m, c, p, reorient_joins);
}

void legal_shoot(Match& m, Cmd& c, V& out) {
    int p = m.player;
    bool crossbow = c.type == T_CROSSBOW;
    if (c.step == C_UNIT) {
        for (int u : m.units_of(p, 2))
            if (!targets(m, u, crossbow).empty()) out.push_back(m.act(K_UNIT, m.uloc[u]));
        return;
    }
    if (c.step == C_HIT) {
        for (int x : targets(m, c.shooter, crossbow)) out.push_back(m.act(K_HIT, x));
        return;
    }
    chain_choices(m, c, p, shooter_joins, out);
    out.push_back(m.act(K_DONE, 0));
}

void do_shoot(Match& m, Cmd& c, int kind, int arg) {
    int p = m.player;
    if (kind == K_UNIT) {
        int u = m.board[arg];
        c.leader = u;
        c.origin = m.uloc[u];
        c.shooter = u;
        c.step = C_HIT;
        c.used.set({u});
        return;
    }
    if (kind == K_CHAIN) {
        int u = m.board[arg];
        c.shooter = u;
        c.step = C_HIT;
        c.used.v.push_back(u);
        return;
    }
    if (kind == K_DONE) {
        done(m);
        return;
    }
    int target = m.board[arg];
    int shooter = c.shooter;
    m.capture(target, p, 1);
    if (m.over) {
        done(m);
        return;
    }
    if (c.type == T_FIRE) {  // rapid_fire.after_shot
        c.shots += 1;
        if (c.shots >= 2 || shoot_targets(m, shooter).empty()) done(m);
        return;
    }
    after_chain_member(m, c, p, shooter_joins);
}

// ---------------------------------------------------------------- build_fence.py
void legal_fence(Match& m, Cmd& c, V& out) {
    int p = m.player;
    if (c.step == C_UNIT) {
        if (m.fences_left[p] < 1 || m.points[p] < m.R->fence_cost) return;
        for (int u : m.units_of(p, 1))
            if (!m.buildable_edges(u).empty()) out.push_back(m.act(K_UNIT, m.uloc[u]));
        return;
    }
    if (c.step == C_FENCE) {
        for (int e : m.buildable_edges(c.builder)) out.push_back(m.act(K_FENCE, e));
        return;
    }
    chain_choices(m, c, p, builder_joins, out);
    out.push_back(m.act(K_DONE, 0));
}

void do_fence(Match& m, Cmd& c, int kind, int arg) {
    int p = m.player;
    if (kind == K_UNIT || kind == K_CHAIN) {
        int u = m.board[arg];
        if (kind == K_UNIT) {
            c.leader = u;
            c.origin = m.uloc[u];
        }
        c.builder = u;
        c.step = C_FENCE;
        c.used.v.push_back(u);
        c.used.has = true;
        return;
    }
    if (kind == K_DONE) {
        done(m);
        return;
    }
    m.place_fence(arg, p);
    m.pay(p, m.R->fence_cost);
    after_chain_member(m, c, p, builder_joins);
}

// ---------------------------------------------------------------- reinforce.py, en route
V reinforce_types(Match& m, int p, const int* costs, bool need_home) {
    V out;
    if (need_home) {
        bool room = false;
        for (int c : m.R->home_cells[p])
            if (m.board[c] < 0) room = true;
        if (!room) return out;
    }
    for (int t = 0; t < 3; ++t)
        if (costs[t] <= m.points[p] && m.free_token(t) >= 0) out.push_back(t);
    return out;
}

V en_route_cells(Match& m, int u) {
    int p = m.uown[u];
    V out;
    for (int d = 0; d < 4; ++d) {
        int n = m.R->nb[m.uloc[u]][d];
        if (n >= 0 && m.board[n] < 0 && !m.R->home[p][n]) out.push_back(n);
    }
    std::sort(out.begin(), out.end());
    return out;
}

void legal_reinforce(Match& m, Cmd& c, V& out) {
    int p = m.player;
    bool en_route = c.type == T_ENROUTE;
    const int* costs = en_route ? m.R->en_route_cost : m.R->unit_cost;
    if (en_route && c.step == C_UNIT) {
        if (reinforce_types(m, p, costs, false).empty()) return;
        for (int u : m.units_of(p, 3))
            if (!en_route_cells(m, u).empty()) out.push_back(m.act(K_UNIT, m.uloc[u]));
        return;
    }
    if (c.step == C_PIECE) {
        for (int t : reinforce_types(m, p, costs, !en_route)) out.push_back(m.act(K_PLACE, t));
        return;
    }
    if (c.step == C_AT) {
        if (en_route) {
            for (int x : en_route_cells(m, c.base)) out.push_back(m.act(K_AT, x));
        } else {
            for (int x : m.R->home_cells[p])
                if (m.board[x] < 0) out.push_back(m.act(K_AT, x));
        }
        return;
    }
    for (int d = 0; d < 4; ++d) out.push_back(m.act(K_FACE, d));
}

void do_reinforce(Match& m, Cmd& c, int kind, int arg) {
    int p = m.player;
    if (kind == K_UNIT) {
        c.base = m.board[arg];
        c.step = C_PIECE;
        return;
    }
    if (kind == K_PLACE) {
        c.piece = arg;
        c.step = C_AT;
        return;
    }
    if (kind == K_AT) {
        c.cell = arg;
        c.step = C_FACE;
        return;
    }
    int t = c.piece;
    int cost = (c.type == T_REINFORCE ? m.R->unit_cost : m.R->en_route_cost)[t];
    int u = m.free_token(t);
    m.put_unit(u, p, c.cell, arg);
    m.pay(p, cost);
    m.break_fences(c.cell, p);
    done(m);
}

// ---------------------------------------------------------------- scout.py
void legal_look(Match& m, V& out) {
    int o = 1 - m.player;
    if (m.lightning[o].first) out.push_back(m.act(K_LOOK, 0));
    for (size_t i = 0; i < m.row[o].size(); ++i) out.push_back(m.act(K_LOOK, int(i) + 1));
}

void do_look(Match& m, int arg) {
    int o = 1 - m.player;
    Card* slot = arg == 0 ? &m.lightning[o].second : &m.row[o][size_t(arg - 1)];
    Card card = *slot;
    slot->known = card.known ? card.known : SCOUTED;
    slot->bag = NOBAG;
    m.consume(o, card.bag_of(), card.code);
    done(m);
}

void do_ask(Match& m, int arg) {
    int o = 1 - m.player;
    int u = m.board[arg];
    if (m.shogun[o] == u) {
        m.revealed[o] = true;
        m.candidates[o] = {u};
    } else {
        m.rule_out(o, u);
    }
    done(m);
}

// ---------------------------------------------------------------- strategic_switch.py
void legal_switch(Match& m, Cmd& c, V& out) {
    int p = m.player;
    if (c.step == C_UNIT) {
        for (int u : m.units_of(p))
            if (!m.adjacent_own(m.uloc[u], p, 7).empty()) out.push_back(m.act(K_UNIT, m.uloc[u]));
        return;
    }
    for (int v : m.adjacent_own(m.uloc[c.first], p, 7)) out.push_back(m.act(K_SWAP, m.uloc[v]));
}

void do_switch(Match& m, Cmd& c, int kind, int arg) {
    int p = m.player;
    if (kind == K_UNIT) {
        m.pay(p, m.R->cost[size_t(m.R->c_Switch)]);
        c.first = m.board[arg];
        c.step = C_SWAP;
        return;
    }
    int u = c.first, v = m.board[arg];
    int cu = m.uloc[u], cv = m.uloc[v];
    m.uloc[u] = cv;
    m.uloc[v] = cu;
    m.board[cu] = v;
    m.board[cv] = u;
    done(m);
}

// ---------------------------------------------------------------- universal_rules.py
void set_mode(Match& m, Cmd& c, int mode) {
    c.mode = mode;
    if (mode == M_REORIENT) {
        c.type = T_REORIENT;
        c.step = C_UNIT;
    } else if (mode == M_SHOOT || mode == M_CROSSBOW) {
        c.type = mode == M_SHOOT ? T_SHOOT : T_CROSSBOW;
        c.step = C_UNIT;
        c.used.set({});
    } else {  // scout.choose
        int p = m.player;
        if (mode == M_COMMANDS) {
            m.pay(p, m.R->scout_commands);
            c.type = T_LOOK;
            c.step = C_LOOK;
        } else {
            m.pay(p, m.R->scout_shogun);
            c.type = T_ASK;
            c.step = C_ASK;
        }
    }
}

void start_card(Match& m, int code) {
    const Rules& r = *m.R;
    int p = m.player;
    if (code == r.c_M) {
        open_command(m, make_cmd(code, T_MOVE, C_UNIT));
    } else if (code == r.c_Re || code == r.c_Crossbow) {
        bool crossbow = code == r.c_Crossbow;
        V modes;
        if (m.any_unit(p)) modes.push_back(M_REORIENT);
        for (int u : m.units_of(p, 2))
            if (!targets(m, u, crossbow).empty()) {
                modes.push_back(crossbow ? M_CROSSBOW : M_SHOOT);
                break;
            }
        Cmd c;
        c.card = code;
        offer_modes(m, c, modes);
    } else if (code == r.c_F) {
        Cmd c = make_cmd(code, T_FENCE, C_UNIT);
        c.used.set({});
        open_command(m, c);
    } else if (code == r.c_Rf) {
        open_command(m, make_cmd(code, T_REINFORCE, C_PIECE));
    } else if (code == r.c_Rapid) {
        open_command(m, make_cmd(code, T_RAPID, C_UNIT),
                     m.points[p] >= r.cost[size_t(r.c_Rapid)]);
    } else if (code == r.c_Review) {
        m.gain(p, r.review_gain);
    } else if (code == r.c_EnRoute) {
        open_command(m, make_cmd(code, T_ENROUTE, C_UNIT));
    } else if (code == r.c_Light) {
        open_command(m, make_cmd(code, T_LIGHT, C_UNIT));
    } else if (code == r.c_Scout) {
        int pts = m.points[p];
        V modes;
        bool opp_row = !m.row[1 - p].empty() || m.lightning[1 - p].first;
        if (pts >= r.scout_commands && opp_row) modes.push_back(M_COMMANDS);
        if (pts >= r.scout_shogun && m.any_unit(1 - p)) modes.push_back(M_SHOGUN);
        Cmd c;
        c.card = code;
        offer_modes(m, c, modes);
    } else if (code == r.c_Fire) {
        Cmd c = make_cmd(code, T_FIRE, C_UNIT);
        c.shots = 0;
        open_command(m, c);
    } else if (code == r.c_Switch) {
        open_command(m, make_cmd(code, T_SWITCH, C_UNIT),
                     m.points[p] >= r.cost[size_t(r.c_Switch)]);
    } else if (code == r.c_Trap) {
        if (m.points[p] < r.cost[size_t(r.c_Trap)]) {
            nothing(m);
            return;
        }
        m.pay(p, r.cost[size_t(r.c_Trap)]);
        m.beside[p] = m.cur;  // battle.set_aside, cards.lay_trap
        m.cur.first = false;
    } else {
        throw std::runtime_error("a card the core does not know: " + r.codes[size_t(code)]);
    }
}

void legal_cmd(Match& m, Cmd& c, V& out) {
    if (c.step == C_MODE) {
        for (int x : c.modes) out.push_back(m.act(K_MODE, x));
        return;
    }
    switch (c.type) {
        case T_MOVE:
        case T_LIGHT:
        case T_RAPID:
            legal_move(m, c, out);
            return;
        case T_REORIENT:
            legal_reorient(m, c, out);
            return;
        case T_SHOOT:
        case T_CROSSBOW:
        case T_FIRE:
            legal_shoot(m, c, out);
            return;
        case T_FENCE:
            legal_fence(m, c, out);
            return;
        case T_REINFORCE:
        case T_ENROUTE:
            legal_reinforce(m, c, out);
            return;
        case T_LOOK:
            legal_look(m, out);
            return;
        case T_ASK:
            for (int u : m.units_of(1 - m.player)) out.push_back(m.act(K_ASK, m.uloc[u]));
            return;
        case T_SWITCH:
            legal_switch(m, c, out);
            return;
        default:
            throw std::runtime_error("unknown command state");
    }
}

void do_cmd(Match& m, Cmd& c, int kind, int arg) {
    if (kind == K_MODE) {
        set_mode(m, c, arg);
        return;
    }
    switch (c.type) {
        case T_MOVE:
        case T_LIGHT:
        case T_RAPID:
            do_move(m, c, kind, arg);
            return;
        case T_REORIENT:
            do_reorient(m, c, kind, arg);
            return;
        case T_SHOOT:
        case T_CROSSBOW:
        case T_FIRE:
            do_shoot(m, c, kind, arg);
            return;
        case T_FENCE:
            do_fence(m, c, kind, arg);
            return;
        case T_REINFORCE:
        case T_ENROUTE:
            do_reinforce(m, c, kind, arg);
            return;
        case T_LOOK:
            do_look(m, arg);
            return;
        case T_ASK:
            do_ask(m, arg);
            return;
        case T_SWITCH:
            do_switch(m, c, kind, arg);
            return;
        default:
            return;
    }
}

bool possible(Match& m, Cmd& c) {
    if (c.step == C_UNIT && (c.type == T_MOVE || c.type == T_LIGHT || c.type == T_RAPID))
        return !movable_units(m, c, m.player, true).empty();
    V out;
    legal_cmd(m, c, out);
    return !out.empty();
}

// ---------------------------------------------------------------- inspiration.py
bool due(Match& m) {
    return m.R->variant == 1 && m.invaded_turn && !m.swap_done[m.player];
}

void legal_take(Match& m, V& out) {
    int p = m.player;
    int mod = m.R->modification;
    if (mod == 1) {
        for (size_t i = 0; i < m.prepared[p].size(); ++i) out.push_back(m.act(K_BLIND, int(i)));
    } else if (mod == 2) {
        for (int c : m.prepared[p]) out.push_back(m.act(K_TAKE, c));
    } else {
        for (int c : m.pool) out.push_back(m.act(K_TAKE, c));
    }
}

void offer(Match& m) {
    m.step = S_TAKE;
    V out;
    legal_take(m, out);
    if (out.empty()) {
        m.step = S_SEND;
        m.swap_done[m.player] = true;
    }
}

void erase_first(V& v, int x) {
    auto it = std::find(v.begin(), v.end(), x);
    if (it != v.end()) v.erase(it);
}

void do_swap(Match& m, int kind, int arg) {
    int p = m.player;
    if (kind == K_REMOVE) {
        int bid = m.mix(p, m.hand[p], true);
        for (Card& c : m.hand[p]) c = Card{c.code, 0, false, bid};  // cards.mix_hand
        Match::take_card(m.hand[p], arg);
        m.removed[p].push_back(arg);
        m.removed_bag[p] = bid;
        m.collect_garbage(p);
        m.swap_done[p] = true;
        m.step = S_SEND;
        return;
    }
    int code;
    bool pub;
    if (kind == K_BLIND) {
        code = m.prepared[p][size_t(arg)];
        m.prepared[p].erase(m.prepared[p].begin() + arg);
        pub = false;
    } else if (m.R->modification == 2) {
        erase_first(m.prepared[p], arg);
        code = arg;
        pub = false;
    } else {
        erase_first(m.pool, arg);
        code = arg;
        pub = true;
    }
    m.hand[p].push_back(pub ? Card{code, 1, false, NOBAG} : Card{code, 0, false, m.box_bag[p]});
    m.step = S_REMOVE;
}

// ---------------------------------------------------------------- battle.py
void finish_card(Match& m) {
    if (!m.cur.first) return;
    Card c = m.cur.second;
    m.cur.first = false;
    m.to_deck_bottom(m.player, c.code);
}

void continue_turn(Match& m) {
    int p = m.player;
    while (!m.over && !m.has_cmd) {
        if (m.cur.first) {
            finish_card(m);
            continue;
        }
        if (m.queue.empty()) break;
        Card card = m.queue.front();
        m.queue.erase(m.queue.begin());
        m.consume(p, card.bag_of(), card.code);
        m.cur = {true, Card{card.code, 1, false, NOBAG}};
        start_card(m, card.code);
    }
    if (m.over || m.has_cmd) return;
    if (m.step == S_SEND && m.sent == 0 && due(m)) offer(m);
}

void begin_turn(Match& m) {
    int p = m.player;
    m.invaded_turn = false;
    m.sent = 0;
    m.queue.clear();  // cards.orders_of_turn
    if (m.lightning[p].first) {
        m.queue.push_back(m.lightning[p].second);
        m.lightning[p].first = false;
    }
    if (!m.row[p].empty()) {
        m.queue.push_back(m.row[p].front());
        m.row[p].erase(m.row[p].begin());
    }
    continue_turn(m);
}

void legal_send(Match& m, V& out) {
    int p = m.player;
    bool room = int(m.row[p].size()) + (m.lightning[p].first ? 1 : 0) < m.R->row_limit;
    bool any = false;
    if (room)
        for (const Card& c : m.hand[p]) {
            out.push_back(m.act(K_SEND, c.code));
            any = true;
        }
    if (m.sent > 0 || !any) {
        out.push_back(m.act(K_END, 0));
        if (m.points[p] >= m.R->lightning_cost && !m.row[p].empty() && !m.lightning[p].first)
            out.push_back(m.act(K_LIGHTNING, 0));
    }
}

void to_row(Match& m, int p, Card c) {
    m.row[p].push_back(c);
    m.face_down_next[p] = !m.face_down_next[p];
}

void send(Match& m, int p, int code) {
    bool down = m.face_down_next[p];
    Pile& hand = m.hand[p];
    if (down) {
        int bid = m.mix(p, hand, true);
        for (Card& c : hand) c = Card{c.code, 0, false, bid};
        Match::take_card(hand, code);
        to_row(m, p, Card{code, 0, false, bid});
        m.collect_garbage(p);
    } else {
        int idx = Match::find_card(hand, code, true);
        if (!hand[size_t(idx)].known) {
            V unknown;
            Pile cards;
            for (size_t i = 0; i < hand.size(); ++i)
                if (!hand[i].known) {
                    unknown.push_back(int(i));
                    cards.push_back(hand[i]);
                }
            int bid = m.mix(p, cards, false);
            for (int i : unknown) hand[size_t(i)] = Card{hand[size_t(i)].code, 0, false, bid};
            m.consume(p, bid, code);
        }
        hand.erase(hand.begin() + idx);
        to_row(m, p, Card{code, 1, true, NOBAG});
    }
    m.sent += 1;
}

void resupply(Match& m) {
    int p = m.player;
    int g = int(m.row[p].size());
    if (g == 0 && m.lightning[p].first) g = m.R->lightning_alone;
    m.gain(p, g);
    while (int(m.hand[p].size()) < m.R->hand_size && !m.deck[p].empty()) {
        m.hand[p].push_back(m.deck[p].front());
        m.deck[p].erase(m.deck[p].begin());
    }
    m.player = 1 - p;
    m.turn += 1;
    m.step = S_SEND;
    begin_turn(m);
}

void do_send(Match& m, int kind, int arg) {
    int p = m.player;
    if (kind == K_SEND) {
        send(m, p, arg);
        return;
    }
    if (kind == K_LIGHTNING) {
        m.pay(p, m.R->lightning_cost);
        m.lightning[p] = {true, m.row[p].front()};
        m.row[p].erase(m.row[p].begin());
    }
    resupply(m);
}

void legal_battle(Match& m, V& out) {
    if (m.has_cmd) {
        legal_cmd(m, m.cmd, out);
    } else if (m.step == S_TAKE) {
        legal_take(m, out);
    } else if (m.step == S_REMOVE) {
        for (const Card& c : m.hand[m.player]) out.push_back(m.act(K_REMOVE, c.code));
    } else {
        legal_send(m, out);
    }
}

void do_battle(Match& m, int kind, int arg) {
    if (m.has_cmd) {
        do_cmd(m, m.cmd, kind, arg);
        continue_turn(m);
    } else if (m.step == S_TAKE || m.step == S_REMOVE) {
        do_swap(m, kind, arg);
    } else {
        do_send(m, kind, arg);
    }
}

// ---------------------------------------------------------------- formation.py
V pieces(Match& m, int p) {
    int pts = m.points[p];
    bool free_home = false;
    for (int c : m.R->home_cells[p])
        if (m.board[c] < 0) free_home = true;
    V out;
    for (int t = 0; t < 3; ++t)
        if (m.R->unit_cost[t] <= pts && free_home && m.free_token(t) >= 0) out.push_back(t);
    if (m.R->fence_cost <= pts && m.fences_left[p] > 0 && !m.formation_edges(p).empty())
        out.push_back(3);
    return out;
}

void next_placer(Match& m, int p) {
    for (int q : {p, 1 - p})
        if (!pieces(m, q).empty()) {
            m.player = q;
            m.fpiece = -1;
            return;
        }
    for (int q : {RED, BLUE}) m.set_candidates(q);
}

bool formation_complete(Match& m) { return m.fpiece < 0 && pieces(m, m.player).empty(); }

void legal_formation(Match& m, V& out) {
    int p = m.player;
    if (m.fpiece < 0) {
        for (int t : pieces(m, p)) out.push_back(m.act(K_PLACE, t));
    } else if (m.fpiece == 3) {
        for (int e : m.formation_edges(p)) out.push_back(m.act(K_FENCE, e));
    } else if (m.fcell < 0) {
        for (int c : m.R->home_cells[p])
            if (m.board[c] < 0) out.push_back(m.act(K_AT, c));
    } else {
        for (int d = 0; d < 4; ++d) out.push_back(m.act(K_FACE, d));
    }
}

void do_formation(Match& m, int kind, int arg) {
    int p = m.player;
    if (kind == K_PLACE) {
        m.fpiece = arg;
        return;
    }
    if (kind == K_AT) {
        m.fcell = arg;
        return;
    }
    if (kind == K_FENCE) {
        m.place_fence(arg, p);
        m.pay(p, m.R->fence_cost);
    } else {
        int t = m.fpiece;
        int u = m.free_token(t);
        m.put_unit(u, p, m.fcell, arg);
        m.pay(p, m.R->unit_cost[t]);
    }
    m.fpiece = -1;
    m.fcell = -1;
    m.clock_started = true;
    next_placer(m, 1 - p);
}

// ---------------------------------------------------------------- shogun_and_card_order.py
bool secret_chosen(Match& m) {
    return m.player == BLUE && m.step != S_SHOGUN && !(m.step != S_NONE && !m.stock[BLUE].empty());
}

void legal_secret(Match& m, V& out) {
    int p = m.player;
    if (m.step == S_SHOGUN) {
        for (int u : m.candidates[p]) out.push_back(m.act(K_SHOGUN, u));
        return;
    }
    int kind = m.step == S_HAND ? K_HAND : m.step == S_DECK ? K_DECK : -1;
    if (kind < 0) return;
    for (const Card& c : m.stock[p]) out.push_back(m.act(kind, c.code));
}

void do_secret(Match& m, int kind, int arg) {
    int p = m.player;
    if (kind == K_SHOGUN) {
        m.shogun[p] = arg;
    } else {
        Card c = Match::take_card(m.stock[p], arg);
        (kind == K_HAND ? m.hand : m.deck)[p].push_back(c);
    }
    if (m.step == S_SHOGUN) {
        m.step = m.stock[p].empty() ? S_NONE : S_HAND;
    } else if (m.step == S_HAND && int(m.hand[p].size()) >= m.R->hand_size) {
        m.step = S_DECK;
    }
    if (m.step == S_DECK && m.stock[p].size() <= 1) {  // cards.stack_rest
        for (const Card& c : m.stock[p]) m.deck[p].push_back(c);
        m.stock[p].clear();
    }
    if (m.step != S_NONE && !m.stock[p].empty()) return;
    if (p == RED) {
        m.player = BLUE;
        m.step = S_SHOGUN;
    }
}

// ---------------------------------------------------------------- custom_deck.py
int count_of(const V& v, int x) { return int(std::count(v.begin(), v.end(), x)); }

void legal_build(Match& m, V& out) {
    int p = m.player;
    V chosen = m.pre_taken;
    if (m.R->custom_selection == 3) {
        chosen.insert(chosen.end(), m.picks[p].begin(), m.picks[p].end());
    } else {
        for (int q : {RED, BLUE}) chosen.insert(chosen.end(), m.picks[q].begin(), m.picks[q].end());
    }
    for (int c : m.R->pool)
        if (count_of(chosen, c) < m.R->copies[size_t(c)]) out.push_back(m.act(K_PICK, c));
}

bool next_picker(Match& m) {
    m.pick_order.erase(m.pick_order.begin());
    if (!m.pick_order.empty()) m.player = m.pick_order[0];
    return !m.pick_order.empty();
}

void do_build(Match& m, int arg) {
    int p = m.player;
    m.picks[p].push_back(arg);
    if (next_picker(m)) return;
    bool secret = m.R->custom_selection == 3;
    V decks[2];
    for (int q : {RED, BLUE}) {
        decks[q] = m.pre_taken;
        if (secret) {
            decks[q].insert(decks[q].end(), m.picks[q].begin(), m.picks[q].end());
        } else {
            for (int x : {RED, BLUE})
                decks[q].insert(decks[q].end(), m.picks[x].begin(), m.picks[x].end());
        }
        std::stable_sort(decks[q].begin(), decks[q].end());  // card_order: the codes' order
    }
    for (int q : {RED, BLUE}) {
        m.stock[q].clear();
        for (int c : decks[q]) m.stock[q].push_back(Card{c, 0, false, NOBAG});
        if (secret) {
            int bid = m.new_bag(q, m.pre_taken, {}, true, int(m.picks[q].size()), {});
            for (Card& c : m.stock[q]) c.bag = bid;
        } else {
            m.reset_knowledge(q);
        }
    }
}

void do_prepare(Match& m, int arg) {
    int p = m.player;
    erase_first(m.unused[p], arg);
    m.prepared[p].push_back(arg);
    next_picker(m);
}

void legal_mod3(Match& m, V& out) {
    const V& mine = m.m3[m.player];
    for (int c : m.R->advanced)
        if (!Match::has(mine, c)) out.push_back(m.act(K_PICK, c));
}

void do_mod3(Match& m, int arg) {
    int p = m.player;
    m.m3[p].push_back(arg);
    if (m.m3[p].size() < 2) return;
    if (p == RED) {
        m.player = BLUE;
        return;
    }
    V remaining;
    for (int q : {RED, BLUE})
        for (int c : m.m3[q]) {
            bool both = Match::has(m.m3[RED], c) && Match::has(m.m3[BLUE], c);
            if (!both && !Match::has(remaining, c)) remaining.push_back(c);
        }
    std::sort(remaining.begin(), remaining.end());
    m.pool.clear();
    for (int c : remaining) {
        m.pool.push_back(c);
        m.pool.push_back(c);
    }
    for (int q : {RED, BLUE}) {
        V kept;
        for (int c : m.unused[q])
            if (!Match::has(remaining, c)) kept.push_back(c);
        m.unused[q] = kept;
    }
}

// ---------------------------------------------------------------- state.py: the flow
void legal_of(Match& m, V& out) {
    switch (m.phase) {
        case BUILD:
            legal_build(m, out);
            break;
        case PREPARE:
            for (int c : m.unused[m.player]) out.push_back(m.act(K_PICK, c));
            break;
        case FORMATION:
            legal_formation(m, out);
            break;
        case MOD3:
            legal_mod3(m, out);
            break;
        case SECRET:
            legal_secret(m, out);
            break;
        case BATTLE:
            legal_battle(m, out);
            break;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
}

const V& legal_ints(Match& m) {
    if (!m.memo_ok) {
        m.memo.clear();
        if (!m.over) legal_of(m, m.memo);
        m.memo_ok = true;
    }
    return m.memo;
}

bool is_legal(Match& m, int action) {
    const V& l = legal_ints(m);
    return std::binary_search(l.begin(), l.end(), action);
}

// The phase's end (the flow's ``end``) and the phase that follows, with its ``begin``.
bool phase_end(Match& m) {
    switch (m.phase) {
        case BUILD:
        case PREPARE:
            return m.pick_order.empty();
        case FORMATION:
            return formation_complete(m);
        case MOD3:
            return m.m3[BLUE].size() >= 2;
        case SECRET:
            return secret_chosen(m);
        default:
            return false;
    }
}

void enter(Match& m, int phase) {
    m.phase = phase;
    switch (phase) {
        case FORMATION:
            next_placer(m, RED);
            break;
        case MOD3:
            m.player = RED;
            break;
        case SECRET:
            m.player = RED;
            m.step = S_SHOGUN;
            break;
        case BATTLE:
            m.step = S_SEND;
            m.player = RED;
            m.turn = 1;
            begin_turn(m);
            break;
        default:
            break;
    }
}

int next_phase(Match& m) {
    switch (m.phase) {
        case BUILD:
        case PREPARE:
            return FORMATION;
        case FORMATION:
            return (m.R->variant == 1 && m.R->modification == 3) ? MOD3 : SECRET;
        case MOD3:
            return SECRET;
        default:
            return BATTLE;
    }
}

void kind_arg(const Rules& r, int action, int& kind, int& arg) {
    kind = int(std::upper_bound(r.offset, r.offset + NKINDS, action) - r.offset) - 1;
    arg = action - r.offset[kind];
}

// GunshiState.apply for a legal action.
void play(Match& m, int action) {
    int kind, arg;
    kind_arg(*m.R, action, kind, arg);
    m.memo_ok = false;
    m.ply += 1;
    switch (m.phase) {
        case BUILD:
            do_build(m, arg);
            break;
        case PREPARE:
            do_prepare(m, arg);
            break;
        case FORMATION:
            do_formation(m, kind, arg);
            break;
        case MOD3:
            do_mod3(m, arg);
            break;
        case SECRET:
            do_secret(m, kind, arg);
            break;
        case BATTLE:
            do_battle(m, kind, arg);
            break;
    }
    int moves = 0;
    while (!m.over && phase_end(m)) {
        if (++moves > 6) throw std::runtime_error("the phases loop");
        enter(m, next_phase(m));
    }
    if (m.ply >= m.R->length_limit && !m.over) {
        m.over = true;
        m.result.reason = "length_limit";
        m.result.winners.clear();
        m.result.scores = {0.0, 0.0};
        m.result.returns = {0.0, 0.0};
    }
    m.memo_ok = false;
}

// GunshiState.setup, from random.Random(seed)'s words.
void deal(Match& m, const std::vector<uint32_t>& key, const std::string& seed) {
    m.clear();
    m.seed = seed;
    const Rules& r = *m.R;
    sengoku::PythonRandom rng(key);
    for (int p : {RED, BLUE})
        for (int c : r.deck) m.stock[p].push_back(Card{c, 0, false, NOBAG});
    bool agreed_deck = r.custom_selection == 2;  // a preset deck resolves to an agreed one
    if (r.variant == 2 && !agreed_deck) {  // custom_deck.setup
        for (int p : {RED, BLUE}) m.stock[p].clear();
        if (r.custom_selection == 0) {
            m.pre_taken = {r.c_M};
            m.pick_order = {RED, BLUE, RED, BLUE, RED, BLUE};
        } else if (r.custom_selection == 1) {
            m.pick_order = {BLUE, RED, BLUE, RED, BLUE, RED, BLUE};
        } else {
            if (!r.move_up) m.pre_taken = {r.c_M};
            int n = 7 - int(m.pre_taken.size());
            for (int i = 0; i < n; ++i) m.pick_order.push_back(RED);
            for (int i = 0; i < n; ++i) m.pick_order.push_back(BLUE);
            m.deck_public = false;
        }
        m.phase = BUILD;
        m.player = m.pick_order[0];
    }
    if (r.variant == 1) {  // inspiration.setup
        for (int p : {RED, BLUE}) m.unused[p] = r.advanced;
        if (r.modification == 1 || r.modification == 2)
            for (int p : {RED, BLUE}) m.box_bag[p] = m.new_bag(p, r.advanced);
        if (r.modification == 1) {
            for (int p : {RED, BLUE}) {
                // random.sample(adv, 3): the pool method of CPython's sample
                V pool_ = r.advanced;
                size_t n = pool_.size();
                V chosen;
                for (size_t i = 0; i < 3; ++i) {
                    size_t j = size_t(rng.randbelow(n - i));
                    chosen.push_back(pool_[j]);
                    pool_[j] = pool_[n - i - 1];
                }
                m.prepared[p] = chosen;
                V rest;
                for (int c : r.advanced)
                    if (!Match::has(chosen, c)) rest.push_back(c);
                m.unused[p] = rest;
            }
        } else if (r.modification == 2 && m.phase == FORMATION) {
            m.phase = PREPARE;
            m.pick_order = {RED, RED, RED, BLUE, BLUE, BLUE};
            m.player = RED;
        }
    }
    if (r.preset_formation) {  // formation.apply_preset
        for (int p : {RED, BLUE}) {
            const auto& side = r.sides[p];
            for (auto& u : side.units) m.put_unit(m.free_token(u[0]), p, u[1], u[2]);
            for (int e : side.fences) m.place_fence(e, p);
            m.points[p] = std::max(0, r.starting_points - side.cost);
            m.set_candidates(p);
            int known = r.preset_public ? 1 : 0;
            m.hand[p].clear();
            m.deck[p].clear();
            for (int c : side.hand) m.hand[p].push_back(Card{c, known, false, NOBAG});
            for (int c : side.deck) m.deck[p].push_back(Card{c, known, false, NOBAG});
            m.stock[p].clear();
            m.reset_knowledge(p);
        }
        m.cards_public = r.preset_public;
        m.clock_started = true;
        enter(m, SECRET);
        return;
    }
    if (m.phase != BUILD)
        for (int p : {RED, BLUE}) m.reset_knowledge(p);
    if (m.phase == FORMATION) enter(m, FORMATION);
}

}  // namespace

namespace {

// ---------------------------------------------------------------------- JSON
py::list int_list(const std::vector<int>& v) {
    py::list out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = py::int_(v[i]);
    return out;
}
py::list code_list(const Rules& r, const std::vector<int>& v) {
    py::list out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = py::str(r.codes[size_t(v[i])]);
    return out;
}
py::list card_json(const Rules& r, const Card& c) {
    py::list out;
    out.append(py::str(r.codes[size_t(c.code)]));
    if (c.known == SCOUTED)
        out.append(py::int_(SCOUTED));
    else
        out.append(py::bool_(c.known == 1));
    out.append(py::bool_(c.up));
    if (c.bag != NOBAG) out.append(py::int_(c.bag));
    return out;
}
py::list pile_json(const Rules& r, const Pile& p) {
    py::list out;
    for (const Card& c : p) out.append(card_json(r, c));
    return out;
}
py::object opt_json(const Rules& r, const Opt& o) {
    return o.first ? py::object(card_json(r, o.second)) : py::object(py::none());
}
template <class F>
py::list pair_list(F f) {
    py::list out;
    out.append(f(0));
    out.append(f(1));
    return out;
}

py::dict outcome_json(const Outcome& e) {
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

py::dict cmd_json(const Rules& r, const Cmd& c) {
    py::dict d;
    d["card"] = r.codes[size_t(c.card)];
    if (c.has_modes) {
        py::list ms;
        for (int x : c.modes) ms.append(MODE_NAMES[x]);
        d["modes"] = ms;
    }
    if (c.mode >= 0) d["mode"] = MODE_NAMES[c.mode];
    if (c.type >= 0) d["type"] = TYPE_NAMES[c.type];
    d["step"] = CSTEP_NAMES[c.step];
    auto put = [&](const char* k, int v) {
        if (v >= 0) d[k] = v;
    };
    auto seq = [&](const char* k, const Seq& s) {
        if (s.has) d[k] = int_list(s.v);
    };
    put("leader", c.leader);
    put("origin", c.origin);
    seq("used", c.used);
    put("dir", c.dir);
    put("shooter", c.shooter);
    put("builder", c.builder);
    put("shots", c.shots);
    put("base", c.base);
    if (c.piece >= 0) d["piece"] = std::string(1, TYPE_LETTERS[c.piece]);
    put("cell", c.cell);
    put("first", c.first);
    seq("sel", c.sel);
    seq("moved", c.moved);
    seq("trap_moved", c.trap_moved);
    if (c.rapid != R_NONE) d["rapid"] = RAPID_NAMES[c.rapid];
    seq("mates", c.mates);
    seq("order", c.order);
    put("invader", c.invader);
    return d;
}

py::dict bag_json(const Rules& r, const Bag& b) {
    py::dict d;
    d["id"] = b.id;
    d["lits"] = code_list(r, b.lits);
    py::list par;
    for (auto& x : b.par) {
        py::list pair;
        pair.append(x.first);
        pair.append(x.second);
        par.append(pair);
    }
    d["par"] = par;
    d["gone"] = code_list(r, b.gone);
    if (b.has_free) {
        d["free"] = b.free;
        d["pool"] = code_list(r, b.pool);
        d["used"] = code_list(r, b.used);
    }
    return d;
}

// GunshiState.to_json, key for key (its _LAYOUT order).
py::dict to_json(const Match& m) {
    const Rules& r = *m.R;
    py::dict d;
    d["options"] = py::dict(r.options);
    d["num_players"] = 2;
    d["seed"] = py::int_(py::str(m.seed));
    d["phase"] = PHASE_NAMES[m.phase];
    d["player"] = m.player;
    d["step"] = STEP_NAMES[m.step];
    d["points"] = int_list({m.points[0], m.points[1]});
    d["fence"] = int_list(std::vector<int>(m.fence, m.fence + EDGES));
    d["fences_left"] = int_list({m.fences_left[0], m.fences_left[1]});
    d["uloc"] = int_list(std::vector<int>(m.uloc, m.uloc + NT));
    d["uown"] = int_list(std::vector<int>(m.uown, m.uown + NT));
    d["uface"] = int_list(std::vector<int>(m.uface, m.uface + NT));
    py::list shields;
    for (int u = 0; u < NT; ++u) shields.append(py::bool_(m.ushield[u]));
    d["ushield"] = shields;
    d["board"] = int_list(std::vector<int>(m.board, m.board + CELLS));
    d["invaders"] = int_list({m.invaders[0], m.invaders[1]});
    d["invaded_turn"] = m.invaded_turn;
    d["hand"] = pair_list([&](int p) { return pile_json(r, m.hand[p]); });
    d["deck"] = pair_list([&](int p) { return pile_json(r, m.deck[p]); });
    d["row"] = pair_list([&](int p) { return pile_json(r, m.row[p]); });
    d["stock"] = pair_list([&](int p) { return pile_json(r, m.stock[p]); });
    d["lightning"] = pair_list([&](int p) { return opt_json(r, m.lightning[p]); });
    d["beside"] = pair_list([&](int p) { return opt_json(r, m.beside[p]); });
    d["face_down_next"] = pair_list([&](int p) { return py::bool_(m.face_down_next[p]); });
    d["prepared"] = pair_list([&](int p) { return code_list(r, m.prepared[p]); });
    d["unused"] = pair_list([&](int p) { return code_list(r, m.unused[p]); });
    d["removed"] = pair_list([&](int p) { return code_list(r, m.removed[p]); });
    d["pool"] = code_list(r, m.pool);
    d["m3"] = pair_list([&](int p) { return code_list(r, m.m3[p]); });
    d["swap_done"] = pair_list([&](int p) { return py::bool_(m.swap_done[p]); });
    d["removed_bag"] = int_list({m.removed_bag[0], m.removed_bag[1]});
    d["box_bag"] = int_list({m.box_bag[0], m.box_bag[1]});
    d["picks"] = pair_list([&](int p) { return code_list(r, m.picks[p]); });
    d["pick_order"] = int_list(m.pick_order);
    d["pre_taken"] = code_list(r, m.pre_taken);
    d["deck_public"] = m.deck_public;
    d["fpiece"] = m.fpiece < 0 ? std::string() : std::string(1, PIECES[m.fpiece]);
    d["fcell"] = m.fcell;
    d["clock_started"] = m.clock_started;
    d["cards_public"] = m.cards_public;
    d["shogun"] = int_list({m.shogun[0], m.shogun[1]});
    d["revealed"] = pair_list([&](int p) { return py::bool_(m.revealed[p]); });
    d["candidates"] = pair_list([&](int p) { return int_list(m.candidates[p]); });
    d["queue"] = pile_json(r, m.queue);
    d["cur"] = opt_json(r, m.cur);
    d["sent"] = m.sent;
    d["turn"] = m.turn;
    d["cmd"] = m.has_cmd ? py::object(cmd_json(r, m.cmd)) : py::object(py::none());
    d["bags"] = pair_list([&](int p) {
        py::list out;
        for (const Bag& b : m.bags[p]) out.append(bag_json(r, b));
        return out;
    });
    d["next_bag"] = m.next_bag;
    d["ply"] = m.ply;
    d["result"] = m.over ? py::object(outcome_json(m.result)) : py::object(py::none());
    return d;
}

[[noreturn]] void bad(const std::string& field, const std::string& why) {
    throw py::value_error("gunshi position: field '" + field + "' " + why);
}

// The field load_json reads now (a value of the wrong type is named by it).
const char* reading = "";

py::object field(const py::dict& d, const char* k) {
    reading = k;
    if (!d.contains(k)) bad(k, "is missing");
    return d[k];
}

int card_code(const Rules& r, py::handle h, const char* k) {
    if (!py::isinstance<py::str>(h)) bad(k, "holds a card that is not a code");
    std::string s = h.cast<std::string>();
    for (size_t i = 0; i < r.codes.size(); ++i)
        if (r.codes[i] == s) return int(i);
    bad(k, "names an unknown card " + s);
}

Card card_of(const Rules& r, py::handle h, const char* k) {
    py::sequence s = h.cast<py::sequence>();
    if (py::len(s) < 3 || py::len(s) > 4)
        bad(k, "holds a card that is not (code, known, up[, bag])");
    Card c;
    c.code = card_code(r, s[0], k);
    py::object known = s[1];
    if (py::isinstance<py::bool_>(known))
        c.known = known.cast<bool>() ? 1 : 0;
    else
        c.known = known.cast<int>();
    c.up = s[2].cast<bool>();
    c.bag = py::len(s) == 4 ? s[3].cast<int>() : NOBAG;
    return c;
}

Pile pile_of(const Rules& r, py::handle h, const char* k) {
    Pile out;
    for (py::handle c : h.cast<py::list>()) out.push_back(card_of(r, c, k));
    return out;
}

Opt opt_of(const Rules& r, py::handle h, const char* k) {
    if (h.is_none()) return {false, Card()};
    return {true, card_of(r, h, k)};
}

std::vector<int> codes_of(const Rules& r, py::handle h, const char* k) {
    std::vector<int> out;
    for (py::handle c : h.cast<py::list>()) out.push_back(card_code(r, c, k));
    return out;
}

template <class F>
void per_seat(const py::dict& d, const char* k, F f) {
    py::list l = field(d, k).cast<py::list>();
    if (py::len(l) != 2) bad(k, "is not one entry per seat");
    f(0, l[0]);
    f(1, l[1]);
}

template <size_t N>
void ints_into(const py::dict& d, const char* k, int* out) {
    auto v = field(d, k).cast<std::vector<int>>();
    if (v.size() != N) bad(k, "has the wrong length");
    std::copy(v.begin(), v.end(), out);
}

void load_fields(Match& m, const py::dict& d);

// Match.load_json: a position as GunshiState.to_json writes it; a ValueError names a field
// that is missing or wrong.
void load_json(Match& m, const py::dict& d) {
    try {
        load_fields(m, d);
    } catch (const py::cast_error&) {
        m.clear();
        bad(reading, "has a value of the wrong type");
    } catch (const py::value_error&) {
        m.clear();
        throw;
    }
}

void load_fields(Match& m, const py::dict& d) {
    const Rules& r = *m.R;
    m.clear();
    py::object seed = field(d, "seed");
    if (!py::isinstance<py::int_>(seed)) bad("seed", "is not a whole number");
    m.seed = py::str(seed).cast<std::string>();
    m.phase = name_index(PHASE_NAMES, field(d, "phase").cast<std::string>(), "field 'phase'");
    m.player = field(d, "player").cast<int>();
    m.step = name_index(STEP_NAMES, field(d, "step").cast<std::string>(), "field 'step'");
    m.ply = field(d, "ply").cast<int>();
    ints_into<2>(d, "points", m.points);
    ints_into<EDGES>(d, "fence", m.fence);
    ints_into<2>(d, "fences_left", m.fences_left);
    ints_into<NT>(d, "uloc", m.uloc);
    ints_into<NT>(d, "uown", m.uown);
    ints_into<NT>(d, "uface", m.uface);
    auto sh = field(d, "ushield").cast<std::vector<bool>>();
    if (sh.size() != NT) bad("ushield", "has the wrong length");
    for (int u = 0; u < NT; ++u) m.ushield[u] = sh[size_t(u)];
    ints_into<CELLS>(d, "board", m.board);
    ints_into<2>(d, "invaders", m.invaders);
    m.invaded_turn = field(d, "invaded_turn").cast<bool>();
    per_seat(d, "hand", [&](int p, py::handle h) { m.hand[p] = pile_of(r, h, "hand"); });
    per_seat(d, "deck", [&](int p, py::handle h) { m.deck[p] = pile_of(r, h, "deck"); });
    per_seat(d, "row", [&](int p, py::handle h) { m.row[p] = pile_of(r, h, "row"); });
    per_seat(d, "stock", [&](int p, py::handle h) { m.stock[p] = pile_of(r, h, "stock"); });
    per_seat(d, "lightning",
             [&](int p, py::handle h) { m.lightning[p] = opt_of(r, h, "lightning"); });
    per_seat(d, "beside", [&](int p, py::handle h) { m.beside[p] = opt_of(r, h, "beside"); });
    per_seat(d, "face_down_next",
             [&](int p, py::handle h) { m.face_down_next[p] = h.cast<bool>(); });
    per_seat(d, "prepared",
             [&](int p, py::handle h) { m.prepared[p] = codes_of(r, h, "prepared"); });
    per_seat(d, "unused", [&](int p, py::handle h) { m.unused[p] = codes_of(r, h, "unused"); });
    per_seat(d, "removed", [&](int p, py::handle h) { m.removed[p] = codes_of(r, h, "removed"); });
    m.pool = codes_of(r, field(d, "pool"), "pool");
    per_seat(d, "m3", [&](int p, py::handle h) { m.m3[p] = codes_of(r, h, "m3"); });
    per_seat(d, "swap_done", [&](int p, py::handle h) { m.swap_done[p] = h.cast<bool>(); });
    ints_into<2>(d, "removed_bag", m.removed_bag);
    ints_into<2>(d, "box_bag", m.box_bag);
    per_seat(d, "picks", [&](int p, py::handle h) { m.picks[p] = codes_of(r, h, "picks"); });
    m.pick_order = field(d, "pick_order").cast<std::vector<int>>();
    m.pre_taken = codes_of(r, field(d, "pre_taken"), "pre_taken");
    m.deck_public = field(d, "deck_public").cast<bool>();
    std::string fp = field(d, "fpiece").cast<std::string>();
    m.fpiece = fp.empty() ? -1 : int(std::string(PIECES).find(fp));
    if (!fp.empty() && (fp.size() != 1 || m.fpiece < 0)) bad("fpiece", "is not I, A, C or F");
    m.fcell = field(d, "fcell").cast<int>();
    m.clock_started = field(d, "clock_started").cast<bool>();
    m.cards_public = field(d, "cards_public").cast<bool>();
    ints_into<2>(d, "shogun", m.shogun);
    per_seat(d, "revealed", [&](int p, py::handle h) { m.revealed[p] = h.cast<bool>(); });
    per_seat(d, "candidates",
             [&](int p, py::handle h) { m.candidates[p] = h.cast<std::vector<int>>(); });
    m.queue = pile_of(r, field(d, "queue"), "queue");
    m.cur = opt_of(r, field(d, "cur"), "cur");
    m.sent = field(d, "sent").cast<int>();
    m.turn = field(d, "turn").cast<int>();
    py::object cmd = field(d, "cmd");
    m.has_cmd = !cmd.is_none();
    if (m.has_cmd) {
        py::dict c = cmd.cast<py::dict>();
        Cmd x;
        x.card = card_code(r, field(c, "card"), "cmd.card");
        auto text = [&](const char* k) {
            reading = k;
            return c[k].cast<std::string>();
        };
        if (c.contains("type")) x.type = name_index(TYPE_NAMES, text("type"), "command type");
        if (c.contains("step")) x.step = name_index(CSTEP_NAMES, text("step"), "command step");
        if (c.contains("modes")) {
            x.has_modes = true;
            for (auto& s : c["modes"].cast<std::vector<std::string>>())
                x.modes.push_back(name_index(MODE_NAMES, s, "mode"));
        }
        if (c.contains("mode")) x.mode = name_index(MODE_NAMES, text("mode"), "command mode");
        auto get_int = [&](const char* k, int& v) {
            reading = k;
            if (c.contains(k)) v = c[k].cast<int>();
        };
        auto get_seq = [&](const char* k, Seq& s) {
            reading = k;
            if (c.contains(k)) s.set(c[k].cast<std::vector<int>>());
        };
        get_int("leader", x.leader);
        get_int("origin", x.origin);
        get_int("dir", x.dir);
        get_int("shooter", x.shooter);
        get_int("builder", x.builder);
        get_int("shots", x.shots);
        get_int("base", x.base);
        get_int("cell", x.cell);
        get_int("first", x.first);
        get_int("invader", x.invader);
        if (c.contains("piece")) {
            std::string s = c["piece"].cast<std::string>();
            x.piece = int(std::string(TYPE_LETTERS).find(s));
            if (s.size() != 1 || x.piece < 0) bad("cmd.piece", "is not I, A or C");
        }
        get_seq("used", x.used);
        get_seq("sel", x.sel);
        get_seq("moved", x.moved);
        get_seq("trap_moved", x.trap_moved);
        get_seq("mates", x.mates);
        get_seq("order", x.order);
        if (c.contains("rapid"))
            x.rapid = name_index(RAPID_NAMES, c["rapid"].cast<std::string>(), "rapid");
        m.cmd = x;
    }
    per_seat(d, "bags", [&](int p, py::handle h) {
        m.bags[p].clear();
        for (py::handle bh : h.cast<py::list>()) {
            py::dict b = bh.cast<py::dict>();
            Bag x;
            x.id = field(b, "id").cast<int>();
            x.lits = codes_of(r, field(b, "lits"), "bags.lits");
            for (auto& pr : field(b, "par").cast<std::vector<std::vector<int>>>())
                x.par.push_back({pr.at(0), pr.at(1)});
            x.gone = codes_of(r, field(b, "gone"), "bags.gone");
            if (b.contains("free")) {
                x.has_free = true;
                x.free = b["free"].cast<int>();
                x.pool = codes_of(r, field(b, "pool"), "bags.pool");
                x.used = codes_of(r, field(b, "used"), "bags.used");
            }
            m.bags[p].push_back(std::move(x));
        }
    });
    m.next_bag = field(d, "next_bag").cast<int>();
    py::object res = field(d, "result");
    m.over = !res.is_none();
    if (m.over) {
        py::dict o = res.cast<py::dict>();
        m.result.reason = field(o, "reason").cast<std::string>();
        m.result.winners = field(o, "winners").cast<std::vector<int>>();
        m.result.scores = field(o, "scores").cast<std::vector<double>>();
        m.result.returns = field(o, "returns").cast<std::vector<double>>();
    }
    // Every index the rules read, in range (the core trusts them after this).
    auto within = [](int v, int lo, int hi) { return lo <= v && v < hi; };
    if (!within(m.player, 0, 2)) bad("player", "is not 0 or 1");
    for (int u = 0; u < NT; ++u) {
        if (m.uloc[u] != OFF && m.uloc[u] != INVADED && !within(m.uloc[u], 0, CELLS))
            bad("uloc", "names a cell off the board");
        if (!within(m.uown[u], -1, 2)) bad("uown", "names no seat");
        if (!within(m.uface[u], 0, 4)) bad("uface", "names no facing");
    }
    for (int c = 0; c < CELLS; ++c)
        if (!within(m.board[c], -1, NT)) bad("board", "names no unit");
    for (int e = 0; e < EDGES; ++e)
        if (!within(m.fence[e], -1, 2)) bad("fence", "names no seat");
    if (!within(m.fcell, -1, CELLS)) bad("fcell", "names a cell off the board");
    for (int p = 0; p < 2; ++p) {
        if (!within(m.shogun[p], -1, NT)) bad("shogun", "names no unit");
        for (int u : m.candidates[p])
            if (!within(u, 0, NT)) bad("candidates", "names no unit");
    }
    for (int q : m.pick_order)
        if (!within(q, 0, 2)) bad("pick_order", "names no seat");
    if (m.has_cmd) {
        const Cmd& c = m.cmd;
        for (int u : {c.leader, c.shooter, c.builder, c.first, c.base, c.invader})
            if (!within(u, -1, NT)) bad("cmd", "names no unit");
        for (int x : {c.origin, c.cell})
            if (!within(x, -1, CELLS)) bad("cmd", "names a cell off the board");
        if (!within(c.dir, -1, 4)) bad("cmd", "names no direction");
        for (const Seq* q : {&c.used, &c.sel, &c.moved, &c.trap_moved, &c.mates, &c.order})
            for (int u : q->v)
                if (!within(u, 0, NT)) bad("cmd", "names no unit");
    }
    m.memo_ok = false;
}

// ---------------------------------------------------------------------- the encoder
// GunshiEncoder's layout, handed in from Python (native_core.encoding_spec).
struct Encoding {
    int size = 0, nc = 0;
    int field = 0, fences = 0, sides = 0, globals = 0, queue = 0, command = 0;
    int side_size = 0, cell = 35, pile = 8, row = 6, queue_len = 8;
    int edge_of[2][EDGES];
};

std::shared_ptr<Encoding> make_encoding(const py::dict& spec) {
    auto e = std::make_shared<Encoding>();
    e->size = get<int>(spec, "size");
    e->nc = get<int>(spec, "num_cards");
    auto o = get<std::map<std::string, int>>(spec, "offsets");
    e->field = o.at("field");
    e->fences = o.at("fences");
    e->sides = o.at("sides");
    e->globals = o.at("globals");
    e->queue = o.at("queue");
    e->command = o.at("command");
    e->side_size = get<int>(spec, "side_size");
    e->cell = get<int>(spec, "cell");
    e->pile = get<int>(spec, "pile");
    e->row = get<int>(spec, "row");
    e->queue_len = get<int>(spec, "queue_len");
    auto eo = get<std::vector<std::vector<int>>>(spec, "edge_of");
    for (int me = 0; me < 2; ++me)
        for (int x = 0; x < EDGES; ++x) e->edge_of[me][x] = eo[size_t(me)][size_t(x)];
    // The names the core writes, in the encoder's order.
    auto same = [&](const char* k, const char* const* names, size_t n) {
        auto given = get<std::vector<std::string>>(spec, k);
        if (given.size() != n) throw py::value_error(std::string("encoder ") + k + " differ");
        for (size_t i = 0; i < n; ++i)
            if (given[i] != names[i])
                throw py::value_error(std::string("encoder ") + k + " differ");
    };
    same("phases", PHASE_NAMES, 6);
    same("steps", STEP_NAMES, 7);
    same("cmd_types", TYPE_NAMES, 13);
    same("cmd_steps", CSTEP_NAMES, 16);
    same("modes", MODE_NAMES, 5);
    same("rapid", RAPID_NAMES + 1, 3);
    return e;
}

struct Writer {
    const Encoding& E;
    float* w;
    void pile(int at, const std::vector<int>& codes) const {  // -1: unknown
        if (int(codes.size()) > E.pile) throw std::runtime_error("gunshi encoder: a pile over 8");
        int width = 2 + E.nc;
        for (size_t i = 0; i < codes.size(); ++i) {
            int k = at + int(i) * width;
            w[k] = 1.0f;
            if (codes[i] < 0)
                w[k + 1] = 1.0f;
            else
                w[k + 2 + codes[i]] = 1.0f;
        }
    }
    void row_card(int at, int code, bool up) const {
        w[at] = 1.0f;
        if (up) w[at + 1] = 1.0f;
        if (code < 0)
            w[at + 2] = 1.0f;
        else
            w[at + 3 + code] = 1.0f;
    }
};

int tournament_seat(const Match& m) {
    if (!m.R->tournament || m.over) return -1;
    if (m.phase == BUILD || m.phase == PREPARE || m.phase == MOD3 || !m.clock_started) return -1;
    return m.player;
}

// GunshiEncoder.encode_into(capture(state, seat)) into a zeroed ``w`` (seat -1: a spectator).
void encode(const Match& m, const Encoding& E, int seat, float* w) {
    const Rules& r = *m.R;
    Writer W{E, w};
    const int me = seat == 1 ? 1 : 0;
    const bool seated = seat >= 0;
    const bool mod1 = r.variant == 1 && r.modification == 1;
    auto cell_of = [&](int c) { return me == 0 ? c : CELLS - 1 - c; };
    auto facing_of = [&](int d) { return me == 0 ? d : (d + 2) % 4; };
    for (int u = 0; u < NT; ++u) {
        int loc = m.uloc[u];
        if (loc < 0 || loc >= CELLS) continue;
        int at = E.field + cell_of(loc) * E.cell;
        w[at + (m.uown[u] == me ? 0 : 3) + m.tt(u)] = 1.0f;
        w[at + 6 + facing_of(m.uface[u])] = 1.0f;
        if (m.ushield[u]) w[at + 10] = 1.0f;
        w[at + 11 + u] = 1.0f;
    }
    for (int e = 0; e < EDGES; ++e)
        if (m.fence[e] >= 0) w[E.fences + E.edge_of[me][e] * 2 + (m.fence[e] == me ? 0 : 1)] = 1.0f;
    const int card = 2 + E.nc, row_card = 3 + E.nc;
    for (int p = 0; p < 2; ++p) {
        int at = E.sides + (p == me ? 0 : 1) * E.side_size;
        const bool mine = seat == p;
        w[at] = float(m.points[p]);
        w[at + 1] = float(m.fences_left[p]);
        w[at + 2] = float(m.invaders[p]);
        w[at + 3] = float(m.removed[p].size());
        at += 4;
        bool flags[5] = {m.face_down_next[p], m.beside[p].first, m.swap_done[p], m.shogun[p] >= 0,
                         m.revealed[p]};
        for (int i = 0; i < 5; ++i)
            if (flags[i]) w[at + i] = 1.0f;
        at += 5;
        if (m.shogun[p] >= 0 && (mine || m.revealed[p])) w[at + m.shogun[p]] = 1.0f;
        at += NT;
        for (int u : m.candidates[p]) w[at + u] = 1.0f;
        at += NT;
        const int pile_size = E.pile * card;
        auto known = [&](const Pile& pl) {
            std::vector<int> out;
            for (const Card& c : pl) out.push_back(mine || c.known ? c.code : -1);
            return out;
        };
        auto shown = [&](const std::vector<int>& codes, bool show) {
            std::vector<int> out;
            for (int c : codes) out.push_back(show ? c : -1);
            return out;
        };
        std::vector<int> stock;
        for (const Card& c : m.stock[p]) stock.push_back(mine ? c.code : -1);
        W.pile(at, known(m.hand[p]));
        W.pile(at + pile_size, known(m.deck[p]));
        W.pile(at + 2 * pile_size, stock);
        W.pile(at + 3 * pile_size, shown(m.prepared[p], mine && !mod1));
        W.pile(at + 4 * pile_size, shown(m.picks[p], mine || m.deck_public));
        W.pile(at + 5 * pile_size, shown(m.m3[p], mine || m.phase != MOD3));
        at += 6 * pile_size;
        if (int(m.row[p].size()) > E.row) throw std::runtime_error("gunshi encoder: a long row");
        for (size_t i = 0; i < m.row[p].size(); ++i) {
            const Card& c = m.row[p][i];
            W.row_card(at + int(i) * row_card, seen(c, mine, seated) ? c.code : -1, c.up);
        }
        at += E.row * row_card;
        if (m.lightning[p].first) {
            const Card& c = m.lightning[p].second;
            W.row_card(at, seen(c, mine, seated) ? c.code : -1, c.up);
        }
        at += row_card;
        if (mine && !mod1) {
            w[at] = 1.0f;
            for (int c : m.unused[p]) w[at + 1 + c] += 1.0f;
        }
    }
    int at = E.globals;
    w[at + m.phase] = 1.0f;
    at += 6;
    int shown_step = (m.phase != SECRET || seat == m.player) ? m.step : S_NONE;
    w[at + shown_step] = 1.0f;
    at += 7;
    int to_act = m.over ? -1 : m.player;
    if (to_act >= 0) w[at + (to_act == me ? 0 : 1)] = 1.0f;
    w[at + 2] = float(m.turn);
    w[at + 3] = float(m.ply);
    at += 4;
    int left[3] = {0, 0, 0};
    for (int u = 0; u < NT; ++u)
        if (m.uloc[u] == OFF) left[m.tt(u)] += 1;
    w[at] = float(left[0]);
    w[at + 1] = float(left[1]);
    w[at + 2] = float(left[2]);
    at += 3;
    for (int c : m.pool) w[at + c] += 1.0f;
    at += E.nc;
    if (m.fpiece >= 0) w[at + m.fpiece] = 1.0f;
    at += 4;
    if (m.fcell >= 0) w[at + cell_of(m.fcell)] = 1.0f;
    at += CELLS;
    int running = tournament_seat(m);
    if (running >= 0) w[at + (running == me ? 0 : 1)] = 1.0f;
    at = E.queue;
    if (m.cur.first) {
        w[at] = 1.0f;
        w[at + 1 + m.cur.second.code] = 1.0f;
    }
    at += 1 + E.nc;
    if (int(m.queue.size()) > E.queue_len) throw std::runtime_error("gunshi encoder: queue");
    std::vector<int> q;
    for (const Card& c : m.queue) q.push_back(seen(c, seat == m.player, seated) ? c.code : -1);
    W.pile(at, q);
    w[at + E.queue_len * card] = float(m.sent);
    if (!m.has_cmd) return;
    const Cmd& c = m.cmd;
    at = E.command;
    w[at] = 1.0f;
    at += 1;
    const int card_at = at, type_at = at + E.nc, step_at = type_at + 13;
    const int modes_at = step_at + 16, piece_at = modes_at + 10, rapid_at = piece_at + 3;
    const int shots_at = rapid_at + 3, dir_at = shots_at + 1, origin_at = dir_at + 4;
    const int cell_at = origin_at + CELLS, refs_at = cell_at + CELLS, seqs_at = refs_at + 6 * NT;
    w[card_at + c.card] = 1.0f;
    if (c.type >= 0) w[type_at + c.type] = 1.0f;
    w[step_at + c.step] = 1.0f;
    if (c.mode >= 0) w[modes_at + c.mode] = 1.0f;
    if (c.has_modes)
        for (int x : c.modes) w[modes_at + 5 + x] = 1.0f;
    if (c.piece >= 0) w[piece_at + c.piece] = 1.0f;
    if (c.rapid > R_EMPTY) w[rapid_at + c.rapid - 1] = 1.0f;
    if (c.shots >= 0) w[shots_at] = float(c.shots);
    if (c.dir >= 0) w[dir_at + facing_of(c.dir)] = 1.0f;
    if (c.origin >= 0) w[origin_at + cell_of(c.origin)] = 1.0f;
    if (c.cell >= 0) w[cell_at + cell_of(c.cell)] = 1.0f;
    const int refs[6] = {c.leader, c.shooter, c.builder, c.first, c.base, c.invader};
    for (int i = 0; i < 6; ++i)
        if (refs[i] >= 0) w[refs_at + i * NT + refs[i]] = 1.0f;
    const Seq* seqs[6] = {&c.used, &c.sel, &c.order, &c.mates, &c.moved, &c.trap_moved};
    for (int i = 0; i < 6; ++i)
        for (size_t k = 0; k < seqs[i]->v.size(); ++k)
            w[seqs_at + i * NT + seqs[i]->v[k]] = float(k + 1);
}

// Play ``games`` uniformly random games from ``from`` (left unchanged); the decisions played
// (benchmarks: a native decision's cost without Python). SplitMix64 draws the choices.
int64_t random_playouts(const Match& from, int games, uint64_t seed) {
    int64_t plies = 0;
    for (int g = 0; g < games; ++g) {
        Match m(from);
        while (!m.over) {
            const V& l = legal_ints(m);
            if (l.empty()) break;  // a loaded position with no decision: stop
            seed += 0x9E3779B97F4A7C15ULL;
            uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            z ^= z >> 31;
            play(m, l[size_t(z % l.size())]);
            ++plies;
        }
    }
    return plies;
}

// A seed (any Python int) as the decimal text a match keeps.
std::string seed_text(py::handle seed) {
    if (!py::isinstance<py::int_>(seed) || py::isinstance<py::bool_>(seed))
        throw py::type_error("a seed is a whole number (an int)");
    return py::str(seed).cast<std::string>();
}

// What the shared batch (sengoku/native/core_batch.hpp) asks of a Gunshi match.
struct GunshiTraits {
    using Match = ::Match;
    using Rules = ::Rules;
    using Encoding = ::Encoding;
    static bool over(const Match& m) { return m.over; }
    static int seat(const Match& m) { return m.over ? -1 : m.player; }
    static int observers(const Match& /*m*/) { return 2; }
    static const std::vector<int>& legal(Match& m) { return legal_ints(m); }
    static bool is_legal(Match& m, int action) { return ::is_legal(m, action); }
    static void play(Match& m, int action) { ::play(m, action); }
    static void deal(Match& m, const std::vector<uint32_t>& key, py::handle seed) {
        ::deal(m, key, seed_text(seed));
    }
    static void load(Match& m, const py::dict& data) { load_json(m, data); }
    static int num_actions(const Rules& r) { return r.num_actions; }
    static int num_players(const Rules& /*r*/) { return 2; }
    static int size(const Encoding& e) { return e.size; }
    static void encode(const Match& m, const Encoding& e, int seat, float* row) {
        ::encode(m, e, seat, row);
    }
    static double payoff(const Match& m, int seat) { return m.result.returns[size_t(seat)]; }
    static py::object outcome(const Match& m) {
        if (!m.over) return py::none();
        return outcome_json(m.result);
    }
};

int action_arg(const Rules& r, py::handle given) {
    if (!py::isinstance<py::int_>(given) || py::isinstance<py::bool_>(given))
        throw py::type_error("a Gunshi action is a whole number (an int)");
    long long v = given.cast<long long>();
    if (v < 0 || v >= r.num_actions)
        throw py::value_error("a Gunshi action is an integer in 0.." +
                              std::to_string(r.num_actions - 1) + ", got " + std::to_string(v));
    return int(v);
}

}  // namespace

PYBIND11_MODULE(_gunshi_native, m) {
    m.doc() = "Gunshi's native core (C++): legal actions, the rules' effects, the turn's flow.";

    py::class_<Rules, std::shared_ptr<Rules>>(m, "Rules")
        .def(py::init(&make_rules), py::arg("spec"))
        .def_property_readonly("num_actions", [](const Rules& r) { return r.num_actions; });

    py::class_<Encoding, std::shared_ptr<Encoding>>(m, "Encoding")
        .def(py::init(&make_encoding), py::arg("spec"))
        .def_property_readonly("size", [](const Encoding& e) { return e.size; });

    py::class_<Match>(m, "Match")
        .def(py::init<std::shared_ptr<const Rules>>(), py::arg("rules"))
        .def("load_json", &load_json, py::arg("data"),
             "Take the position of GunshiState.to_json() (a ValueError names a bad field).")
        .def("to_json", &to_json, "The position as GunshiState.to_json() writes it.")
        .def("clone", [](const Match& self) { return Match(self); })
        .def("deal",
             [](Match& self, const std::vector<uint32_t>& key, py::handle seed) {
                 deal(self, key, seed_text(seed));
             },
             py::arg("key"), py::arg("seed"),
             "Set up a new game as GunshiState.setup does from random.Random(seed), ``key`` "
             "the seed's 32-bit words (native_core.seed_key).")
        .def("legal_ints", [](Match& self) { return int_list(legal_ints(self)); },
             "The legal actions' integers, ascending (empty once over).")
        .def("is_legal",
             [](Match& self, py::handle action) {
                 return !self.over && is_legal(self, action_arg(*self.R, action));
             })
        .def("apply",
             [](Match& self, py::handle action) {
                 int a = action_arg(*self.R, action);
                 if (self.over || !is_legal(self, a))
                     throw py::value_error("action " + std::to_string(a) +
                                           " is not legal here");
                 play(self, a);
             },
             py::arg("action"),
             "Play the action numbered ``action``; a ValueError naming it, with nothing "
             "changed, when it is not legal here.")
        .def("is_terminal", [](const Match& self) { return self.over; })
        .def("random_playouts",
             [](const Match& self, int games, uint64_t seed) {
                 py::gil_scoped_release release;
                 return random_playouts(self, games, seed);
             },
             py::arg("games"), py::arg("seed"),
             "Play ``games`` uniformly random games from here (this match unchanged); the "
             "decisions played (benchmarks).")
        .def_property_readonly("current_player",
                               [](const Match& self) { return self.over ? -1 : self.player; })
        .def_property_readonly("phase", [](const Match& self) { return PHASE_NAMES[self.phase]; })
        .def_property_readonly("ply", [](const Match& self) { return self.ply; })
        .def("outcome",
             [](const Match& self) -> py::object {
                 if (!self.over) return py::none();
                 return outcome_json(self.result);
             },
             "Outcome.to_json() of the finished game (None while it goes on).")
        .def("encode",
             [](const Match& self, std::shared_ptr<const Encoding> e, int seat,
                py::array_t<float, py::array::c_style>& out) {
                 if (seat < -1 || seat > 1) throw py::value_error("no such seat");
                 if (out.ndim() != 1 || out.shape(0) != e->size)
                     throw py::value_error("out must be a float32 array of shape (" +
                                           std::to_string(e->size) + ",)");
                 float* w = out.mutable_data();
                 std::fill(w, w + e->size, 0.0f);
                 encode(self, *e, seat, w);
             },
             py::arg("encoding"), py::arg("seat"), py::arg("out"),
             "GunshiEncoder's observation of view(seat) into ``out`` (seat -1: a spectator).");

    sengoku::bind_core_batch<GunshiTraits>(m);
}
