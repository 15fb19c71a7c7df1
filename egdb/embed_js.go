//go:build js

package egdb

import "embed"

// embedded holds the tables built into the js/wasm binary (damka.wasm, the
// page with no server, see docs/gui.md): every slice up to 4 pieces, about
// 6 MB. The English 5-piece slices (11 MB) are left out to keep the
// download small; English endgames of 5 pieces are searched without them.
//
//go:embed data/README.txt data/russian-*.egdb data/brazilian-*.egdb data/international-*.egdb
//go:embed data/english-0101.egdb data/english-0102.egdb data/english-0103.egdb data/english-0110.egdb
//go:embed data/english-0111.egdb data/english-0112.egdb data/english-0120.egdb data/english-0121.egdb
//go:embed data/english-0130.egdb data/english-0201.egdb data/english-0202.egdb data/english-0210.egdb
//go:embed data/english-0211.egdb data/english-0220.egdb data/english-0301.egdb data/english-0310.egdb
//go:embed data/english-1001.egdb data/english-1002.egdb data/english-1003.egdb data/english-1010.egdb
//go:embed data/english-1011.egdb data/english-1012.egdb data/english-1020.egdb data/english-1021.egdb
//go:embed data/english-1030.egdb data/english-1101.egdb data/english-1102.egdb data/english-1110.egdb
//go:embed data/english-1111.egdb data/english-1120.egdb data/english-1201.egdb data/english-1210.egdb
//go:embed data/english-2001.egdb data/english-2002.egdb data/english-2010.egdb data/english-2011.egdb
//go:embed data/english-2020.egdb data/english-2101.egdb data/english-2110.egdb data/english-3001.egdb
//go:embed data/english-3010.egdb
var embedded embed.FS
