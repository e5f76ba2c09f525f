# assay - build, test and demo.  `make demo` and `make test` install what is
# missing first (make deps), so a fresh Debian 12 machine needs nothing else.

CC	?= cc
BUILD	?= build
PKGS	= ncursesw vterm tree-sitter libgit2 sqlite3 jansson libcrypto libcurl \
	  libseccomp
# Checked only when building, so `make deps` works before the libraries exist.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

WARN	= -Wall -Wextra -Wshadow -Wno-missing-field-initializers
ifeq ($(CI),true)
WARN	+= -Werror
endif
CFLAGS	?= -O2 -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) \
	$(CFLAGS) -Isrc $(PKG_CFLAGS) -MMD -MP
SAN	= -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined

# The layers of docs/architecture.md: every folder under src/ but the two
# front ends (cli, ui) is linked into the unit tests and fuzz targets too.
FRONT	 = cli ui
LAYERS	 = $(filter-out $(FRONT),$(notdir $(patsubst %/,%,$(wildcard src/*/))))
CORE_SRC = $(foreach d,$(LAYERS),$(wildcard src/$(d)/*.c))
UI_SRC	 = $(wildcard src/ui/*.c src/ui/panes/*.c)
CLI_SRC	 = $(wildcard src/cli/*.c)
CORE_OBJ = $(CORE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/share.o \
	   $(BUILD)/gen/templates.o
UI_OBJ	 = $(UI_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ	 = $(CLI_SRC:%.c=$(BUILD)/%.o)
SAN_OBJ	 = $(CORE_SRC:%.c=$(BUILD)/san/%.o) $(BUILD)/gen/share.o \
	   $(BUILD)/gen/templates.o
TESTS	 = $(patsubst tests/unit/%.c,$(BUILD)/san/tests/%,$(wildcard tests/unit/test_*.c))

.PHONY: all deps build test unit e2e ui-test lint demo clean grammars

all: build

# The project venv (CadQuery, PyTorch, Triton from PyPI, pinned by hash):
# the one setting the cad and triton envs read is ASSAY_VENV, by default
# venv/ beside the assay binary.  Point it at another venv made by
# scripts/venv.sh to share one between checkouts.
ASSAY_VENV ?= $(abspath $(BUILD))/venv
export ASSAY_VENV

deps:
	@sh scripts/deps.sh
	@sh scripts/venv.sh "$(ASSAY_VENV)"

build: $(BUILD)/assay

include mk/grammars.mk

$(BUILD)/assay: $(BUILD)/src/main.o $(CLI_OBJ) $(CORE_OBJ) $(UI_OBJ) \
		$(GRAMMAR_LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS)

# Files envs write into work directories (device headers, startup code,
# linker scripts), compiled in as data: see env_share() in env.h.
SHARE_FILES = $(shell find share/envs -type f ! -name '.*' 2>/dev/null)
$(BUILD)/gen/share.c: scripts/embed.sh $(SHARE_FILES)
	@mkdir -p $(@D)
	sh scripts/embed.sh share/envs > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/share.o: $(BUILD)/gen/share.c
	$(CC) $(CFLAGS) -c -o $@ $<

# The prompt templates of generate's strategies (templates/<domain>/NAME),
# compiled in the same way: see template_find() in generate/template.h.
TEMPLATE_FILES = $(shell find templates -type f ! -name '.*' 2>/dev/null)
$(BUILD)/gen/templates.c: scripts/embed.sh $(TEMPLATE_FILES)
	@mkdir -p $(@D)
	sh scripts/embed.sh templates template_files > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/templates.o: $(BUILD)/gen/templates.c
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) -c -o $@ $<

$(BUILD)/san/tests/%: tests/unit/%.c tests/unit/testlib.h tests/unit/envtest.h \
		$(SAN_OBJ) $(GRAMMAR_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $(filter-out %.h,$^) $(PKG_LIBS) \
		$(CMOCKA_LIBS)

# The sanitised objects are shared by every test binary: keep them.
.SECONDARY: $(SAN_OBJ)

unit: $(TESTS)
	@set -e; for t in $(TESTS); do \
		ASSAY_SHARED=$(CURDIR)/../shared \
		ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $$t; \
	done

# Module boundaries (docs/style): curses only in src/ui, each library
# called from its one file; includes and calls only run down the floors of
# docs/architecture.md, with no circles (read from the objects, so it builds).
lint: $(BUILD)/assay
	@sh scripts/lint.sh $(BUILD)

e2e: $(BUILD)/assay
	@sh tests/run.sh e2e $(BUILD)/assay

ui-test: $(BUILD)/assay
	@sh tests/run.sh ui $(BUILD)/assay

test: deps
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory e2e
	@$(MAKE) --no-print-directory ui-test
	@$(MAKE) --no-print-directory fuzz-run

demo: deps
	@$(MAKE) --no-print-directory build
	@sh scripts/demo.sh $(BUILD)/assay

clean:
	rm -rf $(BUILD)/src $(BUILD)/san $(BUILD)/fuzz $(BUILD)/assay

# --- cad env: the OCCT IoU helper -----------------------------------------
# tools/iou/iou_occt.cpp becomes $(BUILD)/libexec/assay-iou, which
# src/envs/cad.c finds beside the binary and copies into each run's work
# directory.  Built only where the OCCT headers are (make deps installs
# them); without them the cad env reports its toolchain missing.  An
# order-only prerequisite of the binary and the unit tests, so that
# `make build` and `make test` build it without linking it in.
OCCT_INC   = /usr/include/opencascade
IOU_HELPER = $(BUILD)/libexec/assay-iou
IOU_LIBS   = -lTKMesh -lTKSTEP -lTKSTEPBase -lTKSTEPAttr -lTKSTEP209 -lTKXSBase \
	-lTKBO -lTKPrim -lTKTopAlgo -lTKBRep -lTKGeomAlgo -lTKGeomBase -lTKG3d \
	-lTKG2d -lTKMath -lTKernel -lTKShHealing
ifneq ($(wildcard $(OCCT_INC)),)
$(IOU_HELPER): tools/iou/iou_occt.cpp
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -O2 $(WARN) -Wno-deprecated-declarations \
		-isystem $(OCCT_INC) -o $@ $< $(IOU_LIBS)

$(BUILD)/assay $(TESTS): | $(IOU_HELPER)
endif

clean: clean-iou
clean-iou:
	rm -f $(IOU_HELPER)
.PHONY: clean-iou
# --- end of the cad env block ----------------------------------------------

# --- fuzz targets (tests/fuzz, docs/security.md) ---------------------------
# clang's libFuzzer with ASan and UBSan over the core and env objects,
# built apart in $(BUILD)/fuzz.  `make fuzz` builds the targets;
# `make fuzz-run` (part of `make test`) runs each on its committed corpus
# tests/fuzz/corpus/<target>/ for at most FUZZ_RUNS inputs or
# FUZZ_SECONDS, writing new inputs to a scratch directory, never to the
# corpus.  Longer by hand: `make fuzz-run FUZZ_SECONDS=300 FUZZ_RUNS=-1`.
FUZZ_CC	 ?= clang
FUZZ_SECONDS ?= 10
FUZZ_RUNS ?= 20000
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 \
	-Isrc $(PKG_CFLAGS) $(FUZZ_SAN)
FUZZ_OBJ = $(CORE_SRC:%.c=$(BUILD)/fuzz/%.o) $(BUILD)/gen/share.o \
	   $(BUILD)/gen/templates.o
FUZZ_JUDGE = iverilog verilator yosys x86asm armqemu
FUZZ_TARGETS = import_assay import_rtlfixer filter \
	$(FUZZ_JUDGE:%=judge_%)
FUZZ_BIN = $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)

.PHONY: fuzz fuzz-run
fuzz: $(FUZZ_BIN)

$(BUILD)/fuzz/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(BUILD)/fuzz/fuzz_import_assay: tests/fuzz/fuzz_import.c $(FUZZ_OBJ) \
		$(GRAMMAR_LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DFUZZ_FORMAT=IMPORT_ASSAY \
	    -o $@ $(filter %.c %.o,$^) $(GRAMMAR_LIB) $(PKG_LIBS)
$(BUILD)/fuzz/fuzz_import_rtlfixer: tests/fuzz/fuzz_import.c $(FUZZ_OBJ) \
		$(GRAMMAR_LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer \
	    -DFUZZ_FORMAT=IMPORT_RTLFIXER -o $@ $(filter %.c %.o,$^) \
	    $(GRAMMAR_LIB) $(PKG_LIBS)
$(BUILD)/fuzz/fuzz_filter: tests/fuzz/fuzz_filter.c $(FUZZ_OBJ) \
		$(GRAMMAR_LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ \
	    $(filter %.c %.o,$^) $(GRAMMAR_LIB) $(PKG_LIBS)
$(BUILD)/fuzz/fuzz_judge_%: tests/fuzz/fuzz_judge.c $(FUZZ_OBJ) \
		$(GRAMMAR_LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DFUZZ_ENV=env_$* -o $@ \
	    $(filter %.c %.o,$^) $(GRAMMAR_LIB) $(PKG_LIBS)

fuzz-run: $(FUZZ_BIN)
	@set -e; for t in $(FUZZ_TARGETS); do \
		scratch=$$(mktemp -d); \
		echo "fuzz: $$t ($(FUZZ_RUNS) runs or $(FUZZ_SECONDS) s)"; \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		$(BUILD)/fuzz/fuzz_$$t -runs=$(FUZZ_RUNS) \
		    -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 \
		    -artifact_prefix=$(BUILD)/fuzz/$$t- \
		    $$scratch tests/fuzz/corpus/$$t 2>$(BUILD)/fuzz/$$t.log || \
		    { tail -n 40 $(BUILD)/fuzz/$$t.log; rm -rf $$scratch; exit 1; }; \
		rm -rf $$scratch; \
	done

-include $(CORE_OBJ:.o=.d) $(UI_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(SAN_OBJ:.o=.d) \
	$(BUILD)/src/main.d $(CORE_SRC:%.c=$(BUILD)/fuzz/%.d)
