// Package cb is damka's CheckerBoard front end: the logic of CheckerBoard's
// engine API (version 2, docs/checkerboard.md) without the Windows
// glue, so that every part of it is tested on any platform. cmd/damka-cb
// wraps it into damka.dll (getmove, enginecommand, islegal).
//
// CheckerBoard passes positions as int board[8][8] indexed board[x][y],
// with square n (1..32) at numbertocoors(n): y = (n-1)/4, x = 2*(3-(n-1)%4)
// plus 1 on odd rows. That is the numbering damka uses for English, Russian
// and Brazilian (docs/rules.md, "Board and square numbers": Black on 1..12, White on
// 21..32), so square n of CheckerBoard is square n of damka in all three
// games and the colours are the same (CB_WHITE is damka's White).
//
// An Engine holds one engine's state (the variant, the game history sent
// with "set gamehist", the options and the searcher) and answers the three
// calls: Engine.GetMove, Engine.Command and Engine.IsLegal. It searches with
// the same search and embedded opening book as the damka binary.
package cb
