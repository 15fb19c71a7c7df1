package match

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSummaryTimeUse(t *testing.T) {
	ms := time.Millisecond
	s := Summary{Results: []GameResult{
		{Answers: [2][]time.Duration{{90 * ms, 10 * ms, 95 * ms}, {50 * ms}}, ClockLeft: [2]time.Duration{3 * time.Second, time.Second}},
		{Answers: [2][]time.Duration{{99 * ms, 97 * ms}, {40 * ms, 60 * ms}}, ClockLeft: [2]time.Duration{time.Second, 2 * time.Second}},
		{Answers: [2][]time.Duration{nil, {45 * ms}}, ClockLeft: [2]time.Duration{2 * time.Second, 5 * time.Second}},
	}}
	a := s.TimeUse(0, true)
	assert.Equal(t, TimeUse{Answers: 5, MedianAnswer: 95 * ms, LongestAnswer: 99 * ms,
		Games: 3, LeastClockLeft: time.Second, MedianClock: 2 * time.Second}, a)
	b := s.TimeUse(1, false)
	assert.Equal(t, TimeUse{Answers: 4, MedianAnswer: 50 * ms, LongestAnswer: 60 * ms}, b)
	assert.Equal(t, TimeUse{}, (&Summary{}).TimeUse(0, true))
}
