// tt.go: the transposition table shared by all search threads.

package search

import (
	"math/bits"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/damka-draughts/damka/engine"
)

// The transposition table is an array of buckets of ttWays entries. One
// entry is two 64-bit words, each read and written with sync/atomic:
//
//	word 0: key ^ data
//	word 1: data
//
// A reader loads both words and accepts the entry only when word0 ^ word1
// equals its key, so an entry torn by two threads writing at once (word 0
// of one, word 1 of the other) reads as a miss, never as wrong data. This
// is the classic lockless "xor" scheme; it needs no lock and keeps
// `go test -race` clean because every access is atomic.
//
// Layout of data:
//
//	bits  0-15  score, int16, mate scores relative to the stored node (see ttScore)
//	bits 16-23  depth in plies, uint8 (quiescence results are not stored)
//	bits 24-25  bound: 1 upper (fail low), 2 lower (fail high), 3 exact
//	bits 26-31  generation (6 bits): the search that wrote the entry, for aging
//	bits 32-37  best move origin, internal bit (engine.Move.From)
//	bits 38-43  best move destination, internal bit (engine.Move.To)
//	bits 44-52  index of the best move in the generated move list (9 bits)
//	bit  53     a best move is present
//	bits 54-63  zero
//
// The move is stored as a compact key (origin, destination, list index)
// and re-found in the freshly generated list, which also proves it legal:
// generation order is deterministic, and origin and destination are checked.
// A bucket is ttWays*16 = 64 bytes, one cache line. Replacement: an entry
// with the same key is overwritten unless it is deeper and of the current
// generation; otherwise the entry with the lowest depth, counting 4 plies
// per generation of age, is replaced (depth-preferred with aging). Bound 0
// marks an empty slot.
type table struct {
	words    []uint64Word
	nBuckets uint64
	gen      atomic.Uint32 // current generation, 6 bits used
	// mem is the memory mapping words lie in (mapWords), unmapped when the
	// table is collected; nil when words are on the Go heap.
	mem []byte
}

// uint64Word is one table word: loaded with sync/atomic (a plain load on
// amd64 and arm64), stored with storeWord.
type uint64Word struct{ atomic.Uint64 }

// storeWord sets the word to v. An atomic store is a locked exchange on
// amd64, a full barrier that the table does not need: an aligned 64-bit
// store is never torn, and the xor check turns two stores of different
// entries mixed in one slot into a miss. So outside the race detector (whose
// checks the table's atomics keep clean) it is a plain store.
func (x *uint64Word) storeWord(v uint64) {
	if raceEnabled {
		x.Store(v)
		return
	}
	*(*uint64)(unsafe.Pointer(x)) = v
}

// hugePage is the size of a transparent huge page (x86-64 and arm64 Linux).
const hugePage = 2 << 20

// useHugePages switches the huge-page advice (an experiment switch).
var useHugePages = true

const (
	ttWays = 4

	boundUpper = 1
	boundLower = 2
	boundExact = 3
)

// ttEntry is a decoded table entry.
type ttEntry struct {
	score   int
	depth   int
	bound   int
	hasMove bool
	from    uint8
	to      uint8
	index   int
}

// newTable returns a table of about mib MiB (at least one bucket).
func newTable(mib int) *table {
	t := &table{}
	t.resize(mib)
	return t
}

// resize allocates the table's words for about mib MiB, empty. It is
// called once, by newTable.
func (t *table) resize(mib int) {
	if mib < 1 {
		mib = 1
	}
	n := uint64(mib) << 20 / (ttWays * 16)
	if n == 0 {
		n = 1
	}
	t.nBuckets = n
	// Over-allocate by one huge page and start the table on a huge-page
	// boundary, so that huge pages can back all of it.
	raw, mem := mapWords(int(n*ttWays*2 + hugePage/8))
	if mem != nil {
		t.mem = mem
		runtime.SetFinalizer(t, (*table).unmap)
	}
	off := (hugePage - uintptr(unsafe.Pointer(&raw[0]))%hugePage) % hugePage / 8
	t.words = raw[off : off+uintptr(n*ttWays*2)]
	if useHugePages {
		adviseHugePages(t.words)
	}
	t.gen.Store(0)
}

// clear empties the table and resets the generation.
func (t *table) clear() {
	for i := range t.words {
		t.words[i].Store(0)
	}
	t.gen.Store(0)
}

// newSearch advances the generation; entries of older searches age.
func (t *table) newSearch() { t.gen.Store((t.gen.Load() + 1) & 63) }

// bucket returns the index of the first word of key's bucket.
func (t *table) bucket(key uint64) uint64 {
	hi, _ := bits.Mul64(key, t.nBuckets)
	return hi * ttWays * 2
}

// prefetch starts loading key's bucket into the cache, so that a probe
// of key soon after finds it there instead of waiting on memory.
func (t *table) prefetch(key uint64) {
	prefetch(unsafe.Pointer(&t.words[t.bucket(key)]))
}

// probe looks key up.
func (t *table) probe(key uint64) (ttEntry, bool) {
	b := t.bucket(key)
	for i := uint64(0); i < ttWays; i++ {
		w0 := t.words[b+2*i].Load()
		w1 := t.words[b+2*i+1].Load()
		if w0^w1 == key && w1>>24&3 != 0 {
			return decode(w1), true
		}
	}
	return ttEntry{}, false
}

func decode(d uint64) ttEntry {
	return ttEntry{
		score:   int(int16(d)),
		depth:   int(d >> 16 & 0xFF),
		bound:   int(d >> 24 & 3),
		from:    uint8(d >> 32 & 63),
		to:      uint8(d >> 38 & 63),
		index:   int(d >> 44 & 511),
		hasMove: d>>53&1 != 0,
	}
}

// store records a search result for key. moveIndex < 0 means no move.
func (t *table) store(key uint64, depth, score, bound int, m engine.Move, moveIndex int) {
	gen := uint64(t.gen.Load())
	d := uint64(uint16(int16(score))) | uint64(depth&0xFF)<<16 | uint64(bound)<<24 | gen<<26
	b := t.bucket(key)
	slot := uint64(0)
	worst := 1 << 30
	for i := uint64(0); i < ttWays; i++ {
		w0 := t.words[b+2*i].Load()
		w1 := t.words[b+2*i+1].Load()
		if w0^w1 == key && w1>>24&3 != 0 {
			old := decode(w1)
			if uint64(w1>>26&63) == gen && old.depth > depth+2 && bound != boundExact {
				return // keep the deeper result of this search
			}
			if moveIndex < 0 && old.hasMove {
				// Keep the old best move.
				d |= w1 & (0x3FFFFF << 32)
			}
			slot = i
			worst = -1
			break
		}
		if w1>>24&3 == 0 {
			if worst > -(1 << 20) {
				slot, worst = i, -(1 << 20)
			}
			continue
		}
		age := int((gen - w1>>26) & 63)
		v := int(w1>>16&0xFF) - 4*age
		if v < worst {
			slot, worst = i, v
		}
	}
	if moveIndex >= 0 {
		d |= uint64(m.From)<<32 | uint64(m.To)<<38 | uint64(moveIndex&511)<<44 | 1<<53
	}
	t.words[b+2*slot].storeWord(key ^ d)
	t.words[b+2*slot+1].storeWord(d)
}

// hashfull returns the permille of the first 1000 buckets' entries that
// belong to the current generation.
func (t *table) hashfull() int {
	gen := uint64(t.gen.Load())
	n, used := 0, 0
	for i := uint64(0); i < t.nBuckets && i < 1000; i++ {
		for j := uint64(0); j < ttWays; j++ {
			w1 := t.words[(i*ttWays+j)*2+1].Load()
			n++
			if w1>>24&3 != 0 && w1>>26&63 == gen {
				used++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return used * 1000 / n
}
