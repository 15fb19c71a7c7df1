// board.go: CheckerBoard's board, square and move representation and its
// conversion to and from damka positions and moves.

package cb

import (
	"errors"
	"fmt"

	"github.com/damka-draughts/damka/engine"
)

// Piece and colour codes of a Board square and of getmove's color argument
// (cb_interface.h). A square holds Free or a colour ORed with Man or King:
// a black king is Black|King (10).
const (
	Free  = 0
	White = 1
	Black = 2
	Man   = 4
	King  = 8
)

// Return values of getmove, from the side to move's point of view; CheckerBoard
// uses them only to adjudicate engine matches.
const (
	ResultDraw    = 0
	ResultWin     = 1
	ResultLoss    = 2
	ResultUnknown = 3
)

// Game types of "get gametype" and "set gametype" (GameType tag numbers).
const (
	GameEnglish   = 21
	GameRussian   = 25
	GameBrazilian = 26
)

// The info argument of getmove: bit 0 is the legacy "reset moves", bit 1
// asks for exactly maxtime, bits 2-3 select incremental time and its unit
// (moreinfo then packs the remaining time in its upper and the increment in
// its lower 16 bits).
const (
	InfoResetMoves    = 1
	InfoExactTime     = 2
	InfoIncrTimeShift = 2
)

// Board is CheckerBoard's board8x8, indexed [x][y] (see the package
// comment). Its layout is C's int[8][8] on Windows (int is 32 bits), so the
// DLL can use the caller's array in place.
type Board [8][8]int32

// Coor is CheckerBoard's struct coor: a square's x and y, each 0..7.
type Coor struct{ X, Y int32 }

// Move is CheckerBoard's struct CBmove, with C's layout: the number of
// pieces jumped, the piece codes leaving From and arriving on To, the
// landing squares of the jumps in Path[1..Jumps] (Path[0] repeats From), the
// captured squares in Del[0..Jumps-1] in the order they are jumped and their
// piece codes in DelPiece.
type Move struct {
	Jumps    int32
	NewPiece int32
	OldPiece int32
	From     Coor
	To       Coor
	Path     [12]Coor
	Del      [12]Coor
	DelPiece [12]int32
}

// SquareCoor returns the board coordinates of square n (1..32), as
// CheckerBoard's numbertocoors does for English, Russian and Brazilian.
func SquareCoor(n int) Coor {
	k := n - 1
	y := k / 4
	x := 2 * (3 - k%4)
	if y%2 == 1 {
		x++
	}
	return Coor{X: int32(x), Y: int32(y)}
}

// CoorSquare returns the square number (1..32) of the dark square (x, y),
// and 0 for a light square or coordinates off the board.
func CoorSquare(x, y int) int {
	if x < 0 || x > 7 || y < 0 || y > 7 || (x+y)%2 != 0 {
		return 0
	}
	return 4*(y+1) - x/2
}

// Variant returns damka's variant of a CheckerBoard game type, or an error
// for game types damka does not play.
func Variant(gametype int) (engine.VariantID, error) {
	switch gametype {
	case GameEnglish:
		return engine.English, nil
	case GameRussian:
		return engine.Russian, nil
	case GameBrazilian:
		return engine.Brazilian, nil
	}
	return 0, fmt.Errorf("game type %d is not played by damka (want %d English, %d Russian or %d Brazilian)",
		gametype, GameEnglish, GameRussian, GameBrazilian)
}

// GameType returns the CheckerBoard game type of an 8x8 variant, 0 for
// international.
func GameType(v engine.VariantID) int {
	switch v {
	case engine.English:
		return GameEnglish
	case engine.Russian:
		return GameRussian
	case engine.Brazilian:
		return GameBrazilian
	}
	return 0
}

// colorOf converts getmove's color argument.
func colorOf(color int) (engine.Color, error) {
	switch color {
	case White:
		return engine.White, nil
	case Black:
		return engine.Black, nil
	}
	return 0, fmt.Errorf("color %d is neither CB_WHITE (1) nor CB_BLACK (2)", color)
}

// cbColor is the CheckerBoard colour code of c.
func cbColor(c engine.Color) int32 {
	if c == engine.Black {
		return Black
	}
	return White
}

// pieceCode returns the CheckerBoard code of a damka piece.
func pieceCode(pc engine.Piece) int32 {
	switch pc {
	case engine.WhiteMan:
		return White | Man
	case engine.BlackMan:
		return Black | Man
	case engine.WhiteKing:
		return White | King
	case engine.BlackKing:
		return Black | King
	}
	return Free
}

// errNoBoard is returned for a nil board.
var errNoBoard = errors.New("no board (nil pointer)")

// ToPosition reads board b with color to move as a position of variant v.
// Errors name the first bad square: a code other than Free or a colour with
// Man or King, or a piece on a light square. A man on its crowning row is
// accepted (CheckerBoard's setup mode allows it).
func ToPosition(v engine.VariantID, b *Board, color int) (engine.Position, error) {
	if b == nil {
		return engine.Position{}, errNoBoard
	}
	side, err := colorOf(color)
	if err != nil {
		return engine.Position{}, err
	}
	var white, black, kings uint64
	for x := 0; x < 8; x++ {
		for y := 0; y < 8; y++ {
			c := b[x][y]
			if c == Free {
				continue
			}
			n := CoorSquare(x, y)
			if n == 0 {
				return engine.Position{}, fmt.Errorf("board[%d][%d] = %d: a piece on a light square", x, y, c)
			}
			bit := uint64(1) << (n - 1)
			switch c {
			case White | Man:
				white |= bit
			case Black | Man:
				black |= bit
			case White | King:
				white |= bit
				kings |= bit
			case Black | King:
				black |= bit
				kings |= bit
			default:
				return engine.Position{}, fmt.Errorf("board[%d][%d] (square %d) = %d: not a piece code (want 0, 5, 6, 9 or 10)", x, y, n, c)
			}
		}
	}
	return engine.PositionFromSquares(v, white, black, kings, side)
}

// FromPosition returns the board of an 8x8 position p.
func FromPosition(p *engine.Position) Board {
	var b Board
	for n := 1; n <= 32; n++ {
		c := SquareCoor(n)
		b[c.X][c.Y] = pieceCode(p.PieceAt(engine.Square(n)))
	}
	return b
}

// squareBit is the bit of square n in PositionFromSquares' masks.
func squareBit(n engine.Square) uint64 { return 1 << (n - 1) }

// capturedSquares returns the squares captured by m in p, in ascending
// order.
func capturedSquares(p *engine.Position, m engine.Move) []engine.Square {
	if !m.IsCapture() {
		return nil
	}
	q := p.Play(m)
	wq, bq, _ := q.Squares()
	wp, bp, _ := p.Squares()
	gone := (wp | bp) &^ (wq | bq)
	var out []engine.Square
	for n := engine.Square(1); n <= 32; n++ {
		if gone&squareBit(n) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// jumps returns, for each jump of capture m in p, its landing square and
// the square it captures, in order. The landing squares come from
// Position.Path; the captured square of a jump is the one of m's captured
// pieces on the diagonal between two landing squares.
func jumps(p *engine.Position, m engine.Move) (landed, captured []engine.Square) {
	path := p.Path(m)
	capt := capturedSquares(p, m)
	set := map[engine.Square]bool{}
	for _, s := range capt {
		set[s] = true
	}
	for i := 1; i < len(path); i++ {
		a, b := SquareCoor(int(path[i-1])), SquareCoor(int(path[i]))
		dx, dy := sign(b.X-a.X), sign(b.Y-a.Y)
		var hit engine.Square
		for x, y := a.X+dx, a.Y+dy; x != b.X && x >= 0 && x < 8 && y >= 0 && y < 8; x, y = x+dx, y+dy {
			if s := engine.Square(CoorSquare(int(x), int(y))); set[s] {
				hit = s
				break
			}
		}
		landed = append(landed, path[i])
		captured = append(captured, hit)
		delete(set, hit)
	}
	return landed, captured
}

func sign(d int32) int32 {
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

// ToMove describes the legal move m of p as a CBmove: piece codes, From
// and To, the landing squares in Path[1..] and the captured squares and
// pieces in jump order. A capture of more than 11 pieces (not possible on
// 8x8) keeps its first 11 jumps in Path and Del.
func ToMove(p *engine.Position, m engine.Move) Move {
	path := p.Path(m)
	var cm Move
	if len(path) == 0 {
		return cm
	}
	from, to := path[0], path[len(path)-1]
	cm.From, cm.To = SquareCoor(int(from)), SquareCoor(int(to))
	cm.OldPiece = pieceCode(p.PieceAt(from))
	q := p.Play(m)
	cm.NewPiece = pieceCode(q.PieceAt(to))
	cm.Path[0] = cm.From
	if !m.IsCapture() {
		cm.Path[1] = cm.To
		return cm
	}
	landed, captured := jumps(p, m)
	cm.Jumps = int32(len(captured))
	for i := range captured {
		if i+1 >= len(cm.Path) {
			break
		}
		cm.Path[i+1] = SquareCoor(int(landed[i]))
		cm.Del[i] = SquareCoor(int(captured[i]))
		cm.DelPiece[i] = pieceCode(p.PieceAt(captured[i]))
	}
	return cm
}
