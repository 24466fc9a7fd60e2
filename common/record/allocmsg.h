/*
 * allocmsg: the messages libfgalloc.so (preload/fgalloc.c, inside the
 * recorded program) sends fgrecord --alloc (record/source_alloc.c) over
 * the SOCK_SEQPACKET socket named by FGALLOC_FD. Each message is one
 * packet: a struct allocmsg, then, for ALLOCMSG_ALLOC, the copy of the
 * stack from sp up, and for ALLOCMSG_MAPS, lines of /proc/self/maps. Both
 * ends are built from this header, so the layout is the machine's own.
 */
#ifndef FG_ALLOCMSG_H
#define FG_ALLOCMSG_H

#include <stdint.h>

#define ALLOCMSG_ENV_FD		"FGALLOC_FD"	/* the socket's descriptor */
#define ALLOCMSG_ENV_PERIOD	"FGALLOC_PERIOD"	/* mean bytes between samples */
#define ALLOCMSG_ENV_STACK	"FGALLOC_STACK"	/* bytes of stack per sample */
#define ALLOCMSG_FD_MIN		900	/* the channel's descriptor is at least this,
					   out of the way of the program's */
#define ALLOCMSG_VERSION	1

enum allocmsg_kind {
	ALLOCMSG_HELLO = 1,	/* the library started in a new image (exec) */
	ALLOCMSG_MAPS,		/* lines of /proc/self/maps; first: a new list */
	ALLOCMSG_MAPS_END,	/* the list is whole */
	ALLOCMSG_ALLOC,		/* a sampled allocation: ptr, size, registers, stack */
	ALLOCMSG_FREE,		/* a sampled allocation freed (or realloc'd away) */
	ALLOCMSG_FORK		/* a new process from fork: arg is the parent */
};

#define ALLOCMSG_UNTRACKED	1	/* flags: its free will not be seen
					   (the live table was full) */
#define ALLOCMSG_FIRST		2	/* flags, MAPS: the first part */

struct allocmsg {
	uint32_t	 kind;
	uint32_t	 flags;
	int32_t		 pid, tid;
	uint64_t	 time;		/* CLOCK_MONOTONIC, ns */
	uint64_t	 ptr;		/* ALLOC, FREE */
	uint64_t	 size;		/* ALLOC: bytes asked for; HELLO: version */
	uint64_t	 ip, sp, bp;	/* ALLOC: the allocator's caller's */
	uint64_t	 arg;		/* FORK: the parent's pid */
	char		 comm[16];	/* the thread's name */
};

#endif
