/*
 * registry.c - the table of toolchain envs.  Every env is a const struct
 * env_ops in its own file (env.h), named env_NAME; adding one is that
 * file and one line X(NAME) in ENVS here.  Nothing in an env file calls back into this table.
 */
#include "envs/env.h"

#include <string.h>

/* The envs, one line each, in the order `assay envs` lists them. */
#define ENVS(X) \
	X(iverilog) \
	X(verilator) \
	X(yosys) \
	X(nvcc) \
	X(triton) \
	X(armqemu) \
	X(x86asm) \
	X(cad)

#define ENV_DECLARE(name)	extern const struct env_ops env_##name;
#define ENV_ENTRY(name)		&env_##name,
ENVS(ENV_DECLARE)

static const struct env_ops *const envs[] = {
	ENVS(ENV_ENTRY)
};

const struct env_ops *
env_find(const char *name)
{
	for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++)
		if (name != NULL && strcmp(envs[i]->name, name) == 0)
			return envs[i];
	return NULL;
}

const struct env_ops *const *
env_list(size_t *n)
{
	*n = sizeof envs / sizeof envs[0];
	return envs;
}

