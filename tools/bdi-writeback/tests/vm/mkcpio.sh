#!/bin/sh
# mkcpio.sh OUT BDI_WRITEBACK LOOPCTL VM_TEST: an initramfs piece for the
# workbench guest with the (sanitizer) build of bdi-writeback and the shared
# libraries it needs, the loop helper and the VM test, in /usr/local/bin
# (on the guest's PATH).
set -eu
out=$1 tool=$2 loopctl=$3 vmtest=$4
stage=$out.stage
rm -rf "$stage"
mkdir -p "$stage/usr/local/bin"
install -m 0755 "$tool" "$stage/usr/local/bin/bdi-writeback"
install -m 0755 "$loopctl" "$stage/usr/local/bin/loopctl"
install -m 0755 "$vmtest" "$stage/usr/local/bin/bdi-writeback-vm-test"
for lib in $(ldd "$tool" | awk '/=> \// { print $3 } /^[[:space:]]*\// { print $1 }'); do
	[ -e "$stage$lib" ] || cp -L --parents "$lib" "$stage"
done
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$stage"
echo "built ${out##*/}: bdi-writeback ($(ldd "$tool" | grep -c '=>') libraries), loopctl, the VM test"
