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
// An Engine drives a player.Player (the settings, the resources they name
// and the searcher), keeps the game history sent with "set gamehist" and
// the "set depth" limit, and answers the three calls: Engine.GetMove,
// Engine.Command and Engine.IsLegal. CheckerBoard's own keys (hashsize,
// searchthreads, book, dbpath, max_dbpieces, gametype) map onto the
// player's settings, and every setting is also "get NAME" and "set NAME
// VALUE" under its table name. It searches with the same search and
// embedded opening book as the damka binary.
package cb
