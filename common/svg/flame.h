/*
 * flame: the tree of a flame graph, built from folded stacks the way
 * flamegraph.pl builds it, so that every frame lands where the reference
 * draws it; and the list of frames to draw, with the frames narrower than
 * the minimum width merged, per parent, into grey frames.
 *
 *	struct flame fl;
 *	flame_init(&fl, &opts);
 *	for each folded line: flame_add(&fl, line, len, &parsed);
 *		(folded_parse'd; or flame_add_kept, the line kept in place)
 *	or for each stack of a profile: flame_add_stack(&fl, s, len, count);
 *	or for each stack and its real weight: flame_add_weight(&fl, s, len, w);
 *	flame_build(&fl);		sorts, merges, closes the tree
 *	flame_layout(&fl, total, mintime);	fills fl.frames, fl.nframes,
 *					fl.depthmax and fl.drops
 *	flame_release(&fl);
 *
 * How the reference merges, and so how this does with the default sort:
 * the lines are sorted bytewise as whole lines, and each line shares with
 * the one before it the frames of their common prefix. A frame's own time
 * lies left of its children. Two siblings of the same name are merged only
 * when they are neighbours in that order ("f" and "f(int)" can split an "f"
 * in two); that is the reference's picture, kept on purpose.
 */
#ifndef FG_FLAME_H
#define FG_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "stream/folded.h"

#define FLAME_NONE	UINT32_MAX

enum flame_sort {
	FLAME_SORT_NAME,	/* bytewise, as flamegraph.pl (the default) */
	FLAME_SORT_WEIGHT	/* widest child first, own time at the right */
};

struct flame_opts {
	enum flame_sort	 sort;
	int		 reverse;	/* --reverse: leaf first */
	int		 flamechart;	/* --flamechart: input order, no sort */
	int		 chain;		/* --colors chain: mark waker frames _[w] */
	int		 ends;		/* keep ends[]: the timeline needs it */
};

struct flame_node {
	const char	*name;		/* in a line's bytes, not NUL-terminated */
	uint32_t	 namelen;
	uint32_t	 depth;		/* 0 is the root, "all" */
	uint32_t	 parent;	/* FLAME_NONE for the root */
	uint32_t	 child;		/* first child, or FLAME_NONE */
	uint32_t	 next;		/* next sibling, or FLAME_NONE */
	double		 stime;		/* start, in counts from the left */
	double		 etime;		/* end */
};

/* One frame to draw. */
struct flame_frame {
	uint32_t	 node;		/* the node, or FLAME_NONE for a merge */
	uint32_t	 depth;
	uint32_t	 nmerged;	/* frames merged into this grey one */
	uint32_t	 first;		/* a merge's first node; its siblings
					   follow by next, nmerged in all */
	double		 stime;
	double		 etime;
	double		 self;		/* own time: width minus children */
};

/* A run of narrow siblings too narrow, all together, to be drawn. */
struct flame_drop {
	size_t		 frame;		/* the drawn parent, in frames[] */
	uint32_t	 first;		/* its first node; siblings by next */
	uint32_t	 n;		/* how many */
};

struct flame_line {
	const char	*p;		/* the normalized line: a copy in a
					   chunk, or the caller's (flame_add_kept) */
	size_t		 len;		/* "STACK COUNT[ COUNT]", or STACK alone
					   (flame_add_stack: its counts held) */
	size_t		 seq;		/* input order, to keep sorts stable */
	size_t		 stacklen;
	double		 count[2];
	int		 ncounts;
};

struct flame_chunk;

struct flame {
	struct flame_opts opts;
	struct flame_chunk *chunks;	/* the lines copied, back to back; a
					   chunk never moves, so names can
					   point into it */
	struct flame_line *lines;
	size_t		 nlines, linecap;
	struct flame_node *nodes;	/* in the order they open: preorder */
	size_t		 nnodes, nodecap;
	uint32_t	*lastkid;	/* during flame_build: last child */
	double		*delta;		/* per node, for differential input:
					   AFTER - BEFORE of its own lines */
	unsigned char	*has_delta;	/* opened by a differential line */
	struct flame_frame *frames;	/* flame_layout's result */
	size_t		 nframes, framecap;
	struct flame_drop *drops;	/* flame_layout's runs not drawn */
	size_t		 ndrops, dropcap;
	uint32_t	 depthmax;	/* deepest drawn frame */
	double		 time;		/* sum of the counts (AFTER in diffs) */
	double		 maxdelta;	/* largest |AFTER - BEFORE|, at least 1 */
	uint32_t	*ends;		/* with opts.ends, after flame_build: per
					   line in the order added, the node its
					   stack ends at */
	int		 differential;	/* some line had two counts */
};

/* Sets up an empty flame; opts is copied. */
void	 flame_init(struct flame *, const struct flame_opts *);

/* Frees everything the flame holds; it may be flame_init'ed again. */
void	 flame_release(struct flame *);

/*
 * Adds one line, already parsed by folded_parse into *fl (which must be
 * FOLDED_OK). The line's bytes are copied, so line may be reused. With
 * opts.reverse the frames are stored leaf first; with opts.chain the frames
 * after a "--" separator get a "_[w]" annotation.
 */
void	 flame_add(struct flame *, const char *line, size_t len,
	    const struct folded_line *fl);

/*
 * As flame_add, for a stack (borrowed for the call, no count in it) and
 * its integer count, as a folded profile holds them (profile/fold.h):
 * drawn as its folded line "STACK COUNT" is when fgfold writes it and
 * fgsvg reads it back (folded_parse_stack: a stack that ends in " NUMBER"
 * is read as differential, as flamegraph.pl reads it), so that a stream
 * drawn by fgsvg is the graph of fgfold | fgsvg. No line is written: the
 * stack is copied, its count kept as a number; a stack that is no folded
 * stack (a NUL byte in a name, none at all) is not added.
 */
void	 flame_add_stack(struct flame *, const char *stack, size_t len,
	    uint64_t count);

/*
 * As flame_add_stack, for a stack taken as it is (no count read off its
 * end) and a real weight: a picture that made its weights itself
 * (svg/cmpdraw.h) hands them as numbers, with no line written.
 */
void	 flame_add_weight(struct flame *, const char *stack, size_t len,
	    double weight);

/*
 * As flame_add, but line's bytes are kept, not copied, when they are what
 * the flame needs as they stand (a single space before each count, no
 * --reverse or chain rewriting): line must then stay valid and unchanged
 * until flame_release. fgsvg hands it lines of a file it mapped.
 */
void	 flame_add_kept(struct flame *, const char *line, size_t len,
	    const struct folded_line *fl);

/*
 * Builds the tree from the lines added: sorts them (unless flamechart) and
 * merges their frames as flamegraph.pl does; or, with FLAME_SORT_WEIGHT,
 * merges every frame with its same-named siblings and orders each node's
 * children widest first, its own time after them. Call once, after the
 * last flame_add. Afterwards nodes[0] is the root when any line was added.
 */
void	 flame_build(struct flame *);

/*
 * Lists the frames to draw, in preorder (a frame's descendants follow it
 * before its next sibling), into frames[0..nframes). total is the width of
 * the root (the --total, or time). A frame narrower than mintime is not
 * listed; each run of such siblings becomes one grey frame (node
 * FLAME_NONE) when the run together is at least mintime wide, and is
 * listed in drops[0..ndrops) otherwise. depthmax becomes the depth of the
 * deepest listed frame.
 */
void	 flame_layout(struct flame *, double total, double mintime);

/*
 * Returns 1 and stores in *delta the change (AFTER - BEFORE) of the lines
 * that end at node, when a differential line opened it; returns 0 for a
 * node of plain input.
 */
int	 flame_delta(const struct flame *, uint32_t node, double *delta);

/* The name of a node: borrowed, not NUL-terminated, *len bytes. */
const char *flame_name(const struct flame *, uint32_t node, size_t *len);

#endif
