/*
 * config.h - settings that come from the environment: the reviewer's name
 * and paths assay reads its data files from.
 */
#ifndef ASSAY_CONFIG_H
#define ASSAY_CONFIG_H

/*
 * The reviewer's name, design.md section 8: flag (--reviewer) if not NULL
 * and not empty, else $ASSAY_REVIEWER, else git's user.name, else the
 * login name, else "unknown".  New string; caller frees.
 */
char	*config_reviewer(const char *flag);

/*
 * Directory holding grammars/ and themes/: $ASSAY_DATA_DIR, else the
 * directory of the executable when it has a grammars/ folder (a build
 * tree), else its parent's (build/assay), else /usr/share/assay.
 * New string; caller frees.  argv0 is the program's argv[0].
 */
char	*config_data_dir(const char *argv0);

#endif
