/*
 * nvcc.h - what the nvcc env (docs/envs/nvcc.md) tells others of its
 * targets: the launch limits of an architecture, which its static check
 * holds candidates to and `assay task new` states in a task's interface.
 */
#ifndef ASSAY_NVCC_H
#define ASSAY_NVCC_H

#include "lang/cuda_launch.h"

/*
 * The launch limits of arch ("sm_90") into *lim (CUDA C++ Programming
 * Guide, "Compute Capabilities", technical specifications): grid and
 * block dimensions, threads per block, static shared memory per block,
 * and shared memory per block with the opt-in (0 for a target not in
 * the table: not checked).
 */
void	nvcc_limits(const char *arch, struct cuda_launch_limits *lim);

/* Is arch a target the env takes, sm_NN[N] with an optional a or f?
 * 1 or 0. */
int	nvcc_arch_ok(const char *arch);

#endif
