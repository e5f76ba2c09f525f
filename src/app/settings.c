/*
 * settings.c - the settings of the config file (struct config, config.h):
 * their names, the values they take, set from text and read back as
 * text.  Apart from config.c, which reads the file through the command
 * table, so that the commands that change a setting (cmd_set.c) use
 * these without a circle through the file's reader.
 */
#include "app/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/err.h"

static const char *const setting_names[] = { "theme", "mouse", "advance" };
static const char *const on_off[] = { "on", "off", NULL };
static const char *const theme_names[] = { "dark", "light", "mono", NULL };

void
config_init(struct config *c)
{
	memset(c, 0, sizeof *c);
	c->mouse = 1;
	c->advance = 1;
}

void
config_release(struct config *c)
{
	if (c == NULL)
		return;
	free(c->theme);
	config_init(c);
}

const char *const *
config_names(size_t *n)
{
	*n = sizeof setting_names / sizeof setting_names[0];
	return setting_names;
}

const char *const *
config_values(const char *name)
{
	if (strcmp(name, "theme") == 0)
		return theme_names;
	if (strcmp(name, "mouse") == 0 || strcmp(name, "advance") == 0)
		return on_off;
	return NULL;
}

/* on/off and their usual spellings into *v; -1 for anything else. */
static int
parse_bool(const char *s, int *v)
{
	static const char *const yes[] = { "on", "yes", "true", "1" };
	static const char *const no[] = { "off", "no", "false", "0" };

	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*v = 1;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*v = 0;
			return 0;
		}
	}
	return -1;
}

int
config_set(struct config *c, const char *name, const char *value,
    struct err *err)
{
	int v;

	if (value == NULL || *value == '\0')
		return err_set(err, "%s wants a value", name);
	if (strcmp(name, "theme") == 0) {
		if (strpbrk(value, " \t") != NULL)
			return err_set(err, "bad theme name '%s'", value);
		free(c->theme);
		c->theme = xstrdup(value);
		return 0;
	}
	if (strcmp(name, "mouse") == 0 || strcmp(name, "advance") == 0) {
		if (parse_bool(value, &v) < 0)
			return err_set(err, "%s wants on or off, not '%s'",
			    name, value);
		if (strcmp(name, "mouse") == 0)
			c->mouse = v;
		else
			c->advance = v;
		return 0;
	}
	return err_set(err, "unknown setting '%s' (theme, mouse, advance)",
	    name);
}

void
config_get(const struct config *c, const char *name, char *buf, size_t n)
{
	if (n == 0)
		return;
	if (strcmp(name, "theme") == 0)
		snprintf(buf, n, "%s", c->theme != NULL ? c->theme : "dark");
	else if (strcmp(name, "mouse") == 0)
		snprintf(buf, n, "%s", c->mouse ? "on" : "off");
	else if (strcmp(name, "advance") == 0)
		snprintf(buf, n, "%s", c->advance ? "on" : "off");
	else
		buf[0] = '\0';
}
