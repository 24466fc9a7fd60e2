# fgtools: fgrecord | fgsym | fgfold | fgsvg
#
#   make            build the four tools
#   make check      install missing packages, build, run every test
#   make demo       profile a bundled example and write demo.svg
#   make bench      measure speed, side by side with the reference tools
#   make stress     load figures: a million unique stacks, 16 threads
#   make fuzz       run every fuzz harness for FUZZ_TIME seconds (libFuzzer)
#   make readme-png redraw docs/flamegraph.png and docs/offcpu.png from profiles of examples
#   make install PREFIX=/usr/local

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
CC	?= cc
PKGS	 = libelf libdw capstone libxxhash

CFLAGS	?= -O2 -g
CFLAGS	+= -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -Icommon
CFLAGS	+= $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS	+= $(shell pkg-config --libs $(PKGS) 2>/dev/null) -liberty -lm

# make check SANITIZE=1: everything under ASan and UBSan; undefined
# behaviour stops the program, so that a test sees it.
ifeq ($(SANITIZE),1)
CFLAGS	+= -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS	+= -fsanitize=address,undefined -fno-sanitize-recover=undefined
endif

TOOLS	= fgrecord fgsym fgfold fgsvg
BINS	= $(TOOLS:%=bin/%)
LIBSRC	= $(sort $(wildcard common/*.c))
LIBOBJ	= $(LIBSRC:%.c=build/%.o)
UNITSRC	= $(sort $(wildcard tests/unit/test_*.c))
UNITS	= $(UNITSRC:tests/unit/%.c=build/tests/%)
MANS	= $(sort $(wildcard man/*.[1-9]))
# Fuzz harnesses: libFuzzer targets for make fuzz, and the same harnesses
# linked with a replay driver for make check (seeds and kept crashes).
FUZZSRC	= $(sort $(wildcard tests/fuzz/fuzz_*.c))
REGRESS	= $(FUZZSRC:tests/fuzz/fuzz_%.c=build/regress/regress_%)
FUZZERS	= $(FUZZSRC:tests/fuzz/fuzz_%.c=build/fuzz/fuzz_%)
FUZZCC	?= clang
FUZZ_TIME ?= 60
FUZZSAN	= -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZOBJ	= $(LIBSRC:%.c=build/fuzz/%.o)
SCRIPTS	= cargo-fg

.PHONY: all deps check test demo bench install uninstall clean lint-man readme-png fuzz fuzzdeps stress
all: $(BINS) $(UNITS) $(REGRESS)

deps:
	@scripts/deps

build/common/%.o: common/%.c $(wildcard common/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

build/libfg.a: $(LIBOBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# Linked to a temporary name and renamed, so that a test running the old
# binary never finds a half-written one.
bin/%: cmd/%.c build/libfg.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@.tmp $< build/libfg.a $(LDLIBS) && mv -f $@.tmp $@

build/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) build/libfg.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< build/libfg.a $(LDLIBS)

build/regress/regress_%: tests/fuzz/fuzz_%.c tests/fuzz/driver.c tests/fuzz/fuzz.h build/libfg.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/fuzz $(LDFLAGS) -o $@ $< tests/fuzz/driver.c build/libfg.a $(LDLIBS)

build/fuzz/common/%.o: common/%.c | fuzzdeps $(wildcard common/*.h)
	@mkdir -p $(@D)
	$(FUZZCC) -g -O1 -std=gnu11 -D_GNU_SOURCE -Icommon -fsanitize=fuzzer-no-link $(FUZZSAN) \
	    $(shell pkg-config --cflags $(PKGS) 2>/dev/null) -c -o $@ $<

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZOBJ)
	$(FUZZCC) -g -O1 -std=gnu11 -D_GNU_SOURCE -Icommon -Itests/fuzz -fsanitize=fuzzer $(FUZZSAN) \
	    -o $@ $< $(FUZZOBJ) $(LDLIBS)

fuzzdeps:
	@FG_WITH_FUZZ=1 scripts/deps

# Runs every harness for FUZZ_TIME seconds, from its seeds; a crash is
# saved under build/fuzz/ and should be kept in tests/fuzz/regress/NAME/.
# The sanitized objects are kept between runs (make would delete them as
# intermediates and rebuild them all each time).
.SECONDARY: $(FUZZOBJ)

fuzz: $(FUZZERS)
	@scripts/fuzz $(FUZZ_TIME) $(FUZZERS)

check: deps
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
	for s in $(SCRIPTS); do [ ! -f scripts/$$s ] || install -m 755 scripts/$$s $(DESTDIR)$(BINDIR); done
	for m in $(MANS); do s=$${m##*.}; install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s/; done

uninstall:
	for t in $(TOOLS) $(SCRIPTS); do rm -f $(DESTDIR)$(BINDIR)/$$t; done
	for m in $(MANS); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done

clean:
	rm -rf bin build tests/out demo.svg
