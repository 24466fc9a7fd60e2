#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/str.h"
#include "base/xalloc.h"
#include "pprof/encode.h"
#include "pprof/pb.h"
#include "stream/dso.h"
#include "stream/stream.h"

/* Mapping flags: what the stream told about a DSO's frames. */
#define MAP_FUNCS	1
#define MAP_FILES	2
#define MAP_LINES	4
#define MAP_INLINE	8

/* The fields of profile.proto (github.com/google/pprof, proto/profile.proto). */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE, PROFILE_MAPPING,
	PROFILE_LOCATION, PROFILE_FUNCTION, PROFILE_STRING_TABLE,
	PROFILE_TIME_NANOS = 9, PROFILE_DURATION_NANOS, PROFILE_PERIOD_TYPE, PROFILE_PERIOD,
	PROFILE_COMMENT, PROFILE_DEFAULT_SAMPLE_TYPE,
	VALUETYPE_TYPE = 1, VALUETYPE_UNIT,
	SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE, SAMPLE_LABEL,
	LABEL_KEY = 1, LABEL_STR, LABEL_NUM,
	MAPPING_ID = 1, MAPPING_FILENAME = 5, MAPPING_BUILD_ID,
	MAPPING_HAS_FUNCTIONS, MAPPING_HAS_FILENAMES, MAPPING_HAS_LINE_NUMBERS,
	MAPPING_HAS_INLINE_FRAMES,
	LOCATION_ID = 1, LOCATION_MAPPING_ID, LOCATION_ADDRESS, LOCATION_LINE,
	LINE_FUNCTION_ID = 1, LINE_LINE,
	FUNCTION_ID = 1, FUNCTION_NAME, FUNCTION_SYSTEM_NAME, FUNCTION_FILENAME
};

uint64_t
pprof_str(struct pprof *p, const char *s, size_t len)
{
	if (len == 0)
		return 0;	/* s may be NULL */
	return intern_get(&p->strs, s, len) - p->strs.ents;
}

static uint64_t
cstr_id(struct pprof *p, const char *s)
{
	return pprof_str(p, s, strlen(s));
}

static uint64_t
map_id(struct pprof *p, const char *dso, size_t len)
{
	size_t n = p->maps.n;
	struct intern_entry *e = intern_get(&p->maps, dso, len);
	uint64_t id = e - p->maps.ents + 1;

	if (p->maps.n != n)
		p->maps.ents[id - 1].u[0] = pprof_str(p, dso, len);
	return id;
}

static uint64_t
func_id(struct pprof *p, const char *name, size_t nlen, const char *file,
    size_t flen)
{
	char *k = xmalloc(nlen + flen + 1);
	size_t n = p->funcs.n;
	uint64_t id;

	memcpy(k, name, nlen);
	k[nlen] = '\0';
	if (flen > 0)		/* file is NULL when there is none */
		memcpy(k + nlen + 1, file, flen);
	id = intern_get(&p->funcs, k, nlen + 1 + flen) - p->funcs.ents + 1;
	free(k);
	if (p->funcs.n != n) {
		uint64_t nid = pprof_str(p, name, nlen), fid = pprof_str(p, file, flen);

		p->funcs.ents[id - 1].u[0] = nid;
		p->funcs.ents[id - 1].u[1] = fid;
	}
	return id;
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

/*
 * The function of a location's line f: its name, or for an [unknown] last
 * line of a location with a non-inlined frame pf, the DSO's name where the
 * DSO is not a file ([kernel.kallsyms], [vdso], [unknown]: "[[vdso]]", as
 * fgfold names it), and none (NOLINE: pprof may symbolize it) where it is;
 * its file is its source file, else pf's DSO as a file name (bracketed:
 * "[/usr/lib/libc.so.6]", "[kernel.kallsyms]").
 */
#define NOLINE	UINT64_MAX
static uint64_t
line_func(struct pprof *p, const struct stacks_frame *f,
    const struct stacks_frame *pf, int last)
{
	const char *name = f->name, *file = f->file;
	size_t nlen = f->nlen, flen = f->flen;
	char *dname = NULL, *dtmp = NULL;
	uint64_t id;

	if (pf != NULL && last && str_is(name, nlen, STREAM_UNKNOWN)) {
		const char *b;
		size_t bl;

		if (pf->dlen > 0 && pf->dso[0] == '/')
			return NOLINE;
		dso_unknown_base(pf->dso, pf->dlen, &b, &bl);
		dname = xasprintf("[%.*s]", (int)bl, b);
		name = dname;
		nlen = strlen(dname);
	}
	if (flen == 0 && pf != NULL) {
		if (pf->dlen > 0 && pf->dso[0] == '[') {
			file = pf->dso;
			flen = pf->dlen;
		} else {
			dtmp = xasprintf("[%.*s]", (int)pf->dlen, pf->dso);
			file = dtmp;
			flen = strlen(dtmp);
		}
	}
	id = func_id(p, name, nlen, file, flen);
	free(dname);
	free(dtmp);
	return id;
}

void
pprof_location(struct pprof *p, size_t id)
{
	const struct stacks *s = &p->prof;
	const struct stacks_frame *f, *pf = NULL;
	const uint8_t *ids;
	uint64_t addr, mid = 0, flags = 0, func;
	size_t nl = stacks_loc(s, id, &addr, &ids), i, phys = 0;

	GROW(p->fids, nl + 1, p->fids_cap);
	for (i = 0; i < nl; i++) {
		p->fids[i] = (uint32_t)buf_varint_get(&ids);
		if (!s->frm[p->fids[i]].inlined) {
			phys = i;
			pf = &s->frm[p->fids[i]];
		} else
			flags |= MAP_INLINE;
	}
	if (pf != NULL) {
		struct pprof_fmemo *m = &p->fmemo[p->fids[phys]];

		if (m->map == 0)
			m->map = map_id(p, pf->dso, pf->dlen);
		mid = m->map;
	}
	/* The id and mapping id are written by pprof_encode, which puts the
	   main program's mapping first. */
	buf_reset(&p->tmp);
	if (addr != 0)
		pb_uint(&p->tmp, LOCATION_ADDRESS, addr);
	for (i = 0; i < nl; i++) {
		f = &s->frm[p->fids[i]];
		if (pf != NULL && i == nl - 1 && phys == i) {
			/* The usual last line: its function depends on
			   nothing but the frame. */
			struct pprof_fmemo *m = &p->fmemo[p->fids[i]];

			if (m->func == 0)
				m->func = line_func(p, f, pf, 1);
			func = m->func;
		} else
			func = line_func(p, f, pf, i == nl - 1);
		if (func == NOLINE)
			continue;
		buf_reset(&p->tmp2);
		pb_uint(&p->tmp2, LINE_FUNCTION_ID, func);
		if (f->line > 0)
			pb_uint(&p->tmp2, LINE_LINE, f->line);
		pb_msg(&p->tmp, LOCATION_LINE, &p->tmp2);
		flags |= MAP_FUNCS;
		if (f->flen > 0)
			flags |= MAP_FILES;
		if (f->line > 0)
			flags |= MAP_LINES;
	}
	if (mid != 0)
		p->maps.ents[mid - 1].u[1] |= flags;
	/* Its mapping, the message's length and the message, after the
	   location before it. It may be empty (an [unknown] frame at
	   address 0). */
	buf_varint(&p->larena, mid);
	buf_varint(&p->larena, p->tmp.len);
	buf_add(&p->larena, p->tmp.p, p->tmp.len);
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

void
pprof_encode(struct pprof *p, struct buf *out)
{
	const struct stacks *s = &p->prof;
	const char *event = s->event;
	int on_time = event != NULL && stream_event_is_clock(event, strlen(event));
	int c_on = -1, c_off = -1, c_wall = -1, ncol = 1;
	const char *deflt = "samples", *on_type = "samples";
	uint64_t k_pid, k_tid, k_comm, main_map;
	const uint8_t *loc;
	size_t i, j;

	pprof_number(p);
	/* The sample types: which columns the values have. */
	value_type(p, out, PROFILE_SAMPLE_TYPE, "samples", "count");
	if (s->has_weight) {
		c_on = ncol++;
		on_type = on_time ? "cpu" :
		    event[0] != '\0' ? event : "events";
		value_type(p, out, PROFILE_SAMPLE_TYPE, on_type,
		    on_time ? "nanoseconds" : "count");
		deflt = on_type;
	}
	if (s->has_off) {
		c_off = ncol++;
		value_type(p, out, PROFILE_SAMPLE_TYPE, "off-cpu", "nanoseconds");
		deflt = "off-cpu";
		if (!s->has_on || (c_on >= 0 && on_time)) {
			c_wall = ncol++;
			value_type(p, out, PROFILE_SAMPLE_TYPE, "wall", "nanoseconds");
			deflt = "wall";
		}
	}
	GROW(p->vals, ncol, p->vals_cap);
	k_pid = cstr_id(p, "pid");
	k_tid = cstr_id(p, "tid");
	k_comm = cstr_id(p, "comm");
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
		memset(p->vals, 0, ncol * sizeof(*p->vals));
		p->vals[0] = e->u[0];
		if (side == STACKS_ON && c_on >= 0)
			p->vals[c_on] = e->u[1];
		if (side == STACKS_OFF)
			p->vals[c_off] = e->u[1];
		if (c_wall >= 0)
			p->vals[c_wall] = e->u[1];
		pb_packed(&p->tmp, SAMPLE_VALUE, p->vals, ncol);
		if (t->pid >= 0)
			label(p, k_pid, 1, t->pid);
		label(p, k_tid, 1, t->tid);
		label(p, k_comm, 0, p->tcomm[th]);
		pb_msg(out, PROFILE_SAMPLE, &p->tmp);
	}
	main_map = main_mapping(p);
	for (j = 0; j < p->maps.n; j++) {
		/* In the order of map_order: pprof takes the first for main. */
		size_t i = j == 0 && main_map != 0 ? main_map - 1 :
		    main_map != 0 && j < main_map ? j - 1 : j;
		const struct intern_entry *e = &p->maps.ents[i];
		const struct intern_entry *b = intern_find(&p->prof.buildids,
		    e->key, e->len);

		buf_reset(&p->tmp);
		pb_uint(&p->tmp, MAPPING_ID, map_order(main_map, i + 1));
		pb_uint(&p->tmp, MAPPING_FILENAME, e->u[0]);
		if (b != NULL)
			pb_uint(&p->tmp, MAPPING_BUILD_ID, pprof_str(p,
			    s->bids.ents[b->u[0]].key, s->bids.ents[b->u[0]].len));
		if (e->u[1] & MAP_FUNCS)
			pb_uint(&p->tmp, MAPPING_HAS_FUNCTIONS, 1);
		if (e->u[1] & MAP_FILES)
			pb_uint(&p->tmp, MAPPING_HAS_FILENAMES, 1);
		if (e->u[1] & MAP_LINES)
			pb_uint(&p->tmp, MAPPING_HAS_LINE_NUMBERS, 1);
		if (e->u[1] & MAP_INLINE)
			pb_uint(&p->tmp, MAPPING_HAS_INLINE_FRAMES, 1);
		pb_msg(out, PROFILE_MAPPING, &p->tmp);
	}
	loc = (const uint8_t *)p->larena.p;
	for (i = 0; i < s->locs.n; i++) {
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
	if (s->time_nanos > 0)
		pb_uint(out, PROFILE_TIME_NANOS, s->time_nanos);
	if (s->duration > 0)
		pb_uint(out, PROFILE_DURATION_NANOS, s->duration);
	if (c_on >= 0 && on_time) {
		value_type(p, out, PROFILE_PERIOD_TYPE, "cpu", "nanoseconds");
		if (s->hdr_period > 0 || s->first_period > 0)
			pb_uint(out, PROFILE_PERIOD, s->hdr_period > 0 ?
			    s->hdr_period : s->first_period);
	}
	for (i = 0; i < p->ncomments; i++)
		pb_uint(out, PROFILE_COMMENT, p->comments[i]);
	pb_uint(out, PROFILE_DEFAULT_SAMPLE_TYPE, cstr_id(p, deflt));
	/* Last, when every string is in. */
	for (i = 0; i < p->strs.n; i++)
		pb_bytes(out, PROFILE_STRING_TABLE, p->strs.ents[i].key,
		    p->strs.ents[i].len);
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
