package engine

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRulesTableRows checks that every row of the rules table is complete
// and consistent: a known board whose fields the row carries, a start
// position with the board's men, unique names, aliases and GameTypes, and
// the hot-path board index agreeing with the row.
func TestRulesTableRows(t *testing.T) {
	names := map[string]VariantID{}
	gameTypes := map[int]VariantID{}
	assert.Len(t, AllVariants(), int(NumVariants))
	for i, v := range AllVariants() {
		require.Equal(t, VariantID(i), v)
		r := v.Rules()
		assert.Equal(t, v, r.ID, "row %d has the ID of another variant", i)
		assert.NotEmpty(t, r.Name, "%d: no name", i)
		require.Less(t, r.Board, numBoards, "%s: unknown board", v)
		b := r.Board.Info()
		assert.Equal(t, b.Size, r.BoardSize, "%s board size", v)
		assert.Equal(t, b.Squares, r.Squares, "%s squares", v)
		assert.Equal(t, b.RowLen, r.RowLen, "%s row length", v)
		assert.Equal(t, b.Size*b.Size/2, b.Squares, "%s: squares of a %s board", v, r.Board)
		assert.Equal(t, r.Board, v.Board())
		assert.Equal(t, r.Board == Board8x8, v.Is8x8())
		assert.Equal(t, r.Board, boardOf[v.slot()], "%s: boardOf", v)
		assert.NotZero(t, r.GameType, "%s: no PDN GameType", v)

		for _, n := range append([]string{r.Name}, r.Aliases...) {
			assert.Equal(t, strings.ToLower(n), n, "%s: names are lower case", v)
			if w, dup := names[n]; dup {
				t.Errorf("name %q of %s is also a name of %s", n, v, w)
			}
			names[n] = v
			got, err := ParseVariant(strings.ToUpper(n))
			assert.NoError(t, err, n)
			assert.Equal(t, v, got, n)
		}
		if w, dup := gameTypes[r.GameType]; dup {
			t.Errorf("GameType %d of %s is also that of %s", r.GameType, v, w)
		}
		gameTypes[r.GameType] = v
		got, err := VariantFromGameType(strconv.Itoa(r.GameType) + ",W,8,8,A0,0")
		assert.NoError(t, err)
		assert.Equal(t, v, got)

		p := StartPosition(v)
		for c := White; c <= Black; c++ {
			men, kings := p.Count(c)
			assert.Equal(t, b.Men, men, "%s start men of %s", v, c)
			assert.Zero(t, kings)
		}
		assert.Equal(t, r.FirstToMove, p.Side)
		assert.Zero(t, p.Occupied()&^boardMask(v), "%s: start pieces off the board", v)
		assert.Zero(t, promoMask(v, White)&promoMask(v, Black))
	}
}

// TestVariantAliases checks the aliases the front ends rely on (Scan's
// "normal", pydraughts' "standard", "american" and "checkers") and that the
// error for an unknown name lists the names and aliases from the table.
func TestVariantAliases(t *testing.T) {
	for alias, want := range map[string]VariantID{
		"american": English, "checkers": English, "Normal": International, " standard ": International,
	} {
		v, err := ParseVariant(alias)
		require.NoError(t, err, alias)
		assert.Equal(t, want, v, alias)
	}
	assert.Equal(t, "american and checkers for english, normal and standard for international", AliasText())
	_, err := ParseVariant("frisian")
	require.Error(t, err)
	assert.ErrorContains(t, err, `unknown variant "frisian"`)
	assert.ErrorContains(t, err, strings.Join(VariantNames(), ", "))
	assert.ErrorContains(t, err, AliasText())
	_, err = VariantFromGameType("29")
	assert.EqualError(t, err, `unsupported GameType "29" (want 20, 21, 25 or 26)`)
}

// TestCaptureScore checks the capture priority rules' scores: every
// sequence alike under CaptureAny, the number of pieces under
// CaptureMajority.
func TestCaptureScore(t *testing.T) {
	for n := uint8(1); n < 20; n++ {
		assert.Zero(t, captureScore(CaptureAny, n))
		assert.Equal(t, n, captureScore(CaptureMajority, n))
	}
	assert.Equal(t, "majority", CaptureMajority.String())
	assert.Equal(t, "10x10", Board10x10.String())
}
