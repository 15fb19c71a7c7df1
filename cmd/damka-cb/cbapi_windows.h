/* cbapi_windows.h: CheckerBoard's engine API types (cb_interface.h), and the
   helpers of cbapi_windows.c. Declarations only: cgo copies them into its
   export header. */
#ifndef DAMKA_CBAPI_H
#define DAMKA_CBAPI_H

struct coor {
	int x;
	int y;
};

struct CBmove {
	int jumps;
	int newpiece;
	int oldpiece;
	struct coor from;
	struct coor to;
	struct coor path[12];
	struct coor del[12];
	int delpiece[12];
};

/* damka_read_playnow reads *playnow as CheckerBoard writes it from another
   thread (a volatile read); a NULL pointer reads 0. */
int damka_read_playnow(int *playnow);

/* damka_module_path returns the DLL's own file name (UTF-8), "" if unknown.
   damka_pinned says whether the DLL pinned itself at load. */
const char *damka_module_path(void);
int damka_pinned(void);

/* damka_qpc_ns returns QueryPerformanceCounter in nanoseconds: the search's
   clock (Go's own clock is coarse under wine). */
long long damka_qpc_ns(void);

#endif
