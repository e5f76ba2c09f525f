/*
 * main.c - argument parsing and wiring: global options, then either a
 * headless command (cli.c) or the workbench (src/ui), both on the one
 * command table below.  No logic here.
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "app/command.h"
#include "app/commands.h"
#include "app/config.h"
#include "base/err.h"
#include "base/ident.h"
#include "exec/sandbox.h"
#include "store/store.h"
#include "ui/ui.h"
#include "verify/verify.h"

const char *cli_version(void);

/*
 * The one command table (tmux's cmd_table; docs/adr/0047): every
 * command of the command line, the workbench's `:` line, its keys and
 * the config file, each entry flagged with where it runs (CMD_CLI,
 * CMD_WORKBENCH, CMD_KEY, CMD_CONFIG; app/command.h).  It is listed
 * here because its entries live on both front ends' floors, which may
 * not see each other; each front end is handed the whole table and
 * runs only what runs there.  In the order `assay help` and Tab show.
 */
#define ENTRY_CLI(name)	&cli_cmd_##name,
#define ENTRY_APP(name)	&app_cmd_##name,
#define ENTRY_UI(name)	&ui_cmd_##name,
static const struct cmd_entry *const command_list[] = {
	CLI_COMMANDS(ENTRY_CLI)
	UI_COMMANDS(ENTRY_UI)
	APP_COMMANDS(ENTRY_APP)
	&cli_cmd_help,
	APP_SETTINGS(ENTRY_APP)
	ACTION_INFO(APP_ACTION_ENTRY)
};
static const struct cmd_table commands = { command_list,
    sizeof command_list / sizeof command_list[0] };

/*
 * --bench-fill N (bench/scale.sh): copy the imported candidates until
 * the database holds N; see store_bench_fill().  Not in --help: it
 * exists for the scale bench only.
 */
static int
bench_fill(const char *db, const char *arg)
{
	struct store *st;
	struct err err;
	size_t added;
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0') {
		fprintf(stderr, "assay: --bench-fill: bad count '%s'\n", arg);
		return 2;
	}
	if (store_open(&st, db, &err) < 0) {
		fprintf(stderr, "assay: %s\n", err.msg);
		return 2;
	}
	if (store_bench_fill(st, (size_t)n, &added, &err) < 0) {
		fprintf(stderr, "assay: %s: %s\n", db, err.msg);
		store_close(st);
		return 2;
	}
	store_close(st);
	printf("%s: %zu copies added\n", db, added);
	return 0;
}

/* "--opt VALUE" or "--opt=VALUE" at argv[*i]; advances *i.  NULL: no. */
static const char *
opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, "assay: %s needs a value\n", name);
		exit(2);
	}
	return argv[++*i];
}

int
main(int argc, char **argv)
{
	struct cli_global g = { .db = "assay.db", .argv0 = argv[0] };
	struct verify_opts vo = { 0 };
	struct ui_opts uo = { .repo_dir = "dataset" };
	struct store *st;
	struct err err;
	char *reviewer, *data_dir;
	struct timespec t0;
	int i, status;

	/* --bench-keys times the first frame from here */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	uo.bench_t0 = (double)t0.tv_sec + (double)t0.tv_nsec / 1e9;
	setlocale(LC_ALL, "");
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *v;

		if (strcmp(argv[i], "--version") == 0) {
			printf("assay %s\n", cli_version());
			return 0;
		}
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			cli_usage(&commands);
			return 0;
		}
		if (strcmp(argv[i], "--no-sandbox") == 0) {
			vo.no_sandbox = 1;
			continue;
		}
		if ((v = opt_value(argc, argv, &i, "--db")) != NULL)
			g.db = v;
		else if ((v = opt_value(argc, argv, &i, "--reviewer")) != NULL)
			g.reviewer = v;
		else if ((v = opt_value(argc, argv, &i, "--where")) != NULL)
			uo.filter = v;
		else if ((v = opt_value(argc, argv, &i, "--repo")) != NULL)
			uo.repo_dir = v;
		else if ((v = opt_value(argc, argv, &i, "--dump-screen")) != NULL)
			uo.dump_screen = v;
		else if ((v = opt_value(argc, argv, &i,
		    "--bench-keys")) != NULL)
			uo.bench_keys = v;
		else if ((v = opt_value(argc, argv, &i,
		    "--bench-fill")) != NULL)
			return bench_fill(g.db, v);
		else {
			fprintf(stderr, "assay: unknown option %s; see assay"
			    " --help\n", argv[i]);
			return 2;
		}
	}
	if (g.reviewer != NULL || getenv("ASSAY_REVIEWER") != NULL) {
		/* A name given by hand is checked for every command: it may
		 * reach the journal, a candidate's origin or a trailer. */
		const char *who = g.reviewer != NULL ? g.reviewer :
		    getenv("ASSAY_REVIEWER");
		char show[128];

		if (*who != '\0' && ident_check_reviewer(who, &err) < 0) {
			fprintf(stderr, "assay: reviewer name '%s' (from %s): %s\n",
			    ident_show(who, show, sizeof show), g.reviewer !=
			    NULL ? "--reviewer" : "ASSAY_REVIEWER", err.msg);
			return 2;
		}
	}
	if (i < argc)
		return cli_run(&g, &commands, argc - i, argv + i);

	if (store_open(&st, g.db, &err) < 0) {
		fprintf(stderr, "assay: %s\n", err.msg);
		return 2;
	}
	reviewer = config_reviewer(g.reviewer);
	if (ident_check_reviewer(reviewer, &err) < 0) {
		char show[128];

		fprintf(stderr, "assay: reviewer name '%s': %s\n",
		    ident_show(reviewer, show, sizeof show), err.msg);
		free(reviewer);
		store_close(st);
		return 2;
	}
	data_dir = config_data_dir(argv[0]);
	uo.db_path = g.db;
	uo.reviewer = reviewer;
	uo.data_dir = data_dir;
	uo.vopts = &vo;
	uo.commands = &commands;
	if (!vo.no_sandbox && sandbox_check(&err) < 0) {
		fprintf(stderr, "assay: %s\nassay: the workbench opens, but v"
		    " will refuse to run candidates\n", err.msg);
	}
	status = ui_run(st, &uo);
	store_close(st);
	free(reviewer);
	free(data_dir);
	return status;
}
