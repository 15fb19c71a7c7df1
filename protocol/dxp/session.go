// session.go: a DXP session on one connection: its Config, Run, the
// session type and the events its loop handles. The session's methods are
// in files by role: transport.go (reading, writing, closing), initiator.go
// and follower.go (the two roles' loops), play.go and think.go (one game:
// the peer's turn and damka's), record.go (game state, clocks, PDN record)
// and endings.go (GAMEEND either way).

package dxp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/pdn"
	"github.com/damka-draughts/damka/player"
	"github.com/damka-draughts/damka/protocol/dxpwire"
	"github.com/damka-draughts/damka/search"
)

// Role is a session's DXP role (independent of who listens on TCP).
type Role uint8

// The DXP roles.
const (
	// Follower accepts or refuses the games the peer proposes and plays
	// until the peer stops.
	Follower Role = iota
	// Initiator proposes Config.Games games, alternating colours.
	Initiator
)

// String returns "follower" or "initiator".
func (r Role) String() string {
	if r == Initiator {
		return "initiator"
	}
	return "follower"
}

// NameLen is the longest name a GAMEREQ or GAMEACC carries, in bytes;
// Config.Name is cut to it.
const NameLen = dxpwire.NameLen

// Defaults used when a Config field is zero.
const (
	// DefaultAckTimeout is how long a session waits for a GAMEACC or for the
	// acknowledgement of its GAMEEND.
	DefaultAckTimeout = 30 * time.Second
	// DefaultMoveTime is the time per move when the game has no clock (0
	// minutes) and Config.Limits sets no depth, node or time limit.
	DefaultMoveTime = time.Second
	// DefaultName is the name damka gives in GAMEREQ and GAMEACC.
	DefaultName = "damka"
	// DefaultMessageGap is the default of Config.MessageGap: pydraughts'
	// client under heavy CPU load (load average 18-22 on 2 cores) missed
	// a 200 ms gap about once in 50 takebacks, and no 500 ms gap in 150.
	DefaultMessageGap = 500 * time.Millisecond
	// DefaultPeerTimeout is how long a session waits for a silent peer
	// beyond the peer's remaining clock (see Config.PeerTimeout).
	DefaultPeerTimeout = 10 * time.Minute
)

// Config configures a session.
type Config struct {
	// Variant is the variant agreed out of band: both sides set the
	// same. It is the session's, not the player's: Run sets it on Player
	// when the player's variant differs (and logs it).
	Variant engine.VariantID
	Role    Role
	Name    string // our name in GAMEREQ/GAMEACC (default DefaultName; cut to 32 ASCII characters)

	// Player plays damka's side (required): its settings (threads, hash,
	// book, book-margin, book-file, eval-file, egdb-path, egdb-pieces,
	// move-overhead) and the resources they name. The session plays each
	// game through it: Player.NewGame when the game starts, then
	// Player.SetGame and Player.Go (player.Think: the book first, then the
	// search) before each of damka's moves. A player serves one session
	// at a time.
	Player *player.Player

	// Limits are extra per-move limits (Depth, Nodes, MoveTime) for quick
	// games. The session fills in the clock fields (Time, MovesToGo) from
	// the GAMEREQ; a MoveTime takes precedence over the clock. The move
	// overhead is the player's move-overhead setting (Limits.MoveOverhead
	// is not used).
	Limits search.Limits

	// Initiator only: the number of games, the thinking time per player
	// in minutes (0..999) and the move limit (moves per player, 0..999,
	// 0 = none) sent in GAMEREQ, and opening positions: game i starts from
	// Openings[(i/2) % len(Openings)] (each opening is played with both
	// colours), or from the variant's start position when there are none.
	Games    int
	Minutes  int
	Moves    int
	Openings []engine.Position

	// AcceptTakeBack answers BACKREQ with "accepted" and takes the moves
	// back (play against a human); by default BACKREQ is refused (match).
	AcceptTakeBack bool

	// AckTimeout bounds the wait for a GAMEACC or a GAMEEND acknowledgement
	// (default DefaultAckTimeout).
	AckTimeout time.Duration

	// MessageGap is the least time between two messages damka sends with
	// no message from the peer in between (GAMEACC then damka's first
	// MOVE, BACKACC then the MOVE from the position taken back, CHAT then
	// GAMEACC or GAMEEND). Some clients (pydraughts, DXC100) take one
	// socket read for one message and drop the NULs in it, so two
	// messages that reach the socket before the client reads merge into
	// one. TCP_NODELAY and separate writes do not prevent that; a pause
	// long enough for the client to read does. A move answering the
	// peer's move is never delayed, nor a move whose search took longer
	// than the gap (the gap counts from the previous message), and a move
	// waits at most until its time is up (the move time, or a thirtieth
	// of the clock left): a game at 0.05 s a move gets no more gap than
	// that. 0 means DefaultMessageGap; negative: no gap.
	MessageGap time.Duration

	// PeerTimeout bounds the wait for the peer: for its move, at most its
	// remaining clock time (games with a clock) plus PeerTimeout from the
	// start of its turn; for the follower's next GAMEREQ, PeerTimeout.
	// When it passes, a game in progress is ended (GAMEEND without result)
	// and recorded unfinished, and Run returns an error wrapping
	// ErrPeerTimeout. 0 means DefaultPeerTimeout; negative: no limit.
	PeerTimeout time.Duration

	// Event and Site are written as the PDN tags of each game
	// (default "DXP match" and "?").
	Event string
	Site  string

	// Logger receives the session's logs; every message sent and received
	// is logged at debug level.
	Logger zerolog.Logger

	// OnGame, if set, is called (on the session's goroutine) as soon as a
	// game ends, finished or not, before the next one starts.
	OnGame func(*GameRecord)
}

// Outcome is how a game ended for damka.
type Outcome uint8

// The outcomes.
const (
	Unfinished Outcome = iota // no result: disconnect, malformed message, stopped, GAMEEND without result
	Win
	Draw
	Loss
)

// String returns unfinished, win, draw or loss.
func (o Outcome) String() string {
	switch o {
	case Win:
		return "win"
	case Draw:
		return "draw"
	case Loss:
		return "loss"
	}
	return "unfinished"
}

// GameRecord is a game played (or begun) in a session.
type GameRecord struct {
	Round    int           // 1-based number of the game in the session (the initiator's game index)
	Color    engine.Color  // the colour damka played
	Opponent string        // the peer's name from its GAMEREQ or GAMEACC
	Result   engine.Result // engine.Ongoing when unfinished
	Outcome  Outcome       // from damka's side
	Reason   string        // why the game ended, in a few words
	PDN      *pdn.Game     // tags, start position, moves and result token
}

// Summary counts a session's games from damka's side.
type Summary struct {
	Games      int // games begun (accepted)
	Wins       int
	Draws      int
	Losses     int
	Unfinished int
	Refused    int // games the follower refused (initiator) or damka refused (follower)
}

// Add adds o's counts to s.
func (s *Summary) Add(o Summary) {
	s.Games += o.Games
	s.Wins += o.Wins
	s.Draws += o.Draws
	s.Losses += o.Losses
	s.Unfinished += o.Unfinished
	s.Refused += o.Refused
}

// String returns "games=N wins=W draws=D losses=L unfinished=U refused=R"
// (refused games are not among the N games begun).
func (s Summary) String() string {
	return fmt.Sprintf("games=%d wins=%d draws=%d losses=%d unfinished=%d refused=%d",
		s.Games, s.Wins, s.Draws, s.Losses, s.Unfinished, s.Refused)
}

// ErrDisconnected is wrapped by Run's error when the peer closed the
// connection or it failed in the middle of a game or before the initiator's
// games were all played.
var ErrDisconnected = errors.New("peer disconnected")

// ErrPeerTimeout is wrapped by Run's error when the peer sent nothing
// within Config.PeerTimeout (beyond its clock) while damka waited for it.
var ErrPeerTimeout = errors.New("the peer went silent")

// Run plays a DXP session on conn in cfg.Role and closes conn when done
// (sending side shut down first). The initiator returns after its games
// (or when the peer refuses all games or disconnects); the follower
// returns when the peer closes the connection. Both stop when ctx is
// done: a game in progress is then ended with GAMEEND (no result, no more
// games) and recorded as unfinished. Every game that was begun is passed to
// cfg.OnGame and counted in the Summary, whatever the error. The error is
// nil for a normal end and for ctx's end; it wraps ErrDisconnected when the
// connection ended mid-game or mid-match, and describes a protocol failure
// otherwise (a wrong version, no GAMEACC in time). cfg.Player is required
// and must not be used by anything else until Run returns; its variant
// becomes cfg.Variant.
func Run(ctx context.Context, conn io.ReadWriteCloser, cfg Config) (Summary, error) {
	if cfg.Player == nil {
		conn.Close()
		return Summary{}, errors.New("dxp: Config.Player is nil")
	}
	if pv := cfg.Player.Variant(); pv != cfg.Variant {
		cfg.Logger.Info().Str("player", pv.String()).Str("session", cfg.Variant.String()).
			Msg("dxp: the player's variant is set to the session's")
		cfg.Player.SetVariant(cfg.Variant)
	}
	// The searcher (and its table) now, not at damka's first move.
	cfg.Player.Init()
	if cfg.Name == "" {
		cfg.Name = DefaultName
	}
	cfg.Name = dxpwire.ASCIIText(cfg.Name, dxpwire.NameLen)
	if cfg.AckTimeout <= 0 {
		cfg.AckTimeout = DefaultAckTimeout
	}
	if cfg.PeerTimeout == 0 {
		cfg.PeerTimeout = DefaultPeerTimeout
	}
	if cfg.MessageGap == 0 {
		cfg.MessageGap = DefaultMessageGap
	}
	if cfg.Event == "" {
		cfg.Event = "DXP match"
	}
	if cfg.Site == "" {
		cfg.Site = "?"
	}
	s := &session{
		cfg:        cfg,
		log:        cfg.Logger.With().Str("dxp", cfg.Role.String()).Logger(),
		conn:       conn,
		epoch:      time.Now().Add(-time.Nanosecond),
		events:     make(chan event),
		done:       make(chan struct{}),
		readerDone: make(chan struct{}),
	}
	go s.readLoop()
	var err error
	if cfg.Role == Initiator {
		err = s.runInitiator(ctx)
	} else {
		err = s.runFollower(ctx)
	}
	if s.game != nil {
		why := "session ended"
		if errors.Is(err, ErrDisconnected) {
			why = "peer disconnected"
		}
		s.finish(engine.Ongoing, why)
	}
	s.close()
	if ctx.Err() != nil && !errors.Is(err, ErrDisconnected) {
		err = nil
	}
	return s.sum, err
}

// event is what the reader goroutine and the search deliver to the
// session's loop.
type event struct {
	kind   eventKind
	raw    []byte          // evMsg, evBad: the message as received
	msg    dxpwire.Message // evMsg
	err    error           // evBad: why the message is malformed; evClosed: how the stream ended
	result search.Result   // evSearch
}

type eventKind uint8

const (
	evMsg     eventKind = iota // a well-formed message
	evBad                      // a malformed message or frame
	evClosed                   // the stream ended
	evTimeout                  // the wait's timeout passed
	evCancel                   // the session's context is done
	evSearch                   // the search finished
)

type session struct {
	cfg        Config
	log        zerolog.Logger
	conn       io.ReadWriteCloser
	events     chan event
	done       chan struct{} // closed when the session ends: the reader stops
	readerDone chan struct{}
	searches   sync.WaitGroup
	sum        Summary
	round      int
	game       *gameState
	peerStop   bool   // the peer said "no more games"
	lastGame   bool   // initiator: the game in progress is the last
	closed     *event // the end of the stream, once seen
	// For MessageGap: when our last message began to be written and when
	// the reader last got a message, in nanoseconds since epoch (so 0 is
	// never).
	epoch    time.Time
	lastSend int64
	lastRecv atomic.Int64
}
