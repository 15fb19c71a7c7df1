/* cbapi_windows.c: the C side of damka.dll: it pins the DLL at load (a Go
   c-shared library cannot be unloaded: golang/go#11100), finds its own file
   name, and reads *playnow. */
#include <windows.h>
#include "cbapi_windows.h"

_Static_assert(sizeof(struct CBmove) == 268, "struct CBmove has cb_interface.h's layout");

static char module_path[MAX_PATH * 4];
static int pinned;

/* Runs when the DLL is loaded (before any export is called). Pinning keeps
   the DLL mapped after FreeLibrary, so CheckerBoard can switch engines
   (FreeLibrary, LoadLibrary of another or the same DLL) without unmapping
   the Go runtime under its own threads. */
__attribute__((constructor)) static void damka_on_load(void)
{
	HMODULE h = NULL;
	WCHAR wpath[MAX_PATH];
	if (GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
	                       (LPCWSTR)(void *)&damka_on_load, &h))
		pinned = 1;
	if (h != NULL) {
		DWORD n = GetModuleFileNameW(h, wpath, MAX_PATH);
		if (n > 0 && n < MAX_PATH)
			WideCharToMultiByte(CP_UTF8, 0, wpath, -1, module_path, sizeof module_path, NULL, NULL);
	}
}

int damka_read_playnow(int *playnow)
{
	if (playnow == NULL)
		return 0;
	return *(volatile int *)playnow;
}

const char *damka_module_path(void) { return module_path; }

long long damka_qpc_ns(void)
{
	static LARGE_INTEGER freq;
	LARGE_INTEGER c;
	if (freq.QuadPart == 0)
		QueryPerformanceFrequency(&freq);
	QueryPerformanceCounter(&c);
	return (c.QuadPart / freq.QuadPart) * 1000000000LL + (c.QuadPart % freq.QuadPart) * 1000000000LL / freq.QuadPart;
}

int damka_pinned(void) { return pinned; }
