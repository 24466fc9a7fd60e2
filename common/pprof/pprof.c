#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "pprof/pprof.h"
#include "profile/stacks.h"

void
pprof_init(struct pprof *p)
{
	memset(p, 0, sizeof(*p));
	stacks_init(&p->prof);
	intern_init(&p->strs);
	intern_init(&p->funcs);
	intern_init(&p->maps);
}

void
pprof_release(struct pprof *p)
{
	stacks_release(&p->prof);
	intern_release(&p->strs);
	intern_release(&p->funcs);
	intern_release(&p->maps);
	buf_release(&p->larena);
	buf_release(&p->tmp);
	buf_release(&p->tmp2);
	free(p->tcomm);
	free(p->fmemo);
	free(p->fids);
	free(p->comments);
	free(p->vals);
	memset(p, 0, sizeof(*p));
}
