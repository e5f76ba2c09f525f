# abi.s - assay's x86-asm ABI check and timing loop (docs/envs/x86-asm.md).
#
#   uint64_t assay_abi_call(const void *fn, const uint64_t *args,
#                           uint64_t *bad);
#
# Calls fn with args[0..5] in rdi, rsi, rdx, rcx, r8 and r9 (System V
# AMD64), after loading a canary into each callee-saved register (rbx,
# rbp, r12-r15) and into the stack slot just above the return address.
# After fn returns it compares them, and rsp, and the direction flag,
# which must be clear on return; *bad gets one bit per thing fn did not
# keep: 0 rbx, 1 rbp, 2 r12, 3 r13, 4 r14, 5 r15, 6 rsp, 7 df, 8 the
# stack slot.  Returns fn's rax.  Not reentrant (one saved rsp).

	.text
	.globl	assay_abi_call
	.type	assay_abi_call, @function
assay_abi_call:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	pushq	%rdx			# bad
	subq	$16, %rsp		# 7 pushes + 16: aligned at the call
	movabsq	$0x5ca1ab1e0badf008, %rax
	movq	%rax, 8(%rsp)		# lowest slot of our frame: above
	movq	%rax, (%rsp)		# fn's return address
	movq	%rsp, assay_abi_rsp(%rip)
	movq	%rdi, %r10
	movq	%rsi, %r11
	movq	0(%r11), %rdi
	movq	8(%r11), %rsi
	movq	16(%r11), %rdx
	movq	24(%r11), %rcx
	movq	32(%r11), %r8
	movq	40(%r11), %r9
	movabsq	$0x5ca1ab1e0badf001, %rbx
	movabsq	$0x5ca1ab1e0badf002, %rbp
	movabsq	$0x5ca1ab1e0badf003, %r12
	movabsq	$0x5ca1ab1e0badf004, %r13
	movabsq	$0x5ca1ab1e0badf005, %r14
	movabsq	$0x5ca1ab1e0badf006, %r15
	cld
	call	*%r10
	xorl	%r11d, %r11d
	movabsq	$0x5ca1ab1e0badf001, %rcx
	cmpq	%rcx, %rbx
	je	1f
	orq	$1, %r11
1:	movabsq	$0x5ca1ab1e0badf002, %rcx
	cmpq	%rcx, %rbp
	je	1f
	orq	$2, %r11
1:	movabsq	$0x5ca1ab1e0badf003, %rcx
	cmpq	%rcx, %r12
	je	1f
	orq	$4, %r11
1:	movabsq	$0x5ca1ab1e0badf004, %rcx
	cmpq	%rcx, %r13
	je	1f
	orq	$8, %r11
1:	movabsq	$0x5ca1ab1e0badf005, %rcx
	cmpq	%rcx, %r14
	je	1f
	orq	$16, %r11
1:	movabsq	$0x5ca1ab1e0badf006, %rcx
	cmpq	%rcx, %r15
	je	1f
	orq	$32, %r11
1:	cmpq	assay_abi_rsp(%rip), %rsp
	je	1f
	orq	$64, %r11
	movq	assay_abi_rsp(%rip), %rsp	# back to our own frame
1:	pushfq
	popq	%rcx
	btq	$10, %rcx
	jnc	1f
	orq	$128, %r11
	cld
1:	movabsq	$0x5ca1ab1e0badf008, %rcx
	cmpq	%rcx, (%rsp)
	jne	2f
	cmpq	%rcx, 8(%rsp)
	je	1f
2:	orq	$256, %r11
1:	addq	$16, %rsp
	popq	%rdx
	movq	%r11, (%rdx)
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.size	assay_abi_call, .-assay_abi_call

#   uint64_t assay_time_calls(const void *fn, uint64_t *args, long reps,
#       uint64_t mask, void (*change)(uint64_t *args));
#
# Calls fn reps times with args[0..5] in the argument registers, for the
# timing: the reference and the candidate go through this same loop, so
# that only their own code differs (through C thunks of their own, the
# same two instructions timed 0.75 to 1.00 of each other as the link
# placed them).  Before each call, change (when not NULL) changes the
# input: an element of every array and every scalar but the length, so
# that no call sees the input of the one before (a candidate that
# remembered its last answer was timed 225x faster).  The lfence after
# it lets no load of fn run before the change's store has its address:
# without it, dot_i32's reference loaded ahead of the store, and the CPU
# undid that (a memory-ordering clear) often enough to time it 1.15x
# slower and wander from 0.91 to 1.21 against itself.  fn must keep the
# callee-saved registers: the ABI check ran first.  Returns every call's
# return value (its low bits, mask) folded into one (h = rol(h, 1) ^
# (rax & mask)), so that the timed results are compared too: two cycles
# a call, the same for both.

	.globl	assay_time_calls
	.type	assay_time_calls, @function
	.p2align 6
assay_time_calls:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$8, %rsp		# rsp 16-aligned at the calls
	movq	%rdi, %r12
	movq	%rsi, %r13
	movq	%rdx, %r14
	movq	%rcx, %r15
	movq	%r8, %rbp
	xorl	%ebx, %ebx
	testq	%r14, %r14
	jle	2f
	.p2align 4
1:	testq	%rbp, %rbp
	je	3f
	movq	%r13, %rdi
	call	*%rbp
	lfence
3:	movq	0(%r13), %rdi
	movq	8(%r13), %rsi
	movq	16(%r13), %rdx
	movq	24(%r13), %rcx
	movq	32(%r13), %r8
	movq	40(%r13), %r9
	call	*%r12
	andq	%r15, %rax
	rolq	$1, %rbx
	xorq	%rax, %rbx
	decq	%r14
	jne	1b
2:	movq	%rbx, %rax
	addq	$8, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
	.size	assay_time_calls, .-assay_time_calls

	.bss
	.p2align 3
assay_abi_rsp:
	.zero	8

	.section .note.GNU-stack,"",@progbits
