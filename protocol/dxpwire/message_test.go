package dxpwire

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/damka-draughts/damka/engine"
)

// startBoard10 is the international start position as a DXP position.
const startBoard10 = "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww"

// goldenMessages pairs every message kind with its exact wire form, the
// spec's examples included.
var goldenMessages = []struct {
	name string
	wire string
	msg  Message
}{
	{"gamereq spec example", "R01Tornado voor Windows 4.0        W060065A",
		&GameReq{Version: 1, Name: "Tornado voor Windows 4.0", FollowerColor: engine.White, Minutes: 60, Moves: 65}},
	{"gamereq black no limit", "R01damka                           Z005000A",
		&GameReq{Version: 1, Name: "damka", FollowerColor: engine.Black, Minutes: 5, Moves: 0}},
	{"gamereq position 10x10", "R01Kingsrow                        Z001075BW" + startBoard10,
		&GameReq{Version: 1, Name: "Kingsrow", FollowerColor: engine.Black, Minutes: 1, Moves: 75,
			Setup: true, ToMove: engine.White, Board: startBoard10}},
	{"gamereq position 8x8 kings", "R01x                               W999999BZ" + "Zeeeeeeeeeeeeeeeeeeeeeeeeeeeeeew",
		&GameReq{Version: 1, Name: "x", FollowerColor: engine.White, Minutes: 999, Moves: 999,
			Setup: true, ToMove: engine.Black, Board: "Zeeeeeeeeeeeeeeeeeeeeeeeeeeeeeew"}},
	{"gamereq 32-char name", "R0112345678901234567890123456789012W001001A",
		&GameReq{Version: 1, Name: "12345678901234567890123456789012", Minutes: 1, Moves: 1}},
	{"gameacc accepted", "Adamka                           0", &GameAcc{Name: "damka", Code: AccAccepted}},
	{"gameacc wrong version", "AScan 3.1                        1", &GameAcc{Name: "Scan 3.1", Code: AccWrongVersion}},
	{"gameacc refused", "A                                2", &GameAcc{Name: "", Code: AccRefused}},
	{"gameacc no games", "AMoby Dam                        3", &GameAcc{Name: "Moby Dam", Code: AccNoGames}},
	{"move spec quiet", "M0012061100", &Move{Seconds: 12, From: 6, To: 11}},
	{"move spec capture", "M001205250422122320", &Move{Seconds: 12, From: 5, To: 25, Captured: []int{22, 12, 23, 20}}},
	{"move max", "M9999504901" + "01", &Move{Seconds: 9999, From: 50, To: 49, Captured: []int{1}}},
	{"gameend ack", "E00", &GameEnd{Reason: EndNone, Stop: StopContinue}},
	{"gameend lose", "E10", &GameEnd{Reason: EndLose, Stop: StopContinue}},
	{"gameend draw no more", "E21", &GameEnd{Reason: EndDraw, Stop: StopNoMore}},
	{"gameend win", "E30", &GameEnd{Reason: EndWin, Stop: StopContinue}},
	{"chat", "CHello, good luck!", &Chat{Text: "Hello, good luck!"}},
	{"chat one char", "C ", &Chat{Text: " "}},
	{"backreq", "B012Z", &BackReq{MoveNumber: 12, ToMove: engine.Black}},
	{"backreq first", "B001W", &BackReq{MoveNumber: 1, ToMove: engine.White}},
	{"backacc accepted", "K0", &BackAcc{Code: BackAccepted}},
	{"backacc refused", "K2", &BackAcc{Code: BackRefused}},
}

func TestGoldenEncode(t *testing.T) {
	for _, tc := range goldenMessages {
		got, err := Encode(tc.msg)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.wire, string(got), tc.name)
		assert.LessOrEqual(t, len(got), MaxMessageLen, tc.name)
	}
	// The spec's lengths: 43 with A, 94 with B on 10x10.
	assert.Len(t, goldenMessages[0].wire, 43)
	assert.Len(t, goldenMessages[2].wire, 94)
}

func TestGoldenDecode(t *testing.T) {
	for _, tc := range goldenMessages {
		got, err := Decode([]byte(tc.wire))
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.msg, got, tc.name)
		assert.Equal(t, tc.msg.Kind(), got.Kind(), tc.name)
	}
}

func TestRoundTrip(t *testing.T) {
	long := strings.Repeat("x", MaxChatText)
	caps := make([]int, maxCaptured)
	for i := range caps {
		caps[i] = i + 1
	}
	msgs := []Message{
		&GameReq{Version: 99, Name: " lead space", FollowerColor: engine.Black, Setup: true, ToMove: engine.White,
			Board: strings.Repeat("e", 50)},
		&Move{Seconds: 0, From: 1, To: 1, Captured: caps},
		&Chat{Text: long},
		&BackReq{MoveNumber: 999, ToMove: engine.White},
		&GameAcc{Name: strings.Repeat("n", NameLen), Code: 9},
	}
	for _, m := range msgs {
		b, err := Encode(m)
		require.NoError(t, err)
		require.LessOrEqual(t, len(b), MaxMessageLen)
		back, err := Decode(b)
		require.NoError(t, err, string(b))
		assert.Equal(t, m, back)
	}
}

func TestEncodeErrors(t *testing.T) {
	cases := []struct {
		msg  Message
		want string
	}{
		{&GameReq{Version: 1, Name: strings.Repeat("n", 33)}, "longer than 32"},
		{&GameReq{Version: 100}, "version: 100 does not fit 2 digits"},
		{&GameReq{Version: 1, Minutes: 1000}, "minutes: 1000"},
		{&GameReq{Version: 1, Moves: -1}, "moves: -1"},
		{&GameReq{Version: 1, Name: "é"}, "not ASCII"},
		{&GameReq{Version: 1, Setup: true, Board: "eee"}, "3 squares"},
		{&GameReq{Version: 1, Setup: true, Board: strings.Repeat("b", 50)}, `square 1 is 'b'`},
		{&GameReq{Version: 1, FollowerColor: 2}, "follower colour"},
		{&Move{Seconds: 10000, From: 1, To: 2}, "seconds: 10000"},
		{&Move{From: 0, To: 2}, "from: square 0"},
		{&Move{From: 1, To: 100}, "to: 100"},
		{&Move{From: 1, To: 2, Captured: []int{0}}, "captured: square 0"},
		{&Move{From: 1, To: 2, Captured: make([]int, maxCaptured+1)}, "do not fit"},
		{&GameEnd{Reason: 4}, "reason: 4"},
		{&GameEnd{Stop: 2}, "stop code: 2"},
		{&Chat{}, "empty"},
		{&Chat{Text: strings.Repeat("x", 127)}, "127 characters"},
		{&Chat{Text: "a\x00b"}, "not ASCII"},
		{&BackReq{MoveNumber: 1000}, "move number"},
		{&BackAcc{Code: 10}, "code: 10"},
		{&GameAcc{Code: -1}, "code: -1"},
	}
	for _, tc := range cases {
		b, err := tc.msg.AppendEncode([]byte("keep"))
		assert.ErrorContains(t, err, tc.want, "%#v", tc.msg)
		assert.Equal(t, "keep", string(b), "buffer unchanged on error")
		var ee *EncodeError
		assert.ErrorAs(t, err, &ee)
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		wire string
		want string
	}{
		{"", "empty message"},
		{"X123", `unknown message type 'X'`},
		{"M0012061100\x80", "byte 0x80 at offset 11"},
		{strings.Repeat("C", 128), "128 characters, at most 127"},
		{"R01Tornado voor Windows 4.0        W060065", "42 characters"},
		{"R0xTornado voor Windows 4.0        W060065A", "version at offset 1"},
		{"R01Tornado voor Windows 4.0        B060065A", "follower colour at offset 35: 'B' is not W or Z"},
		{"R01Tornado voor Windows 4.0        W06a065A", "minutes at offset 36"},
		{"R01Tornado voor Windows 4.0        W060o65A", "moves at offset 39"},
		{"R01Tornado voor Windows 4.0        W060065C", "start position at offset 42"},
		{"R01Tornado voor Windows 4.0        W060065AW" + strings.Repeat("e", 50), "after 'A'"},
		{"R01Tornado voor Windows 4.0        W060065BX" + strings.Repeat("e", 50), "side to move at offset 43"},
		{"R01Tornado voor Windows 4.0        W060065BW" + strings.Repeat("e", 49) + "b", "square 50 is 'b'"},
		{"R01Tornado voor Windows 4.0        W060065BW" + strings.Repeat("e", 40), "84 characters"},
		{"Adamka                           ", "33 characters, want 34"},
		{"Adamka                           x", "code at offset 33"},
		{"M001206110", "10 characters, want at least 11"},
		{"M00120611000", "0 captured squares announced, 1 characters follow"},
		{"M0012052504221223", "4 captured squares announced, 6 characters follow (want 8)"},
		{"M0012000100", "from at offset 5: square 00"},
		{"M0012010000", "to at offset 7: square 00"},
		{"M00120125010x", "captured at offset 11"},
		{"M001201250100", "captured at offset 11: square 00"},
		{"M 012061100", "seconds at offset 1"},
		{"E0", "2 characters, want 3"},
		{"E40", "reason at offset 1: 4 is not 0..3"},
		{"E02", "stop code at offset 2"},
		{"Ex0", "reason at offset 1"},
		{"C", "text at offset 1: empty"},
		{"B01W", "4 characters, want 5"},
		{"B001X", "side to move at offset 4"},
		{"K", "1 characters, want 2"},
		{"Kx", "code at offset 1"},
	}
	for _, tc := range cases {
		m, err := Decode([]byte(tc.wire))
		assert.Nil(t, m, "%q", tc.wire)
		assert.ErrorContains(t, err, tc.want, "%q", tc.wire)
		var de *DecodeError
		assert.ErrorAs(t, err, &de, "%q", tc.wire)
		// Short enough for a CHAT that names it.
		assert.Less(t, len(err.Error()), 2*MaxMessageLen, "%q", tc.wire)
	}
}

func TestKindNames(t *testing.T) {
	names := map[Kind]string{KindGameReq: "GAMEREQ", KindGameAcc: "GAMEACC", KindMove: "MOVE", KindGameEnd: "GAMEEND",
		KindChat: "CHAT", KindBackReq: "BACKREQ", KindBackAcc: "BACKACC", 'X': "'X'"}
	for k, n := range names {
		assert.Equal(t, n, k.String())
	}
	assert.Equal(t, "I win", EndWin.String())
	assert.Equal(t, "no games at all", AccNoGames.String())
}

// FuzzDecode checks that Decode never panics and that whatever it accepts
// encodes back to the same bytes (the format has one spelling per message).
func FuzzDecode(f *testing.F) {
	for _, tc := range goldenMessages {
		f.Add([]byte(tc.wire))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			if m != nil {
				t.Fatalf("Decode(%q) returned a message and an error", b)
			}
			return
		}
		out, err := Encode(m)
		if err != nil {
			t.Fatalf("Decode(%q) = %#v, which does not encode: %v", b, m, err)
		}
		if string(out) != string(b) {
			t.Fatalf("Decode(%q) re-encodes as %q", b, out)
		}
	})
}
