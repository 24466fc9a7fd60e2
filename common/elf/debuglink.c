/*
 * debuglink: a find_debuginfo callback that never opens a FIFO (see
 * debuglink.h).
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf/debuglink.h"
#include "base/xalloc.h"

/* Is path absent, or a regular file? */
static int
path_ok(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return 1;
	return S_ISREG(st.st_mode);
}

int
debuglink_paths_safe(const char *file_name, const char *debuglink_file)
{
	/* libdwfl's default search: the file's directory, .debug in it, /usr/lib/debug. */
	static const char *const dirs[] = { "", ".debug", "/usr/lib/debug" };
	char path[PATH_MAX], *dir, *slash, *link;
	size_t i;
	int ok = 1;

	if (file_name == NULL)
		return 1;
	dir = xstrdup(file_name);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	else
		strcpy(dir, ".");
	if (debuglink_file != NULL) {
		link = xstrdup(debuglink_file);
	} else {
		const char *base = strrchr(file_name, '/');

		base = base ? base + 1 : file_name;
		link = xmalloc(strlen(base) + sizeof(".debug"));
		strcpy(link, base);
		strcat(link, ".debug");
	}
	if (link[0] == '/' && !path_ok(link))
		ok = 0;
	for (i = 0; ok && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		const char *l = link[0] == '/' ? strrchr(link, '/') + 1 : link;
		int n;

		if (dirs[i][0] == '\0')
			n = snprintf(path, sizeof(path), "%s/%s", dir, l);
		else if (dirs[i][0] != '/')
			n = snprintf(path, sizeof(path), "%s/%s/%s", dir, dirs[i], l);
		else
			n = snprintf(path, sizeof(path), "%s%s%s/%s", dirs[i],
			    dir[0] == '/' ? "" : "/", dir, l);
		if (n > 0 && (size_t)n < sizeof(path) && !path_ok(path))
			ok = 0;
	}
	free(dir);
	free(link);
	return ok;
}

int
debuglink_find_debuginfo(Dwfl_Module *mod, void **userdata,
    const char *modname, Dwarf_Addr base, const char *file_name,
    const char *debuglink_file, GElf_Word debuglink_crc,
    char **debuginfo_file_name)
{
	if (!debuglink_paths_safe(file_name, debuglink_file))
		return -1;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base,
	    file_name, debuglink_file, debuglink_crc, debuginfo_file_name);
}

static char *debuginfo_path;

const Dwfl_Callbacks debuglink_offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = debuglink_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};
