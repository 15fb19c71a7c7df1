// Package engine is damka's rules core: variants, bitboard positions, move
// generation, notation, FEN and game rules for Russian, English
// (American), Brazilian and international draughts.
//
// Rules, square numbering and reference perft figures follow
// docs/rules.md of the project.
package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// VariantID identifies one of the supported variants. It is stored in every
// Position; the zero value is Russian, damka's default variant.
type VariantID uint8

// The supported variants. A new variant is a constant here, a row of the
// variants table below and, when it needs a rule no kind below expresses
// yet, a new kind (CapturePriority, DrawRules) and its case.
const (
	Russian       VariantID = iota // Russian draughts, GameType 25
	English                        // English draughts / American checkers, GameType 21
	Brazilian                      // Brazilian draughts, GameType 26
	International                  // International draughts (10x10), GameType 20
	numVariants
)

// NumVariants is the number of supported variants: VariantIDs run from 0 to
// NumVariants-1. Tables indexed by variant (eval's weights, for one) are
// sized by it.
const NumVariants = numVariants

// variantSlots is the length of the hot-path tables indexed by
// p.V&(variantSlots-1): a power of two at least NumVariants, so that the
// index needs no bounds check. The declaration below fails to compile when a
// new variant outgrows it.
const variantSlots = 8

var _ [variantSlots - numVariants]struct{} // raise variantSlots (a power of two) when this fails

// slot returns v as an index into a variantSlots table.
func (v VariantID) slot() uint8 { return uint8(v) & (variantSlots - 1) }

// NotationStyle tells how a variant writes its moves.
type NotationStyle uint8

const (
	// Numeric notation: squares by number, "11-15", "14x23" (English, international).
	Numeric NotationStyle = iota
	// Algebraic notation: squares by file and rank, "c3-d4", "c3:e5" (Russian, Brazilian).
	Algebraic
)

// CapturePriority is a variant's rule for which of the available captures
// may be played (captures are compulsory in every variant). A rule orders
// the capture sequences by a score (captureScore); only the sequences of
// the highest score are legal.
type CapturePriority uint8

const (
	// CaptureAny: every capture sequence is legal, whatever it takes
	// (Russian, English). All sequences score the same.
	CaptureAny CapturePriority = iota
	// CaptureMajority: the sequence taking the most pieces is compulsory,
	// men and kings counting alike (Brazilian, international). The score is
	// the number of pieces captured.
	CaptureMajority
	// Rules that also weigh kings (Italian quality, Frisian values) are a
	// new kind here and a case in captureScore.
)

// String returns "any" or "majority".
func (c CapturePriority) String() string {
	switch c {
	case CaptureAny:
		return "any"
	case CaptureMajority:
		return "majority"
	}
	return fmt.Sprintf("capture-priority(%d)", uint8(c))
}

// captureScore is the score of a capture sequence that takes n pieces under
// rule c; the legal sequences are those of the highest score. It is on the
// move generator's hot path and allocates nothing. The generators' quick
// path (quickCaptures8x8) lists every one-piece capture by a man without
// scoring it: it relies on those all scoring the same, as they do under
// both rules here. A rule that tells them apart (one that prefers taking a
// king) must also turn the quick path off for its variants.
func captureScore(c CapturePriority, n uint8) uint8 {
	if c == CaptureMajority {
		return n
	}
	return 0
}

// DrawRules names the set of draw rules (other than repetition) a variant
// plays by; DrawState.Reason applies them.
type DrawRules uint8

const (
	// DrawRulesRussian: the Russian rules (three kings against one, kings
	// only, piece-count endings).
	DrawRulesRussian DrawRules = iota
	// DrawRulesEnglish: the 40-move rule of English checkers.
	DrawRulesEnglish
	// DrawRulesFMJD: the FMJD rules (kings only, three against one, small
	// endings), for Brazilian and international draughts.
	DrawRulesFMJD
)

// Board identifies a board and its padded bitboard layout (geom.go). Every
// board has its own move generator, generated from movegen_8x8.go by
// internal/genboard.
type Board uint8

// The boards.
const (
	Board8x8   Board = iota // 8x8, 32 playable squares
	Board10x10              // 10x10, 50 playable squares
	numBoards
)

// BoardInfo describes one board: its size and the start position's men.
type BoardInfo struct {
	Size    int // squares along an edge: 8 or 10
	Squares int // playable (dark) squares: 32 or 50
	RowLen  int // playable squares per row: 4 or 5
	Men     int // men per side in the start position: 12 or 20

	mask  uint64    // playable bits of the padded layout
	promo [2]uint64 // bits of the row where White (index 0) and Black crown
}

// boards is the board table, indexed by Board.
var boards = [numBoards]BoardInfo{
	Board8x8: {Size: 8, Squares: 32, RowLen: 4, Men: 12,
		mask: board8x8, promo: [2]uint64{promoWhite8x8, promoBlack8x8}},
	Board10x10: {Size: 10, Squares: 50, RowLen: 5, Men: 20,
		mask: board10x10, promo: [2]uint64{promoWhite10x10, promoBlack10x10}},
}

// Info returns the description of board b.
func (b Board) Info() *BoardInfo { return &boards[b] }

// String returns "8x8" or "10x10".
func (b Board) String() string {
	if b >= numBoards {
		return fmt.Sprintf("board(%d)", uint8(b))
	}
	return fmt.Sprintf("%dx%d", boards[b].Size, boards[b].Size)
}

// Variant carries the board and rule switches of one draughts variant.
// Values are obtained with Rules or ParseVariant and must not be modified.
type Variant struct {
	ID      VariantID
	Name    string   // canonical lower-case name: russian, english, brazilian, international
	Aliases []string // other accepted names, lower case (english: american, checkers)

	Board     Board // the board and its generator
	BoardSize int   // squares along an edge, 8 or 10 (from Board)
	Squares   int   // playable (dark) squares, 32 or 50 (from Board)
	RowLen    int   // playable squares per row, 4 or 5 (from Board)

	MenCaptureBackward bool            // men may capture backwards (not English)
	FlyingKings        bool            // kings move and capture any distance (not English)
	Capture            CapturePriority // which captures may be chosen (majority: Brazilian, international)
	CrownMidCapture    bool            // a man reaching the last row during a capture is crowned and goes on as a king (Russian)
	Draws              DrawRules       // the draw rules other than repetition

	FirstToMove Color         // Black in English, White elsewhere
	Notation    NotationStyle // how moves are written
	GameType    int           // PDN GameType tag value: 25, 21, 26, 20
}

// variants is the rules table: one row per variant. BoardSize, Squares and
// RowLen are filled in from the row's Board (withBoards), before any init
// function or other package variable reads the table.
var variants = withBoards([numVariants]Variant{
	Russian: {ID: Russian, Name: "russian", Board: Board8x8,
		MenCaptureBackward: true, FlyingKings: true, Capture: CaptureAny, CrownMidCapture: true,
		Draws: DrawRulesRussian, FirstToMove: White, Notation: Algebraic, GameType: 25},
	English: {ID: English, Name: "english", Aliases: []string{"american", "checkers"}, Board: Board8x8,
		Capture: CaptureAny,
		Draws:   DrawRulesEnglish, FirstToMove: Black, Notation: Numeric, GameType: 21},
	Brazilian: {ID: Brazilian, Name: "brazilian", Board: Board8x8,
		MenCaptureBackward: true, FlyingKings: true, Capture: CaptureMajority,
		Draws: DrawRulesFMJD, FirstToMove: White, Notation: Algebraic, GameType: 26},
	// Scan calls international draughts "normal", pydraughts "standard".
	International: {ID: International, Name: "international", Aliases: []string{"normal", "standard"}, Board: Board10x10,
		MenCaptureBackward: true, FlyingKings: true, Capture: CaptureMajority,
		Draws: DrawRulesFMJD, FirstToMove: White, Notation: Numeric, GameType: 20},
})

// withBoards fills in each row's board fields from its Board.
func withBoards(vs [numVariants]Variant) [numVariants]Variant {
	for i := range vs {
		b := &boards[vs[i].Board]
		vs[i].BoardSize, vs[i].Squares, vs[i].RowLen = b.Size, b.Squares, b.RowLen
	}
	return vs
}

// boardOf is each variant's board, indexed by VariantID.slot(): the move
// generator's dispatch reads it without a bounds check.
var boardOf = func() (b [variantSlots]Board) {
	for i := range variants {
		b[variants[i].ID.slot()] = variants[i].Board
	}
	return b
}()

// Rules returns the rule set of v. It panics only for an ID outside the
// declared constants, which no parser produces.
func (v VariantID) Rules() *Variant { return &variants[v] }

// String returns the canonical variant name.
func (v VariantID) String() string {
	if v >= numVariants {
		return fmt.Sprintf("variant(%d)", uint8(v))
	}
	return variants[v].Name
}

// Is8x8 reports whether v is played on the 8x8 board.
func (v VariantID) Is8x8() bool { return boardOf[v.slot()] == Board8x8 }

// Board returns the board v is played on.
func (v VariantID) Board() Board { return boardOf[v.slot()] }

// AllVariants lists the supported variants in ID order.
func AllVariants() []VariantID {
	vs := make([]VariantID, numVariants)
	for i := range vs {
		vs[i] = VariantID(i)
	}
	return vs
}

// VariantNames lists the canonical names, in ID order.
func VariantNames() []string {
	names := make([]string, numVariants)
	for i := range variants {
		names[i] = variants[i].Name
	}
	return names
}

// AliasText describes the accepted aliases from the rules table, for error
// messages: "american and checkers for english, normal and standard for
// international".
func AliasText() string {
	var parts []string
	for i := range variants {
		if a := variants[i].Aliases; len(a) > 0 {
			parts = append(parts, joinWords(a, "and")+" for "+variants[i].Name)
		}
	}
	return strings.Join(parts, ", ")
}

// joinWords joins words as "a", "a and b", "a, b and c" (conj "and").
func joinWords(w []string, conj string) string {
	if len(w) < 2 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " " + conj + " " + w[len(w)-1]
}

// ParseVariant returns the variant named s (case-insensitive; the aliases of
// the rules table, such as "american" or "normal", accepted). The error
// lists the accepted names and aliases.
func ParseVariant(s string) (VariantID, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i := range variants {
		if variants[i].Name == t {
			return variants[i].ID, nil
		}
		for _, a := range variants[i].Aliases {
			if a == t {
				return variants[i].ID, nil
			}
		}
	}
	return 0, fmt.Errorf("unknown variant %q (want one of %s; also accepted: %s)", s, strings.Join(VariantNames(), ", "), AliasText())
}

// VariantFromGameType maps a PDN GameType tag value (20, 21, 25, 26; long
// forms such as "25,W,8,8,A0,0" are accepted) to a variant.
func VariantFromGameType(tag string) (VariantID, error) {
	t := strings.TrimSpace(tag)
	if i := strings.IndexByte(t, ','); i >= 0 {
		t = t[:i]
	}
	for i := range variants {
		if fmt.Sprint(variants[i].GameType) == t {
			return variants[i].ID, nil
		}
	}
	types := make([]int, numVariants)
	for i := range variants {
		types[i] = variants[i].GameType
	}
	slices.Sort(types)
	want := make([]string, len(types))
	for i, g := range types {
		want[i] = strconv.Itoa(g)
	}
	return 0, fmt.Errorf("unsupported GameType %q (want %s)", tag, joinWords(want, "or"))
}
