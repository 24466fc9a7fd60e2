# fgtools: fgrecord | fgsym | fgfold | fgsvg
#
#   make            build the five tools
#   make check      install missing packages, build, run the tests but the
#                   slow ones (a browser, cargo builds, valgrind): under 5 minutes
#   make check-all  the same with every test (what CI runs)
#                   (tests/run: one file per CPU at a time; FG_TEST_JOBS=N to change)
#   make test       build and run every test, installing nothing
#   make demo       profile a bundled example and write demo.svg
#   make bench      measure speed, side by side with the reference tools
#   make stress     load figures: a million unique stacks, 16 threads
#   make fuzz       run every fuzz harness for FUZZ_TIME seconds (libFuzzer)
#   make readme-png redraw docs/flamegraph.png and docs/offcpu.png from profiles of examples
#   make install PREFIX=/usr/local

# The one version: the tools' -V/--version and cargo fg's.
VERSION	 = 0.1.0
PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
PKGS	 = libelf libdw capstone libxxhash libzstd
# libdebuginfod (libdebuginfod-dev) when present: fgsym asks debuginfod
# servers for debug files. Without it the tools build, and fgsym says so
# once when DEBUGINFOD_URLS is set. Its header only: the library is not
# linked but loaded by elf/dbgfetch.c on the first request (dlopen), so
# that no tool loads libcurl and gnutls at its start.
DEBUGINFOD := $(shell pkg-config --exists libdebuginfod 2>/dev/null && echo 1)

# CFLAGS is the user's (make CFLAGS=-O0 replaces it); what the build needs
# is in FG_CFLAGS, always added. make's built-in CC is cc.
CFLAGS	?= -O2 -g
LIBDIR	?= $(PREFIX)/lib/fgtools
FG_CPPFLAGS = -D_GNU_SOURCE -DFG_VERSION='"$(VERSION)"' -DFG_LIBDIR='"$(LIBDIR)"' -Icommon \
	  $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
ifeq ($(DEBUGINFOD),1)
FG_CPPFLAGS += -DFG_DEBUGINFOD $(shell pkg-config --cflags libdebuginfod 2>/dev/null)
endif
FG_CFLAGS = -std=gnu11 -Wall -Wextra $(FG_CPPFLAGS) -MMD -MP
FG_LDLIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -liberty -lm -lz -ldl

# make check SANITIZE=1: everything under ASan and UBSan; undefined
# behaviour stops the program, so that a test sees it.
ifeq ($(SANITIZE),1)
FG_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FG_LDFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=undefined
endif
ALL_CFLAGS = $(FG_CFLAGS) $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(FG_LDFLAGS) $(LDFLAGS)
ALL_LDLIBS = $(LDLIBS) $(FG_LDLIBS)

TOOLS	= fgrecord fgsym fgfold fgsvg fgpprof
BINS	= $(TOOLS:%=bin/%)
LIBSRC	= $(sort $(wildcard common/*/*.c))
# The SVG's script is JavaScript in common/svg/svgscript.js, made into a C
# array (NUL-terminated) under build/gen at build time.
GENSRC	= build/gen/svg/svgscript.c build/gen/svg/timelinescript.c
LIBOBJ	= $(LIBSRC:%.c=build/%.o) $(GENSRC:build/gen/%.c=build/common/%.o)
UNITSRC	= $(sort $(wildcard tests/unit/test_*.c))
UNITS	= $(UNITSRC:tests/unit/%.c=build/tests/%)
# t500's driver of the annotate module, linked with the library as the
# tools are, so that it is built from whatever common/ holds.
ADRIVER	= build/tests/annotate-driver
MANS	= $(sort $(wildcard man/*.[1-9]))
# Fuzz harnesses: libFuzzer targets for make fuzz, and the same harnesses
# linked with a replay driver for make check (seeds and kept crashes).
FUZZSRC	= $(sort $(wildcard tests/fuzz/fuzz_*.c))
REGRESS	= $(FUZZSRC:tests/fuzz/fuzz_%.c=build/regress/regress_%)
FUZZERS	= $(FUZZSRC:tests/fuzz/fuzz_%.c=build/fuzz/fuzz_%)
FUZZCC	?= clang
FUZZ_TIME ?= 60
FUZZSAN	= -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZOBJ	= $(LIBSRC:%.c=build/fuzz/%.o) $(GENSRC:build/gen/%.c=build/fuzz/common/%.o)
SCRIPTS	= cargo-fg
# fgrecord --alloc's hooks, preloaded into the command: found beside
# bin/fgrecord (../lib) or in LIBDIR. Not part of libfg.a: it defines
# malloc. A frame pointer in every hook (the caller's registers are read
# off it), initial-exec TLS, nothing of the compiler's own malloc calls.
PRELOAD	= lib/libfgalloc.so
PRELOAD_CFLAGS = -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -Icommon -fPIC -shared \
	  -fno-omit-frame-pointer -fno-builtin -ftls-model=initial-exec -fvisibility=hidden

.PHONY: all deps testdeps check check-all test demo bench install uninstall clean lint-man readme-png fuzz fuzzdeps stress
all: $(BINS) $(PRELOAD) $(UNITS) $(REGRESS) $(ADRIVER)

deps:
	@scripts/deps

# Every test dependency too (scripts/deps check), so that nothing skips
# for want of a package.
testdeps:
	@scripts/deps check

build/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The script goes inside CDATA: "]]>" in it would end the section.
build/gen/%.c: common/%.js
	@mkdir -p $(@D)
	@! grep -n ']]>' $< /dev/null || { echo "$<: ']]>' would end the SVG's CDATA section" >&2; exit 1; }
	{ echo '/* Made by make from $<: edit that file. */'; \
	  echo '#include "svg/svg.h"'; echo 'const char svg_script[] = {'; \
	  od -An -v -tu1 $< | sed 's/[0-9][0-9]*/&,/g'; echo '0 };'; } > $@.tmp && mv -f $@.tmp $@

# The timeline's script (svg/timeline.h), made the same way.
build/gen/svg/timelinescript.c: common/svg/timeline.js
	@mkdir -p $(@D)
	@! grep -n ']]>' $< /dev/null || { echo "$<: ']]>' would end the SVG's CDATA section" >&2; exit 1; }
	{ echo '/* Made by make from $<: edit that file. */'; \
	  echo '#include "svg/timeline.h"'; echo 'const char timeline_script[] = {'; \
	  od -An -v -tu1 $< | sed 's/[0-9][0-9]*/&,/g'; echo '0 };'; } > $@.tmp && mv -f $@.tmp $@

build/common/%.o: build/gen/%.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(PRELOAD): preload/fgalloc.c common/record/allocmsg.h
	@mkdir -p $(@D)
	$(CC) $(PRELOAD_CFLAGS) $(CFLAGS) -o $@.tmp $< -ldl -lm -lpthread && mv -f $@.tmp $@

build/libfg.a: $(LIBOBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# Linked to a temporary name and renamed, so that a test running the old
# binary never finds a half-written one. The Makefile holds VERSION.
bin/%: cmd/%.c build/libfg.a Makefile
	@mkdir -p $(@D) build/cmd
	$(CC) $(ALL_CFLAGS) -MF build/cmd/$*.d -MT $@ $(ALL_LDFLAGS) -o $@.tmp $< build/libfg.a $(ALL_LDLIBS) && mv -f $@.tmp $@

build/tests/%: tests/unit/%.c build/libfg.a
	@mkdir -p $(@D) build/dep/tests
	$(CC) $(ALL_CFLAGS) -MF build/dep/tests/$*.d -MT $@ -Itests/unit $(ALL_LDFLAGS) -o $@ $< build/libfg.a $(ALL_LDLIBS)

$(ADRIVER): tests/annotate/driver.c build/libfg.a
	@mkdir -p $(@D) build/dep/tests
	$(CC) $(ALL_CFLAGS) -MF build/dep/tests/annotate-driver.d -MT $@ $(ALL_LDFLAGS) -o $@ $< build/libfg.a $(ALL_LDLIBS)

build/regress/%.o: tests/fuzz/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests/fuzz -c -o $@ $<

build/regress/regress_%: build/regress/fuzz_%.o build/regress/driver.o build/libfg.a
	$(CC) $(ALL_LDFLAGS) $(CFLAGS) -o $@ $^ $(ALL_LDLIBS)

build/fuzz/common/%.o: common/%.c | fuzzdeps
	@mkdir -p $(@D)
	$(FUZZCC) -g -O1 -std=gnu11 $(FG_CPPFLAGS) -MMD -MP -fsanitize=fuzzer-no-link $(FUZZSAN) -c -o $@ $<

build/fuzz/common/%.o: build/gen/%.c | fuzzdeps
	@mkdir -p $(@D)
	$(FUZZCC) -g -O1 -std=gnu11 $(FG_CPPFLAGS) -MMD -MP -fsanitize=fuzzer-no-link $(FUZZSAN) -c -o $@ $<

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZOBJ)
	$(FUZZCC) -g -O1 -std=gnu11 $(FG_CPPFLAGS) -MMD -MP -MF $@.d -MT $@ -Itests/fuzz -fsanitize=fuzzer $(FUZZSAN) \
	    -o $@ $< $(FUZZOBJ) $(FG_LDLIBS)

fuzzdeps:
	@FG_WITH_FUZZ=1 scripts/deps

# Runs every harness for FUZZ_TIME seconds, from its seeds; a crash is
# saved under build/fuzz/ and should be kept in tests/fuzz/regress/NAME/.
# The sanitized objects are kept between runs (make would delete them as
# intermediates and rebuild them all each time).
.SECONDARY: $(FUZZOBJ) $(GENSRC) $(REGRESS:build/regress/regress_%=build/regress/fuzz_%.o) build/regress/driver.o

# What each object includes, written by the compiler (-MMD -MP).
-include $(shell find build -name '*.d' 2>/dev/null)

fuzz: $(FUZZERS)
	@scripts/fuzz $(FUZZ_TIME) $(FUZZERS)

check: testdeps
	@$(MAKE) --no-print-directory all
	@tests/run --quick

check-all: testdeps
	@$(MAKE) --no-print-directory all
	@tests/run

test: all
	@tests/run

lint-man:
	mandoc -Tlint -W warning $(MANS)

demo: deps
	@$(MAKE) --no-print-directory all
	@scripts/demo

bench: all
	@bench/run

# Load figures: fgfold and fgsvg on a million unique stacks, fgrecord on 16
# threads (also part of make bench).
stress: all
	@scripts/stress

# The picture at the top of the README, redrawn from a real profile.
readme-png: all
	@scripts/readme-png
	@scripts/readme-png -x lock-wait -o docs/offcpu.png

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -d $(DESTDIR)$(LIBDIR) && install -m 755 $(PRELOAD) $(DESTDIR)$(LIBDIR)
	for s in $(SCRIPTS); do [ ! -f scripts/$$s ] || install -m 755 scripts/$$s $(DESTDIR)$(BINDIR); done
	for m in $(MANS); do s=$${m##*.}; install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s/; done

uninstall:
	for t in $(TOOLS) $(SCRIPTS); do rm -f $(DESTDIR)$(BINDIR)/$$t; done
	rm -f $(DESTDIR)$(LIBDIR)/libfgalloc.so
	for m in $(MANS); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done

clean:
	rm -rf bin lib build tests/out demo.svg
