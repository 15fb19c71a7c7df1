package learn

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/egdb"
	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
)

// fakeTables says v (distance dist) for the side to move of every position
// of at most pieces pieces.
type fakeTables struct {
	pieces int
	v      egdb.Value
	dist   int
}

func (f fakeTables) Probe(p *engine.Position) (egdb.Value, int, bool) { return f.v, f.dist, true }
func (f fakeTables) Pieces(engine.VariantID) int                      { return f.pieces }

// gameFile writes one game from fen, plies long, of quiet moves chosen by
// pick (the index of a move among the legal ones, or -1 to stop), every
// move with a search score, with the given result, and returns the file.
func gameFile(t *testing.T, v engine.VariantID, fen string, plies int, result engine.Result, pick func(p *engine.Position, l *engine.MoveList) int) []byte {
	t.Helper()
	p, err := engine.ParseFEN(v, fen)
	require.NoError(t, err)
	rec := pdn.Record{Start: p, Result: result, Reason: engine.ReasonNone}
	var l engine.MoveList
	for range plies {
		p.Generate(&l)
		k := pick(&p, &l)
		if k < 0 {
			break
		}
		rec.Moves = append(rec.Moves, l.Moves[k])
		rec.Scores = append(rec.Scores, 10)
		p = p.Play(l.Moves[k])
	}
	require.NotEmpty(t, rec.Moves)
	var buf bytes.Buffer
	gw, err := pdn.NewRecordWriter(&buf, v, "egdb label test")
	require.NoError(t, err)
	require.NoError(t, gw.Write(&rec))
	require.NoError(t, gw.Flush())
	return buf.Bytes()
}

// kingShuffle picks the first king move after which the opponent has no
// capture: the men stand still, so the draw rules' counters run.
func kingShuffle(p *engine.Position, l *engine.MoveList) int {
	for k := 0; k < l.N; k++ {
		m := l.Moves[k]
		if p.Kings&(uint64(1)<<m.From) == 0 || m.Captured != 0 {
			continue
		}
		if q := p.Play(m); !q.HasCapture() {
			return k
		}
	}
	return -1
}

// TestEGDBLabels checks that the tables' value replaces the game result
// (for White: a win of the side to move is 1 with White to move, 0 with
// Black), only while the draw rules leave egdb.TrustPlies plies for a
// value without a distance, and that a draw is always taken.
func TestEGDBLabels(t *testing.T) {
	v := engine.Russian
	// Kings and men, nothing can capture: only kings move, so the Russian
	// 15-move rule (30 plies of king moves) runs down.
	data := gameFile(t, v, "W:WKa1,c1:BKh6,f8", 26, engine.Draw, kingShuffle)

	plain := &Data{V: v}
	require.NoError(t, plain.ReadGames(bytes.NewReader(data), "x"))
	require.NotEmpty(t, plain.Samples)
	for _, s := range plain.Samples {
		assert.False(t, s.Exact)
		assert.Equal(t, float32(0.5), s.Result)
	}

	d := &Data{V: v, EGDB: fakeTables{pieces: 4, v: egdb.Win, dist: -1}}
	require.NoError(t, d.ReadGames(bytes.NewReader(data), "x"))
	require.Len(t, d.Samples, len(plain.Samples))
	p, err := engine.ParseFEN(v, "W:WKa1,c1:BKh6,f8")
	require.NoError(t, err)
	var ds engine.DrawState
	exact, inexact := 0, 0
	gr, err := pdn.NewRecordReader(bytes.NewReader(data))
	require.NoError(t, err)
	rec, err := gr.Next()
	require.NoError(t, err)
	for i, m := range rec.Moves {
		s := d.Samples[i]
		if ds.PliesToRule(&p) >= egdb.TrustPlies {
			exact++
			assert.True(t, s.Exact, "ply %d", i)
			want := float32(1)
			if p.Side == engine.Black {
				want = 0
			}
			assert.Equal(t, want, s.Result, "ply %d", i)
			assert.Equal(t, want, target(&s, 0.5, 100), "ply %d: an exact label is not blended with the score", i)
		} else {
			inexact++
			assert.False(t, s.Exact, "ply %d: %d plies to the rule", i, ds.PliesToRule(&p))
			assert.Equal(t, float32(0.5), s.Result, "ply %d", i)
		}
		ds = ds.Update(&p, m)
		p = p.Play(m)
	}
	assert.Equal(t, 11, exact, "plies 0..10 leave 30..20 plies to the 15-move rule")
	assert.Positive(t, inexact)
	assert.Equal(t, exact, d.Exact)
	assert.Equal(t, exact, d.Corrected, "every exact label differs from the drawn game")

	// A table draw is the value whatever the counters say.
	dd := &Data{V: v, EGDB: fakeTables{pieces: 4, v: egdb.Draw, dist: -1}}
	require.NoError(t, dd.ReadGames(bytes.NewReader(data), "x"))
	assert.Equal(t, len(dd.Samples), dd.Exact)
	assert.Zero(t, dd.Corrected)

	// Positions with more pieces than the tables hold keep their results.
	d3 := &Data{V: v, EGDB: fakeTables{pieces: 3, v: egdb.Win, dist: -1}}
	require.NoError(t, d3.ReadGames(bytes.NewReader(data), "x"))
	assert.Zero(t, d3.Exact)
}

// TestEGDBLabelsEmbedded labels an English game with the embedded tables:
// a man and a king against a king wins, whatever the game's result says.
func TestEGDBLabelsEmbedded(t *testing.T) {
	v := engine.English
	fen := "W:WK29,10:BK4"
	p, err := engine.ParseFEN(v, fen)
	require.NoError(t, err)
	val, _, ok := egdb.Default().Probe(&p)
	require.True(t, ok)
	require.Equal(t, egdb.Win, val)
	first := func(p *engine.Position, l *engine.MoveList) int {
		if l.N == 0 {
			return -1
		}
		return 0
	}
	data := gameFile(t, v, fen, 1, engine.BlackWins, first)
	d := &Data{V: v, EGDB: egdb.Default()}
	require.NoError(t, d.ReadGames(bytes.NewReader(data), "x"))
	require.Len(t, d.Samples, 1)
	assert.True(t, d.Samples[0].Exact)
	assert.Equal(t, float32(1), d.Samples[0].Result)
	assert.Equal(t, 1, d.Corrected)
}
