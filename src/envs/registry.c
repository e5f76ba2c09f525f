/*
 * registry.c - the table of toolchain envs.  Every env is a const struct
 * env_ops in its own file (env.h); adding one is that file and one line
 * here.  Nothing in an env file calls back into this table.
 */
#include "envs/env.h"

#include <string.h>

extern const struct env_ops env_iverilog;
extern const struct env_ops env_verilator;
extern const struct env_ops env_yosys;
extern const struct env_ops env_nvcc;
extern const struct env_ops env_triton;
extern const struct env_ops env_armqemu;
extern const struct env_ops env_x86asm;
extern const struct env_ops env_cad;

static const struct env_ops *const envs[] = {
	&env_iverilog,
	&env_verilator,
	&env_yosys,
	&env_nvcc,
	&env_triton,
	&env_armqemu,
	&env_x86asm,
	&env_cad,
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

