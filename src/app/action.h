/*
 * action.h - every action of the workbench, listed once (tig's REQ_INFO).
 *
 * Each entry is ACTION(ID, "name", "help text"): the enum value
 * ACTION_ID, the name used in keymap files and `:` commands, and the
 * help line `?` shows next to the keys the live keymap binds to it.
 * Adding an action is adding one line here and one case in the UI's
 * dispatcher; keymap.c binds keys to these names and knows no curses.
 */
#ifndef ASSAY_ACTION_H
#define ASSAY_ACTION_H

#define ACTION_INFO(ACTION) \
	ACTION(MOVE_DOWN, "move-down", \
	    "Move down one row or line") \
	ACTION(MOVE_UP, "move-up", \
	    "Move up one row or line") \
	ACTION(PAGE_DOWN, "page-down", \
	    "Move down one page") \
	ACTION(PAGE_UP, "page-up", \
	    "Move up one page") \
	ACTION(SCROLL_LEFT, "scroll-left", \
	    "Scroll the candidate (or focused toolchain) pane left") \
	ACTION(SCROLL_RIGHT, "scroll-right", \
	    "Scroll the candidate (or focused toolchain) pane right") \
	ACTION(WRAP, "wrap", \
	    "Wrap long lines (candidate pane), or rewrap the run (toolchain)") \
	ACTION(MOVE_FIRST, "move-first", \
	    "Go to the first row") \
	ACTION(MOVE_LAST, "move-last", \
	    "Go to the last row") \
	ACTION(ENTER, "enter", \
	    "Open: focus the candidate (the program, on the toolchain pane)") \
	ACTION(NEXT_PANE, "next-pane", \
	    "Focus the next pane") \
	ACTION(PREV_PANE, "prev-pane", \
	    "Focus the previous pane") \
	ACTION(ZOOM, "zoom", \
	    "Zoom the focused pane, or restore the layout") \
	ACTION(BACK, "back", \
	    "Focus the queue; from it, go back a drill-down, view or zoom") \
	ACTION(VERIFY, "verify", \
	    "Verify the candidate live in the toolchain pane") \
	ACTION(CANCEL, "cancel", \
	    "Cancel the long operation started last (v, :verify, a model" \
	    " run, :import, :merge, a commit), or the question asked") \
	ACTION(EDIT, "edit", \
	    "Edit the candidate in $EDITOR; a saved change becomes a repair") \
	ACTION(MODEL_REPAIR, "model-repair", \
	    "Ask the model (generator in the config) for a repair; verify it") \
	ACTION(GOTO_NEW, "goto-new", \
	    "Go to the candidate a model run or the editor made last") \
	ACTION(KEYBOARD, "keyboard", \
	    "Give the keyboard to the program in the pane, or take it back") \
	ACTION(LABEL_COMPILE, "label-compile", \
	    "Label: compile or syntax error, then advance") \
	ACTION(LABEL_API, "label-api", \
	    "Label: API knowledge gap, then advance") \
	ACTION(LABEL_FUNCTIONAL, "label-functional", \
	    "Label: compiles but wrong, then advance") \
	ACTION(LABEL_FORMAT, "label-format", \
	    "Label: output format violation, then advance") \
	ACTION(LABEL_PERFORMANCE, "label-performance", \
	    "Label: correct but too slow, then advance") \
	ACTION(ACCEPT, "accept", \
	    "Accept the candidate, then advance") \
	ACTION(REJECT, "reject", \
	    "Reject the candidate, then advance") \
	ACTION(FLAG, "flag", \
	    "Flag the candidate for repair, then advance") \
	ACTION(MARK, "mark", \
	    "Mark the candidate for :label :review :note, then advance") \
	ACTION(NOTE, "note", \
	    "Add a note to the candidate (opens :note)") \
	ACTION(UNDO, "undo", \
	    "Undo the last label or review") \
	ACTION(REDO, "redo", \
	    "Redo what undo undid") \
	ACTION(COMMIT, "commit", \
	    "Commit the accepted samples to the dataset repository") \
	ACTION(SEARCH, "search", \
	    "Search the queue: a regex over id task origin verdict category") \
	ACTION(SEARCH_NEXT, "search-next", \
	    "Go to the next match of the search (wraps around)") \
	ACTION(SEARCH_PREV, "search-prev", \
	    "Go to the previous match of the search") \
	ACTION(STATS, "stats", \
	    "Statistics sheet: categories per group; Enter filters to a cell") \
	ACTION(DIFF, "diff", \
	    "Diff: the candidate against its parent or the reference") \
	ACTION(WAVE, "wave", \
	    "Waveform sheet: reference/candidate signals, first mismatch") \
	ACTION(SOLID, "solid", \
	    "3D sheet: a cad run's solids, candidate over reference") \
	ACTION(PROMPT, "prompt", \
	    "Command line: filter grep label review note save view, actions") \
	ACTION(HELP, "help", \
	    "Show the keys of the live keymap") \
	ACTION(REDRAW, "redraw", \
	    "Redraw the screen") \
	ACTION(CLOSE, "close", \
	    "Close the sheet") \
	ACTION(CELL_LEFT, "cell-left", \
	    "Stats: move the cell cursor left") \
	ACTION(CELL_RIGHT, "cell-right", \
	    "Stats: move the cell cursor right") \
	ACTION(NEXT_GROUPING, "next-grouping", \
	    "Stats: group by the next key; then reviewers, agreement") \
	ACTION(PREV_GROUPING, "prev-grouping", \
	    "Stats: group by the previous key") \
	ACTION(DRILL, "drill", \
	    "Stats: filter the queue to the cell (Esc comes back)") \
	ACTION(DIFF_LAYOUT, "diff-layout", \
	    "Diff: unified, or side by side") \
	ACTION(DIFF_NEXT, "diff-next", \
	    "Diff: compare with the next (parent, reference, repair)") \
	ACTION(DIFF_PREV, "diff-prev", \
	    "Diff: compare with the previous one") \
	ACTION(WAVE_NEXT, "wave-next", \
	    "Wave: the cursor to the next mismatch") \
	ACTION(WAVE_PREV, "wave-prev", \
	    "Wave: the cursor to the previous mismatch") \
	ACTION(WAVE_ZOOM_IN, "wave-zoom-in", \
	    "Wave: zoom in time (wider steps)") \
	ACTION(WAVE_ZOOM_OUT, "wave-zoom-out", \
	    "Wave: zoom out in time (more steps)") \
	ACTION(PROMPT_RUN, "prompt-run", \
	    "Prompt: run the line") \
	ACTION(PROMPT_LEAVE, "prompt-leave", \
	    "Prompt: leave it (first closes a completion menu)") \
	ACTION(PROMPT_COMPLETE, "prompt-complete", \
	    "Prompt: complete the word, then walk the menu") \
	ACTION(PROMPT_COMPLETE_BACK, "prompt-complete-back", \
	    "Prompt: walk the completion menu back") \
	ACTION(PROMPT_HISTORY_PREV, "prompt-history-prev", \
	    "Prompt: the line before in the history (starting as typed)") \
	ACTION(PROMPT_HISTORY_NEXT, "prompt-history-next", \
	    "Prompt: the next line in the history") \
	ACTION(PROMPT_DELETE_CHAR, "prompt-delete-char", \
	    "Prompt: delete the last character (on an empty line: leave)") \
	ACTION(PROMPT_DELETE_WORD, "prompt-delete-word", \
	    "Prompt: delete the last word") \
	ACTION(PROMPT_CLEAR, "prompt-clear", \
	    "Prompt: clear the line") \
	ACTION(QUIT, "quit", \
	    "As back; at the top, quit (asks while something runs)")

#define ACTION_ENUM(id, name, help) ACTION_##id,
enum action {
	ACTION_NONE = 0,
	ACTION_INFO(ACTION_ENUM)
	ACTION_COUNT
};
#undef ACTION_ENUM

#endif
