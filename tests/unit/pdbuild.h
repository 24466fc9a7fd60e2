/*
 * pdbuild.h: hand-built perf data for test_perfdata and the fuzz seeds:
 * one cpu-clock event (IP, TID, TIME, ID, PERIOD, CALLCHAIN), a COMM, an
 * MMAP2 and three samples out of time order within two rounds, as a
 * PERFILE2 file or in pipe mode; and the side-band records a test adds
 * to them (LOST, LOST_SAMPLES, THROTTLE).
 */
#ifndef FG_PDBUILD_H
#define FG_PDBUILD_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"

#define PDB_ID		77
#define PDB_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

static inline void
pdb_u64(struct buf *b, uint64_t v)
{
	buf_add(b, &v, 8);
}

static inline void
pdb_head(struct buf *b, uint32_t type, uint16_t misc, uint16_t size)
{
	struct perf_event_header h = { type, misc, size };

	buf_add(b, &h, sizeof(h));
}

static inline void
pdb_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_type = PDB_TYPE;
	a->sample_period = 1000;
	a->freq = 1;
	a->sample_id_all = 1;
}

/* The sample_id_all trailer: TID, TIME, ID. */
static inline void
pdb_trailer(struct buf *b, uint64_t time)
{
	uint32_t t[2] = { 42, 42 };

	buf_add(b, t, 8);
	pdb_u64(b, time);
	pdb_u64(b, PDB_ID);
}

static inline void
pdb_sample(struct buf *b, uint64_t time, uint64_t ip)
{
	uint32_t t[2] = { 42, 42 };

	pdb_head(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 8 * 8);
	pdb_u64(b, ip);
	buf_add(b, t, 8);
	pdb_u64(b, time);
	pdb_u64(b, PDB_ID);
	pdb_u64(b, 1000);
	pdb_u64(b, 2);
	pdb_u64(b, PERF_CONTEXT_USER);
	pdb_u64(b, ip);
}

/* The data records: COMM, MMAP2, samples at 30, 10, a round, 20. */
static inline void
pdb_data(struct buf *b)
{
	static const char comm[16] = "app";
	static const char path[16] = "/tmp/pdb-app";
	uint32_t t[2] = { 42, 42 }, prot[2] = { 5, 2 };
	uint64_t m[3] = { 0x400000, 0x1000, 0 }, dev[3] = { 0, 0, 0 };

	pdb_head(b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC,
	    8 + 8 + 16 + 24);
	buf_add(b, t, 8);
	buf_add(b, comm, 16);
	pdb_trailer(b, 1);
	pdb_head(b, PERF_RECORD_MMAP2, 0, 8 + 8 + 24 + 24 + 8 + 16 + 24);
	buf_add(b, t, 8);
	buf_add(b, m, 24);
	buf_add(b, dev, 24);
	buf_add(b, prot, 8);
	buf_add(b, path, 16);
	pdb_trailer(b, 2);
	pdb_sample(b, 30, 0x400100);
	pdb_sample(b, 10, 0x400200);
	pdb_head(b, 68, 0, 8);		/* FINISHED_ROUND */
	pdb_sample(b, 20, 0x400300);
	pdb_head(b, 68, 0, 8);
}

/* LOST_SAMPLES (the count), misc 1 << 15: dropped by a BPF filter. */
static inline void
pdb_lost_samples(struct buf *b, uint64_t lost, uint64_t time, uint16_t misc)
{
	pdb_head(b, PERF_RECORD_LOST_SAMPLES, misc, 8 + 8 + 24);
	pdb_u64(b, lost);
	pdb_trailer(b, time);
}

/* LOST (id, lost), THROTTLE and UNTHROTTLE (time, id, stream_id). */
static inline void
pdb_lost(struct buf *b, uint64_t lost, uint64_t time)
{
	pdb_head(b, PERF_RECORD_LOST, 0, 8 + 16 + 24);
	pdb_u64(b, PDB_ID);
	pdb_u64(b, lost);
	pdb_trailer(b, time);
}

static inline void
pdb_throttle(struct buf *b, int on, uint64_t time)
{
	pdb_head(b, on ? PERF_RECORD_THROTTLE : PERF_RECORD_UNTHROTTLE, 0,
	    8 + 24 + 24);
	pdb_u64(b, time);
	pdb_u64(b, PDB_ID);
	pdb_u64(b, PDB_ID);
	pdb_trailer(b, time);
}

/* A PERFILE2 file of the data records d: header, ids, attribute, data. */
static inline void
pdb_file_of(struct buf *b, const struct buf *d)
{
	struct perf_event_attr a;
	uint64_t ids_off = 104, attr_off = 112, data_off;

	pdb_attr(&a);
	data_off = attr_off + sizeof(a) + 16;
	buf_add(b, "PERFILE2", 8);
	pdb_u64(b, 104);
	pdb_u64(b, sizeof(a) + 16);
	pdb_u64(b, attr_off);
	pdb_u64(b, sizeof(a) + 16);
	pdb_u64(b, data_off);
	pdb_u64(b, d->len);
	pdb_u64(b, 0);
	pdb_u64(b, 0);
	for (int i = 0; i < 4; i++)
		pdb_u64(b, 0);		/* no features */
	pdb_u64(b, PDB_ID);		/* the ids, at 104 */
	buf_add(b, &a, sizeof(a));
	pdb_u64(b, ids_off);
	pdb_u64(b, 8);
	buf_add(b, d->p, d->len);
}

/* A PERFILE2 file of pdb_data. */
static inline void
pdb_file(struct buf *b)
{
	struct buf d;

	buf_init(&d);
	pdb_data(&d);
	pdb_file_of(b, &d);
	buf_release(&d);
}

/* Pipe mode: the short header, HEADER_ATTR, the data. */
static inline void
pdb_pipe(struct buf *b)
{
	struct perf_event_attr a;

	pdb_attr(&a);
	buf_add(b, "PERFILE2", 8);
	pdb_u64(b, 16);
	pdb_head(b, 64, 0, (uint16_t)(8 + sizeof(a) + 8));
	buf_add(b, &a, sizeof(a));
	pdb_u64(b, PDB_ID);
	pdb_data(b);
}

#endif
