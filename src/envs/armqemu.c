/*
 * armqemu.c - the arm-qemu env: Cortex-M4 firmware (STM32F405 class)
 * built with arm-none-eabi-gcc and run on QEMU's netduinoplus2 board
 * (design.md section 7, toolchains.md section 3).
 *
 * The candidate is main.c.  Next to it go assay's device header
 * (stm32f4xx.h, a CMSIS stand-in: Debian packages no CMSIS), start-up
 * code, linker script and semihosting helper (share/envs/arm, compiled
 * into the binary), unless a task file of the same name replaces one, and
 * the task's own files; every .c, .s and .S of them is built.  Stages:
 *
 *   build     arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard
 *             -mfpu=fpv4-sp-d16 ... -T stm32f405.ld -o run/fw.elf
 *             startup.c main.c [task sources], then a symbol name with
 *             a byte outside printable ASCII is refused and the image
 *             QEMU runs is fw.elf without symbols (run/image.elf):
 *             QEMU's in_asm log prints a block's symbol, which would
 *             let a name holding a newline write a line of the trace;
 *             both files are sealed (verify.c)
 *   run       in a sealed area with fw.elf and image.elf, read-only:
 *             qemu-system-arm -M netduinoplus2 -display none
 *             -monitor none -add-fd fd=3,set=1 -chardev
 *             file,id=uart,path=/dev/fdset/1 -serial chardev:uart
 *             -chardev stdio,id=semihost -semihosting-config
 *             enable=on,target=native,chardev=semihost -sandbox
 *             on,spawn=deny,... -icount shift=0 -d unimp,guest_errors,
 *             in_asm,trace:memory_region_ops_write -kernel image.elf -D
 *             .trace-RANDOM
 *             2>ev/stderr.log (fd 3 is ev/uart.txt; the -d log, moved to
 *             ev/regtrace.log once QEMU is gone, has a random name the
 *             firmware cannot learn, and semihosting's stderr, which is
 *             QEMU's, is not the trace), under a waiter (perl) and sh, which
 *             prints QEMU's exit status after a per-run secret (read from
 *             fd 5; a non-zero status must not stop the run before the
 *             next stages), QEMU's own messages, and addr2line's source
 *             lines:
 *             for the pc and lr a fault handler reported, and for a run
 *             stopped by its clock, for the last read of a register QEMU
 *             does not model (a wait for a flag)
 *   uart      the UART's output, with its size first
 *   regtrace  the register trace (-d unimp) without QEMU's disassembly,
 *             one line for a run of the same read, and the USARTs' writes
 *             from the memory_region_ops_write trace event, then how many
 *             reads there were and the trace's last lines
 *
 * ev/uart.txt and ev/regtrace.log are sealed after the run stage, and the
 * uart and regtrace stages each read their copy in a sealed area of
 * their own: nothing the firmware wrote through semihosting is there.
 * The run stage sees only its area (the images, read-only, and what QEMU
 * writes) and has no /proc, so the firmware's semihosting file calls
 * reach nothing else; the evidence (UART, trace) is in ev/ of that area,
 * mode 0 while QEMU runs, so they cannot reach that either: only QEMU
 * writes it, and UART bytes are those the firmware wrote to the USART's
 * data register (docs/security.md).  The judge checks
 * the task's expect_exit, expect_uart and expect_writes (a write
 * narrower than its register counts at its byte lane: BSRRH is BSRR's
 * high half), replaying the trace against the STM32F4's rules (clock
 * gating, pin modes, the USART's enables: ADR 0060) so that only writes
 * that take effect on silicon count; a HardFault ends the run through startup.c's handler with
 * ASSAY_EXIT_FAULT.  A mistake in env_params (an unknown key, a
 * peripheral QEMU does not trace) is the task's: prepare() refuses it.
 * A task may ask for Renode (simulator "renode"), used where it is
 * installed and otherwise judged "skipped".  Nothing runs here but the
 * version queries; verify.c runs the stages.
 */
#define _GNU_SOURCE
#include "envs/env.h"

#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/hash.h"
#include "model/feedback.h"

#define CAND_FILE "main.c"
#define RUN_DIR "run"
#define ELF_FILE "fw.elf"
#define IMAGE_FILE "image.elf"		/* fw.elf without symbols: QEMU's */
/*
 * The evidence, in ev/ of the run stage's area: the shell opens the
 * UART's file, QEMU writes it through an inherited fd (-add-fd,
 * /dev/fdset/1), and ev/ has mode 0 while QEMU runs.  The trace is QEMU's -D log, never its stderr: the
 * firmware's semihosting ":tt" opened for append IS QEMU's stderr, and
 * wrote "GPIOA: unimplemented device write ..." lines of its own there.
 * The log's name is random (semihosting cannot list a directory) and it
 * is moved into ev/ once QEMU is gone.  The run stage has no /proc, so
 * the firmware's semihosting SYS_OPEN can name neither file (nor
 * /proc/self/fd/N): only QEMU writes them.
 */
#define EV_DIR "ev"
/* The build stage's refusal of a symbol name (build_script). */
#define FORBIDDEN_SYMBOL "arm-qemu: forbidden-symbol: "
#define UART_NAME "uart.txt"
#define TRACE_NAME "regtrace.log"
#define UART_FILE EV_DIR "/" UART_NAME
#define TRACE_FILE EV_DIR "/" TRACE_NAME
#define STDERR_FILE EV_DIR "/stderr.log"
#define LIBM "-lm"			/* after the sources */
#define RESC_FILE "run.resc"

#define FW_TIMEOUT_S 10		/* the firmware's wall clock, default */
#define BUILD_MARGIN_S 30	/* the rest of the run: build, printing */
#define UART_CAP (256 << 10)	/* UART bytes that go into the log */
#define TRACE_CAP (1 << 20)	/* register-trace bytes that go into it */

/* startup.c's exit codes (share/envs/arm/assay.h). */
#define EXIT_FAULT 250
#define EXIT_UNHANDLED 251

/* What share/envs/arm gives every build, unless the task replaces it. */
static const char *const share_files[] = { "stm32f4xx.h", "stm32f405xx.h",
    "stm32f407xx.h", "assay.h", "startup.c", "stm32f405.ld" };

/* QEMU's serial ports in netduinoplus2's order (stm32f405_soc.c). */
static const char *const uarts[] = { "USART1", "USART2", "USART3", "UART4",
    "UART5", "USART6" };

static const char *const gcc_flags[] = { "-mcpu=cortex-m4", "-mthumb",
    "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16", "-O2", "-g", "-Wall", "-Wextra",
    "-fdiagnostics-color=never", "-ffunction-sections", "-fdata-sections",
    "-ffreestanding", "-nostartfiles", "-I.", "-T", "stm32f405.ld",
    "-Wl,--gc-sections", "-Wl,--print-memory-usage", "--specs=nano.specs",
    "--specs=rdimon.specs", "-o", RUN_DIR "/" ELF_FILE };

/*
 * The peripherals QEMU 7.2's stm32f405-soc leaves unimplemented, under
 * the names its -d unimp trace gives them ("info mtree" of
 * netduinoplus2), with the CMSIS name a task may use instead.  QEMU
 * maps "I2S2ext" at 0x40003000, over the IWDG, so IWDG's writes carry
 * that name.
 */
static const struct {
	const char	*qemu, *cmsis;
} traced[] = {
	{ "RCC", NULL }, { "GPIOA", NULL }, { "GPIOB", NULL },
	{ "GPIOC", NULL }, { "GPIOD", NULL }, { "GPIOE", NULL },
	{ "GPIOF", NULL }, { "GPIOG", NULL }, { "GPIOH", NULL },
	{ "GPIOI", NULL }, { "Flash Int", "FLASH" }, { "PWR", NULL },
	{ "DMA1", NULL }, { "DMA2", NULL }, { "I2C1", NULL }, { "I2C2", NULL },
	{ "I2C3", NULL }, { "CAN1", NULL }, { "CAN2", NULL }, { "DAC", NULL },
	{ "timer[1]", "TIM1" }, { "timer[6]", "TIM6" }, { "timer[7]", "TIM7" },
	{ "timer[8]", "TIM8" }, { "timer[9]", "TIM9" },
	{ "timer[10]", "TIM10" }, { "timer[11]", "TIM11" },
	{ "timer[12]", "TIM12" }, { "timer[13]", "TIM13" },
	{ "timer[14]", "TIM14" }, { "WWDG", NULL }, { "I2S2ext", "IWDG" },
	{ "I2S3ext", NULL }, { "RTC and BKP", "RTC" }, { "CRC", NULL },
	{ "RNG", NULL }, { "SDIO", NULL }, { "BKPSRAM", NULL },
	{ "DCMI", NULL }, { "Ethernet", "ETH" }, { "USB OTG FS", "USB_OTG_FS" },
	{ "USB OTG HS", "USB_OTG_HS" },
};
#define TRACED_LIST "RCC, GPIOA-GPIOI, FLASH, PWR, DMA1, DMA2, I2C1-I2C3," \
	" CAN1, CAN2, DAC, TIM1, TIM6-TIM14, WWDG, IWDG, I2S3ext, RTC, CRC," \
	" RNG, SDIO, BKPSRAM, DCMI, ETH, USB_OTG_FS, USB_OTG_HS"

/* What QEMU models, or the core itself: their writes reach no trace. */
static const char *const modelled[] = { "USART1", "USART2", "USART3",
    "UART4", "UART5", "USART6", "UART7", "TIM2", "TIM3", "TIM4", "TIM5",
    "ADC", "ADC1", "ADC2", "ADC3", "ADC123_COMMON", "SPI1", "SPI2", "SPI3",
    "SPI4", "SPI5", "SPI6", "SYSCFG", "EXTI", "NVIC", "SysTick", "SCB",
    "FPU", "MPU", "CoreDebug", "DWT", "ITM" };

/* env_params' keys, and those of an expect_writes entry. */
static const char *const param_keys[] = { "expect_exit", "expect_uart",
    "expect_writes", "uart", "timeout_s", "simulator" };
static const char *const write_keys[] = { "periph", "offset", "value",
    "mask", "size" };

/* QEMU's command line, before and after the -serial options. */
static const char *const qemu_head[] = { "-M", "netduinoplus2", "-display",
    "none", "-monitor", "none", "-add-fd", "fd=3,set=1", "-chardev",
    "file,id=uart,path=/dev/fdset/1" };
/*
 * Semihosting's console is QEMU's stdout (the run's log), never the
 * UART; QEMU's own seccomp sandbox kills it (SIGSYS) when the firmware
 * asks for a host command (SYS_SYSTEM); the trace goes to the -D log
 * the run script names (never stderr, which semihosting can write).
 */
static const char *const qemu_tail[] = { "-chardev",
    "stdio,id=semihost,signal=off", "-semihosting-config",
    "enable=on,target=native,chardev=semihost", "-sandbox",
    "on,obsolete=deny,elevateprivileges=deny,spawn=deny,"
    "resourcecontrol=deny", "-icount", "shift=0", "-d",
    "unimp,guest_errors,in_asm,trace:memory_region_ops_write", "-kernel",
    IMAGE_FILE };

/*
 * The build stage ("$0" is arm-none-eabi-gcc, "$@" its arguments): after
 * the link, a symbol name with a byte outside printable ASCII (a control
 * character: a newline) is refused, one line "arm-qemu: forbidden-
 * symbol: ..." (readelf shows a control character as ^X), and the image
 * QEMU runs is the firmware without symbols or debug information: QEMU's
 * in_asm log names each block's symbol ("IN: main"), and a name holding a
 * newline and a "GPIOA: unimplemented device write ..." line wrote that
 * line into the register trace (issue 22).  addr2line still reads fw.elf.
 */
#define ELF_PATH RUN_DIR "/" ELF_FILE
static const char build_script[] =
    "\"$0\" \"$@\" || exit\n"
    "set -- $(LC_ALL=C arm-none-eabi-readelf -SW " ELF_PATH " | sed -n"
    " 's/.*\\] \\.strtab  *STRTAB  *[0-9a-f]*  *\\([0-9a-f]*\\)"
    "  *\\([0-9a-f]*\\) .*/\\1 \\2/p')\n"
    "[ $# -eq 2 ] || { echo \"arm-qemu: forbidden-symbol: " ELF_PATH " has"
    " no symbol table to check\"; exit 1; }\n"
    "n=$(tail -c +$((0x$1 + 1)) " ELF_PATH " | head -c $((0x$2)) |"
    " LC_ALL=C tr -d '\\000\\040-\\176' | wc -c)\n"
    "[ \"$n\" -eq 0 ] || { echo \"arm-qemu: forbidden-symbol: a symbol name"
    " holds a control character or a byte outside printable ASCII: $("
    "LC_ALL=C arm-none-eabi-readelf -sW " ELF_PATH " | LC_ALL=C grep -m 1"
    " -e '\\^' -e '[^ -~]' | sed 's/^ *[0-9]*: *[0-9a-f]* *[0-9a-fx]*"
    " [A-Z]* *[A-Z]* *[A-Z]* *[A-Z0-9]* //' | cut -c 1-200)\"; exit 1; }\n"
    "exec arm-none-eabi-objcopy --strip-all " ELF_PATH " " RUN_DIR "/"
    IMAGE_FILE "\n";

/*
 * The run stage's script (%1$d timeout_s; "$@" is QEMU's command line;
 * the nonce comes on fd 5).  QEMU's stdin is /dev/null: on the
 * workbench's pty its stdio chardev would set the terminal's modes.  QEMU's status goes into the log, not the stage's: a
 * firmware that exits 3 on purpose must not stop the stages that print
 * its UART and its trace.  The status line carries the nonce.  Then
 * addr2line names source lines:
 *
 * - "fault-at": the pc and lr a fault handler reported.  The pc with its
 *   Thumb bit cleared; lr is a return address, so one Thumb instruction
 *   (2 bytes) back as well: the call, not the line after it.
 * - "poll-at", for a run stopped by the timeout or the file-size limit:
 *   the instruction of the last read of an unmodelled register.  Under
 *   -icount an access to a device must end its translation block, so
 *   QEMU translates such a load again as a block of its own, logs it
 *   (in_asm) and runs it at once: the read line right after a one-
 *   instruction block says which instruction reads that register.
 *   Only whole read lines count: a trace the file-size limit cut ends in
 *   part of one ("RCC: unimplemented device read  (size 4, off"), and
 *   the last whole one before it is the poll.
 */
#define POLL_AWK \
	"/^IN:/ { b = 1; n = 0; cut = \"\"; next }" \
	" b && /^0x[0-9a-f]+:/ { n++; a = substr($1, 1, length($1) - 1);" \
	" next }" \
	" b { b = 0; cut = n == 1 ? a : \"\" }" \
	" /: unimplemented device read +\\(size [0-9]+, offset 0x[0-9a-f]+\\)$/" \
	" { if (cut != \"\") at[$0] = cut; cut = \"\"; last = $0; next }" \
	" /: unimplemented device write/ { cut = \"\" }" \
	" END { if (last in at) print at[last] }"
/*
 * QEMU's waiter (perl-base is Essential in Debian): runs QEMU under a
 * wall clock (SIGTERM at $t seconds, SIGKILL one second later, as
 * timeout -k 1 did) and prints how it ended after the secret: "qemu-exit
 * N" for an exit, and also "qemu-signal S" when a signal ended it and
 * "qemu-timeout T" when the clock did.  A shell's $? cannot tell QEMU
 * killed by signal 6 from firmware that exits 134 through semihosting
 * (SYS_EXIT_EXTENDED takes any status), nor timeout(1)'s 124 from an
 * exit(124): the firmware chose its verdict (env-error, timeout) that
 * way.  No single quote and no percent sign: it sits in the shell's
 * quotes of a printf format.
 */
#define QEMU_WAIT_PL \
	"my ($n, $t, @c) = @ARGV; my $p = fork; defined $p or die \"fork\";" \
	" if (!$p) { exec { $c[0] } @c; exit 127 }" \
	" my $to = 0; $SIG{ALRM} = sub { if ($to++) { kill \"KILL\", $p }" \
	" else { kill \"TERM\", $p; alarm 1 } }; alarm $t; my $w;" \
	" do { $w = waitpid($p, 0) } until $w == $p || ($w < 0 && !$!{EINTR});" \
	" my $s = $?; alarm 0; $| = 1;" \
	" print \"$n qemu-timeout $t\\n\" if $to;" \
	" if ($s & 127) { print \"$n qemu-signal \", $s & 127, \"\\n\";" \
	" print \"$n qemu-exit \", 128 + ($s & 127), \"\\n\" }" \
	" else { print \"$n qemu-exit \", ($to ? 124 : $s >> 8), \"\\n\" }"
static const char run_script[] =
    "IFS= read -r n <&5; exec 5<&-; ulimit -c 0; rm -rf " EV_DIR "; "
    "mkdir -m 700 " EV_DIR "; exec 3>" UART_FILE " 4>" STDERR_FILE "; "
    "chmod 0 " EV_DIR "; "
    "r=$(od -An -N12 -tx1 /dev/urandom 2>/dev/null | tr -dc 0-9a-f); "
    "r=.trace-${r:-$n}; "
    "{ perl -e '" QEMU_WAIT_PL "' \"$n\" %1$d qemu-system-arm \"$@\""
    " -D \"$r\" 2>&4 </dev/null; } | tee console.txt;"
    " exec 3>&- 4>&-; "
    "grep -q '^IN:' \"$r\" 2>/dev/null && echo \"$n fw-ran 1\"; "
    "chmod 700 " EV_DIR "; "
    "mv -f \"$r\" " TRACE_FILE " 2>/dev/null || : > " TRACE_FILE "; "
    "grep -e '^qemu' -e 'terminating on signal' " STDERR_FILE
    " | head -n 20; "
    "set -- $(sed -n 's/^assay: [A-Za-z]* at pc 0x\\([0-9a-f]\\{1,8\\}\\)"
    " (lr 0x\\([0-9a-f]\\{1,8\\}\\).*/\\1 \\2/p' console.txt | head -n 1); "
    "[ $# -eq 0 ] || arm-none-eabi-addr2line -e " ELF_FILE " -f -i -p -s"
    " $(printf '0x%%x 0x%%x' $(( 0x$1 & ~1 )) $(( (0x$2 & ~1) - 2 )))"
    " | sed \"s/^/$n fault-at /\"; "
    "if grep -q -e \"$n qemu-timeout \" -e \"$n qemu-signal 25$\""
    " console.txt; then"
    " set -- $(awk '" POLL_AWK "' " TRACE_FILE ");"
    " [ $# -eq 0 ] || arm-none-eabi-addr2line -e " ELF_FILE " -f -i -p -s"
    " \"$1\" | sed \"s/^/$n poll-at /\"; fi; exit 0";

/*
 * The regtrace stage (%1$d the cap; the nonce on fd 5): the trace
 * without its reads and QEMU's disassembly, how many reads, and its last
 * accesses.
 */
#define NOT_ASM "-e '^IN:' -e '^0x[0-9a-f]*:  ' -e '^-\\{16\\}$' -e '^$'"
#define TRACE_AWK \
	"/^IN:/ || /^0x[0-9a-f]*:  / || /^----------------$/ || /^$/ { next }" \
	" /^memory_region_ops_write / { if ($0 ~ /^memory_region_ops_write" \
	" cpu [0-9]+ mr 0x[0-9a-f]+ addr 0x[0-9a-f]+ value 0x[0-9a-f]+" \
	" size [0-9]+ name .stm32f2xx-usart.$/) print \"usart-write addr\"," \
	" $7, \"value\", $9, \"size\", $11; next }" \
	" /: unimplemented device read / { if ($0 == last) next }" \
	" { last = $0; print }"
static const char trace_script[] =
    "IFS= read -r n <&5; exec 5<&-;"
    " echo \"$n trace $(wc -c < " TRACE_NAME ") bytes\";"
    " awk '" TRACE_AWK "' " TRACE_NAME
    " | head -c %1$d | sed '$a\\';"
    " echo \"$n trace-reads"
    " $(grep -c 'unimplemented device read' " TRACE_NAME ")\";"
    " grep -v " NOT_ASM " -e '^memory_region_ops_write ' " TRACE_NAME
    " | tail -n 3 | sed \"s/^/$n trace-last /\"";

/* One entry of env_params.expect_writes. */
struct arm_write {
	char		 periph[32];	/* as QEMU names it: "GPIOA", "RCC" */
	unsigned long	 offset, value, mask;
	int		 size;		/* bytes, 0: any */
};

/* env_params, read the same way by prepare and judge. */
struct arm_params {
	int		 timeout_s;
	int		 expect_exit;
	char		*expect_uart;	/* NULL: not checked */
	size_t		 uart_len;
	struct arm_write *writes;
	size_t		 nwrites;
	int		 uart;		/* index into uarts[] */
	int		 renode;
};

static void
params_release(struct arm_params *p)
{
	free(p->expect_uart);
	free(p->writes);
	memset(p, 0, sizeof *p);
}

/* A number or a string such as "0x14"; -1 when it is neither. */
static int
json_ulong(json_t *v, unsigned long *out)
{
	const char *s;
	char *end;

	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (unsigned long)json_integer_value(v);
		return 0;
	}
	if (!json_is_string(v))
		return -1;
	s = json_string_value(v);
	errno = 0;
	*out = strtoul(s, &end, 0);
	return *s == '\0' || *end != '\0' || errno != 0 || *s == '-' ? -1 : 0;
}

/*
 * The name the trace gives a peripheral a task names, by QEMU's name or
 * the CMSIS one, in any case: "FLASH" is "Flash Int", "TIM1" "timer[1]".
 * NULL when QEMU traces no such peripheral.
 */
static const char *
periph_name(const char *in)
{
	for (size_t i = 0; i < sizeof traced / sizeof traced[0]; i++)
		if (strcasecmp(in, traced[i].qemu) == 0 ||
		    (traced[i].cmsis != NULL &&
		    strcasecmp(in, traced[i].cmsis) == 0))
			return traced[i].qemu;
	return NULL;
}

/* The first key of object o that is not in keys[n], or NULL. */
static const char *
unknown_key(json_t *o, const char *const *keys, size_t n)
{
	const char *key;
	json_t *v;

	json_object_foreach(o, key, v) {
		size_t i;

		for (i = 0; i < n && strcmp(key, keys[i]) != 0; i++)
			;
		if (i == n)
			return key;
	}
	return NULL;
}

/* keys[n] joined by ", " into buf. */
static const char *
key_list(const char *const *keys, size_t n, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
		    i > 0 ? ", " : "", keys[i]);
	return buf;
}

/* A peripheral a task may not check: one QEMU models, or none at all. */
static int
periph_refused(const char *name, size_t i, struct err *err)
{
	for (size_t k = 0; k < sizeof modelled / sizeof modelled[0]; k++)
		if (strcasecmp(name, modelled[k]) == 0)
			return err_set(err, "env_params.expect_writes[%zu]:"
			    " \"periph\" %s is modelled by QEMU, so its writes"
			    " never appear in the -d unimp trace and cannot be"
			    " checked with expect_writes (check what it does:"
			    " expect_uart, expect_exit)", i, modelled[k]);
	return err_set(err, "env_params.expect_writes[%zu]: \"periph\" %.40s"
	    " is no peripheral QEMU's netduinoplus2 traces; known: %s", i,
	    name, TRACED_LIST);
}

static int
parse_write(json_t *w, size_t i, struct arm_write *out, struct err *err)
{
	json_t *p = json_object_get(w, "periph");
	unsigned long size = 0;
	const char *name, *bad;
	char known[128];

	if (!json_is_object(w))
		return err_set(err, "env_params.expect_writes[%zu] is not an"
		    " object", i);
	bad = unknown_key(w, write_keys, sizeof write_keys /
	    sizeof write_keys[0]);
	if (bad != NULL)
		return err_set(err, "env_params.expect_writes[%zu]: unknown key"
		    " \"%.40s\" (known: %s)", i, bad, key_list(write_keys,
		    sizeof write_keys / sizeof write_keys[0], known,
		    sizeof known));
	if (!json_is_string(p) || json_string_length(p) == 0 ||
	    json_string_length(p) >= sizeof out->periph)
		return err_set(err, "env_params.expect_writes[%zu]: \"periph\""
		    " must name a peripheral (\"GPIOA\")", i);
	name = periph_name(json_string_value(p));
	if (name == NULL)
		return periph_refused(json_string_value(p), i, err);
	snprintf(out->periph, sizeof out->periph, "%s", name);
	if (json_ulong(json_object_get(w, "offset"), &out->offset) < 0 ||
	    out->offset > 0xFFFF)
		return err_set(err, "env_params.expect_writes[%zu]: \"offset\""
		    " must be a byte offset (20 or \"0x14\")", i);
	if (json_ulong(json_object_get(w, "value"), &out->value) < 0 ||
	    out->value > 0xFFFFFFFFUL)
		return err_set(err, "env_params.expect_writes[%zu]: \"value\""
		    " must be a 32-bit number", i);
	out->mask = 0xFFFFFFFFUL;
	if (json_object_get(w, "mask") != NULL &&
	    (json_ulong(json_object_get(w, "mask"), &out->mask) < 0 ||
	    out->mask > 0xFFFFFFFFUL))
		return err_set(err, "env_params.expect_writes[%zu]: \"mask\""
		    " must be a 32-bit number", i);
	if (json_object_get(w, "size") != NULL &&
	    (json_ulong(json_object_get(w, "size"), &size) < 0 ||
	    (size != 1 && size != 2 && size != 4)))
		return err_set(err, "env_params.expect_writes[%zu]: \"size\""
		    " must be 1, 2 or 4", i);
	out->size = (int)size;
	return 0;
}

/*
 * env_params.KEY of root, when there: a number in lo..hi (an integer
 * when whole) into *out, else "env_params.KEY must be WANT".  0 (*out
 * left as it is when KEY is absent), or -1 with err.
 */
static int
ranged(json_t *root, const char *key, int whole, int lo, int hi,
    const char *want, int *out, struct err *err)
{
	json_t *v = json_object_get(root, key);

	if (v == NULL)
		return 0;
	if (!(whole ? json_is_integer(v) : json_is_number(v)) ||
	    json_number_value(v) < lo || json_number_value(v) > hi)
		return err_set(err, "env_params.%s must be %s", key, want);
	*out = (int)json_number_value(v);
	return 0;
}

/* Read and check env_params.  0, or -1 with err naming the bad field. */
static int
params_read(const struct task *t, struct arm_params *p, struct err *err)
{
	json_t *root = NULL, *v;
	json_error_t je;
	int rc = -1;

	memset(p, 0, sizeof *p);
	p->timeout_s = FW_TIMEOUT_S;
	if (t->env_params == NULL || t->env_params[0] == '\0')
		return 0;
	root = json_loads(t->env_params, 0, &je);
	if (!json_is_object(root)) {
		err_set(err, "env_params is not a JSON object");
		goto out;
	}
	/* A misspelt key would silently check nothing. */
	{
		const char *bad = unknown_key(root, param_keys,
		    sizeof param_keys / sizeof param_keys[0]);
		char known[128];

		if (bad != NULL) {
			err_set(err, "env_params: unknown key \"%.40s\" for"
			    " arm-qemu (known: %s)", bad, key_list(param_keys,
			    sizeof param_keys / sizeof param_keys[0], known,
			    sizeof known));
			goto out;
		}
	}
	if (ranged(root, "timeout_s", 0, 1, 3600, "1..3600 seconds",
	    &p->timeout_s, err) < 0 ||
	    ranged(root, "expect_exit", 1, 0, 255, "an exit status, 0..255",
	    &p->expect_exit, err) < 0)
		goto out;
	v = json_object_get(root, "expect_uart");
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_string(v)) {
			err_set(err, "env_params.expect_uart must be a string");
			goto out;
		}
		p->uart_len = json_string_length(v);
		p->expect_uart = xstrndup(json_string_value(v), p->uart_len);
	}
	v = json_object_get(root, "expect_writes");
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_array(v)) {
			err_set(err, "env_params.expect_writes must be a list"
			    " of {\"periph\", \"offset\", \"value\"}");
			goto out;
		}
		p->nwrites = json_array_size(v);
		p->writes = xcalloc(p->nwrites + 1, sizeof *p->writes);
		for (size_t i = 0; i < p->nwrites; i++)
			if (parse_write(json_array_get(v, i), i, &p->writes[i],
			    err) < 0)
				goto out;
	}
	v = json_object_get(root, "uart");
	if (v != NULL) {
		size_t i, n = sizeof uarts / sizeof uarts[0];

		for (i = 0; json_is_string(v) && i < n; i++)
			if (strcasecmp(json_string_value(v), uarts[i]) == 0)
				break;
		if (!json_is_string(v) || i == n) {
			err_set(err, "env_params.uart must be one of USART1,"
			    " USART2, USART3, UART4, UART5, USART6");
			goto out;
		}
		p->uart = (int)i;
	}
	v = json_object_get(root, "simulator");
	if (v != NULL) {
		if (!json_is_string(v) ||
		    (strcmp(json_string_value(v), "qemu") != 0 &&
		    strcmp(json_string_value(v), "renode") != 0)) {
			err_set(err, "env_params.simulator must be \"qemu\" or"
			    " \"renode\"");
			goto out;
		}
		p->renode = strcmp(json_string_value(v), "renode") == 0;
	}
	rc = 0;
out:
	json_decref(root);
	if (rc < 0)
		params_release(p);
	return rc;
}

static int
armqemu_toolchain(char *buf, size_t n, struct err *err)
{
	static const char *const gcc[] = { "arm-none-eabi-gcc", "--version",
	    NULL };
	static const char *const lib[] = { "arm-none-eabi-gcc",
	    "-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard",
	    "-mfpu=fpv4-sp-d16", "-print-file-name=librdimon_nano.a", NULL };
	static const char *const qemu[] = { "qemu-system-arm", "--version",
	    NULL };
	char g[256], l[512], q[256];

	if (env_tool_version(gcc, g, sizeof g) < 0)
		return err_set(err, "arm-none-eabi-gcc is not installed (Debian"
		    " packages gcc-arm-none-eabi libnewlib-arm-none-eabi)");
	/* gcc echoes the bare name when the library is not there. */
	if (env_tool_version(lib, l, sizeof l) < 0 || strchr(l, '/') == NULL)
		return err_set(err, "newlib for arm-none-eabi is not installed"
		    " (Debian package libnewlib-arm-none-eabi)");
	if (env_tool_version(qemu, q, sizeof q) < 0)
		return err_set(err, "qemu-system-arm is not installed (Debian"
		    " package qemu-system-arm)");
	/* assay's own header, start-up code, linker script and build flags
	 * are part of every build: a change must run the candidates again. */
	{
		struct hash_ctx *h = hash_new();
		char hex[HASH_HEX_LEN + 1];

		for (size_t i = 0; i < sizeof gcc_flags / sizeof gcc_flags[0];
		    i++)
			hash_update(h, gcc_flags[i], strlen(gcc_flags[i]) + 1);
		hash_update(h, LIBM, strlen(LIBM) + 1);
		/* And how QEMU runs it and the trace is read. */
		for (size_t i = 0; i < sizeof qemu_head / sizeof qemu_head[0];
		    i++)
			hash_update(h, qemu_head[i], strlen(qemu_head[i]) + 1);
		for (size_t i = 0; i < sizeof qemu_tail / sizeof qemu_tail[0];
		    i++)
			hash_update(h, qemu_tail[i], strlen(qemu_tail[i]) + 1);
		hash_update(h, build_script, sizeof build_script);
		hash_update(h, run_script, sizeof run_script);
		hash_update(h, trace_script, sizeof trace_script);

		for (size_t i = 0; i < sizeof share_files /
		    sizeof share_files[0]; i++) {
			char *name = xasprintf("arm/%s", share_files[i]);
			size_t len = 0;
			const char *data = env_share(name, &len);

			hash_update(h, name, strlen(name) + 1);
			if (data != NULL)
				hash_update(h, data, len);
			free(name);
		}
		hash_final(h, hex);
		snprintf(buf, n, "%s; %s; assay arm files %.12s", g, q, hex);
	}
	return 0;
}

/*
 * Renode, where the sandbox can see it: an executable "renode" in a
 * directory of PATH under /usr (only /usr and /etc are bound).  New
 * string or NULL.
 */
static char *
find_renode(void)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (path == NULL)
		path = "/usr/bin:/bin";
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir != NULL && found == NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/renode", dir);

		if (strncmp(dir, "/usr/", 5) == 0 && access(p, X_OK) == 0)
			found = p;
		else
			free(p);
	}
	free(copy);
	return found;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && strcmp(s + n - k, suffix) == 0;
}

/* The build stage: gcc_flags, startup.c, main.c, the task's sources, libm. */
static void
plan_build(const struct task *t, struct env_plan *plan)
{
	const char *argv[ENV_MAX_ARGS];
	size_t n = 0;

	static const char *const made[] = { ELF_PATH, RUN_DIR "/" IMAGE_FILE,
	    NULL };

	argv[n++] = "sh";
	argv[n++] = "-c";
	argv[n++] = build_script;
	argv[n++] = "arm-none-eabi-gcc";
	for (size_t i = 0; i < sizeof gcc_flags / sizeof gcc_flags[0]; i++)
		argv[n++] = gcc_flags[i];
	argv[n++] = "startup.c";
	argv[n++] = CAND_FILE;
	for (size_t i = 0; i < t->nfiles && n + 2 < ENV_MAX_ARGS; i++) {
		const char *f = t->files[i].name;

		if (strcmp(f, "startup.c") != 0 && (has_suffix(f, ".c") ||
		    has_suffix(f, ".s") || has_suffix(f, ".S")))
			argv[n++] = f;
	}
	argv[n++] = LIBM;
	argv[n] = NULL;
	env_plan_stage(plan, "build", argv);
	env_plan_seal(plan, made);
}

/*
 * The run stage (QEMU's or Renode's) runs the firmware, in a sealed area
 * with the images (and what else uses lists) read-only; the evidence it
 * leaves, ev/uart.txt and ev/regtrace.log, is sealed for the next ones.
 */
static void
plan_run(struct env_plan *plan, const char *const *argv,
    const char *const *use)
{
	static const char *const ev[] = { UART_FILE, TRACE_FILE, NULL };

	env_plan_stage(plan, "run", argv);
	env_plan_use(plan, use);
	env_plan_seal(plan, ev);
	plan->stages[plan->nstages - 1].nonce_fd = 1;
	plan->stages[plan->nstages - 1].candidate = 1;
}

static void
plan_qemu(const struct arm_params *p, struct env_plan *plan)
{
	char *script, serial[6][32];
	const char *argv[ENV_MAX_ARGS];
	size_t n = 0;

	script = xasprintf(run_script, p->timeout_s);
	argv[n++] = "sh";
	argv[n++] = "-c";
	argv[n++] = script;
	argv[n++] = "qemu";
	for (size_t i = 0; i < sizeof qemu_head / sizeof qemu_head[0]; i++)
		argv[n++] = qemu_head[i];
	/* serial0 is USART1; the task's UART gets the file, the rest null. */
	for (int i = 0; i <= p->uart; i++) {
		snprintf(serial[i], sizeof serial[i], "%s", i == p->uart ?
		    "chardev:uart" : "null");
		argv[n++] = "-serial";
		argv[n++] = serial[i];
	}
	for (size_t i = 0; i < sizeof qemu_tail / sizeof qemu_tail[0]; i++)
		argv[n++] = qemu_tail[i];
	argv[n] = NULL;
	{
		static const char *const use[] = { ELF_FILE, IMAGE_FILE,
		    NULL };

		plan_run(plan, argv, use);
	}
	plan->stages[plan->nstages - 1].no_proc = 1;
	free(script);
}

/*
 * Renode (untested here: it cannot be installed on the build machines):
 * its STM32F4 platform, the image, the task's UART into uart.txt, then
 * timeout_s of emulated time.  Only the UART is judged.
 */
static int
plan_renode(const struct arm_params *p, const char *renode,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	char *resc, *script, *dir, lower[16];
	int rc;

	for (size_t i = 0; i < sizeof lower; i++) {
		lower[i] = uarts[p->uart][i];
		if (lower[i] == '\0')
			break;
		lower[i] = (char)(lower[i] | 0x20);	/* "usart2" */
	}
	resc = xasprintf("mach create \"assay\"\n"
	    "machine LoadPlatformDescription @platforms/cpus/stm32f4.repl\n"
	    "sysbus LoadELF @%s\n"
	    "sysbus.%s CreateFileBackend @%s true\n"
	    "emulation RunFor \"%02d:%02d:%02d\"\n"
	    "quit\n", ELF_FILE, lower, UART_FILE, p->timeout_s / 3600,
	    p->timeout_s / 60 % 60, p->timeout_s % 60);
	dir = xasprintf("%s/%s", workdir, RUN_DIR);
	rc = env_write_input(plan, dir, RESC_FILE, resc, strlen(resc), err);
	free(dir);
	free(resc);
	if (rc < 0)
		return -1;
	/* Mono takes a while to start: 20 s more than the firmware. */
	script = xasprintf("IFS= read -r n <&5; exec 5<&-; mkdir -p %s;"
	    " : > %s; : > %s; timeout --foreground -k 1 %d \"$@\" 2>&1;"
	    " echo \"$n qemu-exit $?\"; exit 0", EV_DIR, UART_FILE,
	    TRACE_FILE, p->timeout_s + 20);
	{
		const char *const argv[] = { "sh", "-c", script, "renode",
		    renode, "--disable-xwt", "--console", "--plain", "-e",
		    "include @" RESC_FILE, NULL };
		static const char *const sealed[] = { RUN_DIR "/" RESC_FILE,
		    NULL };
		static const char *const use[] = { ELF_FILE, RESC_FILE, NULL };

		/* prepare()'s script, sealed with the build's files. */
		env_plan_seal(plan, sealed);
		plan_run(plan, argv, use);
	}
	free(script);
	return 0;
}

/* The uart and regtrace stages: each prints its file with a header. */
static void
plan_print(struct env_plan *plan)
{
	char *uart, *trace;

	uart = xasprintf("IFS= read -r n <&5; exec 5<&-;"
	    " echo \"$n uart $(wc -c < %s) bytes\"; head -c %d %s;"
	    " [ -z \"$(tail -c 1 %s)\" ] || echo", UART_NAME, UART_CAP,
	    UART_NAME, UART_NAME);
	trace = xasprintf(trace_script, TRACE_CAP);
	{
		const char *const s1[] = { "sh", "-c", uart, NULL };
		const char *const s2[] = { "sh", "-c", trace, NULL };
		static const char *const u1[] = { UART_NAME, NULL };
		static const char *const u2[] = { TRACE_NAME, NULL };

		/* Each in a sealed area with its file alone. */
		env_plan_stage(plan, "uart", s1);
		env_plan_use(plan, u1);
		plan->stages[plan->nstages - 1].nonce_fd = 1;
		env_plan_stage(plan, "regtrace", s2);
		env_plan_use(plan, u2);
		plan->stages[plan->nstages - 1].nonce_fd = 1;
	}
	free(uart);
	free(trace);
}

static int
armqemu_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	struct arm_params p;
	char *renode = NULL;
	int rc = -1;

	if (params_read(t, &p, err) < 0) {
		/* The task's mistake, not the candidate's: name the task. */
		struct err e;

		if (err == NULL)
			return -1;
		e = *err;
		return err_set(err, "task %s: %s", t->id, e.msg);
	}
	plan->cand_file = xstrdup(CAND_FILE);
	plan->timeout_s = p.timeout_s + BUILD_MARGIN_S;
	env_nonce(plan->nonce, sizeof plan->nonce, 16, 'A');
	for (size_t i = 0; i < t->nfiles; i++) {
		const char *f = t->files[i].name;

		if (f[0] == '-') {
			err_set(err, "task file name %s would be read as a"
			    " compiler option", f);
			goto out;
		}
		if (strcmp(f, CAND_FILE) == 0 || strcmp(f, RUN_DIR) == 0) {
			err_set(err, "task file name %s is reserved by arm-qemu"
			    " (the candidate is main.c, the image goes into"
			    " run/)", f);
			goto out;
		}
	}
	if (env_write_input(plan, workdir, CAND_FILE, c->code, c->code_len,
	    err) < 0)
		goto out;
	for (size_t i = 0; i < t->nfiles; i++)
		if (env_write_input(plan, workdir, t->files[i].name,
		    t->files[i].data, t->files[i].len, err) < 0)
			goto out;
	for (size_t i = 0; i < sizeof share_files / sizeof share_files[0];
	    i++) {
		char *name = xasprintf("arm/%s", share_files[i]);
		size_t len;
		const char *data = env_share(name, &len);

		free(name);
		if (data == NULL) {
			err_set(err, "share/envs/arm/%s is not compiled in",
			    share_files[i]);
			goto out;
		}
		if (task_file_by_name(t, share_files[i]) == NULL &&
		    env_write_input(plan, workdir, share_files[i], data, len,
		    err) < 0)
			goto out;
	}
	if (t->env_params != NULL)
		env_note_input(plan, "env_params", t->env_params,
		    strlen(t->env_params));
	if (env_mkdir(workdir, RUN_DIR, err) < 0)
		goto out;
	plan_build(t, plan);
	if (p.renode) {
		renode = find_renode();
		if (renode == NULL) {
			/* The build still says whether the code compiles. */
			buf_adds(&plan->precheck, "renode-missing\n");
			rc = 0;
			goto out;
		}
		buf_adds(&plan->precheck, "renode\n");
		if (plan_renode(&p, renode, workdir, plan, err) < 0)
			goto out;
	} else
		plan_qemu(&p, plan);
	plan_print(plan);
	rc = 0;
out:
	free(renode);
	params_release(&p);
	return rc;
}

/* --- judge ------------------------------------------------------------ */

/* Next line of [*p, end) into line (borrowed, not NUL-terminated). */
static int
next_line(const char **p, const char *end, const char **line, size_t *len)
{
	const char *nl;

	if (*p >= end)
		return 0;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*len = nl != NULL ? (size_t)(nl - *p) : (size_t)(end - *p);
	*p = nl != NULL ? nl + 1 : end;
	return 1;
}

/* The rest of the line after "NONCE tag " in log, new string or NULL. */
static char *
tagged(const char *log, size_t len, const char *nonce, const char *tag)
{
	char *want = xasprintf("%s %s ", nonce, tag);
	size_t wl = strlen(want);
	const char *p = log, *end = log + len, *line;
	size_t l;
	char *r = NULL;

	/* Anywhere in a line, not only at its start: the nonce is the
	 * stage shell's alone, and firmware whose last console output has
	 * no newline ("doneSECRET qemu-exit 0") would otherwise lose the
	 * status line, honest or not (docs/security.md, Known gaps). */
	while (r == NULL && next_line(&p, end, &line, &l)) {
		const char *at = l >= wl ? memmem(line, l, want, wl) : NULL;

		if (at != NULL)
			r = xstrndup(at + wl, l - (size_t)(at - line) - wl);
	}
	free(want);
	return r;
}

/* The first line of log that starts with prefix, or NULL. */
static const char *
line_with(const char *log, size_t len, const char *prefix)
{
	const char *p = log, *end = log + len, *line;
	size_t l, pl = strlen(prefix);

	while (next_line(&p, end, &line, &l))
		if (l >= pl && memcmp(line, prefix, pl) == 0)
			return line;
	return NULL;
}

/* QEMU's own error line ("qemu-system-arm: -kernel fw.elf: ..."), not
 * a warning or the note that timeout(1) stopped it; NULL when none. */
static const char *
qemu_error(const char *log, size_t len)
{
	const char *p = log, *end = log + len, *line;
	size_t l;

	while (next_line(&p, end, &line, &l))
		if (l > 17 && memcmp(line, "qemu-system-arm: ", 17) == 0 &&
		    memmem(line, l, "warning:", 8) == NULL &&
		    memmem(line, l, "terminating on signal", 21) == NULL)
			return line;
	return NULL;
}

static char *
line_dup(const char *line, const char *end)
{
	const char *nl = memchr(line, '\n', (size_t)(end - line));

	return xstrndup(line, nl != NULL ? (size_t)(nl - line) :
	    (size_t)(end - line));
}

/* Is s the basename of path, i.e. path is s or ends in "/s"? */
static int
names(const char *path, size_t plen, const char *s)
{
	size_t sl = strlen(s);

	return plen >= sl && memcmp(path + plen - sl, s, sl) == 0 &&
	    (plen == sl || path[plen - sl - 1] == '/');
}

/*
 * Names of vendor APIs the build does not have: the HAL and LL drivers,
 * the StdPeriph library (RCC_AHB1PeriphClockCmd), CubeMX's generated
 * functions, CMSIS-RTOS and FreeRTOS, CMSIS-DSP, and the CMSIS
 * register-bit macros (RCC_CFGR_MCO1PRE) of which assay's header has a
 * subset.  A name of these that is undefined or undeclared is an API
 * knowledge gap (category api), not a slip of the language.
 */
static int
api_name(const char *name)
{
	static const char *const pat =
	    "^(__?HAL_|HAL_|LL_|BSP_|MX_|SystemClock_Config$|Error_Handler$"
	    "|os[A-Z]|arm_[a-z]|[xv][A-Z][a-z]+[A-Z]|pv[A-Z]|ux[A-Z]"
	    "|(RCC|GPIO[A-K]?|USART[0-9]?|UART[0-9]?|TIM[0-9]*|NVIC|EXTI|SYSCFG"
	    "|ADC[0-9]?|DMA[0-9]?(_Stream[0-7])?|SPI[0-9]?|I2C[0-9]?|I2S|FLASH"
	    "|PWR|DAC|RTC|IWDG|WWDG|CAN[0-9]?|SDIO|CRC|RNG|ETH|OTG|SCB|SysTick"
	    "|CoreDebug|DWT|ITM|FPU|MPU|FMC|FSMC|DBGMCU)_[A-Za-z0-9])";
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static regex_t re;
	static int ready;

	pthread_mutex_lock(&lock);	/* judges run on more than one thread */
	if (!ready) {
		if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB) != 0)
			ASSAY_BUG("api_name regex");
		ready = 1;
	}
	pthread_mutex_unlock(&lock);
	return regexec(&re, name, 0, NULL, 0) == 0;
}

/*
 * The quoted name in a message: 'x' (gcc), `x' (ld), or in Unicode
 * quotes as gcc writes them in some UTF-8 locales.  New or NULL.
 */
static char *
quoted(const char *msg, size_t len)
{
	const char *end = msg + len, *q = NULL, *e;

	for (const char *p = msg; p < end && q == NULL; p++) {
		if (*p == '\'' || *p == '`')
			q = p + 1;
		else if (end - p >= 3 && memcmp(p, "\xe2\x80\x98", 3) == 0)
			q = p + 3;
	}
	if (q == NULL)
		return NULL;
	for (e = q; e < end; e++)
		if (*e == '\'' || (end - e >= 3 &&
		    memcmp(e, "\xe2\x80\x99", 3) == 0))
			break;
	return e < end && e > q ? xstrndup(q, (size_t)(e - q)) : NULL;
}

/* Why the build failed, from its first error. */
struct build_fail {
	const char *category, *sub;
	char	*evidence;		/* new */
	int	 line;			/* in the candidate, 0: none */
	int	 errors;		/* error messages so far */
};

static void
fail_set(struct build_fail *f, const char *category, const char *sub,
    const char *line, size_t len, int cand_line)
{
	if (f->evidence != NULL)
		return;
	f->category = category;
	f->sub = sub;
	f->evidence = xstrndup(line, len);
	f->line = cand_line;
}

/* An error message of gcc, to a category and subcategory. */
static void
compile_error(const char *msg, size_t len, const char *line, size_t llen,
    int cand_line, struct build_fail *f)
{
	char *name = quoted(msg, len), *m = xstrndup(msg, len);
	const char *cat = "compile", *sub = "other";

	if (strstr(m, "No such file or directory") != NULL) {
		/* "fatal error: stm32f4xx_hal.h: No such file" */
		char *h = xstrndup(m, strcspn(m, ":"));

		sub = "missing-header";
		if (strncmp(h, "stm32", 5) == 0 ||
		    strncmp(h, "core_", 5) == 0 ||
		    strncmp(h, "cmsis", 5) == 0 ||
		    strncmp(h, "arm_", 4) == 0 ||
		    strncmp(h, "FreeRTOS", 8) == 0 ||
		    strstr(h, "_hal") != NULL || strstr(h, "_ll_") != NULL)
			cat = "api";
		free(h);
	} else if (strstr(m, "undeclared") != NULL ||
	    strstr(m, "unknown type name") != NULL ||
	    strstr(m, "implicit declaration") != NULL) {
		sub = "undeclared";
		if (name != NULL && api_name(name)) {
			cat = "api";
			sub = "unknown-api-name";
		}
	} else if (strstr(m, "has no member named") != NULL) {
		/* GPIOA->BRR: a register the F4 does not have. */
		cat = "api";
		sub = "no-such-register";
	} else if (strstr(m, "expected") != NULL) {
		sub = "syntax-error";
	} else if (strstr(m, "incompatible") != NULL ||
	    strstr(m, "conflicting types") != NULL) {
		sub = "type-error";
	}
	fail_set(f, cat, sub, line, llen, cand_line);
	free(name);
	free(m);
}

/* A linker message, to a category and subcategory. */
static void
link_error(const char *msg, size_t len, const char *line, size_t llen,
    int cand_line, struct build_fail *f)
{
	char *name = quoted(msg, len);

	if (memmem(msg, len, "undefined reference", 19) != NULL) {
		if (name != NULL && api_name(name))
			fail_set(f, "api", "undefined-api-function", line, llen,
			    cand_line);
		else
			fail_set(f, "compile", "undefined-reference", line,
			    llen, cand_line);
	} else if (memmem(msg, len, "overflowed by", 13) != NULL ||
	    memmem(msg, len, "will not fit in region", 22) != NULL) {
		fail_set(f, "compile", "memory-overflow", line, llen,
		    cand_line);
	} else if (memmem(msg, len, "multiple definition", 19) != NULL) {
		fail_set(f, "compile", "multiple-definition", line, llen,
		    cand_line);
	}
	free(name);
}

/* Memory use from -Wl,--print-memory-usage: "FLASH: 1096 B 1 MB ...". */
static void
memory_use(const char *line, long *flash, long *ram)
{
	char region[16], unit[8];
	long used;

	if (sscanf(line, " %15[A-Z]: %ld %7s", region, &used, unit) != 3)
		return;
	used *= unit[0] == 'K' ? 1024 : unit[0] == 'M' ? 1048576 : 1;
	if (strcmp(region, "FLASH") == 0)
		*flash = used;
	else if (strcmp(region, "RAM") == 0)
		*ram = used;
}

/* One located build message (env_located()); line is all of it. */
static void
build_diag(const struct env_plan *plan, const struct env_located *loc,
    const char *line, struct run *r, struct build_fail *f)
{
	char *fname = xstrndup(loc->file, loc->flen);
	const char *base = strrchr(fname, '/');
	const char *sev = loc->severity != NULL ? loc->severity : "error";
	const char *body = loc->msg;
	int cl = names(loc->file, loc->flen, plan->cand_file) ? loc->line : 0;

	/* The sandbox's /work/main.c is main.c. */
	base = base != NULL ? base + 1 : fname;
	if (loc->severity == NULL)
		link_error(body, strlen(body), line, strlen(line), cl, f);
	else if (strcmp(sev, "error") == 0)
		compile_error(body, strlen(body), line, strlen(line), cl, f);
	f->errors += strcmp(sev, "error") == 0;
	/* An error inside assay's header, from a macro the candidate used:
	 * the note "in expansion of macro" names the candidate's line. */
	if (strcmp(sev, "note") == 0 && cl > 0 && f->errors == 1 &&
	    f->evidence != NULL && f->line == 0)
		f->line = cl;
	run_add_diag(r, base, loc->line, 0, sev, body, cl);
	free(fname);
}

/* Diagnostics of the build log into r, the first error into f, memory
 * use into flash and ram (left alone when not printed). */
static void
scan_build(const struct env_plan *plan, const char *log, size_t len,
    struct run *r, struct build_fail *f, long *flash, long *ram)
{
	const char *p = log, *end = log + len, *span;
	size_t l;

	while (next_line(&p, end, &span, &l)) {
		char *line = xstrndup(span, l), *s = line, *ld;
		struct env_located loc;

		memory_use(line, flash, ram);
		/* ".../bin/ld: main.c:7: undefined reference to `f'" */
		ld = strstr(line, "ld: ");
		if (ld != NULL && memchr(line, ' ', (size_t)(ld - line)) ==
		    NULL)
			s = ld + 4;
		if (env_located(s, strlen(s), &loc) && loc.flen < 256)
			build_diag(plan, &loc, s, r, f);
		else if (s != line && strstr(s, "in function") == NULL) {
			/* "region `RAM' overflowed by 73728 bytes" */
			link_error(s, strlen(s), s, strlen(s), 0, f);
			run_add_diag(r, "", 0, 0, "error", s, 0);
		}
		free(line);
	}
}

/* The UART's bytes in the uart stage's log: the line "NONCE uart N
 * bytes", then the file's first UART_CAP bytes. */
static const char *
uart_text(const struct env_plan *plan, const char *log, size_t len,
    size_t *n, long *total)
{
	char *size = tagged(log, len, plan->nonce, "uart");
	char *hdr = xasprintf("%s uart %s\n", plan->nonce, size != NULL ?
	    size : "");
	const char *p = size != NULL ? memmem(log, len, hdr, strlen(hdr)) :
	    NULL;
	size_t avail;

	*n = 0;
	*total = size != NULL ? strtol(size, NULL, 10) : -1;
	free(size);
	if (p == NULL || *total < 0) {
		free(hdr);
		return NULL;
	}
	p += strlen(hdr);
	free(hdr);
	avail = (size_t)(log + len - p);
	*n = (size_t)*total < UART_CAP ? (size_t)*total : UART_CAP;
	if (*n > avail)
		*n = avail;
	return p;
}

/* s (n bytes) as a C string literal's body, at most max bytes of it. */
static void
escaped(struct buf *b, const char *s, size_t n, size_t max)
{
	buf_addc(b, '"');
	for (size_t i = 0; i < n && i < max; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '\n')
			buf_adds(b, "\\n");
		else if (ch == '\r')
			buf_adds(b, "\\r");
		else if (ch == '\t')
			buf_adds(b, "\\t");
		else if (ch == '"' || ch == '\\')
			buf_printf(b, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			buf_printf(b, "\\x%02x", ch);
		else
			buf_addc(b, (char)ch);
	}
	buf_adds(b, n > max ? "\"..." : "\"");
}

/*
 * The run's counterexample (docs/envs/arm-qemu.md): what the task
 * expected against what the run showed, as a diff, "-" the expected and
 * "+" the observed: the exit status, the UART's lines, each register
 * write the trace lacks.
 */
struct arm_cex {
	json_t		*o;		/* the member's fields */
	struct buf	 text;
};

#define CEX_UART_LINES	12	/* differing UART lines shown */
#define CEX_UART_KEEP	2048	/* bytes of each UART text kept */

/* The next line of s (n bytes) from *at, without its "\r\n": its
 * length, or -1 at the end. */
static long
cex_line(const char *s, size_t n, size_t *at, const char **line)
{
	size_t i = *at, l;

	if (i >= n)
		return -1;
	*line = s + i;
	while (i < n && s[i] != '\n')
		i++;
	l = i - *at;
	*at = i + (i < n);
	if (l > 0 && (*line)[l - 1] == '\r')
		l--;
	return (long)l;
}

/* A UART text as a JSON string: itself when it is UTF-8, else its C
 * literal; at most CEX_UART_KEEP bytes. */
static json_t *
cex_text(const char *s, size_t n)
{
	json_t *v = json_stringn(s, n < CEX_UART_KEEP ? n : CEX_UART_KEEP);
	struct buf b = BUF_INIT;

	if (v != NULL)
		return v;
	escaped(&b, s, n, CEX_UART_KEEP);
	v = json_string(buf_str(&b));
	buf_release(&b);
	return v;
}

/* The UART's lines side by side: equal ones as context (two before the
 * first difference), the others "-" expected, "+" observed. */
static void
cex_uart(struct arm_cex *cx, const struct arm_params *p, const char *got,
    size_t n, long total, size_t first)
{
	json_t *u = json_object();
	size_t ea = 0, ga = 0, shown = 0;
	long lineno = 0, firstline = -1;
	const char *el, *gl;
	long en, gn;

	json_object_set_new(u, "expected", cex_text(p->expect_uart,
	    p->uart_len));
	json_object_set_new(u, "observed", cex_text(got != NULL ? got : "",
	    n));
	json_object_set_new(u, "expected_bytes", json_integer(
	    (json_int_t)p->uart_len));
	json_object_set_new(u, "observed_bytes", json_integer(total < 0 ? 0 :
	    total));
	json_object_set_new(u, "first_difference", json_integer(
	    (json_int_t)first));
	json_object_set_new(cx->o, "uart", u);
	/* the line of the first differing byte */
	for (size_t i = 0; i < first && i < p->uart_len; i++)
		if (p->expect_uart[i] == '\n')
			lineno++;
	firstline = lineno;
	buf_printf(&cx->text, "UART, expected (-) against observed (+), from"
	    " line %ld:\n", firstline + 1);
	lineno = 0;
	for (;;) {
		en = cex_line(p->expect_uart, p->uart_len, &ea, &el);
		gn = cex_line(got != NULL ? got : "", got != NULL ? n : 0,
		    &ga, &gl);
		if (en < 0 && gn < 0)
			break;
		if (lineno++ < firstline - 2)
			continue;
		if (lineno > firstline && shown++ == CEX_UART_LINES) {
			buf_adds(&cx->text, "  ...\n");
			break;
		}
		if (en >= 0 && gn >= 0 && en == gn && memcmp(el, gl,
		    (size_t)en) == 0) {
			buf_printf(&cx->text, "  %.*s\n", (int)en, el);
			continue;
		}
		if (en >= 0)
			buf_printf(&cx->text, "- %.*s\n", (int)en, el);
		if (gn >= 0)
			buf_printf(&cx->text, "+ %.*s\n", (int)gn, gl);
	}
	if (total >= 0 && (size_t)total > n)
		buf_printf(&cx->text, "  (observed: the first %zu of %ld"
		    " bytes)\n", n, total);
}

/* A write the trace lacks, into the counterexample. */
static void
cex_write(struct arm_cex *cx, const struct arm_write *x, const char *rn,
    long seen, unsigned long last, const char *why)
{
	json_t *a = json_object_get(cx->o, "writes"), *w = json_object();
	char hex[16];

	if (a == NULL) {
		a = json_array();
		json_object_set_new(cx->o, "writes", a);
		buf_adds(&cx->text, "register writes, expected (-) against"
		    " observed (+):\n");
	}
	json_object_set_new(w, "periph", json_string(x->periph));
	json_object_set_new(w, "offset", json_integer((json_int_t)x->offset));
	if (rn != NULL)
		json_object_set_new(w, "register", json_string(rn));
	snprintf(hex, sizeof hex, "0x%08lx", x->value);
	json_object_set_new(w, "expected", json_string(hex));
	snprintf(hex, sizeof hex, "0x%08lx", x->mask);
	json_object_set_new(w, "mask", json_string(hex));
	json_object_set_new(w, "writes_there", json_integer(seen));
	snprintf(hex, sizeof hex, "0x%08lx", last);
	json_object_set_new(w, "last", seen > 0 ? json_string(hex) :
	    json_null());
	if (why != NULL)
		json_object_set_new(w, "ignored", json_string(why));
	json_array_append_new(a, w);
	buf_printf(&cx->text, "- %s+0x%03lx%s%s%s = 0x%08lx", x->periph,
	    x->offset, rn != NULL ? " (" : "", rn != NULL ? rn : "",
	    rn != NULL ? ")" : "", x->value);
	if (x->mask != 0xFFFFFFFFUL)
		buf_printf(&cx->text, " (mask 0x%08lx)", x->mask);
	if (seen > 0)
		buf_printf(&cx->text, "\n+ %s+0x%03lx: %ld write%s, the last"
		    " 0x%08lx\n", x->periph, x->offset, seen, seen == 1 ? "" :
		    "s", last);
	else
		buf_printf(&cx->text, "\n+ %s+0x%03lx: no write\n",
		    x->periph, x->offset);
	if (why != NULL)
		buf_printf(&cx->text, "  %s\n", why);
}

/* "UART printed ... expected ...; first difference at byte N" or NULL. */
static char *
uart_check(const struct arm_params *p, const char *got, size_t n,
    long total, struct arm_cex *cx)
{
	struct buf b = BUF_INIT;
	size_t i, from;

	if (p->expect_uart == NULL)
		return NULL;
	if (got != NULL && total >= 0 && (size_t)total == p->uart_len &&
	    n == p->uart_len && memcmp(got, p->expect_uart, n) == 0)
		return NULL;
	if (got == NULL)
		n = 0;
	for (i = 0; i < n && i < p->uart_len && got[i] == p->expect_uart[i];
	    i++)
		;
	cex_uart(cx, p, got, n, total, i);
	from = i > 16 ? i - 16 : 0;
	buf_printf(&b, "UART printed %ld bytes, expected %zu; first difference"
	    " at byte %zu: got %s", total < 0 ? 0 : total, p->uart_len, i,
	    from > 0 ? "..." : "");
	escaped(&b, got != NULL ? got + from : "", n - from, 48);
	buf_printf(&b, ", expected %s", from > 0 ? "..." : "");
	escaped(&b, p->expect_uart + from, p->uart_len - from, 48);
	return buf_detach(&b, NULL);
}

/* Register names of the peripherals tasks check most, for evidence. */
static const char *
reg_name(const char *periph, unsigned long off)
{
	static const char *const gpio[] = { "MODER", "OTYPER", "OSPEEDR",
	    "PUPDR", "IDR", "ODR", "BSRR", "LCKR", "AFRL", "AFRH" };
	static const char *const rcc[] = { "CR", "PLLCFGR", "CFGR", "CIR",
	    "AHB1RSTR", "AHB2RSTR", "AHB3RSTR", NULL, "APB1RSTR", "APB2RSTR",
	    NULL, NULL, "AHB1ENR", "AHB2ENR", "AHB3ENR", NULL, "APB1ENR",
	    "APB2ENR" };
	static const char *const usart[] = { "SR", "DR", "BRR", "CR1", "CR2",
	    "CR3", "GTPR" };

	if (off % 4 == 2 && strncmp(periph, "GPIO", 4) == 0 && off == 0x1a)
		return "BSRRH";
	if (off % 4 != 0)
		return NULL;
	if (strncmp(periph, "GPIO", 4) == 0 && off / 4 < 10)
		return gpio[off / 4];
	if (strcmp(periph, "RCC") == 0 && off / 4 < sizeof rcc / sizeof rcc[0])
		return rcc[off / 4];
	if ((strncmp(periph, "USART", 5) == 0 || strncmp(periph, "UART",
	    4) == 0) && off / 4 < sizeof usart / sizeof usart[0])
		return usart[off / 4];
	return NULL;
}

/*
 * A "-d unimp" line of l bytes from a peripheral QEMU traces (traced[]):
 * its name (before mark, the text that says what the line is, mlen
 * bytes) into periph (pn bytes), and what follows mark as a new string.
 * NULL when line holds no mark, or its name is too long or not traced.
 */
static char *
trace_rest(const char *line, size_t l, const char *mark, size_t mlen,
    char *periph, size_t pn)
{
	const char *m = memmem(line, l, mark, mlen);
	size_t i;

	if (m == NULL || (size_t)(m - line) >= pn)
		return NULL;
	memcpy(periph, line, (size_t)(m - line));
	periph[m - line] = '\0';
	for (i = 0; i < sizeof traced / sizeof traced[0]; i++)
		if (strcmp(periph, traced[i].qemu) == 0)
			return xstrndup(m + mlen, (size_t)(line + l - m) - mlen);
	return NULL;
}

/*
 * One "-d unimp" write: "GPIOA: unimplemented device write (size 4,
 * offset 0x014, value 0x000000a5)", the whole line and nothing else,
 * from a peripheral QEMU traces (traced[]): a line that only holds one
 * (a symbol name's text after "IN: ") is no write.  1 and the fields,
 * else 0.
 */
static int
trace_write(const char *line, size_t l, char *periph, size_t pn, int *size,
    unsigned long *off, unsigned long *val)
{
	static const char mark[] = ": unimplemented device write (";
	char *rest = trace_rest(line, l, mark, sizeof mark - 1, periph, pn),
	    tail;
	int k, used = 0;

	if (rest == NULL)
		return 0;
	k = sscanf(rest, "size %d, offset 0x%lx, value 0x%lx%c%n", size, off,
	    val, &tail, &used);
	k = k == 4 && tail == ')' && rest[used] == '\0' &&
	    strspn(rest, "sizeoftvalu ,0123456789abcdefx") == (size_t)used - 1;
	free(rest);
	return k;
}

/*
 * A write narrower than 4 bytes as a write of its 32-bit register, at
 * its byte lane, the other bytes 0: BSRRH, 2 bytes at 0x01a, is the high
 * half of BSRR at 0x018.  A write-only register such as BSRR takes it
 * so; for the others, a mask says which bits matter.  A 4-byte write,
 * or one across a word, is left alone.
 */
static void
fold(unsigned long *off, unsigned long *val, int size)
{
	unsigned long lane = *off % 4;

	if ((size != 1 && size != 2) || lane + (unsigned long)size > 4)
		return;
	*val = (*val & ((1UL << (8 * size)) - 1)) << (8 * lane);
	*off -= lane;
}

/*
 * The STM32F4 rules the evidence rests on (ADR 0060, RM0090): a
 * peripheral's registers take writes only while its clock is enabled in
 * RCC, a reset bit in RCC's reset registers puts the peripheral back to
 * its reset state, and a GPIO output data write moves a pin only while
 * the pin is a general-purpose output.  The trace is replayed in order
 * against these rules, and an expected write counts only if it takes
 * effect.
 *
 * Each entry: the peripheral as the trace names it, its enable
 * register's offset in RCC (AHB1ENR 0x30, AHB2ENR 0x34, APB1ENR 0x40,
 * APB2ENR 0x44) and bit, and the bit's name in RM0090.  The reset
 * register of the same bit is 0x20 below the enable register
 * (AHB1RSTR 0x10 ... APB2RSTR 0x24).  RCC, FLASH, IWDG (QEMU's
 * "I2S2ext"), RTC and BKP, I2S3ext and the core's own registers have no
 * enable bit here and are never gated.
 */
static const struct clock {
	const char	*periph, *bit_name;
	unsigned char	 reg, bit;
} clocks[] = {
	{ "GPIOA", "GPIOAEN", 0x30, 0 }, { "GPIOB", "GPIOBEN", 0x30, 1 },
	{ "GPIOC", "GPIOCEN", 0x30, 2 }, { "GPIOD", "GPIODEN", 0x30, 3 },
	{ "GPIOE", "GPIOEEN", 0x30, 4 }, { "GPIOF", "GPIOFEN", 0x30, 5 },
	{ "GPIOG", "GPIOGEN", 0x30, 6 }, { "GPIOH", "GPIOHEN", 0x30, 7 },
	{ "GPIOI", "GPIOIEN", 0x30, 8 }, { "CRC", "CRCEN", 0x30, 12 },
	{ "BKPSRAM", "BKPSRAMEN", 0x30, 18 }, { "DMA1", "DMA1EN", 0x30, 21 },
	{ "DMA2", "DMA2EN", 0x30, 22 }, { "Ethernet", "ETHMACEN", 0x30, 25 },
	{ "USB OTG HS", "OTGHSEN", 0x30, 29 }, { "DCMI", "DCMIEN", 0x34, 0 },
	{ "RNG", "RNGEN", 0x34, 6 }, { "USB OTG FS", "OTGFSEN", 0x34, 7 },
	{ "timer[6]", "TIM6EN", 0x40, 4 }, { "timer[7]", "TIM7EN", 0x40, 5 },
	{ "timer[12]", "TIM12EN", 0x40, 6 },
	{ "timer[13]", "TIM13EN", 0x40, 7 },
	{ "timer[14]", "TIM14EN", 0x40, 8 }, { "WWDG", "WWDGEN", 0x40, 11 },
	{ "USART2", "USART2EN", 0x40, 17 }, { "USART3", "USART3EN", 0x40, 18 },
	{ "UART4", "UART4EN", 0x40, 19 }, { "UART5", "UART5EN", 0x40, 20 },
	{ "I2C1", "I2C1EN", 0x40, 21 }, { "I2C2", "I2C2EN", 0x40, 22 },
	{ "I2C3", "I2C3EN", 0x40, 23 }, { "CAN1", "CAN1EN", 0x40, 25 },
	{ "CAN2", "CAN2EN", 0x40, 26 }, { "PWR", "PWREN", 0x40, 28 },
	{ "DAC", "DACEN", 0x40, 29 }, { "timer[1]", "TIM1EN", 0x44, 0 },
	{ "timer[8]", "TIM8EN", 0x44, 1 }, { "USART1", "USART1EN", 0x44, 4 },
	{ "USART6", "USART6EN", 0x44, 5 }, { "SDIO", "SDIOEN", 0x44, 11 },
	{ "timer[9]", "TIM9EN", 0x44, 16 },
	{ "timer[10]", "TIM10EN", 0x44, 17 },
	{ "timer[11]", "TIM11EN", 0x44, 18 },
};

/* The USARTs QEMU models, by base address, in uarts[]'s order. */
static const unsigned long uart_base[] = { 0x40011000UL, 0x40004400UL,
    0x40004800UL, 0x40004C00UL, 0x40005000UL, 0x40011400UL };

#define USART_DR	0x04
#define USART_BRR	0x08
#define USART_CR1	0x0c
#define USART_CR1_UE	(1UL << 13)
#define USART_CR1_TE	(1UL << 3)

/* One register of the model: its peripheral (traced[]'s name, or
 * uarts[]'s), its word offset, its value as silicon would hold it. */
struct mreg {
	const char	*periph;
	unsigned long	 off, val;
	int		 read;		/* read since its last write */
};

struct model {
	struct mreg	*r;
	size_t		 n, cap;
};

static struct mreg *
model_reg(struct model *m, const char *periph, unsigned long off)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->r[i].off == off && strcmp(m->r[i].periph, periph) == 0)
			return &m->r[i];
	if (m->n == m->cap) {
		m->cap = m->cap != 0 ? 2 * m->cap : 32;
		m->r = xrealloc(m->r, m->cap * sizeof *m->r);
	}
	m->r[m->n] = (struct mreg){ periph, off, 0, 0 };
	return &m->r[m->n++];
}

/* A peripheral's reset bit: all its registers back to 0 (QEMU's reads,
 * and the state the model starts from). */
static void
model_reset(struct model *m, const char *periph)
{
	size_t k = 0;

	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->r[i].periph, periph) != 0)
			m->r[k++] = m->r[i];
	m->n = k;
}

static const struct clock *
clock_of(const char *periph)
{
	for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++)
		if (strcmp(clocks[i].periph, periph) == 0)
			return &clocks[i];
	return NULL;
}

/* The name of RCC's register at off, for evidence ("AHB1ENR"). */
static const char *
rcc_reg(unsigned long off)
{
	const char *n = reg_name("RCC", off);

	return n != NULL ? n : "?";
}

/* Is the peripheral's clock on?  1 for one with no enable bit. */
static int
clocked(struct model *m, const char *periph)
{
	const struct clock *c = clock_of(periph);

	return c == NULL || (model_reg(m, "RCC", c->reg)->val >> c->bit & 1);
}

/* RCC's enable registers: a one-bit-per-peripheral register. */
static int
rcc_enable_reg(const char *periph, unsigned long off)
{
	return strcmp(periph, "RCC") == 0 && off >= 0x30 && off <= 0x44 &&
	    off != 0x3c;
}

/*
 * A configuration register, judged by the value the effective writes
 * leave in it (the state the firmware ends in); any other register
 * (BSRR, ODR, data and key registers, reset registers, the peripherals
 * whose registers assay does not classify) by whether some effective
 * write put the expected value there.
 */
static int
config_reg(const char *periph, unsigned long off)
{
	if (strncmp(periph, "GPIO", 4) == 0)
		return off == 0x00 || off == 0x04 || off == 0x08 ||
		    off == 0x0c || off == 0x20 || off == 0x24;
	if (strcmp(periph, "RCC") == 0)
		return off <= 0x08 || rcc_enable_reg(periph, off);
	return 0;
}

/*
 * A write that takes effect, into the model.  QEMU answers a read of a
 * peripheral it does not model with 0, so a read-modify-write ("|=") of
 * such a register writes only the bits the firmware changed: a write
 * after a read of the same register sets the bits it writes and keeps
 * the rest, as silicon's read would have; a write of 0 after a read
 * ("&= ~bit") clears an enable register (conservatively: which bit was
 * meant cannot be told) and leaves a multi-bit field register alone (the
 * "clear the field, then set it" idiom).  A write with no read before it
 * is the register's new value.  lane: the bits the access covers.
 */
static void
model_write(struct model *m, const char *periph, unsigned long off,
    unsigned long val, unsigned long lane)
{
	struct mreg *g = model_reg(m, periph, off);
	unsigned long v = g->val;

	if (!g->read)
		v = (v & ~lane) | val;
	else if (val != 0)
		v |= val;
	else if (rcc_enable_reg(periph, off))
		v &= ~lane;
	g->val = v;
	g->read = 0;
	/* A reset register's bits reset their peripherals. */
	if (strcmp(periph, "RCC") == 0 && off >= 0x10 && off <= 0x24)
		for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++)
			if (clocks[i].reg == off + 0x20 &&
			    (val >> clocks[i].bit & 1))
				model_reset(m, clocks[i].periph);
}

/* The pins a GPIO output-data write drives (BSRR: set and reset bits;
 * ODR: the bits), for the expected value's bits; 0 for other registers. */
static unsigned long
driven_pins(const char *periph, unsigned long off, unsigned long bits)
{
	if (strncmp(periph, "GPIO", 4) != 0)
		return 0;
	if (off == 0x18)
		return (bits | bits >> 16) & 0xFFFF;
	if (off == 0x14)
		return bits & 0xFFFF;
	return 0;
}

/* One "-d unimp" read: "RCC: unimplemented device read  (size 4,
 * offset 0x030)", whole, from a traced peripheral.  1, else 0. */
static int
trace_read(const char *line, size_t l, char *periph, size_t pn,
    unsigned long *off)
{
	static const char mark[] = ": unimplemented device read  (size ";
	char *rest = trace_rest(line, l, mark, sizeof mark - 1, periph, pn),
	    tail;
	int k, size, used = 0;

	if (rest == NULL)
		return 0;
	k = sscanf(rest, "%d, offset 0x%lx%c%n", &size, off, &tail, &used);
	k = k == 3 && tail == ')' && rest[used] == '\0' &&
	    strspn(rest, "0123456789, offsetx abcdef") == (size_t)used - 1;
	free(rest);
	return k;
}

/*
 * One write to a USART QEMU models, as the regtrace stage writes it
 * (TRACE_AWK) from QEMU's memory_region_ops_write trace event ("...
 * addr 0x40011004 value 0x48 size 4 name 'stm32f2xx-usart'"): "usart-
 * write addr 0x40011004 value 0x48 size 4", whole.  1 with the USART's
 * index in uarts[] and the register's offset, else 0.
 */
static int
trace_usart(const char *line, size_t l, int *u, unsigned long *off,
    unsigned long *val)
{
	static const char head[] = "usart-write addr 0x";
	char *s;
	unsigned long addr;
	int size, used = 0, k;

	if (l < sizeof head || memcmp(line, head, sizeof head - 1) != 0)
		return 0;
	s = xstrndup(line, l);
	k = sscanf(s, "usart-write addr 0x%lx value 0x%lx size %d%n", &addr,
	    val, &size, &used);
	k = k == 3 && s[used] == '\0' && strspn(s + sizeof head - 1,
	    "0123456789abcdefxvaluesiz ") == l - (sizeof head - 1);
	free(s);
	if (!k)
		return 0;
	for (size_t i = 0; i < sizeof uart_base / sizeof uart_base[0]; i++)
		if (addr >= uart_base[i] && addr < uart_base[i] + 0x400) {
			*u = (int)i;
			*off = addr - uart_base[i];
			return 1;
		}
	return 0;
}

/* What one expected write found in the trace. */
struct wstate {
	long		 seen;		/* effective writes to its register */
	unsigned long	 last;		/* the last of them */
	int		 hit;		/* an effective write matched */
	char		*why;		/* the first write that did not count */
};

/* "GPIOA MODER written at regtrace line 4 while RCC AHB1ENR.GPIOAEN
 * was clear: ignored on silicon", new. */
static char *
gated_why(const char *periph, unsigned long off, long line, int ever)
{
	const struct clock *c = clock_of(periph);
	const char *rn = reg_name(periph, off);
	char reg[24];

	if (rn == NULL)
		snprintf(reg, sizeof reg, "offset 0x%03lx", off);
	return xasprintf("%s %s written at regtrace line %ld %s RCC %s.%s"
	    " %s: ignored on silicon", periph, rn != NULL ? rn : reg, line,
	    ever ? "while" : "before", rcc_reg(c->reg), c->bit_name, ever ?
	    "was clear again" : "was set");
}

/* The UART's bytes as the trace shows them leaving the task's USART. */
struct uart_seen {
	struct buf	 sent;		/* bytes an enabled USART sent */
	long		 writes;	/* DR writes to the task's USART */
	char		*why;		/* the first that sent nothing, new */
};

/* Was the clock of periph ever on?  ever[] follows clocks[]. */
static int
clock_ever(const int *ever, const char *periph)
{
	const struct clock *c = clock_of(periph);

	return c != NULL && ever[c - clocks];
}

/* A USART write from the trace (trace_usart), into the model and us. */
static void
usart_write(struct model *m, const int *ever, const struct arm_params *p,
    int u, unsigned long off, unsigned long val, long lineno,
    struct uart_seen *us)
{
	const char *pn = uarts[u];
	int dr = off == USART_DR && u == p->uart;
	unsigned long cr1;

	us->writes += dr;
	if (!clocked(m, pn)) {
		if (dr && us->why == NULL)
			us->why = gated_why(pn, off, lineno, clock_ever(ever,
			    pn));
		return;
	}
	if (off != USART_DR) {
		/* QEMU models the USART: its reads are real, so a write is
		 * the register's whole new value. */
		model_write(m, pn, off & ~3UL, val, 0xFFFFFFFFUL);
		return;
	}
	if (!dr)
		return;
	cr1 = model_reg(m, pn, USART_CR1)->val;
	if ((cr1 & USART_CR1_UE) && (cr1 & USART_CR1_TE) &&
	    model_reg(m, pn, USART_BRR)->val != 0)
		buf_addc(&us->sent, (char)(val & 0xFF));
	else if (us->why == NULL)
		us->why = xasprintf("%s DR written at regtrace line %ld while"
		    " %s: no byte leaves on silicon", pn, lineno,
		    !(cr1 & USART_CR1_UE) ? "CR1.UE (the USART's enable) was"
		    " clear" : !(cr1 & USART_CR1_TE) ? "CR1.TE (the"
		    " transmitter's enable) was clear" : "BRR (the baud rate)"
		    " was 0");
}

/* Does an effective write of v to x's register move its pins?  NULL,
 * or why not (new): a pin that is no general-purpose output. */
static char *
pins_why(struct model *m, const struct arm_write *x, long lineno)
{
	unsigned long pins = driven_pins(x->periph, x->offset, x->value &
	    x->mask), moder = model_reg(m, x->periph, 0)->val;

	for (int pin = 0; pin < 16; pin++)
		if ((pins >> pin & 1) && (moder >> (2 * pin) & 3) != 1)
			return xasprintf("%s %s written at regtrace line %ld"
			    " while P%c%d was not a general-purpose output"
			    " (MODER%d = %lu): the pin does not move on silicon",
			    x->periph, reg_name(x->periph, x->offset), lineno,
			    x->periph[4], pin, pin, moder >> (2 * pin) & 3);
	return NULL;
}

/* One write of the trace (trace_write) against the expected ones. */
static void
expect_write(const struct arm_params *p, struct model *m, struct wstate *ws,
    const char *pn, int size, unsigned long off, unsigned long val,
    int eff, int ever, long lineno)
{
	for (size_t w = 0; w < p->nwrites; w++) {
		const struct arm_write *x = &p->writes[w];
		unsigned long o = off, v = val;
		char *why;

		if (strcmp(pn, x->periph) != 0)
			continue;
		/* A register of a task, by its word, takes the narrower
		 * writes into it. */
		if (x->size == 0 && x->offset % 4 == 0)
			fold(&o, &v, size);
		if (o != x->offset || (x->size != 0 && size != x->size))
			continue;
		if (!eff) {
			if (ws[w].why == NULL)
				ws[w].why = gated_why(pn, x->offset, lineno,
				    ever);
			continue;
		}
		ws[w].seen++;
		ws[w].last = v;
		if ((v & x->mask) != (x->value & x->mask))
			continue;
		why = pins_why(m, x, lineno);
		if (why == NULL)
			ws[w].hit = 1;
		else if (ws[w].why == NULL)
			ws[w].why = why;
		else
			free(why);
	}
}

/*
 * The trace replayed in order against the model (ADR 0060): the checks
 * of expect_writes, one diagnostic per expected write that did not take
 * effect, the first as evidence (new) or NULL; *nwrites counts the
 * trace's writes; us gets the bytes the task's USART sent on silicon.
 */
static char *
writes_check(const struct arm_params *p, const char *nonce, const char *log,
    size_t len, struct run *r, long *nwrites, struct arm_cex *cx,
    struct uart_seen *us)
{
	size_t nl = strlen(nonce);
	const char *q = log, *end = log + len, *line;
	size_t l;
	long lineno = 0;
	struct model m = { 0 };
	int ever[sizeof clocks / sizeof clocks[0]] = { 0 };
	struct wstate *ws = xcalloc(p->nwrites + 1, sizeof *ws);
	char *first = NULL;

	*nwrites = 0;
	while (next_line(&q, end, &line, &l)) {
		char periph[32];
		const char *pn;
		int size, u, eff;
		unsigned long off, val, woff, wval, lane = 0xFFFFFFFFUL;

		lineno++;
		/* Not the trace-last lines: they repeat the trace. */
		if (l >= nl && memcmp(line, nonce, nl) == 0)
			continue;
		if (trace_usart(line, l, &u, &off, &val)) {
			usart_write(&m, ever, p, u, off, val, lineno, us);
			continue;
		}
		if (trace_read(line, l, periph, sizeof periph, &off)) {
			model_reg(&m, periph_name(periph), off & ~3UL)->read =
			    1;
			continue;
		}
		if (!trace_write(line, l, periph, sizeof periph, &size, &off,
		    &val))
			continue;
		(*nwrites)++;
		pn = periph_name(periph);
		woff = off;
		wval = val;
		if (size < 4 && off % 4 + (unsigned long)size <= 4) {
			lane = ((1UL << (8 * size)) - 1) << (8 * (off % 4));
			fold(&woff, &wval, size);
		}
		eff = clocked(&m, pn);
		if (eff)
			model_write(&m, pn, woff & ~3UL, wval, lane);
		if (eff && rcc_enable_reg(pn, woff & ~3UL)) {
			for (size_t c = 0; c < sizeof clocks / sizeof clocks[0];
			    c++)
				ever[c] |= (int)(model_reg(&m, "RCC",
				    clocks[c].reg)->val >> clocks[c].bit & 1);
		}
		expect_write(p, &m, ws, pn, size, off, val, eff,
		    clock_ever(ever, pn), lineno);
	}
	for (size_t w = 0; w < p->nwrites; w++) {
		const struct arm_write *x = &p->writes[w];
		const char *rn = reg_name(x->periph, x->offset);
		int state = config_reg(x->periph, x->offset) && x->size == 0;
		unsigned long now = model_reg(&m, x->periph, x->offset)->val;
		struct buf b = BUF_INIT;
		char *msg;

		/* A configuration register: the value the firmware leaves. */
		if (state)
			ws[w].hit = ws[w].seen > 0 && (now & x->mask) ==
			    (x->value & x->mask);
		if (ws[w].hit)
			continue;
		if (state && ws[w].seen > 0) {
			buf_printf(&b, "%s offset 0x%03lx%s%s%s ends as 0x%08lx"
			    " after the writes that took effect, expected"
			    " 0x%08lx", x->periph, x->offset, rn != NULL ?
			    " (" : "", rn != NULL ? rn : "", rn != NULL ? ")" :
			    "", now, x->value);
			if (x->mask != 0xFFFFFFFFUL)
				buf_printf(&b, " (mask 0x%08lx)", x->mask);
		} else {
			buf_printf(&b, "no write of 0x%08lx", x->value);
			if (x->mask != 0xFFFFFFFFUL)
				buf_printf(&b, " (mask 0x%08lx)", x->mask);
			buf_printf(&b, " to %s offset 0x%03lx%s%s%s", x->periph,
			    x->offset, rn != NULL ? " (" : "", rn != NULL ? rn :
			    "", rn != NULL ? ")" : "");
			if (ws[w].why != NULL)
				buf_adds(&b, " that takes effect");
			if (ws[w].seen > 0)
				buf_printf(&b, "; %ld write%s there, the last"
				    " 0x%08lx", ws[w].seen,
				    ws[w].seen == 1 ? "" : "s", ws[w].last);
			else if (ws[w].why == NULL)
				buf_adds(&b, "; none there");
		}
		if (ws[w].why != NULL)
			buf_printf(&b, "; %s", ws[w].why);
		msg = buf_detach(&b, NULL);
		cex_write(cx, x, rn, ws[w].seen, state ? now : ws[w].last,
		    ws[w].why);
		run_add_diag(r, "", 0, 0, "error", msg, 0);
		if (first == NULL)
			first = msg;
		else
			free(msg);
	}
	for (size_t w = 0; w < p->nwrites; w++)
		free(ws[w].why);
	free(ws);
	free(m.r);
	return first;
}

/*
 * "its last access reads RCC offset 0x000 (CR), which QEMU does not
 * model ..." when the trace ends in reads of an unmodelled peripheral
 * (a wait for a ready flag), else NULL.  New string.  The trace stage
 * prints the trace's last lines; the very last may be cut off by the
 * file-size limit.
 */
static char *
polling(const struct env_plan *plan, const struct env_stage_result *tr)
{
	char *want = xasprintf("%s trace-last ", plan->nonce), *r = NULL;
	size_t wl = strlen(want);
	const char *p, *end, *line;
	size_t l;
	char periph[32] = "";
	unsigned long off = 0;

	if (tr == NULL) {
		free(want);
		return NULL;
	}
	p = tr->log;
	end = tr->log + tr->log_len;
	while (next_line(&p, end, &line, &l)) {
		char *s;
		const char *m;

		if (l < wl || memcmp(line, want, wl) != 0)
			continue;
		s = xstrndup(line + wl, l - wl);
		m = strstr(s, ": unimplemented device ");
		if (m != NULL && (size_t)(m - s) < sizeof periph) {
			unsigned long o;

			if (sscanf(m, ": unimplemented device read (size %*d,"
			    " offset 0x%lx)", &o) == 1) {
				memcpy(periph, s, (size_t)(m - s));
				periph[m - s] = '\0';
				off = o;
			} else if (strstr(m, "device write") != NULL) {
				periph[0] = '\0';
			}
		}
		free(s);
	}
	free(want);
	if (periph[0] != '\0') {
		const char *rn = reg_name(periph, off);

		r = xasprintf("its last access reads %s offset 0x%03lx%s%s%s,"
		    " which QEMU does not model (reads are 0): waiting for a"
		    " ready flag there never ends under QEMU", periph, off,
		    rn != NULL ? " (" : "", rn != NULL ? rn : "",
		    rn != NULL ? ")" : "");
	}
	return r;
}

static void
set_timeout(struct run *r, const char *why, char *poll)
{
	char *ev = poll != NULL ? xasprintf("%s; %s", why, poll) :
	    xstrdup(why);

	env_verdict(r, VERDICT_TIMEOUT, CATEGORY_FUNCTIONAL, "timeout", ev);
	free(ev);
	free(poll);
}

/* "main at main.c:7" lines of addr2line after the tag ("fault-at",
 * "poll-at"): a diagnostic on the first candidate line, which becomes
 * the evidence's line.  Nothing when none names the candidate. */
static void
source_line(const struct env_plan *plan, const struct env_stage_result *run,
    const char *tag, const char *what, struct run *r)
{
	char *want = xasprintf("%s %s ", plan->nonce, tag);
	size_t wl = strlen(want), cl = strlen(plan->cand_file);
	const char *p = run->log, *end = run->log + run->log_len, *line;
	size_t l;

	while (next_line(&p, end, &line, &l)) {
		const char *at;
		int n;

		if (l < wl || memcmp(line, want, wl) != 0)
			continue;
		at = memmem(line, l, " at ", 4);
		if (at == NULL || (size_t)(line + l - at) < 4 + cl + 2 ||
		    memcmp(at + 4, plan->cand_file, cl) != 0 ||
		    at[4 + cl] != ':')
			continue;
		n = env_atoi(at + 4 + cl + 1);
		if (n > 0) {
			run_add_diag(r, plan->cand_file, n, 0, "error", what,
			    n);
			r->evidence_line = n;
			break;
		}
	}
	free(want);
}

static void
armqemu_judge(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	struct arm_params p;
	struct build_fail bf = { 0 };
	struct err err;
	struct buf m = BUF_INIT;
	const struct env_stage_result *run, *uart, *trace;
	long flash = -1, ram = -1, total = -1, nwrites = -1, code = -1;
	long sig = 0;
	int timed = 0, ran = 0;
	const char *ut = NULL, *sym;
	size_t un = 0;
	char *status = NULL, *ev = NULL;

	if (params_read(t, &p, &err) < 0)
		memset(&p, 0, sizeof p);
	if (nres == 0) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL, NULL);
		goto out;
	}
	env_set(&r->stage, "build");
	scan_build(plan, res[0].log, res[0].log_len, r, &bf, &flash, &ram);
	if (nres == 1 && env_judge_limits(stop, res[0].exit_code, "compile",
	    "the build", r))
		goto out;
	if (nres == 1 && stop != ENV_STOP_NONE) {
		env_verdict(r, VERDICT_FAIL, CATEGORY_COMPILE, "resource-limit",
		    "the build passed the work directory's size cap");
		goto out;
	}
	if (res[0].exit_code == 127 || memmem(res[0].log, res[0].log_len,
	    "cannot find -l", 14) != NULL || memmem(res[0].log,
	    res[0].log_len, "nano.specs: No such", 19) != NULL) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-missing",
		    "arm-none-eabi-gcc or newlib is missing"
		    " (gcc-arm-none-eabi libnewlib-arm-none-eabi)");
		goto out;
	}
	if (res[0].exit_code != 0 && (sym = line_with(res[0].log,
	    res[0].log_len, FORBIDDEN_SYMBOL)) != NULL) {
		const char *nl = memchr(sym, '\n', (size_t)(res[0].log +
		    res[0].log_len - sym));
		size_t skip = strlen(FORBIDDEN_SYMBOL);

		ev = xstrndup(sym + skip, (size_t)((nl != NULL ? nl :
		    res[0].log + res[0].log_len) - sym) - skip);
		env_verdict(r, VERDICT_FAIL, CATEGORY_COMPILE,
		    "forbidden-symbol", ev);
		goto out;
	}
	if (res[0].exit_code != 0) {
		char *why = env_evidence(bf.evidence, res[0].log,
		    res[0].log_len, "the build");

		env_verdict(r, VERDICT_FAIL, category_from_name(bf.category !=
		    NULL ? bf.category : "compile"),
		    bf.sub != NULL ? bf.sub : "other", why);
		free(why);
		r->evidence_line = bf.line;
		goto out;
	}
	if (strstr(buf_str(&plan->precheck), "renode-missing") != NULL) {
		env_verdict(r, VERDICT_SKIPPED, CATEGORY_NONE,
		    "simulator-missing", "the task asks for Renode"
		    " (env_params.simulator), which is not installed here:"
		    " Debian has no package (renode.io)");
		goto out;
	}
	env_set(&r->stage, "run");
	run = nres >= 2 ? &res[1] : NULL;
	uart = nres >= 3 ? &res[2] : NULL;
	trace = nres >= 4 ? &res[3] : NULL;
	if (run == NULL) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL, NULL);
		goto out;
	}
	if (uart != NULL)
		ut = uart_text(plan, uart->log, uart->log_len, &un, &total);
	if (env_judge_limits(stop, res[nres - 1].exit_code, "functional",
	    "the firmware", r)) {
		if (verdict_is(r->verdict, VERDICT_TIMEOUT))
			set_timeout(r, "the run hit its wall-clock timeout"
			    " before the firmware exited", NULL);
		goto out;
	}
	if (stop == ENV_STOP_DISK) {
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
		    "resource-limit",
		    "the run's files passed the work directory's size cap");
		goto out;
	}
	status = tagged(run->log, run->log_len, plan->nonce, "qemu-exit");
	if (status == NULL) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "simulator-error", "the run stage gave no exit status");
		goto out;
	}
	code = strtol(status, NULL, 10);
	/* How QEMU ended, from the waiter's lines (QEMU_WAIT_PL), which
	 * carry the secret: a signal, the clock, or an exit whose status
	 * may be the firmware's own choice. */
	{
		char *s = tagged(run->log, run->log_len, plan->nonce,
		    "qemu-signal");
		char *tm = tagged(run->log, run->log_len, plan->nonce,
		    "qemu-timeout");
		char *fr = tagged(run->log, run->log_len, plan->nonce,
		    "fw-ran");

		if (s != NULL)
			sig = strtol(s, NULL, 10);
		timed = tm != NULL;
		ran = fr != NULL;
		free(s);
		free(tm);
		free(fr);
		/* Renode runs under timeout(1) and sh: its status is all
		 * there is (a Renode task checks only its UART). */
		if (strstr(buf_str(&plan->precheck), "renode") != NULL) {
			timed = code == 124 || code == 137;
			sig = code > 128 && !timed ? code - 128 : 0;
			ran = 1;
		}
	}
	if (code == 127 && !ran && sig == 0) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-missing", "the simulator could not be started");
		goto out;
	}
	if (timed) {
		char *poll = polling(plan, trace);
		int polled = poll != NULL;

		ev = xasprintf("the firmware did not exit within %d s (no"
		    " semihosting exit, main never returned)", p.timeout_s);
		set_timeout(r, ev, poll);
		if (polled)
			source_line(plan, run, "poll-at", r->evidence, r);
		goto out;
	}
	if (sig == SIGSYS) {
		/* QEMU's own sandbox (-sandbox spawn=deny) killed it: the
		 * firmware asked the host to run a command (SYS_SYSTEM). */
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
		    subcategory_name(SUB_FORBIDDEN_CALL), "QEMU's sandbox"
		    " stopped the firmware: it asked the host to run a"
		    " command (semihosting SYS_SYSTEM)");
		goto out;
	}
	if (sig == SIGXFSZ) {
		char *poll = polling(plan, trace);

		ev = xasprintf("QEMU's register trace passed the file-size"
		    " limit%s%s", poll != NULL ? "; " : "", poll != NULL ?
		    poll : "");
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
		    "resource-limit", ev);
		if (poll != NULL)
			source_line(plan, run, "poll-at", ev, r);
		free(poll);
		goto out;
	}
	{
		const char *fault = line_with(run->log, run->log_len,
		    "assay: ");
		const char *lock = line_with(run->log, run->log_len,
		    "qemu: fatal: Lockup");
		const char *qerr = qemu_error(run->log, run->log_len);
		const char *end = run->log + run->log_len;

		if ((code == EXIT_FAULT || code == EXIT_UNHANDLED) &&
		    fault != NULL && code != p.expect_exit) {
			ev = line_dup(fault, end);
			env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL, code
			    == EXIT_FAULT ? "hardfault" : "unhandled-interrupt",
			    ev);
			source_line(plan, run, "fault-at", ev, r);
			goto out;
		}
		if (sig == SIGABRT && lock != NULL) {
			/* A fault in the fault handler, or with a broken
			 * stack: the core locks up and QEMU aborts. */
			ev = line_dup(lock, end);
			env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
			    "hardfault", ev);
			goto out;
		}
		/* QEMU's failure: a signal ended it, or it exited non-zero
		 * before the firmware's first instruction.  An error line
		 * alone decides nothing (the firmware writes QEMU's stderr
		 * through semihosting), nor does a status over 128 (the
		 * firmware's exit status is its own). */
		if (sig != 0 || (!ran && code != 0 &&
		    strstr(buf_str(&plan->precheck), "renode") == NULL)) {
			ev = qerr != NULL ? line_dup(qerr, end) :
			    xasprintf("the simulator died (status %ld)", code);
			env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
			    "simulator-error", ev);
			goto out;
		}
	}
	/* The task's checks; each failure is a diagnostic, the first the
	 * evidence. */
	{
		char *why = NULL, *u = NULL, *w = NULL;
		const char *sub = NULL;
		int renode = strstr(buf_str(&plan->precheck), "renode") !=
		    NULL;
		struct arm_cex cx = { json_object(), BUF_INIT };
		struct uart_seen us = { BUF_INIT, 0, NULL };

		if (!renode && code != p.expect_exit) {
			why = xasprintf("the firmware exited with %ld, expected"
			    " %d", code, p.expect_exit);
			run_add_diag(r, "", 0, 0, "error", why, 0);
			sub = "exit-code";
			json_object_set_new(cx.o, "exit", json_pack("{s:i,s:I}",
			    "expected", p.expect_exit, "observed",
			    (json_int_t)code));
			buf_printf(&cx.text, "exit status:\n- %d\n+ %ld\n",
			    p.expect_exit, code);
		}
		u = uart_check(&p, ut, un, total, &cx);
		if (u != NULL) {
			run_add_diag(r, "", 0, 0, "error", u, 0);
			if (sub == NULL) {
				sub = "uart-mismatch";
				why = u;
				u = NULL;
			}
		}
		if (renode && p.nwrites > 0)
			run_add_diag(r, "", 0, 0, "note", "Renode runs check"
			    " the UART only", 0);
		else if (trace != NULL)
			w = writes_check(&p, plan->nonce, trace->log,
			    trace->log_len, r, &nwrites, &cx, &us);
		else if (p.nwrites > 0)
			w = xstrdup("no register trace");
		if (w != NULL && sub == NULL) {
			sub = "register-write";
			why = w;
			w = NULL;
		}
		/* The UART's bytes QEMU sent must have left a clocked,
		 * enabled USART with a baud rate on silicon too. */
		if (!renode && p.expect_uart != NULL && u == NULL &&
		    (trace == NULL || us.sent.len != un ||
		    (size_t)total != un || (un > 0 && memcmp(us.sent.p, ut,
		    un) != 0))) {
			char *s = xasprintf("the UART printed the expected %ld"
			    " bytes, but the register trace shows %zu of them"
			    " leaving an enabled %s: %s", total, us.sent.len,
			    uarts[p.uart], us.why != NULL ? us.why :
			    "the trace holds no other write to its data"
			    " register");

			run_add_diag(r, "", 0, 0, "error", s, 0);
			if (sub == NULL) {
				sub = "uart-not-enabled";
				why = s;
			} else
				free(s);
		}
		if (sub == NULL) {
			env_verdict(r, VERDICT_PASS, CATEGORY_NONE, NULL, NULL);
		} else {
			env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL, sub,
			    why);
		}
		/* What was expected against what the run showed. */
		if (sub != NULL && json_object_size(cx.o) > 0) {
			feedback_set(r, "counterexample", cx.o,
			    buf_str(&cx.text));
			cx.o = NULL;
		}
		json_decref(cx.o);
		buf_release(&cx.text);
		buf_release(&us.sent);
		free(us.why);
		free(why);
		free(u);
		free(w);
	}
out:
	buf_adds(&m, "{");
	if (code >= 0)
		buf_printf(&m, "\"exit\":%ld,", code);
	if (flash >= 0 && nres > 0 && res[0].exit_code == 0)
		buf_printf(&m, "\"flash\":%ld,", flash);
	if (ram >= 0 && nres > 0 && res[0].exit_code == 0)
		buf_printf(&m, "\"ram\":%ld,", ram);
	if (total >= 0)
		buf_printf(&m, "\"uart_bytes\":%ld,", total);
	if (nwrites >= 0)
		buf_printf(&m, "\"reg_writes\":%ld,", nwrites);
	if (m.len > 1) {
		m.p[m.len - 1] = '}';
		free(r->metrics);
		r->metrics = buf_detach(&m, NULL);
	}
	buf_release(&m);
	free(bf.evidence);
	free(status);
	free(ev);
	params_release(&p);
}

const struct env_ops env_armqemu = {
	.name = "arm-qemu",
	.domain = "embedded",
	.lang = "c",
	.packages = "gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm",
	.missing_hint = "Renode, which a task may ask for, is not in Debian:"
	    " see renode.io",
	.toolchain = armqemu_toolchain,
	.prepare = armqemu_prepare,
	.judge = armqemu_judge,
};
