// Sashimono's native core: the Python engine's rules (sengoku/games/sashimono/, the machine of
// steps and questions in state.py) mirrored in C++, on the same integer actions
// (decisions.py: KIND_OFFSET[kind] + arg) and the same state fields (SashimonoState.to_json).
//
// Nothing here re-types the game's data: the cards (their scoring conditions compiled by
// cards.py, their actions, requirement icons and effects in the card language, their ongoing
// effects), the reference card, the Kumi counts and the starting Sonae, the Kumi powers, the
// bonus actions' effects and the action space come in from Python (native_core.py builds the
// Rules). The card language is interpreted here as state.py's OPERATIONS interpret it: a task
// holds an operation (an index into the table of operations handed in, and its count now).
// Each function names the Python function it mirrors; tests/sashimono/test_native_core.py
// plays both engines side by side and compares every legal list, every state (to_json) and
// every observation after every decision, in both modes and under every option.
//
// A Match is one game: load_json(state.to_json()) takes a position, deal(key) deals one as
// setup.py does from random.Random(seed), legal_ints() lists the legal action integers in
// ascending order, apply(n) plays one (refusing an illegal one, changing nothing; the
// Kagemusha's questions are answered inside, by kagemusha.answer's prescriptions), to_json()
// gives the position back as SashimonoState.to_json() writes it, and encode(seat, out)
// writes SashimonoEncoder's observation of capture(state, seat).
//
// A Batch is n matches stepped together (batch.py's SashimonoBatch, the batch contract of
// sengoku/core/batch.py).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../../../native/core_batch.hpp"
#include "../../../native/python_random.hpp"

namespace py = pybind11;

namespace {

// ---------------------------------------------------------------------- constants
// Kinds of actions (decisions.py: K_TURN ... K_DONE, in that order).
enum { K_TURN, K_PLAY, K_SLOT, K_DO, K_OWN, K_ENEMY, K_HAND, K_SHAND, K_LOOK, K_LINE, K_PLACE,
       K_BONUS, K_PERM, K_OPTION, K_PSLOT, K_DONE, NKINDS };
// The Kagemusha's side (pieces.KAGE) and who knows a Hidden Kumi (pieces.EVERYONE).
constexpr int KAGE = 2;
constexpr int EVERYONE = 0b1111;
constexpr int SPECTATOR_BIT = 1 << 3;
constexpr int NONE = INT_MIN;  // a field Python holds as None

// Steps (decisions.Step) in their order; their saved names below.
enum Step { S_SETUP_LOOK, S_TURN, S_ACTIONS, S_SCORE, S_RETURN_SAS, S_BONUS, S_DRAW_KUMI,
            S_PLACE, S_END_TURN, S_OP, S_ANTE, S_RESOLVE, S_BATTLE_END, S_KAGE_BLOCK,
            S_KAGE_BATTLE, S_KAGE_PLACE, S_KAGE_DRAW, S_KAGE_MOVE, NSTEPS };
const char* STEP_NAMES[NSTEPS] = {"setup_look", "turn", "actions", "score", "return_sas",
                                  "bonus", "draw_kumi", "place", "end_turn", "op", "ante",
                                  "resolve", "battle_end", "kage_block", "kage_battle",
                                  "kage_place", "kage_draw", "kage_move"};
// Questions (decisions.Question) in their order.
enum Q { Q_LOOK_BOTTOM, Q_TURN, Q_PLAY, Q_SLOT, Q_DO, Q_GUNBAI, Q_RETURN_SAS, Q_BONUS, Q_PLACE,
         Q_PLACE_AT, Q_FLIP, Q_KEEP, Q_BATTLE, Q_ANTE, Q_CASUALTY, Q_TRAIN, Q_TRAIN_WITH,
         Q_REARRANGE, Q_PERM, Q_SWAP, Q_SWAP_WITH, Q_RETURN_KUMI, Q_DISCARD, Q_BURY, Q_PEEK,
         Q_CHOOSE, NQ };
const char* Q_NAMES[NQ] = {"look_bottom", "turn", "play", "slot", "do", "gunbai", "return_sas",
                           "bonus", "place", "place_at", "flip", "keep", "battle", "ante",
                           "casualty", "train", "train_with", "rearrange", "perm", "swap",
                           "swap_with", "return_kumi", "discard", "bury", "peek", "choose"};

// The Sonae's spaces, lines and the Sashimono spaces (pieces.py: notation, not rules data).
const char* CELLS[9] = {"a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"};
const int LINES[6][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}};
const char* LINE_NAMES[7] = {"row1", "row2", "row3", "cola", "colb", "colc", "line"};
const char* SLOTS[12] = {"top-a", "top-b", "top-c", "right-1", "right-2", "right-3",
                         "bottom-c", "bottom-b", "bottom-a", "left-3", "left-2", "left-1"};
const char* SLOT_SHORT[12] = {"ta", "tb", "tc", "r1", "r2", "r3",
                              "bc", "bb", "ba", "l3", "l2", "l1"};
const int SLOT_LINE[12] = {3, 4, 5, 0, 1, 2, 5, 4, 3, 2, 1, 0};
const int SLOT_POS[12][2] = {{-1, 0}, {-1, 1}, {-1, 2}, {0, 3}, {1, 3}, {2, 3},
                             {3, 2},  {3, 1},  {3, 0},  {2, -1}, {1, -1}, {0, -1}};
const int PERMS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
const bool CORNER[9] = {true, false, true, false, false, false, true, false, true};
const bool EDGE[9] = {false, true, false, true, false, true, false, true, false};
const char TYPE_LETTER[3] = {'T', 'K', 'N'};
int type_index(char c) { return c == 'T' ? 0 : c == 'K' ? 1 : c == 'N' ? 2 : -1; }

// ---------------------------------------------------------------------- a Kumi stack
// pieces.py's stack string ("TK^"): its types bottom first, then its face. n == 0: no stack.
struct Stack {
    int8_t n = 0;
    int8_t t[3] = {0, 0, 0};
    bool up = false;
    bool operator==(const Stack& o) const {
        if (n != o.n || up != o.up) return false;
        for (int i = 0; i < n; ++i)
            if (t[i] != o.t[i]) return false;
        return true;
    }
    bool operator!=(const Stack& o) const { return !(*this == o); }
    bool empty() const { return n == 0; }
    int rank() const { return n; }  // len(stack) - 1
    bool has(int type) const {
        for (int i = 0; i < n; ++i)
            if (t[i] == type) return true;
        return false;
    }
    std::string str() const {
        std::string s;
        for (int i = 0; i < n; ++i) s += TYPE_LETTER[t[i]];
        s += up ? '^' : 'v';
        return s;
    }
};

Stack stack_of(const std::string& s, const std::string& field) {
    Stack st;
    if (s.size() < 2 || s.size() > 4 || (s.back() != '^' && s.back() != 'v'))
        throw py::value_error("sashimono core: field '" + field + "': " + s +
                              " is not a Kumi stack");
    st.n = int8_t(s.size() - 1);
    for (int i = 0; i < st.n; ++i) {
        int k = type_index(s[i]);
        if (k < 0)
            throw py::value_error("sashimono core: field '" + field + "': " + s +
                                  " is not a Kumi stack");
        st.t[i] = int8_t(k);
    }
    st.up = s.back() == '^';
    return st;
}

// ---------------------------------------------------------------------- the Rules
// One operation of the card language (cards.OPS), as the card files state it.
enum Op { OP_FLIP, OP_DRAW, OP_LOOK, OP_BATTLE, OP_TRAIN, OP_REARRANGE, OP_SWAP, OP_RETURN,
          OP_DISCARD, OP_PLAY_KUMI, OP_BURY, OP_PEEK, OP_CHOOSE };
struct Spec {
    int op = 0;
    bool enemy = false;  // side
    int where = 2;       // 0 line, 1 other, 2 any
    int face = 0;        // 0 any, 1 hidden, 2 up
    bool has_count = false;
    int count = 1;
    bool kumi = true;  // draw's what
    int keep = 1;
    int axis = 0;  // 0 any, 1 row, 2 column
    int attack = 0;
    bool defender_ante = true;
    int from = 2;  // 0 hand, 1 play, 2 any
    bool draw = false;
    bool adjacent = true;
    std::vector<std::string> labels;           // choose: each option's label
    std::vector<std::vector<int>> choices;     // choose: each option's operations
    py::object json;                           // the spec as Python holds it
};

// A compiled scoring condition (cards.Cond's classes) as nodes.
enum NodeKind { N_CONST, N_ALL, N_ANY, N_NOT, N_NEG, N_ARITH, N_CMP, N_ABS, N_EXT, N_QUERY };
enum Fn { FN_COUNT, FN_POWER, FN_LINES, FN_TYPES, FN_HAND, FN_SASHIMONO, FN_VP, FN_EMPTY };
struct Query {  // cards.Query
    int fn = 0, face = 0, type = -1, rank = 0, min_rank = 0, line = -1, position = -1;
    bool attack = true;
    int axis = 0, at_least = 1, distinct = 0;
    bool kumi = true;
    int army = -1, bowed = -1;
};
struct Node {
    int kind = 0;
    long long number = 0;
    int op = 0;
    bool largest = false, enemy = false;
    std::vector<int> kids;
    std::vector<int> ops;
    Query q;
};

struct Action {  // cards.CardAction
    std::string name;
    std::vector<int> requires_;  // icon codes: T K N TT KK NN TKN pair hidden gunbai
    bool gunbai = false;
    std::vector<int> effect;  // spec indexes
};
enum { I_T, I_K, I_N, I_TT, I_KK, I_NN, I_TKN, I_PAIR, I_HIDDEN, I_GUNBAI };

struct Card {
    std::string id, name;
    int army = 0;  // 0 west, 1 east, 2 dual
    int score = 0;  // root node
    int reads_own = 0, reads_enemy = 0;
    std::vector<Action> actions;
    int modifier = -1;  // -1 none, 0 attack, 1 defence
    int amount = 0;
    bool sonae_scope = false;
    int trigger = -1;  // -1 none, 0 battle_won, 1 casualty
    std::vector<int> trigger_effect;
    bool serves(int a) const { return army == a || army == 2; }
};

struct Rules {
    std::vector<Card> cards;
    std::vector<Action> reference;
    std::vector<Spec> specs;
    std::vector<Node> nodes;
    std::vector<std::vector<int>> bonus_effect;
    std::vector<std::string> bonus_names;
    int kumi_count[3] = {0, 0, 0};
    std::vector<Stack> sonae;  // the starting Sonae (9)
    int power[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    std::vector<int> deck[2];  // card indexes of each army's deck (cs.deck)
    bool solo = false;
    int army = 0;  // the solo player's army: 0 west, 1 east
    int target = 3;
    bool corners = false, six = false, abilities = false, discard_five = false,
         fewer_kumi = false, train = false;
    int length_limit = 4000;
    int kind_offset[NKINDS + 1] = {};
    int kind_size[NKINDS] = {};
    int num_actions = 0;
    py::dict options;
};

// ---------------------------------------------------------------------- the position
struct Side {  // pieces.Side
    std::string army;
    std::vector<Stack> cells;  // a player's 9 spaces; the Kagemusha's Kumi line
    std::vector<int8_t> hand, deck, discard;
    std::vector<int> shand, sdeck;
    std::array<int, 12> slots;
    std::array<bool, 12> bowed;
    int vp = 0;
    std::vector<int> scored, sline;
    std::vector<char> sbowed;
    int army_pos = 0;
    int marker = NONE;
    std::vector<int> known, dknown, sknown;
    Side() {
        slots.fill(-1);
        bowed.fill(false);
    }
    template <typename T>
    void bottom(std::vector<T>& pile, std::vector<int>& marks, const std::vector<T>& cards,
                int mask) {  // Side.bottom
        pile.insert(pile.end(), cards.begin(), cards.end());
        for (size_t i = 0; i < cards.size(); ++i) marks.push_back(mask);
        if (marks.size() > pile.size()) marks.erase(marks.begin(), marks.end() - pile.size());
    }
    void bottom_kumi(const std::vector<int8_t>& cards, int mask) {
        bottom(deck, dknown, cards, mask);
    }
    void bottom_sas(const std::vector<int>& cards, int mask) {
        bottom(sdeck, sknown, cards, mask);
    }
    std::vector<int> marks(bool kumi) const {  // Side.marks
        size_t pile = kumi ? deck.size() : sdeck.size();
        const std::vector<int>& m = kumi ? dknown : sknown;
        if (m.size() >= pile) return std::vector<int>(m.end() - pile, m.end());
        std::vector<int> out(pile - m.size(), 0);
        out.insert(out.end(), m.begin(), m.end());
        return out;
    }
};

struct Task {  // decisions.Task
    int kind = S_OP;
    int seat = -1;
    int n = NONE;
    int spec = -1;  // -1: {}
    int count = 1;  // the spec's count now (again() lowers it)
    int actor = -1;
    int line = NONE;
    char type = 0;
    int axis = 0;  // 0 "", 1 "row", 2 "column"
};
Task seat_task(int kind, int seat) {
    Task t;
    t.kind = kind;
    t.seat = seat;
    return t;
}
Task op_task(int spec, int count, int actor, int line) {
    Task t;
    t.kind = S_OP;
    t.spec = spec;
    t.count = count;
    t.actor = actor;
    t.line = line;
    return t;
}

struct Opt {
    int kind, arg;
};
struct Prompt {  // decisions.Prompt
    int seat = 0;
    int q = 0;
    std::string rule;
    std::vector<Opt> opts;
    int n = 0, hand = 0;
    Task task;
    int side = -1, act = -1, line = NONE, cell = -1, first = -1;
    bool adjacent = false;
    int keep = 0;
};

struct BattleState {  // decisions.Battle
    int att = 0, dfn = 0, aline = 0, dline = 0, bonus = 0;
    bool dante = true;
    std::vector<int8_t> ante[2];  // ante of att, of dfn (the dict's order)
    bool resolved = false;
    int winner = 0, loser = 0, margin = 0, attack = 0, defence = 0;
};

struct Ctx {  // decisions.Played
    bool has_seat = false, has_card = false, has_slot = false;
    int seat = 0, card = 0, slot = 0, line = 0;
    std::vector<int> used;
};

struct Result {
    std::string reason;
    std::vector<int> winners;
    std::vector<double> scores, returns;
};

struct Memo {  // bowing.BowingMemo
    bool has = false;
    struct Key {
        std::vector<Stack> cells;
        size_t hand = 0, shand = 0;
        std::array<int, 12> slots;
        std::array<bool, 12> bowed;
        int vp = 0;
        std::vector<int> sline;
        std::vector<char> sbowed;
    };
    std::vector<Key> key;
    std::vector<int> reads;
};
constexpr int READ_CELLS = 1, READ_HAND = 2, READ_SHAND = 4, READ_VP = 8, READ_ALL = 15;

class Match {
  public:
    std::shared_ptr<const Rules> R;
    std::vector<Side> sides;
    std::vector<Task> tasks;  // bottom first (DecisionStack's items)
    bool has_prompt = false;
    Prompt prompt;
    Ctx ctx;
    bool has_battle = false;
    BattleState battle;
    std::vector<int> look;  // Kumi types or card indexes
    bool look_kumi = false;
    int look_owner = -1;
    int turn_seat = 0, turns = 0, decisions = 0;
    bool over = false;
    Result result;
    Memo memo;
    std::vector<int> legal_cache;
    bool legal_fresh = false;

    explicit Match(std::shared_ptr<const Rules> rules) : R(std::move(rules)) {}

    bool solo() const { return R->solo; }
    int num_players() const { return solo() ? 1 : 2; }
    int enemy(int side) const {
        if (solo()) return side == 0 ? KAGE : 0;
        return 1 - side;
    }
    const Card& card(int c) const { return R->cards[size_t(c)]; }
    std::string name_of(int side) const {
        if (side == KAGE) return "the Kagemusha";
        std::string a = sides[size_t(side)].army;
        if (!a.empty()) a[0] = char(toupper(a[0]));
        return a;
    }
    std::string cell_name(int side, int idx) const {
        return side == KAGE ? "k" + std::to_string(idx + 1) : CELLS[idx];
    }
    std::vector<int> line_cells(int side, int lid) const {
        if (side == KAGE) {
            std::vector<int> v(sides[KAGE].cells.size());
            for (size_t i = 0; i < v.size(); ++i) v[i] = int(i);
            return v;
        }
        return {LINES[lid][0], LINES[lid][1], LINES[lid][2]};
    }
    std::vector<int> lines_of(int side) const {
        if (side == KAGE) return {6};
        return {0, 1, 2, 3, 4, 5};
    }
    int attack_of(const Stack& st) const {
        if (!st.up) return st.rank();
        int s = 0;
        for (int i = 0; i < st.n; ++i) s += R->power[st.t[i]][0];
        return s;
    }
    int defence_of(const Stack& st) const {
        if (!st.up) return st.rank();
        int s = 0;
        for (int i = 0; i < st.n; ++i) s += R->power[st.t[i]][1];
        return s;
    }

    // ------------------------------------------------------------------ the machine
    void push(std::initializer_list<Task> ts) {  // DecisionStack.push
        std::vector<Task> v(ts);
        for (size_t i = v.size(); i-- > 0;) tasks.push_back(v[i]);
    }
    void push_all(const std::vector<Task>& v) {
        for (size_t i = v.size(); i-- > 0;) tasks.push_back(v[i]);
    }
    void ask(int seat, int q, std::string rule, std::vector<Opt> opts) {
        std::stable_sort(opts.begin(), opts.end(), [](const Opt& a, const Opt& b) {
            return a.kind < b.kind || (a.kind == b.kind && a.arg < b.arg);
        });
        prompt = Prompt();
        prompt.seat = seat;
        prompt.q = q;
        prompt.rule = std::move(rule);
        prompt.opts = std::move(opts);
        has_prompt = true;
        legal_fresh = false;
    }
    void finish(Result r) {  // SashimonoState.finish
        result = std::move(r);
        over = true;
        has_prompt = false;
        tasks.clear();
        legal_fresh = false;
    }
    std::vector<double> interim_scores() const {
        std::vector<double> s;
        for (int i = 0; i < num_players(); ++i) s.push_back(double(sides[size_t(i)].vp));
        return s;
    }
    void win(int seat, const std::string& reason) {  // winning.win
        Result r;
        r.reason = reason;
        r.scores = interim_scores();
        if (solo()) {
            if (seat == KAGE) {
                r.returns = {-1.0};
            } else {
                r.winners = {0};
                r.returns = {1.0};
            }
        } else {
            r.winners = {seat};
            for (int s = 0; s < 2; ++s) r.returns.push_back(s == seat ? 1.0 : -1.0);
        }
        finish(std::move(r));
    }

    void run() {  // SashimonoState._run
        rebow();
        while (!over) {
            if (has_prompt) {
                if (prompt.seat != KAGE) break;
                kage_answer();
                rebow();
                continue;
            }
            if (tasks.empty()) break;
            Task t = tasks.back();
            tasks.pop_back();
            step(t);
            rebow();
        }
    }

    const std::vector<int>& legal_ints() {
        if (!legal_fresh) {
            legal_cache.clear();
            if (!over && has_prompt)
                for (const Opt& o : prompt.opts)
                    legal_cache.push_back(R->kind_offset[o.kind] + o.arg);
            legal_fresh = true;
        }
        return legal_cache;
    }
    int find_option(int action) const {
        if (over || !has_prompt) return -1;
        for (size_t i = 0; i < prompt.opts.size(); ++i)
            if (R->kind_offset[prompt.opts[i].kind] + prompt.opts[i].arg == action) return int(i);
        return -1;
    }
    bool is_legal(int action) const { return find_option(action) >= 0; }

    void apply(int action) {  // FLOW.apply with _answering
        int i = find_option(action);
        if (i < 0) {
            if (over) throw py::value_error("sashimono core: the game is over; action " +
                                            std::to_string(action) + " is not legal");
            throw py::value_error("sashimono core: action " + std::to_string(action) +
                                  " is not legal now (question " + Q_NAMES[prompt.q] + ")");
        }
        Opt chosen = prompt.opts[size_t(i)];
        decisions += 1;
        Prompt p = take_question();
        answer(p, chosen.kind, chosen.arg);
        run();
        if (!over && decisions >= R->length_limit) {  // State._end_if_too_long
            Result r;
            r.reason = "length_limit";
            r.scores = interim_scores();
            r.returns.assign(size_t(num_players()), 0.0);
            finish(std::move(r));
        }
    }
    Prompt take_question() {
        Prompt p = std::move(prompt);
        has_prompt = false;
        legal_fresh = false;
        return p;
    }

    void step(const Task& t) {  // STEPS
        switch (t.kind) {
            case S_SETUP_LOOK: step_setup_look(t); break;
            case S_TURN: step_turn(t); break;
            case S_ACTIONS: step_actions(t); break;
            case S_SCORE: step_score(t); break;
            case S_RETURN_SAS: step_return_sas(t); break;
            case S_BONUS: step_bonus(t); break;
            case S_DRAW_KUMI: step_draw_kumi(t); break;
            case S_PLACE: step_place(t); break;
            case S_END_TURN: step_end_turn(t); break;
            case S_OP: operation(t); break;
            case S_ANTE: step_ante(t); break;
            case S_RESOLVE: step_resolve(); break;
            case S_BATTLE_END: step_battle_end(); break;
            case S_KAGE_BLOCK: kage_step_block(t); break;
            case S_KAGE_BATTLE: kage_step_battle(t); break;
            case S_KAGE_PLACE: kage_draw_kumi(); break;
            case S_KAGE_DRAW: kage_step_draw(); break;
            case S_KAGE_MOVE: kage_step_move(); break;
        }
    }
    void answer(const Prompt& p, int kind, int arg) {  // ANSWERS
        switch (p.q) {
            case Q_LOOK_BOTTOM: answer_look_bottom(p, arg); break;
            case Q_TURN: answer_turn(p, arg); break;
            case Q_PLAY: answer_play(p, arg); break;
            case Q_SLOT: answer_slot(p, arg); break;
            case Q_DO: answer_do(p, kind, arg); break;
            case Q_GUNBAI: flip(p.seat, p.seat, arg); break;
            case Q_RETURN_SAS: answer_return_sas(p, kind, arg); break;
            case Q_BONUS: answer_bonus(p, kind, arg); break;
            case Q_PLACE: answer_place(p, kind, arg); break;
            case Q_PLACE_AT: answer_place_at(p, arg); break;
            case Q_FLIP:
                flip(p.seat, p.side, arg);
                again(p.task);
                break;
            case Q_KEEP: answer_keep(p, arg); break;
            case Q_BATTLE: answer_battle(p, arg); break;
            case Q_ANTE: answer_ante(p, kind, arg); break;
            case Q_CASUALTY: answer_casualty(p, arg); break;
            case Q_TRAIN: answer_train(p, kind, arg); break;
            case Q_TRAIN_WITH: answer_train_with(p, arg); break;
            case Q_REARRANGE: ask_perm(p.seat, arg); break;
            case Q_PERM: answer_perm(p, arg); break;
            case Q_SWAP: answer_swap(p, arg); break;
            case Q_SWAP_WITH: answer_swap_with(p, arg); break;
            case Q_RETURN_KUMI: answer_return_kumi(p, arg); break;
            case Q_DISCARD: {
                Side& s = sides[size_t(p.seat)];
                int8_t k = s.hand[size_t(arg)];
                s.hand.erase(s.hand.begin() + arg);
                s.bottom_kumi({k}, 1 << p.seat);
                again(p.task);
                break;
            }
            case Q_BURY: answer_bury(p, kind, arg); break;
            case Q_PEEK:
                if (p.side != KAGE) sides[size_t(p.side)].known[size_t(arg)] |= 1 << p.seat;
                again(p.task);
                break;
            case Q_CHOOSE: {
                const Task& t = p.task;
                for (size_t k = R->specs[size_t(t.spec)].choices[size_t(arg)].size(); k-- > 0;) {
                    int sp = R->specs[size_t(t.spec)].choices[size_t(arg)][k];
                    tasks.push_back(op_task(sp, R->specs[size_t(sp)].count, t.actor, t.line));
                }
                break;
            }
        }
    }

    // ------------------------------------------------------------------ setup.py
    void deal(const std::vector<uint32_t>& key) {  // setup.setup then _run
        sengoku::PythonRandom rng(key);
        const Rules& r = *R;
        sides.clear();
        tasks.clear();
        has_prompt = false;
        ctx = Ctx();
        has_battle = false;
        look.clear();
        look_owner = -1;
        turn_seat = turns = decisions = 0;
        over = false;
        result = Result();
        memo = Memo();
        legal_fresh = false;
        std::string armies[2];
        if (r.solo) {
            armies[0] = r.army == 0 ? "west" : "east";
            armies[1] = r.army == 0 ? "east" : "west";
        } else {
            armies[0] = "west";
            armies[1] = "east";
        }
        auto full_kumi = [&]() {
            std::vector<int8_t> k;
            for (int t = 0; t < 3; ++t)
                for (int i = 0; i < r.kumi_count[t]; ++i) k.push_back(int8_t(t));
            return k;
        };
        auto remove_first = [](std::vector<int8_t>& v, int8_t t) {
            auto it = std::find(v.begin(), v.end(), t);
            if (it != v.end()) v.erase(it);
        };
        for (int seat = 0; seat < 2; ++seat) {
            Side side;
            side.army = armies[seat];
            std::vector<int8_t> kumi = full_kumi();
            side.cells = r.sonae;
            side.known.assign(side.cells.size(), EVERYONE);
            for (const Stack& st : r.sonae)
                if (!st.empty()) remove_first(kumi, st.t[0]);
            rng.shuffle(kumi);
            side.deck = kumi;
            std::vector<int> sdeck = r.deck[side.army == "west" ? 0 : 1];
            rng.shuffle(sdeck);
            side.sdeck = sdeck;
            sides.push_back(side);
        }
        if (r.solo) {
            Side kage = sides[1];
            Side none;
            none.army = "none";
            sides[1] = none;
            std::vector<int8_t> kumi = full_kumi();
            std::vector<Stack> line;
            for (int t = 0; t < 3; ++t) {
                remove_first(kumi, int8_t(t));
                Stack st;
                st.n = 1;
                st.t[0] = int8_t(t);
                st.up = true;
                line.push_back(st);
            }
            rng.shuffle(kumi);
            kage.cells = line;
            kage.known.clear();
            kage.deck = kumi;
            if (r.discard_five) {
                size_t k = std::min<size_t>(5, kage.deck.size());
                kage.discard.assign(kage.deck.begin(), kage.deck.begin() + long(k));
                kage.deck.erase(kage.deck.begin(), kage.deck.begin() + long(k));
            }
            kage.marker = kage.sdeck.front();
            kage.sdeck.erase(kage.sdeck.begin());
            size_t k = std::min<size_t>(3, kage.sdeck.size());
            kage.sline.assign(kage.sdeck.begin(), kage.sdeck.begin() + long(k));
            kage.sdeck.erase(kage.sdeck.begin(), kage.sdeck.begin() + long(k));
            kage.sbowed.assign(kage.sline.size(), 0);
            kage.army_pos = 0;
            sides.push_back(kage);
        }
        int seats = r.solo ? 1 : 2;
        for (int seat = 0; seat < seats; ++seat) {
            Side& s = sides[size_t(seat)];
            size_t k = std::min<size_t>(3, s.deck.size());
            s.hand.assign(s.deck.begin(), s.deck.begin() + long(k));
            s.deck.erase(s.deck.begin(), s.deck.begin() + long(k));
        }
        int first = (r.solo && sides[0].army == "east") ? KAGE : 0;
        std::vector<Task> ts;
        for (int seat = 0; seat < seats; ++seat) ts.push_back(seat_task(S_SETUP_LOOK, seat));
        ts.push_back(seat_task(S_TURN, first));
        push_all(ts);
        run();
    }

    void step_setup_look(const Task& t) {
        Side& s = sides[size_t(t.seat)];
        size_t k = std::min<size_t>(5, s.sdeck.size());
        look.assign(s.sdeck.begin(), s.sdeck.begin() + long(k));
        look_kumi = false;
        s.sdeck.erase(s.sdeck.begin(), s.sdeck.begin() + long(k));
        look_owner = t.seat;
        ask_return_looked(t.seat, 2, "setup: choose 2 of the 5 Sashimono to return to the bottom");
    }
    void ask_return_looked(int seat, int n, const std::string& rule) {
        std::vector<Opt> opts;
        for (size_t i = 0; i < look.size(); ++i) opts.push_back({K_LOOK, int(i)});
        ask(seat, Q_LOOK_BOTTOM, rule, opts);
        prompt.n = n;
    }
    void answer_look_bottom(const Prompt& p, int arg) {
        Side& s = sides[size_t(p.seat)];
        int c = look[size_t(arg)];
        look.erase(look.begin() + arg);
        s.bottom_sas({c}, 1 << p.seat);
        int n = p.n - 1;
        if (n > 0 && !look.empty()) {
            ask_return_looked(p.seat, n, p.rule);
            return;
        }
        s.shand.insert(s.shand.end(), look.begin(), look.end());
        look.clear();
        look_owner = -1;
    }

    // ------------------------------------------------------------------ turn.py
    std::vector<int> free_slots(int seat) const {
        const Side& s = sides[size_t(seat)];
        int army = solo() ? sides[KAGE].army_pos : -1;
        std::vector<int> out;
        for (int p = 0; p < 12; ++p)
            if (s.slots[size_t(p)] < 0 && p != army) out.push_back(p);
        return out;
    }
    void step_turn(const Task& t) {
        int seat = t.seat;
        turn_seat = seat;
        turns += 1;
        ctx = Ctx();
        ctx.has_seat = true;
        ctx.seat = seat;
        if (seat == KAGE) {
            kage_take_turn();
            return;
        }
        const Side& s = sides[size_t(seat)];
        std::vector<Opt> opts;
        if (!s.shand.empty() && !free_slots(seat).empty()) opts.push_back({K_TURN, 0});
        opts.push_back({K_TURN, 1});
        ask(seat, Q_TURN,
            "choose an Action turn or a Score turn (Score is mandatory with no Sashimono in hand)",
            opts);
    }
    void answer_turn(const Prompt& p, int arg) {
        int seat = p.seat;
        if (arg == 0) {
            std::vector<Opt> opts;
            for (int c : sides[size_t(seat)].shand) opts.push_back({K_PLAY, c});
            ask(seat, Q_PLAY, "Action turn: play one Sashimono from your hand", opts);
            push({seat_task(S_ACTIONS, seat), seat_task(S_DRAW_KUMI, seat),
                  seat_task(S_PLACE, seat), seat_task(S_END_TURN, seat)});
        } else {
            push({seat_task(S_SCORE, seat), seat_task(S_RETURN_SAS, seat),
                  seat_task(S_BONUS, seat), seat_task(S_DRAW_KUMI, seat),
                  seat_task(S_PLACE, seat), seat_task(S_END_TURN, seat)});
        }
    }
    void step_draw_kumi(const Task& t) {
        const Side& s = sides[size_t(t.seat)];
        int k = 0;
        for (const Stack& st : s.cells)
            if (st.empty()) ++k;
        int n = k + 1;
        if (solo() && R->fewer_kumi) n -= 1;
        draw_kumi(t.seat, n);
    }
    void draw_kumi(int seat, int n) {
        if (seat == KAGE) {
            for (int i = 0; i < n; ++i)
                if (!kage_draw_kumi()) return;
            return;
        }
        Side& s = sides[size_t(seat)];
        size_t k = std::min<size_t>(size_t(std::max(n, 0)), s.deck.size());
        s.hand.insert(s.hand.end(), s.deck.begin(), s.deck.begin() + long(k));
        s.deck.erase(s.deck.begin(), s.deck.begin() + long(k));
    }
    void step_place(const Task& t) {
        const Side& s = sides[size_t(t.seat)];
        bool full = true;
        for (const Stack& st : s.cells)
            if (st.empty()) full = false;
        if (s.hand.empty() || full) return;
        std::vector<Opt> opts;
        for (size_t i = 0; i < s.hand.size(); ++i) opts.push_back({K_HAND, int(i)});
        opts.push_back({K_DONE, 0});
        ask(t.seat, Q_PLACE, "you may play Kumi from hand into empty spaces", opts);
        prompt.n = t.n == NONE ? -1 : t.n;
    }
    void answer_place(const Prompt& p, int kind, int arg) {
        if (kind == K_DONE) return;
        const Side& s = sides[size_t(p.seat)];
        std::vector<Opt> opts;
        for (int i = 0; i < int(s.cells.size()); ++i)
            if (s.cells[size_t(i)].empty()) {
                opts.push_back({K_PLACE, 2 * i});
                opts.push_back({K_PLACE, 2 * i + 1});
            }
        int n = p.n;
        ask(p.seat, Q_PLACE_AT, "play the Kumi into an empty space, face up or Hidden", opts);
        prompt.hand = arg;
        prompt.n = n;
    }
    void answer_place_at(const Prompt& p, int arg) {
        Side& s = sides[size_t(p.seat)];
        int8_t t = s.hand[size_t(p.hand)];
        s.hand.erase(s.hand.begin() + p.hand);
        int idx = arg / 2;
        bool hidden = arg % 2;
        Stack st;
        st.n = 1;
        st.t[0] = t;
        st.up = !hidden;
        s.cells[size_t(idx)] = st;
        s.known[size_t(idx)] = hidden ? 0 : EVERYONE;
        int n = p.n;
        if (n > 1 || n < 0) {
            Task nt = seat_task(S_PLACE, p.seat);
            nt.n = n > 0 ? n - 1 : -1;
            tasks.push_back(nt);
        }
    }
    void step_end_turn(const Task& t) {
        ctx = Ctx();
        int nxt = solo() ? (t.seat == 0 ? KAGE : 0) : 1 - t.seat;
        tasks.push_back(seat_task(S_TURN, nxt));
    }

    // ------------------------------------------------------------------ action_turn.py
    void answer_play(const Prompt& p, int arg) {
        ctx.has_card = true;
        ctx.card = arg;
        std::vector<Opt> opts;
        for (int sp : free_slots(p.seat)) opts.push_back({K_SLOT, sp});
        ask(p.seat, Q_SLOT,
            "place " + card(arg).name +
                " next to one line of your Sonae (not onto another Sashimono or the "
                "Kagemusha's Army)",
            opts);
    }
    void answer_slot(const Prompt& p, int arg) {
        Side& s = sides[size_t(p.seat)];
        int c = ctx.card;
        auto it = std::find(s.shand.begin(), s.shand.end(), c);
        if (it != s.shand.end()) s.shand.erase(it);
        s.slots[size_t(arg)] = c;
        s.bowed[size_t(arg)] = false;
        ctx.has_slot = true;
        ctx.slot = arg;
        ctx.line = SLOT_LINE[arg];
        ctx.used.clear();
    }
    const Action& card_action(int i) const {
        return i < 4 ? card(ctx.card).actions[size_t(i)] : R->reference[size_t(i - 4)];
    }
    std::vector<int> card_action_ids() const {
        std::vector<int> out;
        for (size_t i = 0; i < card(ctx.card).actions.size(); ++i) out.push_back(int(i));
        for (size_t i = 0; i < R->reference.size(); ++i) out.push_back(4 + int(i));
        return out;
    }
    void icons(int side, const std::vector<int>& cells, int flip_at, int counts[3],
               int& hidden) const {
        counts[0] = counts[1] = counts[2] = 0;
        hidden = 0;
        const std::vector<Stack>& sc = sides[size_t(side)].cells;
        for (int i : cells) {
            Stack st = sc[size_t(i)];
            if (st.empty()) continue;
            if (i == flip_at) st.up = !st.up;
            if (st.up) {
                for (int k = 0; k < st.n; ++k) counts[st.t[k]] += 1;
            } else {
                hidden += 1;
            }
        }
    }
    static bool reqs_hold(const int counts[3], int hidden, const std::vector<int>& req) {
        for (int icon : req) {
            switch (icon) {
                case I_GUNBAI: break;
                case I_HIDDEN:
                    if (hidden < 1) return false;
                    break;
                case I_PAIR:
                    if (std::max({counts[0], counts[1], counts[2]}) < 2) return false;
                    break;
                case I_TKN:
                    if (std::min({counts[0], counts[1], counts[2]}) < 1) return false;
                    break;
                default:
                    if (counts[icon % 3] < (icon >= 3 ? 2 : 1)) return false;
            }
        }
        return true;
    }
    bool reqs_ok(int side, int lid, const std::vector<int>& req, int flip_at) const {
        int counts[3], hidden;
        icons(side, line_cells(side, lid), flip_at, counts, hidden);
        return reqs_hold(counts, hidden, req);
    }
    std::vector<int> gunbai_cells(int side, int lid, const std::vector<int>& req) const {
        std::vector<int> out;
        for (int i : line_cells(side, lid))
            if (!sides[size_t(side)].cells[size_t(i)].empty() && reqs_ok(side, lid, req, i))
                out.push_back(i);
        return out;
    }
    bool used(int i) const {
        return std::find(ctx.used.begin(), ctx.used.end(), i) != ctx.used.end();
    }
    void step_actions(const Task& t) {
        int seat = t.seat;
        int lid = ctx.line;
        std::vector<Opt> opts;
        int counts[3], hidden;
        icons(seat, line_cells(seat, lid), -1, counts, hidden);
        for (int i : card_action_ids()) {
            if (used(i)) continue;
            const Action& a = card_action(i);
            bool ready = a.gunbai ? !gunbai_cells(seat, lid, a.requires_).empty()
                                  : reqs_hold(counts, hidden, a.requires_);
            if (ready) opts.push_back({K_DO, i});
        }
        if (opts.empty() && !gunbai_may_help(seat)) return;
        opts.push_back({K_DONE, 0});
        ask(seat, Q_DO,
            "perform each available action of the card and the reference card at most once, "
            "requirements read from the chosen line",
            opts);
    }
    bool gunbai_may_help(int seat) const {
        const std::vector<Stack>& cells = sides[size_t(seat)].cells;
        bool any_hidden = false;
        for (int i : line_cells(seat, ctx.line))
            if (!cells[size_t(i)].empty() && !cells[size_t(i)].up) any_hidden = true;
        if (!any_hidden) return false;
        for (int i : card_action_ids())
            if (!used(i) && card_action(i).gunbai) return true;
        return false;
    }
    void answer_do(const Prompt& p, int kind, int arg) {
        int seat = p.seat;
        if (kind == K_DONE) return;
        const Action& a = card_action(arg);
        ctx.used.push_back(arg);
        int lid = ctx.line;
        std::vector<Task> ts;
        for (int sp : a.effect) ts.push_back(op_task(sp, R->specs[size_t(sp)].count, seat, lid));
        if (a.gunbai) {
            std::vector<Opt> opts;
            for (int i : gunbai_cells(seat, lid, a.requires_)) opts.push_back({K_OWN, i});
            ask(seat, Q_GUNBAI, "Gunbai fan: flip a Kumi in this line, then act", opts);
            prompt.act = arg;
        }
        ts.push_back(seat_task(S_ACTIONS, seat));
        push_all(ts);
    }

    // ------------------------------------------------------------------ sonae.py
    void flip(int actor, int side, int idx) {
        (void)actor;
        Stack& st = sides[size_t(side)].cells[size_t(idx)];
        st.up = !st.up;
        if (side != KAGE) sides[size_t(side)].known[size_t(idx)] = EVERYONE;
    }
    std::pair<int, std::vector<int>> flip_targets(int actor, const Spec& spec, int line) const {
        int side = spec.enemy ? enemy(actor) : actor;
        const std::vector<Stack>& cells = sides[size_t(side)].cells;
        std::vector<int> in_line;
        if (line != NONE) in_line = line_cells(side, line);
        std::vector<int> out;
        for (int i = 0; i < int(cells.size()); ++i) {
            const Stack& st = cells[size_t(i)];
            if (st.empty()) continue;
            bool in = std::find(in_line.begin(), in_line.end(), i) != in_line.end();
            if (line != NONE && spec.where == 0 && !in) continue;
            if (line != NONE && spec.where == 1 && in) continue;
            if (spec.face == 1 && st.up) continue;
            if (spec.face == 2 && !st.up) continue;
            out.push_back(i);
        }
        return {side, out};
    }
    std::vector<Opt> cell_opts(int chooser, int side, const std::vector<int>& cells) const {
        std::vector<Opt> out;
        for (int i : cells) out.push_back({side == chooser ? K_OWN : K_ENEMY, i});
        return out;
    }

    // ------------------------------------------------------------------ effects.py
    void operation(const Task& t) {
        const Spec& spec = R->specs[size_t(t.spec)];
        int actor = t.actor;
        switch (spec.op) {
            case OP_FLIP: {
                auto [side, cells] = flip_targets(actor, spec, t.line);
                if (cells.empty()) return;
                ask(actor, Q_FLIP, "flip a Kumi", cell_opts(actor, side, cells));
                prompt.task = t;
                prompt.side = side;
                return;
            }
            case OP_DRAW:
                if (spec.kumi)
                    draw_kumi(actor, t.count);
                else
                    draw_sashimono(actor, t.count);
                return;
            case OP_LOOK: {
                Side& s = sides[size_t(actor)];
                if (actor == KAGE) {
                    draw_kumi(actor, spec.keep);
                    return;
                }
                if (s.deck.empty()) return;
                size_t k = std::min<size_t>(size_t(t.count), s.deck.size());
                look.assign(s.deck.begin(), s.deck.begin() + long(k));
                look_kumi = true;
                s.deck.erase(s.deck.begin(), s.deck.begin() + long(k));
                look_owner = actor;
                ask_keep(actor, spec.keep);
                return;
            }
            case OP_BATTLE: {
                int foe = enemy(actor);
                std::vector<Opt> opts;
                for (int lid : lines_of(foe)) {
                    bool off_axis = (spec.axis == 1 && lid >= 3) || (spec.axis == 2 && lid < 3);
                    if (foe != KAGE && off_axis) continue;
                    opts.push_back({K_LINE, lid});
                }
                ask(actor, Q_BATTLE, "battle: choose the enemy line to attack", opts);
                prompt.task = t;
                return;
            }
            case OP_TRAIN: op_train(t, spec); return;
            case OP_REARRANGE: {
                if (actor == KAGE) return;
                if (spec.where == 0 && t.line != NONE) {
                    ask_perm(actor, t.line);
                    return;
                }
                std::vector<Opt> opts;
                for (int lid = 0; lid < 6; ++lid) opts.push_back({K_LINE, lid});
                ask(actor, Q_REARRANGE, "Gyorin: choose one line of your Sonae to rearrange", opts);
                return;
            }
            case OP_SWAP: {
                if (actor == KAGE) return;
                std::vector<Opt> opts;
                for (int i = 0; i < 9; ++i)
                    if (!swap_partners(actor, i, spec.adjacent).empty()) opts.push_back({K_OWN, i});
                if (opts.empty()) return;
                ask(actor, Q_SWAP, "swap: choose the first Kumi", opts);
                prompt.adjacent = spec.adjacent;
                return;
            }
            case OP_RETURN: {
                auto [side, cells] = flip_targets(actor, spec, t.line);
                if (side == KAGE || cells.empty()) return;
                ask(actor, Q_RETURN_KUMI, "return a Kumi (the whole stack) to its owner's hand",
                    cell_opts(actor, side, cells));
                prompt.side = side;
                return;
            }
            case OP_DISCARD: {
                int side = spec.enemy ? enemy(actor) : actor;
                Side& s = sides[size_t(side)];
                if (side == KAGE) {
                    if (!s.cells.empty()) {
                        Stack st = s.cells.front();
                        s.cells.erase(s.cells.begin());
                        for (int k = 0; k < st.n; ++k) s.discard.push_back(st.t[k]);
                    }
                    again(t);
                    return;
                }
                if (s.hand.empty()) return;
                std::vector<Opt> opts;
                for (size_t i = 0; i < s.hand.size(); ++i) opts.push_back({K_HAND, int(i)});
                ask(side, Q_DISCARD, "discard a Kumi from your hand (to the bottom of your deck)",
                    opts);
                prompt.task = t;
                return;
            }
            case OP_PLAY_KUMI: {
                if (actor == KAGE) return;
                Task nt = seat_task(S_PLACE, actor);
                nt.n = t.count;
                tasks.push_back(nt);
                return;
            }
            case OP_BURY: {
                if (actor == KAGE) return;
                if (spec.draw) draw_sashimono(actor, 1);
                const Side& s = sides[size_t(actor)];
                std::vector<Opt> opts;
                if (spec.from == 0 || spec.from == 2)
                    for (size_t i = 0; i < s.shand.size(); ++i) opts.push_back({K_SHAND, int(i)});
                if (spec.from == 1 || spec.from == 2)
                    for (int p = 0; p < 12; ++p)
                        if (s.slots[size_t(p)] >= 0) opts.push_back({K_PSLOT, p});
                if (opts.empty()) return;
                ask(actor, Q_BURY,
                    "put one of your Sashimono (hand or play) at the bottom of your Sashimono deck",
                    opts);
                return;
            }
            case OP_PEEK: {
                int foe = enemy(actor);
                std::vector<int> cells;
                const std::vector<Stack>& fc = sides[size_t(foe)].cells;
                for (int i = 0; i < int(fc.size()); ++i)
                    if (!fc[size_t(i)].empty() && !fc[size_t(i)].up) cells.push_back(i);
                if (cells.empty() || actor == KAGE) return;
                ask(actor, Q_PEEK, "peek at an enemy Hidden Kumi", cell_opts(actor, foe, cells));
                prompt.task = t;
                prompt.side = foe;
                return;
            }
            case OP_CHOOSE: {
                std::vector<Opt> opts;
                for (size_t i = 0; i < spec.labels.size(); ++i) opts.push_back({K_OPTION, int(i)});
                ask(actor, Q_CHOOSE, "choose one of the effects", opts);
                prompt.task = t;
                return;
            }
        }
    }
    void again(const Task& t) {  // effects.again
        const Spec& spec = R->specs[size_t(t.spec)];
        int count = spec.has_count ? t.count : 1;
        if (count > 1) {
            Task nt = t;
            nt.count = count - 1;
            tasks.push_back(nt);
        }
    }
    void draw_sashimono(int seat, int n) {
        if (seat == KAGE) {
            for (int i = 0; i < n; ++i)
                if (!kage_draw_sashimono()) return;
            return;
        }
        Side& s = sides[size_t(seat)];
        size_t k = std::min<size_t>(size_t(std::max(n, 0)), s.sdeck.size());
        s.shand.insert(s.shand.end(), s.sdeck.begin(), s.sdeck.begin() + long(k));
        s.sdeck.erase(s.sdeck.begin(), s.sdeck.begin() + long(k));
    }
    void ask_keep(int actor, int keep) {
        std::vector<Opt> opts;
        for (size_t i = 0; i < look.size(); ++i) opts.push_back({K_LOOK, int(i)});
        ask(actor, Q_KEEP,
            "look and choose: keep " + std::to_string(keep) + " to hand, the rest to the bottom",
            opts);
        prompt.keep = keep;
    }
    void answer_keep(const Prompt& p, int arg) {
        Side& s = sides[size_t(p.seat)];
        s.hand.push_back(int8_t(look[size_t(arg)]));
        look.erase(look.begin() + arg);
        int keep = p.keep - 1;
        if (keep > 0 && !look.empty()) {
            ask_keep(p.seat, keep);
            return;
        }
        std::vector<int8_t> rest(look.begin(), look.end());
        s.bottom_kumi(rest, 1 << p.seat);
        look.clear();
        look_owner = -1;
    }
    void ask_perm(int seat, int lid) {
        const std::vector<Stack>& cells = sides[size_t(seat)].cells;
        const int* line = LINES[lid];
        std::vector<std::array<Stack, 3>> seen;
        std::vector<Opt> opts;
        for (int k = 0; k < 6; ++k) {
            std::array<Stack, 3> res;
            for (int j = 0; j < 3; ++j) res[size_t(j)] = cells[size_t(line[PERMS[k][j]])];
            bool dup = false;
            for (const auto& s : seen)
                if (s[0] == res[0] && s[1] == res[1] && s[2] == res[2]) dup = true;
            if (dup) continue;
            seen.push_back(res);
            opts.push_back({K_PERM, k});
        }
        ask(seat, Q_PERM,
            std::string("rearrange ") + LINE_NAMES[lid] + ": the new order, by the old spaces",
            opts);
        prompt.line = lid;
    }
    void answer_perm(const Prompt& p, int arg) {
        Side& s = sides[size_t(p.seat)];
        const int* line = LINES[p.line];
        Stack old[3];
        int old_known[3];
        for (int j = 0; j < 3; ++j) {
            old[j] = s.cells[size_t(line[j])];
            old_known[j] = s.known[size_t(line[j])];
        }
        for (int j = 0; j < 3; ++j) {
            s.cells[size_t(line[j])] = old[PERMS[arg][j]];
            s.known[size_t(line[j])] = old_known[PERMS[arg][j]];
        }
    }
    std::vector<int> swap_partners(int seat, int i, bool adjacent) const {
        const std::vector<Stack>& cells = sides[size_t(seat)].cells;
        std::vector<int> out;
        if (cells[size_t(i)].empty()) return out;
        for (int j = 0; j < 9; ++j) {
            if (j == i || cells[size_t(j)].empty()) continue;
            if (adjacent && std::abs(i / 3 - j / 3) + std::abs(i % 3 - j % 3) != 1) continue;
            out.push_back(j);
        }
        return out;
    }
    void answer_swap(const Prompt& p, int arg) {
        std::vector<Opt> opts;
        for (int j : swap_partners(p.seat, arg, p.adjacent)) opts.push_back({K_OWN, j});
        ask(p.seat, Q_SWAP_WITH, "swap: choose the second Kumi", opts);
        prompt.first = arg;
    }
    void answer_swap_with(const Prompt& p, int arg) {
        Side& s = sides[size_t(p.seat)];
        std::swap(s.cells[size_t(p.first)], s.cells[size_t(arg)]);
        std::swap(s.known[size_t(p.first)], s.known[size_t(arg)]);
    }
    void answer_return_kumi(const Prompt& p, int arg) {
        Side& s = sides[size_t(p.side)];
        Stack st = s.cells[size_t(arg)];
        s.cells[size_t(arg)] = Stack();
        s.known[size_t(arg)] = 0;
        for (int k = 0; k < st.n; ++k) s.hand.push_back(st.t[k]);
    }
    void answer_bury(const Prompt& p, int kind, int arg) {
        Side& s = sides[size_t(p.seat)];
        int c, mask;
        if (kind == K_SHAND) {
            c = s.shand[size_t(arg)];
            s.shand.erase(s.shand.begin() + arg);
            mask = 1 << p.seat;
        } else {
            mask = EVERYONE;
            c = s.slots[size_t(arg)];
            s.slots[size_t(arg)] = -1;
            s.bowed[size_t(arg)] = false;
        }
        s.bottom_sas({c}, mask);
    }

    // ------------------------------------------------------------------ training.py
    std::vector<std::pair<int, std::vector<int>>> train_targets(int seat, int line) const {
        const Side& s = sides[size_t(seat)];
        std::vector<std::pair<int, std::vector<int>>> out;
        for (int i = 0; i < int(s.cells.size()); ++i) {
            const Stack& st = s.cells[size_t(i)];
            if (st.empty() || !st.up || st.rank() >= 3 || in_line(line, i)) continue;
            std::vector<int> hands;
            for (size_t h = 0; h < s.hand.size(); ++h)
                if (!st.has(s.hand[h])) hands.push_back(int(h));
            if (!hands.empty()) out.push_back({i, hands});
        }
        return out;
    }
    static bool in_line(int line, int i) {
        if (line == NONE) return false;
        return LINES[line][0] == i || LINES[line][1] == i || LINES[line][2] == i;
    }
    bool may_train(int seat, int line) const {
        const Side& s = sides[size_t(seat)];
        if (s.hand.empty()) return false;
        for (int i = 0; i < int(s.cells.size()); ++i) {
            const Stack& st = s.cells[size_t(i)];
            if (!st.empty() && st.up && st.rank() < 3 && !in_line(line, i)) return true;
        }
        return false;
    }
    void op_train(const Task& t, const Spec& spec) {
        int actor = t.actor;
        if (actor == KAGE) return;
        int line = spec.where == 1 ? t.line : NONE;
        if (!may_train(actor, line)) return;
        std::vector<Opt> opts;
        for (auto& tt : train_targets(actor, line)) opts.push_back({K_OWN, tt.first});
        opts.push_back({K_DONE, 0});
        ask(actor, Q_TRAIN,
            "train a face-up Kumi (not in the played line from an action), or decline", opts);
        prompt.line = line;
    }
    void answer_train(const Prompt& p, int kind, int arg) {
        if (kind == K_DONE) return;
        const Side& s = sides[size_t(p.seat)];
        const Stack& st = s.cells[size_t(arg)];
        std::vector<Opt> opts;
        for (size_t h = 0; h < s.hand.size(); ++h)
            if (!st.has(s.hand[h])) opts.push_back({K_HAND, int(h)});
        ask(p.seat, Q_TRAIN_WITH, "add a Kumi of a different type from hand on top", opts);
        prompt.cell = arg;
    }
    void answer_train_with(const Prompt& p, int arg) {
        Side& s = sides[size_t(p.seat)];
        int8_t t = s.hand[size_t(arg)];
        s.hand.erase(s.hand.begin() + arg);
        Stack& st = s.cells[size_t(p.cell)];
        st.t[st.n] = t;
        st.n += 1;
        s.known[size_t(p.cell)] = EVERYONE;
    }

    // ------------------------------------------------------------------ score_turn.py
    void step_score(const Task& t) {
        int seat = t.seat;
        Side& s = sides[size_t(seat)];
        int n = 0;
        for (int p = 0; p < 12; ++p) {
            if (s.slots[size_t(p)] >= 0 && s.bowed[size_t(p)]) {
                s.scored.push_back(s.slots[size_t(p)]);
                s.slots[size_t(p)] = -1;
                s.bowed[size_t(p)] = false;
                s.vp += 1;
                ++n;
            }
        }
        if (n == 0) return;
        if (s.vp >= R->target) {
            win(seat, "vp");
            return;
        }
        if (int(s.sdeck.size()) <= n) {
            s.shand.insert(s.shand.end(), s.sdeck.begin(), s.sdeck.end());
            s.sdeck.clear();
            return;
        }
        look.assign(s.sdeck.begin(), s.sdeck.begin() + n + 1);
        look_kumi = false;
        s.sdeck.erase(s.sdeck.begin(), s.sdeck.begin() + n + 1);
        look_owner = seat;
        ask_return_looked(seat, 1,
                          "replace scored Sashimono: keep " + std::to_string(n) +
                              ", return 1 to the bottom");
    }
    void step_return_sas(const Task& t) {
        const Side& s = sides[size_t(t.seat)];
        std::vector<Opt> opts;
        for (int p = 0; p < 12; ++p)
            if (s.slots[size_t(p)] >= 0) opts.push_back({K_PSLOT, p});
        if (opts.empty()) return;
        opts.push_back({K_DONE, 0});
        ask(t.seat, Q_RETURN_SAS, "you may return un-scored Sashimono from play to hand", opts);
    }
    void answer_return_sas(const Prompt& p, int kind, int arg) {
        if (kind == K_DONE) return;
        Side& s = sides[size_t(p.seat)];
        int c = s.slots[size_t(arg)];
        s.slots[size_t(arg)] = -1;
        s.bowed[size_t(arg)] = false;
        s.shand.push_back(c);
        tasks.push_back(seat_task(S_RETURN_SAS, p.seat));
    }
    void step_bonus(const Task& t) {
        int seat = t.seat;
        const Side& s = sides[size_t(seat)];
        bool any_slot = false, any_cell = false;
        for (int c : s.slots)
            if (c >= 0) any_slot = true;
        for (const Stack& st : s.cells)
            if (!st.empty()) any_cell = true;
        std::vector<Opt> opts;
        if (!s.sdeck.empty() || !s.shand.empty() || any_slot) opts.push_back({K_BONUS, 0});
        if (!train_targets(seat, NONE).empty()) opts.push_back({K_BONUS, 1});
        if (any_cell) {
            opts.push_back({K_BONUS, 2});
            opts.push_back({K_BONUS, 3});
        }
        opts.push_back({K_DONE, 0});
        ask(seat, Q_BONUS, "you may take one bonus action: Bakufu, Dojo, Gennin, Gyorin", opts);
    }
    void answer_bonus(const Prompt& p, int kind, int arg) {
        if (kind == K_DONE) return;
        std::vector<Task> ts;
        for (int sp : R->bonus_effect[size_t(arg)])
            ts.push_back(op_task(sp, R->specs[size_t(sp)].count, p.seat, NONE));
        push_all(ts);
    }

    // ------------------------------------------------------------------ battle.py
    void answer_battle(const Prompt& p, int arg) {
        const Task& t = p.task;
        const Spec& spec = R->specs[size_t(t.spec)];
        int aline = t.line != NONE ? t.line : 6;
        start_battle(p.seat, aline, arg, spec.attack, spec.defender_ante);
    }
    void start_battle(int att, int aline, int dline, int bonus, bool dante) {
        battle = BattleState();
        battle.att = att;
        battle.dfn = enemy(att);
        battle.aline = aline;
        battle.dline = dline;
        battle.bonus = bonus;
        battle.dante = dante;
        has_battle = true;
        Task r;
        r.kind = S_RESOLVE;
        push({seat_task(S_ANTE, att), seat_task(S_ANTE, battle.dfn), r});
    }
    void step_ante(const Task& t) {
        int seat = t.seat;
        if (seat == KAGE) return;
        const BattleState& b = battle;
        int lid = seat == b.att ? b.aline : b.dline;
        const Side& s = sides[size_t(seat)];
        std::vector<Opt> opts;
        for (int i : line_cells(seat, lid))
            if (!s.cells[size_t(i)].empty() && !s.cells[size_t(i)].up) opts.push_back({K_OWN, i});
        if (seat == b.att || b.dante)
            for (size_t i = 0; i < s.hand.size(); ++i) opts.push_back({K_HAND, int(i)});
        if (opts.empty()) return;
        opts.push_back({K_DONE, 0});
        std::string role = seat == b.att ? "attacker" : "defender";
        ask(seat, Q_ANTE,
            role + "'s ante: flip Hidden Kumi of your line face up, add Kumi from hand face "
                   "down (+1 each), then done",
            opts);
    }
    void answer_ante(const Prompt& p, int kind, int arg) {
        int seat = p.seat;
        if (kind == K_DONE) return;
        if (kind == K_OWN) {
            flip(seat, seat, arg);
        } else {
            Side& s = sides[size_t(seat)];
            int8_t c = s.hand[size_t(arg)];
            s.hand.erase(s.hand.begin() + arg);
            battle.ante[seat == battle.att ? 0 : 1].push_back(c);
        }
        tasks.push_back(seat_task(S_ANTE, seat));
    }
    int modifier(int side, int stat, int lid) const {
        if (side == KAGE) {
            if (!R->abilities) return 0;
            int total = 0;
            for (int c : sides[KAGE].sline)
                if (card(c).modifier == stat) total += card(c).amount;
            return total;
        }
        int total = 0;
        for (int p = 0; p < 12; ++p) {
            int c = sides[size_t(side)].slots[size_t(p)];
            if (c < 0) continue;
            const Card& cd = card(c);
            if (cd.modifier == stat && (cd.sonae_scope || SLOT_LINE[p] == lid)) total += cd.amount;
        }
        return total;
    }
    std::pair<int, int> battle_power() const {
        const BattleState& b = battle;
        int attack = 0, defence = 0;
        const std::vector<Stack>& ac = sides[size_t(b.att)].cells;
        const std::vector<Stack>& dc = sides[size_t(b.dfn)].cells;
        for (int i : line_cells(b.att, b.aline))
            if (!ac[size_t(i)].empty()) attack += attack_of(ac[size_t(i)]);
        for (int i : line_cells(b.dfn, b.dline))
            if (!dc[size_t(i)].empty()) defence += defence_of(dc[size_t(i)]);
        attack += int(b.ante[0].size()) + b.bonus + modifier(b.att, 0, b.aline);
        defence += int(b.ante[1].size()) + modifier(b.dfn, 1, b.dline);
        return {attack, defence};
    }
    void step_resolve() {
        auto [attack, defence] = battle_power();
        BattleState& b = battle;
        int winner = attack >= defence ? b.att : b.dfn;
        int loser = attack >= defence ? b.dfn : b.att;
        int margin = std::abs(attack - defence);
        b.resolved = true;
        b.winner = winner;
        b.loser = loser;
        b.margin = margin;
        b.attack = attack;
        b.defence = defence;
        int lose_line = loser == b.dfn ? b.dline : b.aline;
        std::vector<int> cells;
        for (int i : line_cells(loser, lose_line))
            if (!sides[size_t(loser)].cells[size_t(i)].empty()) cells.push_back(i);
        Task end;
        end.kind = S_BATTLE_END;
        tasks.push_back(end);
        if (cells.empty()) return;
        int chooser = margin <= 1 ? loser : winner;
        ask(chooser, Q_CASUALTY, "choose a casualty in " + name_of(loser) + "'s losing line",
            cell_opts(chooser, loser, cells));
        prompt.side = loser;
    }
    void answer_casualty(const Prompt& p, int arg) {
        int side = p.side;
        Side& s = sides[size_t(side)];
        Stack st = s.cells[size_t(arg)];
        if (side == KAGE) {
            s.cells.erase(s.cells.begin() + arg);
            for (int k = 0; k < st.n; ++k) s.discard.push_back(st.t[k]);
        } else {
            int mask = st.up ? EVERYONE : (s.known[size_t(arg)] | (1 << side));
            s.cells[size_t(arg)] = Stack();
            s.known[size_t(arg)] = 0;
            std::vector<int8_t> types(st.t, st.t + st.n);
            s.bottom_kumi(types, mask);
        }
        for (auto& pc : ongoing_cards(side, 1)) trigger(side, pc);
    }
    std::vector<std::pair<int, int>> ongoing_cards(int side, int trig) const {
        std::vector<std::pair<int, int>> out;
        if (side == KAGE) {
            if (!R->abilities) return out;
            for (int c : sides[KAGE].sline)
                if (card(c).trigger == trig) out.push_back({c, NONE});
            return out;
        }
        for (int p = 0; p < 12; ++p) {
            int c = sides[size_t(side)].slots[size_t(p)];
            if (c >= 0 && card(c).trigger == trig) out.push_back({c, SLOT_LINE[p]});
        }
        return out;
    }
    void trigger(int side, const std::pair<int, int>& pc) {
        std::vector<Task> ts;
        for (int sp : card(pc.first).trigger_effect)
            ts.push_back(op_task(sp, R->specs[size_t(sp)].count, side, pc.second));
        push_all(ts);
    }
    void step_battle_end() {
        BattleState& b = battle;
        int seats[2] = {b.att, b.dfn};
        for (int k = 0; k < 2; ++k)
            if (!b.ante[k].empty()) sides[size_t(seats[k])].bottom_kumi(b.ante[k], 1 << seats[k]);
        int winner = b.winner;
        has_battle = false;
        for (auto& pc : ongoing_cards(winner, 0)) trigger(winner, pc);
    }

    // ------------------------------------------------------------------ kagemusha.py
    void kage_take_turn() {
        Side& k = sides[KAGE];
        std::vector<int> keep;
        for (size_t i = 0; i < k.sline.size(); ++i) {
            if (k.sbowed[i]) {
                k.scored.push_back(k.sline[i]);
                k.vp += 1;
            } else {
                keep.push_back(k.sline[i]);
            }
        }
        k.sline = keep;
        k.sbowed.assign(keep.size(), 0);
        if (k.vp >= R->target) {
            win(KAGE, "kagemusha_vp");
            return;
        }
        Task b;
        b.kind = S_KAGE_BLOCK;
        Task bt = b, bk = b, bn = b;
        bt.type = 'T';
        bk.type = 'K';
        bn.type = 'N';
        Task d, m;
        d.kind = S_KAGE_DRAW;
        m.kind = S_KAGE_MOVE;
        push({bt, bk, bn, d, m, seat_task(S_END_TURN, KAGE)});
    }
    void kage_step_block(const Task& t) {
        int type = type_index(t.type);
        int n = 0;
        for (const Stack& st : sides[KAGE].cells)
            if (!st.empty() && st.up && st.has(type)) ++n;
        Task nt;
        if (t.type == 'K') {
            nt.kind = S_KAGE_PLACE;
            nt.axis = 1;
        } else {
            nt.kind = S_KAGE_BATTLE;
            nt.axis = t.type == 'T' ? 2 : 1;
        }
        for (int i = 0; i < n; ++i) tasks.push_back(nt);
    }
    int nearest_line(int axis) const {  // axis 2 column, 1 row
        int p = sides[KAGE].army_pos;
        if (axis == 2) {
            if (p <= 2) return 3 + p;
            if (p <= 5) return 5;
            if (p <= 8) return 3 + (8 - p);
            return 3;
        }
        if (p <= 2) return 0;
        if (p <= 5) return p - 3;
        if (p <= 8) return 2;
        return 11 - p;
    }
    void kage_step_battle(const Task& t) { start_battle(KAGE, 6, nearest_line(t.axis), 0, true); }
    bool kage_draw_kumi() {
        Side& k = sides[KAGE];
        if (k.deck.empty()) {
            win(KAGE, "kagemusha_deck");
            return false;
        }
        int8_t t = k.deck.front();
        k.deck.erase(k.deck.begin());
        Stack st;
        st.n = 1;
        st.t[0] = t;
        st.up = true;
        k.cells.push_back(st);
        return true;
    }
    bool kage_draw_sashimono() {
        Side& k = sides[KAGE];
        if (k.sdeck.empty()) {
            win(KAGE, "kagemusha_deck");
            return false;
        }
        int c = k.sdeck.front();
        k.sdeck.erase(k.sdeck.begin());
        if (R->six && k.sline.size() >= 6) {
            int first = k.sline.front();
            k.sline.erase(k.sline.begin());
            k.sbowed.erase(k.sbowed.begin());
            k.scored.push_back(first);
            k.vp += 1;
            if (k.vp >= R->target) win(KAGE, "kagemusha_vp");
        }
        k.sline.push_back(c);
        k.sbowed.push_back(0);
        return true;
    }
    void kage_step_draw() {
        Side& k = sides[KAGE];
        if (!kage_draw_kumi()) return;
        while (k.cells.size() < 3)
            if (!kage_draw_kumi()) return;
        bool train = R->train;
        for (int t = 0; t < 3; ++t) {
            while (true) {
                std::vector<int> matches;
                for (int i = 0; i < int(k.cells.size()); ++i) {
                    const Stack& st = k.cells[size_t(i)];
                    if (st.empty() || !st.up) continue;
                    bool single = st.n == 1 && st.t[0] == t;
                    if (single || (!train && st.has(t))) matches.push_back(i);
                }
                if (matches.size() < 3) break;
                int first = matches[0];
                Stack st = k.cells[size_t(first)];
                int host = -1;
                if (train) {
                    for (int j = int(k.cells.size()) - 1; j >= 0; --j) {
                        const Stack& other = k.cells[size_t(j)];
                        if (j != first && other.up && !other.has(t) && other.rank() < 3) {
                            host = j;
                            break;
                        }
                    }
                }
                k.cells.erase(k.cells.begin() + first);
                if (host >= 0) {
                    if (host > first) host -= 1;
                    Stack& other = k.cells[size_t(host)];
                    other.t[other.n] = int8_t(t);
                    other.n += 1;
                    other.up = true;
                } else {
                    for (int q = 0; q < st.n; ++q) k.discard.push_back(st.t[q]);
                }
                if (!kage_draw_sashimono() || over) return;
            }
        }
    }
    int next_position() const {
        const Side& k = sides[KAGE];
        const auto& mine = sides[0].slots;
        int nxt = k.army_pos;
        for (int i = 0; i < 12; ++i) {
            nxt = (nxt + 1) % 12;
            if (mine[size_t(nxt)] < 0) return nxt;
        }
        return k.army_pos;
    }
    void kage_step_move() {
        Side& k = sides[KAGE];
        const auto& mine = sides[0].slots;
        int p = k.army_pos;
        bool corner = false, moved = false;
        for (int i = 0; i < 12; ++i) {
            int nxt = (p + 1) % 12;
            if (p == 5 || p == 11) corner = true;
            p = nxt;
            if (mine[size_t(p)] < 0) {
                moved = true;
                break;
            }
        }
        if (!moved) p = k.army_pos;
        k.army_pos = p;
        if (corner && R->corners)
            if (!kage_draw_sashimono() || over) return;
        size_t limit = R->six ? 6 : 3;
        int extra = 0;
        while (k.sline.size() > limit) {
            int c = k.sline.front();
            k.sline.erase(k.sline.begin());
            k.sbowed.erase(k.sbowed.begin());
            k.bottom_sas({c}, EVERYONE);
            ++extra;
        }
        for (int i = 0; i < extra; ++i)
            if (!kage_draw_kumi()) return;
    }
    void kage_answer() {  // kagemusha.answer
        const std::vector<Opt>& opts = prompt.opts;
        int choice = -1;
        for (size_t i = 0; i < opts.size(); ++i)
            if (opts[i].kind == K_DONE) {
                choice = int(i);
                break;
            }
        if (choice < 0) {
            std::array<int, 3> best{};
            for (size_t i = 0; i < opts.size(); ++i) {
                if (opts[i].kind != K_ENEMY) continue;
                std::array<int, 3> d = army_distance(opts[i].arg);
                if (choice < 0 || d < best) {
                    choice = int(i);
                    best = d;
                }
            }
        }
        if (choice < 0) choice = 0;
        Opt o = opts[size_t(choice)];
        Prompt p = take_question();
        answer(p, o.kind, o.arg);
    }
    std::array<int, 3> army_distance(int cell) const {
        const Side& k = sides[KAGE];
        int r = cell / 3, c = cell % 3;
        int ar = SLOT_POS[k.army_pos][0], ac = SLOT_POS[k.army_pos][1];
        int nxt = k.army_pos;
        const auto& mine = sides[0].slots;
        for (int i = 0; i < 12; ++i) {
            nxt = (nxt + 1) % 12;
            if (mine[size_t(nxt)] < 0) break;
        }
        int nr = SLOT_POS[nxt][0], nc = SLOT_POS[nxt][1];
        return {(r - ar) * (r - ar) + (c - ac) * (c - ac),
                (r - nr) * (r - nr) + (c - nc) * (c - nc), cell};
    }

    // ------------------------------------------------------------------ bowing.py
    bool match(const Stack& st, const Query& q) const {
        if (q.face == 1 && st.up) return false;
        if (q.face == 2 && !st.up) return false;
        if (q.type >= 0 && (!st.up || !st.has(q.type))) return false;
        if (q.rank && st.rank() != q.rank) return false;
        return !q.min_rank || st.rank() >= q.min_rank;
    }
    bool selected(int side, int i, const Query& q) const {  // bowing.sel_cells
        bool kage = side == KAGE;
        if (q.line >= 0 && !kage && !in_line(q.line, i)) return false;
        if (q.position >= 0) {
            if (kage) return false;
            if (q.position == 0) return CORNER[i];
            if (q.position == 1) return EDGE[i];
            if (q.position == 2) return i == 4;
            return i == q.position - 3;
        }
        return true;
    }
    long long measure(const Query& q, int side) const {
        const Side& s = sides[size_t(side)];
        switch (q.fn) {
            case FN_COUNT:
            case FN_POWER: {
                long long n = 0;
                for (int i = 0; i < int(s.cells.size()); ++i) {
                    const Stack& st = s.cells[size_t(i)];
                    if (st.empty() || !selected(side, i, q) || !match(st, q)) continue;
                    if (q.fn == FN_COUNT)
                        n += 1;
                    else
                        n += q.attack ? attack_of(st) : defence_of(st);
                }
                return n;
            }
            case FN_LINES: {
                long long total = 0;
                for (int lid : lines_of(side)) {
                    if (side != KAGE && ((q.axis == 1 && lid > 2) || (q.axis == 2 && lid < 3)))
                        continue;
                    int live = 0;
                    bool kinds[3] = {false, false, false};
                    for (int i : line_cells(side, lid)) {
                        const Stack& st = s.cells[size_t(i)];
                        if (st.empty() || !match(st, q)) continue;
                        ++live;
                        if (st.up)
                            for (int k = 0; k < st.n; ++k) kinds[st.t[k]] = true;
                    }
                    if (live < q.at_least) continue;
                    if (q.distinct && int(kinds[0]) + int(kinds[1]) + int(kinds[2]) < q.distinct)
                        continue;
                    ++total;
                }
                return total;
            }
            case FN_TYPES: {
                bool kinds[3] = {false, false, false};
                for (int i = 0; i < int(s.cells.size()); ++i) {
                    const Stack& st = s.cells[size_t(i)];
                    if (st.empty() || !selected(side, i, q) || !st.up) continue;
                    for (int k = 0; k < st.n; ++k) kinds[st.t[k]] = true;
                }
                return int(kinds[0]) + int(kinds[1]) + int(kinds[2]);
            }
            case FN_HAND:
                if (q.kumi) return side == KAGE ? long(s.cells.size()) : long(s.hand.size());
                return side == KAGE ? long(s.sline.size()) : long(s.shand.size());
            case FN_SASHIMONO: {
                long long n = 0;
                if (side == KAGE) {
                    for (size_t i = 0; i < s.sline.size(); ++i)
                        if ((q.army < 0 || card(s.sline[i]).serves(q.army)) &&
                            (q.bowed < 0 || int(bool(s.sbowed[i])) == q.bowed))
                            ++n;
                    return n;
                }
                for (int p = 0; p < 12; ++p) {
                    int c = s.slots[size_t(p)];
                    if (c < 0) continue;
                    if ((q.army < 0 || card(c).serves(q.army)) &&
                        (q.bowed < 0 || int(s.bowed[size_t(p)]) == q.bowed))
                        ++n;
                }
                return n;
            }
            case FN_VP: return s.vp;
            case FN_EMPTY: {
                if (side == KAGE) return 0;
                long long n = 0;
                for (const Stack& st : s.cells)
                    if (st.empty()) ++n;
                return n;
            }
        }
        return 0;
    }
    long long value(int node, int o, int e) const {  // Cond.value
        const Node& nd = R->nodes[size_t(node)];
        switch (nd.kind) {
            case N_CONST: return nd.number;
            case N_ALL:
                for (int k : nd.kids)
                    if (value(k, o, e) == 0) return 0;
                return 1;
            case N_ANY:
                for (int k : nd.kids)
                    if (value(k, o, e) != 0) return 1;
                return 0;
            case N_NOT: return value(nd.kids[0], o, e) == 0 ? 1 : 0;
            case N_NEG: return -value(nd.kids[0], o, e);
            case N_ARITH: {
                long long x = value(nd.kids[0], o, e), y = value(nd.kids[1], o, e);
                return nd.op == 0 ? x + y : nd.op == 1 ? x - y : x * y;
            }
            case N_CMP: {
                long long left = value(nd.kids[0], o, e);
                for (size_t k = 0; k < nd.ops.size(); ++k) {
                    long long right = value(nd.kids[k + 1], o, e);
                    bool ok;
                    switch (nd.ops[k]) {
                        case 0: ok = left < right; break;
                        case 1: ok = left <= right; break;
                        case 2: ok = left > right; break;
                        case 3: ok = left >= right; break;
                        case 4: ok = left == right; break;
                        default: ok = left != right;
                    }
                    if (!ok) return 0;
                    left = right;
                }
                return 1;
            }
            case N_ABS: return std::llabs(value(nd.kids[0], o, e));
            case N_EXT: {
                long long best = value(nd.kids[0], o, e);
                for (size_t k = 1; k < nd.kids.size(); ++k) {
                    long long v = value(nd.kids[k], o, e);
                    if (nd.largest ? v > best : v < best) best = v;
                }
                return best;
            }
            case N_QUERY: return measure(nd.q, nd.enemy ? e : o);
        }
        return 0;
    }
    bool holds(int c, int o, int e) const { return value(card(c).score, o, e) != 0; }

    bool unchanged() const {  // bowing.unchanged
        if (!memo.has || memo.key.size() != sides.size()) return false;
        bool everything = memo.reads.size() != memo.key.size();
        for (size_t i = 0; i < memo.key.size(); ++i) {
            const Side& s = sides[i];
            const Memo::Key& k = memo.key[i];
            if (!(s.slots == k.slots && s.bowed == k.bowed && s.sline == k.sline &&
                  s.sbowed == k.sbowed))
                return false;
            int read = everything ? READ_ALL : memo.reads[i];
            if ((read & READ_CELLS) && s.cells != k.cells) return false;
            if ((read & READ_HAND) && s.hand.size() != k.hand) return false;
            if ((read & READ_SHAND) && s.shand.size() != k.shand) return false;
            if ((read & READ_VP) && s.vp != k.vp) return false;
        }
        return true;
    }
    void rebow() {
        if (unchanged()) return;
        for (int i = 0; i < 4; ++i)
            if (!rebow_pass()) break;
        memo.has = true;
        memo.key.clear();
        for (const Side& s : sides) {
            Memo::Key k;
            k.cells = s.cells;
            k.hand = s.hand.size();
            k.shand = s.shand.size();
            k.slots = s.slots;
            k.bowed = s.bowed;
            k.vp = s.vp;
            k.sline = s.sline;
            k.sbowed = s.sbowed;
            memo.key.push_back(std::move(k));
        }
        memo.reads.assign(sides.size(), 0);
        int seats = solo() ? 1 : 2;
        for (int seat = 0; seat < seats; ++seat) {
            int foe = enemy(seat);
            for (int c : sides[size_t(seat)].slots)
                if (c >= 0) {
                    memo.reads[size_t(seat)] |= card(c).reads_own;
                    memo.reads[size_t(foe)] |= card(c).reads_enemy;
                }
        }
        if (solo())
            for (int c : sides[KAGE].sline) {
                memo.reads[0] |= card(c).reads_own;
                memo.reads[KAGE] |= card(c).reads_enemy;
            }
    }
    bool rebow_pass() {
        bool changed = false;
        int seats = solo() ? 1 : 2;
        for (int seat = 0; seat < seats; ++seat) {
            Side& s = sides[size_t(seat)];
            int foe = enemy(seat);
            for (int p = 0; p < 12; ++p) {
                int c = s.slots[size_t(p)];
                if (c < 0) continue;
                bool now = holds(c, seat, foe);
                if (now != s.bowed[size_t(p)]) {
                    s.bowed[size_t(p)] = now;
                    changed = true;
                }
            }
        }
        if (solo()) {
            Side& k = sides[KAGE];
            for (size_t i = 0; i < k.sline.size(); ++i) {
                bool now = holds(k.sline[i], 0, KAGE);
                if (now != bool(k.sbowed[i])) {
                    k.sbowed[i] = now;
                    changed = true;
                }
            }
        }
        return changed;
    }
};

// ---------------------------------------------------------------------- JSON in and out
[[noreturn]] void bad(const std::string& field, const std::string& why) {
    throw py::value_error("sashimono core: field '" + field + "' " + why);
}
py::object field(const py::dict& data, const char* name) {
    if (!data.contains(name)) bad(name, "is missing");
    return data[name];
}
int whole(py::handle v, const std::string& name) {
    if (!py::isinstance<py::int_>(v)) bad(name, "must be a whole number");
    return v.cast<int>();
}
int opt_int(py::handle v, const std::string& name) {
    if (v.is_none()) return NONE;
    return whole(v, name);
}
py::object opt_out(int v) { return v == NONE ? py::object(py::none()) : py::object(py::int_(v)); }
int8_t kumi_of(py::handle v, const std::string& name) {
    std::string s = v.cast<std::string>();
    if (s.size() != 1 || type_index(s[0]) < 0) bad(name, "holds " + s + ", not a Kumi type");
    return int8_t(type_index(s[0]));
}
std::vector<int8_t> kumi_list(py::handle v, const std::string& name) {
    std::vector<int8_t> out;
    for (py::handle x : v) out.push_back(kumi_of(x, name));
    return out;
}
std::vector<int> int_list(py::handle v, const std::string& name) {
    std::vector<int> out;
    for (py::handle x : v) out.push_back(whole(x, name));
    return out;
}
py::str kumi_str(int8_t t) { return py::str(std::string(1, TYPE_LETTER[t])); }
py::list kumi_out(const std::vector<int8_t>& v) {
    py::list l;
    for (int8_t t : v) l.append(kumi_str(t));
    return l;
}
py::list ints_out(const std::vector<int>& v) {
    py::list l;
    for (int x : v) l.append(x);
    return l;
}
py::object stack_out(const Stack& st) {
    return st.empty() ? py::object(py::none()) : py::object(py::str(st.str()));
}

int spec_index(const Rules& r, const py::dict& d) {
    // The operation of the table that ``d`` is (its count may have been lowered: again()).
    for (size_t i = 0; i < r.specs.size(); ++i) {
        const Spec& s = r.specs[i];
        py::dict t = py::reinterpret_borrow<py::dict>(s.json);
        if (s.has_count) {
            if (!d.contains("count")) continue;
            py::dict c(t);
            c["count"] = d["count"];
            if (c.equal(d)) return int(i);
        } else if (t.equal(d)) {
            return int(i);
        }
    }
    bad("spec", "is an operation no card of this card set has");
}

Task task_of(const Rules& r, const py::dict& d) {  // Task.from_json
    Task t;
    std::string name = field(d, "t").cast<std::string>();
    t.kind = -1;
    for (int k = 0; k < NSTEPS; ++k)
        if (name == STEP_NAMES[k]) t.kind = k;
    if (t.kind < 0) bad("t", "names no step: " + name);
    if (d.contains("seat")) t.seat = whole(d["seat"], "seat");
    if (d.contains("n")) t.n = opt_int(d["n"], "n");
    if (t.kind == S_OP) {
        py::dict spec = field(d, "spec").cast<py::dict>();
        if (spec.size() == 0) {
            t.spec = -1;
        } else {
            t.spec = spec_index(r, spec);
            t.count = r.specs[size_t(t.spec)].has_count ? whole(spec["count"], "count") : 1;
        }
        t.actor = whole(field(d, "actor"), "actor");
        t.line = opt_int(field(d, "line"), "line");
    }
    if (d.contains("type")) {
        std::string ty = d["type"].cast<std::string>();
        t.type = ty.empty() ? 0 : ty[0];
    }
    if (d.contains("axis")) {
        std::string ax = d["axis"].cast<std::string>();
        t.axis = ax == "row" ? 1 : ax == "column" ? 2 : 0;
    }
    return t;
}
py::dict spec_out(const Rules& r, const Task& t) {
    if (t.spec < 0) return py::dict();
    const Spec& s = r.specs[size_t(t.spec)];
    py::dict d = py::module_::import("copy").attr("deepcopy")(s.json).cast<py::dict>();
    if (s.has_count) d["count"] = t.count;
    return d;
}
py::dict task_out(const Rules& r, const Task& t) {  // Task.to_json
    py::dict d;
    d["t"] = STEP_NAMES[t.kind];
    switch (t.kind) {
        case S_PLACE:
            d["seat"] = t.seat;
            if (t.n != NONE) d["n"] = t.n;
            break;
        case S_OP:
            d["spec"] = spec_out(r, t);
            d["actor"] = t.actor;
            d["line"] = opt_out(t.line);
            break;
        case S_RESOLVE:
        case S_BATTLE_END:
        case S_KAGE_DRAW:
        case S_KAGE_MOVE: break;
        case S_KAGE_BLOCK: d["type"] = t.type ? std::string(1, t.type) : std::string(); break;
        case S_KAGE_BATTLE:
        case S_KAGE_PLACE:
            d["axis"] = t.axis == 1 ? "row" : t.axis == 2 ? "column" : "";
            break;
        default: d["seat"] = t.seat;
    }
    return d;
}

// The notation of an option (the texts state.ask's callers write).
std::pair<std::string, std::string> option_text(const Match& m, const Prompt& p, const Opt& o) {
    auto h = [](int i) { return "h" + std::to_string(i + 1); };
    auto cell = [&](const char* verb) -> std::pair<std::string, std::string> {
        std::string cn = m.cell_name(p.side, o.arg);
        if (o.kind == K_OWN) return {std::string(verb) + " " + cn, cn};
        return {std::string(verb) + " enemy " + cn, "e" + cn};
    };
    switch (p.q) {
        case Q_LOOK_BOTTOM:
            return {"bottom L" + std::to_string(o.arg + 1), "L" + std::to_string(o.arg + 1)};
        case Q_TURN: return o.arg == 0 ? std::make_pair(std::string("action"), std::string("a"))
                                       : std::make_pair(std::string("score"), std::string("s"));
        case Q_PLAY: return {"play " + m.card(o.arg).id, m.card(o.arg).id};
        case Q_SLOT: return {std::string("slot ") + SLOTS[o.arg], SLOT_SHORT[o.arg]};
        case Q_DO:
            if (o.kind == K_DONE) return {"done", "done"};
            return {"do " + m.card_action(o.arg).name, m.card_action(o.arg).name};
        case Q_GUNBAI: return {std::string("gunbai ") + CELLS[o.arg], CELLS[o.arg]};
        case Q_RETURN_SAS:
            if (o.kind == K_DONE) return {"keep", "keep"};
            return {std::string("return ") + SLOTS[o.arg], SLOT_SHORT[o.arg]};
        case Q_BONUS:
            if (o.kind == K_DONE) return {"no bonus", "none"};
            return {"bonus " + m.R->bonus_names[size_t(o.arg)], m.R->bonus_names[size_t(o.arg)]};
        case Q_PLACE:
            if (o.kind == K_DONE) return {"end", "end"};
            return {"kumi " + h(o.arg), h(o.arg)};
        case Q_PLACE_AT: {
            std::string c = CELLS[o.arg / 2];
            if (o.arg % 2) return {"to " + c + " hidden", c + "v"};
            return {"to " + c + " up", c + "^"};
        }
        case Q_FLIP: return cell("flip");
        case Q_KEEP: return {"keep L" + std::to_string(o.arg + 1), "L" + std::to_string(o.arg + 1)};
        case Q_BATTLE: return {std::string("battle ") + LINE_NAMES[o.arg], LINE_NAMES[o.arg]};
        case Q_ANTE:
            if (o.kind == K_DONE) return {"ante done", "done"};
            if (o.kind == K_OWN) return {std::string("reveal ") + CELLS[o.arg], CELLS[o.arg]};
            return {"ante " + h(o.arg), h(o.arg)};
        case Q_CASUALTY: return cell("casualty");
        case Q_TRAIN:
            if (o.kind == K_DONE) return {"no training", "none"};
            return {std::string("train ") + CELLS[o.arg], CELLS[o.arg]};
        case Q_TRAIN_WITH: return {"with " + h(o.arg), h(o.arg)};
        case Q_REARRANGE: return {std::string("rearrange ") + LINE_NAMES[o.arg], LINE_NAMES[o.arg]};
        case Q_PERM: {
            std::string order;
            for (int j = 0; j < 3; ++j) order += CELLS[LINES[p.line][PERMS[o.arg][j]]];
            return {"order " + order, order};
        }
        case Q_SWAP: return {std::string("swap ") + CELLS[o.arg], CELLS[o.arg]};
        case Q_SWAP_WITH: return {std::string("with ") + CELLS[o.arg], CELLS[o.arg]};
        case Q_RETURN_KUMI: return cell("return");
        case Q_DISCARD: return {"discard " + h(o.arg), h(o.arg)};
        case Q_BURY:
            if (o.kind == K_SHAND) return {"bury " + h(o.arg), h(o.arg)};
            return {std::string("bury ") + SLOTS[o.arg], SLOT_SHORT[o.arg]};
        case Q_PEEK: return cell("peek");
        case Q_CHOOSE: {
            const std::string& label = m.R->specs[size_t(p.task.spec)].labels[size_t(o.arg)];
            return {"choose " + label, label};
        }
    }
    return {"", ""};
}

py::dict prompt_out(const Match& m, const Prompt& p) {  // Prompt.to_json
    py::dict d;
    d["seat"] = p.seat;
    d["op"] = Q_NAMES[p.q];
    d["rule"] = p.rule;
    py::list opts;
    for (const Opt& o : p.opts) {
        auto [text, short_] = option_text(m, p, o);
        py::list one;
        one.append(o.kind);
        one.append(o.arg);
        one.append(text);
        one.append(short_);
        opts.append(one);
    }
    d["opts"] = opts;
    switch (p.q) {
        case Q_LOOK_BOTTOM: d["n"] = p.n; break;
        case Q_GUNBAI: d["act"] = p.act; break;
        case Q_PLACE: d["n"] = p.n; break;
        case Q_PLACE_AT:
            d["hand"] = p.hand;
            d["n"] = p.n;
            break;
        case Q_FLIP:
        case Q_PEEK:
            d["task"] = task_out(*m.R, p.task);
            d["side"] = p.side;
            break;
        case Q_KEEP: d["keep"] = p.keep; break;
        case Q_BATTLE:
        case Q_DISCARD:
        case Q_CHOOSE: d["task"] = task_out(*m.R, p.task); break;
        case Q_CASUALTY:
        case Q_RETURN_KUMI: d["side"] = p.side; break;
        case Q_TRAIN:
        case Q_PERM: d["line"] = opt_out(p.line); break;
        case Q_TRAIN_WITH: d["cell"] = p.cell; break;
        case Q_SWAP: d["adjacent"] = p.adjacent; break;
        case Q_SWAP_WITH: d["first"] = p.first; break;
        default: break;
    }
    return d;
}

Prompt prompt_of(const Rules& r, const py::dict& d) {  // Prompt.from_json
    Prompt p;
    p.seat = whole(field(d, "seat"), "prompt.seat");
    std::string op = field(d, "op").cast<std::string>();
    p.q = -1;
    for (int k = 0; k < NQ; ++k)
        if (op == Q_NAMES[k]) p.q = k;
    if (p.q < 0) bad("prompt.op", "names no question: " + op);
    p.rule = field(d, "rule").cast<std::string>();
    for (py::handle o : field(d, "opts")) {
        py::sequence s = py::reinterpret_borrow<py::sequence>(o);
        int kind = whole(s[0], "prompt.opts");
        int arg = whole(s[1], "prompt.opts");
        if (kind < 0 || kind >= NKINDS || arg < 0 || arg >= r.kind_size[kind])
            bad("prompt.opts", "holds an option out of the action space");
        p.opts.push_back({kind, arg});
    }
    if (d.contains("n")) p.n = whole(d["n"], "prompt.n");
    if (d.contains("hand")) p.hand = whole(d["hand"], "prompt.hand");
    if (d.contains("task")) p.task = task_of(r, d["task"].cast<py::dict>());
    if (d.contains("side")) p.side = whole(d["side"], "prompt.side");
    if (d.contains("act")) p.act = whole(d["act"], "prompt.act");
    if (d.contains("line")) p.line = opt_int(d["line"], "prompt.line");
    if (d.contains("cell")) p.cell = whole(d["cell"], "prompt.cell");
    if (d.contains("first")) p.first = whole(d["first"], "prompt.first");
    if (d.contains("adjacent")) p.adjacent = d["adjacent"].cast<bool>();
    if (d.contains("keep")) p.keep = whole(d["keep"], "prompt.keep");
    return p;
}

Side side_of(const py::dict& d) {  // Side.from_json
    Side s;
    s.army = field(d, "army").cast<std::string>();
    for (py::handle c : field(d, "cells"))
        s.cells.push_back(c.is_none() ? Stack() : stack_of(c.cast<std::string>(), "cells"));
    s.hand = kumi_list(field(d, "hand"), "hand");
    s.deck = kumi_list(field(d, "deck"), "deck");
    s.shand = int_list(field(d, "shand"), "shand");
    s.sdeck = int_list(field(d, "sdeck"), "sdeck");
    py::list slots = field(d, "slots").cast<py::list>();
    py::list bowed = field(d, "bowed").cast<py::list>();
    if (slots.size() != 12 || bowed.size() != 12) bad("slots", "must hold 12 spaces");
    for (size_t p = 0; p < 12; ++p) {
        s.slots[p] = slots[p].is_none() ? -1 : whole(slots[p], "slots");
        s.bowed[p] = bowed[p].cast<bool>();
    }
    s.vp = whole(field(d, "vp"), "vp");
    s.scored = int_list(field(d, "scored"), "scored");
    s.sline = int_list(field(d, "sline"), "sline");
    for (py::handle b : field(d, "sbowed")) s.sbowed.push_back(b.cast<bool>());
    s.army_pos = whole(field(d, "army_pos"), "army_pos");
    s.marker = opt_int(field(d, "marker"), "marker");
    s.discard = kumi_list(field(d, "discard"), "discard");
    if (d.contains("known")) {
        s.known = int_list(d["known"], "known");
    } else {
        for (const Stack& st : s.cells) s.known.push_back(!st.empty() && st.up ? EVERYONE : 0);
    }
    if (d.contains("dknown")) s.dknown = int_list(d["dknown"], "dknown");
    if (d.contains("sknown")) s.sknown = int_list(d["sknown"], "sknown");
    return s;
}

py::dict side_out(const Side& s) {  // Side.to_json
    py::dict d;
    d["army"] = s.army;
    py::list cells;
    for (const Stack& st : s.cells) cells.append(stack_out(st));
    d["cells"] = cells;
    d["hand"] = kumi_out(s.hand);
    d["deck"] = kumi_out(s.deck);
    d["shand"] = ints_out(s.shand);
    d["sdeck"] = ints_out(s.sdeck);
    py::list slots, bowed;
    for (size_t p = 0; p < 12; ++p) {
        slots.append(opt_out(s.slots[p] < 0 ? NONE : s.slots[p]));
        bowed.append(py::bool_(s.bowed[p]));
    }
    d["slots"] = slots;
    d["bowed"] = bowed;
    d["vp"] = s.vp;
    d["scored"] = ints_out(s.scored);
    d["sline"] = ints_out(s.sline);
    py::list sb;
    for (char b : s.sbowed) sb.append(py::bool_(b != 0));
    d["sbowed"] = sb;
    d["army_pos"] = s.army_pos;
    d["marker"] = opt_out(s.marker);
    d["discard"] = kumi_out(s.discard);
    d["known"] = ints_out(s.known);
    d["dknown"] = ints_out(s.dknown);
    d["sknown"] = ints_out(s.sknown);
    return d;
}

py::object result_out(const Match& m) {
    if (!m.over) return py::none();
    py::dict d;
    d["reason"] = m.result.reason;
    d["winners"] = ints_out(m.result.winners);
    py::list sc, rt;
    for (double x : m.result.scores) sc.append(x);
    for (double x : m.result.returns) rt.append(x);
    d["scores"] = sc;
    d["returns"] = rt;
    return d;
}

py::dict to_json(const Match& m) {  // SashimonoState.to_json
    py::dict d;
    d["game"] = "sashimono";
    d["options"] = py::dict(m.R->options);
    py::list sides;
    for (const Side& s : m.sides) sides.append(side_out(s));
    d["sides"] = sides;
    py::list tasks;
    for (const Task& t : m.tasks) tasks.append(task_out(*m.R, t));
    d["tasks"] = tasks;
    d["prompt"] = m.has_prompt ? py::object(prompt_out(m, m.prompt)) : py::object(py::none());
    py::dict ctx;
    if (m.ctx.has_seat) ctx["seat"] = m.ctx.seat;
    if (m.ctx.has_card) ctx["card"] = m.ctx.card;
    if (m.ctx.has_slot) {
        ctx["slot"] = m.ctx.slot;
        ctx["line"] = m.ctx.line;
        ctx["used"] = ints_out(m.ctx.used);
    }
    d["ctx"] = ctx;
    if (m.has_battle) {
        const BattleState& b = m.battle;
        py::dict bd;
        bd["att"] = b.att;
        bd["dfn"] = b.dfn;
        bd["aline"] = b.aline;
        bd["dline"] = b.dline;
        bd["bonus"] = b.bonus;
        bd["dante"] = py::bool_(b.dante);
        py::dict ante;
        ante[py::str(std::to_string(b.att))] = kumi_out(b.ante[0]);
        ante[py::str(std::to_string(b.dfn))] = kumi_out(b.ante[1]);
        bd["ante"] = ante;
        if (b.resolved) {
            bd["winner"] = b.winner;
            bd["loser"] = b.loser;
            bd["margin"] = b.margin;
            bd["attack"] = b.attack;
            bd["defence"] = b.defence;
        }
        d["battle"] = bd;
    } else {
        d["battle"] = py::none();
    }
    py::list looking;
    for (int c : m.look) {
        if (m.look_kumi)
            looking.append(kumi_str(int8_t(c)));
        else
            looking.append(c);
    }
    d["looking"] = looking;
    d["looking_owner"] = m.look_owner;
    d["turn_seat"] = m.turn_seat;
    d["turns"] = m.turns;
    d["decisions"] = m.decisions;
    d["result"] = result_out(m);
    return d;
}

void load_json(Match& m, const py::dict& data) {  // SashimonoState.from_json
    const Rules& r = *m.R;
    Match fresh(m.R);
    for (py::handle s : field(data, "sides")) fresh.sides.push_back(side_of(s.cast<py::dict>()));
    if (fresh.sides.size() != 3 && !(fresh.sides.size() == 2 && !r.solo))
        bad("sides", "holds the wrong number of sides");
    for (py::handle t : field(data, "tasks")) fresh.tasks.push_back(task_of(r, t.cast<py::dict>()));
    py::object p = field(data, "prompt");
    if (!p.is_none()) {
        fresh.prompt = prompt_of(r, p.cast<py::dict>());
        fresh.has_prompt = true;
    }
    py::dict ctx = field(data, "ctx").cast<py::dict>();
    if (ctx.contains("seat")) {
        fresh.ctx.has_seat = true;
        fresh.ctx.seat = whole(ctx["seat"], "ctx.seat");
    }
    if (ctx.contains("card") && !ctx["card"].is_none()) {
        fresh.ctx.has_card = true;
        fresh.ctx.card = whole(ctx["card"], "ctx.card");
    }
    if (ctx.contains("slot") && !ctx["slot"].is_none()) {
        fresh.ctx.has_slot = true;
        fresh.ctx.slot = whole(ctx["slot"], "ctx.slot");
        fresh.ctx.line = whole(field(ctx, "line"), "ctx.line");
        fresh.ctx.used = int_list(field(ctx, "used"), "ctx.used");
    }
    py::object b = field(data, "battle");
    if (!b.is_none()) {
        py::dict bd = b.cast<py::dict>();
        BattleState& bs = fresh.battle;
        bs.att = whole(field(bd, "att"), "battle.att");
        bs.dfn = whole(field(bd, "dfn"), "battle.dfn");
        bs.aline = whole(field(bd, "aline"), "battle.aline");
        bs.dline = whole(field(bd, "dline"), "battle.dline");
        bs.bonus = whole(field(bd, "bonus"), "battle.bonus");
        bs.dante = field(bd, "dante").cast<bool>();
        py::dict ante = field(bd, "ante").cast<py::dict>();
        bs.ante[0] = kumi_list(ante[py::str(std::to_string(bs.att))], "battle.ante");
        bs.ante[1] = kumi_list(ante[py::str(std::to_string(bs.dfn))], "battle.ante");
        if (bd.contains("winner")) {
            bs.resolved = true;
            bs.winner = whole(bd["winner"], "battle.winner");
            bs.loser = whole(field(bd, "loser"), "battle.loser");
            bs.margin = whole(field(bd, "margin"), "battle.margin");
            bs.attack = whole(field(bd, "attack"), "battle.attack");
            bs.defence = whole(field(bd, "defence"), "battle.defence");
        }
        fresh.has_battle = true;
    }
    py::list looking = field(data, "looking").cast<py::list>();
    fresh.look_kumi = looking.size() > 0 && py::isinstance<py::str>(looking[0]);
    for (py::handle c : looking)
        fresh.look.push_back(fresh.look_kumi ? int(kumi_of(c, "looking")) : whole(c, "looking"));
    fresh.look_owner = whole(field(data, "looking_owner"), "looking_owner");
    fresh.turn_seat = whole(field(data, "turn_seat"), "turn_seat");
    fresh.turns = whole(field(data, "turns"), "turns");
    fresh.decisions = whole(field(data, "decisions"), "decisions");
    py::object res = field(data, "result");
    if (!res.is_none()) {
        py::dict rd = res.cast<py::dict>();
        fresh.over = true;
        fresh.result.reason = field(rd, "reason").cast<std::string>();
        fresh.result.winners = int_list(field(rd, "winners"), "result.winners");
        fresh.result.scores = field(rd, "scores").cast<std::vector<double>>();
        fresh.result.returns = field(rd, "returns").cast<std::vector<double>>();
    }
    m = std::move(fresh);
}

// ---------------------------------------------------------------------- the Rules from Python
int node_of(Rules& r, py::handle tree) {
    py::sequence s = py::reinterpret_borrow<py::sequence>(tree);
    std::string kind = s[0].cast<std::string>();
    Node n;
    if (kind == "const") {
        n.kind = N_CONST;
        n.number = s[1].cast<long long>();
    } else if (kind == "all" || kind == "any" || kind == "ext") {
        n.kind = kind == "all" ? N_ALL : kind == "any" ? N_ANY : N_EXT;
        size_t first = 1;
        if (kind == "ext") {
            n.largest = s[1].cast<bool>();
            first = 2;
        }
        for (py::handle k : py::reinterpret_borrow<py::sequence>(s[first]))
            n.kids.push_back(node_of(r, k));
    } else if (kind == "not" || kind == "neg" || kind == "abs") {
        n.kind = kind == "not" ? N_NOT : kind == "neg" ? N_NEG : N_ABS;
        n.kids.push_back(node_of(r, s[1]));
    } else if (kind == "arith") {
        n.kind = N_ARITH;
        n.op = s[1].cast<int>();
        n.kids.push_back(node_of(r, s[2]));
        n.kids.push_back(node_of(r, s[3]));
    } else if (kind == "cmp") {
        n.kind = N_CMP;
        n.kids.push_back(node_of(r, s[1]));
        n.ops = s[2].cast<std::vector<int>>();
        for (py::handle k : py::reinterpret_borrow<py::sequence>(s[3]))
            n.kids.push_back(node_of(r, k));
    } else if (kind == "query") {
        n.kind = N_QUERY;
        n.enemy = s[1].cast<bool>();
        py::dict q = s[2].cast<py::dict>();
        n.q.fn = q["fn"].cast<int>();
        n.q.face = q["face"].cast<int>();
        n.q.type = q["type"].cast<int>();
        n.q.rank = q["rank"].cast<int>();
        n.q.min_rank = q["min_rank"].cast<int>();
        n.q.line = q["line"].cast<int>();
        n.q.position = q["position"].cast<int>();
        n.q.attack = q["attack"].cast<bool>();
        n.q.axis = q["axis"].cast<int>();
        n.q.at_least = q["at_least"].cast<int>();
        n.q.distinct = q["distinct"].cast<int>();
        n.q.kumi = q["kumi"].cast<bool>();
        n.q.army = q["army"].cast<int>();
        n.q.bowed = q["bowed"].cast<int>();
    } else {
        throw py::value_error("sashimono core: condition node " + kind + " is unknown");
    }
    r.nodes.push_back(n);
    return int(r.nodes.size()) - 1;
}

Action action_of(const py::dict& d) {
    Action a;
    a.name = d["name"].cast<std::string>();
    a.requires_ = d["requires"].cast<std::vector<int>>();
    for (int i : a.requires_)
        if (i == I_GUNBAI) a.gunbai = true;
    a.effect = d["effect"].cast<std::vector<int>>();
    return a;
}

std::shared_ptr<Rules> make_rules(const py::dict& spec) {
    auto r = std::make_shared<Rules>();
    for (py::handle h : spec["specs"]) {
        py::dict d = h.cast<py::dict>();
        Spec s;
        s.op = d["op"].cast<int>();
        s.enemy = d["enemy"].cast<bool>();
        s.where = d["where"].cast<int>();
        s.face = d["face"].cast<int>();
        s.has_count = d["has_count"].cast<bool>();
        s.count = d["count"].cast<int>();
        s.kumi = d["kumi"].cast<bool>();
        s.keep = d["keep"].cast<int>();
        s.axis = d["axis"].cast<int>();
        s.attack = d["attack"].cast<int>();
        s.defender_ante = d["defender_ante"].cast<bool>();
        s.from = d["from"].cast<int>();
        s.draw = d["draw"].cast<bool>();
        s.adjacent = d["adjacent"].cast<bool>();
        s.labels = d["labels"].cast<std::vector<std::string>>();
        s.choices = d["choices"].cast<std::vector<std::vector<int>>>();
        s.json = d["json"];
        r->specs.push_back(s);
    }
    for (py::handle h : spec["cards"]) {
        py::dict d = h.cast<py::dict>();
        Card c;
        c.id = d["id"].cast<std::string>();
        c.name = d["name"].cast<std::string>();
        c.army = d["army"].cast<int>();
        c.score = node_of(*r, d["score"]);
        c.reads_own = d["reads_own"].cast<int>();
        c.reads_enemy = d["reads_enemy"].cast<int>();
        for (py::handle a : d["actions"]) c.actions.push_back(action_of(a.cast<py::dict>()));
        c.modifier = d["modifier"].cast<int>();
        c.amount = d["amount"].cast<int>();
        c.sonae_scope = d["sonae_scope"].cast<bool>();
        c.trigger = d["trigger"].cast<int>();
        c.trigger_effect = d["trigger_effect"].cast<std::vector<int>>();
        r->cards.push_back(c);
    }
    for (py::handle a : spec["reference"]) r->reference.push_back(action_of(a.cast<py::dict>()));
    r->bonus_effect = spec["bonus_effect"].cast<std::vector<std::vector<int>>>();
    r->bonus_names = spec["bonus_names"].cast<std::vector<std::string>>();
    std::vector<int> kc = spec["kumi_count"].cast<std::vector<int>>();
    for (int t = 0; t < 3; ++t) r->kumi_count[t] = kc[size_t(t)];
    for (py::handle s : spec["sonae"])
        r->sonae.push_back(s.is_none() ? Stack() : stack_of(s.cast<std::string>(), "sonae"));
    std::vector<std::vector<int>> power = spec["power"].cast<std::vector<std::vector<int>>>();
    for (int t = 0; t < 3; ++t)
        for (int k = 0; k < 2; ++k) r->power[t][k] = power[size_t(t)][size_t(k)];
    r->deck[0] = spec["west_deck"].cast<std::vector<int>>();
    r->deck[1] = spec["east_deck"].cast<std::vector<int>>();
    r->solo = spec["solo"].cast<bool>();
    r->army = spec["army"].cast<int>();
    r->target = spec["target"].cast<int>();
    r->corners = spec["challenge_corners"].cast<bool>();
    r->six = spec["challenge_six_sashimono"].cast<bool>();
    r->abilities = spec["challenge_abilities"].cast<bool>();
    r->discard_five = spec["challenge_discard_five"].cast<bool>();
    r->fewer_kumi = spec["challenge_fewer_kumi"].cast<bool>();
    r->train = spec["challenge_train"].cast<bool>();
    r->length_limit = spec["length_limit"].cast<int>();
    std::vector<int> ks = spec["kind_size"].cast<std::vector<int>>();
    if (ks.size() != NKINDS)
        throw py::value_error("sashimono core: kind_size has the wrong length");
    int off = 0;
    for (int k = 0; k < NKINDS; ++k) {
        r->kind_size[k] = ks[size_t(k)];
        r->kind_offset[k] = off;
        off += ks[size_t(k)];
    }
    r->kind_offset[NKINDS] = off;
    r->num_actions = off;
    r->options = spec["options"].cast<py::dict>();
    return r;
}

int action_arg(const Rules& r, py::handle given) {
    if (!py::isinstance<py::int_>(given) || py::isinstance<py::bool_>(given))
        throw py::type_error("a Sashimono action is a whole number (an int)");
    long long v = given.cast<long long>();
    if (v < 0 || v >= r.num_actions)
        throw py::value_error("a Sashimono action is an integer in 0.." +
                              std::to_string(r.num_actions - 1) + ", got " + std::to_string(v));
    return int(v);
}

py::object outcome_of(const Match& m) { return result_out(m); }

// ---------------------------------------------------------------------- the observation
// SashimonoEncoder's layout (encoder.py), handed in from Python: its blocks' offsets and
// sizes, and the order of its questions.
struct Encoding {
    int size = 0, sides = 0, kagemusha = 0, globals = 0, battle = 0, played = 0, prompt = 0,
        looking = 0;
    int side_size = 0, num_cards = 0, cells = 9, stack = 15, hand_max = 40, kage_line_max = 16,
        spaces = 12, lines = 7, used_max = 8, look_max = 8, questions = 0;
    int question_entry[NQ] = {};
};

// SashimonoEncoder.encode_into of capture(state, seat) (snapshot.py) into ``w``, zeros
// (seat -1: a spectator, seen as seat 0 without seat 0's hidden parts).
void encode(const Match& m, const Encoding& e, int seat, float* w) {
    const int me = seat >= 0 ? seat : 0;
    const int nc = e.num_cards;
    const int bit = seat >= 0 ? 1 << seat : SPECTATOR_BIT;
    auto who = [&](int s) { return s == me ? 0 : s == KAGE ? 2 : 1; };
    auto stack = [&](float* at, const Stack& st, bool show) {
        at[0] = 1.0f;
        at[1] = st.up ? 1.0f : 0.0f;
        at[3] = float(st.rank());
        if (!st.up && !show) {
            at[2] = 1.0f;
            at[4] = at[5] = float(st.rank());
            return;
        }
        at[4] = float(m.attack_of(st));
        at[5] = float(m.defence_of(st));
        for (int level = 0; level < st.n; ++level) at[6 + level * 3 + st.t[level]] = 1.0f;
    };
    const int seats = m.solo() ? 1 : 2;
    for (int i = 0; i < seats; ++i) {
        const Side& s = m.sides[size_t(i)];
        const bool own = seat == i;
        int at = e.sides + who(i) * e.side_size;
        w[at] = 1.0f;
        w[at + 1 + (s.army == "west" ? 0 : 1)] = 1.0f;
        at += 3;
        for (size_t c = 0; c < s.cells.size() && c < size_t(e.cells); ++c) {
            const Stack& st = s.cells[c];
            if (st.empty()) continue;
            stack(w + at + int(c) * e.stack, st, own || (s.known[c] & bit));
        }
        at += e.cells * e.stack;
        if (own) {
            if (int(s.hand.size()) > e.hand_max)
                throw std::runtime_error("sashimono: a hand of " + std::to_string(s.hand.size()) +
                                         " Kumi is over the bound");
            for (size_t k = 0; k < s.hand.size(); ++k) w[at + int(k) * 3 + s.hand[k]] = 1.0f;
        }
        at += e.hand_max * 3;
        w[at] = float(s.hand.size());
        w[at + 1] = float(s.deck.size());
        w[at + 2] = float(s.shand.size());
        w[at + 3] = float(s.sdeck.size());
        at += 4;
        if (own)
            for (size_t k = 0; k < s.shand.size(); ++k) w[at + s.shand[k]] = float(k + 1);
        at += nc;
        for (int p = 0; p < 12; ++p) {
            int c = s.slots[size_t(p)];
            if (c < 0) continue;
            int k = at + p * (2 + nc);
            w[k] = 1.0f;
            if (s.bowed[size_t(p)]) w[k + 1] = 1.0f;
            w[k + 2 + c] = 1.0f;
        }
        at += e.spaces * (2 + nc);
        w[at] = float(s.vp);
        for (size_t k = 0; k < s.scored.size(); ++k) w[at + 1 + s.scored[k]] = float(k + 1);
    }
    if (m.solo()) {
        const Side& k = m.sides[KAGE];
        int at = e.kagemusha;
        w[at + (k.army == "west" ? 0 : 1)] = 1.0f;
        at += 2;
        if (int(k.cells.size()) > e.kage_line_max)
            throw std::runtime_error("sashimono: a Kagemusha line of " +
                                     std::to_string(k.cells.size()) + " is over the bound");
        for (size_t c = 0; c < k.cells.size(); ++c)
            if (!k.cells[c].empty()) stack(w + at + int(c) * e.stack, k.cells[c], true);
        at += e.kage_line_max * e.stack;
        w[at] = float(k.deck.size());
        w[at + 1] = float(k.sdeck.size());
        w[at + 2] = float(k.army_pos + 1);
        w[at + 3] = float(k.vp);
        at += 4;
        for (size_t p = 0; p < k.sline.size(); ++p) {
            w[at + k.sline[p]] = float(p + 1);
            w[at + nc + k.sline[p]] = k.sbowed[p] ? 1.0f : 0.0f;
        }
        at += 2 * nc;
        for (size_t p = 0; p < k.scored.size(); ++p) w[at + k.scored[p]] = float(p + 1);
        at += nc;
        for (int8_t t : k.discard) w[at + t] += 1.0f;
    }
    int at = e.globals;
    w[at] = float(m.R->target);
    w[at + 1] = float(m.turns);
    w[at + 2 + who(m.turn_seat)] = 1.0f;
    if (!m.over && m.has_prompt) w[at + 5 + who(m.prompt.seat)] = 1.0f;
    if (m.has_battle) {
        const BattleState& b = m.battle;
        at = e.battle;
        w[at] = 1.0f;
        w[at + 1 + who(b.att)] = 1.0f;
        w[at + 4 + who(b.dfn)] = 1.0f;
        w[at + 7 + b.aline] = 1.0f;
        w[at + 7 + e.lines + b.dline] = 1.0f;
        w[at + 7 + 2 * e.lines + who(b.att)] = float(b.ante[0].size());
        w[at + 7 + 2 * e.lines + who(b.dfn)] = float(b.ante[1].size());
        w[at + 10 + 2 * e.lines] = float(b.bonus);
    }
    if (m.ctx.has_card && m.ctx.has_slot) {
        at = e.played;
        w[at] = 1.0f;
        w[at + 1 + m.ctx.card] = 1.0f;
        w[at + 1 + nc + m.ctx.slot] = 1.0f;
        w[at + 1 + nc + e.spaces + m.ctx.line] = 1.0f;
        int base = at + 1 + nc + e.spaces + e.lines;
        for (size_t p = 0; p < m.ctx.used.size(); ++p) w[base + m.ctx.used[p]] = float(p + 1);
    }
    if (m.has_prompt && !m.over) {
        at = e.prompt;
        w[at] = 1.0f;
        w[at + 1 + who(m.prompt.seat)] = 1.0f;
        w[at + 4 + e.question_entry[m.prompt.q]] = 1.0f;
    }
    if (!m.look.empty()) {
        at = e.looking;
        w[at] = 1.0f;
        w[at + 1 + who(m.look_owner)] = 1.0f;
        w[at + 4 + (m.look_kumi ? 0 : 1)] = 1.0f;
        w[at + 6] = float(m.look.size());
        if (seat == m.look_owner) {
            for (size_t p = 0; p < m.look.size(); ++p) {
                if (m.look_kumi)
                    w[at + 7 + int(p) * 3 + m.look[p]] = 1.0f;
                else
                    w[at + 7 + e.look_max * 3 + m.look[p]] = float(p + 1);
            }
        }
    }
}

std::shared_ptr<Encoding> make_encoding(const py::dict& spec) {
    auto e = std::make_shared<Encoding>();
    e->size = spec["size"].cast<int>();
    py::dict o = spec["offsets"].cast<py::dict>();
    e->sides = o["sides"].cast<int>();
    e->kagemusha = o["kagemusha"].cast<int>();
    e->globals = o["globals"].cast<int>();
    e->battle = o["battle"].cast<int>();
    e->played = o["played"].cast<int>();
    e->prompt = o["prompt"].cast<int>();
    e->looking = o["looking"].cast<int>();
    e->side_size = spec["side_size"].cast<int>();
    e->num_cards = spec["num_cards"].cast<int>();
    e->cells = spec["cells"].cast<int>();
    e->stack = spec["stack"].cast<int>();
    e->hand_max = spec["hand_max"].cast<int>();
    e->kage_line_max = spec["kage_line_max"].cast<int>();
    e->spaces = spec["spaces"].cast<int>();
    e->lines = spec["lines"].cast<int>();
    e->used_max = spec["used_max"].cast<int>();
    e->look_max = spec["look_max"].cast<int>();
    std::vector<std::string> qs = spec["questions"].cast<std::vector<std::string>>();
    e->questions = int(qs.size());
    for (int q = 0; q < NQ; ++q) {
        auto it = std::find(qs.begin(), qs.end(), std::string(Q_NAMES[q]));
        // a question the encoder does not list is written at its last entry (encoder.py)
        e->question_entry[q] = it == qs.end() ? int(qs.size()) : int(it - qs.begin());
    }
    return e;
}

// What the shared batch (sengoku/native/core_batch.hpp) asks of a Sashimono match.
struct SashimonoTraits {
    using Match = ::Match;
    using Rules = ::Rules;
    using Encoding = ::Encoding;
    static bool over(const Match& m) { return m.over; }
    static int seat(const Match& m) { return m.over || !m.has_prompt ? -1 : m.prompt.seat; }
    static int observers(const Match& m) { return m.num_players(); }
    static const std::vector<int>& legal(Match& m) { return m.legal_ints(); }
    static bool is_legal(Match& m, int action) { return m.is_legal(action); }
    static void play(Match& m, int action) { m.apply(action); }
    static void deal(Match& m, const std::vector<uint32_t>& key, py::handle /*seed*/) {
        m.deal(key);
    }
    static void load(Match& m, const py::dict& data) { load_json(m, data); }
    static int num_actions(const Rules& r) { return r.num_actions; }
    static int num_players(const Rules& r) { return r.solo ? 1 : 2; }
    static int size(const Encoding& e) { return e.size; }
    static void encode(const Match& m, const Encoding& e, int seat, float* row) {
        ::encode(m, e, seat, row);
    }
    static double payoff(const Match& m, int seat) { return m.result.returns[size_t(seat)]; }
    static py::object outcome(const Match& m) { return outcome_of(m); }
};

}  // namespace

PYBIND11_MODULE(_sashimono_native, m) {
    m.doc() = "Sashimono's native core (C++): the rules on the integer actions, both modes.";

    py::class_<Rules, std::shared_ptr<Rules>>(m, "Rules")
        .def(py::init(&make_rules), py::arg("spec"))
        .def_property_readonly("num_actions", [](const Rules& r) { return r.num_actions; })
        .def_property_readonly("players", [](const Rules& r) { return r.solo ? 1 : 2; });

    py::class_<Match>(m, "Match")
        .def(py::init<std::shared_ptr<const Rules>>(), py::arg("rules"))
        .def("load_json", &load_json, py::arg("data"),
             "Take the position of SashimonoState.to_json() (a ValueError names a bad field).")
        .def("to_json", &to_json, "The position as SashimonoState.to_json() writes it.")
        .def("clone", [](const Match& self) { return Match(self); })
        .def("deal", &Match::deal, py::arg("key"),
             "Deal a new game as SashimonoState.setup does from random.Random(seed), ``key`` "
             "the seed's 32-bit words (seed_key).")
        .def("legal_ints", [](Match& self) { return self.legal_ints(); })
        .def("is_legal",
             [](const Match& self, py::handle a) {
                 return self.is_legal(action_arg(*self.R, a));
             })
        .def("apply",
             [](Match& self, py::handle a) { self.apply(action_arg(*self.R, a)); },
             py::arg("action"), "Play one legal action integer (a ValueError, nothing changed, "
                                "for an illegal one).")
        .def("is_terminal", [](const Match& self) { return self.over; })
        .def_property_readonly(
            "current_player",
            [](const Match& self) { return self.over || !self.has_prompt ? -1 : self.prompt.seat; })
        .def("outcome", &outcome_of)
        .def("encode",
             [](const Match& self, std::shared_ptr<const Encoding> e, int seat,
                py::array_t<float, py::array::c_style>& out) {
                 if (seat < -1 || seat >= self.num_players())
                     throw py::value_error("no such seat: " + std::to_string(seat));
                 if (out.ndim() != 1 || out.shape(0) != e->size)
                     throw py::value_error("out must be a float32 array of shape (" +
                                           std::to_string(e->size) + ",)");
                 float* w = out.mutable_data();
                 std::fill(w, w + e->size, 0.0f);
                 try {
                     encode(self, *e, seat, w);
                 } catch (const std::runtime_error& exc) {
                     throw py::value_error(exc.what());
                 }
             },
             py::arg("encoding"), py::arg("seat"), py::arg("out"),
             "SashimonoEncoder's observation of capture(state, seat) into ``out`` (seat -1: a "
             "spectator).");

    py::class_<Encoding, std::shared_ptr<Encoding>>(m, "Encoding")
        .def(py::init(&make_encoding), py::arg("spec"))
        .def_property_readonly("size", [](const Encoding& e) { return e.size; });

    sengoku::bind_core_batch<SashimonoTraits>(m);
}
