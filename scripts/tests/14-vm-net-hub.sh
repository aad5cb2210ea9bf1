#!/bin/bash
# full test: make check-full only
# The guests' shared link (vm-run.sh -n) goes through scripts/net-hub over
# unix datagram sockets only. On the host: the hub sends a frame to every
# guest socket but the sender's, refuses a second hub on its folder, stops
# on SIGTERM and by itself once no guest is left. In VMs: two guests on one
# hub ping each other (frames both ways); once the hub is stopped, their
# pings go unanswered. Their QEMU command lines use the unix dgram netdev,
# neither QEMU nor the hub holds an inet socket, and no script of the
# workbench gives QEMU a multicast group.
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/vm-net-hub
rm -rf "$out"
mkdir -p "$out"

# -- no QEMU command line of the workbench names a multicast group (the
# option is 'mcast' and '=' and an address; the bracket keeps the pattern from
# matching this file)
if hits=$(grep -rnE 'mcast[=]' "$TOP/scripts" "$TOP/Makefile" "$TOP/tools" 2>/dev/null); then
	not_ok "a QEMU network option with a multicast group: $hits"
else
	ok "no multicast option (mcast[=]) in scripts/, tools/ or the Makefile"
fi

# -- the hub alone, with sockets bound here for guests
hubprog=$(. "$TOP/scripts/lib.sh" && host_prog net-hub) || { not_ok "net-hub does not build"; finish; }
ok "net-hub builds with -Wall -Wextra -Werror"
python3 - "$hubprog" "$out/unit" <<'EOF' | sed 's/^/  | /'
import fcntl, os, signal, socket, subprocess, sys, time
prog, d = sys.argv[1:]
os.makedirs(d)
bad = 0
def waited(p, secs):
    """p's exit status, or None (and p killed) after secs seconds"""
    try:
        return p.wait(secs)
    except subprocess.TimeoutExpired:
        p.kill()
        return None


def check(cond, what):
    global bad
    print(("ok: " if cond else "NOT OK: ") + what)
    bad += not cond
def guest(name):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(f"{d}/guest-{name}.sock")
    s.settimeout(2)
    return s
def got(s, t=2):
    s.settimeout(t)
    try:
        return s.recv(70000)
    except socket.timeout:
        return None
hub = subprocess.Popen([prog, "-i", "1", d], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
for _ in range(50):
    if os.path.exists(f"{d}/hub.sock"):
        break
    time.sleep(0.1)
a, b, c = guest("a"), guest("b"), guest("c")
time.sleep(0.5)
frame = bytes(range(256)) * 35
a.sendto(frame, f"{d}/hub.sock")
check(got(b) == frame and got(c) == frame, "a frame from one guest reaches the two others, unchanged")
check(got(a, 0.5) is None, "and not its sender")
r = subprocess.run([prog, d], capture_output=True, text=True)
check(r.returncode == 3, f"a second hub on the folder exits 3 ({r.returncode}: {r.stderr.strip()})")
r = subprocess.run([prog, d + "/none"], capture_output=True, text=True)
check(r.returncode == 4, f"a hub on a missing folder exits 4 ({r.returncode}: {r.stderr.strip()})")
r = subprocess.run([prog], capture_output=True, text=True)
check(r.returncode == 2, f"no folder: usage, exit 2 ({r.returncode})")
# a held guest lock keeps the hub; with neither sockets nor locks it leaves
lock = open(f"{d}/guest-z.lock", "w")
fcntl.flock(lock, fcntl.LOCK_EX)
for s, n in ((a, "a"), (b, "b"), (c, "c")):
    s.close()
os.unlink(f"{d}/guest-a.sock")
time.sleep(3)
check(hub.poll() is None, "the hub stays while a guest's lock is held (idle time 1 s, 3 s without sockets)")
lock.close()
t0 = time.time()
rc = waited(hub, 10)
check(rc == 0, f"then it leaves by itself, exit {rc} after {time.time() - t0:.1f} s: {hub.stdout.read().strip()}")
check(not os.path.exists(f"{d}/hub.sock"), "and removes its socket")
hub = subprocess.Popen([prog, d], stdout=subprocess.PIPE, text=True)
time.sleep(0.5)
hub.send_signal(signal.SIGTERM)
rc = waited(hub, 5)
check(rc == 0, f"SIGTERM stops it, exit {rc}")
sys.exit(1 if bad else 0)
EOF
rcs=("${PIPESTATUS[@]}")
[ "${rcs[0]}" = 0 ] && ok "net-hub on the host" || not_ok "net-hub on the host (see above)"

# -- two guests on one hub
hub=test-$BASE
netdir=$TOP/build/net/hub-$hub
cat >"$out/nettest.sh" <<'EOF'
# nettest.sh PEER: reach PEER, wait until PEER has reached us, then expect
# the link to go down (the host stops the hub)
peer=$1
t0=$(date +%s)
# seconds since the command started
secs() { echo $(($(date +%s) - t0)); }
# echo requests this guest has received (and answered)
echos() {
	awk '/^Icmp:/ { if (!n) { n = split($0, h); next }
		for (i = 2; i <= n; i++) if (h[i] == "InEchos") print $i; exit }' /proc/net/snmp
}
until ping -c 1 -W 1 "$peer" >/dev/null 2>&1; do
	[ "$(secs)" -lt 40 ] || { echo "nettest: $peer did not answer in $(secs) s"; exit 1; }
	sleep 1
done
ping -c 3 -W 2 "$peer" >ping.txt 2>&1 || { echo "nettest: $peer stopped answering"; exit 1; }
echo "nettest: reached $peer after $(secs) s: $(grep 'packets' ping.txt)"
# the peer's pings: its first answered one and its three
while [ "$(echos)" -lt 4 ]; do
	[ "$(secs)" -lt 60 ] || { echo "nettest: $peer did not reach us ($(echos) echo requests)"; exit 1; }
	sleep 1
done
echo "nettest: link up ($(echos) echo requests from $peer answered)"
t1=$(secs) lost=0
while [ $lost -lt 3 ]; do
	if ping -c 1 -W 1 "$peer" >/dev/null 2>&1; then lost=0; else lost=$((lost + 1)); fi
	[ $(($(secs) - t1)) -lt 30 ] || { echo "nettest: $peer still answers after 30 s"; exit 1; }
	sleep 1
done
echo "nettest: link down (3 pings in a row unanswered)"
EOF
t0=$(date +%s)
pids=()
for i in 1 2; do
	"$VMRUN" -b "$BASE" -q -s '^nettest' -c 1 -m 512M -t 120 -o "$out/g$i" -n "$hub:$i" \
		-f "$out/nettest.sh" "sh /run/files/nettest.sh 10.0.0.$((3 - i))" >"$out/g$i.log" 2>&1 &
	pids+=($!)
done
# until both guests have reached each other, or one of them ended
up=0
while [ $(($(date +%s) - t0)) -lt 150 ]; do
	if grep -q 'nettest: link up' "$out/g1.log" && grep -q 'nettest: link up' "$out/g2.log"; then
		up=1
		break
	fi
	kill -0 "${pids[@]}" 2>/dev/null || break
	sleep 1
done
if [ "$up" = 1 ]; then
	ok "the guests reached each other after $(($(date +%s) - t0)) s"
	hubpid=$(cat "$netdir/hub.pid" 2>/dev/null)
	qpids=()
	for i in 1 2; do
		qpid=$(cat "$out/g$i/qemu.pid" 2>/dev/null)
		qpids+=("$qpid")
		cmdline=$(tr '\0' ' ' <"/proc/$qpid/cmdline" 2>/dev/null)
		if [[ $cmdline == *"-netdev dgram,id=net0,local.type=unix,local.path=$netdir/guest-$i.sock,remote.type=unix,remote.path=$netdir/hub.sock "* ]] &&
			[[ $cmdline != *mcast* ]]; then
			ok "guest $i's QEMU: -netdev dgram on unix sockets in ${netdir#"$TOP"/}"
		else
			not_ok "guest $i's QEMU command line: ${cmdline:-none (pid '$qpid')}"
		fi
	done
	inet=$(ss -H -a -p -A inet,inet6 2>/dev/null | grep -E "pid=(${qpids[0]}|${qpids[1]}|$hubpid),")
	if [ -n "$hubpid" ] && [ -z "$inet" ]; then
		ok "no inet socket in the two QEMUs and the hub (pids ${qpids[*]} $hubpid)"
	else
		not_ok "inet sockets of QEMU or the hub (hub pid '${hubpid}'): $inet"
	fi
	kill -TERM "$hubpid" 2>/dev/null
	for _ in $(seq 50); do kill -0 "$hubpid" 2>/dev/null || break; sleep 0.1; done
	if [ -n "$hubpid" ] && ! kill -0 "$hubpid" 2>/dev/null && [ ! -e "$netdir/hub.sock" ]; then
		ok "the hub stopped on SIGTERM: $(tail -n 1 "$netdir/hub.log")"
	else
		not_ok "the hub (pid $hubpid) did not stop on SIGTERM"
	fi
else
	not_ok "the guests did not reach each other within $(($(date +%s) - t0)) s"
fi
for i in 1 2; do
	wait "${pids[$((i - 1))]}"
	rc=$?
	sed 's/^/  | /' "$out/g$i.log"
	if [ "$rc" = 0 ]; then
		ok "guest $i reached its peer, and lost it without the hub"
	else
		not_ok "guest $i: vm-run exit $rc (${out#"$TOP"/}/g$i/console.log)"
	fi
done
echo "two guests: $(($(date +%s) - t0)) s"
finish
