# The index of what can be run. `make` builds the patched kernel and shows
# the knob at work; `make check` runs the tests that fit CI's time,
# `make check-full` every test.

include config.mk
# BASE picks one kernel base (`make BASE=7.3 ...`); `make check` runs on
# every base in config.mk unless one is picked.
ifeq ($(origin BASE),undefined)
CHECK_BASES := $(BASES)
else
CHECK_BASES := $(BASE)
endif
BASE ?= $(firstword $(BASES))
S := scripts
KERNEL := build/obj-$(BASE)/arch/x86/boot/bzImage

.PHONY: all setup tree export kernel kernel-debug kernel-rootwb kernel-planted stress integrity faults check-full prefixes check-negative check-32bit bench bench-report initramfs demo check vm clean help

all: setup tree kernel initramfs demo

help:
	@sed -n 's/^## //p' Makefile

## setup        install the Debian packages the workbench needs (root)
setup:
	@bash $(S)/setup.sh

## tree         build/linux-BASE: Debian's source as a git base plus patches/vBASE
tree: setup
	@bash $(S)/tree.sh init $(BASE)

## export       regenerate patches/vBASE/ from the tree (git format-patch)
export:
	@bash $(S)/tree.sh export $(BASE)

## debian-series  the series in Debian's linux source package at config.mk's version:
##              a quilt series after Debian's patches, applied and built with
##              dpkg-source -b into build/debian-src/BASE/ (every base; BASE=... for
##              one, DEB_SRC_VERSION=... another Debian version of it; where the
##              mirror does not serve the version, the newest BASE.x it serves)
.PHONY: debian-series
debian-series: setup
	$(if $(and $(DEB_SRC_VERSION),$(filter-out 1,$(words $(CHECK_BASES)))),$(error DEB_SRC_VERSION is a version of one base: name it with BASE=))
	@rc=0; for b in $(CHECK_BASES); do \
		bash $(S)/debian-series.sh -f $(if $(DEB_SRC_VERSION),-V '$(DEB_SRC_VERSION)') $$b || rc=$$?; \
	done; exit $$rc

## kernel       configure and build the tree's kernel (ccache)
kernel: tree
	@bash $(S)/build-kernel.sh $(BASE)

## kernel-debug the same kernel with KASAN, lockdep, UBSAN, debug objects, KFENCE
##              (scripts/kernel-debug.config) in build/obj-BASE-debug
kernel-debug: tree
	@bash $(S)/build-kernel.sh $(BASE) debug

## prefixes     build the kernel at every prefix of the series (build/kernels/;
##              WITH_BASE=1 also the unpatched base; PREFIXES="1 2" only those)
prefixes: tree
	@bash $(S)/build-prefixes.sh $(BASE)

## check-32bit  compile the series' C files for i386 (no 64-bit division)
check-32bit: tree
	@bash $(S)/check-32bit.sh $(BASE)

## kernel-rootwb  build/kernels/BASE-rootwb.bzImage: the series checking only the
##              root writeback context, for check-negative's cgroup case
kernel-rootwb: tree
	@bash $(S)/build-variant.sh $(BASE) rootwb

## scale-cost   what comparing the threshold costs with 32 CPUs online: builds the
##              scale kernel (room for 256 CPUs, kprobe events) and the first
##              version's exact-sum variant, counts the counter sums per GiB written
.PHONY: scale-cost
scale-cost: tree initramfs
	@bash $(S)/build-kernel.sh $(BASE) scale
	@bash $(S)/build-variant.sh $(BASE) exactsum
	@bash $(S)/scale-cost.sh -b $(BASE)

## kernel-planted  build/kernels/BASE-parse.bzImage (the store takes hex and octal),
##              BASE-nostall.bzImage (a context is never taken for stalled) and
##              BASE-uaf-debug.bzImage (a use-after-free in the store, debug
##              kernel), for check-negative's stress-sweep, no-progress and KASAN checks
kernel-planted: tree
	@bash $(S)/build-variant.sh $(BASE) parse
	@bash $(S)/build-variant.sh $(BASE) nostall
	@bash $(S)/build-variant.sh $(BASE) uaf

## check-negative  the kselftest on the sysfs-only, no-poll, root-context-only and
##              unpatched kernels; the stress sweep and KASAN on the planted
##              faults of make kernel-planted, where built
check-negative: initramfs
	@bash $(S)/check-negative.sh $(BASE)

## flake-count  RUNS (20) boots of the kselftest beside HOGS (2) CPU hogs on the
##              host: how many runs fail on a loaded machine
RUNS ?= 20
HOGS ?= 2
.PHONY: flake-count
flake-count: kernel initramfs
	@bash $(S)/flake-count.sh -b $(BASE) -n $(RUNS) -g $(HOGS)

## initramfs    the guest's initramfs pieces (busybox, tools, kselftests)
initramfs: tree
	@test -f build/initramfs/base.cpio -a build/initramfs/base.cpio -nt $(S)/guest-init \
		-a build/initramfs/base.cpio -nt $(S)/initramfs.sh || bash $(S)/initramfs.sh base
	@bash $(S)/initramfs.sh kselftest $(BASE)

## demo         boot the kernel and show the knob on an emulated slow disk
demo: kernel initramfs
	@bash $(S)/demo.sh $(BASE)

## tools        build the userspace tools: build/tools/bdi-writeback (tools/Makefile)
.PHONY: tools install uninstall deb
tools:
	@$(MAKE) --no-print-directory -C tools

## install      install the tools, their manual page, udev rule and systemd units
##              (PREFIX=/usr/local, DESTDIR=; see tools/Makefile)
install:
	@$(MAKE) --no-print-directory -C tools install

## uninstall    remove what install put there (the same PREFIX and DESTDIR)
uninstall:
	@$(MAKE) --no-print-directory -C tools uninstall

## deb          the Debian package of the tools from HEAD (debian/) in build/deb/,
##              checked with lintian and piuparts (root; scripts/check-deb.sh;
##              DEB_ARGS=-n: no chroot test, DEB_ARGS=-a: also the autopkgtests)
deb:
	@bash $(S)/check-deb.sh $(DEB_ARGS)

## check        the tests that fit CI's time: workbench, series, kselftest in the VM, on every
##              base of config.mk (BASE=... for one; TESTS="20-kselftest-bdi" for some);
##              the backports skip the tests marked "upstream test", and every base
##              those marked "full test" (check-full runs both); its kernels leave
##              XFS and btrfs out (KERNEL_FS=0; any other target builds them in)
# make check's kernels leave XFS and btrfs out (scripts/kernel-fs.config):
# none of its tests mounts them, and a fresh machine saves some 4 min of
# cold build per base. Every other target builds them in.
check: export KERNEL_FS := 0

check: setup tools
	@bash $(S)/check.sh -n "$(CHECK_BASES)" $(TESTS)
	@for b in $(CHECK_BASES); do \
		$(MAKE) --no-print-directory BASE=$$b kernel initramfs || exit 1; \
	done
	@bash $(S)/check.sh "$(CHECK_BASES)" $(TESTS)

## check-full   `make check` plus what does not fit CI's time, on every base and
##              on kernels with XFS and btrfs: the VM runner's throttle and network
##              tests, the tool in the VM, the benchmark smoke run, stress, integrity,
##              the whole fault suite; the debug kernel, with the kselftest,
##              STRESS_SECS (300) s of stress and the integrity runs on it; the i386
##              kselftest, and the tools on the unpatched kernel (built with every
##              prefix when it is missing); with TESTS, the debug kernel only for
##              50-52 and the prefixes only for 25
# With TESTS, check-full builds the debug kernel only for 50-52 and the
# prefixes (the unpatched base among them) only for 25; the series' kernel
# always (the i386 test builds its own).
full_wants = $(if $(TESTS),$(filter $(1),$(TESTS)),all)
check-full: setup tools
	@FULL=1 bash $(S)/check.sh -n "$(CHECK_BASES)" $(TESTS)
	@for b in $(CHECK_BASES); do \
		$(MAKE) --no-print-directory BASE=$$b kernel initramfs \
			$(if $(call full_wants,50-debug-kselftest 51-debug-stress 52-debug-integrity),kernel-debug) || exit 1; \
		$(if $(call full_wants,25-bdi-writeback-vm),test -f build/kernels/$$b-0.bzImage || \
			$(MAKE) --no-print-directory BASE=$$b WITH_BASE=1 prefixes || exit 1;) \
	done
	@FULL=1 bash $(S)/check.sh "$(CHECK_BASES)" $(TESTS)

## check-i386   the kselftest on an i386 kernel of the series in qemu-system-i386
##              (also part of check-full)
.PHONY: check-i386
check-i386: tree
	@bash $(S)/i386-kselftest.sh $(BASE)

## stress       SECS (60) s of stress on the attribute in a VM (DEBUG=1: on the debug kernel)
SECS ?= 60
stress: kernel initramfs $(if $(DEBUG),kernel-debug)
	@bash $(S)/stress.sh -b $(BASE) -t $(SECS) $(if $(DEBUG),-k build/obj-$(BASE)-debug/arch/x86/boot/bzImage)

## integrity    data integrity runs in a VM, with a kill mid-stream (DEBUG=1: debug kernel)
integrity: kernel initramfs $(if $(DEBUG),kernel-debug)
	@bash $(S)/integrity.sh -b $(BASE) $(if $(DEBUG),-k build/obj-$(BASE)-debug/arch/x86/boot/bzImage)

## faults       the fault suite in a VM (scripts/faults.sh): I/O errors, a full device,
##              a stalled FUSE daemon, a stalled disk, a stopped NFS server, a disk that goes
##              away, with the knob off, at 64 KiB and 16 MiB and the global threshold at those
##              (CASES="eio-ext4 ... vanish", FAULT_SECS=30, TWINS="enospc ..." or "none":
##              the cases run once more with no fault for the knob's own cost, default
##              those whose stack is not the healthy disk's)
FAULT_SECS ?= 30
faults: kernel initramfs
	@bash $(S)/faults.sh -b $(BASE) -s $(FAULT_SECS) $(if $(CASES),-c "$(CASES)") $(if $(TWINS),-T "$(TWINS)")

## bench        benchmarks (PROFILE=quick|full|scale|nfs, CASES="S1 ... S8" (default: the profile's), FS="ext4 xfs btrfs",
##              REPS=N, GUEST_GIB=2, OUT=DIR): quick: ext4 only, about 35 min; full: all three
##              filesystems; scale: S7; nfs: S5 (real NFS) on all three;
##              results of a whole profile under Documentation/benchmarks/BASE/results/,
##              of any other run under build/bench-results/BASE/. S4 needs 'make prefixes WITH_BASE=1'
PROFILE ?= quick
bench: kernel initramfs
	@bash $(S)/bench.sh -p $(PROFILE) $(if $(CASES),-c "$(CASES)") $(if $(FS),-f "$(FS)") $(if $(REPS),-r $(REPS)) $(if $(OUT),-o $(OUT)) \
		$(if $(GUEST_GIB),-m $(GUEST_GIB))

## bench-report the tables and plots from the results (no VM run)
bench-report:
	@bash $(S)/bench-report.sh Documentation/benchmarks/$(BASE)/results/$(PROFILE)

## vm CMD=...   boot the kernel and run CMD in the guest (VMARGS for vm-run.sh)
vm: kernel initramfs
	@bash $(S)/vm-run.sh -b $(BASE) -i build/initramfs/kselftest-$(BASE).cpio $(VMARGS) -- '$(CMD)'

## clean        remove build output except the kernel trees
clean:
	rm -rf build/obj-* build/cfg-* build/initramfs build/vm build/check
