/*
 * startup.c - assay's start-up code for the STM32F405 under QEMU's
 * netduinoplus2 board (arm-qemu env).
 *
 * The vector table (ARMv7-M ARM B1.5.3; the device interrupts of RM0090
 * table 61, CMSIS handler names, each a weak alias of Default_Handler
 * that a firmware overrides by defining it), and Reset_Handler: enable
 * the FPU (CPACR, before any floating-point instruction runs), copy .data
 * from flash, zero .bss, call SystemInit(), open newlib's semihosting
 * handles (printf goes to the run's log), then exit(main()).
 *
 * The fault handlers report where the fault happened through semihosting
 * and end the run with ASSAY_EXIT_FAULT, so that a faulting firmware
 * neither spins until the timeout nor looks like one that exits.
 */
#include <stdint.h>
#include <stdlib.h>

#include "assay.h"
#include "stm32f4xx.h"

extern uint32_t _estack, _sidata, _sdata, _edata, _sbss, _ebss;
extern int main(void);
extern void initialise_monitor_handles(void);

/* A handler the firmware may define; unless it does, Default_Handler. */
#define HANDLER(name) \
	void name(void) __attribute__((weak, alias("Default_Handler")))
#define FAULT_HANDLER(name) \
	void name(void) __attribute__((weak, alias("HardFault_Handler")))

void Reset_Handler(void);
void Default_Handler(void);
HANDLER(NMI_Handler);
void HardFault_Handler(void) __attribute__((weak, naked));
FAULT_HANDLER(MemManage_Handler);
FAULT_HANDLER(BusFault_Handler);
FAULT_HANDLER(UsageFault_Handler);
HANDLER(SVC_Handler);
HANDLER(DebugMon_Handler);
HANDLER(PendSV_Handler);
HANDLER(SysTick_Handler);
HANDLER(WWDG_IRQHandler);
HANDLER(PVD_IRQHandler);
HANDLER(TAMP_STAMP_IRQHandler);
HANDLER(RTC_WKUP_IRQHandler);
HANDLER(FLASH_IRQHandler);
HANDLER(RCC_IRQHandler);
HANDLER(EXTI0_IRQHandler);
HANDLER(EXTI1_IRQHandler);
HANDLER(EXTI2_IRQHandler);
HANDLER(EXTI3_IRQHandler);
HANDLER(EXTI4_IRQHandler);
HANDLER(DMA1_Stream0_IRQHandler);
HANDLER(DMA1_Stream1_IRQHandler);
HANDLER(DMA1_Stream2_IRQHandler);
HANDLER(DMA1_Stream3_IRQHandler);
HANDLER(DMA1_Stream4_IRQHandler);
HANDLER(DMA1_Stream5_IRQHandler);
HANDLER(DMA1_Stream6_IRQHandler);
HANDLER(ADC_IRQHandler);
HANDLER(CAN1_TX_IRQHandler);
HANDLER(CAN1_RX0_IRQHandler);
HANDLER(CAN1_RX1_IRQHandler);
HANDLER(CAN1_SCE_IRQHandler);
HANDLER(EXTI9_5_IRQHandler);
HANDLER(TIM1_BRK_TIM9_IRQHandler);
HANDLER(TIM1_UP_TIM10_IRQHandler);
HANDLER(TIM1_TRG_COM_TIM11_IRQHandler);
HANDLER(TIM1_CC_IRQHandler);
HANDLER(TIM2_IRQHandler);
HANDLER(TIM3_IRQHandler);
HANDLER(TIM4_IRQHandler);
HANDLER(I2C1_EV_IRQHandler);
HANDLER(I2C1_ER_IRQHandler);
HANDLER(I2C2_EV_IRQHandler);
HANDLER(I2C2_ER_IRQHandler);
HANDLER(SPI1_IRQHandler);
HANDLER(SPI2_IRQHandler);
HANDLER(USART1_IRQHandler);
HANDLER(USART2_IRQHandler);
HANDLER(USART3_IRQHandler);
HANDLER(EXTI15_10_IRQHandler);
HANDLER(RTC_Alarm_IRQHandler);
HANDLER(OTG_FS_WKUP_IRQHandler);
HANDLER(TIM8_BRK_TIM12_IRQHandler);
HANDLER(TIM8_UP_TIM13_IRQHandler);
HANDLER(TIM8_TRG_COM_TIM14_IRQHandler);
HANDLER(TIM8_CC_IRQHandler);
HANDLER(DMA1_Stream7_IRQHandler);
HANDLER(FSMC_IRQHandler);
HANDLER(SDIO_IRQHandler);
HANDLER(TIM5_IRQHandler);
HANDLER(SPI3_IRQHandler);
HANDLER(UART4_IRQHandler);
HANDLER(UART5_IRQHandler);
HANDLER(TIM6_DAC_IRQHandler);
HANDLER(TIM7_IRQHandler);
HANDLER(DMA2_Stream0_IRQHandler);
HANDLER(DMA2_Stream1_IRQHandler);
HANDLER(DMA2_Stream2_IRQHandler);
HANDLER(DMA2_Stream3_IRQHandler);
HANDLER(DMA2_Stream4_IRQHandler);
HANDLER(ETH_IRQHandler);
HANDLER(ETH_WKUP_IRQHandler);
HANDLER(CAN2_TX_IRQHandler);
HANDLER(CAN2_RX0_IRQHandler);
HANDLER(CAN2_RX1_IRQHandler);
HANDLER(CAN2_SCE_IRQHandler);
HANDLER(OTG_FS_IRQHandler);
HANDLER(DMA2_Stream5_IRQHandler);
HANDLER(DMA2_Stream6_IRQHandler);
HANDLER(DMA2_Stream7_IRQHandler);
HANDLER(USART6_IRQHandler);
HANDLER(I2C3_EV_IRQHandler);
HANDLER(I2C3_ER_IRQHandler);
HANDLER(OTG_HS_EP1_OUT_IRQHandler);
HANDLER(OTG_HS_EP1_IN_IRQHandler);
HANDLER(OTG_HS_WKUP_IRQHandler);
HANDLER(OTG_HS_IRQHandler);
HANDLER(DCMI_IRQHandler);
HANDLER(HASH_RNG_IRQHandler);
HANDLER(FPU_IRQHandler);

__attribute__((weak)) uint32_t SystemCoreClock = 16000000U;

/* The clock stays the 16 MHz HSI: nothing to set up. */
__attribute__((weak)) void
SystemInit(void)
{
}

/* SystemCoreClock from RCC (RM0090 section 6.3.3): HSI 16 MHz, HSE
 * 8 MHz (HSE_VALUE), or the main PLL. */
__attribute__((weak)) void
SystemCoreClockUpdate(void)
{
	static const uint8_t ahb_shift[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 2,
	    3, 4, 6, 7, 8, 9 };
	uint32_t in, m, n, p, clk;

	switch (RCC->CFGR & RCC_CFGR_SWS) {
	case RCC_CFGR_SWS_HSE:
		clk = 8000000U;
		break;
	case RCC_CFGR_SWS_PLL:
		in = (RCC->PLLCFGR & RCC_PLLCFGR_PLLSRC) ? 8000000U : 16000000U;
		m = RCC->PLLCFGR & RCC_PLLCFGR_PLLM;
		n = (RCC->PLLCFGR & RCC_PLLCFGR_PLLN) >> RCC_PLLCFGR_PLLN_Pos;
		p = (((RCC->PLLCFGR & RCC_PLLCFGR_PLLP) >>
		    RCC_PLLCFGR_PLLP_Pos) + 1U) * 2U;
		clk = m != 0U ? in / m * n / p : 16000000U;
		break;
	default:
		clk = 16000000U;
		break;
	}
	SystemCoreClock = clk >> ahb_shift[(RCC->CFGR & RCC_CFGR_HPRE) >> 4];
}

__attribute__((section(".isr_vector"), used))
void (*const assay_vectors[16 + 82])(void) = {
	(void (*)(void))&_estack,
	Reset_Handler,
	NMI_Handler,
	HardFault_Handler,
	MemManage_Handler,
	BusFault_Handler,
	UsageFault_Handler,
	0,
	0,
	0,
	0,
	SVC_Handler,
	DebugMon_Handler,
	0,
	PendSV_Handler,
	SysTick_Handler,
	WWDG_IRQHandler,	/* 0 */
	PVD_IRQHandler,	/* 1 */
	TAMP_STAMP_IRQHandler,	/* 2 */
	RTC_WKUP_IRQHandler,	/* 3 */
	FLASH_IRQHandler,	/* 4 */
	RCC_IRQHandler,	/* 5 */
	EXTI0_IRQHandler,	/* 6 */
	EXTI1_IRQHandler,	/* 7 */
	EXTI2_IRQHandler,	/* 8 */
	EXTI3_IRQHandler,	/* 9 */
	EXTI4_IRQHandler,	/* 10 */
	DMA1_Stream0_IRQHandler,	/* 11 */
	DMA1_Stream1_IRQHandler,	/* 12 */
	DMA1_Stream2_IRQHandler,	/* 13 */
	DMA1_Stream3_IRQHandler,	/* 14 */
	DMA1_Stream4_IRQHandler,	/* 15 */
	DMA1_Stream5_IRQHandler,	/* 16 */
	DMA1_Stream6_IRQHandler,	/* 17 */
	ADC_IRQHandler,	/* 18 */
	CAN1_TX_IRQHandler,	/* 19 */
	CAN1_RX0_IRQHandler,	/* 20 */
	CAN1_RX1_IRQHandler,	/* 21 */
	CAN1_SCE_IRQHandler,	/* 22 */
	EXTI9_5_IRQHandler,	/* 23 */
	TIM1_BRK_TIM9_IRQHandler,	/* 24 */
	TIM1_UP_TIM10_IRQHandler,	/* 25 */
	TIM1_TRG_COM_TIM11_IRQHandler,	/* 26 */
	TIM1_CC_IRQHandler,	/* 27 */
	TIM2_IRQHandler,	/* 28 */
	TIM3_IRQHandler,	/* 29 */
	TIM4_IRQHandler,	/* 30 */
	I2C1_EV_IRQHandler,	/* 31 */
	I2C1_ER_IRQHandler,	/* 32 */
	I2C2_EV_IRQHandler,	/* 33 */
	I2C2_ER_IRQHandler,	/* 34 */
	SPI1_IRQHandler,	/* 35 */
	SPI2_IRQHandler,	/* 36 */
	USART1_IRQHandler,	/* 37 */
	USART2_IRQHandler,	/* 38 */
	USART3_IRQHandler,	/* 39 */
	EXTI15_10_IRQHandler,	/* 40 */
	RTC_Alarm_IRQHandler,	/* 41 */
	OTG_FS_WKUP_IRQHandler,	/* 42 */
	TIM8_BRK_TIM12_IRQHandler,	/* 43 */
	TIM8_UP_TIM13_IRQHandler,	/* 44 */
	TIM8_TRG_COM_TIM14_IRQHandler,	/* 45 */
	TIM8_CC_IRQHandler,	/* 46 */
	DMA1_Stream7_IRQHandler,	/* 47 */
	FSMC_IRQHandler,	/* 48 */
	SDIO_IRQHandler,	/* 49 */
	TIM5_IRQHandler,	/* 50 */
	SPI3_IRQHandler,	/* 51 */
	UART4_IRQHandler,	/* 52 */
	UART5_IRQHandler,	/* 53 */
	TIM6_DAC_IRQHandler,	/* 54 */
	TIM7_IRQHandler,	/* 55 */
	DMA2_Stream0_IRQHandler,	/* 56 */
	DMA2_Stream1_IRQHandler,	/* 57 */
	DMA2_Stream2_IRQHandler,	/* 58 */
	DMA2_Stream3_IRQHandler,	/* 59 */
	DMA2_Stream4_IRQHandler,	/* 60 */
	ETH_IRQHandler,	/* 61 */
	ETH_WKUP_IRQHandler,	/* 62 */
	CAN2_TX_IRQHandler,	/* 63 */
	CAN2_RX0_IRQHandler,	/* 64 */
	CAN2_RX1_IRQHandler,	/* 65 */
	CAN2_SCE_IRQHandler,	/* 66 */
	OTG_FS_IRQHandler,	/* 67 */
	DMA2_Stream5_IRQHandler,	/* 68 */
	DMA2_Stream6_IRQHandler,	/* 69 */
	DMA2_Stream7_IRQHandler,	/* 70 */
	USART6_IRQHandler,	/* 71 */
	I2C3_EV_IRQHandler,	/* 72 */
	I2C3_ER_IRQHandler,	/* 73 */
	OTG_HS_EP1_OUT_IRQHandler,	/* 74 */
	OTG_HS_EP1_IN_IRQHandler,	/* 75 */
	OTG_HS_WKUP_IRQHandler,	/* 76 */
	OTG_HS_IRQHandler,	/* 77 */
	DCMI_IRQHandler,	/* 78 */
	0,			/* 79 CRYP: not on the F405/407 */
	HASH_RNG_IRQHandler,	/* 80 */
	FPU_IRQHandler,	/* 81 */
};

/* Why a C part: Reset_Handler itself must not touch the FPU before it
 * is enabled, and the compiler may use FP registers in C code. */
__attribute__((noreturn, used)) static void
assay_start(void)
{
	uint32_t *src = &_sidata, *dst;

	for (dst = &_sdata; dst < &_edata; )
		*dst++ = *src++;
	for (dst = &_sbss; dst < &_ebss; )
		*dst++ = 0;
	SCB->VTOR = (uint32_t)assay_vectors;
	SystemInit();
	initialise_monitor_handles();
	exit(main());
}

__attribute__((naked, noreturn)) void
Reset_Handler(void)
{
	/* CPACR (0xE000ED88) |= CP10 and CP11 full access. */
	__asm__ volatile (
	    "ldr r0, =0xE000ED88\n"
	    "ldr r1, [r0]\n"
	    "orr r1, r1, #(0xF << 20)\n"
	    "str r1, [r0]\n"
	    "dsb\n"
	    "isb\n"
	    "ldr r0, =_estack\n"
	    "mov sp, r0\n"
	    "b assay_start\n");
}

/* Hexadecimal of v into out (8 digits, NUL-terminated). */
static void
hex32(uint32_t v, char *out)
{
	for (int i = 7; i >= 0; i--, v >>= 4)
		out[i] = "0123456789abcdef"[v & 0xF];
	out[8] = '\0';
}

/* "assay: HardFault at pc 0x... (lr 0x..., cfsr 0x..., hfsr 0x...,
 * bfar 0x..., mmfar 0x...)": the stacked frame is r0-r3, r12, lr, pc,
 * xpsr.  Nothing here may use the heap or printf: the fault may have
 * broken them. */
__attribute__((noreturn, used)) static void
assay_fault(const uint32_t *frame)
{
	static const char *const names[] = { "HardFault", "MemManage",
	    "BusFault", "UsageFault" };
	uint32_t ipsr = __get_IPSR() & 0x1FFU;
	const char *name = ipsr >= 3 && ipsr <= 6 ? names[ipsr - 3] :
	    "fault";
	struct {
		const char *label;
		uint32_t value;
	} f[] = {
		{ " at pc 0x", frame[6] },
		{ " (lr 0x", frame[5] },
		{ ", cfsr 0x", SCB->CFSR },
		{ ", hfsr 0x", SCB->HFSR },
		{ ", bfar 0x", SCB->BFAR },
		{ ", mmfar 0x", SCB->MMFAR },
	};
	char hex[9];

	assay_puts("assay: ");
	assay_puts(name);
	for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) {
		assay_puts(f[i].label);
		hex32(f[i].value, hex);
		assay_puts(hex);
	}
	assay_puts(")\n");
	assay_exit(ASSAY_EXIT_FAULT);
}

/* The stacked frame is on the stack the faulting code used: EXC_RETURN
 * bit 2 in lr says which. */
__attribute__((naked)) void
HardFault_Handler(void)
{
	__asm__ volatile (
	    "tst lr, #4\n"
	    "ite eq\n"
	    "mrseq r0, msp\n"
	    "mrsne r0, psp\n"
	    "b assay_fault\n");
}

/* An exception or interrupt enabled without a handler. */
void
Default_Handler(void)
{
	uint32_t n = __get_IPSR() & 0x1FFU;
	char num[4] = { (char)('0' + n / 100), (char)('0' + n / 10 % 10),
	    (char)('0' + n % 10), '\0' };

	assay_puts("assay: unhandled exception ");
	assay_puts(num[0] != '0' ? num : num[1] != '0' ? num + 1 : num + 2);
	assay_puts(" (16 + IRQn for an interrupt): no handler\n");
	assay_exit(ASSAY_EXIT_UNHANDLED);
}
