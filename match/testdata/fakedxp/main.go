// Command fakedxp is a tiny DXP follower for the match runner's tests: it
// listens on 127.0.0.1:-port, accepts one connection, accepts every
// GAMEREQ (start position 'A' or a 'B' position), plays a legal move chosen
// from the position's Zobrist key and -seed, acknowledges GAMEEND, and
// exits when the connection closes. It speaks DXP with its own few lines
// of encoding (not damka's codec), so a mistake in one is not hidden by
// the other. At its -at-th move of every game it misbehaves as -mode says:
//
//	good     never misbehaves
//	illegal  sends a MOVE that is not legal
//	crash    exits with status 3
//	resign   sends GAMEEND "I lose" instead of a move
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/damka-draughts/damka/engine"
)

func main() {
	port := flag.Int("port", 27531, "TCP port to listen on")
	variant := flag.String("variant", "international", "variant")
	mode := flag.String("mode", "good", "good, illegal, crash or resign")
	at := flag.Int("at", 1, "misbehave at this move of each game (1 = first)")
	seed := flag.Uint64("seed", 0, "varies the move choice")
	flag.Parse()
	v, err := engine.ParseVariant(*variant)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(*port))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	conn, err := ln.Accept()
	ln.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer conn.Close()
	rd := bufio.NewReader(conn)
	send := func(s string) { _, _ = conn.Write(append([]byte(s), 0)) }
	var g *engine.Game
	var us engine.Color
	moveNo := 0
	play := func() {
		p := g.Position()
		if r, _ := g.Result(); r != engine.Ongoing || p.Side != us {
			return
		}
		moveNo++
		var list engine.MoveList
		p.Generate(&list)
		ms := list.Slice()
		m := ms[(p.Key^*seed*0x9e3779b97f4a7c15)%uint64(len(ms))]
		if moveNo == *at {
			switch *mode {
			case "illegal":
				send(illegal(&p))
				return
			case "crash":
				os.Exit(3)
			case "resign":
				send("E10")
				return
			}
		}
		send(moveMsg(&p, m))
		g.Play(m)
	}
	for {
		msg, err := rd.ReadString(0)
		if err != nil {
			return
		}
		msg = strings.TrimSuffix(msg, "\x00")
		if msg == "" {
			continue
		}
		switch msg[0] {
		case 'R':
			start := engine.StartPosition(v)
			if len(msg) > 42 && msg[42] == 'B' {
				hub := []byte(msg[43:])
				hub[0] = map[byte]byte{'W': 'W', 'Z': 'B'}[hub[0]]
				for i := 1; i < len(hub); i++ {
					hub[i] = map[byte]byte{'e': 'e', 'w': 'w', 'z': 'b', 'W': 'W', 'Z': 'B'}[hub[i]]
				}
				if start, err = engine.ParseHubPosition(v, string(hub)); err != nil {
					send("A" + pad("fakedxp") + "2")
					continue
				}
			}
			us = engine.White
			if msg[35] == 'Z' {
				us = engine.Black
			}
			g, moveNo = engine.NewGame(start), 0
			send("A" + pad("fakedxp") + "0")
			play()
		case 'M':
			p := g.Position()
			m, ok := findMove(&p, msg)
			if !ok {
				fmt.Fprintf(os.Stderr, "fakedxp: illegal move %q\n", msg)
				os.Exit(4)
			}
			g.Play(m)
			play()
		case 'E':
			if len(msg) == 3 && msg[1] != '0' {
				send("E0" + msg[2:3]) // acknowledge a GAMEEND with a result
			}
		case 'B':
			send("K2")
		}
	}
}

// pad space-pads a name to 32 characters.
func pad(s string) string { return s + strings.Repeat(" ", 32-len(s)) }

// squares reads the numbers of a Hub move text: from, to, captured.
func squares(text string) []int {
	var out []int
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == '-' || r == 'x' }) {
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	return out
}

// moveMsg is the MOVE message for m: time 0, from, to, captured ascending.
func moveMsg(p *engine.Position, m engine.Move) string {
	sq := squares(p.FormatMove(m, engine.FormatHub))
	caps := append([]int(nil), sq[2:]...)
	sort.Ints(caps)
	s := fmt.Sprintf("M0000%02d%02d%02d", sq[0], sq[1], len(caps))
	for _, c := range caps {
		s += fmt.Sprintf("%02d", c)
	}
	return s
}

// findMove returns the legal move of p that the MOVE message msg names.
func findMove(p *engine.Position, msg string) (engine.Move, bool) {
	var list engine.MoveList
	p.Generate(&list)
	for _, m := range list.Slice() {
		if moveMsg(p, m)[5:] == msg[5:] {
			return m, true
		}
	}
	return engine.Move{}, false
}

// illegal returns a MOVE from an empty square.
func illegal(p *engine.Position) string {
	n := p.V.Rules().Squares
	for sq := 1; sq <= n; sq++ {
		if p.PieceAt(engine.Square(sq)) == engine.NoPiece {
			to := sq%n + 1
			return fmt.Sprintf("M0000%02d%02d00", sq, to)
		}
	}
	return "M0000010200"
}
