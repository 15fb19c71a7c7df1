// processes.go: the front ends played as damka processes without the
// match runner: two damka dxp processes on loopback, and scripted damka
// play sessions.

package soak

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/damka-draughts/damka/engine"
)

// dxpGameLine is a game line of damka dxp's standard output.
var dxpGameLine = regexp.MustCompile(`^game=\d+ .* outcome=(\S+) plies=\d+ reason="([^"]*)"$`)

// dxpGames plays DXPGames games of v between two damka dxp processes on
// loopback: a follower at a fixed move time and an initiator on a clock
// (its GAMEREQ's) at another move time, the initiator's deck the variant's.
func (c *Config) dxpGames(ctx context.Context, v engine.VariantID) Line {
	l := Line{FrontEnd: "dxp", Variant: v.String(), Note: "follower movetime 20ms, initiator movetime 40ms, 1-minute GAMEREQ clock"}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(c.DXPGames)*time.Minute+time.Minute)
	defer cancel()
	fpdn, ipdn := c.file("dxp-"+v.String()+"-follower"), c.file("dxp-"+v.String()+"-initiator")
	for _, f := range []string{fpdn, ipdn} {
		_ = os.Remove(f)
	}
	// The initiator's deck: this shard's openings, one per game pair.
	deck := c.file("dxp-" + v.String() + "-deck")
	if err := c.writeDeck(v, (c.DXPGames+1)/2, deck); err != nil {
		l.Crashes++
		l.Note = "writing the deck: " + err.Error()
		return l
	}
	follower := exec.CommandContext(ctx, c.Damka, "dxp", "--listen", "127.0.0.1:0", "--sessions", "1",
		"--variant", v.String(), "--movetime", "0.02", "--hash", "16", "--pdn", fpdn, "--log-level", "info")
	var fout bytes.Buffer
	follower.Stdout = &fout
	stderr, err := follower.StderrPipe()
	if err == nil {
		err = follower.Start()
	}
	if err != nil {
		l.Crashes++
		l.Note = "follower: " + err.Error()
		return l
	}
	addr := ""
	var ferr bytes.Buffer
	sc := bufio.NewScanner(stderr)
	ansi := regexp.MustCompile("\x1b\\[[0-9;]*m")
	listening := regexp.MustCompile(`dxp listening.*addr=(\S+)`)
	for addr == "" && sc.Scan() {
		line := ansi.ReplaceAllString(sc.Text(), "")
		ferr.WriteString(line + "\n")
		if m := listening.FindStringSubmatch(line); m != nil {
			addr = m[1]
		}
	}
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&ferr, stderr); close(copied) }()
	if addr == "" {
		_ = follower.Process.Kill()
		<-copied
		_ = follower.Wait()
		l.Crashes++
		l.Note = "the follower did not listen: " + lastLine(ferr.String())
		return l
	}
	initiator := exec.CommandContext(ctx, c.Damka, "dxp", "--connect", addr, "--initiator", "--games", strconv.Itoa(c.DXPGames),
		"--time", "1", "--moves", "0", "--variant", v.String(), "--movetime", "0.04", "--hash", "16",
		"--openings", deck, "--pdn", ipdn)
	var iout, ierr bytes.Buffer
	initiator.Stdout, initiator.Stderr = &iout, &ierr
	ierrRun := initiator.Run()
	<-copied
	ferrRun := follower.Wait()
	if ctx.Err() != nil {
		l.Hangs++
		l.Note = "did not end within its time"
	}
	for who, e := range map[string]error{"initiator": ierrRun, "follower": ferrRun} {
		if e != nil && ctx.Err() == nil {
			l.Crashes++
			l.Note = fmt.Sprintf("%s: %v: %s", who, e, lastLine(ierr.String()+ferr.String()))
		}
	}
	if bytes.Contains(ierr.Bytes(), []byte("panic")) || bytes.Contains(ferr.Bytes(), []byte("panic")) {
		l.Crashes++
	}
	for _, line := range strings.Split(iout.String(), "\n") {
		m := dxpGameLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		l.Games++
		reason := strings.ToLower(m[2])
		switch {
		case strings.Contains(reason, "illegal"):
			l.Illegal++
		case strings.Contains(reason, "timeout"):
			l.Hangs++
		case strings.Contains(reason, "time"):
			l.TimeLosses++
		case m[1] != "win" && m[1] != "draw" && m[1] != "loss":
			l.Unfinished++
		}
	}
	l.BadPDN += badPDN(ipdn, v, l.Games, true) + badPDN(fpdn, v, l.Games, true)
	return l
}

// textGames plays TextGames games of v in one scripted damka play session:
// damka moves for both sides ("go") until the game is over, then prints
// the game ("pdn"); the move time varies from game to game.
func (c *Config) textGames(ctx context.Context, v engine.VariantID) Line {
	l := Line{FrontEnd: "text", Variant: v.String(), Note: "damka play, go for both sides, level time 10/20/40ms"}
	var script strings.Builder
	fmt.Fprintf(&script, "variant %s\nthinking off\n", v)
	const maxGo = 500
	for i := range c.TextGames {
		fmt.Fprintf(&script, "new\nlevel time %s\n", []string{"0.01", "0.02", "0.04"}[i%3])
		for range maxGo {
			script.WriteString("go\n")
		}
		script.WriteString("pdn\n")
	}
	script.WriteString("quit\n")
	ctx, cancel := context.WithTimeout(ctx, time.Duration(c.TextGames)*3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Damka, "play", "--hash", "16")
	cmd.Stdin = strings.NewReader(script.String())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		l.Hangs++
		l.Note = "the session did not end within its time"
	case err != nil:
		l.Crashes++
		l.Note = fmt.Sprintf("%v: %s", err, lastLine(errb.String()))
	}
	if bytes.Contains(errb.Bytes(), []byte("panic")) {
		l.Crashes++
	}
	// Each pdn command prints one game: tags from [Event, then the moves
	// up to the next prompt.
	text := out.String()
	var games []string
	for {
		i := strings.Index(text, "[Event ")
		if i < 0 {
			break
		}
		text = text[i:]
		end := strings.Index(text, "> ")
		if end < 0 {
			end = len(text)
		}
		game := text[:end]
		if j := strings.LastIndexByte(game, '\n'); j >= 0 {
			game = game[:j+1]
		}
		games = append(games, game)
		text = text[end:]
	}
	file := c.file("text-" + v.String())
	_ = os.WriteFile(file, []byte(strings.Join(games, "\n")), 0o644)
	for _, g := range games {
		if strings.Contains(g, `[Result "*"]`) {
			l.Unfinished++
		} else {
			l.Games++
		}
	}
	l.BadPDN += badPDN(file, v, len(games), true) + max(c.TextGames-len(games), 0)
	if n := strings.Count(out.String(), "illegal"); n > 0 {
		l.Illegal += n
	}
	return l
}
