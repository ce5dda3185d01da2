// The C API from C++ (RAII handles, std::vector): tests/test_c_api.py compiles it with the system C++
// compiler against include/atomic_africa.h and libatomic_africa.a (no Python) and checks that
//   capi_driver_cpp play SEED N   prints exactly what the C driver (capi_driver.c) prints
//   capi_driver_cpp fire          prints "F markers wounds" of the worked example
//   capi_driver_cpp spec FILE     prints "status message" of aa_spec_load.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "atomic_africa.h"

namespace {

struct SpecFree { void operator()(aa_spec *s) const { aa_spec_free(s); } };
struct GameFree { void operator()(aa_game *g) const { aa_game_free(g); } };
struct AgentFree { void operator()(aa_agent *a) const { aa_agent_free(a); } };
using Spec = std::unique_ptr<aa_spec, SpecFree>;
using Game = std::unique_ptr<aa_game, GameFree>;
using Agent = std::unique_ptr<aa_agent, AgentFree>;

void check(aa_status st, const char *what) {
    if (st != AA_OK)
        throw std::runtime_error(std::string(what) + ": " + aa_last_error());
}

template <class T> std::uint64_t fnv(const std::vector<T> &v, std::size_t n) {
    std::uint64_t h = 14695981039346656037ull;
    const unsigned char *b = reinterpret_cast<const unsigned char *>(v.data());
    for (std::size_t i = 0; i < n * sizeof(T); i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

const std::uint64_t AGENT_SEED = 10000u;

void play(const aa_spec *spec, std::uint64_t seed) {
    aa_game *raw = nullptr;
    check(aa_game_new(spec, seed, &raw), "aa_game_new");
    Game g(raw);
    Agent agents[2];
    for (int p = 0; p < 2; p++) {
        aa_agent *a = nullptr;
        check(aa_agent_new(AA_AGENT_RANDOM, AGENT_SEED + 2 * seed + static_cast<std::uint64_t>(p), nullptr, &a),
              "aa_agent_new");
        agents[p].reset(a);
    }
    std::vector<std::int32_t> legal(static_cast<std::size_t>(aa_num_actions(spec)));
    std::vector<float> obs(static_cast<std::size_t>(aa_observation_size(spec)));
    std::printf("G %llu\n", static_cast<unsigned long long>(seed));
    while (!aa_game_is_over(g.get())) {
        int p = -1;
        check(aa_game_current_player(g.get(), &p), "aa_game_current_player");
        int m = aa_game_legal_actions(g.get(), legal.data(), static_cast<int>(legal.size()));
        if (m < 0)
            check(static_cast<aa_status>(-m), "aa_game_legal_actions");
        std::int32_t a = -1;
        check(aa_agent_action(agents[p].get(), g.get(), &a), "aa_agent_action");
        check(aa_game_apply(g.get(), a), "aa_game_apply");
        std::printf("S %d %d %016llx %ld\n", p, m,
                    static_cast<unsigned long long>(fnv(legal, static_cast<std::size_t>(m))), static_cast<long>(a));
    }
    int winner = -2;
    check(aa_game_winner(g.get(), &winner), "aa_game_winner");
    const double *ev = nullptr;
    std::size_t n_ev = 0;
    check(aa_game_events(g.get(), &ev, &n_ev), "aa_game_events");
    std::vector<double> events(ev, ev + n_ev);
    std::printf("W %d %lu %016llx", winner, static_cast<unsigned long>(n_ev),
                static_cast<unsigned long long>(fnv(events, n_ev)));
    for (int p = 0; p < 2; p++) {
        check(aa_game_observe(g.get(), p, obs.data(), static_cast<int>(obs.size())), "aa_game_observe");
        std::printf(" %016llx", static_cast<unsigned long long>(fnv(obs, obs.size())));
    }
    std::printf("\n");
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2)
        return 2;
    try {
        std::string mode = argv[1];
        if (mode == "spec") {
            std::ifstream f(argv[2], std::ios::binary);
            std::vector<char> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
            aa_spec *s = nullptr;
            aa_status st = aa_spec_load(data.data(), data.size(), &s);
            Spec owned(s);
            std::printf("%d %s\n", static_cast<int>(st), aa_last_error());
            return 0;
        }
        aa_spec *raw = nullptr;
        check(aa_spec_default(&raw), "aa_spec_default");
        Spec spec(raw);
        if (mode == "play") {
            std::uint64_t s0 = std::strtoull(argv[2], nullptr, 10), n = std::strtoull(argv[3], nullptr, 10);
            for (std::uint64_t s = s0; s < s0 + n; s++)
                play(spec.get(), s);
        } else if (mode == "fire") {
            int markers = -1, wounds = -1;
            check(aa_resolve_fire(spec.get(), 13, 3, 2, 2, 1, &markers, &wounds), "aa_resolve_fire");
            std::printf("F %d %d\n", markers, wounds);
        }
    } catch (const std::exception &e) {
        std::printf("FAIL %s\n", e.what());
        return 1;
    }
    return 0;
}
