# grammars.mk - the pinned tree-sitter grammars (grammars/manifest) as one
# static archive, GRAMMAR_LIB.  Each grammar is fetched, checksummed and
# compiled once by scripts/grammars.sh (one make job per grammar, so
# `make -j2` builds the two big ones side by side); its stamp only changes
# when the manifest or the script does, so a second make does nothing.
# Grammar objects are built with -O2 -w and never with sanitizers.

GRAMMAR_MANIFEST = grammars/manifest
GRAMMAR_DIR	 = $(BUILD)/grammars
GRAMMAR_LIB	 = $(GRAMMAR_DIR)/libgrammars.a
GRAMMAR_NAMES	:= $(shell awk '!/^\#/ && NF >= 3 { print $$1 }' \
	$(GRAMMAR_MANIFEST) 2>/dev/null)
GRAMMAR_STAMPS	 = $(GRAMMAR_NAMES:%=$(GRAMMAR_DIR)/%/.built)

grammars: $(GRAMMAR_LIB)

$(GRAMMAR_DIR)/%/.built: $(GRAMMAR_MANIFEST) scripts/grammars.sh
	@CC="$(CC)" sh scripts/grammars.sh build $(GRAMMAR_MANIFEST) $* \
		$(GRAMMAR_DIR)
	@touch $@

$(GRAMMAR_LIB): $(GRAMMAR_STAMPS)
	@rm -f $@.tmp
	ar rcs $@.tmp $(GRAMMAR_NAMES:%=$(GRAMMAR_DIR)/%/*.o)
	@mv $@.tmp $@
