# 113: the nvcc env's want stage and its values on fd 6 (issue 22, ADR
# 0056), through verify and the real sandbox, without a GPU: a task whose
# harness is host code alone (no CUDA call: both its builds run here)
# keeps 2 * i in want.rec in the want stage; the run stage's checker
# reads it on fd 6 and compares.  Candidates:
#   honest    c[i] = 2 * a[i]: pass, at run
#   wrong     one value off: fail mismatch, at run
#   execwant  the attack: runs ./harness-want with a pipe of its own on
#             fd 3, opens want.rec by every path it may have (its area,
#             /work, the want stage's area beside it), its own fd 6 and
#             every regular file any /proc/PID/fd names (the checker's,
#             bwrap's), and sends the first expected values it finds as
#             its own (a pass, where it finds them: the run area once
#             held harness-want); it finds none: fail mismatch, and its
#             log says what it tried and what its area holds.
# The recorded command says what each stage got: the want stage check
# and harness-want, the run stage check and harness, and want.rec on
# fd 6 alone.
. "$(dirname "$0")/lib.sh"
"$ASSAY" envs | grep -q '^nvcc .* yes ' || skip "nvcc not usable here"

python3 - "$T/want.jsonl" <<'EOF'
import json, sys
HARNESS = r'''#include "assay_harness.h"
void vscale(const float *a, float *c, int n);
int main()
{
	static float a[64], c[64], want[64];
	for (int i = 0; i < 64; i++)
		a[i] = (float)i;
	if (assay_want_mode())
		for (int i = 0; i < 64; i++)
			want[i] = 2 * a[i];
	vscale(a, c, 64);
	assay_expect_close(c, want, 64, 0, 0);
	assay_pass();
}
'''
HONEST = ("void vscale(const float *a, float *c, int n)\n"
          "{\n\tfor (int i = 0; i < n; i++)\n\t\tc[i] = 2 * a[i];\n}\n")
WRONG = HONEST.replace("2 * a[i];", "2 * a[i] + (i == 7);")
EXECWANT = r'''#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* An "expect N ATOL RTOL" record and its N floats from fd into c. */
static int
steal(int fd, float *c, int n)
{
	char line[128], ch;
	size_t l = 0, got = 0, want;
	unsigned long k;
	double a, r;

	while (l < sizeof line - 1 && read(fd, &ch, 1) == 1 && ch != '\n')
		line[l++] = ch;
	line[l] = '\0';
	if (sscanf(line, "expect %lu %lf %lf", &k, &a, &r) != 3 ||
	    k != (unsigned long)n)
		return 0;
	want = k * sizeof(float);
	while (got < want) {
		ssize_t m = read(fd, (char *)c + got, want - got);

		if (m <= 0)
			return 0;
		got += (size_t)m;
	}
	return 1;
}

static int
steal_path(const char *path, float *c, int n)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NONBLOCK), ok = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
		ok = steal(fd, c, n);
	close(fd);
	if (ok)
		printf("stole the expected values from %s\n", path);
	return ok;
}

void
vscale(const float *a, float *c, int n)
{
	static const char *const paths[] = { "want.rec", "/work/want.rec",
	    "../want.rec", "../.assay-stage-want/want.rec",
	    "/work/../.assay-stage-want/want.rec", "/proc/self/fd/6", NULL };
	int p[2], fds = 0, st;
	DIR *d;
	struct dirent *e;

	(void)a;
	if (pipe(p) == 0) {
		pid_t k = fork();

		if (k == 0) {
			dup2(p[1], 3);
			execl("./harness-want", "harness-want", (char *)0);
			_exit(127);
		}
		close(p[1]);
		if (steal(p[0], c, n)) {
			printf("stole the expected values from ./harness-want\n");
			return;
		}
		waitpid(k, &st, 0);
		printf("exec ./harness-want: %s\n", WIFEXITED(st) &&
		    WEXITSTATUS(st) == 127 ? "refused" : "no values");
	}
	for (int i = 0; paths[i] != NULL; i++)
		if (steal_path(paths[i], c, n))
			return;
	if ((d = opendir("/proc")) != NULL) {
		while ((e = readdir(d)) != NULL) {
			char dir[300];
			DIR *fdd;
			struct dirent *f;

			if (e->d_name[0] < '1' || e->d_name[0] > '9')
				continue;
			snprintf(dir, sizeof dir, "/proc/%s/fd", e->d_name);
			if ((fdd = opendir(dir)) == NULL)
				continue;
			while ((f = readdir(fdd)) != NULL) {
				char path[600];

				if (f->d_name[0] == '.')
					continue;
				snprintf(path, sizeof path, "%s/%s", dir,
				    f->d_name);
				fds++;
				if (steal_path(path, c, n)) {
					closedir(fdd);
					closedir(d);
					return;
				}
			}
			closedir(fdd);
		}
		closedir(d);
	}
	printf("no want values reached (%d descriptors under /proc tried)\n",
	    fds);
	if ((d = opendir(".")) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (e->d_name[0] != '.')
				printf("area holds %s\n", e->d_name);
		closedir(d);
	}
	memset(c, 0, (size_t)n * sizeof(float));
}
'''
task = {"id": "local/vscale", "benchmark": "local", "domain": "gpu",
        "env": "nvcc", "env_params": {"arch": "sm_90", "harness": "harness.cu"},
        "spec": "c[i] = 2 * a[i] for 0 <= i < n, on the host.",
        "interface": "void vscale(const float *a, float *c, int n);",
        "files": {"harness.cu": HARNESS}}
with open(sys.argv[1], "w") as f:
    for origin, code in (("honest", HONEST), ("wrong", WRONG),
                         ("execwant", EXECWANT)):
        f.write(json.dumps({"task": task, "candidate": {"origin": origin,
                                                        "code": code}}) + "\n")
EOF
"$ASSAY" --db "$DB" import "$T/want.jsonl" >/dev/null || fail "import"
expect_eq "candidates" "$(count 'task=local/vscale')" 3
"$ASSAY" --db "$DB" verify --jobs 1 >"$T/verify" 2>&1

row() {	# ORIGIN FIELD
	"$ASSAY" --db "$DB" list --json --where "origin=$1" | head -n 1 |
	    jq -r ".$2"
}
v() { echo "$(row "$1" verdict) $(row "$1" stage) $(row "$1" subcategory)"; }
expect_eq "honest" "$(v honest)" "pass run null"
expect_eq "wrong" "$(v wrong)" "fail run mismatch"
expect_eq "execwant" "$(v execwant)" "fail run mismatch"

"$ASSAY" --db "$DB" show "$(row execwant id)" >"$T/show" || fail "show"
grep -q '^candidate output: exec ./harness-want: refused' "$T/show" ||
    fail "execwant ran harness-want: $(grep 'candidate output' "$T/show")"
grep -q '^candidate output: no want values reached ([1-9][0-9]* descriptors' "$T/show" ||
    fail "execwant reached want values: $(grep 'candidate output' "$T/show")"
grep -q '^candidate output: stole' "$T/show" && fail "execwant stole: $(grep '^candidate output: stole' "$T/show")"
# Its area: the checker, the harness with it, its log; nothing else.
expect_eq "the run area" "$(sed -n 's/^candidate output: area holds //p' \
    "$T/show" | sort | tr '\n' ' ')" "candidate.log check harness "
echo "ok: execwant found no expected values"

# What each stage got, as the run records it.
"$ASSAY" --db "$DB" show "$(row honest id)" >"$T/cmd" || fail "show honest"
grep -q '^# want runs in .assay-stage-want, with check (sha256 [0-9a-f]*) harness-want (sha256 [0-9a-f]*)$' "$T/cmd" ||
    fail "want stage: $(grep '^# want' "$T/cmd")"
grep -q '^# run runs in .assay-stage-run, with check (sha256 [0-9a-f]*) harness (sha256 [0-9a-f]*); want.rec (sha256 [0-9a-f]*) on fd 6 alone$' "$T/cmd" ||
    fail "run stage: $(grep '^# run' "$T/cmd")"
echo "ok: the recorded command names each stage's files and fd 6"
