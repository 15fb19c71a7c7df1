// Package pdn reads and writes draughts game records: PDN files (FMJD PDN
// 3.0 with the variants' GameType and FEN tags, docs/pdn.md) with a
// streaming, fault-tolerant Reader and a Write that CheckerBoard and
// lidraughts read back, and damka's compact binary game records (Record,
// RecordWriter, RecordReader) that `damka selfplay` writes and `damka train`
// reads (docs/training.md). Positions, moves and their notation come from
// package engine.
package pdn
