// Package engine is damka's rules core: variants, bitboard positions, move
// generation, notation, FEN/PDN and game rules for Russian, English
// (American), Brazilian and international draughts.
//
// Rules, square numbering and reference perft figures follow
// shared/spec/rules.md of the project.
package engine

import (
	"fmt"
	"strings"
)

// VariantID identifies one of the supported variants. It is stored in every
// Position; the zero value is Russian, damka's default variant.
type VariantID uint8

// The supported variants.
const (
	Russian       VariantID = iota // Russian draughts, GameType 25
	English                        // English draughts / American checkers, GameType 21
	Brazilian                      // Brazilian draughts, GameType 26
	International                  // International draughts (10x10), GameType 20
	numVariants
)

// NotationStyle tells how a variant writes its moves.
type NotationStyle uint8

const (
	// Numeric notation: squares by number, "11-15", "14x23" (English, international).
	Numeric NotationStyle = iota
	// Algebraic notation: squares by file and rank, "c3-d4", "c3:e5" (Russian, Brazilian).
	Algebraic
)

// Variant carries the geometry and rule switches of one draughts variant.
// Values are obtained with Rules or ParseVariant and must not be modified.
type Variant struct {
	ID      VariantID
	Name    string   // canonical lower-case name: russian, english, brazilian, international
	Aliases []string // other accepted names (english: american, checkers)

	BoardSize int // 8 or 10 squares along an edge
	Squares   int // 32 or 50 playable (dark) squares
	RowLen    int // playable squares per row: 4 or 5

	MenCaptureBackward bool // men may capture backwards (not English)
	FlyingKings        bool // kings move and capture any distance (not English)
	MajorityRule       bool // the capture taking most pieces is compulsory (Brazilian, international)
	CrownMidCapture    bool // a man reaching the last row during a capture is crowned and goes on as a king (Russian)

	FirstToMove Color         // Black in English, White elsewhere
	Notation    NotationStyle // how moves are written
	GameType    int           // PDN GameType tag value: 25, 21, 26, 20
}

var variants = [numVariants]Variant{
	Russian: {ID: Russian, Name: "russian", BoardSize: 8, Squares: 32, RowLen: 4,
		MenCaptureBackward: true, FlyingKings: true, CrownMidCapture: true,
		FirstToMove: White, Notation: Algebraic, GameType: 25},
	English: {ID: English, Name: "english", Aliases: []string{"american", "checkers"},
		BoardSize: 8, Squares: 32, RowLen: 4,
		FirstToMove: Black, Notation: Numeric, GameType: 21},
	Brazilian: {ID: Brazilian, Name: "brazilian", BoardSize: 8, Squares: 32, RowLen: 4,
		MenCaptureBackward: true, FlyingKings: true, MajorityRule: true,
		FirstToMove: White, Notation: Algebraic, GameType: 26},
	International: {ID: International, Name: "international", BoardSize: 10, Squares: 50, RowLen: 5,
		MenCaptureBackward: true, FlyingKings: true, MajorityRule: true,
		FirstToMove: White, Notation: Numeric, GameType: 20},
}

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
func (v VariantID) Is8x8() bool { return v != International }

// AllVariants lists the supported variants in ID order.
func AllVariants() []VariantID { return []VariantID{Russian, English, Brazilian, International} }

// VariantNames lists the canonical names, in ID order.
func VariantNames() []string {
	names := make([]string, numVariants)
	for i := range variants {
		names[i] = variants[i].Name
	}
	return names
}

// ParseVariant returns the variant named s (case-insensitive; aliases such as
// "american" accepted). The error lists the accepted names.
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
	return 0, fmt.Errorf("unknown variant %q (want one of %s, or american)", s, strings.Join(VariantNames(), ", "))
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
	return 0, fmt.Errorf("unsupported GameType %q (want 20, 21, 25 or 26)", tag)
}
