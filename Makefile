# assay - build, test and demo.  `make demo` and `make test` install what is
# missing first (make deps), so a fresh Debian 12 machine needs nothing else.

CC	?= cc
BUILD	?= build
PKGS	= ncursesw vterm tree-sitter libgit2 sqlite3 jansson libcrypto
# Checked only when building, so `make deps` works before the libraries exist.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

WARN	= -Wall -Wextra -Wshadow -Wno-missing-field-initializers
ifeq ($(CI),true)
WARN	+= -Werror
endif
CFLAGS	?= -O2 -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) \
	$(CFLAGS) -Isrc -Isrc/core $(PKG_CFLAGS) -MMD -MP
SAN	= -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined

CORE_SRC = $(wildcard src/core/*.c) $(wildcard src/envs/*.c)
UI_SRC	 = $(wildcard src/ui/*.c)
CORE_OBJ = $(CORE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/share.o
UI_OBJ	 = $(UI_SRC:%.c=$(BUILD)/%.o)
SAN_OBJ	 = $(CORE_SRC:%.c=$(BUILD)/san/%.o) $(BUILD)/gen/share.o
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

$(BUILD)/assay: $(BUILD)/src/main.o $(BUILD)/src/cli.o $(CORE_OBJ) $(UI_OBJ) $(GRAMMAR_LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS)

# Files envs write into work directories (device headers, startup code,
# linker scripts), compiled in as data: see env_share() in env.h.
SHARE_FILES = $(shell find share/envs -type f ! -name '.*' 2>/dev/null)
$(BUILD)/gen/share.c: scripts/embed.sh $(SHARE_FILES)
	@mkdir -p $(@D)
	sh scripts/embed.sh share/envs > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/share.o: $(BUILD)/gen/share.c
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
# called from its one core file.
lint:
	@sh scripts/lint.sh

e2e: $(BUILD)/assay
	@sh tests/run.sh e2e $(BUILD)/assay

ui-test: $(BUILD)/assay
	@sh tests/run.sh ui $(BUILD)/assay

test: deps
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory e2e
	@$(MAKE) --no-print-directory ui-test

demo: deps
	@$(MAKE) --no-print-directory build
	@sh scripts/demo.sh $(BUILD)/assay

clean:
	rm -rf $(BUILD)/src $(BUILD)/san $(BUILD)/assay

# --- cad env: the OCCT IoU helper -----------------------------------------
# tools/iou/iou_occt.cpp becomes $(BUILD)/libexec/assay-iou, which
# src/envs/cad.c finds beside the binary and copies into each run's work
# directory.  Built only where the OCCT headers are (make deps installs
# them); without them the cad env reports its toolchain missing.  An
# order-only prerequisite of the binary and the unit tests, so that
# `make build` and `make test` build it without linking it in.
OCCT_INC   = /usr/include/opencascade
IOU_HELPER = $(BUILD)/libexec/assay-iou
IOU_LIBS   = -lTKSTEP -lTKSTEPBase -lTKSTEPAttr -lTKSTEP209 -lTKXSBase \
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

-include $(CORE_OBJ:.o=.d) $(UI_OBJ:.o=.d) $(SAN_OBJ:.o=.d) $(BUILD)/src/main.d \
	$(BUILD)/src/cli.d
