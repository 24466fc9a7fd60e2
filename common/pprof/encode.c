#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/str.h"
#include "base/xalloc.h"
#include "pprof/number.h"
#include "pprof/pb.h"
#include "pprof/pprof.h"
#include "pprof/proto.h"
#include "stream/dso.h"
#include "stream/stream.h"


static uint64_t
cstr_id(struct pprof *p, const char *s)
{
	return pprof_str(p, s, strlen(s));
}

/*
 * Whether a function's name is a symbol as the file holds it: a C name, or
 * one still mangled ("_ZN3app4mainE"), which go tool pprof demangles when
 * system_name is name. A demangled name ("app::main", "f<int>") is not: its
 * mangled one is not in the stream, and pprof would take an equal system
 * name for one not yet demangled and cut its "<...>" and "(...)".
 */
static int
is_symbol(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '_' || s[i] == '.' || s[i] == '$' || s[i] == '@'))
			return 0;
	return len > 0;
}

/* A ValueType message (type, unit) as field `field` of out. */
static void
value_type(struct pprof *p, struct buf *out, uint32_t field, const char *type,
    const char *unit)
{
	buf_reset(&p->tmp);
	pb_uint(&p->tmp, VALUETYPE_TYPE, cstr_id(p, type));
	pb_uint(&p->tmp, VALUETYPE_UNIT, cstr_id(p, unit));
	pb_msg(out, field, &p->tmp);
}

static void
label(struct pprof *p, uint64_t key, int is_num, uint64_t v)
{
	buf_reset(&p->tmp2);
	pb_uint(&p->tmp2, LABEL_KEY, key);
	pb_uint(&p->tmp2, is_num ? LABEL_NUM : LABEL_STR, v);
	pb_msg(&p->tmp, SAMPLE_LABEL, &p->tmp2);
}

/*
 * pprof takes the first mapping for the main program: its name heads every
 * report, and its symbols are the ones looked for first. Returns the id of
 * the DSO that is the program: the one named as the first word of
 * "# cmdline", else the first that is neither a shared library nor
 * bracketed ([kernel.kallsyms]); 0 when there is none.
 */
static uint64_t
main_mapping(struct pprof *p)
{
	const char *prog = p->prof.prog;
	uint64_t first = 0;
	size_t i;

	for (i = 0; i < p->maps.n; i++) {
		const char *f = p->maps.ents[i].key, *base;
		size_t len = p->maps.ents[i].len, blen;

		if (len == 0 || f[0] == '[')
			continue;
		base = memrchr(f, '/', len);
		base = base ? base + 1 : f;
		blen = f + len - base;
		if (prog != NULL && strlen(prog) == blen &&
		    memcmp(prog, base, blen) == 0)
			return i + 1;
		if (first == 0 && memmem(base, blen, ".so", 3) == NULL)
			first = i + 1;
	}
	return first;
}

/* The id mapping id gets in the output: main first, the rest in order. */
static uint64_t
map_order(uint64_t main_map, uint64_t id)
{
	if (main_map == 0 || id > main_map)
		return id;
	return id == main_map ? 1 : id + 1;
}

/*
 * The columns of the samples' values, one per sample type: each kind's
 * index, or -1 where the profile has none.
 */
struct columns {
	int		 n;
	int		 samples;	/* samples/count */
	int		 on;		/* cpu/nanoseconds, or EVENT/count */
	int		 off, wall;	/* off-cpu and wall/nanoseconds */
	int		 heap[4];	/* by heap event, from
					   STREAM_EV_ALLOC_BYTES */
	int		 on_time;	/* the on-CPU event is a clock */
	const char	*deflt;		/* the default sample type */
};

/*
 * The heap profile's four sample types, in the order and with the names
 * of Go's heap profiles, which pprof's readers know.
 */
static const struct {
	enum stream_ev	 ev;
	const char	*type, *unit;
} heap_types[4] = {
	{ STREAM_EV_ALLOC_OBJECTS, "alloc_objects", "count" },
	{ STREAM_EV_ALLOC_BYTES, "alloc_space", "bytes" },
	{ STREAM_EV_INUSE_OBJECTS, "inuse_objects", "count" },
	{ STREAM_EV_INUSE_BYTES, "inuse_space", "bytes" }
};

/* One column more, of the sample type (type, unit); returns its index. */
static int
column(struct pprof *p, struct buf *out, struct columns *c, const char *type,
    const char *unit)
{
	value_type(p, out, PROFILE_SAMPLE_TYPE, type, unit);
	return c->n++;
}

/*
 * The sample types, chosen from what the streams held: samples (unless
 * there were heap samples only), the on-CPU event's weight, off-CPU and
 * wall time, the four heap values.
 */
static void
sample_types(struct pprof *p, struct buf *out, struct columns *c)
{
	const struct stacks *s = &p->prof;
	const char *event = s->event;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->samples = c->on = c->off = c->wall = -1;
	for (i = 0; i < 4; i++)
		c->heap[i] = -1;
	c->on_time = event != NULL && stream_event_is_clock(event,
	    strlen(event));
	c->deflt = "samples";
	if (s->has_on || s->has_off || !s->has_heap)
		c->samples = column(p, out, c, "samples", "count");
	if (s->has_weight) {
		c->deflt = c->on_time ? "cpu" : event[0] != '\0' ? event :
		    "events";
		c->on = column(p, out, c, c->deflt, c->on_time ?
		    "nanoseconds" : "count");
	}
	if (s->has_off) {
		c->off = column(p, out, c, "off-cpu", "nanoseconds");
		c->deflt = "off-cpu";
		if (!s->has_on || (c->on >= 0 && c->on_time)) {
			c->wall = column(p, out, c, "wall", "nanoseconds");
			c->deflt = "wall";
		}
	}
	if (s->has_heap) {
		for (i = 0; i < 4; i++)
			c->heap[heap_types[i].ev - STREAM_EV_ALLOC_BYTES] =
			    column(p, out, c, heap_types[i].type,
			    heap_types[i].unit);
		/* As fgfold weighs a heap profile: the bytes allocated. */
		if (!s->has_on && !s->has_off)
			c->deflt = "alloc_space";
	}
}

/*
 * The samples: one per stack of the profile (a side, a thread, its
 * locations), its values in their columns, its thread's labels.
 */
static void
samples(struct pprof *p, struct buf *out, const struct columns *c)
{
	const struct stacks *s = &p->prof;
	uint64_t k_pid = cstr_id(p, "pid"), k_tid = cstr_id(p, "tid");
	uint64_t k_comm = cstr_id(p, "comm");
	size_t i;

	GROW(p->vals, c->n, p->vals_cap);
	for (i = 0; i < s->stacks.n; i++) {
		const struct intern_entry *e = &s->stacks.ents[i];
		const uint8_t *k = (const uint8_t *)e->key, *end = k + e->len;
		int side = stacks_key_side(&k);
		size_t th = stacks_key_thread(&k);
		const struct stacks_thread *t = &s->thr[th];

		buf_reset(&p->tmp);
		/* The location ids in the key are already the packed field. */
		if (k < end)
			pb_bytes(&p->tmp, SAMPLE_LOCATION_ID, k, end - k);
		memset(p->vals, 0, c->n * sizeof(*p->vals));
		if (side >= STACKS_HEAP)
			p->vals[c->heap[side - STACKS_HEAP]] = e->u[1];
		else if (c->samples >= 0)
			p->vals[c->samples] = e->u[0];
		if (side == STACKS_ON && c->on >= 0)
			p->vals[c->on] = e->u[1];
		if (side == STACKS_OFF)
			p->vals[c->off] = e->u[1];
		if (side <= STACKS_OFF && c->wall >= 0)
			p->vals[c->wall] = e->u[1];
		pb_packed(&p->tmp, SAMPLE_VALUE, p->vals, c->n);
		if (t->pid >= 0)
			label(p, k_pid, 1, t->pid);
		label(p, k_tid, 1, t->tid);
		label(p, k_comm, 0, p->tcomm[th]);
		pb_msg(out, PROFILE_SAMPLE, &p->tmp);
	}
}

/* The mappings, the program's first (main_mapping), with what they hold. */
static void
mappings(struct pprof *p, struct buf *out, uint64_t main_map)
{
	const struct stacks *s = &p->prof;
	size_t i, j;

	for (j = 0; j < p->maps.n; j++) {
		/* In the order of map_order: pprof takes the first for main. */
		const struct intern_entry *e, *b;

		i = j == 0 && main_map != 0 ? main_map - 1 :
		    main_map != 0 && j < main_map ? j - 1 : j;
		e = &p->maps.ents[i];
		b = intern_find(&p->prof.buildids, e->key, e->len);
		buf_reset(&p->tmp);
		pb_uint(&p->tmp, MAPPING_ID, map_order(main_map, i + 1));
		pb_uint(&p->tmp, MAPPING_FILENAME, e->u[0]);
		if (b != NULL)
			pb_uint(&p->tmp, MAPPING_BUILD_ID, pprof_str(p,
			    s->bids.ents[b->u[0]].key, s->bids.ents[b->u[0]].len));
		if (e->u[1] & PPROF_MAP_FUNCS)
			pb_uint(&p->tmp, MAPPING_HAS_FUNCTIONS, 1);
		if (e->u[1] & PPROF_MAP_FILES)
			pb_uint(&p->tmp, MAPPING_HAS_FILENAMES, 1);
		if (e->u[1] & PPROF_MAP_LINES)
			pb_uint(&p->tmp, MAPPING_HAS_LINE_NUMBERS, 1);
		if (e->u[1] & PPROF_MAP_INLINE)
			pb_uint(&p->tmp, MAPPING_HAS_INLINE_FRAMES, 1);
		pb_msg(out, PROFILE_MAPPING, &p->tmp);
	}
}

/* The locations numbered, their messages (p->larena) given id and mapping. */
static void
locations(struct pprof *p, struct buf *out, uint64_t main_map)
{
	const uint8_t *loc = (const uint8_t *)p->larena.p;
	size_t i;

	for (i = 0; i < p->prof.locs.n; i++) {
		uint64_t map = buf_varint_get(&loc), len = buf_varint_get(&loc);

		buf_reset(&p->tmp);
		pb_uint(&p->tmp, LOCATION_ID, i + 1);
		if (map != 0)
			pb_uint(&p->tmp, LOCATION_MAPPING_ID,
			    map_order(main_map, map));
		buf_add(&p->tmp, loc, len);
		loc += len;
		pb_msg(out, PROFILE_LOCATION, &p->tmp);
	}
}

/* The functions: name, system name where it is a symbol, file. */
static void
functions(struct pprof *p, struct buf *out)
{
	size_t i;

	for (i = 0; i < p->funcs.n; i++) {
		const struct intern_entry *e = &p->funcs.ents[i];

		buf_reset(&p->tmp);
		pb_uint(&p->tmp, FUNCTION_ID, i + 1);
		pb_uint(&p->tmp, FUNCTION_NAME, e->u[0]);
		/* the key is "NAME\0FILE" */
		if (is_symbol(e->key, (const char *)memchr(e->key, '\0',
		    e->len) - e->key))
			pb_uint(&p->tmp, FUNCTION_SYSTEM_NAME, e->u[0]);
		if (e->u[1] != 0)
			pb_uint(&p->tmp, FUNCTION_FILENAME, e->u[1]);
		pb_msg(out, PROFILE_FUNCTION, &p->tmp);
	}
}

/*
 * The profile's own fields: its time and duration, the period (a clock's
 * nanoseconds, or a heap profile's bytes between samples), the comments,
 * the default sample type and, last, when every string is in, the string
 * table.
 */
static void
trailer(struct pprof *p, struct buf *out, const struct columns *c)
{
	const struct stacks *s = &p->prof;
	size_t i;

	if (s->time_nanos > 0)
		pb_uint(out, PROFILE_TIME_NANOS, s->time_nanos);
	if (s->duration > 0)
		pb_uint(out, PROFILE_DURATION_NANOS, s->duration);
	if (c->on >= 0 && c->on_time) {
		value_type(p, out, PROFILE_PERIOD_TYPE, "cpu", "nanoseconds");
		if (s->hdr_period > 0 || s->first_period > 0)
			pb_uint(out, PROFILE_PERIOD, s->hdr_period > 0 ?
			    s->hdr_period : s->first_period);
	} else if (s->has_heap && s->heap_period > 0) {
		value_type(p, out, PROFILE_PERIOD_TYPE, "space", "bytes");
		pb_uint(out, PROFILE_PERIOD, s->heap_period);
	}
	for (i = 0; i < p->ncomments; i++)
		pb_uint(out, PROFILE_COMMENT, p->comments[i]);
	pb_uint(out, PROFILE_DEFAULT_SAMPLE_TYPE, cstr_id(p, c->deflt));
	for (i = 0; i < p->strs.n; i++)
		pb_bytes(out, PROFILE_STRING_TABLE, p->strs.ents[i].key,
		    p->strs.ents[i].len);
}

void
pprof_encode(struct pprof *p, struct buf *out)
{
	struct columns c;
	uint64_t main_map;

	pprof_number(p);
	sample_types(p, out, &c);
	samples(p, out, &c);
	main_map = main_mapping(p);
	mappings(p, out, main_map);
	locations(p, out, main_map);
	functions(p, out);
	trailer(p, out, &c);
}

int
pprof_write(struct pprof *p, FILE *out)
{
	struct buf raw;
	z_stream z;
	unsigned char buf[1 << 16];
	int zr;

	buf_init(&raw);
	pprof_encode(p, &raw);
	memset(&z, 0, sizeof(z));
	/* 16 + 15: a gzip header, with no name and time 0, so that the same
	   input gives the same bytes. The fastest level, as Go's runtime/pprof
	   uses: profiles compress well at any level. */
	if ((zr = deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 16 + 15, 8,
	    Z_DEFAULT_STRATEGY)) != Z_OK)
		errx(2, "zlib: deflateInit2: %s", zError(zr));
	z.next_in = (Bytef *)raw.p;
	do {
		/* avail_in is 32 bits wide: feed a big profile in pieces. */
		size_t left = raw.len - ((char *)z.next_in - raw.p);

		if (z.avail_in == 0)
			z.avail_in = left > (1u << 30) ? 1u << 30 : left;
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		zr = deflate(&z, left > z.avail_in ? Z_NO_FLUSH : Z_FINISH);
		if (zr == Z_STREAM_ERROR)
			errx(2, "zlib: deflate: %s", z.msg ? z.msg : zError(zr));
		if (fwrite(buf, 1, sizeof(buf) - z.avail_out, out) !=
		    sizeof(buf) - z.avail_out) {
			int e = errno;

			deflateEnd(&z);
			buf_release(&raw);
			errno = e;
			return -1;
		}
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	buf_release(&raw);
	if (p->prof.saturated)
		warnx("a sum passed 2^63-1, the largest value a profile holds, "
		    "and stopped there; convert fewer samples at a time");
	return 0;
}
