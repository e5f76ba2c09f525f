/*
 * verilog_wave.c - the harness side of a Verilog simulation's waveform
 * (verilog_wave.h): which signals the testbench compares, the module
 * that dumps them, the stage that hands the dump to the judge, and the
 * judge's reading of it into run.wave and the "waveform" feedback.  It
 * runs nothing; iverilog.c and verilator.c call it.
 */
#define _GNU_SOURCE
#include "envs/verilog_wave.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envs/verilog.h"
#include "model/feedback.h"
#include "model/vcd.h"

#define WAVE_PAIRS_SHOWN 3	/* pairs the feedback table shows */

/* Is the word w (n bytes) in the masked text m? */
static int
has_word(const char *m, size_t len, const char *w, size_t n)
{
	const char *p = m, *end = m + len;

	while (p < end) {
		const char *hit = memmem(p, (size_t)(end - p), w, n);

		if (hit == NULL)
			return 0;
		if ((hit == m || !verilog_is_ident((unsigned char)hit[-1])) &&
		    (hit + n == end || !verilog_is_ident((unsigned char)
		    hit[n])))
			return 1;
		p = hit + 1;
	}
	return 0;
}

/*
 * The body of module top in the masked text m: [*from, *to), the text
 * after its name up to its "endmodule".  0, or -1 when m defines no
 * module top.
 */
static int
module_body(const char *m, size_t len, const char *top, size_t *from,
    size_t *to)
{
	const char *p = m, *name, *end;
	size_t n, tl = strlen(top);

	while ((name = verilog_next_module(m, len, &p, &n)) != NULL) {
		if (n != tl || memcmp(name, top, n) != 0)
			continue;
		*from = (size_t)(p - m);
		for (end = p; (end = memmem(end, len - (size_t)(end - m),
		    "endmodule", 9)) != NULL; end += 9)
			if (!verilog_is_ident((unsigned char)end[-1]) &&
			    (end + 9 == m + len || !verilog_is_ident(
			    (unsigned char)end[9])))
				break;
		*to = end != NULL ? (size_t)(end - m) : len;
		return 0;
	}
	return -1;
}

char *
verilog_wave_signals(const struct task *t, const char *top)
{
	struct buf b = BUF_INIT;
	int match = 0;

	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];
		char *m;
		size_t k, end, from;

		if (strcmp(f->role, "testbench") != 0)
			continue;
		m = verilog_mask(f->data, f->len);
		/* Names of the top module's own: $dumpvars names them as
		 * TOP.NAME, and a name of another module would not bind. */
		if (module_body(m, f->len, top, &from, &end) < 0) {
			free(m);
			continue;
		}
		k = from;
		while (k < end) {
			size_t s = k, n;
			char dut[128];

			if (!verilog_is_ident((unsigned char)m[k]) ||
			    m[k] == '$' || (m[k] >= '0' && m[k] <= '9')) {
				/* Skip a number or a system name whole. */
				for (k++; k < end && verilog_is_ident(
				    (unsigned char)m[k]) && (m[s] == '$' ||
				    (m[s] >= '0' && m[s] <= '9')); k++)
					;
				continue;
			}
			while (k < end && verilog_is_ident((unsigned char)
			    m[k]))
				k++;
			n = k - s;
			if (n == 8 && memcmp(m + s, "tb_match", 8) == 0)
				match = 1;
			if (n <= 4 || n >= sizeof dut || memcmp(m + s + n - 4,
			    "_ref", 4) != 0 || (s > 0 && m[s - 1] == '.'))
				continue;
			snprintf(dut, sizeof dut, "%.*s_dut", (int)(n - 4),
			    m + s);
			if (!has_word(m + from, end - from, dut, n))
				continue;
			/* Once each, in the order they appear. */
			{
				char ref[128];

				snprintf(ref, sizeof ref, "%.*s", (int)n,
				    m + s);
				if (!has_word(buf_str(&b), b.len, ref, n))
					buf_printf(&b, "%s%s %s", b.len > 0 ?
					    " " : "", ref, dut);
			}
		}
		free(m);
	}
	if (b.len == 0)
		return NULL;
	if (match)
		buf_adds(&b, " tb_match");
	return buf_detach(&b, NULL);
}

/*
 * The module for Verilator, which honours neither $dumplimit nor
 * $dumpoff and dumps every signal: it writes the VCD of the compared
 * signals itself and stops at WAVE_DUMP_MAX bytes with a "cut" comment.
 * Its times are in ps: its own `timescale when the task's files set one
 * (else Verilator would warn of every module without one), else
 * Verilator's default, 1ps/1ps.
 *
 * One always block, sensitive to all the signals, writes the file: it
 * opens it and writes the header the first time it runs, then a "#TIME"
 * line and a "b..." line for each signal whose value changed.  All the
 * state it keeps (the byte count, the last values) is that block's, and
 * it changes only when a signal's value did, so that a second run of the
 * block over the same values changes nothing.  Verilator may take the
 * block for combinational logic and run it until nothing changes: the
 * harness once had a block per signal, each adding to one shared byte
 * counter at every run, which never settled, and a right design failed
 * with "Settle region did not converge".  Ports of the bound module
 * would not do either: an unpacked array connects to no packed port; a
 * process waiting on @(...) misses time 0's settling (Verilator 5.006).
 */
static void
writer_module(struct buf *b, const char *mod, const char *top,
    const char *signals, const char *imgdir, int timescale)
{
	const char *p;
	int k;

	if (timescale)
		buf_adds(b, "`timescale 1ps/1ps\n");
	buf_printf(b, "module %s;\n\tinteger fd = 0;\n\tinteger n = 0;\n"
	    "\tinteger t = 0;\n\tstring v = \"\";\n", mod);
	for (p = signals, k = 0; *p != '\0'; k++) {
		p += strcspn(p, " ");
		p += *p == ' ';
		buf_printf(b, "\tstring p%d = \"\";\n", k);
	}
	buf_adds(b, "\talways @(");
	for (p = signals, k = 0; *p != '\0'; k++) {
		size_t l = strcspn(p, " ");

		buf_printf(b, "%s%s.%.*s", k > 0 ? " or " : "", top, (int)l,
		    p);
		p += l;
		p += *p == ' ';
	}
	buf_printf(b, ") if (n >= 0) begin\n"
	    "\t\tif (fd == 0) begin\n"
	    "\t\t\tfd = $fopen(\"%s/%s\", \"w\");\n"
	    "\t\t\t$fwrite(fd, \"$timescale 1ps $end\\n$scope module %s"
	    " $end\\n\");\n", imgdir, WAVE_VCD, top);
	for (p = signals, k = 0; *p != '\0'; k++) {
		size_t l = strcspn(p, " ");

		buf_printf(b, "\t\t\t$fwrite(fd, \"$var wire %%0d s%d %.*s"
		    " $end\\n\", $bits(%s.%.*s));\n", k, (int)l, p, top,
		    (int)l, p);
		p += l;
		p += *p == ' ';
	}
	buf_adds(b, "\t\t\t$fwrite(fd, \"$upscope $end\\n$enddefinitions"
	    " $end\\n\");\n\t\tend\n\t\tt = 0;\n");
	for (p = signals, k = 0; *p != '\0'; k++) {
		size_t l = strcspn(p, " ");

		buf_printf(b, "\t\tv = $sformatf(\"%%b\", %s.%.*s);\n"
		    "\t\tif (n >= 0 && v != p%d) begin\n"
		    "\t\t\tn = n + v.len() + 24;\n"
		    "\t\t\tif (n > %d) begin\n"
		    "\t\t\t\t$fwrite(fd, \"$comment assay: cut at #%%0t:"
		    " the dump passed %d bytes $end\\n\", $time);\n"
		    "\t\t\t\tn = -1;\n\t\t\tend else begin\n"
		    "\t\t\t\tif (t == 0)\n"
		    "\t\t\t\t\t$fwrite(fd, \"#%%0t\\n\", $time);\n"
		    "\t\t\t\tt = 1;\n"
		    "\t\t\t\t$fwrite(fd, \"b%%s s%d\\n\", v);\n"
		    "\t\t\t\tp%d = v;\n\t\t\tend\n\t\tend\n",
		    top, (int)l, p, k, WAVE_DUMP_MAX, WAVE_DUMP_MAX, k, k);
		p += l;
		p += *p == ' ';
	}
	buf_adds(b, "\tend\n\tfinal if (fd != 0) $fclose(fd);\nendmodule\n");
	buf_printf(b, "bind %s %s u_%s();\n", top, mod, mod);
}

int
verilog_wave_write(struct env_plan *plan, const char *workdir,
    const struct task *t, const char *top, const char *signals,
    const char *imgdir, int bind, char *mod, size_t n, struct err *err)
{
	struct buf b = BUF_INIT;
	size_t mark = plan->inputs.len;
	const char *p = signals;
	int rc;

	for (size_t i = 0; i < t->nfiles; i++)
		if (strcmp(t->files[i].name, WAVE_FILE) == 0)
			return err_set(err, "task file name %s is reserved for"
			    " the waveform's harness", WAVE_FILE);
	env_nonce(mod, n, 12, 'W');
	buf_adds(&b, "// assay: the waveform of the compared signals\n");
	if (bind) {
		int ts = 0;

		for (size_t i = 0; i < t->nfiles; i++)
			ts |= !verilog_is_data(&t->files[i]) && memmem(
			    t->files[i].data, t->files[i].len, "`timescale",
			    10) != NULL;
		writer_module(&b, mod, top, signals, imgdir, ts);
	} else {
		buf_printf(&b, "module %s;\n\tinitial begin\n"
		    "\t\t$dumpfile(\"%s/%s\");\n\t\t$dumplimit(%d);\n"
		    "\t\t$dumpvars(0", mod, imgdir, WAVE_VCD, WAVE_DUMP_MAX);
		while (*p != '\0') {
			size_t l = strcspn(p, " ");

			buf_printf(&b, ", %s.%.*s", top, (int)l, p);
			p += l;
			p += *p == ' ';
		}
		buf_adds(&b, ");\n\tend\nendmodule\n");
	}
	rc = env_write_input(plan, workdir, WAVE_FILE, b.p, b.len, err);
	/* A new module name each run: not an input of the run. */
	plan->inputs.len = mark;
	if (plan->inputs.p != NULL)
		plan->inputs.p[mark] = '\0';
	buf_release(&b);
	return rc;
}

void
verilog_wave_add_source(const char **argv)
{
	size_t n = 0;

	while (argv[n] != NULL)
		n++;
	if (n + 1 < ENV_MAX_ARGS) {
		argv[n++] = WAVE_FILE;
		argv[n] = NULL;
	}
}

void
verilog_wave_plan(struct env_plan *plan, const char *imgdir)
{
	char *sealed = xasprintf("%s/%s", imgdir, WAVE_VCD);
	char *script = xasprintf("IFS= read -r n <&5; exec 5<&-;"
	    " if [ -f %s ]; then echo \"$n wave $(wc -c < %s)\";"
	    " head -c %d %s; else echo \"$n wave none\"; fi", WAVE_VCD,
	    WAVE_VCD, WAVE_DUMP_MAX, WAVE_VCD);
	const char *const seal[] = { sealed, NULL };
	const char *const argv[] = { "sh", "-c", script, NULL };
	static const char *const use[] = { WAVE_VCD, NULL };

	env_plan_seal(plan, seal);
	env_plan_stage(plan, WAVE_STAGE, argv);
	env_plan_use(plan, use);
	plan->stages[plan->nstages - 1].nonce_fd = 1;
	plan->stages[plan->nstages - 1].quiet = 1;	/* a VCD, not text */
	free(sealed);
	free(script);
}

int
verilog_wave_harness_error(struct run *r)
{
	for (size_t i = 0; i < r->ndiags; i++)
		if (strcmp(r->diags[i].severity, "error") == 0 &&
		    strcmp(r->diags[i].file, WAVE_FILE) == 0) {
			env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
			    "harness-error", r->diags[i].message);
			return 1;
		}
	return 0;
}

/*
 * Take vvp's own "VCD info: dumpfile DIR/wave.vcd opened for output."
 * out of r->log: the line is about the harness's dump, not the design's
 * (whose own dump never runs).  Only lines naming the real DIR, the
 * image's random directory (the path the simulate stage sealed), which
 * the design cannot name while it runs: a design that $displays such a
 * line with another path keeps it, and the real one is dropped all the
 * same.
 */
static void
drop_dump_line(const struct env_plan *plan, struct run *r)
{
	const char *vcd = NULL;
	char *line;
	size_t ll;

	for (size_t i = 0; i < plan->nstages && vcd == NULL; i++)
		for (size_t j = 0; plan->stages[i].seal[j] != NULL; j++) {
			const char *q = strrchr(plan->stages[i].seal[j], '/');

			if (q != NULL && strcmp(q + 1, WAVE_VCD) == 0) {
				vcd = plan->stages[i].seal[j];
				break;
			}
		}
	if (vcd == NULL)
		return;
	line = xasprintf("VCD info: dumpfile %s opened for output.\n", vcd);
	ll = strlen(line);
	for (char *p = r->log, *end = r->log + r->log_len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		if ((size_t)(end - p) >= ll && memcmp(p, line, ll) == 0) {
			memmove(p, p + ll, (size_t)(end - p) - ll + 1);
			r->log_len -= ll;
			end -= ll;
			continue;
		}
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	free(line);
}

/* Take the stage's output (its header line on) out of r->log. */
static void
trim_log(const struct env_stage_result *s, struct run *r, const char *note)
{
	const char *nl = memchr(s->log, '\n', s->log_len);
	size_t head = nl != NULL ? (size_t)(nl - s->log) : s->log_len;
	char *at;

	if (r->log == NULL || head == 0)
		return;
	/*
	 * The wave stage is the last: its output ends the log.  Else its
	 * header's last place, never an earlier one, which the design
	 * could have printed to hide the rest of its stage's log.
	 */
	if (r->log_len >= s->log_len && memcmp(r->log + r->log_len -
	    s->log_len, s->log, s->log_len) == 0) {
		at = r->log + r->log_len - s->log_len;
	} else {
		char *hit = NULL, *p = r->log;

		while ((p = memmem(p, r->log_len - (size_t)(p - r->log),
		    s->log, head)) != NULL)
			hit = p++;
		if (hit == NULL)
			return;
		at = hit;
	}
	r->log_len = (size_t)(at - r->log);
	r->log[r->log_len] = '\0';
	if (note != NULL) {
		/* on a line of its own, whatever the run left open */
		int lf = r->log_len > 0 && r->log[r->log_len - 1] != '\n';
		size_t n = strlen(note);

		r->log = xrealloc(r->log, r->log_len + (size_t)lf + n + 1);
		if (lf)
			r->log[r->log_len++] = '\n';
		memcpy(r->log + r->log_len, note, n + 1);
		r->log_len += n;
	}
}

void
verilog_wave_judge(const struct env_plan *plan,
    const struct env_stage_result *s, struct run *r)
{
	char marker[48], *note = NULL;
	const char *p, *end, *vcdtext;
	struct vcd v = VCD_INIT;
	struct vcd_pair *pairs = NULL;
	struct buf out = BUF_INIT, text = BUF_INIT;
	struct err err;
	size_t np, nkeep = 0;
	int *keep = NULL, match, cut;
	json_t *member = NULL;

	if (s == NULL || !s->ran || s->log == NULL)
		return;
	snprintf(marker, sizeof marker, "%s wave ", plan->nonce);
	p = memmem(s->log, s->log_len, marker, strlen(marker));
	end = s->log + s->log_len;
	if (p == NULL || (p > s->log && p[-1] != '\n'))
		goto out;
	p += strlen(marker);
	if (end - p >= 4 && memcmp(p, "none", 4) == 0) {
		note = xasprintf("assay: the simulation left no waveform\n");
		goto out;
	}
	vcdtext = memchr(p, '\n', (size_t)(end - p));
	if (vcdtext == NULL)
		goto out;
	vcdtext++;
	if (vcd_parse(vcdtext, (size_t)(end - vcdtext), WAVE_VCD, &v,
	    &err) < 0) {
		note = xasprintf("assay: the waveform was not kept: %s\n",
		    err.msg);
		goto out;
	}
	np = vcd_pairs(&v, &pairs);
	keep = xcalloc(np * 2 + 1, sizeof *keep);
	for (size_t i = 0; i < np; i++) {
		keep[nkeep++] = pairs[i].ref;
		keep[nkeep++] = pairs[i].cand;
	}
	match = vcd_find(&v, "tb_match");
	if (match >= 0 && np > 0)
		keep[nkeep++] = match;
	if (nkeep == 0) {
		note = xasprintf("assay: the waveform holds no compared"
		    " signal\n");
		goto out;
	}
	cut = vcd_write(&v, keep, nkeep, WAVE_STORE_MAX, &out);
	free(r->wave);
	r->wave = buf_detach(&out, &r->wave_len);
	/* tb_match is the testbench's verdict, not a compared signal */
	note = xasprintf("assay: the waveform of %zu compared signal"
	    " pair%s (NAME_ref, NAME_dut)%s, %zu bytes%s, is kept with the"
	    " run (run.wave)\n", np, np == 1 ? "" : "s", match >= 0 ?
	    " and tb_match" : "", r->wave_len, cut ? " (cut at the size"
	    " cap)" : "");
	if (r->verdict != NULL && strcmp(r->verdict, "fail") == 0 &&
	    verilog_wave_feedback(r->wave, r->wave_len, 3, 4, &text,
	    &member) == 0)
		feedback_set(r, "waveform", member, buf_str(&text));
out:
	trim_log(s, r, note);
	if (r->log != NULL)
		drop_dump_line(plan, r);
	free(note);
	free(keep);
	free(pairs);
	buf_release(&out);
	buf_release(&text);
	vcd_release(&v);
}

int
verilog_wave_feedback(const char *wave, size_t wave_len, int before,
    int after, struct buf *b, json_t **member)
{
	struct vcd v = VCD_INIT;
	struct vcd_pair *pairs = NULL;
	struct err err;
	size_t np, nt, at = 0, from, to, nshow = 0;
	int64_t first = INT64_MAX, *times = NULL;
	int64_t *firsts = NULL;
	int *idx = NULL, rc = -1;
	size_t show[WAVE_PAIRS_SHOWN];
	json_t *sigs, *win, *col;

	*member = NULL;
	if (vcd_parse(wave, wave_len, "run.wave", &v, &err) < 0)
		return -1;
	np = vcd_pairs(&v, &pairs);
	firsts = xcalloc(np + 1, sizeof *firsts);
	for (size_t i = 0; i < np; i++) {
		if (vcd_mismatch(&v, &pairs[i], INT64_MIN, 1, &firsts[i]) < 0)
			firsts[i] = INT64_MAX;
		if (firsts[i] < first)
			first = firsts[i];
	}
	if (first == INT64_MAX)
		goto out;
	/* The pairs that differ at the first mismatch, then the others
	 * that differ later, by their first mismatch. */
	sigs = json_array();
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < np; i++) {
			if (firsts[i] == INT64_MAX || (pass == 0) !=
			    (firsts[i] == first))
				continue;
			json_array_append_new(sigs, json_string(
			    pairs[i].name));
			if (nshow < WAVE_PAIRS_SHOWN)
				show[nshow++] = i;
		}
	idx = xcalloc(v.nsig, sizeof *idx);
	for (size_t i = 0; i < v.nsig; i++)
		idx[i] = (int)i;
	nt = vcd_times(&v, idx, v.nsig, INT64_MIN, INT64_MAX, &times);
	while (at < nt && times[at] < first)
		at++;
	from = at >= (size_t)before ? at - (size_t)before : 0;
	to = at + (size_t)after < nt ? at + (size_t)after : nt;
	{
		char when[48];

		vcd_time_text(&v, first, when, sizeof when);
		/* The dump's first differing values, which come before the
		 * testbench's own report: it compares at its sampling
		 * points (rtlfixer/count10: 165 ps here, 170 there). */
		buf_printf(b, "first differing values at %s (the testbench"
		    " compares at its sampling points): ", when);
	}
	for (size_t i = 0; i < json_array_size(sigs); i++)
		buf_printf(b, "%s%s", i > 0 ? ", " : "", json_string_value(
		    json_array_get(sigs, i)));
	buf_adds(b, v.cut ? " (the waveform was cut at its size cap)\n" :
	    "\n");
	/* The table: a header, then one row per step, ">" at the first
	 * mismatch, "*" after a pair that differs. */
	{
		int tw = 4, cw[WAVE_PAIRS_SHOWN][2];
		char val[80], head[80];

		for (size_t r = from; r < to; r++) {
			int w = snprintf(val, sizeof val, "%lld",
			    (long long)times[r]);

			tw = w > tw ? w : tw;
		}
		for (size_t k = 0; k < nshow; k++)
			for (int side = 0; side < 2; side++) {
				const struct vcd_pair *pp = &pairs[show[k]];
				int s = side == 0 ? pp->ref : pp->cand;

				cw[k][side] = snprintf(head, sizeof head,
				    "%s.%s", pp->name, side == 0 ? "ref" :
				    "cand");
				for (size_t r = from; r < to; r++) {
					int w;

					vcd_format(vcd_value_at(&v, s,
					    times[r]), v.sig[s].width, val,
					    sizeof val);
					w = (int)strlen(val);
					cw[k][side] = w > cw[k][side] ? w :
					    cw[k][side];
				}
			}
		buf_printf(b, "  %*s", tw, "time");
		for (size_t k = 0; k < nshow; k++)
			for (int side = 0; side < 2; side++) {
				snprintf(head, sizeof head, "%s.%s",
				    pairs[show[k]].name, side == 0 ? "ref" :
				    "cand");
				buf_printf(b, "  %-*s%s", cw[k][side], head,
				    side == 1 ? " " : "");
			}
		while (b->len > 0 && b->p[b->len - 1] == ' ')
			b->p[--b->len] = '\0';
		buf_adds(b, "\n");
		for (size_t r = from; r < to; r++) {
			buf_printf(b, "%c %*lld", r == at ? '>' : ' ', tw,
			    (long long)times[r]);
			for (size_t k = 0; k < nshow; k++) {
				const struct vcd_pair *pp = &pairs[show[k]];
				const char *rv = vcd_value_at(&v, pp->ref,
				    times[r]);
				const char *cv = vcd_value_at(&v, pp->cand,
				    times[r]);
				int d = vcd_differs(rv, cv,
				    v.sig[pp->ref].width);

				vcd_format(rv, v.sig[pp->ref].width, val,
				    sizeof val);
				buf_printf(b, "  %-*s", cw[k][0], val);
				vcd_format(cv, v.sig[pp->cand].width, val,
				    sizeof val);
				buf_printf(b, "  %-*s%c", cw[k][1], val,
				    d ? '*' : ' ');
			}
			while (b->len > 0 && b->p[b->len - 1] == ' ')
				b->p[--b->len] = '\0';
			buf_adds(b, "\n");
		}
		win = json_object();
		col = json_array();
		for (size_t r = from; r < to; r++)
			json_array_append_new(col, json_integer(times[r]));
		json_object_set_new(win, "time", col);
		for (size_t k = 0; k < nshow; k++)
			for (int side = 0; side < 2; side++) {
				int s = side == 0 ? pairs[show[k]].ref :
				    pairs[show[k]].cand;

				col = json_array();
				for (size_t r = from; r < to; r++) {
					vcd_format(vcd_value_at(&v, s,
					    times[r]), v.sig[s].width, val,
					    sizeof val);
					json_array_append_new(col,
					    json_string(val));
				}
				json_object_set_new(win, v.sig[s].leaf, col);
			}
	}
	*member = json_pack("{s:I, s:s, s:o, s:o, s:b}", "first_mismatch",
	    (json_int_t)first, "timescale", v.timescale, "signals", sigs,
	    "window", win, "cut", v.cut);
	rc = 0;
out:
	free(times);
	free(idx);
	free(firsts);
	free(pairs);
	vcd_release(&v);
	return rc;
}
