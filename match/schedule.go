// schedule.go: the match schedule (opening pairs, rounds, the seeded
// opening order) and its split into shards.

package match

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// PairJob is one opening pair of the schedule: the opening played twice,
// engine A with White in game 1 and engine B with White in game 2.
type PairJob struct {
	Index   int      // 0-based position in the full schedule
	Round   int      // 1-based repetition of the opening deck (--rounds)
	Number  int      // 1-based pair number within the round
	Opening *Opening // the opening both games start from
}

// Key returns the pair's round label "R.P" (round R, pair P): the Round tag
// of its games is "R.P.1" and "R.P.2".
func (p PairJob) Key() string { return strconv.Itoa(p.Round) + "." + strconv.Itoa(p.Number) }

// GameJob is one game of the schedule.
type GameJob struct {
	PairJob
	Game int // 1: A has White; 2: B has White
}

// RoundTag returns the PDN Round tag of the game: "R.P.G".
func (g GameJob) RoundTag() string { return g.Key() + "." + strconv.Itoa(g.Game) }

// AWhite reports whether engine A plays White in this game.
func (g GameJob) AWhite() bool { return g.Game == 1 }

// Games returns the number of games of c's schedule, of its shard when
// Shards is more than 1: two a pair.
func (c Config) Games() int { return len(scheduleJobs(&c)) }

// Schedule returns the full schedule: rounds repetitions of the openings,
// each opening one pair. With seed 0 the openings keep their order;
// otherwise they are shuffled once with the seed (PCG), the same order in
// every round, so that every shard of a match, given the same seed, sees
// the same schedule.
func Schedule(openings []Opening, rounds int, seed uint64) []PairJob {
	order := make([]int, len(openings))
	for i := range order {
		order[i] = i
	}
	if seed != 0 {
		r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	jobs := make([]PairJob, 0, rounds*len(openings))
	for r := 1; r <= rounds; r++ {
		for n, i := range order {
			jobs = append(jobs, PairJob{Index: len(jobs), Round: r, Number: n + 1, Opening: &openings[i]})
		}
	}
	return jobs
}

// Shard returns the pairs of shard i of n (1 <= i <= n): those whose Index
// is i-1 modulo n. The shards of one schedule are disjoint, their union is
// the schedule, and pairs are never split, so each shard's pentanomial
// counts are complete.
func Shard(jobs []PairJob, i, n int) []PairJob {
	if n <= 1 {
		return jobs
	}
	var out []PairJob
	for _, j := range jobs {
		if j.Index%n == i-1 {
			out = append(out, j)
		}
	}
	return out
}

// ParseShard reads "I/N" with 1 <= I <= N.
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	if ok {
		i, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("shard %q: want I/N with 1 <= I <= N, e.g. 2/8", s)
	}
	return i, n, nil
}
