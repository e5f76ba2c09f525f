/*
 * terminfo.c - what the terminal type can do, asked of terminfo before
 * curses starts: setupterm() writes nothing to the terminal, where
 * newterm() already writes its start-up sequence.  Apart from ui.c
 * because <term.h> defines a macro for each capability (lines, columns,
 * ...).
 */
#include "ui/wb.h"

#include <term.h>
#include <unistd.h>

int
ui_terminfo_check(const char *term)
{
	TERMINAL *t;
	const char *cup;
	int err = 0, rc;

	if (setupterm(term, STDOUT_FILENO, &err) != OK)
		return -1;
	cup = tigetstr("cup");
	rc = cup != NULL && cup != (char *)-1 ? 0 : 1;
	t = cur_term;
	set_curterm(NULL);
	del_curterm(t);
	return rc;
}
