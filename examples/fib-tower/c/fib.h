/*
 * fib-tower: Fibonacci numbers, fib(0) = 0, fib(1) = 1. fib(93) is the
 * largest that fits in 64 bits, so n outside 0..93 is an error in both
 * versions.
 */
#ifndef FIB_H
#define FIB_H

#include <stdint.h>

#define FIB_MAX 93

/*
 * Stores fib(n) in *out and returns 0, or returns -1 and leaves *out alone
 * when n is negative or above FIB_MAX. The slow version recurses naively
 * (exponential time: the "flame tower"), the fixed one iterates.
 */
int fib_slow(int n, uint64_t *out);
int fib_fast(int n, uint64_t *out);

#endif
