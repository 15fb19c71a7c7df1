#!/usr/bin/env bash
# test-cb.sh: make test-cb. damka.dll driven by cbhub.exe under wine: cbhub's own rules (perft),
# the DLL's API answers to odd inputs, load/unload/reload, a Hub session (handshake, a search in
# each variant, odd positions), and complete games against the native damka with damka match,
# every move checked by the match referee. Needs bin/damka, bin/damka.dll, bin/cbhub.exe and
# bin/bcryptprimitives.dll (make build cbdll cbhub) and wine.
#
# CB_GAMES_OPENINGS: openings per variant (2 games each, colours swapped); CB_MOVETIME: seconds
# a move. WINEPREFIX defaults to bin/wine (made on first use).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export WINEDEBUG=${WINEDEBUG:--all}
export WINEPREFIX=${WINEPREFIX:-$root/bin/wine}
movetime=${CB_MOVETIME:-0.1}
WINE=${WINE:-wine}
fail() { echo "test-cb: FAIL: $*" >&2; exit 1; }

for f in bin/damka bin/damka.dll bin/cbhub.exe bin/bcryptprimitives.dll; do
	[ -f "$f" ] || fail "$f missing (make build cbdll cbhub)"
done

# The wine prefix, and Windows 10's bcryptprimitives.dll that Go 1.22+ needs where wine lacks it.
if [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
	echo "== making the wine prefix $WINEPREFIX"
	timeout 120 "$WINE" cmd /c exit 0 >/dev/null 2>&1 || true
fi
sys32=$WINEPREFIX/drive_c/windows/system32
[ -d "$sys32" ] || fail "wine made no prefix at $WINEPREFIX"
if [ ! -e "$sys32/bcryptprimitives.dll" ] || cmp -s bin/bcryptprimitives.dll "$sys32/bcryptprimitives.dll"; then
	cp bin/bcryptprimitives.dll "$sys32/bcryptprimitives.dll"
fi

echo "== cbhub's own rules: perft of the three games (distinct moves, docs/rules.md)"
want_english="7 49 302 1469 7361 36768 179740"
want_russian="7 49 302 1469 7482 37986 190146"
want_brazilian="7 49 302 1469 7473 37628 187302"
for v in english russian brazilian; do
	got=$(timeout 120 "$WINE" bin/cbhub.exe --perft $v 7 | awk '{printf "%s%s", sep, $4; sep=" "}')
	want=want_$v
	[ "$got" = "${!want}" ] || fail "perft $v: got $got, want ${!want}"
	echo "perft $v 1..7: $got"
done

echo "== the DLL's answers to odd inputs (cbhub --api-test)"
timeout 120 "$WINE" bin/cbhub.exe --api-test bin/damka.dll || fail "api test"

echo "== load, unload, reload in one process (cbhub --reload-test)"
timeout 120 "$WINE" bin/cbhub.exe --reload-test bin/damka.dll 3 || fail "reload test"

echo "== a Hub session: cbhub.exe driving damka.dll (> sent, < answered)"
session=$(mktemp)
answers=$(mktemp)
trap 'rm -f "$session" "$answers"' EXIT
cat >"$session" <<'EOF'
hub
set-param name=book value=false
init
set-param name=variant value=english
pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="11-15 23-19"
level move-time=0.2
go think
set-param name=variant value=russian
pos moves="22-18 11-15 18x11x15"
level move-time=0.2
go think
set-param name=variant value=brazilian
pos pos=W:W21-32:B1-12
level time=5 inc=0.1
go think
set-param name=variant value=english
pos pos=W:W5:B1
go think
set-param name=variant value=russian
pos pos=W:W22,23,30:B17,18,5
level move-time=0.1
go think
pos pos=Wbogus
go think
pos moves="22-19"
level depth=4
go think
set-param name=variant value=english
pos start
level move-time=60
go think &
ping
stop
quit
EOF
# Send one line at a time and wait for its answers: a go until its done, hub until wait,
# init until ready, ping until pong; anything else gets 0.5 s for an error line.
coproc CBHUB { exec timeout 120 "$WINE" bin/cbhub.exe bin/damka.dll 2>/dev/null; }
while IFS= read -r cmd; do
	echo "> ${cmd% &}"
	echo "${cmd% &}" >&"${CBHUB[1]}"
	case $cmd in
	*' &') until_re='' ;; # sent without waiting (a search that ping and stop then meet)
	go* | stop) until_re='^done' ;;
	hub) until_re='^wait$' ;;
	init) until_re='^ready$' ;;
	ping) until_re='^pong$' ;;
	quit) break ;;
	*) until_re='' ;;
	esac
	while true; do
		if [ -n "$until_re" ]; then
			IFS= read -r -t 60 ans <&"${CBHUB[0]}" || fail "no answer to '$cmd'"
		else
			IFS= read -r -t 0.5 ans <&"${CBHUB[0]}" || break
		fi
		echo "< $ans"
		echo "$ans" >>"$answers"
		if [ -n "$until_re" ] && [[ $ans =~ $until_re ]]; then break; fi
	done
done <"$session"
wait "$CBHUB_PID" || fail "cbhub exited with status $?"
grep -q '^id name="damka' "$answers" || fail "no id line"
grep -q '^wait$' "$answers" || fail "no wait"
grep -q '^ready$' "$answers" || fail "no ready"
grep -q '^pong$' "$answers" || fail "no pong"
[ "$(grep -c '^done' "$answers")" = 8 ] || fail "want 8 done lines (one per go)"
[ "$(grep -c '^done move=' "$answers")" = 6 ] || fail "want 6 moves (english, russian, brazilian, the capture, depth 4, the stopped search)"
grep -q 'no legal move' "$answers" || fail "the position without a move was not reported"
grep -Eq '^done move=(22x13x17|22x15x18|23x21x17x18)$' "$answers" || fail "the pending capture was not taken"
grep -q "bad position 'Wbogus'" "$answers" || fail "the bad position was not reported"
grep -q "bad move 1 in moves, '22-19'" "$answers" || fail "the illegal move was not reported"

for v in english russian brazilian; do
	echo "== damka.dll (cbhub.exe under wine) against native damka: $v, $movetime s a move"
	pdn=bin/test-cb-$v.pdn
	rm -f "$pdn"
	nice bin/damka match --variant "$v" \
		--engine name=damka.dll cmd="$WINE $root/bin/cbhub.exe $root/bin/damka.dll" \
		--engine name=damka cmd="$root/bin/damka" option.threads=1 \
		--openings "cbhub/testdata/openings_$v.txt" --movetime "$movetime" \
		--time-margin "${CB_TIME_MARGIN:-2}" --handshake-timeout 60 --concurrency 1 \
		--pdn "$pdn" --engine-stderr bin/test-cb-stderr.log | tail -4
	bad=$(grep -E '^\[Termination "' "$pdn" | grep -vE '"(normal|adjudication)"' || true)
	[ -z "$bad" ] || fail "$v: games ended badly: $bad (see $pdn)"
	n=$(grep -c '^\[Termination "' "$pdn")
	[ "$n" -ge 2 ] || fail "$v: only $n games"
	echo "$v: $n games, every one ended by the rules (no illegal move, crash, hang or time loss)"
done
echo "test-cb: PASS"
