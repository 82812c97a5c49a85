# sessionctl: build, install and uninstall as a command-line tool.
#
#   make                      the release binary, the Swift runtime linked in (.build/release/sessionctl)
#   make install PREFIX=/usr/local [DESTDIR=/tmp/stage]
#   make uninstall PREFIX=/usr/local [DESTDIR=/tmp/stage]
#
# Installs the binary into PREFIX/bin, the man pages into PREFIX/share/man/man1, and the bash,
# zsh and fish completions where those shells look for them. CONFIGURATION=debug installs the
# debug build instead. NOBUILD=1 installs the binary as it is built, without asking SwiftPM to
# build it first (what CI does after its own build: a product build of other flags would compile
# again).

PREFIX ?= /usr/local
DESTDIR ?=
CONFIGURATION ?= release
SWIFT ?= swift

ifeq ($(CONFIGURATION),release)
BUILD_FLAGS = -c release --static-swift-stdlib
else
BUILD_FLAGS = -c $(CONFIGURATION)
endif

BINARY = .build/$(CONFIGURATION)/sessionctl
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
MANPAGES = $(wildcard man/*.1)

.PHONY: all build install uninstall

all: build

build:
	$(SWIFT) build $(BUILD_FLAGS) --product sessionctl

ifeq ($(NOBUILD),)
install: build
endif

install:
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 755 "$(BINARY)" "$(BINDIR)/sessionctl"
	install -m 644 $(MANPAGES) "$(MANDIR)/"
	"$(BINARY)" --generate-completion-script bash > "$(BASHDIR)/sessionctl"
	"$(BINARY)" --generate-completion-script zsh > "$(ZSHDIR)/_sessionctl"
	"$(BINARY)" --generate-completion-script fish > "$(FISHDIR)/sessionctl.fish"

uninstall:
	rm -f "$(BINDIR)/sessionctl" "$(BASHDIR)/sessionctl" "$(ZSHDIR)/_sessionctl" "$(FISHDIR)/sessionctl.fish"
	rm -f $(addprefix "$(MANDIR)/,$(addsuffix ",$(notdir $(MANPAGES))))
