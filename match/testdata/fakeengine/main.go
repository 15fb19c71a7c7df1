// Command fakeengine is a tiny Hub engine for the match runner's tests. It
// plays a legal move chosen from the position's Zobrist key and -seed, and
// misbehaves as -mode says at its -at-th move of every game:
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
//
// With -scores it reports a score (men, its own view) in an info line
// before each done: the n-th value at its n-th move of the game.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"damka/engine"
	"damka/protocol/hub"
)

func main() {
	mode := flag.String("mode", "good", "good, illegal, crash, kill, hang, slow, scan20 or novariant")
	at := flag.Int("at", 1, "misbehave at this move of each game (1 = first)")
	seed := flag.Uint64("seed", 0, "varies the move choice")
	over := flag.Duration("over", 500*time.Millisecond, "slow: how far past its time to answer")
	scores := flag.String("scores", "", "scores (men) to report in an info line before done, one per move of the game, comma-separated; the last one repeats")
	flag.Parse()

	out := bufio.NewWriter(os.Stdout)
	say := func(l hub.Line) { fmt.Fprintln(out, l.String()); out.Flush() }
	v := engine.Russian
	game := engine.NewGame(engine.StartPosition(v))
	var budget time.Duration
	moveNo := 0
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		l, err := hub.ParseLine(in.Text())
		if err != nil {
			continue
		}
		switch l.Command {
		case "hub":
			if *mode == "scan20" {
				fmt.Fprint(out, "name Scan 2.0\nauthor Fabien Letouzey\ncountry France\nwait\n")
				out.Flush()
				continue
			}
			say(hub.NewLine("id").With("name", "fake-"+*mode).With("version", "1"))
			if *mode != "novariant" {
				say(hub.NewLine("param").With("name", "variant").With("value", v.String()).With("type", "enum").With("values", strings.Join(engine.VariantNames(), " ")))
			}
			say(hub.NewLine("wait"))
		case "set-param":
			if n, _ := l.Get("name"); n == "variant" {
				val, _ := l.Get("value")
				if id, err := engine.ParseVariant(val); err == nil {
					v = id
				}
			}
		case "init":
			say(hub.NewLine("ready"))
		case "ping":
			say(hub.NewLine("pong"))
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
					say(hub.NewLine("error").With("message", "bad position"))
					continue
				}
			}
			game = engine.NewGame(p)
			ms, _ := l.Get("moves")
			for _, t := range strings.Fields(ms) {
				cur := game.Position()
				m, err := cur.ParseMove(t)
				if err != nil {
					say(hub.NewLine("error").With("message", "bad move"))
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
			moveNo++
			p := game.Position()
			var list engine.MoveList
			p.Generate(&list)
			ms := list.Slice()
			m := ms[(p.Key^*seed*0x9e3779b97f4a7c15)%uint64(len(ms))]
			text := p.FormatMove(m, engine.FormatHub)
			if moveNo == *at {
				switch *mode {
				case "illegal":
					text = illegal(&p)
				case "crash":
					os.Exit(3)
				case "kill":
					say(hub.NewLine("info").With("depth", "1"))
					_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
					select {}
				case "hang":
					continue
				case "slow":
					time.Sleep(budget + *over)
				}
			}
			if *scores != "" {
				list := strings.Split(*scores, ",")
				say(hub.NewLine("info").With("depth", "1").With("score", list[min(moveNo, len(list))-1]))
			}
			say(hub.NewLine("done").With("move", text))
		case "quit":
			return
		}
	}
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
