/* bcryptprimitives.c: a stand-in for Windows 10's bcryptprimitives.dll, for wine versions that
   lack it (Debian 12's wine 8.0). Go 1.22+ programs and DLLs need its ProcessPrng at start-up
   ("fatal error: bcryptprimitives.dll not found"). make test-cb installs it into the test's wine
   prefix only when the prefix has none; real Windows 10 and 11 have their own. */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
