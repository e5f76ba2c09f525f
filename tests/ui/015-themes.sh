# 015-themes.sh - issue 5, "Keys and looks": themes from themes/ chosen
# in the config file ($XDG_CONFIG_HOME/assay/config, `theme light`) and
# switched with :set theme; the colours are checked on the screen tmux
# holds (capture-pane -e): light paints the status bar white on blue,
# dark black on white, mono has no colour at all, a theme file of the
# user's own is found by name.  NO_COLOR wins over the config and keeps
# the mono theme's attributes (the status bar in reverse video); on an
# 8-colour terminal a 256-colour theme is reduced to the 8 colours.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
mkdir -p "$HOME/.config/assay/themes"
printf 'theme light\n' >"$HOME/.config/assay/config"
# a theme of one's own: only the status bar differs from dark
printf '# mine\nstatus\t\tblack\tgreen\n' \
    >"$HOME/.config/assay/themes/mine.theme"

# the status bar with its escape sequences; every colour code on screen
status_e() { $TM capture-pane -p -e -t t | tail -n 1; }
colours() {
	$TM capture-pane -p -e -t t |
	    grep -o -E '\[([0-9]+;)*(3[0-7]|4[0-7]|38;5;[0-9]+|48;5;[0-9]+)m' |
	    sort -u
}
# wait until the status bar's codes hold $1 (an extended regex)
status_has() {
	n=50
	while [ $n -gt 0 ]; do
		status_e | grep -q -E -- "$1" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	status_e | cat -v
	fail "the status bar has no '$1'"
}

start 120 40
wait_for "1/174"
# light: white (37) on blue (44)
status_has '\[(37;44|37m.\[44)m'
ok "theme light from the config paints the status bar white on blue"

command_line "set theme dark"
wait_for "theme dark"
status_has '\[(30;47|30m.\[47)m'
ok ":set theme dark: black on white"

command_line "set theme mine"
wait_for "theme mine"
status_has '\[(30;42|30m.\[42)m'
ok "a theme file in ~/.config/assay/themes is found by name"

command_line "set theme mono"
wait_for "theme mono"
status_has '\[([0-9]+;)*7m'
[ -z "$(colours)" ] || fail "the mono theme shows colours: $(colours)"
ok ":set theme mono: no colour, the status bar in reverse"

command_line "set theme nosuch"
wait_for "no theme nosuch"
keys q
wait_for "ASSAY-EXIT 0"

# NO_COLOR: the config's light gives way to mono, and stays mono
NO_COLOR=1
export NO_COLOR
start 120 40
wait_for "1/174"
status_has '\[([0-9]+;)*7m'
[ -z "$(colours)" ] || fail "NO_COLOR shows colours: $(colours)"
command_line "set theme light"
wait_for "the mono theme stays"
[ -z "$(colours)" ] || fail ":set theme under NO_COLOR shows colours"
keys q
wait_for "ASSAY-EXIT 0"
unset NO_COLOR
ok "NO_COLOR keeps the mono theme whatever the config says"

# an 8-colour terminal: 256-colour numbers are reduced.  rich's status
# bar is colour 231 (white) on 24 (a dark blue): 38;5;231 and 48;5;24 on
# tmux-256color; on xterm (8 colours) 231 becomes white made bold and 24
# black, so no 38;5 / 48;5 code is left.
printf 'status\t\t231\t24\n' >"$HOME/.config/assay/themes/rich.theme"
printf 'theme rich\n' >"$HOME/.config/assay/config"
start 120 40
wait_for "1/174"
status_has '38;5;231'
status_has '48;5;24'
keys q
wait_for "ASSAY-EXIT 0"
$TM set-option -g default-terminal xterm
start 120 40
wait_for "1/174"
status_has '\[1m.*\[37m'
status_e | grep -q '8;5;' && fail "256-colour codes on an 8-colour terminal"
colours | grep -q '8;5;' && fail "256-colour codes on screen: $(colours)"
keys q
wait_for "ASSAY-EXIT 0"
ok "an 8-colour terminal gets only the 8 colours"
