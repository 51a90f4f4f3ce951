# shellcheck shell=bash
# BASH_ENV of every bash a pipeline starts (lib/results.sh
# results_init): the script's path appended to each running pipeline's
# list (LEDGER_SCRIPT_LOGS, colon-separated), the top-level scripts its
# ledger record's harness digest covers (scripts/ledger.py).  Prints
# nothing, changes nothing but those lists, leaves no variable behind.
if [ -n "${LEDGER_SCRIPT_LOGS:-}" ] && [[ $0 == *.sh ]]; then
	case $0 in /*) __ledger_sh=$0 ;; *) __ledger_sh=$PWD/$0 ;; esac
	IFS=: read -r -a __ledger_logs <<<"$LEDGER_SCRIPT_LOGS" || :
	for __ledger_log in "${__ledger_logs[@]}"; do
		printf '%s\n' "$__ledger_sh" 2>/dev/null >>"$__ledger_log" || :
	done
	unset __ledger_logs __ledger_log __ledger_sh
fi
