#!/bin/sh
# busybox.sh: Debian's busybox on Pageturn, the shell and the tools one
# types, each checked on its output.  The QEMU case user_busybox_bios runs
# it as init's command (init=/sbin/init -- /bin/sh /usr/tests/busybox.sh).
# Prints TAP ("ok N - what" / "not ok N - what" with "# got ..." first) and
# the raw output of free, ps, uptime, df, md5sum and /proc files between
# "# ---" lines for the harness's own checks; ends with
# "# busybox.sh: N passed, M failed" and exits 0 only if nothing failed.

n=0
failed=0

# check WHAT COMMAND...: one TAP line, ok when the command succeeds.
check() {
	what=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		failed=$((failed + 1))
	fi
}

# same GOT WANT: succeed if equal, else say what came instead.
same() {
	[ "$1" = "$2" ] && return 0
	echo "# got '$1', expected '$2'"
	return 1
}

# matches REGEX TEXT: succeed if a line of TEXT matches the extended regex.
matches() {
	echo "$2" | grep -Eq "$1" && return 0
	echo "# no line matches /$1/ in:"
	echo "$2" | sed 's/^/#   /'
	return 1
}

# show TITLE COMMAND...: the raw output, for the log.
show() {
	echo "# --- $1"
	shift
	"$@" 2>&1
	echo "# ---"
}

cd / || exit 1

# The shell itself.
check "a pipeline: echo hello | cat" same "$(echo hello | cat)" "hello"
check "arithmetic expansion" same "$((6 * 7))" "42"
false
check "false sets \$? to 1" same "$?" "1"
true
check "true sets \$? to 0" same "$?" "0"
(exit 3)
check "a subshell's exit status" same "$?" "3"
sh -c 'kill -TERM $$'
check "a child killed by SIGTERM: \$? is 143" same "$?" "143"
check "a here-document" same "$(cat <<EOF
line one
EOF
)" "line one"
got=$(sh -c 'trap "echo trapped" USR1; sh -c "kill -USR1 \$PPID"; true')
check "a trap runs on a signal from a child" same "$got" "trapped"
sleep 1 &
check "a background job is waited for" wait $!
sleep 100 &
pid=$!
kill -9 $pid
wait $pid
check "a background job killed by SIGKILL: 137" same "$?" "137"

# Files on the root filesystem (ext2) and /tmp (tmpfs).
echo abc > /tmp/f
check "redirection to and from a file in /tmp" same "$(cat < /tmp/f)" "abc"
echo def >> /tmp/f
check "appending with >>" same "$(wc -l < /tmp/f)" "2"
check "cp of /test/data.bin to /tmp is identical" sh -c 'cp /test/data.bin /tmp/d && cmp /test/data.bin /tmp/d'
check "stat -c %s of the copy" same "$(stat -c %s /tmp/d)" "307277"
check "gzip and gunzip through pipes" sh -c 'gzip -c /tmp/d | gunzip -c | cmp - /test/data.bin'
check "mv and rm" sh -c 'mv /tmp/d /tmp/e && rm /tmp/e && ! test -e /tmp/e && ! test -e /tmp/d'
check "mkdir -p and find" same "$(mkdir -p /tmp/a/b/c && find /tmp/a | wc -l)" "3"
check "rm -r" sh -c 'rm -r /tmp/a && ! test -e /tmp/a'
check "readlink of an applet link on ext2" same "$(readlink /bin/sh)" "/bin/busybox"
check "a program started through a symbolic link" same "$(/bin/echo through-a-link)" "through-a-link"
check "chmod and stat -c %a" same "$(chmod 640 /tmp/f && stat -c %a /tmp/f)" "640"
check "ln -s on tmpfs, and readlink" same "$(ln -s /tmp/f /tmp/l && readlink /tmp/l)" "/tmp/f"
check "reading through a new symbolic link" same "$(head -n 1 /tmp/l)" "abc"
check "ln -s on ext2 starts a program through it" same "$(ln -s /bin/busybox /root/echo && /root/echo through-a-new-link)" "through-a-new-link"
check "ln makes a hard link: stat -c %h is 2" same "$(ln /tmp/f /tmp/h && stat -c %h /tmp/f)" "2"
check "ln -f replaces a name" same "$(ln -sf /etc/hostname /tmp/l && readlink /tmp/l)" "/etc/hostname"
check "a hard link to another filesystem fails" sh -c '! ln /tmp/f /root/f 2>/dev/null'
check "mkfifo makes a FIFO" same "$(mkfifo /tmp/p && stat -c %F /tmp/p)" "fifo"
check "cp -a copies a symbolic link as a link" same "$(cp -a /tmp/l /tmp/l2 && readlink /tmp/l2)" "/etc/hostname"
rm -f /tmp/l /tmp/l2 /tmp/h /tmp/p /root/echo
check "tar of /etc lists hostname" sh -c 'tar -cf /tmp/t.tar -C /etc . && tar -tf /tmp/t.tar | grep -q hostname'
rm -f /tmp/f /tmp/t.tar
check "ls /bin shows the applet links" test "$(ls /bin | wc -l)" -gt 50
check "cd and pwd" same "$(cd /usr/tests && pwd)" "/usr/tests"
check "a file on ext2: create, write, remove" sh -c 'echo x > /root/x && test "$(cat /root/x)" = x && rm /root/x'

# Text tools.
check "seq | sort -rn | head" same "$(seq 1 1000 | sort -rn | head -n 1)" "1000"
check "yes | head stops yes with SIGPIPE" same "$(yes | head -n 1000 | wc -l)" "1000"
check "awk" same "$(echo 'a b c' | awk '{ print $2 }')" "b"
check "sed" same "$(echo 'a b c' | sed 's/b/x/')" "a x c"
check "xargs" same "$(echo 1 2 3 | xargs -n 1 echo | wc -l)" "3"

# Devices.
check "2 MiB from /dev/zero through a pipe" same "$(dd if=/dev/zero bs=1024 count=2048 2>/dev/null | wc -c)" "2097152"
check "writing to /dev/null" sh -c 'echo gone > /dev/null'
check "16 bytes from /dev/urandom" same "$(head -c 16 /dev/urandom | wc -c)" "16"

# The system, through system calls and /proc.
check "id is root, named from /etc/passwd and /etc/group" matches '^uid=0\(root\) gid=0\(root\)' "$(id)"
check "nproc is 1" same "$(nproc)" "1"
check "date +%Y is this century" test "$(date +%Y)" -ge 2024
check "free shows memory in numbers" matches '^Mem: +[0-9]+ +[0-9]+ +[0-9]+' "$(free)"
check "ps shows init as pid 1" matches '^ *1 +root +.*init' "$(ps)"
check "ps lists at least init, this shell and itself" test "$(ps | wc -l)" -ge 4
check "/proc/meminfo has MemTotal" matches '^MemTotal: +[0-9]+ kB$' "$(cat /proc/meminfo)"
check "/proc/vmstat has nr_free_pages" matches '^nr_free_pages [0-9]+$' "$(cat /proc/vmstat)"
check "uptime shows the load average" matches 'load average: [0-9]+\.[0-9]+, [0-9]+\.[0-9]+, [0-9]+\.[0-9]+' "$(uptime)"
check "mount lists /proc and /tmp" sh -c 'mount | grep -q " /proc " && mount | grep -q " /tmp "'
check "df / shows the root filesystem" matches '^/dev/root|^[^ ]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+% /$' "$(df /)"
check "dmesg has the kernel's boot messages" matches 'Pageturn' "$(dmesg)"
check "sync" sync
check "blockdev --getsize64 /dev/ram1" same "$(blockdev --getsize64 /dev/ram1)" "4194304"
check "blockdev --getra /dev/ram1 is 256 sectors" same "$(blockdev --getra /dev/ram1)" "256"
check "blockdev --setra 512 /dev/ram1" blockdev --setra 512 /dev/ram1
check "blockdev --getra /dev/ram1 is now 512" same "$(blockdev --getra /dev/ram1)" "512"
check "blockdev --setra 256 /dev/ram1" blockdev --setra 256 /dev/ram1
check "blockdev --getss /dev/ram1" same "$(blockdev --getss /dev/ram1)" "512"

show "uname -a" uname -a
show "free" free
show "ps" ps
show "uptime" uptime
show "df" df
show "md5sum" md5sum /test/data.bin
show "/proc/meminfo" head -n 5 /proc/meminfo

echo "1..$n"
echo "# busybox.sh: $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
