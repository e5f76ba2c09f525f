/*
 * assay.h - semihosting helpers for firmware that assay's arm-qemu env
 * builds and runs on QEMU (ARM "Semihosting for AArch32 and AArch64",
 * version 3.0: the BKPT 0xAB trap on M-profile, operation in r0, its
 * argument block in r1).
 *
 * assay_exit(code) ends the run: QEMU exits with code, which the task's
 * expect_exit checks.  assay_puts(s) writes s to QEMU's standard output
 * (the run's log), not to a UART.  Returning from main() calls exit()
 * with main's value, so a firmware need not call assay_exit at all.
 */
#ifndef ASSAY_ARM_ASSAY_H
#define ASSAY_ARM_ASSAY_H

#include <stdint.h>

/* The exit codes of assay's fault handlers in startup.c. */
#define ASSAY_EXIT_FAULT	250	/* HardFault, MemManage, BusFault,
					   UsageFault */
#define ASSAY_EXIT_UNHANDLED	251	/* an exception with no handler */

#define ASSAY_SYS_WRITE0	0x04
#define ASSAY_SYS_EXIT_EXTENDED	0x20
#define ASSAY_ADP_APPLICATION_EXIT 0x20026

static inline uint32_t
assay_semihost(uint32_t op, const void *arg)
{
	register uint32_t r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;

	__asm__ volatile ("bkpt 0xAB" : "+r" (r0) : "r" (r1) : "memory");
	return r0;
}

/* End the run with QEMU's exit status code (0-255). */
__attribute__((noreturn)) static inline void
assay_exit(int code)
{
	uint32_t block[2] = { ASSAY_ADP_APPLICATION_EXIT, (uint32_t)code };

	assay_semihost(ASSAY_SYS_EXIT_EXTENDED, block);
	for (;;)
		;
}

/* Write a NUL-terminated string to the run's log. */
static inline void
assay_puts(const char *s)
{
	assay_semihost(ASSAY_SYS_WRITE0, s);
}

#endif
