// A batch of matches of one game's native core, for research (numpy masks and observations
// with the contract batch's numbers): the Batch that Gunkimono's, Gunshi's and Sashimono's
// cores bind (sengoku/core/native_batch.py's CoreBatch steps it).
//
// A game's traits G name its core's types and the calls the batch makes of a match:
//
//     using Match, Rules, Encoding;
//     static bool over(const Match&);                  // the game is over
//     static int seat(const Match&);                   // the seat to act, -1 when none
//     static int observers(const Match&);              // seats an observation may be from
//     static const std::vector<int>& legal(Match&);    // legal integers, ascending; none once over
//     static bool is_legal(Match&, int action);
//     static void play(Match&, int action);            // a legal integer
//     static void deal(Match&, const std::vector<uint32_t>& key, py::handle seed);
//     static void load(Match&, const py::dict& position);   // GameState.to_json()
//     static int num_actions(const Rules&);
//     static int num_players(const Rules&);
//     static int size(const Encoding&);
//     static void encode(const Match&, const Encoding&, int seat, float* row);  // may throw
//     static double payoff(const Match&, int seat);    // the seat's return, once over
//     static py::object outcome(const Match&);         // Outcome.to_json(), None while it goes on
//
// Every action is looked up before any game moves (an illegal one: nothing moves and the
// caller names the game); the mask ``legal_sparse`` keeps is rewritten only in the rows of
// the games that changed since it was last written.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sengoku {

namespace py = pybind11;

template <class G>
class CoreBatch {
  public:
    using Match = typename G::Match;
    using Rules = typename G::Rules;
    using Encoding = typename G::Encoding;

    CoreBatch(std::shared_ptr<const Rules> rules, std::shared_ptr<const Encoding> encoding)
        : R(std::move(rules)), E(std::move(encoding)) {}

    std::shared_ptr<const Rules> R;
    std::shared_ptr<const Encoding> E;
    std::vector<Match> games;
    // The mask legal_sparse keeps (its data) and the integers it set in each row; each
    // game's count of changes, and the count its row was last written at.
    const void* marked = nullptr;
    std::vector<std::vector<int>> marked_rows;
    std::vector<uint64_t> version, marked_version;

    int n() const { return int(games.size()); }

    void check_game(int i) const {
        if (i < 0 || i >= n())
            throw py::index_error("game " + std::to_string(i) + " is not in the batch of " +
                                  std::to_string(n()));
    }

    // Hold these positions (GameState.to_json() each), in place of the games held.
    void reset(const py::list& positions) {
        std::vector<Match> made;
        made.reserve(py::len(positions));
        for (py::handle data : positions) {
            Match m(R);
            G::load(m, data.cast<py::dict>());
            made.push_back(std::move(m));
        }
        hold(std::move(made));
    }

    // Deal one game a seed (its 32-bit words, and the seed), as new_state(seed=...) deals.
    void deal(const std::vector<std::vector<uint32_t>>& keys, const py::list& seeds) {
        if (py::len(seeds) != keys.size()) throw py::value_error("one seed per key");
        std::vector<Match> made;
        made.reserve(keys.size());
        for (size_t i = 0; i < keys.size(); ++i) {
            made.emplace_back(R);
            G::deal(made.back(), keys[i], seeds[i]);
        }
        hold(std::move(made));
    }

    void deal_game(int i, const std::vector<uint32_t>& key, py::handle seed) {
        check_game(i);
        G::deal(games[size_t(i)], key, seed);
        ++version[size_t(i)];
    }

    void reset_game(int i, const py::dict& data) {
        check_game(i);
        Match m(R);
        G::load(m, data);
        games[size_t(i)] = std::move(m);
        ++version[size_t(i)];
    }

    // The index of the first live game whose action (not -1) is not legal there; -1: none.
    int first_illegal(const py::array_t<int64_t, py::array::c_style>& actions) {
        auto a = actions.unchecked<1>();
        if (a.shape(0) != n()) throw py::value_error("one action per game");
        for (int i = 0; i < n(); ++i) {
            int64_t x = a(i);
            Match& m = games[size_t(i)];
            if (x < 0 || G::over(m)) continue;
            if (x >= G::num_actions(*R) || !G::is_legal(m, int(x))) return i;
        }
        return -1;
    }

    // Play actions[i] in game i (-1, or any action of a finished game: nothing). Returns -1,
    // or the first game whose action is not legal there, having played nothing.
    int step(const py::array_t<int64_t, py::array::c_style>& actions) {
        int bad_game = first_illegal(actions);
        if (bad_game >= 0) return bad_game;
        auto a = actions.unchecked<1>();
        py::gil_scoped_release release;
        for (int i = 0; i < n(); ++i) {
            int64_t x = a(i);
            Match& m = games[size_t(i)];
            if (x < 0 || G::over(m)) continue;
            G::play(m, int(x));
            ++version[size_t(i)];
        }
        return -1;
    }

    // (n,) int64: how many legal actions each game has (0 once over).
    py::array_t<int64_t> legal_counts() {
        py::array_t<int64_t> out(n());
        int64_t* w = out.mutable_data();
        for (int i = 0; i < n(); ++i) w[i] = int64_t(legal_of(i).size());
        return out;
    }

    // (n,) int64: game i's legal action at index picks[i] of its list (-1 for a pick of -1).
    py::array_t<int64_t> pick(const py::array_t<int64_t, py::array::c_style>& picks) {
        auto k = picks.unchecked<1>();
        if (k.shape(0) != n()) throw py::value_error("one pick per game");
        py::array_t<int64_t> out(n());
        int64_t* w = out.mutable_data();
        for (int i = 0; i < n(); ++i) {
            int64_t at = k(i);
            if (at < 0) {
                w[i] = -1;
                continue;
            }
            const std::vector<int>& l = legal_of(i);
            if (at >= int64_t(l.size()))
                throw py::value_error("game " + std::to_string(i) + " has no legal action " +
                                      std::to_string(at));
            w[i] = l[size_t(at)];
        }
        return out;
    }

    // Game i's legal integers, ascending (none once over).
    std::vector<int> legal_ints(int i) {
        check_game(i);
        return legal_of(i);
    }

    // Every game's legal integers as (ints, offsets); ``out`` (an int8 or bool mask of
    // (n, num_actions), C-contiguous) kept equal to the dense mask: given again, only the
    // rows of the games that changed are rewritten, at their old and new entries.
    py::tuple legal_sparse(py::object out) {
        const int games_n = n();
        std::vector<int64_t> offsets(size_t(games_n) + 1, 0);
        for (int i = 0; i < games_n; ++i)
            offsets[size_t(i) + 1] = offsets[size_t(i)] + int64_t(legal_of(i).size());
        py::array_t<int64_t> ints(offsets.back());
        py::array_t<int64_t> offs(games_n + 1);
        int64_t* ip = ints.mutable_data();
        std::copy(offsets.begin(), offsets.end(), offs.mutable_data());
        for (int i = 0; i < games_n; ++i) {
            const std::vector<int>& l = legal_of(i);
            std::copy(l.begin(), l.end(), ip + offsets[size_t(i)]);
        }
        if (out.is_none()) {
            marked = nullptr;
            return py::make_tuple(ints, offs);
        }
        py::array mask = out.cast<py::array>();
        const int64_t width = G::num_actions(*R);
        bool kinds_ok =
            mask.dtype().is(py::dtype::of<int8_t>()) || mask.dtype().is(py::dtype::of<bool>());
        if (!kinds_ok || mask.ndim() != 2 || mask.shape(0) != games_n || mask.shape(1) != width ||
            !(mask.flags() & py::array::c_style) || !mask.writeable())
            throw py::value_error(
                "out must be a writable C-contiguous int8 or bool array of shape (" +
                std::to_string(games_n) + ", " + std::to_string(width) + ")");
        auto* dense = static_cast<int8_t*>(mask.mutable_data());
        if (marked != mask.data() || int(marked_rows.size()) != games_n) {
            std::fill(dense, dense + int64_t(games_n) * width, int8_t(0));
            marked = mask.data();
            marked_rows.assign(size_t(games_n), {});
            marked_version.assign(size_t(games_n), 0);
        }
        for (int i = 0; i < games_n; ++i) {
            if (marked_version[size_t(i)] == version[size_t(i)]) continue;
            int8_t* row = dense + int64_t(i) * width;
            for (int x : marked_rows[size_t(i)]) row[x] = 0;
            auto& now = marked_rows[size_t(i)];
            now.assign(ip + offsets[size_t(i)], ip + offsets[size_t(i) + 1]);
            for (int x : now) row[x] = 1;
            marked_version[size_t(i)] = version[size_t(i)];
        }
        return py::make_tuple(ints, offs);
    }

    // Each game's observation from seats[i] into ``out`` ((n, size) float32, C-contiguous,
    // overwritten); seat -1: a spectator's.
    void observations(const py::array_t<int64_t, py::array::c_style>& seats,
                      py::array_t<float, py::array::c_style>& out) {
        auto s = seats.unchecked<1>();
        const int size = G::size(*E);
        if (s.shape(0) != n()) throw py::value_error("one seat per game");
        if (out.ndim() != 2 || out.shape(0) != n() || out.shape(1) != size)
            throw py::value_error("out must be a float32 array of shape (" + std::to_string(n()) +
                                  ", " + std::to_string(size) + ")");
        for (int i = 0; i < n(); ++i) {
            int64_t seat = s(i);
            if (seat < -1 || seat >= G::observers(games[size_t(i)]))
                throw py::value_error("game " + std::to_string(i) + ": no seat " +
                                      std::to_string(seat));
        }
        float* w = out.mutable_data();
        std::string failed;
        {
            py::gil_scoped_release release;
            for (int i = 0; i < n() && failed.empty(); ++i) {
                float* row = w + int64_t(i) * size;
                std::fill(row, row + size, 0.0f);
                try {
                    G::encode(games[size_t(i)], *E, int(s(i)), row);
                } catch (const std::exception& exc) {
                    failed = exc.what();
                }
            }
        }
        if (!failed.empty()) throw py::value_error(failed);
    }

    // (n, 2) int64: the seat to act (-1 when none) and whether the game is over.
    py::array_t<int64_t> status() const {
        py::array_t<int64_t> out({n(), 2});
        auto w = out.mutable_unchecked<2>();
        for (int i = 0; i < n(); ++i) {
            const Match& m = games[size_t(i)];
            w(i, 0) = G::seat(m);
            w(i, 1) = G::over(m) ? 1 : 0;
        }
        return out;
    }

    // (n, num_players) float32: each game's returns (0 while it goes on).
    py::array_t<float> returns() const {
        const int players = G::num_players(*R);
        py::array_t<float> out({n(), players});
        auto w = out.mutable_unchecked<2>();
        for (int i = 0; i < n(); ++i) {
            const Match& m = games[size_t(i)];
            bool over = G::over(m);
            for (int s = 0; s < players; ++s) w(i, s) = over ? float(G::payoff(m, s)) : 0.0f;
        }
        return out;
    }

    py::object outcome(int i) const {
        check_game(i);
        return G::outcome(games[size_t(i)]);
    }

    Match match(int i) const {
        check_game(i);
        return Match(games[size_t(i)]);
    }

  private:
    static const std::vector<int>& none() {
        static const std::vector<int> empty;
        return empty;
    }

    const std::vector<int>& legal_of(int i) {
        Match& m = games[size_t(i)];
        return G::over(m) ? none() : G::legal(m);
    }

    void hold(std::vector<Match>&& made) {
        games = std::move(made);
        version.assign(games.size(), 1);
        marked = nullptr;
        marked_rows.assign(games.size(), {});
        marked_version.assign(games.size(), 0);
    }
};

// The Batch class of a core's module, bound as the three cores bind it.
template <class G>
void bind_core_batch(py::module_& m) {
    using B = CoreBatch<G>;
    py::class_<B>(m, "Batch")
        .def(py::init<std::shared_ptr<const typename G::Rules>,
                      std::shared_ptr<const typename G::Encoding>>(),
             py::arg("rules"), py::arg("encoding"))
        .def_property_readonly("n", &B::n)
        .def("reset", &B::reset, py::arg("positions"))
        .def("reset_game", &B::reset_game, py::arg("i"), py::arg("position"))
        .def("deal", &B::deal, py::arg("keys"), py::arg("seeds"))
        .def("deal_game", &B::deal_game, py::arg("i"), py::arg("key"), py::arg("seed"))
        .def("legal_counts", &B::legal_counts)
        .def("pick", &B::pick, py::arg("picks"))
        .def("first_illegal", &B::first_illegal, py::arg("actions"))
        .def("step", &B::step, py::arg("actions"))
        .def("legal_sparse", &B::legal_sparse, py::arg("out") = py::none())
        .def("legal_ints", &B::legal_ints, py::arg("i"))
        .def("observations", &B::observations, py::arg("seats"), py::arg("out"))
        .def("status", &B::status)
        .def("returns", &B::returns)
        .def("outcome", &B::outcome, py::arg("i"))
        .def("match", &B::match, py::arg("i"));
}

}  // namespace sengoku
