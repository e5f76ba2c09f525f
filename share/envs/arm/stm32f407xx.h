/* stm32f407xx.h - the STM32F407 as ST names its header: assay's stm32f4xx.h. */
#ifndef STM32F407xx
#define STM32F407xx
#endif
#include "stm32f4xx.h"
