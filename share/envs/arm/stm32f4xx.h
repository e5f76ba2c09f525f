/*
 * stm32f4xx.h - assay's own device header for the STM32F405/407
 * (Cortex-M4F), standing in for CMSIS and ST's cmsis_device_f4, which
 * Debian does not package.
 *
 * It declares the peripherals firmware samples use most, as register
 * structs at the addresses of the reference manual (RM0090, section 2.3
 * "Memory map", and each peripheral's register map) under the CMSIS
 * names, so that code written against ST's header compiles unchanged:
 * RCC->AHB1ENR, GPIOA->MODER, GPIOA->BSRR, USART1->DR, SysTick->LOAD,
 * NVIC_EnableIRQ(), RCC_AHB1ENR_GPIOAEN, GPIO_MODER_MODER5_0,
 * USART_SR_TXE ...  The core part follows ARM's Cortex-M4 Technical
 * Reference Manual and the ARMv7-M Architecture Reference Manual (SCB,
 * NVIC, SysTick, the FPU's CPACR).  It is a subset: no HAL, no LL, no
 * StdPeriph library, and not every bit of every register.  A name it
 * lacks is a compile error on the candidate's line.
 */
#ifndef ASSAY_STM32F4XX_H
#define ASSAY_STM32F4XX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(STM32F405xx) && !defined(STM32F407xx) && \
    !defined(STM32F415xx) && !defined(STM32F417xx)
#define STM32F405xx
#endif
#define STM32F4

/* --- CMSIS access qualifiers and helpers ------------------------------ */

#define __I	volatile const
#define __O	volatile
#define __IO	volatile
#define __IM	volatile const
#define __OM	volatile
#define __IOM	volatile

#define __CM4_REV		0x0001U
#define __MPU_PRESENT		1U
#define __NVIC_PRIO_BITS	4U
#define __Vendor_SysTickConfig	0U
#define __FPU_PRESENT		1U

#define SET_BIT(REG, BIT)	((REG) |= (BIT))
#define CLEAR_BIT(REG, BIT)	((REG) &= ~(BIT))
#define READ_BIT(REG, BIT)	((REG) & (BIT))
#define CLEAR_REG(REG)		((REG) = (0x0))
#define WRITE_REG(REG, VAL)	((REG) = (VAL))
#define READ_REG(REG)		((REG))
#define MODIFY_REG(REG, CLEARMASK, SETMASK) \
	WRITE_REG((REG), (((READ_REG(REG)) & (~(CLEARMASK))) | (SETMASK)))
#define POSITION_VAL(VAL)	(__builtin_ctz(VAL))

typedef enum { RESET = 0U, SET = !RESET } FlagStatus, ITStatus;
typedef enum { DISABLE = 0U, ENABLE = !DISABLE } FunctionalState;
#define IS_FUNCTIONAL_STATE(STATE) (((STATE) == DISABLE) || ((STATE) == ENABLE))
typedef enum { SUCCESS = 0U, ERROR = !SUCCESS } ErrorStatus;

/* --- interrupt numbers (RM0090 table 61, STM32F405/407) --------------- */

typedef enum {
	NonMaskableInt_IRQn = -14,
	MemoryManagement_IRQn = -12,
	BusFault_IRQn = -11,
	UsageFault_IRQn = -10,
	SVCall_IRQn = -5,
	DebugMonitor_IRQn = -4,
	PendSV_IRQn = -2,
	SysTick_IRQn = -1,
	WWDG_IRQn = 0,
	PVD_IRQn = 1,
	TAMP_STAMP_IRQn = 2,
	RTC_WKUP_IRQn = 3,
	FLASH_IRQn = 4,
	RCC_IRQn = 5,
	EXTI0_IRQn = 6,
	EXTI1_IRQn = 7,
	EXTI2_IRQn = 8,
	EXTI3_IRQn = 9,
	EXTI4_IRQn = 10,
	DMA1_Stream0_IRQn = 11,
	DMA1_Stream1_IRQn = 12,
	DMA1_Stream2_IRQn = 13,
	DMA1_Stream3_IRQn = 14,
	DMA1_Stream4_IRQn = 15,
	DMA1_Stream5_IRQn = 16,
	DMA1_Stream6_IRQn = 17,
	ADC_IRQn = 18,
	CAN1_TX_IRQn = 19,
	CAN1_RX0_IRQn = 20,
	CAN1_RX1_IRQn = 21,
	CAN1_SCE_IRQn = 22,
	EXTI9_5_IRQn = 23,
	TIM1_BRK_TIM9_IRQn = 24,
	TIM1_UP_TIM10_IRQn = 25,
	TIM1_TRG_COM_TIM11_IRQn = 26,
	TIM1_CC_IRQn = 27,
	TIM2_IRQn = 28,
	TIM3_IRQn = 29,
	TIM4_IRQn = 30,
	I2C1_EV_IRQn = 31,
	I2C1_ER_IRQn = 32,
	I2C2_EV_IRQn = 33,
	I2C2_ER_IRQn = 34,
	SPI1_IRQn = 35,
	SPI2_IRQn = 36,
	USART1_IRQn = 37,
	USART2_IRQn = 38,
	USART3_IRQn = 39,
	EXTI15_10_IRQn = 40,
	RTC_Alarm_IRQn = 41,
	OTG_FS_WKUP_IRQn = 42,
	TIM8_BRK_TIM12_IRQn = 43,
	TIM8_UP_TIM13_IRQn = 44,
	TIM8_TRG_COM_TIM14_IRQn = 45,
	TIM8_CC_IRQn = 46,
	DMA1_Stream7_IRQn = 47,
	FSMC_IRQn = 48,
	SDIO_IRQn = 49,
	TIM5_IRQn = 50,
	SPI3_IRQn = 51,
	UART4_IRQn = 52,
	UART5_IRQn = 53,
	TIM6_DAC_IRQn = 54,
	TIM7_IRQn = 55,
	DMA2_Stream0_IRQn = 56,
	DMA2_Stream1_IRQn = 57,
	DMA2_Stream2_IRQn = 58,
	DMA2_Stream3_IRQn = 59,
	DMA2_Stream4_IRQn = 60,
	ETH_IRQn = 61,
	ETH_WKUP_IRQn = 62,
	CAN2_TX_IRQn = 63,
	CAN2_RX0_IRQn = 64,
	CAN2_RX1_IRQn = 65,
	CAN2_SCE_IRQn = 66,
	OTG_FS_IRQn = 67,
	DMA2_Stream5_IRQn = 68,
	DMA2_Stream6_IRQn = 69,
	DMA2_Stream7_IRQn = 70,
	USART6_IRQn = 71,
	I2C3_EV_IRQn = 72,
	I2C3_ER_IRQn = 73,
	OTG_HS_EP1_OUT_IRQn = 74,
	OTG_HS_EP1_IN_IRQn = 75,
	OTG_HS_WKUP_IRQn = 76,
	OTG_HS_IRQn = 77,
	DCMI_IRQn = 78,
	HASH_RNG_IRQn = 80,
	FPU_IRQn = 81
} IRQn_Type;

/* --- core peripherals (ARMv7-M ARM, Cortex-M4 TRM) -------------------- */

typedef struct {
	__IOM uint32_t ISER[8];		/* 0x000 set-enable */
	uint32_t RESERVED0[24];
	__IOM uint32_t ICER[8];		/* 0x080 clear-enable */
	uint32_t RESERVED1[24];
	__IOM uint32_t ISPR[8];		/* 0x100 set-pending */
	uint32_t RESERVED2[24];
	__IOM uint32_t ICPR[8];		/* 0x180 clear-pending */
	uint32_t RESERVED3[24];
	__IOM uint32_t IABR[8];		/* 0x200 active */
	uint32_t RESERVED4[56];
	__IOM uint8_t IP[240];		/* 0x300 priority, one byte each */
	uint32_t RESERVED5[644];
	__OM uint32_t STIR;		/* 0xE00 software trigger */
} NVIC_Type;

typedef struct {
	__IM uint32_t CPUID;		/* 0x00 */
	__IOM uint32_t ICSR;		/* 0x04 */
	__IOM uint32_t VTOR;		/* 0x08 */
	__IOM uint32_t AIRCR;		/* 0x0C */
	__IOM uint32_t SCR;		/* 0x10 */
	__IOM uint32_t CCR;		/* 0x14 */
	__IOM uint8_t SHP[12];		/* 0x18 system handler priorities */
	__IOM uint32_t SHCSR;		/* 0x24 */
	__IOM uint32_t CFSR;		/* 0x28 configurable fault status */
	__IOM uint32_t HFSR;		/* 0x2C hard fault status */
	__IOM uint32_t DFSR;		/* 0x30 */
	__IOM uint32_t MMFAR;		/* 0x34 */
	__IOM uint32_t BFAR;		/* 0x38 */
	__IOM uint32_t AFSR;		/* 0x3C */
	__IM uint32_t PFR[2];		/* 0x40 */
	__IM uint32_t DFR;		/* 0x48 */
	__IM uint32_t ADR;		/* 0x4C */
	__IM uint32_t MMFR[4];		/* 0x50 */
	__IM uint32_t ISAR[5];		/* 0x60 */
	uint32_t RESERVED0[5];
	__IOM uint32_t CPACR;		/* 0x88 coprocessor access (FPU) */
} SCB_Type;

typedef struct {
	__IOM uint32_t CTRL;		/* 0x00 */
	__IOM uint32_t LOAD;		/* 0x04 */
	__IOM uint32_t VAL;		/* 0x08 */
	__IM uint32_t CALIB;		/* 0x0C */
} SysTick_Type;

#define SCS_BASE	(0xE000E000UL)
#define SysTick_BASE	(SCS_BASE + 0x0010UL)
#define NVIC_BASE	(SCS_BASE + 0x0100UL)
#define SCB_BASE	(SCS_BASE + 0x0D00UL)
#define SCB		((SCB_Type *)SCB_BASE)
#define SysTick		((SysTick_Type *)SysTick_BASE)
#define NVIC		((NVIC_Type *)NVIC_BASE)

#define SysTick_CTRL_ENABLE_Pos		0U
#define SysTick_CTRL_ENABLE_Msk		(1UL << 0)
#define SysTick_CTRL_TICKINT_Pos	1U
#define SysTick_CTRL_TICKINT_Msk	(1UL << 1)
#define SysTick_CTRL_CLKSOURCE_Pos	2U
#define SysTick_CTRL_CLKSOURCE_Msk	(1UL << 2)
#define SysTick_CTRL_COUNTFLAG_Pos	16U
#define SysTick_CTRL_COUNTFLAG_Msk	(1UL << 16)
#define SysTick_LOAD_RELOAD_Pos		0U
#define SysTick_LOAD_RELOAD_Msk		(0xFFFFFFUL)
#define SysTick_VAL_CURRENT_Msk		(0xFFFFFFUL)

#define SCB_ICSR_PENDSVSET_Msk		(1UL << 28)
#define SCB_ICSR_PENDSTSET_Msk		(1UL << 26)
#define SCB_ICSR_VECTACTIVE_Msk		(0x1FFUL)
#define SCB_AIRCR_VECTKEY_Pos		16U
#define SCB_AIRCR_VECTKEY_Msk		(0xFFFFUL << 16)
#define SCB_AIRCR_PRIGROUP_Pos		8U
#define SCB_AIRCR_PRIGROUP_Msk		(7UL << 8)
#define SCB_AIRCR_SYSRESETREQ_Msk	(1UL << 2)
#define SCB_SCR_SLEEPDEEP_Msk		(1UL << 2)
#define SCB_SCR_SLEEPONEXIT_Msk		(1UL << 1)
#define SCB_CCR_DIV_0_TRP_Msk		(1UL << 4)
#define SCB_CCR_UNALIGN_TRP_Msk		(1UL << 3)
#define SCB_SHCSR_USGFAULTENA_Msk	(1UL << 18)
#define SCB_SHCSR_BUSFAULTENA_Msk	(1UL << 17)
#define SCB_SHCSR_MEMFAULTENA_Msk	(1UL << 16)

/* --- core intrinsics (CMSIS cmsis_gcc.h names) ------------------------ */

#define __ASM		__asm
#define __INLINE	inline
#define __STATIC_INLINE	static inline
#define __STATIC_FORCEINLINE \
	__attribute__((always_inline)) static inline
#define __WEAK		__attribute__((weak))
#define __PACKED	__attribute__((packed, aligned(1)))
#define __ALIGNED(x)	__attribute__((aligned(x)))
#define __NO_RETURN	__attribute__((__noreturn__))
#define __USED		__attribute__((used))

/* A core instruction as a function: __enable_irq() is "cpsie i". */
#define ASSAY_INSN(name, insn) \
	__STATIC_FORCEINLINE void name(void) \
	{ \
		__ASM volatile (insn ::: "memory"); \
	}

ASSAY_INSN(__enable_irq, "cpsie i")
ASSAY_INSN(__disable_irq, "cpsid i")
ASSAY_INSN(__enable_fault_irq, "cpsie f")
ASSAY_INSN(__disable_fault_irq, "cpsid f")
ASSAY_INSN(__NOP, "nop")
ASSAY_INSN(__WFI, "wfi")
ASSAY_INSN(__WFE, "wfe")
ASSAY_INSN(__SEV, "sev")
ASSAY_INSN(__ISB, "isb 0xF")
ASSAY_INSN(__DSB, "dsb 0xF")
ASSAY_INSN(__DMB, "dmb 0xF")
ASSAY_INSN(__BKPT, "bkpt 0")

__STATIC_FORCEINLINE uint32_t
__get_PRIMASK(void)
{
	uint32_t r;

	__ASM volatile ("mrs %0, primask" : "=r" (r) :: "memory");
	return r;
}

__STATIC_FORCEINLINE void
__set_PRIMASK(uint32_t v)
{
	__ASM volatile ("msr primask, %0" :: "r" (v) : "memory");
}

__STATIC_FORCEINLINE uint32_t
__get_IPSR(void)
{
	uint32_t r;

	__ASM volatile ("mrs %0, ipsr" : "=r" (r));
	return r;
}

__STATIC_FORCEINLINE uint32_t
__get_MSP(void)
{
	uint32_t r;

	__ASM volatile ("mrs %0, msp" : "=r" (r));
	return r;
}

__STATIC_FORCEINLINE uint32_t
__get_CONTROL(void)
{
	uint32_t r;

	__ASM volatile ("mrs %0, control" : "=r" (r));
	return r;
}

__STATIC_FORCEINLINE uint32_t
__REV(uint32_t v)
{
	return __builtin_bswap32(v);
}

__STATIC_FORCEINLINE uint32_t
__RBIT(uint32_t v)
{
	uint32_t r;

	__ASM volatile ("rbit %0, %1" : "=r" (r) : "r" (v));
	return r;
}
__STATIC_FORCEINLINE uint8_t
__CLZ(uint32_t v)
{
	return v == 0U ? 32U : (uint8_t)__builtin_clz(v);
}

/* --- NVIC and SysTick functions (CMSIS core_cm4.h names) -------------- */

/* The word and the bit of an interrupt in ISER, ICER, ISPR, ICPR. */
#define ASSAY_NVIC_WORD(IRQn)	((uint32_t)(IRQn) >> 5)
#define ASSAY_NVIC_BIT(IRQn)	(1UL << ((uint32_t)(IRQn) & 0x1FUL))

__STATIC_INLINE void
NVIC_EnableIRQ(IRQn_Type IRQn)
{
	if ((int32_t)IRQn >= 0)
		NVIC->ISER[ASSAY_NVIC_WORD(IRQn)] = ASSAY_NVIC_BIT(IRQn);
}

__STATIC_INLINE void
NVIC_DisableIRQ(IRQn_Type IRQn)
{
	if ((int32_t)IRQn >= 0) {
		NVIC->ICER[ASSAY_NVIC_WORD(IRQn)] = ASSAY_NVIC_BIT(IRQn);
		__DSB();
		__ISB();
	}
}

__STATIC_INLINE uint32_t
NVIC_GetEnableIRQ(IRQn_Type IRQn)
{
	if ((int32_t)IRQn < 0)
		return 0U;
	return (NVIC->ISER[ASSAY_NVIC_WORD(IRQn)] & ASSAY_NVIC_BIT(IRQn)) !=
	    0UL;
}

__STATIC_INLINE void
NVIC_SetPendingIRQ(IRQn_Type IRQn)
{
	if ((int32_t)IRQn >= 0)
		NVIC->ISPR[ASSAY_NVIC_WORD(IRQn)] = ASSAY_NVIC_BIT(IRQn);
}

__STATIC_INLINE void
NVIC_ClearPendingIRQ(IRQn_Type IRQn)
{
	if ((int32_t)IRQn >= 0)
		NVIC->ICPR[ASSAY_NVIC_WORD(IRQn)] = ASSAY_NVIC_BIT(IRQn);
}

__STATIC_INLINE void
NVIC_SetPriority(IRQn_Type IRQn, uint32_t priority)
{
	uint8_t p = (uint8_t)((priority << (8U - __NVIC_PRIO_BITS)) & 0xFFUL);

	if ((int32_t)IRQn >= 0)
		NVIC->IP[(uint32_t)IRQn] = p;
	else
		SCB->SHP[((uint32_t)IRQn & 0xFUL) - 4UL] = p;
}

__STATIC_INLINE uint32_t
NVIC_GetPriority(IRQn_Type IRQn)
{
	if ((int32_t)IRQn >= 0)
		return (uint32_t)NVIC->IP[(uint32_t)IRQn] >>
		    (8U - __NVIC_PRIO_BITS);
	return (uint32_t)SCB->SHP[((uint32_t)IRQn & 0xFUL) - 4UL] >>
	    (8U - __NVIC_PRIO_BITS);
}

__STATIC_INLINE void
NVIC_SetPriorityGrouping(uint32_t group)
{
	uint32_t v = SCB->AIRCR;

	v &= ~(SCB_AIRCR_VECTKEY_Msk | SCB_AIRCR_PRIGROUP_Msk);
	v |= (0x5FAUL << SCB_AIRCR_VECTKEY_Pos) | ((group & 7UL) <<
	    SCB_AIRCR_PRIGROUP_Pos);
	SCB->AIRCR = v;
}

/* Reload value ticks - 1, lowest priority, interrupt on: 0, or 1 when
 * ticks does not fit in 24 bits (CMSIS SysTick_Config). */
__STATIC_INLINE uint32_t
SysTick_Config(uint32_t ticks)
{
	if (ticks - 1UL > SysTick_LOAD_RELOAD_Msk)
		return 1UL;
	SysTick->LOAD = ticks - 1UL;
	NVIC_SetPriority(SysTick_IRQn, (1UL << __NVIC_PRIO_BITS) - 1UL);
	SysTick->VAL = 0UL;
	SysTick->CTRL = SysTick_CTRL_CLKSOURCE_Msk | SysTick_CTRL_TICKINT_Msk |
	    SysTick_CTRL_ENABLE_Msk;
	return 0UL;
}

/* system_stm32f4xx.c: the startup code provides weak versions.  The
 * clock stays the 16 MHz HSI unless the firmware changes it. */
extern uint32_t SystemCoreClock;
void SystemInit(void);
void SystemCoreClockUpdate(void);

/* --- device peripherals (RM0090) -------------------------------------- */

typedef struct {
	__IO uint32_t CR;		/* 0x00 clock control */
	__IO uint32_t PLLCFGR;		/* 0x04 PLL configuration */
	__IO uint32_t CFGR;		/* 0x08 clock configuration */
	__IO uint32_t CIR;		/* 0x0C clock interrupt */
	__IO uint32_t AHB1RSTR;		/* 0x10 */
	__IO uint32_t AHB2RSTR;		/* 0x14 */
	__IO uint32_t AHB3RSTR;		/* 0x18 */
	uint32_t RESERVED0;		/* 0x1C */
	__IO uint32_t APB1RSTR;		/* 0x20 */
	__IO uint32_t APB2RSTR;		/* 0x24 */
	uint32_t RESERVED1[2];		/* 0x28 */
	__IO uint32_t AHB1ENR;		/* 0x30 AHB1 peripheral clock enable */
	__IO uint32_t AHB2ENR;		/* 0x34 */
	__IO uint32_t AHB3ENR;		/* 0x38 */
	uint32_t RESERVED2;		/* 0x3C */
	__IO uint32_t APB1ENR;		/* 0x40 APB1 peripheral clock enable */
	__IO uint32_t APB2ENR;		/* 0x44 APB2 peripheral clock enable */
	uint32_t RESERVED3[2];		/* 0x48 */
	__IO uint32_t AHB1LPENR;	/* 0x50 */
	__IO uint32_t AHB2LPENR;	/* 0x54 */
	__IO uint32_t AHB3LPENR;	/* 0x58 */
	uint32_t RESERVED4;		/* 0x5C */
	__IO uint32_t APB1LPENR;	/* 0x60 */
	__IO uint32_t APB2LPENR;	/* 0x64 */
	uint32_t RESERVED5[2];		/* 0x68 */
	__IO uint32_t BDCR;		/* 0x70 backup domain control */
	__IO uint32_t CSR;		/* 0x74 clock control & status */
	uint32_t RESERVED6[2];		/* 0x78 */
	__IO uint32_t SSCGR;		/* 0x80 */
	__IO uint32_t PLLI2SCFGR;	/* 0x84 */
} RCC_TypeDef;

typedef struct {
	__IO uint32_t MODER;		/* 0x00 mode */
	__IO uint32_t OTYPER;		/* 0x04 output type */
	__IO uint32_t OSPEEDR;		/* 0x08 output speed */
	__IO uint32_t PUPDR;		/* 0x0C pull-up/pull-down */
	__IO uint32_t IDR;		/* 0x10 input data */
	__IO uint32_t ODR;		/* 0x14 output data */
	union {
		__IO uint32_t BSRR;	/* 0x18 bit set/reset */
		struct {		/* older CMSIS: two halfwords */
			__IO uint16_t BSRRL;
			__IO uint16_t BSRRH;
		};
	};
	__IO uint32_t LCKR;		/* 0x1C lock */
	__IO uint32_t AFR[2];		/* 0x20 alternate function low, high */
} GPIO_TypeDef;

typedef struct {
	__IO uint32_t SR;		/* 0x00 status */
	__IO uint32_t DR;		/* 0x04 data */
	__IO uint32_t BRR;		/* 0x08 baud rate */
	__IO uint32_t CR1;		/* 0x0C control 1 */
	__IO uint32_t CR2;		/* 0x10 control 2 */
	__IO uint32_t CR3;		/* 0x14 control 3 */
	__IO uint32_t GTPR;		/* 0x18 guard time and prescaler */
} USART_TypeDef;

typedef struct {
	__IO uint32_t CR1;		/* 0x00 */
	__IO uint32_t CR2;		/* 0x04 */
	__IO uint32_t SMCR;		/* 0x08 */
	__IO uint32_t DIER;		/* 0x0C DMA/interrupt enable */
	__IO uint32_t SR;		/* 0x10 status */
	__IO uint32_t EGR;		/* 0x14 event generation */
	__IO uint32_t CCMR1;		/* 0x18 */
	__IO uint32_t CCMR2;		/* 0x1C */
	__IO uint32_t CCER;		/* 0x20 */
	__IO uint32_t CNT;		/* 0x24 counter */
	__IO uint32_t PSC;		/* 0x28 prescaler */
	__IO uint32_t ARR;		/* 0x2C auto-reload */
	__IO uint32_t RCR;		/* 0x30 */
	__IO uint32_t CCR1;		/* 0x34 */
	__IO uint32_t CCR2;		/* 0x38 */
	__IO uint32_t CCR3;		/* 0x3C */
	__IO uint32_t CCR4;		/* 0x40 */
	__IO uint32_t BDTR;		/* 0x44 */
	__IO uint32_t DCR;		/* 0x48 */
	__IO uint32_t DMAR;		/* 0x4C */
	__IO uint32_t OR;		/* 0x50 */
} TIM_TypeDef;

typedef struct {
	__IO uint32_t CR1;		/* 0x00 */
	__IO uint32_t CR2;		/* 0x04 */
	__IO uint32_t SR;		/* 0x08 status */
	__IO uint32_t DR;		/* 0x0C data */
	__IO uint32_t CRCPR;		/* 0x10 */
	__IO uint32_t RXCRCR;		/* 0x14 */
	__IO uint32_t TXCRCR;		/* 0x18 */
	__IO uint32_t I2SCFGR;		/* 0x1C */
	__IO uint32_t I2SPR;		/* 0x20 */
} SPI_TypeDef;

typedef struct {
	__IO uint32_t CR1;		/* 0x00 */
	__IO uint32_t CR2;		/* 0x04 */
	__IO uint32_t OAR1;		/* 0x08 */
	__IO uint32_t OAR2;		/* 0x0C */
	__IO uint32_t DR;		/* 0x10 */
	__IO uint32_t SR1;		/* 0x14 */
	__IO uint32_t SR2;		/* 0x18 */
	__IO uint32_t CCR;		/* 0x1C */
	__IO uint32_t TRISE;		/* 0x20 */
	__IO uint32_t FLTR;		/* 0x24 */
} I2C_TypeDef;

typedef struct {
	__IO uint32_t ACR;		/* 0x00 access control (latency) */
	__IO uint32_t KEYR;		/* 0x04 */
	__IO uint32_t OPTKEYR;		/* 0x08 */
	__IO uint32_t SR;		/* 0x0C */
	__IO uint32_t CR;		/* 0x10 */
	__IO uint32_t OPTCR;		/* 0x14 */
} FLASH_TypeDef;

typedef struct {
	__IO uint32_t CR;		/* 0x00 power control */
	__IO uint32_t CSR;		/* 0x04 power control/status */
} PWR_TypeDef;

typedef struct {
	__IO uint32_t IMR;		/* 0x00 interrupt mask */
	__IO uint32_t EMR;		/* 0x04 event mask */
	__IO uint32_t RTSR;		/* 0x08 rising trigger */
	__IO uint32_t FTSR;		/* 0x0C falling trigger */
	__IO uint32_t SWIER;		/* 0x10 software interrupt event */
	__IO uint32_t PR;		/* 0x14 pending */
} EXTI_TypeDef;

typedef struct {
	__IO uint32_t MEMRMP;		/* 0x00 memory remap */
	__IO uint32_t PMC;		/* 0x04 peripheral mode */
	__IO uint32_t EXTICR[4];	/* 0x08 external interrupt config */
	uint32_t RESERVED[2];		/* 0x18 */
	__IO uint32_t CMPCR;		/* 0x20 compensation cell */
} SYSCFG_TypeDef;

#define FLASH_BASE	0x08000000UL
#define SRAM1_BASE	0x20000000UL
#define PERIPH_BASE	0x40000000UL
#define APB1PERIPH_BASE	PERIPH_BASE
#define APB2PERIPH_BASE	(PERIPH_BASE + 0x00010000UL)
#define AHB1PERIPH_BASE	(PERIPH_BASE + 0x00020000UL)

#define TIM2_BASE	(APB1PERIPH_BASE + 0x0000UL)
#define TIM3_BASE	(APB1PERIPH_BASE + 0x0400UL)
#define TIM4_BASE	(APB1PERIPH_BASE + 0x0800UL)
#define TIM5_BASE	(APB1PERIPH_BASE + 0x0C00UL)
#define TIM6_BASE	(APB1PERIPH_BASE + 0x1000UL)
#define TIM7_BASE	(APB1PERIPH_BASE + 0x1400UL)
#define TIM12_BASE	(APB1PERIPH_BASE + 0x1800UL)
#define TIM13_BASE	(APB1PERIPH_BASE + 0x1C00UL)
#define TIM14_BASE	(APB1PERIPH_BASE + 0x2000UL)
#define SPI2_BASE	(APB1PERIPH_BASE + 0x3800UL)
#define SPI3_BASE	(APB1PERIPH_BASE + 0x3C00UL)
#define USART2_BASE	(APB1PERIPH_BASE + 0x4400UL)
#define USART3_BASE	(APB1PERIPH_BASE + 0x4800UL)
#define UART4_BASE	(APB1PERIPH_BASE + 0x4C00UL)
#define UART5_BASE	(APB1PERIPH_BASE + 0x5000UL)
#define I2C1_BASE	(APB1PERIPH_BASE + 0x5400UL)
#define I2C2_BASE	(APB1PERIPH_BASE + 0x5800UL)
#define I2C3_BASE	(APB1PERIPH_BASE + 0x5C00UL)
#define PWR_BASE	(APB1PERIPH_BASE + 0x7000UL)
#define TIM1_BASE	(APB2PERIPH_BASE + 0x0000UL)
#define TIM8_BASE	(APB2PERIPH_BASE + 0x0400UL)
#define USART1_BASE	(APB2PERIPH_BASE + 0x1000UL)
#define USART6_BASE	(APB2PERIPH_BASE + 0x1400UL)
#define SPI1_BASE	(APB2PERIPH_BASE + 0x3000UL)
#define SYSCFG_BASE	(APB2PERIPH_BASE + 0x3800UL)
#define EXTI_BASE	(APB2PERIPH_BASE + 0x3C00UL)
#define TIM9_BASE	(APB2PERIPH_BASE + 0x4000UL)
#define TIM10_BASE	(APB2PERIPH_BASE + 0x4400UL)
#define TIM11_BASE	(APB2PERIPH_BASE + 0x4800UL)
#define GPIOA_BASE	(AHB1PERIPH_BASE + 0x0000UL)
#define GPIOB_BASE	(AHB1PERIPH_BASE + 0x0400UL)
#define GPIOC_BASE	(AHB1PERIPH_BASE + 0x0800UL)
#define GPIOD_BASE	(AHB1PERIPH_BASE + 0x0C00UL)
#define GPIOE_BASE	(AHB1PERIPH_BASE + 0x1000UL)
#define GPIOF_BASE	(AHB1PERIPH_BASE + 0x1400UL)
#define GPIOG_BASE	(AHB1PERIPH_BASE + 0x1800UL)
#define GPIOH_BASE	(AHB1PERIPH_BASE + 0x1C00UL)
#define GPIOI_BASE	(AHB1PERIPH_BASE + 0x2000UL)
#define RCC_BASE	(AHB1PERIPH_BASE + 0x3800UL)
#define FLASH_R_BASE	(AHB1PERIPH_BASE + 0x3C00UL)

#define TIM2		((TIM_TypeDef *)TIM2_BASE)
#define TIM3		((TIM_TypeDef *)TIM3_BASE)
#define TIM4		((TIM_TypeDef *)TIM4_BASE)
#define TIM5		((TIM_TypeDef *)TIM5_BASE)
#define TIM6		((TIM_TypeDef *)TIM6_BASE)
#define TIM7		((TIM_TypeDef *)TIM7_BASE)
#define TIM12		((TIM_TypeDef *)TIM12_BASE)
#define TIM13		((TIM_TypeDef *)TIM13_BASE)
#define TIM14		((TIM_TypeDef *)TIM14_BASE)
#define TIM1		((TIM_TypeDef *)TIM1_BASE)
#define TIM8		((TIM_TypeDef *)TIM8_BASE)
#define TIM9		((TIM_TypeDef *)TIM9_BASE)
#define TIM10		((TIM_TypeDef *)TIM10_BASE)
#define TIM11		((TIM_TypeDef *)TIM11_BASE)
#define SPI1		((SPI_TypeDef *)SPI1_BASE)
#define SPI2		((SPI_TypeDef *)SPI2_BASE)
#define SPI3		((SPI_TypeDef *)SPI3_BASE)
#define I2C1		((I2C_TypeDef *)I2C1_BASE)
#define I2C2		((I2C_TypeDef *)I2C2_BASE)
#define I2C3		((I2C_TypeDef *)I2C3_BASE)
#define USART2		((USART_TypeDef *)USART2_BASE)
#define USART3		((USART_TypeDef *)USART3_BASE)
#define UART4		((USART_TypeDef *)UART4_BASE)
#define UART5		((USART_TypeDef *)UART5_BASE)
#define PWR		((PWR_TypeDef *)PWR_BASE)
#define USART1		((USART_TypeDef *)USART1_BASE)
#define USART6		((USART_TypeDef *)USART6_BASE)
#define SYSCFG		((SYSCFG_TypeDef *)SYSCFG_BASE)
#define EXTI		((EXTI_TypeDef *)EXTI_BASE)
#define GPIOA		((GPIO_TypeDef *)GPIOA_BASE)
#define GPIOB		((GPIO_TypeDef *)GPIOB_BASE)
#define GPIOC		((GPIO_TypeDef *)GPIOC_BASE)
#define GPIOD		((GPIO_TypeDef *)GPIOD_BASE)
#define GPIOE		((GPIO_TypeDef *)GPIOE_BASE)
#define GPIOF		((GPIO_TypeDef *)GPIOF_BASE)
#define GPIOG		((GPIO_TypeDef *)GPIOG_BASE)
#define GPIOH		((GPIO_TypeDef *)GPIOH_BASE)
#define GPIOI		((GPIO_TypeDef *)GPIOI_BASE)
#define RCC		((RCC_TypeDef *)RCC_BASE)
#define FLASH		((FLASH_TypeDef *)FLASH_R_BASE)

/* --- RCC bits (RM0090 section 7.3) ------------------------------------ */

#define RCC_CR_HSION		(1UL << 0)
#define RCC_CR_HSIRDY		(1UL << 1)
#define RCC_CR_HSEON		(1UL << 16)
#define RCC_CR_HSERDY		(1UL << 17)
#define RCC_CR_HSEBYP		(1UL << 18)
#define RCC_CR_CSSON		(1UL << 19)
#define RCC_CR_PLLON		(1UL << 24)
#define RCC_CR_PLLRDY		(1UL << 25)
#define RCC_CR_PLLI2SON		(1UL << 26)
#define RCC_CR_PLLI2SRDY	(1UL << 27)

#define RCC_PLLCFGR_PLLM_Pos	0U
#define RCC_PLLCFGR_PLLM	(0x3FUL << 0)
#define RCC_PLLCFGR_PLLN_Pos	6U
#define RCC_PLLCFGR_PLLN	(0x1FFUL << 6)
#define RCC_PLLCFGR_PLLP_Pos	16U
#define RCC_PLLCFGR_PLLP	(0x3UL << 16)
#define RCC_PLLCFGR_PLLSRC_Pos	22U
#define RCC_PLLCFGR_PLLSRC	(1UL << 22)
#define RCC_PLLCFGR_PLLSRC_HSE	(1UL << 22)
#define RCC_PLLCFGR_PLLSRC_HSI	0UL
#define RCC_PLLCFGR_PLLQ_Pos	24U
#define RCC_PLLCFGR_PLLQ	(0xFUL << 24)

#define RCC_CFGR_SW		(0x3UL << 0)
#define RCC_CFGR_SW_HSI		0x0UL
#define RCC_CFGR_SW_HSE		0x1UL
#define RCC_CFGR_SW_PLL		0x2UL
#define RCC_CFGR_SWS		(0x3UL << 2)
#define RCC_CFGR_SWS_HSI	0x0UL
#define RCC_CFGR_SWS_HSE	0x4UL
#define RCC_CFGR_SWS_PLL	0x8UL
#define RCC_CFGR_HPRE		(0xFUL << 4)
#define RCC_CFGR_HPRE_DIV1	0x00UL
#define RCC_CFGR_HPRE_DIV2	0x80UL
#define RCC_CFGR_HPRE_DIV4	0x90UL
#define RCC_CFGR_PPRE1		(0x7UL << 10)
#define RCC_CFGR_PPRE1_DIV1	0x0000UL
#define RCC_CFGR_PPRE1_DIV2	0x1000UL
#define RCC_CFGR_PPRE1_DIV4	0x1400UL
#define RCC_CFGR_PPRE1_DIV8	0x1800UL
#define RCC_CFGR_PPRE2		(0x7UL << 13)
#define RCC_CFGR_PPRE2_DIV1	0x0000UL
#define RCC_CFGR_PPRE2_DIV2	0x8000UL
#define RCC_CFGR_PPRE2_DIV4	0xA000UL
#define RCC_CFGR_PPRE2_DIV8	0xC000UL

#define RCC_AHB1ENR_GPIOAEN	(1UL << 0)
#define RCC_AHB1ENR_GPIOBEN	(1UL << 1)
#define RCC_AHB1ENR_GPIOCEN	(1UL << 2)
#define RCC_AHB1ENR_GPIODEN	(1UL << 3)
#define RCC_AHB1ENR_GPIOEEN	(1UL << 4)
#define RCC_AHB1ENR_GPIOFEN	(1UL << 5)
#define RCC_AHB1ENR_GPIOGEN	(1UL << 6)
#define RCC_AHB1ENR_GPIOHEN	(1UL << 7)
#define RCC_AHB1ENR_GPIOIEN	(1UL << 8)
#define RCC_AHB1ENR_CRCEN	(1UL << 12)
#define RCC_AHB1ENR_BKPSRAMEN	(1UL << 18)
#define RCC_AHB1ENR_CCMDATARAMEN (1UL << 20)
#define RCC_AHB1ENR_DMA1EN	(1UL << 21)
#define RCC_AHB1ENR_DMA2EN	(1UL << 22)

#define RCC_APB1ENR_TIM2EN	(1UL << 0)
#define RCC_APB1ENR_TIM3EN	(1UL << 1)
#define RCC_APB1ENR_TIM4EN	(1UL << 2)
#define RCC_APB1ENR_TIM5EN	(1UL << 3)
#define RCC_APB1ENR_TIM6EN	(1UL << 4)
#define RCC_APB1ENR_TIM7EN	(1UL << 5)
#define RCC_APB1ENR_WWDGEN	(1UL << 11)
#define RCC_APB1ENR_SPI2EN	(1UL << 14)
#define RCC_APB1ENR_SPI3EN	(1UL << 15)
#define RCC_APB1ENR_USART2EN	(1UL << 17)
#define RCC_APB1ENR_USART3EN	(1UL << 18)
#define RCC_APB1ENR_UART4EN	(1UL << 19)
#define RCC_APB1ENR_UART5EN	(1UL << 20)
#define RCC_APB1ENR_I2C1EN	(1UL << 21)
#define RCC_APB1ENR_I2C2EN	(1UL << 22)
#define RCC_APB1ENR_I2C3EN	(1UL << 23)
#define RCC_APB1ENR_CAN1EN	(1UL << 25)
#define RCC_APB1ENR_CAN2EN	(1UL << 26)
#define RCC_APB1ENR_PWREN	(1UL << 28)
#define RCC_APB1ENR_DACEN	(1UL << 29)

#define RCC_APB2ENR_TIM1EN	(1UL << 0)
#define RCC_APB2ENR_TIM8EN	(1UL << 1)
#define RCC_APB2ENR_USART1EN	(1UL << 4)
#define RCC_APB2ENR_USART6EN	(1UL << 5)
#define RCC_APB2ENR_ADC1EN	(1UL << 8)
#define RCC_APB2ENR_ADC2EN	(1UL << 9)
#define RCC_APB2ENR_ADC3EN	(1UL << 10)
#define RCC_APB2ENR_SDIOEN	(1UL << 11)
#define RCC_APB2ENR_SPI1EN	(1UL << 12)
#define RCC_APB2ENR_SYSCFGEN	(1UL << 14)
#define RCC_APB2ENR_TIM9EN	(1UL << 16)
#define RCC_APB2ENR_TIM10EN	(1UL << 17)
#define RCC_APB2ENR_TIM11EN	(1UL << 18)

/* --- FLASH and PWR bits ----------------------------------------------- */

#define FLASH_ACR_LATENCY	(0x7UL << 0)
#define FLASH_ACR_LATENCY_0WS	0x0UL
#define FLASH_ACR_LATENCY_1WS	0x1UL
#define FLASH_ACR_LATENCY_2WS	0x2UL
#define FLASH_ACR_LATENCY_3WS	0x3UL
#define FLASH_ACR_LATENCY_4WS	0x4UL
#define FLASH_ACR_LATENCY_5WS	0x5UL
#define FLASH_ACR_PRFTEN	(1UL << 8)
#define FLASH_ACR_ICEN		(1UL << 9)
#define FLASH_ACR_DCEN		(1UL << 10)
#define FLASH_ACR_ICRST		(1UL << 11)
#define FLASH_ACR_DCRST		(1UL << 12)

#define PWR_CR_VOS		(1UL << 14)
#define PWR_CR_DBP		(1UL << 8)
#define PWR_CSR_VOSRDY		(1UL << 14)

/* --- USART bits (RM0090 section 30.6) --------------------------------- */

#define USART_SR_PE		(1UL << 0)
#define USART_SR_FE		(1UL << 1)
#define USART_SR_NE		(1UL << 2)
#define USART_SR_ORE		(1UL << 3)
#define USART_SR_IDLE		(1UL << 4)
#define USART_SR_RXNE		(1UL << 5)
#define USART_SR_TC		(1UL << 6)
#define USART_SR_TXE		(1UL << 7)
#define USART_SR_LBD		(1UL << 8)
#define USART_SR_CTS		(1UL << 9)
#define USART_DR_DR		(0x1FFUL)
#define USART_BRR_DIV_Fraction	(0xFUL << 0)
#define USART_BRR_DIV_Mantissa	(0xFFFUL << 4)
#define USART_CR1_SBK		(1UL << 0)
#define USART_CR1_RWU		(1UL << 1)
#define USART_CR1_RE		(1UL << 2)
#define USART_CR1_TE		(1UL << 3)
#define USART_CR1_IDLEIE	(1UL << 4)
#define USART_CR1_RXNEIE	(1UL << 5)
#define USART_CR1_TCIE		(1UL << 6)
#define USART_CR1_TXEIE		(1UL << 7)
#define USART_CR1_PEIE		(1UL << 8)
#define USART_CR1_PS		(1UL << 9)
#define USART_CR1_PCE		(1UL << 10)
#define USART_CR1_WAKE		(1UL << 11)
#define USART_CR1_M		(1UL << 12)
#define USART_CR1_UE		(1UL << 13)
#define USART_CR1_OVER8		(1UL << 15)
#define USART_CR2_STOP		(0x3UL << 12)
#define USART_CR2_STOP_0	(0x1UL << 12)
#define USART_CR2_STOP_1	(0x2UL << 12)
#define USART_CR3_EIE		(1UL << 0)
#define USART_CR3_HDSEL		(1UL << 3)
#define USART_CR3_DMAR		(1UL << 6)
#define USART_CR3_DMAT		(1UL << 7)
#define USART_CR3_RTSE		(1UL << 8)
#define USART_CR3_CTSE		(1UL << 9)

/* --- TIM bits --------------------------------------------------------- */

#define TIM_CR1_CEN		(1UL << 0)
#define TIM_CR1_UDIS		(1UL << 1)
#define TIM_CR1_URS		(1UL << 2)
#define TIM_CR1_OPM		(1UL << 3)
#define TIM_CR1_DIR		(1UL << 4)
#define TIM_CR1_ARPE		(1UL << 7)
#define TIM_DIER_UIE		(1UL << 0)
#define TIM_DIER_CC1IE		(1UL << 1)
#define TIM_SR_UIF		(1UL << 0)
#define TIM_SR_CC1IF		(1UL << 1)
#define TIM_EGR_UG		(1UL << 0)

/* --- EXTI and SYSCFG -------------------------------------------------- */

#define EXTI_IMR_MR0		(1UL << 0)
#define EXTI_IMR_IM0		EXTI_IMR_MR0
#define EXTI_RTSR_TR0		(1UL << 0)
#define EXTI_FTSR_TR0		(1UL << 0)
#define EXTI_PR_PR0		(1UL << 0)
#define SYSCFG_EXTICR1_EXTI0	(0xFUL << 0)
#define SYSCFG_EXTICR1_EXTI0_PA	0x0UL
#define SYSCFG_EXTICR1_EXTI0_PB	0x1UL
#define SYSCFG_EXTICR1_EXTI0_PC	0x2UL

/* --- GPIO bits, per pin, in both CMSIS spellings ---------------------- */


#define GPIO_MODER_MODER0_Pos	0U
#define GPIO_MODER_MODER0	(0x3UL << 0)
#define GPIO_MODER_MODER0_0	(0x1UL << 0)
#define GPIO_MODER_MODER0_1	(0x2UL << 0)
#define GPIO_MODER_MODE0_Pos	0U
#define GPIO_MODER_MODE0	GPIO_MODER_MODER0
#define GPIO_MODER_MODE0_0	GPIO_MODER_MODER0_0
#define GPIO_MODER_MODE0_1	GPIO_MODER_MODER0_1
#define GPIO_MODER_MODER1_Pos	2U
#define GPIO_MODER_MODER1	(0x3UL << 2)
#define GPIO_MODER_MODER1_0	(0x1UL << 2)
#define GPIO_MODER_MODER1_1	(0x2UL << 2)
#define GPIO_MODER_MODE1_Pos	2U
#define GPIO_MODER_MODE1	GPIO_MODER_MODER1
#define GPIO_MODER_MODE1_0	GPIO_MODER_MODER1_0
#define GPIO_MODER_MODE1_1	GPIO_MODER_MODER1_1
#define GPIO_MODER_MODER2_Pos	4U
#define GPIO_MODER_MODER2	(0x3UL << 4)
#define GPIO_MODER_MODER2_0	(0x1UL << 4)
#define GPIO_MODER_MODER2_1	(0x2UL << 4)
#define GPIO_MODER_MODE2_Pos	4U
#define GPIO_MODER_MODE2	GPIO_MODER_MODER2
#define GPIO_MODER_MODE2_0	GPIO_MODER_MODER2_0
#define GPIO_MODER_MODE2_1	GPIO_MODER_MODER2_1
#define GPIO_MODER_MODER3_Pos	6U
#define GPIO_MODER_MODER3	(0x3UL << 6)
#define GPIO_MODER_MODER3_0	(0x1UL << 6)
#define GPIO_MODER_MODER3_1	(0x2UL << 6)
#define GPIO_MODER_MODE3_Pos	6U
#define GPIO_MODER_MODE3	GPIO_MODER_MODER3
#define GPIO_MODER_MODE3_0	GPIO_MODER_MODER3_0
#define GPIO_MODER_MODE3_1	GPIO_MODER_MODER3_1
#define GPIO_MODER_MODER4_Pos	8U
#define GPIO_MODER_MODER4	(0x3UL << 8)
#define GPIO_MODER_MODER4_0	(0x1UL << 8)
#define GPIO_MODER_MODER4_1	(0x2UL << 8)
#define GPIO_MODER_MODE4_Pos	8U
#define GPIO_MODER_MODE4	GPIO_MODER_MODER4
#define GPIO_MODER_MODE4_0	GPIO_MODER_MODER4_0
#define GPIO_MODER_MODE4_1	GPIO_MODER_MODER4_1
#define GPIO_MODER_MODER5_Pos	10U
#define GPIO_MODER_MODER5	(0x3UL << 10)
#define GPIO_MODER_MODER5_0	(0x1UL << 10)
#define GPIO_MODER_MODER5_1	(0x2UL << 10)
#define GPIO_MODER_MODE5_Pos	10U
#define GPIO_MODER_MODE5	GPIO_MODER_MODER5
#define GPIO_MODER_MODE5_0	GPIO_MODER_MODER5_0
#define GPIO_MODER_MODE5_1	GPIO_MODER_MODER5_1
#define GPIO_MODER_MODER6_Pos	12U
#define GPIO_MODER_MODER6	(0x3UL << 12)
#define GPIO_MODER_MODER6_0	(0x1UL << 12)
#define GPIO_MODER_MODER6_1	(0x2UL << 12)
#define GPIO_MODER_MODE6_Pos	12U
#define GPIO_MODER_MODE6	GPIO_MODER_MODER6
#define GPIO_MODER_MODE6_0	GPIO_MODER_MODER6_0
#define GPIO_MODER_MODE6_1	GPIO_MODER_MODER6_1
#define GPIO_MODER_MODER7_Pos	14U
#define GPIO_MODER_MODER7	(0x3UL << 14)
#define GPIO_MODER_MODER7_0	(0x1UL << 14)
#define GPIO_MODER_MODER7_1	(0x2UL << 14)
#define GPIO_MODER_MODE7_Pos	14U
#define GPIO_MODER_MODE7	GPIO_MODER_MODER7
#define GPIO_MODER_MODE7_0	GPIO_MODER_MODER7_0
#define GPIO_MODER_MODE7_1	GPIO_MODER_MODER7_1
#define GPIO_MODER_MODER8_Pos	16U
#define GPIO_MODER_MODER8	(0x3UL << 16)
#define GPIO_MODER_MODER8_0	(0x1UL << 16)
#define GPIO_MODER_MODER8_1	(0x2UL << 16)
#define GPIO_MODER_MODE8_Pos	16U
#define GPIO_MODER_MODE8	GPIO_MODER_MODER8
#define GPIO_MODER_MODE8_0	GPIO_MODER_MODER8_0
#define GPIO_MODER_MODE8_1	GPIO_MODER_MODER8_1
#define GPIO_MODER_MODER9_Pos	18U
#define GPIO_MODER_MODER9	(0x3UL << 18)
#define GPIO_MODER_MODER9_0	(0x1UL << 18)
#define GPIO_MODER_MODER9_1	(0x2UL << 18)
#define GPIO_MODER_MODE9_Pos	18U
#define GPIO_MODER_MODE9	GPIO_MODER_MODER9
#define GPIO_MODER_MODE9_0	GPIO_MODER_MODER9_0
#define GPIO_MODER_MODE9_1	GPIO_MODER_MODER9_1
#define GPIO_MODER_MODER10_Pos	20U
#define GPIO_MODER_MODER10	(0x3UL << 20)
#define GPIO_MODER_MODER10_0	(0x1UL << 20)
#define GPIO_MODER_MODER10_1	(0x2UL << 20)
#define GPIO_MODER_MODE10_Pos	20U
#define GPIO_MODER_MODE10	GPIO_MODER_MODER10
#define GPIO_MODER_MODE10_0	GPIO_MODER_MODER10_0
#define GPIO_MODER_MODE10_1	GPIO_MODER_MODER10_1
#define GPIO_MODER_MODER11_Pos	22U
#define GPIO_MODER_MODER11	(0x3UL << 22)
#define GPIO_MODER_MODER11_0	(0x1UL << 22)
#define GPIO_MODER_MODER11_1	(0x2UL << 22)
#define GPIO_MODER_MODE11_Pos	22U
#define GPIO_MODER_MODE11	GPIO_MODER_MODER11
#define GPIO_MODER_MODE11_0	GPIO_MODER_MODER11_0
#define GPIO_MODER_MODE11_1	GPIO_MODER_MODER11_1
#define GPIO_MODER_MODER12_Pos	24U
#define GPIO_MODER_MODER12	(0x3UL << 24)
#define GPIO_MODER_MODER12_0	(0x1UL << 24)
#define GPIO_MODER_MODER12_1	(0x2UL << 24)
#define GPIO_MODER_MODE12_Pos	24U
#define GPIO_MODER_MODE12	GPIO_MODER_MODER12
#define GPIO_MODER_MODE12_0	GPIO_MODER_MODER12_0
#define GPIO_MODER_MODE12_1	GPIO_MODER_MODER12_1
#define GPIO_MODER_MODER13_Pos	26U
#define GPIO_MODER_MODER13	(0x3UL << 26)
#define GPIO_MODER_MODER13_0	(0x1UL << 26)
#define GPIO_MODER_MODER13_1	(0x2UL << 26)
#define GPIO_MODER_MODE13_Pos	26U
#define GPIO_MODER_MODE13	GPIO_MODER_MODER13
#define GPIO_MODER_MODE13_0	GPIO_MODER_MODER13_0
#define GPIO_MODER_MODE13_1	GPIO_MODER_MODER13_1
#define GPIO_MODER_MODER14_Pos	28U
#define GPIO_MODER_MODER14	(0x3UL << 28)
#define GPIO_MODER_MODER14_0	(0x1UL << 28)
#define GPIO_MODER_MODER14_1	(0x2UL << 28)
#define GPIO_MODER_MODE14_Pos	28U
#define GPIO_MODER_MODE14	GPIO_MODER_MODER14
#define GPIO_MODER_MODE14_0	GPIO_MODER_MODER14_0
#define GPIO_MODER_MODE14_1	GPIO_MODER_MODER14_1
#define GPIO_MODER_MODER15_Pos	30U
#define GPIO_MODER_MODER15	(0x3UL << 30)
#define GPIO_MODER_MODER15_0	(0x1UL << 30)
#define GPIO_MODER_MODER15_1	(0x2UL << 30)
#define GPIO_MODER_MODE15_Pos	30U
#define GPIO_MODER_MODE15	GPIO_MODER_MODER15
#define GPIO_MODER_MODE15_0	GPIO_MODER_MODER15_0
#define GPIO_MODER_MODE15_1	GPIO_MODER_MODER15_1
#define GPIO_OTYPER_OT0	(0x1UL << 0)
#define GPIO_OTYPER_OT_0	GPIO_OTYPER_OT0
#define GPIO_OSPEEDR_OSPEED0	(0x3UL << 0)
#define GPIO_OSPEEDER_OSPEEDR0	GPIO_OSPEEDR_OSPEED0
#define GPIO_OSPEEDR_OSPEED0_0	(0x1UL << 0)
#define GPIO_OSPEEDR_OSPEED0_1	(0x2UL << 0)
#define GPIO_PUPDR_PUPD0	(0x3UL << 0)
#define GPIO_PUPDR_PUPDR0	GPIO_PUPDR_PUPD0
#define GPIO_PUPDR_PUPD0_0	(0x1UL << 0)
#define GPIO_PUPDR_PUPD0_1	(0x2UL << 0)
#define GPIO_IDR_ID0	(0x1UL << 0)
#define GPIO_IDR_IDR_0	GPIO_IDR_ID0
#define GPIO_ODR_OD0	(0x1UL << 0)
#define GPIO_ODR_ODR_0	GPIO_ODR_OD0
#define GPIO_BSRR_BS0	(0x1UL << 0)
#define GPIO_BSRR_BS_0	GPIO_BSRR_BS0
#define GPIO_BSRR_BR0	(0x1UL << 16)
#define GPIO_BSRR_BR_0	GPIO_BSRR_BR0
#define GPIO_OTYPER_OT1	(0x1UL << 1)
#define GPIO_OTYPER_OT_1	GPIO_OTYPER_OT1
#define GPIO_OSPEEDR_OSPEED1	(0x3UL << 2)
#define GPIO_OSPEEDER_OSPEEDR1	GPIO_OSPEEDR_OSPEED1
#define GPIO_OSPEEDR_OSPEED1_0	(0x1UL << 2)
#define GPIO_OSPEEDR_OSPEED1_1	(0x2UL << 2)
#define GPIO_PUPDR_PUPD1	(0x3UL << 2)
#define GPIO_PUPDR_PUPDR1	GPIO_PUPDR_PUPD1
#define GPIO_PUPDR_PUPD1_0	(0x1UL << 2)
#define GPIO_PUPDR_PUPD1_1	(0x2UL << 2)
#define GPIO_IDR_ID1	(0x1UL << 1)
#define GPIO_IDR_IDR_1	GPIO_IDR_ID1
#define GPIO_ODR_OD1	(0x1UL << 1)
#define GPIO_ODR_ODR_1	GPIO_ODR_OD1
#define GPIO_BSRR_BS1	(0x1UL << 1)
#define GPIO_BSRR_BS_1	GPIO_BSRR_BS1
#define GPIO_BSRR_BR1	(0x1UL << 17)
#define GPIO_BSRR_BR_1	GPIO_BSRR_BR1
#define GPIO_OTYPER_OT2	(0x1UL << 2)
#define GPIO_OTYPER_OT_2	GPIO_OTYPER_OT2
#define GPIO_OSPEEDR_OSPEED2	(0x3UL << 4)
#define GPIO_OSPEEDER_OSPEEDR2	GPIO_OSPEEDR_OSPEED2
#define GPIO_OSPEEDR_OSPEED2_0	(0x1UL << 4)
#define GPIO_OSPEEDR_OSPEED2_1	(0x2UL << 4)
#define GPIO_PUPDR_PUPD2	(0x3UL << 4)
#define GPIO_PUPDR_PUPDR2	GPIO_PUPDR_PUPD2
#define GPIO_PUPDR_PUPD2_0	(0x1UL << 4)
#define GPIO_PUPDR_PUPD2_1	(0x2UL << 4)
#define GPIO_IDR_ID2	(0x1UL << 2)
#define GPIO_IDR_IDR_2	GPIO_IDR_ID2
#define GPIO_ODR_OD2	(0x1UL << 2)
#define GPIO_ODR_ODR_2	GPIO_ODR_OD2
#define GPIO_BSRR_BS2	(0x1UL << 2)
#define GPIO_BSRR_BS_2	GPIO_BSRR_BS2
#define GPIO_BSRR_BR2	(0x1UL << 18)
#define GPIO_BSRR_BR_2	GPIO_BSRR_BR2
#define GPIO_OTYPER_OT3	(0x1UL << 3)
#define GPIO_OTYPER_OT_3	GPIO_OTYPER_OT3
#define GPIO_OSPEEDR_OSPEED3	(0x3UL << 6)
#define GPIO_OSPEEDER_OSPEEDR3	GPIO_OSPEEDR_OSPEED3
#define GPIO_OSPEEDR_OSPEED3_0	(0x1UL << 6)
#define GPIO_OSPEEDR_OSPEED3_1	(0x2UL << 6)
#define GPIO_PUPDR_PUPD3	(0x3UL << 6)
#define GPIO_PUPDR_PUPDR3	GPIO_PUPDR_PUPD3
#define GPIO_PUPDR_PUPD3_0	(0x1UL << 6)
#define GPIO_PUPDR_PUPD3_1	(0x2UL << 6)
#define GPIO_IDR_ID3	(0x1UL << 3)
#define GPIO_IDR_IDR_3	GPIO_IDR_ID3
#define GPIO_ODR_OD3	(0x1UL << 3)
#define GPIO_ODR_ODR_3	GPIO_ODR_OD3
#define GPIO_BSRR_BS3	(0x1UL << 3)
#define GPIO_BSRR_BS_3	GPIO_BSRR_BS3
#define GPIO_BSRR_BR3	(0x1UL << 19)
#define GPIO_BSRR_BR_3	GPIO_BSRR_BR3
#define GPIO_OTYPER_OT4	(0x1UL << 4)
#define GPIO_OTYPER_OT_4	GPIO_OTYPER_OT4
#define GPIO_OSPEEDR_OSPEED4	(0x3UL << 8)
#define GPIO_OSPEEDER_OSPEEDR4	GPIO_OSPEEDR_OSPEED4
#define GPIO_OSPEEDR_OSPEED4_0	(0x1UL << 8)
#define GPIO_OSPEEDR_OSPEED4_1	(0x2UL << 8)
#define GPIO_PUPDR_PUPD4	(0x3UL << 8)
#define GPIO_PUPDR_PUPDR4	GPIO_PUPDR_PUPD4
#define GPIO_PUPDR_PUPD4_0	(0x1UL << 8)
#define GPIO_PUPDR_PUPD4_1	(0x2UL << 8)
#define GPIO_IDR_ID4	(0x1UL << 4)
#define GPIO_IDR_IDR_4	GPIO_IDR_ID4
#define GPIO_ODR_OD4	(0x1UL << 4)
#define GPIO_ODR_ODR_4	GPIO_ODR_OD4
#define GPIO_BSRR_BS4	(0x1UL << 4)
#define GPIO_BSRR_BS_4	GPIO_BSRR_BS4
#define GPIO_BSRR_BR4	(0x1UL << 20)
#define GPIO_BSRR_BR_4	GPIO_BSRR_BR4
#define GPIO_OTYPER_OT5	(0x1UL << 5)
#define GPIO_OTYPER_OT_5	GPIO_OTYPER_OT5
#define GPIO_OSPEEDR_OSPEED5	(0x3UL << 10)
#define GPIO_OSPEEDER_OSPEEDR5	GPIO_OSPEEDR_OSPEED5
#define GPIO_OSPEEDR_OSPEED5_0	(0x1UL << 10)
#define GPIO_OSPEEDR_OSPEED5_1	(0x2UL << 10)
#define GPIO_PUPDR_PUPD5	(0x3UL << 10)
#define GPIO_PUPDR_PUPDR5	GPIO_PUPDR_PUPD5
#define GPIO_PUPDR_PUPD5_0	(0x1UL << 10)
#define GPIO_PUPDR_PUPD5_1	(0x2UL << 10)
#define GPIO_IDR_ID5	(0x1UL << 5)
#define GPIO_IDR_IDR_5	GPIO_IDR_ID5
#define GPIO_ODR_OD5	(0x1UL << 5)
#define GPIO_ODR_ODR_5	GPIO_ODR_OD5
#define GPIO_BSRR_BS5	(0x1UL << 5)
#define GPIO_BSRR_BS_5	GPIO_BSRR_BS5
#define GPIO_BSRR_BR5	(0x1UL << 21)
#define GPIO_BSRR_BR_5	GPIO_BSRR_BR5
#define GPIO_OTYPER_OT6	(0x1UL << 6)
#define GPIO_OTYPER_OT_6	GPIO_OTYPER_OT6
#define GPIO_OSPEEDR_OSPEED6	(0x3UL << 12)
#define GPIO_OSPEEDER_OSPEEDR6	GPIO_OSPEEDR_OSPEED6
#define GPIO_OSPEEDR_OSPEED6_0	(0x1UL << 12)
#define GPIO_OSPEEDR_OSPEED6_1	(0x2UL << 12)
#define GPIO_PUPDR_PUPD6	(0x3UL << 12)
#define GPIO_PUPDR_PUPDR6	GPIO_PUPDR_PUPD6
#define GPIO_PUPDR_PUPD6_0	(0x1UL << 12)
#define GPIO_PUPDR_PUPD6_1	(0x2UL << 12)
#define GPIO_IDR_ID6	(0x1UL << 6)
#define GPIO_IDR_IDR_6	GPIO_IDR_ID6
#define GPIO_ODR_OD6	(0x1UL << 6)
#define GPIO_ODR_ODR_6	GPIO_ODR_OD6
#define GPIO_BSRR_BS6	(0x1UL << 6)
#define GPIO_BSRR_BS_6	GPIO_BSRR_BS6
#define GPIO_BSRR_BR6	(0x1UL << 22)
#define GPIO_BSRR_BR_6	GPIO_BSRR_BR6
#define GPIO_OTYPER_OT7	(0x1UL << 7)
#define GPIO_OTYPER_OT_7	GPIO_OTYPER_OT7
#define GPIO_OSPEEDR_OSPEED7	(0x3UL << 14)
#define GPIO_OSPEEDER_OSPEEDR7	GPIO_OSPEEDR_OSPEED7
#define GPIO_OSPEEDR_OSPEED7_0	(0x1UL << 14)
#define GPIO_OSPEEDR_OSPEED7_1	(0x2UL << 14)
#define GPIO_PUPDR_PUPD7	(0x3UL << 14)
#define GPIO_PUPDR_PUPDR7	GPIO_PUPDR_PUPD7
#define GPIO_PUPDR_PUPD7_0	(0x1UL << 14)
#define GPIO_PUPDR_PUPD7_1	(0x2UL << 14)
#define GPIO_IDR_ID7	(0x1UL << 7)
#define GPIO_IDR_IDR_7	GPIO_IDR_ID7
#define GPIO_ODR_OD7	(0x1UL << 7)
#define GPIO_ODR_ODR_7	GPIO_ODR_OD7
#define GPIO_BSRR_BS7	(0x1UL << 7)
#define GPIO_BSRR_BS_7	GPIO_BSRR_BS7
#define GPIO_BSRR_BR7	(0x1UL << 23)
#define GPIO_BSRR_BR_7	GPIO_BSRR_BR7
#define GPIO_OTYPER_OT8	(0x1UL << 8)
#define GPIO_OTYPER_OT_8	GPIO_OTYPER_OT8
#define GPIO_OSPEEDR_OSPEED8	(0x3UL << 16)
#define GPIO_OSPEEDER_OSPEEDR8	GPIO_OSPEEDR_OSPEED8
#define GPIO_OSPEEDR_OSPEED8_0	(0x1UL << 16)
#define GPIO_OSPEEDR_OSPEED8_1	(0x2UL << 16)
#define GPIO_PUPDR_PUPD8	(0x3UL << 16)
#define GPIO_PUPDR_PUPDR8	GPIO_PUPDR_PUPD8
#define GPIO_PUPDR_PUPD8_0	(0x1UL << 16)
#define GPIO_PUPDR_PUPD8_1	(0x2UL << 16)
#define GPIO_IDR_ID8	(0x1UL << 8)
#define GPIO_IDR_IDR_8	GPIO_IDR_ID8
#define GPIO_ODR_OD8	(0x1UL << 8)
#define GPIO_ODR_ODR_8	GPIO_ODR_OD8
#define GPIO_BSRR_BS8	(0x1UL << 8)
#define GPIO_BSRR_BS_8	GPIO_BSRR_BS8
#define GPIO_BSRR_BR8	(0x1UL << 24)
#define GPIO_BSRR_BR_8	GPIO_BSRR_BR8
#define GPIO_OTYPER_OT9	(0x1UL << 9)
#define GPIO_OTYPER_OT_9	GPIO_OTYPER_OT9
#define GPIO_OSPEEDR_OSPEED9	(0x3UL << 18)
#define GPIO_OSPEEDER_OSPEEDR9	GPIO_OSPEEDR_OSPEED9
#define GPIO_OSPEEDR_OSPEED9_0	(0x1UL << 18)
#define GPIO_OSPEEDR_OSPEED9_1	(0x2UL << 18)
#define GPIO_PUPDR_PUPD9	(0x3UL << 18)
#define GPIO_PUPDR_PUPDR9	GPIO_PUPDR_PUPD9
#define GPIO_PUPDR_PUPD9_0	(0x1UL << 18)
#define GPIO_PUPDR_PUPD9_1	(0x2UL << 18)
#define GPIO_IDR_ID9	(0x1UL << 9)
#define GPIO_IDR_IDR_9	GPIO_IDR_ID9
#define GPIO_ODR_OD9	(0x1UL << 9)
#define GPIO_ODR_ODR_9	GPIO_ODR_OD9
#define GPIO_BSRR_BS9	(0x1UL << 9)
#define GPIO_BSRR_BS_9	GPIO_BSRR_BS9
#define GPIO_BSRR_BR9	(0x1UL << 25)
#define GPIO_BSRR_BR_9	GPIO_BSRR_BR9
#define GPIO_OTYPER_OT10	(0x1UL << 10)
#define GPIO_OTYPER_OT_10	GPIO_OTYPER_OT10
#define GPIO_OSPEEDR_OSPEED10	(0x3UL << 20)
#define GPIO_OSPEEDER_OSPEEDR10	GPIO_OSPEEDR_OSPEED10
#define GPIO_OSPEEDR_OSPEED10_0	(0x1UL << 20)
#define GPIO_OSPEEDR_OSPEED10_1	(0x2UL << 20)
#define GPIO_PUPDR_PUPD10	(0x3UL << 20)
#define GPIO_PUPDR_PUPDR10	GPIO_PUPDR_PUPD10
#define GPIO_PUPDR_PUPD10_0	(0x1UL << 20)
#define GPIO_PUPDR_PUPD10_1	(0x2UL << 20)
#define GPIO_IDR_ID10	(0x1UL << 10)
#define GPIO_IDR_IDR_10	GPIO_IDR_ID10
#define GPIO_ODR_OD10	(0x1UL << 10)
#define GPIO_ODR_ODR_10	GPIO_ODR_OD10
#define GPIO_BSRR_BS10	(0x1UL << 10)
#define GPIO_BSRR_BS_10	GPIO_BSRR_BS10
#define GPIO_BSRR_BR10	(0x1UL << 26)
#define GPIO_BSRR_BR_10	GPIO_BSRR_BR10
#define GPIO_OTYPER_OT11	(0x1UL << 11)
#define GPIO_OTYPER_OT_11	GPIO_OTYPER_OT11
#define GPIO_OSPEEDR_OSPEED11	(0x3UL << 22)
#define GPIO_OSPEEDER_OSPEEDR11	GPIO_OSPEEDR_OSPEED11
#define GPIO_OSPEEDR_OSPEED11_0	(0x1UL << 22)
#define GPIO_OSPEEDR_OSPEED11_1	(0x2UL << 22)
#define GPIO_PUPDR_PUPD11	(0x3UL << 22)
#define GPIO_PUPDR_PUPDR11	GPIO_PUPDR_PUPD11
#define GPIO_PUPDR_PUPD11_0	(0x1UL << 22)
#define GPIO_PUPDR_PUPD11_1	(0x2UL << 22)
#define GPIO_IDR_ID11	(0x1UL << 11)
#define GPIO_IDR_IDR_11	GPIO_IDR_ID11
#define GPIO_ODR_OD11	(0x1UL << 11)
#define GPIO_ODR_ODR_11	GPIO_ODR_OD11
#define GPIO_BSRR_BS11	(0x1UL << 11)
#define GPIO_BSRR_BS_11	GPIO_BSRR_BS11
#define GPIO_BSRR_BR11	(0x1UL << 27)
#define GPIO_BSRR_BR_11	GPIO_BSRR_BR11
#define GPIO_OTYPER_OT12	(0x1UL << 12)
#define GPIO_OTYPER_OT_12	GPIO_OTYPER_OT12
#define GPIO_OSPEEDR_OSPEED12	(0x3UL << 24)
#define GPIO_OSPEEDER_OSPEEDR12	GPIO_OSPEEDR_OSPEED12
#define GPIO_OSPEEDR_OSPEED12_0	(0x1UL << 24)
#define GPIO_OSPEEDR_OSPEED12_1	(0x2UL << 24)
#define GPIO_PUPDR_PUPD12	(0x3UL << 24)
#define GPIO_PUPDR_PUPDR12	GPIO_PUPDR_PUPD12
#define GPIO_PUPDR_PUPD12_0	(0x1UL << 24)
#define GPIO_PUPDR_PUPD12_1	(0x2UL << 24)
#define GPIO_IDR_ID12	(0x1UL << 12)
#define GPIO_IDR_IDR_12	GPIO_IDR_ID12
#define GPIO_ODR_OD12	(0x1UL << 12)
#define GPIO_ODR_ODR_12	GPIO_ODR_OD12
#define GPIO_BSRR_BS12	(0x1UL << 12)
#define GPIO_BSRR_BS_12	GPIO_BSRR_BS12
#define GPIO_BSRR_BR12	(0x1UL << 28)
#define GPIO_BSRR_BR_12	GPIO_BSRR_BR12
#define GPIO_OTYPER_OT13	(0x1UL << 13)
#define GPIO_OTYPER_OT_13	GPIO_OTYPER_OT13
#define GPIO_OSPEEDR_OSPEED13	(0x3UL << 26)
#define GPIO_OSPEEDER_OSPEEDR13	GPIO_OSPEEDR_OSPEED13
#define GPIO_OSPEEDR_OSPEED13_0	(0x1UL << 26)
#define GPIO_OSPEEDR_OSPEED13_1	(0x2UL << 26)
#define GPIO_PUPDR_PUPD13	(0x3UL << 26)
#define GPIO_PUPDR_PUPDR13	GPIO_PUPDR_PUPD13
#define GPIO_PUPDR_PUPD13_0	(0x1UL << 26)
#define GPIO_PUPDR_PUPD13_1	(0x2UL << 26)
#define GPIO_IDR_ID13	(0x1UL << 13)
#define GPIO_IDR_IDR_13	GPIO_IDR_ID13
#define GPIO_ODR_OD13	(0x1UL << 13)
#define GPIO_ODR_ODR_13	GPIO_ODR_OD13
#define GPIO_BSRR_BS13	(0x1UL << 13)
#define GPIO_BSRR_BS_13	GPIO_BSRR_BS13
#define GPIO_BSRR_BR13	(0x1UL << 29)
#define GPIO_BSRR_BR_13	GPIO_BSRR_BR13
#define GPIO_OTYPER_OT14	(0x1UL << 14)
#define GPIO_OTYPER_OT_14	GPIO_OTYPER_OT14
#define GPIO_OSPEEDR_OSPEED14	(0x3UL << 28)
#define GPIO_OSPEEDER_OSPEEDR14	GPIO_OSPEEDR_OSPEED14
#define GPIO_OSPEEDR_OSPEED14_0	(0x1UL << 28)
#define GPIO_OSPEEDR_OSPEED14_1	(0x2UL << 28)
#define GPIO_PUPDR_PUPD14	(0x3UL << 28)
#define GPIO_PUPDR_PUPDR14	GPIO_PUPDR_PUPD14
#define GPIO_PUPDR_PUPD14_0	(0x1UL << 28)
#define GPIO_PUPDR_PUPD14_1	(0x2UL << 28)
#define GPIO_IDR_ID14	(0x1UL << 14)
#define GPIO_IDR_IDR_14	GPIO_IDR_ID14
#define GPIO_ODR_OD14	(0x1UL << 14)
#define GPIO_ODR_ODR_14	GPIO_ODR_OD14
#define GPIO_BSRR_BS14	(0x1UL << 14)
#define GPIO_BSRR_BS_14	GPIO_BSRR_BS14
#define GPIO_BSRR_BR14	(0x1UL << 30)
#define GPIO_BSRR_BR_14	GPIO_BSRR_BR14
#define GPIO_OTYPER_OT15	(0x1UL << 15)
#define GPIO_OTYPER_OT_15	GPIO_OTYPER_OT15
#define GPIO_OSPEEDR_OSPEED15	(0x3UL << 30)
#define GPIO_OSPEEDER_OSPEEDR15	GPIO_OSPEEDR_OSPEED15
#define GPIO_OSPEEDR_OSPEED15_0	(0x1UL << 30)
#define GPIO_OSPEEDR_OSPEED15_1	(0x2UL << 30)
#define GPIO_PUPDR_PUPD15	(0x3UL << 30)
#define GPIO_PUPDR_PUPDR15	GPIO_PUPDR_PUPD15
#define GPIO_PUPDR_PUPD15_0	(0x1UL << 30)
#define GPIO_PUPDR_PUPD15_1	(0x2UL << 30)
#define GPIO_IDR_ID15	(0x1UL << 15)
#define GPIO_IDR_IDR_15	GPIO_IDR_ID15
#define GPIO_ODR_OD15	(0x1UL << 15)
#define GPIO_ODR_ODR_15	GPIO_ODR_OD15
#define GPIO_BSRR_BS15	(0x1UL << 15)
#define GPIO_BSRR_BS_15	GPIO_BSRR_BS15
#define GPIO_BSRR_BR15	(0x1UL << 31)
#define GPIO_BSRR_BR_15	GPIO_BSRR_BR15

#ifdef __cplusplus
}
#endif

#endif
