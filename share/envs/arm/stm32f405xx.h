/* stm32f405xx.h - the STM32F405 as ST names its header: assay's stm32f4xx.h. */
#ifndef STM32F405xx
#define STM32F405xx
#endif
#include "stm32f4xx.h"
