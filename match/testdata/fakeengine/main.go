// Command fakeengine is a tiny Hub engine for the match runner's tests. It
// plays a legal move chosen from the position's Zobrist key and -seed, and
// misbehaves as -mode says at its -at-th answer of every game (a stopped
// ponder search's answer counts):
//
//	good     never misbehaves
//	illegal  answers a move that is not legal (a man moving backwards)
//	crash    exits with status 3 instead of answering
//	kill     reports a search in progress (an info line), then dies of
//	         SIGKILL, as an engine killed from outside mid-search
//	hang     never answers, not even stop
//	slow     sleeps past its time (level time+inc or move-time, plus -over),
//	         ignoring stop, then answers a legal move
//	scan20   answers hub as Scan 2.0's `scan hub` does (name, author,
//	         country lines, wait: no id, no param) and every pos with
//	         `error bad position`
//	novariant a Hub 2 engine that declares no variant parameter
//	longinfo writes an info line of -long bytes, then its done as usual
//	longdone writes its done padded to -long bytes (the answer too long)
//
// With -scores it reports a score (men, its own view) in an info line
// before each done: the n-th value at its n-th move of the game.
//
// With -ponder it declares a ponder parameter and gives a ponder= reply
// in each done: the move a fakeengine with -seed -predict plays after its
// own (with -mispredict another legal move, when there is one). Its go
// ponder answers only at ponder-hit or stop (or any other command), at
// once. -delay makes each go think take that long; -record DIR writes
// every line it reads to DIR/PID.log (one file per process).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/damka-draughts/damka/engine"
	"github.com/damka-draughts/damka/protocol/hubwire"
)

func main() {
	mode := flag.String("mode", "good", "good, illegal, crash, kill, hang, slow, scan20, novariant, longinfo, longdone, or nul, esc, del, quote (an unreadable done line)")
	at := flag.Int("at", 1, "misbehave at this move of each game (1 = first)")
	seed := flag.Uint64("seed", 0, "varies the move choice")
	over := flag.Duration("over", 500*time.Millisecond, "slow: how far past its time to answer")
	scores := flag.String("scores", "", "scores (men) to report in an info line before done, one per move of the game, comma-separated; the last one repeats")
	ponder := flag.Bool("ponder", false, "declare a ponder parameter and give ponder= replies")
	predict := flag.Uint64("predict", 0, "ponder: expect the reply of a fakeengine with this -seed")
	mispredict := flag.Bool("mispredict", false, "ponder: expect another reply than -predict's, when there is one")
	delay := flag.Duration("delay", 0, "how long each go think takes")
	long := flag.Int("long", 10<<20, "longinfo, longdone: the long line's length in bytes")
	record := flag.String("record", "", "write every line read to DIR/PID.log in this directory")
	flag.Parse()
	var rec *os.File
	if *record != "" {
		name := filepath.Join(*record, strconv.Itoa(os.Getpid())+".log")
		f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		rec = f
	}

	out := bufio.NewWriter(os.Stdout)
	say := func(l hubwire.Line) { fmt.Fprintln(out, l.String()); out.Flush() }
	v := engine.Russian
	game := engine.NewGame(engine.StartPosition(v))
	var budget time.Duration
	moveNo := 0
	pondering := false
	// answer writes the done of a search of the game's position: its move
	// (misbehaving as -mode says at the -at-th) and, with -ponder, the
	// reply it expects.
	answer := func() {
		moveNo++
		p := game.Position()
		m := choose(&p, *seed)
		text := p.FormatMove(m, engine.FormatHub)
		if moveNo == *at {
			switch *mode {
			case "illegal":
				text = illegal(&p)
			case "crash":
				os.Exit(3)
			case "kill":
				say(hubwire.NewLine("info").With("depth", "1"))
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			case "hang":
				return
			case "nul", "esc", "del", "quote":
				// A done line that does not parse.
				garble := map[string]string{"nul": "\x00", "esc": "\x1b[0m", "del": "\x7f"}[*mode]
				if *mode == "quote" {
					fmt.Fprintf(out, "done move=\"%s\n", text)
				} else {
					fmt.Fprintf(out, "done move=%s%s\n", text, garble)
				}
				out.Flush()
				return
			case "slow":
				time.Sleep(budget + *over)
			case "longinfo":
				head := "info depth=1 pv="
				fmt.Fprintf(out, "%s%s\n", head, strings.Repeat("x", max(*long-len(head)-1, 0)))
				out.Flush()
			case "longdone":
				head := "done move=" + text + " pad="
				fmt.Fprintf(out, "%s%s\n", head, strings.Repeat("x", max(*long-len(head)-1, 0)))
				out.Flush()
				return
			}
		}
		if *scores != "" {
			list := strings.Split(*scores, ",")
			say(hubwire.NewLine("info").With("depth", "1").With("score", list[min(moveNo, len(list))-1]))
		}
		done := hubwire.NewLine("done").With("move", text)
		if *ponder {
			if r, ok := expect(p.Play(m), *predict, *mispredict); ok {
				done = done.With("ponder", r)
			}
		}
		say(done)
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if rec != nil {
			fmt.Fprintln(rec, in.Text())
		}
		l, err := hubwire.ParseLine(in.Text())
		if err != nil {
			continue
		}
		if pondering && l.Command != "ping" {
			// ponder-hit, stop or any other command ends the ponder
			// search: answer at once.
			pondering = false
			answer()
			if l.Command == "ponder-hit" || l.Command == "stop" {
				continue
			}
		}
		switch l.Command {
		case "hub":
			if *mode == "scan20" {
				fmt.Fprint(out, "name Scan 2.0\nauthor Fabien Letouzey\ncountry France\nwait\n")
				out.Flush()
				continue
			}
			say(hubwire.NewLine("id").With("name", "fake-"+*mode).With("version", "1"))
			if *mode != "novariant" {
				say(hubwire.NewLine("param").With("name", "variant").With("value", v.String()).With("type", "enum").With("values", strings.Join(engine.VariantNames(), " ")))
			}
			if *ponder {
				say(hubwire.NewLine("param").With("name", "ponder").With("value", "false").With("type", "bool"))
			}
			say(hubwire.NewLine("wait"))
		case "set-param":
			if n, _ := l.Get("name"); n == "variant" {
				val, _ := l.Get("value")
				if id, err := engine.ParseVariant(val); err == nil {
					v = id
				}
			}
		case "init":
			say(hubwire.NewLine("ready"))
		case "ping":
			say(hubwire.NewLine("pong"))
		case "new-game":
			moveNo = 0
		case "pos":
			if *mode == "scan20" {
				fmt.Fprint(out, "error bad position\n")
				out.Flush()
				continue
			}
			p := engine.StartPosition(v)
			if s, ok := l.Get("pos"); ok {
				if p, err = engine.ParseHubPosition(v, s); err != nil {
					say(hubwire.NewLine("error").With("message", "bad position"))
					continue
				}
			}
			game = engine.NewGame(p)
			ms, _ := l.Get("moves")
			for _, t := range strings.Fields(ms) {
				cur := game.Position()
				m, err := cur.ParseMove(t)
				if err != nil {
					say(hubwire.NewLine("error").With("message", "bad move"))
					break
				}
				game.Play(m)
			}
			budget = 0
		case "level":
			secs := func(n string) time.Duration {
				s, _ := l.Get(n)
				f, _ := strconv.ParseFloat(s, 64)
				return time.Duration(f * float64(time.Second))
			}
			budget = max(secs("time")+secs("inc"), secs("move-time"))
		case "go":
			if l.Has("ponder") {
				pondering = true
				continue
			}
			time.Sleep(*delay)
			answer()
		case "quit":
			return
		}
	}
}

// choose returns the move a fakeengine with seed plays in p.
func choose(p *engine.Position, seed uint64) engine.Move {
	var list engine.MoveList
	p.Generate(&list)
	ms := list.Slice()
	return ms[(p.Key^seed*0x9e3779b97f4a7c15)%uint64(len(ms))]
}

// expect returns the reply expected in p (after the engine's move): the
// move of a fakeengine with seed predict, or with mispredict another one;
// false when p has no move (or, with mispredict, only one).
func expect(p engine.Position, predict uint64, mispredict bool) (string, bool) {
	var list engine.MoveList
	p.Generate(&list)
	ms := list.Slice()
	if len(ms) == 0 || (mispredict && len(ms) == 1) {
		return "", false
	}
	m := choose(&p, predict)
	if mispredict {
		for _, o := range ms {
			if o != m {
				m = o
				break
			}
		}
	}
	return p.FormatMove(m, engine.FormatHub), true
}

// illegal returns a well-formed move that is not legal in p: a step onto
// an occupied square, or from an empty one.
func illegal(p *engine.Position) string {
	n := p.V.Rules().Squares
	for a := 1; a <= n; a++ {
		for b := 1; b <= n; b++ {
			if a == b {
				continue
			}
			t := fmt.Sprintf("%d-%d", a, b)
			if _, err := p.ParseMove(t); err != nil {
				return t
			}
		}
	}
	return "1-2"
}
