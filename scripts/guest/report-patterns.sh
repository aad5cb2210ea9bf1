# The kernel reports a console log must not hold: oops, BUG, WARNING,
# KASAN, UBSAN, lockdep, hung-task and stall reports, panics, as one
# extended regular expression. Sourced (POSIX sh) by scripts/console-check.sh
# on the host and by the guest's faults.sh, which forwards such records to
# the console while it keeps the console quiet.
report_patterns='Oops|BUG:|WARNING:|KASAN|UBSAN|general protection fault|Kernel panic|'
report_patterns=$report_patterns'possible (recursive|circular) locking|inconsistent lock state|lockdep|'
report_patterns=$report_patterns'INFO: task .* blocked for more than|hung_task|detected stall|'
report_patterns=$report_patterns'soft lockup|hard LOCKUP|kernel BUG at|Unable to handle kernel|'
report_patterns=$report_patterns'refcount_t:|list_add corruption|list_del corruption'
