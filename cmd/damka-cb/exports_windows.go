//go:build windows

// exports_windows.go: the DLL's exports with CheckerBoard's signatures. On
// 64-bit Windows there is one calling convention, so WINAPI (__stdcall)
// needs nothing here; a 32-bit build would need stdcall wrappers.

package main

/*
#include <stdlib.h>
#include "cbapi_windows.h"
*/
import "C"

import (
	"os"
	"time"
	"unsafe"

	"github.com/rs/zerolog"

	"github.com/damka-draughts/damka/protocol/cb"
	"github.com/damka-draughts/damka/search"
	buildversion "github.com/damka-draughts/damka/version"
)

// eng is the DLL's one engine. Its game follows the DLL's file name
// (damka-russian.dll plays Russian), else English, until "set gametype".
var eng *cb.Engine

func init() {
	// The search times its moves with QueryPerformanceCounter: under wine
	// Go's clock on Windows lags and jumps by tens of milliseconds.
	search.SetClock(func() time.Duration { return time.Duration(C.damka_qpc_ns()) })
	path := C.GoString(C.damka_module_path())
	v, _ := cb.VariantFromFileName(path)
	log := zerolog.Nop()
	if name := os.Getenv("DAMKA_CB_LOG"); name != "" {
		if f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
			log = zerolog.New(f).With().Timestamp().Logger().Level(zerolog.DebugLevel)
		}
	}
	log.Info().Str("dll", path).Bool("pinned", C.damka_pinned() != 0).Str("variant", v.String()).Msg("damka.dll loaded")
	eng = cb.New(cb.Config{Name: "damka", Version: buildversion.String(), Variant: v, HasVariant: true, Log: log})
}

// board views CheckerBoard's int board[8][8] (passed as a pointer to its
// first int) as a cb.Board: the same 256 bytes, [x][y].
func board(b *C.int) *cb.Board { return (*cb.Board)(unsafe.Pointer(b)) }

// putString writes s and a NUL into the size-byte C buffer dst, cut to fit.
func putString(dst *C.char, size int, s string) {
	if dst == nil || size <= 0 {
		return
	}
	buf := unsafe.Slice((*byte)(unsafe.Pointer(dst)), size)
	n := copy(buf[:size-1], s)
	buf[n] = 0
}

//export getmove
func getmove(b *C.int, color C.int, maxtime C.double, str *C.char, playnow *C.int, info C.int, moreinfo C.int, move *C.struct_CBmove) C.int {
	if b == nil {
		putString(str, cb.ReplySize, "damka: no board")
		return cb.ResultUnknown
	}
	poll := func() bool { return C.damka_read_playnow(playnow) != 0 }
	status := func(s string) { putString(str, cb.ReplySize, s) }
	ret, m, err := eng.GetMove(board(b), int(color), float64(maxtime), int(info), int(moreinfo), poll, status)
	if err == nil && move != nil {
		*(*cb.Move)(unsafe.Pointer(move)) = m
	}
	return C.int(ret)
}

//export enginecommand
func enginecommand(command *C.char, reply *C.char) C.int {
	if command == nil {
		putString(reply, cb.ReplySize, "")
		return 0
	}
	r, ok := eng.Command(C.GoString(command))
	putString(reply, cb.ReplySize, r)
	if ok {
		return 1
	}
	return 0
}

//export islegal
func islegal(b *C.int, color C.int, from C.int, to C.int, move *C.struct_CBmove) C.int {
	if b == nil {
		return 0
	}
	m, ok := eng.IsLegal(board(b), int(color), int(from), int(to))
	if !ok {
		return 0
	}
	if move != nil {
		*(*cb.Move)(unsafe.Pointer(move)) = m
	}
	return 1
}
