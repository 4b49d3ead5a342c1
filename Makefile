# autograd_course — developer entry points (GNU make). Run `make help`.
# Everything runs through $(VENV)/bin/python -m ...; no activated shell needed.

SHELL  := /bin/bash
PYTHON := python3
VENV   := .venv
PY     := $(VENV)/bin/python

# The venv is (re)installed only when pyproject.toml or a requirements file changes:
# the stamp's name carries a hash of their contents, so a second `make test` installs nothing.
DEP_FILES := pyproject.toml $(sort $(wildcard requirements*.txt))
DEP_HASH  := $(shell cat $(DEP_FILES) 2>/dev/null | { sha256sum 2>/dev/null || shasum -a 256; } | cut -c1-16)
STAMP     := $(VENV)/.installed-$(DEP_HASH)
# The Jupyter kernel the venv provides. The notebooks' kernelspec names exactly this
# (tests/browser/test_kernelspec.py): a different display name makes JupyterLab rewrite the
# metadata of every notebook it opens, so closing one unedited would ask to save it.
KERNEL_NAME    := python3
KERNEL_DISPLAY := Python 3
KERNEL_JSON    := $(VENV)/share/jupyter/kernels/$(KERNEL_NAME)/kernel.json
BENCH_STAMP := $(VENV)/.bench-installed-$(DEP_HASH)

# Only directories that exist are linted / tested (notebooks/ may be empty or absent).
# pytest walks notebooks/ recursively, so nbval also runs the Chinese edition (notebooks/zh/,
# notebooks/zh/solutions/); each notebook's kernel starts in the notebook's own folder (nbval
# and nbconvert both do this), which is how a chapter under zh/ knows to speak Chinese.
LINT_DIRS := $(wildcard autograd_course tests benchmarks scripts)
TEST_DIRS := $(wildcard tests notebooks)
NOTEBOOKS := $(sort $(wildcard notebooks/[0-9]*.ipynb notebooks/appendix_*.ipynb))
SOLUTIONS := $(sort $(wildcard notebooks/solutions/*.ipynb))
ZH_NOTEBOOKS := $(sort $(wildcard notebooks/zh/[0-9]*.ipynb notebooks/zh/appendix_*.ipynb))
ZH_SOLUTIONS := $(sort $(wildcard notebooks/zh/solutions/*.ipynb))
ALL_NOTEBOOKS := $(NOTEBOOKS) $(SOLUTIONS) $(ZH_NOTEBOOKS) $(ZH_SOLUTIONS)
NBEXEC    := --ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=600

# Let the venv's kernelspec (installed with --sys-prefix) win over any user-level one,
# so kernel "python3" is always $(VENV)/bin/python.
export JUPYTER_PREFER_ENV_PATH := 1
export JUPYTER_PLATFORM_DIRS   := 1

.DEFAULT_GOAL := help
.PHONY: help venv kernel system graphviz cjk-font lint test lab index notebooks html bench bench-deps \
        test-browser site test-site print-stamp clean distclean

help:
	@echo "make venv          create $(VENV) and install -e . + requirements-dev.txt (once)"
	@echo "make system        what the chapters need from the OS: Graphviz 'dot' and a Chinese font"
	@echo "                   (installed with apt-get when root; otherwise the command to run)"
	@echo "make test          ruff + pytest (tests/ and notebooks/ via nbval)"
	@echo "make lab           start JupyterLab on notebooks/, at the landing page index.ipynb"
	@echo "make index         rewrite notebooks/index.ipynb (links to both editions)"
	@echo "make notebooks     re-execute every notebook in place (fresh kernel), English and zh/"
	@echo "make html          execute + export notebooks to build/html (zh/ to build/html/zh)"
	@echo "make bench         run benchmarks/run.py"
	@echo "make test-browser  every notebook in JupyterLab in headless Chromium (tests/browser)"
	@echo "make site          build/site: the course as a static site that runs in the browser"
	@echo "make test-site     every notebook of build/site in its browser kernel (tests/site)"
	@echo "make clean         remove build outputs and caches (distclean: also $(VENV))"

venv: $(STAMP) kernel

$(STAMP):
	@test -x $(PY) || { echo "creating $(VENV)"; $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install -e . -r requirements-dev.txt
	$(PY) -m ipykernel install --sys-prefix --name $(KERNEL_NAME) --display-name "$(KERNEL_DISPLAY)"
	@rm -f $(VENV)/.installed-*
	@echo "$(DEP_HASH) $(DEP_FILES)" > $@
	@echo "venv ready: $@"

# (Re)install the kernelspec when it is missing or names another display name (a venv made
# before the name was fixed), without reinstalling anything else.
kernel: $(STAMP)
	@grep -qF '"display_name": "$(KERNEL_DISPLAY)"' $(KERNEL_JSON) 2>/dev/null || \
		$(PY) -m ipykernel install --sys-prefix --name $(KERNEL_NAME) --display-name "$(KERNEL_DISPLAY)"

print-stamp:
	@echo $(STAMP)

# What the chapters need from the operating system, made sure of before anything runs:
# Graphviz's `dot` (without it no graph can be drawn: make stops and says what to run) and a
# font with Chinese characters (without one the Chinese chapters still run, with a notice, and
# their tests are skipped: make says what to run and goes on). Both install with apt-get when
# root; a font installed after matplotlib wrote its cache is found anyway (fonts.py).
system: graphviz cjk-font

graphviz:
	@bash scripts/ensure_graphviz.sh

cjk-font:
	@bash scripts/ensure_cjk_font.sh || echo "cjk font: going on without one (the Chinese chapters say so once; their tests are skipped)"

lint: venv
	$(PY) -m ruff check $(LINT_DIRS)

test: system venv
	$(PY) -m ruff check $(LINT_DIRS)
	$(PY) -m pytest $(TEST_DIRS) --ignore=tests/browser --ignore=tests/site \
		--nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
		-p no:cacheprovider --durations=15

# The landing page index.ipynb links the English and the Chinese chapters (make index).
lab: system venv
	@mkdir -p notebooks
	$(PY) -m jupyterlab --ServerApp.root_dir=notebooks --ServerApp.ip=127.0.0.1 \
		--LabApp.default_url=/lab/tree/index.ipynb \
		$(if $(DISPLAY),,--no-browser) $(if $(filter 0,$(shell id -u)),--allow-root)

index:
	$(PYTHON) scripts/make_index.py

# nbconvert starts each notebook's kernel in the notebook's folder: zh/ chapters run in Chinese.
notebooks: system venv
ifeq ($(strip $(ALL_NOTEBOOKS)),)
	@echo "no notebooks under notebooks/ yet"
else
	$(PY) -m nbconvert --to notebook --execute --inplace $(NBEXEC) $(ALL_NOTEBOOKS)
endif
	$(PY) scripts/make_index.py

html: system venv
	@mkdir -p build/html/solutions build/html/zh/solutions
ifneq ($(strip $(NOTEBOOKS)),)
	$(PY) -m nbconvert --to html --execute $(NBEXEC) --output-dir build/html $(NOTEBOOKS)
endif
ifneq ($(strip $(SOLUTIONS)),)
	$(PY) -m nbconvert --to html --execute $(NBEXEC) --output-dir build/html/solutions $(SOLUTIONS)
endif
ifneq ($(strip $(ZH_NOTEBOOKS)),)
	$(PY) -m nbconvert --to html --execute $(NBEXEC) --output-dir build/html/zh $(ZH_NOTEBOOKS)
endif
ifneq ($(strip $(ZH_SOLUTIONS)),)
	$(PY) -m nbconvert --to html --execute $(NBEXEC) --output-dir build/html/zh/solutions \
		$(ZH_SOLUTIONS)
endif
	@bash scripts/html_index.sh build/html
	@echo "open build/html/index.html"

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install -r requirements-bench.txt \
		|| echo "warning: optional comparison engines not installed; benchmarks will skip them"
	@rm -f $(VENV)/.bench-installed-*
	@touch $@

bench-deps: $(BENCH_STAMP)

bench: venv bench-deps
	$(PY) benchmarks/run.py

# JupyterLab + Debian's Chromium (never `playwright install`) + a CJK font; see tests/browser.
test-browser: venv graphviz
	@bash scripts/ensure_browser.sh
	@bash scripts/ensure_cjk_font.sh
	$(PY) -m pytest tests/browser -q -p no:cacheprovider

# The static site (JupyterLite + Pyodide; README "The course in a browser tab"). Its build tools
# live in their own venv, $(SITE_VENV), from scripts/site-requirements.txt (pinned; installed
# only by this target, again only when that file changes); npm and PyPI downloads are cached in
# build/site-cache/. A Chinese font is subset into the site for matplotlib (scripts/build_site.py).
SITE_VENV  := .venv-site
SITE_STAMP := $(SITE_VENV)/.installed-$(shell cat scripts/site-requirements.txt 2>/dev/null | \
	{ sha256sum 2>/dev/null || shasum -a 256; } | cut -c1-16)

$(SITE_STAMP):
	@test -x $(SITE_VENV)/bin/python || $(PYTHON) -m venv $(SITE_VENV)
	$(SITE_VENV)/bin/python -m pip install -r scripts/site-requirements.txt
	@rm -f $(SITE_VENV)/.installed-*
	@touch $@

site: $(SITE_STAMP) cjk-font
	@command -v npm >/dev/null || { echo "make site needs npm (Node.js): apt-get install npm"; exit 1; }
	$(SITE_VENV)/bin/python scripts/build_site.py

# Serves build/site on 127.0.0.1 and runs every notebook of both editions in headless Chromium
# (Debian's; never `playwright install`). Seconds per notebook are printed at the end.
test-site: venv site
	@bash scripts/ensure_browser.sh
	$(PY) -m pytest tests/site -q -p no:cacheprovider

clean:
	rm -rf build dist .pytest_cache .hypothesis .ruff_cache *.egg-info
	find . -path ./$(VENV) -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints \) \
		-type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) $(SITE_VENV)
