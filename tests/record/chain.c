/*
 * chain: a stack of 200 KiB, three times the kernel's largest stack copy,
 * made of 100 distinct functions f0..f99 with 2 KiB frames, so that a
 * folded stack shows whether it is whole: main;f0;f1;...;fK in order.
 * Each round descends slowly (work at every level, so samples see every
 * depth on the way), then spins at the bottom in leaves that alternate,
 * and returns to main. Runs for SECONDS (argv[1], default 0.5); argv[2]
 * multiplies the work of each level on the way down (default 1; 0.025
 * is 5 us a level, to measure how fast a descent completion follows).
 *
 * Every time here is the thread's CPU time (spin.h), so that a sampler
 * of CPU time sees the same depths however busy the machine is: at 1 kHz
 * a sample every 5 levels on the way down, 6 or more in each 32 levels
 * (what one stack copy holds), which is what stitching needs to carry a
 * stack from main to the bottom. (Levels timed by a loop count took
 * 10 us each, not the 0.1 ms meant: one sample or none per descent, and
 * stitching reached main only by luck, less of it on a busy machine.)
 */
#include "spin.h"

#define NOINLINE __attribute__((noinline))

static double end;
static double slow = 1;

static NOINLINE void
leaf_a(void)
{
	for (unsigned long i = 0; i < 20000; i++)
		spin_sink += i;
}

static NOINLINE void
leaf_b(void)
{
	for (unsigned long i = 0; i < 20000; i++)
		spin_sink ^= i;
}

/* 0.2 ms of CPU on the way down, times slow. */
static NOINLINE void
step(void)
{
	spin_for(0.0002 * slow);
}

/* The bottom: 20 ms of CPU in leaves that change, or until the end. */
static NOINLINE void
bottom(void)
{
	double stop = spin_cpu() + 0.02;
	int i;

	for (i = 0; spin_cpu() < stop && spin_cpu() < end; i++)
		(i & 1 ? leaf_a : leaf_b)();
}

/* Each level: a 2 KiB frame, some work, the next level. */
#define LEVEL(k, next)						\
static NOINLINE void						\
f##k(void)							\
{								\
	volatile char pad[2048];				\
								\
	pad[0] = 1;						\
	step();							\
	next();							\
	pad[1] = pad[0];					\
}

LEVEL(99, bottom)
LEVEL(98, f99)
LEVEL(97, f98)
LEVEL(96, f97)
LEVEL(95, f96)
LEVEL(94, f95)
LEVEL(93, f94)
LEVEL(92, f93)
LEVEL(91, f92)
LEVEL(90, f91)
LEVEL(89, f90)
LEVEL(88, f89)
LEVEL(87, f88)
LEVEL(86, f87)
LEVEL(85, f86)
LEVEL(84, f85)
LEVEL(83, f84)
LEVEL(82, f83)
LEVEL(81, f82)
LEVEL(80, f81)
LEVEL(79, f80)
LEVEL(78, f79)
LEVEL(77, f78)
LEVEL(76, f77)
LEVEL(75, f76)
LEVEL(74, f75)
LEVEL(73, f74)
LEVEL(72, f73)
LEVEL(71, f72)
LEVEL(70, f71)
LEVEL(69, f70)
LEVEL(68, f69)
LEVEL(67, f68)
LEVEL(66, f67)
LEVEL(65, f66)
LEVEL(64, f65)
LEVEL(63, f64)
LEVEL(62, f63)
LEVEL(61, f62)
LEVEL(60, f61)
LEVEL(59, f60)
LEVEL(58, f59)
LEVEL(57, f58)
LEVEL(56, f57)
LEVEL(55, f56)
LEVEL(54, f55)
LEVEL(53, f54)
LEVEL(52, f53)
LEVEL(51, f52)
LEVEL(50, f51)
LEVEL(49, f50)
LEVEL(48, f49)
LEVEL(47, f48)
LEVEL(46, f47)
LEVEL(45, f46)
LEVEL(44, f45)
LEVEL(43, f44)
LEVEL(42, f43)
LEVEL(41, f42)
LEVEL(40, f41)
LEVEL(39, f40)
LEVEL(38, f39)
LEVEL(37, f38)
LEVEL(36, f37)
LEVEL(35, f36)
LEVEL(34, f35)
LEVEL(33, f34)
LEVEL(32, f33)
LEVEL(31, f32)
LEVEL(30, f31)
LEVEL(29, f30)
LEVEL(28, f29)
LEVEL(27, f28)
LEVEL(26, f27)
LEVEL(25, f26)
LEVEL(24, f25)
LEVEL(23, f24)
LEVEL(22, f23)
LEVEL(21, f22)
LEVEL(20, f21)
LEVEL(19, f20)
LEVEL(18, f19)
LEVEL(17, f18)
LEVEL(16, f17)
LEVEL(15, f16)
LEVEL(14, f15)
LEVEL(13, f14)
LEVEL(12, f13)
LEVEL(11, f12)
LEVEL(10, f11)
LEVEL(9, f10)
LEVEL(8, f9)
LEVEL(7, f8)
LEVEL(6, f7)
LEVEL(5, f6)
LEVEL(4, f5)
LEVEL(3, f4)
LEVEL(2, f3)
LEVEL(1, f2)
LEVEL(0, f1)

int
main(int argc, char **argv)
{
	end = spin_cpu() + spin_secs(argc, argv, 0.5);
	if (argc > 2 && atof(argv[2]) > 0)
		slow = atof(argv[2]);
	while (spin_cpu() < end)
		f0();
	return 0;
}
