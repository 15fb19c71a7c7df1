/* cbhub.c: a Hub front end for any CheckerBoard engine DLL.

   cbhub.exe ENGINE.DLL            speak Hub (8x8) on stdin/stdout, searching with the DLL
   cbhub.exe --reload-test ENGINE.DLL [N]
                                    load, use and free the DLL N times (default 3) in one process
   cbhub.exe --api-test ENGINE.DLL  check the DLL's answers to odd inputs (damka.dll's test)
   cbhub.exe --perft english|russian|brazilian DEPTH [FEN]
                                    count the leaves of cbhub's own move generator

   Hub, damka's 8x8 conventions (docs/hub.md "8x8 variants"): 33-character
   positions (side W/B, then squares 1..32: w b man, W B king, e empty) or PDN FENs, moves in
   Hub form (quiet 32-28, capture from x to x captured...), `set-param name=variant`,
   `level move-time= time= inc= moves= depth=`, `go think|ponder|analyze`, `stop`, `ping`.

   CheckerBoard's board is int board[8][8] indexed [x][y]; square n (1..32) lies at
   y = (n-1)/4, x = 2*(3-(n-1)%4) + (y odd) (cb_interface.h numbertocoors). That is damka's
   numbering for English, Russian and Brazilian: White on 21..32 moving towards 1..4.

   cbhub keeps the game itself with its own rules for the three games, sends the history with
   `set gamehist` before every getmove, and names the engine's move by matching the board the
   engine returns against the boards of the legal moves. Logs go to stderr. */

#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <fcntl.h>
#include <io.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- CheckerBoard API */

#define CB_WHITE 1
#define CB_BLACK 2
#define CB_MAN 4
#define CB_KING 8
#define CB_EXACT_TIME 2
#define CB_INCR_TIME_SHIFT 2
#define GT_ENGLISH 21
#define GT_RUSSIAN 25
#define GT_BRAZILIAN 26

struct coor { int x, y; };
struct CBmove {
	int jumps, newpiece, oldpiece;
	struct coor from, to;
	struct coor path[12];
	struct coor del[12];
	int delpiece[12];
};

typedef int(WINAPI *getmove_fn)(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
                                int info, int moreinfo, struct CBmove *move);
typedef int(WINAPI *enginecommand_fn)(const char *command, char reply[1024]);
typedef int(WINAPI *islegal_fn)(int board[8][8], int color, int from, int to, struct CBmove *move);

struct dll {
	HMODULE h;
	getmove_fn getmove;
	enginecommand_fn enginecommand;
	islegal_fn islegal;
};

static int load_dll(const char *path, struct dll *d, char *why, size_t whylen)
{
	memset(d, 0, sizeof *d);
	d->h = LoadLibraryA(path);
	if (!d->h) {
		snprintf(why, whylen, "cannot load %s (LoadLibrary error %lu)", path, (unsigned long)GetLastError());
		return 0;
	}
	d->getmove = (getmove_fn)(void *)GetProcAddress(d->h, "getmove");
	d->enginecommand = (enginecommand_fn)(void *)GetProcAddress(d->h, "enginecommand");
	d->islegal = (islegal_fn)(void *)GetProcAddress(d->h, "islegal");
	if (!d->getmove) {
		snprintf(why, whylen, "%s exports no getmove: not a CheckerBoard engine", path);
		FreeLibrary(d->h);
		d->h = NULL;
		return 0;
	}
	return 1;
}

/* command sends an enginecommand; the reply is "" when the engine has none. */
static int command(struct dll *d, const char *cmd, char *reply)
{
	char buf[4096];
	reply[0] = 0;
	if (!d->enginecommand)
		return 0;
	snprintf(buf, sizeof buf, "%s", cmd);
	int r = d->enginecommand(buf, reply);
	reply[1023] = 0;
	return r;
}

/* ---------------------------------------------------------------- rules */

enum variant { ENGLISH, RUSSIAN, BRAZILIAN };
static const char *variant_names[] = {"english", "russian", "brazilian"};
static const int variant_gametype[] = {GT_ENGLISH, GT_RUSSIAN, GT_BRAZILIAN};

#define WM (CB_WHITE | CB_MAN)
#define BM (CB_BLACK | CB_MAN)
#define WK (CB_WHITE | CB_KING)
#define BK (CB_BLACK | CB_KING)

struct pos {
	int sq[33]; /* 1..32: 0 or a CB piece code */
	int side;   /* CB_WHITE or CB_BLACK */
};

#define MAXMOVES 256
#define MAXCAP 16
struct mv {
	int from, to, piece, newpiece;
	int ncap, cap[MAXCAP];  /* captured squares, jump order */
	int path[MAXCAP + 1];   /* landing squares, path[ncap-1] == to (captures) */
	unsigned capset;        /* bit n-1 per captured square */
};

static int sqx[33], sqy[33], nb[33][4]; /* nb: neighbour in direction d, 0 off board */
static const int ddx[4] = {-1, 1, -1, 1}, ddy[4] = {-1, -1, 1, 1}; /* 0,1: towards y=0 (White's forward) */

static int coor_square(int x, int y)
{
	if (x < 0 || x > 7 || y < 0 || y > 7 || (x + y) % 2)
		return 0;
	return 4 * (y + 1) - x / 2;
}

static void geom_init(void)
{
	for (int n = 1; n <= 32; n++) {
		int k = n - 1;
		sqy[n] = k / 4;
		sqx[n] = 2 * (3 - k % 4) + (sqy[n] % 2);
	}
	for (int n = 1; n <= 32; n++)
		for (int d = 0; d < 4; d++)
			nb[n][d] = coor_square(sqx[n] + ddx[d], sqy[n] + ddy[d]);
}

static int is_own(int v, int side) { return v && (v & side); }
static int is_enemy(int v, int side) { return v && !(v & side); }
static int crown_row(int side, int n) { return side == CB_WHITE ? sqy[n] == 0 : sqy[n] == 7; }
static int forward(int side, int d) { return side == CB_WHITE ? d < 2 : d >= 2; }

struct gen {
	const struct pos *p;
	enum variant v;
	int side, from, piece;
	struct mv cur;
	struct mv *list;
	int n;
	int captured[33];
};

static void add(struct gen *g, const struct mv *m)
{
	if (g->n < MAXMOVES)
		g->list[g->n++] = *m;
}

/* empty: a square free during a capture: nothing on it, or the moving piece's origin. */
static int empty(const struct gen *g, int s) { return s && (g->p->sq[s] == 0 || s == g->from); }

static void capture_from(struct gen *g, int at, int king);

/* victim returns the square of the piece a piece (king or not) standing on at can jump in
   direction d, with a free square behind it, or 0 when there is none. */
static int victim(struct gen *g, int at, int d, int king)
{
	if (!king && g->v == ENGLISH && !forward(g->side, d))
		return 0;
	int s = nb[at][d];
	if (king && g->v != ENGLISH)
		while (s && empty(g, s))
			s = nb[s][d];
	if (!s || !is_enemy(g->p->sq[s], g->side) || s == g->from || g->captured[s] || !empty(g, nb[s][d]))
		return 0;
	return s;
}

/* can_capture: whether a piece (king or not) standing on at could capture now. */
static int can_capture(struct gen *g, int at, int king)
{
	for (int d = 0; d < 4; d++)
		if (victim(g, at, d, king))
			return 1;
	return 0;
}

/* jump records the jump over c to land on l, then continues the capture from l. */
static void jump(struct gen *g, int c, int l, int king)
{
	struct mv save = g->cur;
	g->cur.cap[g->cur.ncap] = c;
	g->cur.path[g->cur.ncap] = l;
	g->cur.ncap++;
	g->cur.capset |= 1u << (c - 1);
	g->captured[c] = 1;
	int crowned = !king && crown_row(g->side, l);
	int color = g->piece & (CB_WHITE | CB_BLACK);
	if (crowned && g->v == ENGLISH) {
		/* English: a man reaching the king row is crowned and the move ends. */
		g->cur.to = l;
		g->cur.newpiece = color | CB_KING;
		add(g, &g->cur);
	} else {
		/* Russian: crowned at once, goes on as a king. Brazilian: goes on as a man, crowned
		   only if the move ends on the king row. */
		int k2 = king || (crowned && g->v == RUSSIAN);
		if (g->cur.ncap < MAXCAP && can_capture(g, l, k2)) {
			capture_from(g, l, k2);
		} else {
			g->cur.to = l;
			g->cur.newpiece = (k2 || crown_row(g->side, l)) ? (color | CB_KING) : g->piece;
			add(g, &g->cur);
		}
	}
	g->captured[c] = 0;
	g->cur = save;
}

static void capture_from(struct gen *g, int at, int king)
{
	for (int d = 0; d < 4; d++) {
		int s = victim(g, at, d, king);
		if (!s)
			continue;
		int l = nb[s][d];
		if (!(king && g->v != ENGLISH)) {
			jump(g, s, l, king);
			continue;
		}
		/* A flying king lands on any free square beyond; if it can go on capturing from some of
		   them, only those. */
		int lands[8], nl = 0, cont[8], nc = 0;
		g->captured[s] = 1;
		for (int t = l; t && empty(g, t); t = nb[t][d]) {
			lands[nl++] = t;
			if (can_capture(g, t, 1))
				cont[nc++] = t;
		}
		g->captured[s] = 0;
		if (nc) {
			for (int i = 0; i < nc; i++)
				jump(g, s, cont[i], king);
		} else {
			for (int i = 0; i < nl; i++)
				jump(g, s, lands[i], king);
		}
	}
}

static int same_move(const struct mv *a, const struct mv *b)
{
	return a->from == b->from && a->to == b->to && a->capset == b->capset && a->newpiece == b->newpiece;
}

/* generate returns the legal moves of p, duplicates (same origin, destination, captured set and
   piece) removed. */
static int generate(const struct pos *p, enum variant v, struct mv *list)
{
	struct gen g;
	memset(&g, 0, sizeof g);
	g.p = p;
	g.v = v;
	g.side = p->side;
	g.list = list;
	for (int n = 1; n <= 32; n++) {
		if (!is_own(p->sq[n], p->side))
			continue;
		int king = (p->sq[n] & CB_KING) != 0;
		g.from = n;
		g.piece = p->sq[n];
		memset(&g.cur, 0, sizeof g.cur);
		g.cur.from = n;
		g.cur.piece = p->sq[n];
		capture_from(&g, n, king);
	}
	if (g.n) {
		if (v == BRAZILIAN) { /* majority rule */
			int best = 0, k = 0;
			for (int i = 0; i < g.n; i++)
				if (list[i].ncap > best)
					best = list[i].ncap;
			for (int i = 0; i < g.n; i++)
				if (list[i].ncap == best)
					list[k++] = list[i];
			g.n = k;
		}
		int k = 0;
		for (int i = 0; i < g.n; i++) {
			int dup = 0;
			for (int j = 0; j < k && !dup; j++)
				dup = same_move(&list[i], &list[j]);
			if (!dup)
				list[k++] = list[i];
		}
		return k;
	}
	for (int n = 1; n <= 32; n++) {
		if (!is_own(p->sq[n], p->side))
			continue;
		int king = (p->sq[n] & CB_KING) != 0;
		for (int d = 0; d < 4; d++) {
			if (!king && !forward(p->side, d))
				continue;
			for (int s = nb[n][d]; s && p->sq[s] == 0; s = nb[s][d]) {
				struct mv m;
				memset(&m, 0, sizeof m);
				m.from = n;
				m.to = s;
				m.piece = p->sq[n];
				m.newpiece = (!king && crown_row(p->side, s)) ? ((m.piece & 3) | CB_KING) : m.piece;
				add(&g, &m);
				if (!king || v == ENGLISH)
					break;
			}
		}
	}
	return g.n;
}

static void play(struct pos *p, const struct mv *m)
{
	p->sq[m->from] = 0;
	for (int i = 0; i < m->ncap; i++)
		p->sq[m->cap[i]] = 0;
	p->sq[m->to] = m->newpiece;
	p->side ^= 3;
}

static unsigned long long perft(const struct pos *p, enum variant v, int depth)
{
	struct mv list[MAXMOVES];
	int n = generate(p, v, list);
	if (depth <= 1)
		return depth == 1 ? (unsigned long long)n : 1;
	unsigned long long t = 0;
	for (int i = 0; i < n; i++) {
		struct pos q = *p;
		play(&q, &list[i]);
		t += perft(&q, v, depth - 1);
	}
	return t;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* hub_move writes m in Hub form: 32-28, or from x to x captured (ascending). */
static void hub_move(const struct mv *m, char *out)
{
	if (!m->ncap) {
		sprintf(out, "%d-%d", m->from, m->to);
		return;
	}
	int caps[MAXCAP];
	memcpy(caps, m->cap, sizeof caps);
	qsort(caps, m->ncap, sizeof caps[0], cmp_int);
	out += sprintf(out, "%dx%d", m->from, m->to);
	for (int i = 0; i < m->ncap; i++)
		out += sprintf(out, "x%d", caps[i]);
}

/* parse_move finds the legal move written s (Hub form, or origin and destination only, with '-'
   or 'x'); it returns its index, -1 if none, -2 if ambiguous. */
static int parse_move(const char *s, const struct mv *list, int n)
{
	int sq[MAXCAP + 2], k = 0;
	const char *c = s;
	while (*c && k < MAXCAP + 2) {
		if (*c < '0' || *c > '9')
			return -1;
		int v = 0;
		while (*c >= '0' && *c <= '9')
			v = v * 10 + (*c++ - '0');
		if (v < 1 || v > 32)
			return -1;
		sq[k++] = v;
		if (*c == '-' || *c == 'x' || *c == 'X' || *c == ':')
			c++;
		else if (*c)
			return -1;
	}
	if (k < 2 || *c)
		return -1;
	unsigned capset = 0;
	for (int i = 2; i < k; i++)
		capset |= 1u << (sq[i] - 1);
	int found = -1;
	for (int i = 0; i < n; i++) {
		if (list[i].from != sq[0] || list[i].to != sq[1])
			continue;
		if (k > 2 && list[i].capset != capset)
			continue;
		if (found >= 0 && !(list[found].capset == list[i].capset))
			return -2;
		if (found < 0)
			found = i;
	}
	return found;
}

static int parse_hubpos(const char *s, struct pos *p)
{
	if (strlen(s) != 33)
		return 0;
	memset(p, 0, sizeof *p);
	if (s[0] == 'W' || s[0] == 'w')
		p->side = CB_WHITE;
	else if (s[0] == 'B' || s[0] == 'b')
		p->side = CB_BLACK;
	else
		return 0;
	for (int n = 1; n <= 32; n++) {
		switch (s[n]) {
		case 'w': p->sq[n] = WM; break;
		case 'b': p->sq[n] = BM; break;
		case 'W': p->sq[n] = WK; break;
		case 'B': p->sq[n] = BK; break;
		case 'e': case '.': case '-': p->sq[n] = 0; break;
		default: return 0;
		}
	}
	return 1;
}

/* parse_fen reads a numeric PDN FEN: "W:W21-32,K5:B1-12". */
static int parse_fen(const char *s, struct pos *p)
{
	memset(p, 0, sizeof *p);
	while (*s == ' ' || *s == '"')
		s++;
	if (*s == 'W' || *s == 'w')
		p->side = CB_WHITE;
	else if (*s == 'B' || *s == 'b')
		p->side = CB_BLACK;
	else
		return 0;
	s++;
	int color = 0;
	while (*s) {
		if (*s == ':' || *s == ',' || *s == ' ' || *s == '"' || *s == '.') {
			s++;
			continue;
		}
		if (*s == 'W' || *s == 'w') { color = CB_WHITE; s++; continue; }
		if (*s == 'B' || *s == 'b') { color = CB_BLACK; s++; continue; }
		int king = 0;
		if (*s == 'K' || *s == 'k') { king = 1; s++; }
		if (*s < '0' || *s > '9' || !color)
			return 0;
		int a = 0, b;
		while (*s >= '0' && *s <= '9')
			a = a * 10 + (*s++ - '0');
		b = a;
		if (*s == '-') {
			s++;
			b = 0;
			while (*s >= '0' && *s <= '9')
				b = b * 10 + (*s++ - '0');
		}
		if (a < 1 || b > 32 || a > b)
			return 0;
		for (int n = a; n <= b; n++)
			p->sq[n] = color | (king ? CB_KING : CB_MAN);
	}
	return 1;
}

static void format_fen(const struct pos *p, char *out)
{
	out += sprintf(out, "%c", p->side == CB_WHITE ? 'W' : 'B');
	for (int c = CB_WHITE; c <= CB_BLACK; c++) {
		out += sprintf(out, ":%c", c == CB_WHITE ? 'W' : 'B');
		int first = 1;
		for (int n = 1; n <= 32; n++)
			if (p->sq[n] & c) {
				out += sprintf(out, "%s%s%d", first ? "" : ",", (p->sq[n] & CB_KING) ? "K" : "", n);
				first = 0;
			}
	}
}

static void start_pos(struct pos *p, enum variant v)
{
	memset(p, 0, sizeof *p);
	for (int n = 1; n <= 12; n++)
		p->sq[n] = BM;
	for (int n = 21; n <= 32; n++)
		p->sq[n] = WM;
	p->side = v == ENGLISH ? CB_BLACK : CB_WHITE;
}

static void to_board(const struct pos *p, int b[8][8])
{
	memset(b, 0, 64 * sizeof(int));
	for (int n = 1; n <= 32; n++)
		b[sqx[n]][sqy[n]] = p->sq[n];
}

/* ---------------------------------------------------------------- output */

static CRITICAL_SECTION out_lock;

static void out(const char *fmt, ...)
{
	va_list ap;
	EnterCriticalSection(&out_lock);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	LeaveCriticalSection(&out_lock);
}

/* msg writes an error line; quotes in the text become '. */
static void err(const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	for (char *c = buf; *c; c++)
		if (*c == '"')
			*c = '\'';
		else if (*c == '\n' || *c == '\r')
			*c = ' ';
	out("error message=\"%s\"", buf);
}

static void logf_(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "cbhub: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	fflush(stderr);
}

/* ---------------------------------------------------------------- Hub lines */

#define MAXARGS 32
struct args {
	int n;
	char *name[MAXARGS], *value[MAXARGS]; /* value NULL for a flag */
};

/* tokenize splits s in place into its command (returned) and name[=value] arguments. */
static char *tokenize(char *s, struct args *a)
{
	a->n = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	char *cmd = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = 0;
	while (*s && a->n < MAXARGS) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		a->name[a->n] = s;
		a->value[a->n] = NULL;
		while (*s && *s != ' ' && *s != '\t' && *s != '=')
			s++;
		if (*s == '=') {
			*s++ = 0;
			if (*s == '"') {
				a->value[a->n] = ++s;
				while (*s && *s != '"')
					s++;
			} else {
				a->value[a->n] = s;
				while (*s && *s != ' ' && *s != '\t')
					s++;
			}
		}
		if (*s)
			*s++ = 0;
		a->n++;
	}
	return cmd;
}

static const char *arg(const struct args *a, const char *name)
{
	for (int i = 0; i < a->n; i++)
		if (!strcmp(a->name[i], name))
			return a->value[i] ? a->value[i] : "";
	return NULL;
}

/* ---------------------------------------------------------------- session */

#define MAXPLY 2048
static struct dll eng;
static enum variant variant = ENGLISH;
static struct pos startp, hist[MAXPLY + 1]; /* hist[i]: the position after i plies */
static struct mv moves[MAXPLY];
static int nply, pos_refused;
static char engine_name[1024] = "engine";
static int has_depth; /* the engine takes "set depth" (damka.dll) */

static struct {
	double movetime, time, inc;
	int moves, depth, infinite, clock, nodes;
} lim;

static const struct pos *cur(void) { return &hist[nply]; }

/* reset_game starts a game at p. */
static void reset_game(const struct pos *p)
{
	startp = *p;
	hist[0] = *p;
	nply = 0;
}

/* set_variant makes the engine play v (get gametype, else set gametype); 0 if it cannot. */
static int set_variant(enum variant v)
{
	char reply[1024], cmd[64];
	if (command(&eng, "get gametype", reply) && atoi(reply) == variant_gametype[v]) {
		variant = v;
		return 1;
	}
	snprintf(cmd, sizeof cmd, "set gametype %d", variant_gametype[v]);
	if (command(&eng, cmd, reply) && command(&eng, "get gametype", reply) && atoi(reply) == variant_gametype[v]) {
		variant = v;
		return 1;
	}
	/* An engine without get gametype plays English. */
	if (v == ENGLISH && !command(&eng, "get gametype", reply)) {
		variant = v;
		return 1;
	}
	return 0;
}

static void hello(void)
{
	char reply[1024];
	out("id name=\"%s\" version=1 author=\"cbhub (damka)\"", engine_name);
	out("param name=variant value=%s type=enum values=\"english russian brazilian\"", variant_names[variant]);
	int hash = command(&eng, "get hashsize", reply) ? atoi(reply) : 0;
	out("param name=hash value=%d type=int min=1 max=16384", hash > 0 ? hash : 64);
	int thr = command(&eng, "get searchthreads", reply) ? atoi(reply) : 0;
	out("param name=threads value=%d type=int min=1 max=256", thr > 0 ? thr : 1);
	int book = command(&eng, "get book", reply) ? atoi(reply) : 0;
	out("param name=book value=%s type=bool", book > 0 ? "true" : "false");
	out("wait");
}

static void set_param(const struct args *a)
{
	const char *name = arg(a, "name"), *value = arg(a, "value");
	char cmd[256], reply[1024];
	if (!name || !value) {
		err("set-param: want name=N value=V");
		return;
	}
	if (!strcmp(name, "variant")) {
		enum variant v;
		if (!strcmp(value, "english") || !strcmp(value, "american"))
			v = ENGLISH;
		else if (!strcmp(value, "russian"))
			v = RUSSIAN;
		else if (!strcmp(value, "brazilian"))
			v = BRAZILIAN;
		else {
			err("set-param variant: unknown variant '%s' (want english, russian or brazilian)", value);
			return;
		}
		if (!set_variant(v)) {
			command(&eng, "get gametype", reply);
			err("set-param variant: %s does not play %s (get gametype %s)", engine_name, value, reply);
			return;
		}
		struct pos p;
		start_pos(&p, variant);
		reset_game(&p);
		return;
	}
	if (!strcmp(name, "hash"))
		snprintf(cmd, sizeof cmd, "set hashsize %s", value);
	else if (!strcmp(name, "threads"))
		snprintf(cmd, sizeof cmd, "set searchthreads %s", value);
	else if (!strcmp(name, "book"))
		snprintf(cmd, sizeof cmd, "set book %s", (!strcmp(value, "false") || !strcmp(value, "0")) ? "0" : "2");
	else {
		err("set-param: unknown parameter '%s' (known: variant, hash, threads, book)", name);
		return;
	}
	if (!command(&eng, cmd, reply))
		err("set-param %s: the engine refused '%s' (%s)", name, cmd, reply);
}

static void pos_cmd(const struct args *a)
{
	const char *ps = arg(a, "pos"), *ms = arg(a, "moves");
	struct pos p;
	memset(&lim, 0, sizeof lim);
	if (ps) {
		int ok = strchr(ps, ':') ? parse_fen(ps, &p) : parse_hubpos(ps, &p);
		if (!ok) {
			err("pos: bad position '%s' (want 33 characters or a numeric FEN; position unchanged)", ps);
			pos_refused = 1;
			return;
		}
	} else
		start_pos(&p, variant);
	pos_refused = 0;
	reset_game(&p);
	if (!ms)
		return;
	char buf[16384];
	snprintf(buf, sizeof buf, "%s", ms);
	int i = 0;
	for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "), i++) {
		struct mv list[MAXMOVES];
		int n = generate(cur(), variant, list);
		int k = parse_move(t, list, n);
		if (k < 0 || nply >= MAXPLY) {
			err("pos: bad move %d in moves, '%s': %s (the moves before it stay applied)", i + 1, t,
			    k == -2 ? "ambiguous" : "not legal");
			return;
		}
		moves[nply] = list[k];
		hist[nply + 1] = hist[nply];
		play(&hist[nply + 1], &list[k]);
		nply++;
	}
}

static void level(const struct args *a)
{
	for (int i = 0; i < a->n; i++) {
		const char *n = a->name[i], *v = a->value[i] ? a->value[i] : "";
		if (!strcmp(n, "move-time"))
			lim.movetime = atof(v);
		else if (!strcmp(n, "time")) {
			lim.time = atof(v) < 0 ? 0 : atof(v); /* a negative clock counts as empty */
			lim.clock = 1;
		}
		else if (!strcmp(n, "inc"))
			lim.inc = atof(v);
		else if (!strcmp(n, "moves"))
			lim.moves = atoi(v);
		else if (!strcmp(n, "depth"))
			lim.depth = atoi(v);
		else if (!strcmp(n, "nodes"))
			lim.nodes = 1;
		else if (!strcmp(n, "infinite"))
			lim.infinite = 1;
		else
			err("level: unknown argument '%s' ignored", n);
	}
	if (lim.nodes)
		err("level: nodes is not in the CheckerBoard API (ignored)");
}

/* is_irreversible: a man move or a capture (what CheckerBoard's history starts after). */
static int is_irreversible(const struct mv *m) { return m->ncap > 0 || (m->piece & CB_MAN); }

static void send_gamehist(void)
{
	int k = nply;
	while (k > 0 && !is_irreversible(&moves[k - 1]))
		k--;
	static char buf[65536];
	char *o = buf;
	o += sprintf(o, "set gamehist ");
	format_fen(&hist[k], o);
	o += strlen(o);
	for (int i = k; i < nply && o - buf < (long)sizeof buf - 32; i++)
		o += sprintf(o, " %d-%d", moves[i].from, moves[i].to);
	char reply[1024];
	command(&eng, buf, reply);
}

/* ---------------------------------------------------------------- search */

static volatile int playnow;
static volatile LONG searching;
static HANDLE search_thread, watch_thread;
static volatile double deadline; /* seconds (now_s), 0: none */
static LARGE_INTEGER freq, t0;

static double now_s(void)
{
	LARGE_INTEGER t;
	QueryPerformanceCounter(&t);
	return (double)(t.QuadPart - t0.QuadPart) / (double)freq.QuadPart;
}

struct job {
	struct pos root;
	double maxtime;
	int info, moreinfo;
	int ponder;
	double ponder_hard; /* after ponder-hit: stop the search this many seconds later */
};
static struct job job;
static char status[1024];

static DWORD WINAPI watchdog(LPVOID unused)
{
	(void)unused;
	while (searching) {
		double d = deadline;
		if (d > 0 && now_s() >= d)
			playnow = 1;
		Sleep(2);
	}
	return 0;
}

static DWORD WINAPI searcher(LPVOID unused)
{
	(void)unused;
	int board[8][8], before[8][8];
	struct CBmove cbm;
	memset(&cbm, 0, sizeof cbm);
	to_board(&job.root, board);
	memcpy(before, board, sizeof board);
	status[0] = 0;
	double t = now_s();
	int ret = eng.getmove(board, job.root.side, job.maxtime, status, (int *)&playnow, job.info, job.moreinfo, &cbm);
	double el = now_s() - t;
	status[1023] = 0;
	logf_("getmove returned %d after %.3f s: %s", ret, el, status);

	struct mv list[MAXMOVES];
	int n = generate(&job.root, variant, list), found = -1;
	for (int i = 0; i < n && found < 0; i++) {
		struct pos q = job.root;
		int b2[8][8];
		play(&q, &list[i]);
		to_board(&q, b2);
		if (!memcmp(b2, board, sizeof b2))
			found = i;
	}
	if (found < 0) {
		if (!memcmp(before, board, sizeof board))
			err("go: %s returned no move (getmove %d: %s)", engine_name, ret, status);
		else
			err("go: %s returned a board that no legal move reaches (getmove %d)", engine_name, ret);
		out("done");
	} else {
		char m[128];
		hub_move(&list[found], m);
		out("done move=%s", m);
	}
	InterlockedExchange(&searching, 0);
	return 0;
}

/* finish_search waits for the running search (after making it stop if asked). */
static void finish_search(int stop)
{
	if (!search_thread)
		return;
	if (stop)
		playnow = 1;
	WaitForSingleObject(search_thread, INFINITE);
	CloseHandle(search_thread);
	search_thread = NULL;
	if (watch_thread) {
		WaitForSingleObject(watch_thread, INFINITE);
		CloseHandle(watch_thread);
		watch_thread = NULL;
	}
}

/* pack_clock packs seconds into CheckerBoard's incremental-time units: the finest of ms, 10 ms, 100 ms
   in which both fit 16 bits. */
static void pack_clock(double time, double inc, int *info, int *moreinfo)
{
	static const double unit[3] = {0.001, 0.01, 0.1};
	for (int u = 0; u < 3; u++) {
		double tt = floor(time / unit[u] + 0.5), ii = floor(inc / unit[u] + 0.5);
		if ((tt <= 65535 && ii <= 65535) || u == 2) {
			if (tt > 65535) tt = 65535;
			if (ii > 65535) ii = 65535;
			*info |= (u + 1) << CB_INCR_TIME_SHIFT;
			*moreinfo = (int)(((unsigned)tt << 16) | (unsigned)ii);
			return;
		}
	}
}

static void go(const struct args *a)
{
	int ponder = arg(a, "ponder") != NULL, analyze = arg(a, "analyze") != NULL;
	if (!ponder && !analyze && !arg(a, "think")) {
		err("go: missing mode: want go think, go ponder or go analyze (no search)");
		out("done");
		return;
	}
	if (pos_refused) {
		err("go: no search: the last pos was refused");
		out("done");
		return;
	}
	struct mv list[MAXMOVES];
	if (generate(cur(), variant, list) == 0) {
		err("go: %s to move has no legal move: the game is over (no search, no move)",
		    cur()->side == CB_WHITE ? "white" : "black");
		out("done");
		memset(&lim, 0, sizeof lim);
		return;
	}
	char reply[1024], cmd[64];
	memset(&job, 0, sizeof job);
	job.root = *cur();
	double hard = 0;
	if (has_depth) {
		snprintf(cmd, sizeof cmd, "set depth %d", lim.depth > 0 && !analyze ? lim.depth : 0);
		command(&eng, cmd, reply);
	}
	if (analyze || lim.infinite) {
		job.maxtime = 1e6;
	} else if (lim.movetime > 0) {
		job.maxtime = lim.movetime;
		job.info |= CB_EXACT_TIME;
		hard = lim.movetime * 1.05 + 0.02;
	} else if (lim.clock) {
		double left = lim.time, per = lim.moves > 0 ? lim.moves : 25;
		job.maxtime = lim.inc + left / per;
		if (job.maxtime > left + lim.inc)
			job.maxtime = left + lim.inc;
		if (job.maxtime < 0.01)
			job.maxtime = 0.01;
		pack_clock(lim.time, lim.inc, &job.info, &job.moreinfo);
		hard = (left + lim.inc) * 0.8;
		if (hard < 0.005)
			hard = 0.005;
	} else if (lim.depth > 0) {
		if (has_depth)
			job.maxtime = 1e6;
		else {
			err("level depth: %s has no depth limit; searching 1 s a move", engine_name);
			job.maxtime = 1;
			hard = 1.5;
		}
	} else
		job.maxtime = 1e6; /* no level: until stop */
	memset(&lim, 0, sizeof lim);
	if (ponder) {
		/* No pondering in the API: search until ponder-hit, then for the move's time. */
		job.ponder_hard = hard > 0 ? hard : job.maxtime;
		job.maxtime = 1e6;
		job.info &= ~CB_EXACT_TIME;
		hard = 0;
	}

	send_gamehist();
	playnow = 0;
	deadline = hard > 0 ? now_s() + hard : 0;
	job.ponder = ponder;
	InterlockedExchange(&searching, 1);
	watch_thread = CreateThread(NULL, 0, watchdog, NULL, 0, NULL);
	search_thread = CreateThread(NULL, 0, searcher, NULL, 0, NULL);
	if (!search_thread) {
		InterlockedExchange(&searching, 0);
		err("go: cannot start the search thread (error %lu)", (unsigned long)GetLastError());
		out("done");
	}
}

/* ---------------------------------------------------------------- input */

/* read_line reads one line without its end of line; 0 at the end of input. */
static int read_line(char *buf, int size)
{
	if (!fgets(buf, size, stdin))
		return 0;
	size_t n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = 0;
	return 1;
}

static int serve(void)
{
	static char line[1 << 16];
	struct args a;
	while (read_line(line, sizeof line)) {
		char copy[1 << 16];
		snprintf(copy, sizeof copy, "%s", line);
		char *cmd = tokenize(copy, &a);
		if (search_thread) {
			if (searching) {
				if (!strcmp(cmd, "ping")) {
					out("pong");
					continue;
				}
				if (!strcmp(cmd, "stop")) {
					playnow = 1;
					continue;
				}
				if (!strcmp(cmd, "ponder-hit")) {
					if (job.ponder && deadline == 0)
						deadline = now_s() + job.ponder_hard;
					continue;
				}
			}
			finish_search(1);
		}
		if (!*cmd) {
			err("missing command");
		} else if (!strcmp(cmd, "hub")) {
			hello();
		} else if (!strcmp(cmd, "set-param")) {
			set_param(&a);
		} else if (!strcmp(cmd, "init")) {
			out("ready");
		} else if (!strcmp(cmd, "new-game")) {
		} else if (!strcmp(cmd, "pos")) {
			pos_cmd(&a);
		} else if (!strcmp(cmd, "level")) {
			level(&a);
		} else if (!strcmp(cmd, "go")) {
			go(&a);
		} else if (!strcmp(cmd, "ping")) {
			out("pong");
		} else if (!strcmp(cmd, "stop") || !strcmp(cmd, "ponder-hit")) {
		} else if (!strcmp(cmd, "quit")) {
			break;
		} else {
			err("bad command");
		}
	}
	finish_search(1);
	return 0;
}

/* ---------------------------------------------------------------- tests */

static enum variant parse_variant(const char *s, int *ok)
{
	*ok = 1;
	for (int v = 0; v < 3; v++)
		if (!strcmp(s, variant_names[v]))
			return (enum variant)v;
	*ok = 0;
	return ENGLISH;
}

/* reload_test loads the DLL, asks its name, plays one short getmove (checked against the legal
   moves) and frees it, n times over. */
static int reload_test(const char *path, int n)
{
	char why[512], reply[1024], st[1024];
	for (int i = 1; i <= n; i++) {
		struct dll d;
		if (!load_dll(path, &d, why, sizeof why)) {
			fprintf(stderr, "reload %d: %s\n", i, why);
			return 1;
		}
		command(&d, "name", reply);
		struct pos p;
		start_pos(&p, ENGLISH);
		if (command(&d, "get gametype", st) && atoi(st) != GT_ENGLISH) {
			int v = atoi(st) == GT_RUSSIAN ? RUSSIAN : BRAZILIAN;
			start_pos(&p, v);
		}
		int board[8][8], pn = 0;
		struct CBmove m;
		to_board(&p, board);
		st[0] = 0;
		d.getmove(board, p.side, 0.05, st, &pn, 0, 0, &m);
		int changed = 0;
		for (int n2 = 1; n2 <= 32; n2++)
			changed |= board[sqx[n2]][sqy[n2]] != p.sq[n2];
		printf("reload %d: loaded at %p, name \"%s\", getmove: %s (%s)\n", i, (void *)d.h, reply,
		       changed ? "moved" : "NO MOVE", st);
		fflush(stdout);
		if (!changed)
			return 1;
		if (!FreeLibrary(d.h)) {
			fprintf(stderr, "reload %d: FreeLibrary failed (%lu)\n", i, (unsigned long)GetLastError());
			return 1;
		}
		printf("reload %d: freed\n", i);
		fflush(stdout);
	}
	printf("reload test passed: %d loads\n", n);
	return 0;
}

/* api_test checks the DLL's answers to odd inputs at the API level (what CheckerBoard sends). */
static int api_failures;

static void check(int ok, const char *what, const char *detail)
{
	printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", what, detail && *detail ? ": " : "", detail ? detail : "");
	fflush(stdout);
	if (!ok)
		api_failures++;
}

/* engine_move names the move that turned p into board, -1 if none. */
static int engine_move(const struct pos *p, enum variant v, int board[8][8], struct mv *list, int *n)
{
	*n = generate(p, v, list);
	for (int i = 0; i < *n; i++) {
		struct pos q = *p;
		int b2[8][8];
		play(&q, &list[i]);
		to_board(&q, b2);
		if (!memcmp(b2, board, sizeof b2))
			return i;
	}
	return -1;
}

static int api_test(const char *path)
{
	char why[512], reply[1024], st[1024], buf[4096], detail[2048];
	struct dll d;
	if (!load_dll(path, &d, why, sizeof why)) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	int r = command(&d, "get protocolversion", reply);
	check(r && !strcmp(reply, "2"), "get protocolversion is 2", reply);
	r = command(&d, "get movelist B:W1:B", reply);
	check(r && !strcmp(reply, "movelist 0"), "get movelist B:W1:B answers exactly 'movelist 0'", reply);
	r = command(&d, "no such command", reply);
	check(!r, "an unknown command is not handled (returns 0)", reply);

	for (int v = 0; v < 3; v++) {
		char cmd[64];
		snprintf(cmd, sizeof cmd, "set gametype %d", variant_gametype[v]);
		r = command(&d, cmd, reply) && command(&d, "get gametype", reply) && atoi(reply) == variant_gametype[v];
		snprintf(detail, sizeof detail, "get gametype %s", reply);
		check(r, cmd, detail);
		struct pos p;
		start_pos(&p, (enum variant)v);
		/* get movelist of the start position: as many moves as cbhub's own generator. */
		struct mv list[MAXMOVES];
		int n = generate(&p, (enum variant)v, list);
		format_fen(&p, buf);
		char full[4200];
		snprintf(full, sizeof full, "get movelist %s", buf);
		r = command(&d, full, reply);
		char want[32];
		snprintf(want, sizeof want, "movelist %d,", n);
		check(r && !strncmp(reply, want, strlen(want)), "get movelist of the start position", reply);
		/* A search: the board comes back after a legal move. */
		int board[8][8], pn = 0, k;
		struct CBmove m;
		to_board(&p, board);
		snprintf(full, sizeof full, "set gamehist %s", buf);
		command(&d, full, reply);
		st[0] = 0;
		d.getmove(board, p.side, 0.1, st, &pn, 0, 0, &m);
		k = engine_move(&p, (enum variant)v, board, list, &n);
		char mvs[128] = "none";
		if (k >= 0)
			hub_move(&list[k], mvs);
		snprintf(detail, sizeof detail, "%s (%s)", mvs, st);
		check(k >= 0, variant_names[v], detail);
	}

	/* Russian: a pending capture (White must take 22x15 or 22x13... whichever is legal). */
	command(&d, "set gametype 25", reply);
	struct pos p;
	parse_fen("W:W22,23,30:B17,18,5", &p);
	struct mv list[MAXMOVES];
	int board[8][8], before[8][8], pn = 0, n, k;
	struct CBmove m;
	memset(&m, 0, sizeof m);
	to_board(&p, board);
	st[0] = 0;
	d.getmove(board, p.side, 0.1, st, &pn, 0, 0, &m);
	k = engine_move(&p, RUSSIAN, board, list, &n);
	snprintf(detail, sizeof detail, "%d legal moves, all captures: %s; CBmove jumps %d", n,
	         k >= 0 ? "played one" : "NOT PLAYED", m.jumps);
	check(k >= 0 && list[k].ncap > 0 && m.jumps == list[k].ncap, "a pending capture is taken", detail);
	if (k >= 0) {
		int okc = coor_square(m.from.x, m.from.y) == list[k].from && coor_square(m.to.x, m.to.y) == list[k].to;
		for (int i = 0; i < m.jumps && i < 12; i++)
			okc &= p.sq[coor_square(m.del[i].x, m.del[i].y)] != 0 && (m.delpiece[i] & CB_BLACK);
		check(okc, "the CBmove names from, to and the captured pieces", "");
	}

	/* No legal move: Black has no piece; the board stays as it was. */
	command(&d, "set gametype 21", reply);
	parse_fen("B:W5:B", &p);
	to_board(&p, board);
	memcpy(before, board, sizeof board);
	st[0] = 0;
	r = d.getmove(board, p.side, 0.1, st, &pn, 0, 0, &m);
	snprintf(detail, sizeof detail, "getmove %d: %s", r, st);
	check(!memcmp(before, board, sizeof board), "a board with no legal move is left unchanged", detail);

	/* A 300-character gamehist: two kings shuffling, Black to move after it. */
	static const char *shuffle[4] = {"29-25", "4-8", "25-29", "8-4"};
	char *o = buf;
	o += sprintf(o, "set gamehist W:WK29:BK4");
	for (int i = 0; i < 63; i++)
		o += sprintf(o, " %s", shuffle[i % 4]);
	r = command(&d, buf, reply);
	snprintf(detail, sizeof detail, "%d characters, reply '%s'", (int)strlen(buf) - 13, reply);
	check(r && strlen(buf) - 13 >= 300, "set gamehist of 300+ characters is taken", detail);
	parse_fen("B:WK29:BK8", &p); /* the position the gamehist reaches */
	to_board(&p, board);
	st[0] = 0;
	r = d.getmove(board, p.side, 0.1, st, &pn, 0, 0, &m);
	k = engine_move(&p, ENGLISH, board, list, &n);
	snprintf(detail, sizeof detail, "getmove %d: %s", r, st);
	check(k >= 0, "getmove after the long gamehist plays a legal move", detail);

	/* islegal (English start). */
	if (d.islegal) {
		start_pos(&p, ENGLISH);
		to_board(&p, board);
		r = d.islegal(board, CB_BLACK, 11, 15, &m);
		check(r == 1 && coor_square(m.to.x, m.to.y) == 15, "islegal 11-15 in the English start", "");
		r = d.islegal(board, CB_BLACK, 11, 18, &m);
		check(r == 0, "islegal 11-18 is not legal", "");
	}

	/* playnow: a 1000 s search stopped after 0.3 s. */
	start_pos(&p, ENGLISH);
	to_board(&p, board);
	command(&d, "set book 0", reply);
	pn = 0;
	playnow = 0;
	memset(&job, 0, sizeof job);
	job.root = p;
	job.maxtime = 1000;
	InterlockedExchange(&searching, 1);
	deadline = now_s() + 0.3;
	HANDLE w = CreateThread(NULL, 0, watchdog, NULL, 0, NULL);
	double t = now_s();
	st[0] = 0;
	d.getmove(board, p.side, 1000, st, (int *)&playnow, 0, 0, &m);
	double el = now_s() - t;
	InterlockedExchange(&searching, 0);
	WaitForSingleObject(w, INFINITE);
	k = engine_move(&p, ENGLISH, board, list, &n);
	snprintf(detail, sizeof detail, "returned after %.2f s: %s", el, st);
	check(k >= 0 && el < 5, "*playnow stops a 1000 s search", detail);

	printf("api test: %d failures\n", api_failures);
	return api_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	geom_init();
	QueryPerformanceFrequency(&freq);
	QueryPerformanceCounter(&t0);
	InitializeCriticalSection(&out_lock);
	_setmode(_fileno(stdout), _O_BINARY);
	_setmode(_fileno(stdin), _O_BINARY);

	if (argc >= 4 && !strcmp(argv[1], "--perft")) {
		int ok;
		enum variant v = parse_variant(argv[2], &ok);
		struct pos p;
		start_pos(&p, v);
		if (!ok || (argc >= 5 && !parse_fen(argv[4], &p))) {
			fprintf(stderr, "cbhub --perft english|russian|brazilian DEPTH [FEN]\n");
			return 2;
		}
		for (int d = 1; d <= atoi(argv[3]); d++)
			printf("perft %s %d %llu\n", variant_names[v], d, perft(&p, v, d));
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "--api-test"))
		return api_test(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "--reload-test"))
		return reload_test(argv[2], argc >= 4 ? atoi(argv[3]) : 3);
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: cbhub ENGINE.DLL (Hub on stdin/stdout)\n"
		                "       cbhub --reload-test ENGINE.DLL [N]\n"
		                "       cbhub --api-test ENGINE.DLL\n"
		                "       cbhub --perft english|russian|brazilian DEPTH [FEN]\n");
		return 2;
	}
	char why[512], reply[1024];
	if (!load_dll(argv[1], &eng, why, sizeof why)) {
		fprintf(stderr, "cbhub: %s\n", why);
		return 2;
	}
	if (command(&eng, "name", reply) && reply[0]) {
		snprintf(engine_name, sizeof engine_name, "%s", reply);
		for (char *c = engine_name; *c; c++)
			if (*c == '"' || *c == '\n' || *c == '\r')
				*c = ' ';
	}
	has_depth = command(&eng, "get depth", reply);
	if (command(&eng, "get gametype", reply)) {
		int gt = atoi(reply);
		variant = gt == GT_RUSSIAN ? RUSSIAN : gt == GT_BRAZILIAN ? BRAZILIAN : ENGLISH;
	}
	logf_("loaded %s: %s, game type %s", argv[1], engine_name, variant_names[variant]);
	struct pos p;
	start_pos(&p, variant);
	reset_game(&p);
	int rc = serve();
	fflush(stdout);
	/* The engine's threads may still run (a Go DLL cannot be unloaded): end the process here. */
	ExitProcess(rc);
}
