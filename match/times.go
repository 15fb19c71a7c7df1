// times.go: how the engines of a match used their time.

package match

import (
	"slices"
	"time"
)

// TimeUse sums up one engine's thinking over a match: its answer times to
// go (Answers, the median and the longest) and, under a clock, its clock
// at the end of each game (the least and the median of ClockLeft).
type TimeUse struct {
	Answers        int
	MedianAnswer   time.Duration
	LongestAnswer  time.Duration
	Games          int // games under a clock
	LeastClockLeft time.Duration
	MedianClock    time.Duration
}

// TimeUse returns engine e's (0 = A, 1 = B) time use over the recorded
// games. Book moves and forced moves count as answers like any other.
func (s *Summary) TimeUse(e int, clocked bool) TimeUse {
	var answers, clocks []time.Duration
	for _, r := range s.Results {
		answers = append(answers, r.Answers[e]...)
		if clocked {
			clocks = append(clocks, r.ClockLeft[e])
		}
	}
	u := TimeUse{Answers: len(answers), Games: len(clocks)}
	if len(answers) > 0 {
		slices.Sort(answers)
		u.MedianAnswer = answers[len(answers)/2]
		u.LongestAnswer = answers[len(answers)-1]
	}
	if len(clocks) > 0 {
		slices.Sort(clocks)
		u.LeastClockLeft = clocks[0]
		u.MedianClock = clocks[len(clocks)/2]
	}
	return u
}
