# diskstat: libdiskstat and the tools built on it.  GNU make.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGDIR ?= $(LIBDIR)/pkgconfig
COMPDIR ?= $(PREFIX)/share/bash-completion/completions

CC ?= cc
AR ?= ar
RANLIB ?= ranlib
CFLAGS ?= -std=c11 -O2 -Wall -Wextra
CPPFLAGS += -D_GNU_SOURCE -Ilib
LDFLAGS ?=

# make SANITIZE=1: everything built with ASan and UBSan.
ifeq ($(SANITIZE),1)
CFLAGS += -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

LIBSRC := $(sort $(wildcard lib/*.c))
LIBOBJ := $(LIBSRC:.c=.o)
LIB := lib/libdiskstat.a
# The tools' own archive (cmd/util/util.h): options, messages, reports.
UTILSRC := $(sort $(wildcard cmd/util/*.c))
UTILOBJ := $(UTILSRC:.c=.o)
UTIL := cmd/util/libutil.a
# Each tool is a folder of its own code, cmd/TOOL/*.c (main.c and what
# reads naturally beside it), built into cmd/TOOL/TOOL.
TOOLNAMES := $(patsubst cmd/%/main.c,%,$(sort $(wildcard cmd/*/main.c)))
TOOLS := $(foreach t,$(TOOLNAMES),cmd/$(t)/$(t))
# Each tool's files but main.c, as an archive the unit tests link too.
TOOLARCHS := $(foreach t,$(TOOLNAMES),cmd/$(t)/$(t).a)
# t/unit/oracle.c: the tests' own parsers (oracle.h), and t/unit/bpftest.c
# the bpf(2) calls only tests make (bpftest.h): linked into each.
UNITHELP := t/unit/oracle.o t/unit/bpftest.o
UNITS := $(filter-out $(UNITHELP:.o=),$(patsubst %.c,%,$(sort $(wildcard t/unit/*.c))))
MAN1 := $(sort $(wildcard doc/*.1))
MAN3 := $(sort $(wildcard doc/*.3))

all: $(LIB) $(UTIL) $(TOOLS)

# make static: the tools linked with -static into cmd/static/, for rescue
# shells and minimal images.  Built from their own objects without the
# sanitizers (which cannot be linked statically), so "make static" works
# in a SANITIZE=1 tree too.  Nothing in the library uses NSS (user
# names come from the root's etc/passwd), so the binaries are complete.
SCFLAGS := $(filter-out -fsanitize=% -fno-sanitize% -fno-omit-frame-pointer,$(CFLAGS))
SLDFLAGS := $(filter-out -fsanitize=%,$(LDFLAGS)) -static
SLIBOBJ := $(patsubst lib/%.c,cmd/static/lib/%.o,$(LIBSRC))
SLIB := cmd/static/libdiskstat.a
SUTILOBJ := $(patsubst cmd/util/%.c,cmd/static/util/%.o,$(UTILSRC))
SUTIL := cmd/static/libutil.a
STATIC := $(foreach t,$(TOOLNAMES),cmd/static/$(t))

static: $(STATIC)

# Rebuild everything when the compiler or its flags change.
FLAGS := $(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS)
$(shell echo '$(FLAGS)' | cmp -s - .flags 2>/dev/null || echo '$(FLAGS)' > .flags)
# Made by the line above while make reads this file, after make has
# looked at the directory: this empty rule keeps a fresh tree buildable.
.flags: ;

# Each object depends on the headers it includes, as the compiler lists
# them in lib/NAME.d (-MMD; -MP so that a header removed breaks nothing):
# a change to lib/suite.h rebuilds only what includes it.  An object
# without its .d (a tree built before) is rebuilt: the empty rule makes
# the missing .d count as new.
lib/%.o: lib/%.c lib/%.d .flags
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

lib/%.d: ;
.PRECIOUS: lib/%.d cmd/static/lib/%.d
-include $(LIBOBJ:.o=.d)

$(LIB): $(LIBOBJ)
	rm -f $@
	$(AR) rcs $@ $(LIBOBJ)

cmd/util/%.o: cmd/util/%.c cmd/util/*.h lib/diskstat.h lib/grow.h .flags
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(UTIL): $(UTILOBJ)
	rm -f $@
	$(AR) rcs $@ $(UTILOBJ)

# A tool's sources and headers are those of its folder.
.SECONDEXPANSION:
cmd/%.o: cmd/%.c $$(wildcard $$(dir $$@)*.h) cmd/util/*.h lib/*.h .flags
	$(CC) $(CPPFLAGS) -Icmd $(CFLAGS) -c -o $@ $<

# (ranlib: an archive of no member yet still needs its index.)
# (In a pattern rule's prerequisites % is the stem: $(pc) is a percent.)
pc := %
$(TOOLARCHS): %.a: $$(patsubst $$(pc).c,$$(pc).o,$$(filter-out \
    $$(pc)/main.c,$$(wildcard $$(dir $$@)*.c)))
	rm -f $@
	$(AR) rcs $@ $^
	$(RANLIB) $@

$(TOOLS): %: $$(dir $$@)main.o $$@.a $(UTIL) $(LIB) .flags
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(dir $@)main.o $@.a $(UTIL) $(LIB)

t/unit/oracle.o: t/unit/oracle.c t/unit/oracle.h lib/*.h .flags
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

t/unit/bpftest.o: t/unit/bpftest.c t/unit/bpftest.h lib/*.h .flags
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# Unit tests may use libm (the tools never do).  A test of a tool's own
# code includes "TOOL/TOOL.h" and is linked with the tools' archives.
t/unit/%: t/unit/%.c t/unit/*.h $(UNITHELP) lib/*.h cmd/*/*.h \
    $(TOOLARCHS) $(UTIL) $(LIB) .flags
	$(CC) $(CPPFLAGS) -Icmd $(CFLAGS) $(LDFLAGS) -o $@ $< $(UNITHELP) \
	    $(TOOLARCHS) $(UTIL) $(LIB) -lm

cmd/static/lib/%.o: lib/%.c cmd/static/lib/%.d .flags
	@mkdir -p cmd/static/lib
	$(CC) $(CPPFLAGS) $(SCFLAGS) -MMD -MP -c -o $@ $<

cmd/static/lib/%.d: ;
-include $(SLIBOBJ:.o=.d)

$(SLIB): $(SLIBOBJ)
	rm -f $@
	$(AR) rcs $@ $(SLIBOBJ)

cmd/static/util/%.o: cmd/util/%.c cmd/util/util.h lib/diskstat.h .flags
	@mkdir -p cmd/static/util
	$(CC) $(CPPFLAGS) $(SCFLAGS) -c -o $@ $<

$(SUTIL): $(SUTILOBJ)
	rm -f $@
	$(AR) rcs $@ $(SUTILOBJ)

$(STATIC): cmd/static/%: $$(wildcard cmd/%/*.c) $$(wildcard cmd/%/*.h) \
    cmd/util/util.h lib/*.h $(SUTIL) $(SLIB) .flags
	$(CC) $(CPPFLAGS) -Icmd $(SCFLAGS) $(SLDFLAGS) -o $@ \
	    $(filter %.c,$^) $(SUTIL) $(SLIB)

# The lab's test helpers (t/lab/*.c, see t/lab.sh): built for check,
# never installed.
LABS := $(patsubst %.c,%,$(sort $(wildcard t/lab/*.c)))

t/lab/%: t/lab/%.c .flags
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -pthread

# The suite runs CHECK_JOBS scripts at a time (most of them wait on
# sampling intervals, not on the CPU).  A script that reads or sets what
# the whole machine shares (the lab's timings, a sysctl, the kernel's
# count of BPF programs) says "# make check: alone (why)" on its second
# line and runs after the others, one at a time; one of the longest
# says "# make check: early" and is started first.  Both parts always
# run.  A script that builds and installs the Debian packages on this
# machine says "# make check-package" and is make check-package's.
CHECK_JOBS = 3
ALONE := $(shell grep -l '^\# make check: alone' t/*.t)
EARLY := $(shell grep -l '^\# make check: early' t/*.t | sort -r)
PACKAGE := $(shell grep -l '^\# make check-package' t/*.t)
SHARED := $(filter-out $(ALONE) $(EARLY) $(PACKAGE),$(sort $(wildcard t/*.t)))

#
# A run that fails ends with what failed (t/check.log keeps the whole
# output): prove's summary of each part, then every "not ok" a script
# of t/lib.sh wrote (DS_FAILED), so the last lines of a CI log name it.
check: all $(UNITS) $(LABS)
	@rm -f t/check.log t/check.failed t/check.rc; st=0; \
	DS_FAILED=$(CURDIR)/t/check.failed; export DS_FAILED; \
	{ LC_ALL=C TZ=UTC prove -j$(CHECK_JOBS) $(PROVEFLAGS) $(EARLY) $(UNITS) $(SHARED) 2>&1; \
	  echo $$? >t/check.rc; } | tee t/check.log; \
	[ "$$(cat t/check.rc)" = 0 ] || st=1; \
	echo "== the tests that run alone" | tee -a t/check.log; \
	{ LC_ALL=C TZ=UTC prove $(PROVEFLAGS) $(ALONE) 2>&1; \
	  echo $$? >t/check.rc; } | tee -a t/check.log; \
	[ "$$(cat t/check.rc)" = 0 ] || st=1; \
	rm -f t/check.rc; \
	if [ $$st != 0 ]; then \
		echo "== what failed (the whole output is in t/check.log)"; \
		sed -n '/^Test Summary Report/,/^Files=/{/^Files=/d;/^---/d;p;}' t/check.log; \
		[ ! -s t/check.failed ] || cat t/check.failed; \
	fi; \
	exit $$st

# dpkg-buildpackage, lintian, installing and purging the packages.
check-package: all
	LC_ALL=C TZ=UTC prove $(PROVEFLAGS) $(PACKAGE)

# The library's unit tests alone (what the Debian package build runs).
check-unit: $(UNITS)
	LC_ALL=C TZ=UTC prove $(PROVEFLAGS) $(UNITS)

# make bench: our tools against the peers and the floor programs
# (t/bench/); needs root.  Never part of check.  BENCH_RUNS=N runs per
# command (default 5); see t/bench/bench.sh for the other knobs.
BENCHSRC := $(sort $(wildcard t/bench/*.c))
BENCHBIN := $(patsubst t/bench/%.c,t/bench/out/bin/%,$(BENCHSRC))

t/bench/out/bin/%: t/bench/%.c .flags
	@mkdir -p t/bench/out/bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -pthread

# Static, so its own RSS stays below what it measures (see run.c).
t/bench/out/bin/run: t/bench/run.c .flags
	@mkdir -p t/bench/out/bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -static -o $@ $<

# histgen writes captures through the library's archive reader and writer.
t/bench/out/bin/histgen: t/bench/histgen.c $(LIB) .flags
	@mkdir -p t/bench/out/bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB)

bench: all $(BENCHBIN)
	sh t/bench/bench.sh

# Everything the tests and benches build, without running them (CI
# checks that it compiles without a warning).
build-tests: all $(UNITS) $(LABS) $(BENCHBIN)

bench-clean:
	rm -rf t/bench/out

clean: bench-clean
.PHONY: bench bench-clean build-tests

# make fuzz: each t/fuzz/NAME.c (but fuzz.h's helpers and replay.c) built
# over the library's and cmd/util's sources (the tools' parsers of option
# values) with libFuzzer, ASan and UBSan, then run for FUZZ_SECONDS from its
# seeds in t/fuzz/corpus/NAME.  FUZZERS=NAME picks some.  What the
# fuzzer learns stays in t/fuzz/out/NAME.corpus; a crash is saved as
# t/fuzz/out/NAME-crash-* and stops the run (copy it to
# t/fuzz/regress/NAME/ so "make check" replays it).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS ?= -std=c11 -g -O1 -Wall -Wextra -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZERS ?= $(filter-out replay,$(patsubst t/fuzz/%.c,%,$(sort $(wildcard t/fuzz/*.c))))

fuzz:
	@mkdir -p t/fuzz/bin t/fuzz/out
	@set -e; for f in $(FUZZERS); do \
		echo "== fuzz $$f ($(FUZZ_SECONDS) s)"; \
		$(FUZZ_CC) $(CPPFLAGS) -It/fuzz -Icmd $(FUZZ_FLAGS) \
		    -o t/fuzz/bin/$$f t/fuzz/$$f.c t/unit/oracle.c $(UTILSRC) \
		    $(LIBSRC); \
		mkdir -p t/fuzz/out/$$f.corpus; \
		t/fuzz/bin/$$f -max_total_time=$(FUZZ_SECONDS) \
		    -print_final_stats=1 -artifact_prefix=t/fuzz/out/$$f- \
		    t/fuzz/out/$$f.corpus t/fuzz/corpus/$$f \
		    2>t/fuzz/out/$$f.log || { tail -40 t/fuzz/out/$$f.log; exit 1; }; \
		grep -E '^(stat::number_of_executed_units|Done)' t/fuzz/out/$$f.log; \
	done

# Written on every run: PREFIX or LIBDIR may differ from the last one.
libdiskstat.pc: FORCE
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' \
	    'includedir=$(INCDIR)' '' 'Name: libdiskstat' \
	    'Description: Linux block-layer, PSI and process I/O accounting' \
	    'Version: $(shell sed -n 's/^#define DS_VERSION "\(.*\)"/\1/p' lib/diskstat.h)' \
	    'Libs: -L$${libdir} -ldiskstat' 'Cflags: -I$${includedir}' > $@

install: all libdiskstat.pc
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(PKGDIR) \
	    $(DESTDIR)$(COMPDIR)
	for t in $(TOOLS); do install -m 0755 $$t $(DESTDIR)$(BINDIR)/; done
	install -m 0644 $(LIB) $(DESTDIR)$(LIBDIR)/
	install -m 0644 lib/diskstat.h $(DESTDIR)$(INCDIR)/
	install -m 0644 libdiskstat.pc $(DESTDIR)$(PKGDIR)/
	for m in $(MAN1); do install -m 0644 $$m $(DESTDIR)$(MANDIR)/man1/; done
	for m in $(MAN3); do install -m 0644 $$m $(DESTDIR)$(MANDIR)/man3/; done
	# bash-completion loads completions/NAME when NAME is first completed.
	for t in $(TOOLNAMES); do install -m 0644 doc/diskstat.bash-completion \
	    $(DESTDIR)$(COMPDIR)/$$t; done

# make examples: doc/examples/*.c built as a user of the library builds
# them, against what make install puts in EXDIR/root alone (never
# -Ilib): through the installed libdiskstat.pc when pkg-config is here,
# else with the flags it would give.  The programs go to EXDIR.
EXDIR ?= doc/examples/out
EXAMPLES := $(patsubst doc/examples/%.c,%,$(sort $(wildcard doc/examples/*.c)))
EXFLAGS := -std=c11 -Wall -Wextra -Werror -pedantic $(filter -fsanitize=%,$(LDFLAGS))

examples: all
	@rm -rf $(EXDIR)/root && mkdir -p $(EXDIR)/root
	$(MAKE) -s install DESTDIR=$(abspath $(EXDIR)/root) PREFIX=/usr
	@d=$(abspath $(EXDIR)/root); \
	pc() { PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR=$$d/usr/lib/pkgconfig \
	    PKG_CONFIG_SYSROOT_DIR=$$d pkg-config "$$@" libdiskstat; }; \
	if command -v pkg-config >/dev/null 2>&1; then \
		cf=$$(pc --cflags) && lf=$$(pc --libs) || exit 1; \
	else \
		cf=-I$$d/usr/include lf="-L$$d/usr/lib -ldiskstat"; \
	fi; \
	for e in $(EXAMPLES); do \
		echo "$(CC) $(EXFLAGS) $$cf -o $(EXDIR)/$$e doc/examples/$$e.c $$lf"; \
		$(CC) $(EXFLAGS) $$cf -o $(EXDIR)/$$e doc/examples/$$e.c $$lf || exit 1; \
	done

uninstall:
	for t in $(TOOLNAMES); do rm -f $(DESTDIR)$(BINDIR)/$$t \
	    $(DESTDIR)$(COMPDIR)/$$t; done
	rm -f $(DESTDIR)$(LIBDIR)/libdiskstat.a $(DESTDIR)$(INCDIR)/diskstat.h \
	    $(DESTDIR)$(PKGDIR)/libdiskstat.pc
	for m in $(MAN1); do rm -f $(DESTDIR)$(MANDIR)/man1/$${m#doc/}; done
	for m in $(MAN3); do rm -f $(DESTDIR)$(MANDIR)/man3/$${m#doc/}; done

clean:
	rm -f lib/*.o lib/*.d $(LIB) cmd/*/*.o $(UTIL) $(TOOLARCHS) $(TOOLS) $(UNITS) \
	    $(LABS) $(UNITHELP) \
	    libdiskstat.pc .flags
	rm -rf cmd/static doc/examples/out
	rm -rf t/trash.*
	rm -f t/check.log t/check.failed t/check.rc

.PHONY: all static check check-package check-unit install uninstall clean FORCE fuzz \
    examples
